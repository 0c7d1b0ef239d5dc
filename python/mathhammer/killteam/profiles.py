"""Kill Team profiles: a Weapon, a Fighter (melee weapon + wounds + abilities + strategy), an Operative (target).

Ranges follow docs/rules/killteam.md §5. Rules and abilities accept datacard notation or parsed objects.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from mathhammer.library import FieldsProfile
from mathhammer._guard import check_notation, excerpt
from mathhammer._validate import InputError, InputTypeError, check_choice, check_int, check_stat
from mathhammer.killteam.rules import Abilities, WeaponRules, as_abilities, as_weapon_rules

#: The heuristic strategies (docs/rules/killteam.md §3).
STRATEGIES: tuple[str, ...] = ("strike", "parry", "max_damage", "min_damage")
#: The heuristics and "optimal" (docs/rules/killteam.md §7), which plays the best move for an objective.
ALL_STRATEGIES: tuple[str, ...] = STRATEGIES + ("optimal",)
#: What an optimal fighter plays for (docs/rules/killteam.md §7), each a tuple compared lexicographically:
#: trade ([enemy dies] - [self dies], enemy lost - own lost); net (enemy lost - own lost,
#: [enemy dies] - [self dies]); kill ([enemy dies], -own lost, enemy lost); survive (-[self dies],
#: enemy lost - own lost).
OBJECTIVES: tuple[str, ...] = ("trade", "net", "kill", "survive")
MAX_ATTACKS = 12
MAX_DAMAGE = 12
MAX_WOUNDS = 40


def _check_damage(name: str, value: Any) -> tuple[int, int]:
    if isinstance(value, str):
        match = re.fullmatch(r"\s*(\d+)\s*/\s*(\d+)\s*", check_notation(name, value))
        if not match:
            raise InputError(name, f"{excerpt(value)} is not damage; write it as (3, 4) or '3/4'")
        value = (int(match.group(1)), int(match.group(2)))
    if not isinstance(value, (tuple, list)) or len(value) != 2:
        raise InputTypeError(name, f"expected (normal, critical) damage such as (3, 4), got {value!r}")
    return (check_int(f"{name}.normal", value[0], 0, MAX_DAMAGE), check_int(f"{name}.critical", value[1], 0, MAX_DAMAGE))


_CARD = re.compile(r"^\s*(\d+)\s*A\s+(\d)\+?\s+(\d+)\s*/\s*(\d+)\s*(.*)$", re.IGNORECASE)


@dataclass(frozen=True)
class Weapon(FieldsProfile):
    """A weapon profile: attacks (1..12), hit X+ (2..6), damage (normal, critical) 0..12, rules."""

    KIND = "weapon"

    attacks: int
    hit: int
    damage: tuple[int, int] = (3, 4)
    rules: WeaponRules = field(default_factory=WeaponRules)

    if TYPE_CHECKING:  # what the constructor accepts: stats as 3 or "3+", damage as "3/4", rules as notation
        def __init__(self, attacks: int, hit: int | str, damage: tuple[int, int] | str = (3, 4),
                     rules: WeaponRules | str = ...) -> None: ...

    def __post_init__(self) -> None:
        object.__setattr__(self, "attacks", check_int("attacks", self.attacks, 1, MAX_ATTACKS))
        object.__setattr__(self, "hit", check_stat("hit", self.hit))
        object.__setattr__(self, "damage", _check_damage("damage", self.damage))
        object.__setattr__(self, "rules", as_weapon_rules(self.rules))

    @property
    def normal_damage(self) -> int:
        return self.damage[0]

    @property
    def critical_damage(self) -> int:
        return self.damage[1]

    @property
    def crit_threshold(self) -> int:
        """Crits on this or more: 6, or Lethal x (never below the hit stat)."""
        return 6 if self.rules.lethal is None else max(self.rules.lethal, self.hit)

    @classmethod
    def parse(cls, text: str) -> Weapon:
        """Datacard notation: "4A 3+ 3/4 Lethal 5+, Piercing 1"."""
        if not isinstance(text, str):
            raise InputTypeError("weapon", f"expected datacard notation such as '4A 3+ 3/4 Lethal 5+', got {text!r}")
        match = _CARD.match(check_notation("weapon", text))
        if not match:
            raise InputError("weapon", f"{excerpt(text)} is not datacard notation; expected e.g. '4A 3+ 3/4 Lethal 5+, Piercing 1'")
        attacks, hit, dn, dc, rules = match.groups()
        return cls(int(attacks), int(hit), (int(dn), int(dc)), rules.strip())

    def __str__(self) -> str:
        text = f"{self.attacks}A {self.hit}+ {self.damage[0]}/{self.damage[1]}"
        rules = str(self.rules)
        return f"{text} {rules}" if rules else text


@dataclass(frozen=True)
class Fighter(FieldsProfile):
    """A fighter in melee: its melee weapon (attacks, hit, damage, rules), wounds, abilities and strategy.

    strategy: "strike", "parry", "max_damage" (Max Dmg To Enemy), "min_damage" (Min Dmg To Self), or
    "optimal" (reads the dice and plays the best move for ``objective``, docs/rules/killteam.md §7).
    objective: for an optimal fighter, one of OBJECTIVES (default "trade"); None for a heuristic one.
    """

    KIND = "fighter"

    attacks: int
    hit: int
    damage: tuple[int, int] = (3, 4)
    wounds: int = 12
    rules: WeaponRules = field(default_factory=WeaponRules)
    abilities: Abilities = field(default_factory=Abilities)
    strategy: str = "max_damage"
    objective: str | None = None

    if TYPE_CHECKING:
        def __init__(self, attacks: int, hit: int | str, damage: tuple[int, int] | str = (3, 4), wounds: int = 12,
                     rules: WeaponRules | str = ..., abilities: Abilities | str = ..., strategy: str = "max_damage",
                     objective: str | None = None) -> None: ...

    def __post_init__(self) -> None:
        weapon = Weapon(self.attacks, self.hit, self.damage, self.rules)
        object.__setattr__(self, "attacks", weapon.attacks)
        object.__setattr__(self, "hit", weapon.hit)
        object.__setattr__(self, "damage", weapon.damage)
        object.__setattr__(self, "rules", weapon.rules)
        object.__setattr__(self, "wounds", check_int("wounds", self.wounds, 1, MAX_WOUNDS))
        object.__setattr__(self, "abilities", as_abilities(self.abilities))
        object.__setattr__(self, "strategy", check_choice("strategy", self.strategy, ALL_STRATEGIES))
        if self.strategy == "optimal":
            objective = "trade" if self.objective is None else check_choice("objective", self.objective, OBJECTIVES)
            object.__setattr__(self, "objective", objective)
        elif self.objective is not None:
            raise InputError("objective", f"only an optimal fighter has an objective (strategy={self.strategy!r} "
                             "is a heuristic); use strategy='optimal' or leave objective unset")

    @property
    def weapon(self) -> Weapon:
        return Weapon(self.attacks, self.hit, self.damage, self.rules)

    def __str__(self) -> str:
        strategy = self.strategy if self.objective is None else f"{self.strategy} ({self.objective})"
        text = f"{self.weapon}; {self.wounds}W; {strategy}"
        abilities = str(self.abilities)
        return f"{text}; {abilities}" if abilities else text


@dataclass(frozen=True)
class Operative(FieldsProfile):
    """A shooting target: save X+ (2..6), wounds (1..40), abilities (Feel No Pain, Just a Scratch, ...)."""

    KIND = "operative"

    save: int
    wounds: int = 12
    abilities: Abilities = field(default_factory=Abilities)

    if TYPE_CHECKING:
        def __init__(self, save: int | str, wounds: int = 12, abilities: Abilities | str = ...) -> None: ...

    def __post_init__(self) -> None:
        object.__setattr__(self, "save", check_stat("save", self.save))
        object.__setattr__(self, "wounds", check_int("wounds", self.wounds, 1, MAX_WOUNDS))
        object.__setattr__(self, "abilities", as_abilities(self.abilities))

    def __str__(self) -> str:
        text = f"{self.save}+ save; {self.wounds}W"
        abilities = str(self.abilities)
        return f"{text}; {abilities}" if abilities else text
