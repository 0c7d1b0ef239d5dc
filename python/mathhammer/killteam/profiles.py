"""Kill Team profiles and their datacard notation: a Weapon, a Fighter (melee weapon + wounds +
abilities + strategy), an Operative (target), and the weapon rules and abilities they carry.

Notation is case-insensitive and comma-separated ("4A 3+ 3/4 Lethal 5+, Piercing 1"); ``str()``
prints the canonical notation back. Ranges follow docs/rules/killteam.md §5; anything else raises
``InputError`` naming the field.
"""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypeVar

from mathhammer import _core
from mathhammer.core.checks import check_bool, check_choice, check_int, check_stat
from mathhammer.core.guard import check_notation, closest, did_you_mean, excerpt
from mathhammer.core.profiles import FieldsProfile
from mathhammer.errors import InputError, InputTypeError

__all__ = [
    "ALL_STRATEGIES", "MAX_ATTACKS", "MAX_DAMAGE", "MAX_WOUNDS", "OBJECTIVES", "REROLLS", "STRATEGIES", "Abilities",
    "Fighter", "Operative", "Weapon", "WeaponRules", "as_abilities", "as_weapon_rules",
]

# --- weapon rules and abilities --------------------------------------------------------------------

REROLLS: tuple[str, ...] = (
    "none",
    "balanced",
    "double_balanced",
    "ceaseless",
    "ceaseless_balanced",
    "relentless",
    "relentless_crit_fishing",
    "reroll_ones",
    "reroll_ones_balanced",
)
_REROLL_NAMES = {
    "balanced": "Balanced",
    "double_balanced": "Double Balanced",
    "ceaseless": "Ceaseless",
    "ceaseless_balanced": "Ceaseless Balanced",
    "relentless": "Relentless",
    "relentless_crit_fishing": "Relentless (crit-fishing)",
    "reroll_ones": "Reroll Ones",
    "reroll_ones_balanced": "Reroll Ones Balanced",
}
# Two reroll rules that combine into one (docs/rules/killteam.md §5).
_REROLL_COMBOS = {
    frozenset({"ceaseless", "balanced"}): "ceaseless_balanced",
    frozenset({"reroll_ones", "balanced"}): "reroll_ones_balanced",
}


def _norm(text: str) -> str:
    return re.sub(r"\s+", " ", text.strip().lower())


def _split(field: str, text: Any) -> list[str]:
    if text is None:
        return []
    if not isinstance(text, str):
        raise InputTypeError(field, f"expected datacard notation such as 'Lethal 5+, Piercing 1', got {excerpt(text)}")
    check_notation(field, text)  # bounded length, no number of more than 6 digits
    return [part.strip() for part in text.split(",") if part.strip()]


@dataclass(frozen=True)
class WeaponRules(FieldsProfile):
    """A weapon's rules (docs/rules/killteam.md §1, §2, §3). Build from text with :meth:`parse`."""

    KIND = "rules"

    lethal: int | None = None
    accurate: int = 0
    reroll: str = "none"
    punishing: bool = False
    severe: bool = False
    rending: bool = False
    brutal: bool = False
    shock: bool = False
    saturate: bool = False
    fails_to_norms: int = 0
    norms_to_crits: int = 0
    piercing: int = 0
    piercing_crits: int = 0
    devastating: int = 0
    auto_crits: int = 0
    purity_seal: bool = False
    close_assault: bool = False
    waaagh: bool = False
    mystic_scry: bool = False

    def __post_init__(self) -> None:
        if self.lethal is not None:
            check_int("rules.lethal", self.lethal, 2, 6)
        check_int("rules.accurate", self.accurate, 0, 12)
        if not isinstance(self.reroll, str) or self.reroll not in REROLLS:  # an array has no truth value
            raise InputError("rules.reroll", f"unknown reroll {excerpt(self.reroll)}; allowed: {', '.join(REROLLS)}")
        for name in ("punishing", "severe", "rending", "brutal", "shock", "saturate", "purity_seal",
                     "close_assault", "waaagh", "mystic_scry"):
            check_bool(f"rules.{name}", getattr(self, name))
        check_int("rules.auto_crits", self.auto_crits, 0, 12)
        check_int("rules.fails_to_norms", self.fails_to_norms, 0, 12)
        check_int("rules.norms_to_crits", self.norms_to_crits, 0, 12)
        check_int("rules.piercing", self.piercing, 0, 3)
        check_int("rules.piercing_crits", self.piercing_crits, 0, 3)
        check_int("rules.devastating", self.devastating, 0, 9)

    # name pattern -> (field, kind); kinds: flag, int, stat
    _PATTERNS = (
        (r"lethal (\d+)\+?", "lethal"),
        (r"accurate (\d+)", "accurate"),
        (r"piercing crits (\d+)", "piercing_crits"),
        (r"piercing (\d+)", "piercing"),
        (r"devastating (\d+)", "devastating"),
        (r"fails to norms (\d+)", "fails_to_norms"),
        (r"norms to crits (\d+)", "norms_to_crits"),
        (r"auto crits (\d+)", "auto_crits"),
    )
    _FLAGS = ("punishing", "severe", "rending", "brutal", "shock", "saturate")
    # Names with spaces (or accepted spellings) -> flag field.
    _NAMED_FLAGS = {
        "purity seal": "purity_seal",
        "close assault": "close_assault",
        "waaagh": "waaagh",
        "waaagh!": "waaagh",
        "mystic scry": "mystic_scry",
        "mystic scry buff": "mystic_scry",
    }
    KNOWN = (
        "Lethal x+", "Accurate x", "Rending", "Severe", "Punishing", "Brutal", "Shock", "Saturate",
        "Piercing x", "Piercing Crits x", "Devastating x", "Fails to Norms x", "Norms to Crits x",
        "Auto Crits x", "Purity Seal", "Close Assault", "Waaagh", "Mystic Scry",
        *(_REROLL_NAMES.values()),
    )

    @classmethod
    def parse(cls, text: str | None, field: str = "rules") -> WeaponRules:
        """Parse "Lethal 5+, Piercing 1, Balanced"; unknown names raise InputError listing the known ones."""
        values: dict[str, Any] = {}
        rerolls: list[str] = []
        for part in _split(field, text):
            key = _norm(part).replace("-", " ").replace("(", "").replace(")", "")
            key = re.sub(r"\s+", " ", key).strip()
            found = False
            for pattern, name in cls._PATTERNS:
                match = re.fullmatch(pattern, key)
                if match:
                    _once(field, values, name, int(match.group(1)), part)
                    found = True
                    break
            if found:
                continue
            if key in cls._FLAGS:
                _once(field, values, key, True, part)
                continue
            if key in cls._NAMED_FLAGS:
                _once(field, values, cls._NAMED_FLAGS[key], True, part)
                continue
            reroll = key.replace(" ", "_")
            if reroll in _REROLL_NAMES:
                rerolls.append(reroll)
                continue
            raise InputError(field, f"unknown weapon rule {excerpt(part)}{did_you_mean(part.strip(), cls.KNOWN)}; "
                                    f"closest known rules: {closest(part.strip(), list(cls.KNOWN))}")
        if rerolls:
            values["reroll"] = _combine_rerolls(field, rerolls)
        return _build(cls, values, field, text)

    def __str__(self) -> str:
        parts: list[str] = []
        if self.accurate:
            parts.append(f"Accurate {self.accurate}")
        if self.auto_crits:
            parts.append(f"Auto Crits {self.auto_crits}")
        if self.reroll != "none":
            parts.append(_REROLL_NAMES[self.reroll])
        if self.lethal is not None:
            parts.append(f"Lethal {self.lethal}+")
        for name, label in (("punishing", "Punishing"), ("severe", "Severe"), ("rending", "Rending"),
                            ("brutal", "Brutal"), ("shock", "Shock"), ("saturate", "Saturate"),
                            ("purity_seal", "Purity Seal"), ("close_assault", "Close Assault"), ("waaagh", "Waaagh"),
                            ("mystic_scry", "Mystic Scry")):
            if getattr(self, name):
                parts.append(label)
        for name, label in (("fails_to_norms", "Fails to Norms"), ("norms_to_crits", "Norms to Crits"),
                            ("piercing", "Piercing"), ("piercing_crits", "Piercing Crits"),
                            ("devastating", "Devastating")):
            if getattr(self, name):
                parts.append(f"{label} {getattr(self, name)}")
        return ", ".join(parts)


@dataclass(frozen=True)
class Abilities(FieldsProfile):
    """An operative's or fighter's own abilities (docs/rules/killteam.md §2, §3). Build from text with :meth:`parse`."""

    KIND = "abilities"

    storm_shield: bool = False
    dueller: bool = False
    duelist: bool = False
    hammerhand: bool = False
    just_a_scratch: bool = False
    just_a_scratch_normals: bool = False
    half_damage_first_strike: bool = False
    durable: bool = False
    murderous_entrance: bool = False
    punishing: bool = False  # on the defence dice
    feel_no_pain: int | None = None
    saintly_relics: int = 0  # 0: none, 1: 1D6, 2: 2D6 (INSPIRING)
    # defence dice (docs/rules/killteam.md §8.2)
    hardy: int | None = None  # crit saves on x+ (never below the save stat)
    save_reroll: str = "none"  # one of REROLLS, applied to the rolled save dice
    indomitus: bool = False
    save_fails_to_norms: int = 0
    save_norms_to_crits: int = 0

    def __post_init__(self) -> None:
        for f in dataclasses.fields(self):
            if f.type in ("bool", bool):
                check_bool(f"abilities.{f.name}", getattr(self, f.name))
        if self.feel_no_pain is not None:
            check_int("abilities.feel_no_pain", self.feel_no_pain, 2, 6)
        check_int("abilities.saintly_relics", self.saintly_relics, 0, 2)
        if self.hardy is not None:
            check_int("abilities.hardy", self.hardy, 2, 6)
        if self.save_reroll not in REROLLS:
            raise InputError("abilities.save_reroll",
                             f"unknown save reroll {excerpt(self.save_reroll)}; allowed: {', '.join(REROLLS)}")
        check_int("abilities.save_fails_to_norms", self.save_fails_to_norms, 0, 3)
        check_int("abilities.save_norms_to_crits", self.save_norms_to_crits, 0, 3)

    _FLAGS = {
        "storm shield": "storm_shield",
        "dueller": "dueller",
        "duelist": "duelist",
        "hammerhand": "hammerhand",
        "just a scratch": "just_a_scratch",
        "just a scratch crits": "just_a_scratch",
        "just a scratch normals": "just_a_scratch_normals",
        "half damage first strike": "half_damage_first_strike",
        "durable": "durable",
        "murderous entrance": "murderous_entrance",
        "punishing": "punishing",
        "indomitus": "indomitus",
    }
    KNOWN = (
        "Storm Shield", "Dueller", "Duelist", "Hammerhand", "Just a Scratch", "Just a Scratch (normals)",
        "Half Damage First Strike", "Durable", "Murderous Entrance", "Punishing", "Feel No Pain x+",
        "Saintly Relics", "Saintly Relics (2D6)", "Hardy x+", "Indomitus", "Save Fails to Norms x",
        "Save Norms to Crits x", *(f"{name} Saves" for name in _REROLL_NAMES.values()),
    )

    @classmethod
    def parse(cls, text: str | None, field: str = "abilities") -> Abilities:
        """Parse "Storm Shield, Feel No Pain 5+"; unknown names raise InputError listing the known ones."""
        values: dict[str, Any] = {}
        for part in _split(field, text):
            key = re.sub(r"\s+", " ", _norm(part).replace("(", " ").replace(")", " ")).strip()
            if key in cls._FLAGS:
                _once(field, values, cls._FLAGS[key], True, part)
                continue
            match = re.fullmatch(r"(?:feel no pain|fnp) (\d+)\+?", key)
            if match:
                _once(field, values, "feel_no_pain", int(match.group(1)), part)
                continue
            match = re.fullmatch(r"saintly relics(?: (1|2)d6)?", key)
            if match:
                _once(field, values, "saintly_relics", int(match.group(1) or 1), part)
                continue
            match = re.fullmatch(r"hardy (\d+)\+?", key)
            if match:
                _once(field, values, "hardy", int(match.group(1)), part)
                continue
            match = re.fullmatch(r"save (fails to norms|norms to crits) (\d+)", key)
            if match:
                _once(field, values, "save_" + match.group(1).replace(" ", "_"), int(match.group(2)), part)
                continue
            match = re.fullmatch(r"(.+) saves( crit fishing| crit-fishing)?", key.replace("-", " "))
            if match:
                reroll = (match.group(1) + ("_crit_fishing" if match.group(2) else "")).replace(" ", "_")
                if reroll in _REROLL_NAMES:
                    _once(field, values, "save_reroll", reroll, part)
                    continue
            raise InputError(field, f"unknown ability {excerpt(part)}; known abilities: {', '.join(cls.KNOWN)}")
        return _build(cls, values, field, text)

    def __str__(self) -> str:
        labels = {
            "storm_shield": "Storm Shield", "dueller": "Dueller", "duelist": "Duelist", "hammerhand": "Hammerhand",
            "just_a_scratch": "Just a Scratch", "just_a_scratch_normals": "Just a Scratch (normals)",
            "half_damage_first_strike": "Half Damage First Strike", "durable": "Durable",
            "murderous_entrance": "Murderous Entrance", "punishing": "Punishing",
        }
        parts = [label for name, label in labels.items() if getattr(self, name)]
        if self.feel_no_pain is not None:
            parts.append(f"Feel No Pain {self.feel_no_pain}+")
        if self.saintly_relics == 1:
            parts.append("Saintly Relics")
        elif self.saintly_relics == 2:
            parts.append("Saintly Relics (2D6)")
        if self.hardy is not None:
            parts.append(f"Hardy {self.hardy}+")
        if self.save_reroll != "none":
            name = _REROLL_NAMES[self.save_reroll]
            parts.append("Relentless Saves (crit-fishing)" if self.save_reroll == "relentless_crit_fishing"
                         else f"{name} Saves")
        if self.indomitus:
            parts.append("Indomitus")
        if self.save_fails_to_norms:
            parts.append(f"Save Fails to Norms {self.save_fails_to_norms}")
        if self.save_norms_to_crits:
            parts.append(f"Save Norms to Crits {self.save_norms_to_crits}")
        return ", ".join(parts)


def _once(field: str, values: dict[str, Any], name: str, value: Any, part: str) -> None:
    if name in values:
        raise InputError(field, f"{excerpt(part)} is given twice (or conflicts with another rule)")
    values[name] = value


_R = TypeVar("_R")


def _build(cls: type[_R], values: dict[str, Any], field: str, text: Any) -> _R:
    """Construct, reporting a range error under the field as the user named it (e.g. "rules.lethal")."""
    try:
        return cls(**values)
    except InputError as error:
        sub = error.field.split(".", 1)[-1]
        raise InputError(f"{field}.{sub}", str(error).split(": ", 1)[1] + f" (in {excerpt(text)})") from None


def _combine_rerolls(field: str, rerolls: list[str]) -> str:
    if len(rerolls) == 1:
        return rerolls[0]
    combo = _REROLL_COMBOS.get(frozenset(rerolls)) if len(rerolls) == 2 else None
    if combo is None:
        names = ", ".join(_REROLL_NAMES[r] for r in rerolls)
        raise InputError(
            field,
            f"at most one reroll rule is allowed, got {names}; the only combinations are "
            "'Ceaseless, Balanced' and 'Reroll Ones, Balanced'",
        )
    return combo


def as_weapon_rules(value: Any, field: str = "rules") -> WeaponRules:
    if isinstance(value, WeaponRules):
        return value
    if value is None or isinstance(value, str):
        return WeaponRules.parse(value, field)
    raise InputTypeError(field, f"expected datacard notation (str) or WeaponRules, got {type(value).__name__}")


def as_abilities(value: Any, field: str = "abilities") -> Abilities:
    if isinstance(value, Abilities):
        return value
    if value is None or isinstance(value, str):
        return Abilities.parse(value, field)
    raise InputTypeError(field, f"expected datacard notation (str) or Abilities, got {type(value).__name__}")


# --- profiles -----------------------------------------------------------------------------------

#: The heuristic strategies (docs/rules/killteam.md §3).
STRATEGIES: tuple[str, ...] = ("strike", "parry", "max_damage", "min_damage")
#: The heuristics and "optimal" (docs/rules/killteam.md §7), which plays the best move for an objective.
ALL_STRATEGIES: tuple[str, ...] = STRATEGIES + ("optimal",)
#: What an optimal fighter plays for (docs/rules/killteam.md §7), each a tuple compared lexicographically:
#: trade ([enemy dies] - [self dies], enemy lost - own lost); net (enemy lost - own lost,
#: [enemy dies] - [self dies]); kill ([enemy dies], -own lost, enemy lost); survive (-[self dies],
#: enemy lost - own lost).
OBJECTIVES: tuple[str, ...] = ("trade", "net", "kill", "survive")
#: The most attack dice a weapon rolls (the C++ dice tables' bound).
MAX_ATTACKS: int = int(_core.killteam.MAX_DICE)
MAX_DAMAGE = 12
#: The most wounds a fighter or operative has (the C++ fight engine's bound).
MAX_WOUNDS: int = int(_core.killteam.MAX_FIGHT_WOUNDS)
#: The most shots of one kt.shoot call (docs/rules/killteam.md §2), cover saves retained, fight rounds.
MAX_ROUNDS: int = int(_core.killteam.MAX_ROUNDS)
MAX_COVER = 3
FIGHT_ROUNDS_MAX = 3


def _check_damage(name: str, value: Any) -> tuple[int, int]:
    if isinstance(value, str):
        match = re.fullmatch(r"\s*(\d+)\s*/\s*(\d+)\s*", check_notation(name, value))
        if not match:
            raise InputError(name, f"{excerpt(value)} is not damage; write it as (3, 4) or '3/4'")
        value = (int(match.group(1)), int(match.group(2)))
    if not isinstance(value, (tuple, list)) or len(value) != 2:
        raise InputTypeError(name, f"expected (normal, critical) damage such as (3, 4), got {excerpt(value)}")
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
            raise InputTypeError("weapon", f"expected datacard notation such as '4A 3+ 3/4 Lethal 5+', got {excerpt(text)}")
        match = _CARD.match(check_notation("weapon", text))
        if not match:
            raise InputError("weapon", f"{excerpt(text)} is not datacard notation; expected e.g. '4A 3+ 3/4 Lethal 5+, Piercing 1'")
        attacks, hit, dn, dc, rules = match.groups()
        return cls(int(attacks), int(hit), (int(dn), int(dc)), rules.strip())

    def __str__(self) -> str:
        text = f"{self.attacks}A {self.hit}+ {self.damage[0]}/{self.damage[1]}"
        rules = str(self.rules)
        return f"{text} {rules}" if rules else text


# The parts of fighter notation after the weapon (Fighter.parse): wounds "12W", a strategy "parry" or
# "optimal (kill)"; any other part is the abilities.
_FIGHTER_WOUNDS = re.compile(r"(\d+)\s*W", re.IGNORECASE)
_FIGHTER_STRATEGY = re.compile(r"(\w+)(?:\s*\((\w+)\))?")


@dataclass(frozen=True)
class Fighter(FieldsProfile):
    """A fighter in melee: its melee weapon (attacks, hit, damage, rules), wounds, abilities and strategy.

    strategy: "strike", "parry", "max_damage" (Max Dmg To Enemy), "min_damage" (Min Dmg To Self), or
    "optimal" (reads the dice and plays the best move for ``objective``, docs/rules/killteam.md §7).
    objective: for an optimal fighter, one of OBJECTIVES (default "trade"); None for a heuristic one.
    ``str(fighter)`` writes its notation and :meth:`parse` reads it back.
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
            raise InputError("objective", f"only an optimal fighter has an objective (strategy={excerpt(self.strategy)} "
                             "is a heuristic); use strategy='optimal' or leave objective unset")

    @property
    def weapon(self) -> Weapon:
        return Weapon(self.attacks, self.hit, self.damage, self.rules)

    @classmethod
    def parse(cls, text: str, field: str = "fighter") -> Fighter:
        """The notation ``str(fighter)`` writes: the weapon's datacard notation, then, separated by
        ``;`` and in any order, wounds ``12W``, a strategy (``parry``, ``optimal (kill)``) and
        abilities: "4A 3+ 3/4 Brutal; 12W; parry; Storm Shield". What is left out takes the
        defaults (12 wounds, max_damage, no abilities); errors name ``field``."""
        if not isinstance(text, str):
            raise InputTypeError(field, f"expected fighter notation such as '4A 3+ 3/4 Brutal; 12W; parry', got "
                                 f"{excerpt(text)}")
        card, *parts = [part.strip() for part in check_notation(field, text).split(";")]
        try:
            weapon = Weapon.parse(card)
        except InputError as error:
            if error.field == "weapon":  # no card at all
                raise InputError(field, f"{excerpt(text)} is not fighter notation; expected the weapon's card, then "
                                 "wounds, strategy and abilities, e.g. '4A 3+ 3/4 Brutal; 12W; parry; Storm Shield'"
                                 ) from None
            raise type(error)(f"{field}.{error.field}", str(error)[len(error.field) + 2:]) from None  # one of its fields
        fields: dict[str, Any] = {}
        for part in filter(None, parts):
            wounds = _FIGHTER_WOUNDS.fullmatch(part)
            strategy = _FIGHTER_STRATEGY.fullmatch(part)
            if wounds:
                found: dict[str, Any] = {"wounds": int(wounds.group(1))}
            elif strategy and strategy.group(1).lower() in ALL_STRATEGIES:
                found = {"strategy": strategy.group(1).lower()}
                if strategy.group(2):
                    found["objective"] = strategy.group(2).lower()
            else:
                found = {"abilities": part}
            name = next(iter(found))
            if name in fields:
                raise InputError(field, f"{excerpt(text)} gives the {name} twice; write the weapon, then at most "
                                 "one each of wounds, strategy and abilities, separated by ';'")
            fields.update(found)
        try:
            return cls(weapon.attacks, weapon.hit, weapon.damage, rules=weapon.rules, **fields)
        except InputError as error:
            raise type(error)(f"{field}.{error.field}", str(error)[len(error.field) + 2:]) from None

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
