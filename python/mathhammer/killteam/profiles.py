"""Kill Team profiles and their datacard notation: a Weapon, a Fighter (melee weapon + wounds +
abilities + strategy), an Operative (target), and the weapon rules and abilities they carry.

Notation is case-insensitive and comma-separated ("4A 3+ 3/4 Lethal 5+, Piercing 1"); ``str()``
prints the canonical notation back. Ranges follow docs/rules/killteam.md §5; anything else raises
``InputError`` naming the field.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar, TypeVar

from mathhammer import _core
from mathhammer.core.checks import check_choice, check_int, check_stat
from mathhammer.core.guard import check_notation, closest, did_you_mean, excerpt
from mathhammer.core.profiles import FieldsProfile
from mathhammer.killteam.notation import Kept, Named, RuleTable, rule
from mathhammer.errors import InputError, InputTypeError

__all__ = [
    "ALL_STRATEGIES", "MAX_ATTACKS", "MAX_DAMAGE", "MAX_WOUNDS", "OBJECTIVES", "REROLLS", "REROLL_VALUES", "STRATEGIES",
    "Abilities",
    "Fighter", "INFO_TABLES", "Operative", "PROFILE_KINDS", "Weapon", "WeaponRules", "as_abilities", "as_weapon_rules",
    "labelled", "rule_notes",
]

# --- weapon rules and abilities --------------------------------------------------------------------

#: The reroll rules by value (docs/rules/killteam.md §1.3); "none" is no reroll.
REROLL_VALUES: dict[str, Named] = {
    "balanced": Named("Balanced", datacard=True),
    "double_balanced": Named("Double Balanced"),
    "ceaseless": Named("Ceaseless", datacard=True),
    "ceaseless_balanced": Named("Ceaseless Balanced"),
    "relentless": Named("Relentless", datacard=True),
    "relentless_crit_fishing": Named("Relentless (crit-fishing)"),
    "reroll_ones": Named("Reroll Ones"),
    "reroll_ones_balanced": Named("Reroll Ones Balanced"),
}
REROLLS: tuple[str, ...] = ("none", *REROLL_VALUES)
# The save rerolls (§8.2): each reroll rule on the save dice, written "<rule> Saves".
_SAVE_REROLL_VALUES = {
    value: Named("Relentless Saves (crit-fishing)", aliases=("Relentless (crit-fishing) Saves",))
    if value == "relentless_crit_fishing" else Named(f"{named.text} Saves")
    for value, named in REROLL_VALUES.items()
}

#: The largest Dmg stat (normal or critical) of a weapon.
MAX_DAMAGE = 12

# The C++ configs a row's fields belong to (cpp/killteam/*/config.hpp).
_DICE = "AttackProfile"
_SHOT = "ShootConfig"
_FIGHT = "FighterSpec"


@dataclass(frozen=True)
class WeaponRules(FieldsProfile):
    """A weapon's rules (docs/rules/killteam.md §1, §2, §3). Build from text with :meth:`parse`.

    The table of weapon rules: each field's ``rule(...)`` is its row (killteam/notation.py), in the
    order ``str()`` prints them. ``KEPT``: the datacard tokens the importer reads and does not model.
    """

    KIND = "rules"

    accurate: int = rule("Accurate x", "§1.1", f"{_DICE}.accurate", default=0, high=12, datacard=True, copied=False)
    auto_crits: int = rule("Auto Crits x", "§8.1", f"{_DICE}.auto_crits", default=0, high=12, copied=False)
    reroll: str = rule("", "§1.3", f"{_DICE}.reroll", default="none", values=REROLL_VALUES,
                       combine={("ceaseless", "balanced"): "ceaseless_balanced",
                                ("reroll_ones", "balanced"): "reroll_ones_balanced"})
    lethal: int | None = rule("Lethal x+", "§1.2", f"{_DICE}.crit", default=None, low=2, high=6, datacard=True,
                              copied=False)
    punishing: bool = rule("Punishing", "§1.4", f"{_DICE}.punishing", datacard=True)
    severe: bool = rule("Severe", "§1.4", f"{_DICE}.severe", datacard=True)
    rending: bool = rule("Rending", "§1.4", f"{_DICE}.rending", datacard=True)
    brutal: bool = rule("Brutal", "§3.2", f"{_FIGHT}.brutal", datacard=True, weapon_kind="melee")
    shock: bool = rule("Shock", "§3.3", f"{_FIGHT}.shock", datacard=True, weapon_kind="melee")
    saturate: bool = rule("Saturate", "§2", f"{_SHOT}.saturate", datacard=True)
    purity_seal: bool = rule("Purity Seal", "§8.1", f"{_DICE}.purity_seal")
    close_assault: bool = rule("Close Assault", "§8.1", f"{_DICE}.close_assault")
    waaagh: bool = rule("Waaagh", "§8.1", f"{_DICE}.waaagh", aliases=("Waaagh!",))
    mystic_scry: bool = rule("Mystic Scry", "§8.1", f"{_DICE}.mystic_scry", aliases=("Mystic Scry Buff",))
    fails_to_norms: int = rule("Fails to Norms x", "§1.4", f"{_DICE}.fails_to_norms", default=0, high=12)
    norms_to_crits: int = rule("Norms to Crits x", "§1.4", f"{_DICE}.norms_to_crits", default=0, high=12)
    piercing: int = rule("Piercing x", "§2", f"{_SHOT}.piercing", default=0, high=3, datacard=True)
    piercing_crits: int = rule("Piercing Crits x", "§2", f"{_SHOT}.piercing_crits", default=0, high=3, datacard=True)
    devastating: int = rule("Devastating x", "§2", f"{_SHOT}.devastating", default=0, high=9, datacard=True)
    hot: bool = rule("Hot", "§2.2", f"{_SHOT}.hot", datacard=True)  # the shooter's own damage

    TABLE: ClassVar[RuleTable]
    KNOWN: ClassVar[tuple[str, ...]]
    KEPT: ClassVar[tuple[Kept, ...]]

    def __post_init__(self) -> None:
        self.TABLE.check(self)

    @classmethod
    def parse(cls, text: str | None, field: str = "rules") -> WeaponRules:
        """Parse "Lethal 5+, Piercing 1, Balanced"; unknown names raise InputError listing the known ones.
        A datacard's tokens that change nothing in one shot or one fight (``Range 8"``, Silent, ...:
        the rows of :attr:`KEPT` of no effect) are set aside: :meth:`parse_datacard` says which."""
        return cls.parse_datacard(text, field)[0]

    @classmethod
    def parse_datacard(cls, text: str | None, field: str = "rules") -> tuple[WeaponRules, tuple[str, ...]]:
        """A datacard's weapon rules pasted as written ('Range 8", Piercing 1, Silent'): the rules,
        and a note on each token set aside because it changes nothing in one shot or one fight
        ('Range 8": targeting and position: ...'). A word no table knows raises InputError."""
        values, notes = cls.TABLE.read(text, field, cls.KEPT)
        return _build(cls, values, field, text), notes

    def __str__(self) -> str:
        return self.TABLE.render(self)


WeaponRules.TABLE = RuleTable(
    WeaponRules, "rules",
    lambda part, known: f"unknown weapon rule {excerpt(part)}{did_you_mean(part, known)}; "
                        f"closest known rules: {closest(part, list(known))}")
WeaponRules.KNOWN = WeaponRules.TABLE.known
_RANGE = "targeting and position: the shot assumes the target is within range"
_HEAVY = "movement: when the weapon may be used, not what it does"
_SEEK = "targeting: which cover the target can use; give the target's cover to the shot yourself"
_MORE = "more targets: every other operative within {0}\" is a shot of its own, rolled separately"
_VOLLEY = "this is the shot at one target; kt.volley shoots several, each on its own"
_RANGED = "ranged"  # only ranged weapons have it: the importer tells an unmarked weapon's kind by it
WeaponRules.KEPT = (
    Kept("Range x\"", _RANGE, weapon_kind=_RANGED),
    Kept("Heavy", _HEAVY, weapon_kind=_RANGED),
    Kept("Heavy (Dash only)", _HEAVY, weapon_kind=_RANGED),
    Kept("Heavy (Reposition only)", _HEAVY, weapon_kind=_RANGED),
    Kept("Seek", _SEEK),
    Kept("Seek Light", _SEEK),
    Kept("Silent", "orders: shooting while concealed, not what the shot does", weapon_kind=_RANGED),
    Kept("Stun", "after the attack: the target's APL, out of a shot's scope"),
    Kept("Limited x", "uses per battle, out of a shot's scope"),
    Kept("PSYCHIC", "a keyword other rules refer to"),
    Kept("Blast x\"", _MORE, weapon_kind=_RANGED, advice=_VOLLEY),
    Kept("Torrent x\"", _MORE, weapon_kind=_RANGED, advice=_VOLLEY),
)


@dataclass(frozen=True)
class Abilities(FieldsProfile):
    """An operative's or fighter's own abilities (docs/rules/killteam.md §2, §3). Build from text with :meth:`parse`.

    The table of abilities: each field's ``rule(...)`` is its row (killteam/notation.py), in the
    order ``str()`` prints them.
    """

    KIND = "abilities"

    storm_shield: bool = rule("Storm Shield", "§3.2", f"{_FIGHT}.storm_shield")
    dueller: bool = rule("Dueller", "§3.2", f"{_FIGHT}.dueller")
    duelist: bool = rule("Duelist", "§3.3", f"{_FIGHT}.duelist")
    hammerhand: bool = rule("Hammerhand", "§3.3", f"{_FIGHT}.hammerhand")
    just_a_scratch: bool = rule("Just a Scratch", "§2, §3.3", (f"{_SHOT}.just_a_scratch", f"{_FIGHT}.just_a_scratch"),
                                aliases=("Just a Scratch (crits)",))
    just_a_scratch_normals: bool = rule("Just a Scratch (normals)", "§2, §3.3",
                                        (f"{_SHOT}.just_a_scratch_normals", f"{_FIGHT}.just_a_scratch_normals"))
    half_damage_first_strike: bool = rule("Half Damage First Strike", "§3.3", f"{_FIGHT}.half_damage_first_strike")
    durable: bool = rule("Durable", "§2, §3.3", (f"{_SHOT}.durable", f"{_FIGHT}.durable"))
    murderous_entrance: bool = rule("Murderous Entrance", "§3.3", f"{_FIGHT}.murderous_entrance")
    punishing: bool = rule("Punishing", "§2", f"{_SHOT}.defender_punishing")  # on the defence dice
    feel_no_pain: int | None = rule("Feel No Pain x+", "§2, §3.3", (f"{_SHOT}.feel_no_pain", f"{_FIGHT}.feel_no_pain"),
                                    default=None, low=2, high=6, aliases=("FNP x+",))
    saintly_relics: int = rule("", "§2, §3.3", (f"{_SHOT}.saintly_relics", f"{_FIGHT}.saintly_relics"), default=0,
                               high=2, values={1: Named("Saintly Relics", aliases=("Saintly Relics (1D6)",)),
                                               2: Named("Saintly Relics (2D6)")})  # 2D6: INSPIRING
    # defence dice (docs/rules/killteam.md §8.2)
    hardy: int | None = rule("Hardy x+", "§8.2", f"{_SHOT}.hardy", default=None, low=2, high=6)
    save_reroll: str = rule("", "§8.2", f"{_SHOT}.save_reroll", default="none", values=_SAVE_REROLL_VALUES)
    indomitus: bool = rule("Indomitus", "§8.2", f"{_SHOT}.indomitus")
    save_fails_to_norms: int = rule("Save Fails to Norms x", "§8.2", f"{_SHOT}.save_fails_to_norms", default=0, high=3)
    save_norms_to_crits: int = rule("Save Norms to Crits x", "§8.2", f"{_SHOT}.save_norms_to_crits", default=0, high=3)
    # defences against the weapon's rules and Dmg stats (docs/rules/killteam.md §2.3)
    ignore_piercing: bool = rule("Ignore Piercing", "§2.3", f"{_SHOT}.ignore_piercing")
    worsen_piercing: bool = rule("Worsen Piercing", "§2.3", f"{_SHOT}.worsen_piercing")
    ignore_lethal: bool = rule("Ignore Lethal", "§2.3", f"{_SHOT}.ignore_lethal")
    ignore_rending: bool = rule("Ignore Rending", "§2.3", f"{_SHOT}.ignore_rending")
    ignore_severe: bool = rule("Ignore Severe", "§2.3", f"{_SHOT}.ignore_severe")
    ignore_saturate: bool = rule("Ignore Saturate", "§2.3", f"{_SHOT}.ignore_saturate")
    reduce_normal_damage: int | None = rule("Reduce Normal Dmg x+", "§2.3, §3.3",
                                            (f"{_SHOT}.reduce_normal_damage", f"{_FIGHT}.reduce_normal_damage"),
                                            default=None, low=1, high=MAX_DAMAGE)
    reduce_damage: int | None = rule("Reduce Dmg x+", "§2.3, §3.3", (f"{_SHOT}.reduce_damage", f"{_FIGHT}.reduce_damage"),
                                     default=None, low=1, high=MAX_DAMAGE)
    crits_as_normal: bool = rule("Crits as Normal Dmg", "§2.3, §3.3",
                                 (f"{_SHOT}.crits_as_normal", f"{_FIGHT}.crits_as_normal"))

    TABLE: ClassVar[RuleTable]
    KNOWN: ClassVar[tuple[str, ...]]

    def __post_init__(self) -> None:
        self.TABLE.check(self)

    @classmethod
    def parse(cls, text: str | None, field: str = "abilities") -> Abilities:
        """Parse "Storm Shield, Feel No Pain 5+"; unknown names raise InputError listing the known ones."""
        return _build(cls, cls.TABLE.parse(text, field), field, text)

    def __str__(self) -> str:
        return self.TABLE.render(self)


Abilities.TABLE = RuleTable(
    Abilities, "abilities", lambda part, known: f"unknown ability {excerpt(part)}; known abilities: {', '.join(known)}")
Abilities.KNOWN = Abilities.TABLE.known


_R = TypeVar("_R")


def _build(cls: type[_R], values: dict[str, Any], field: str, text: Any) -> _R:
    """Construct, reporting a range error under the field as the user named it (e.g. "rules.lethal")."""
    try:
        return cls(**values)
    except InputError as error:
        sub = error.field.split(".", 1)[-1]
        raise InputError(f"{field}.{sub}", str(error).split(": ", 1)[1] + f" (in {excerpt(text)})") from None


def as_weapon_rules(value: Any, field: str = "rules") -> WeaponRules:
    if isinstance(value, WeaponRules):
        return value
    if value is None or type(value) is str:
        return _parsed_rules(value, field)
    if isinstance(value, str):
        return WeaponRules.parse(value, field)
    raise InputTypeError(field, f"expected datacard notation (str) or WeaponRules, got {type(value).__name__}")


def as_abilities(value: Any, field: str = "abilities") -> Abilities:
    if isinstance(value, Abilities):
        return value
    if value is None or type(value) is str:
        return _parsed_abilities(value, field)
    if isinstance(value, str):
        return Abilities.parse(value, field)
    raise InputTypeError(field, f"expected datacard notation (str) or Abilities, got {type(value).__name__}")


# The same notation parses to the same (frozen) rules: a sweep or a team builds many profiles from
# a few texts. Only parses that succeed are kept (an error is raised, not stored).
@functools.lru_cache(maxsize=4096)
def _parsed_rules(text: str | None, field: str) -> WeaponRules:
    return WeaponRules.parse(text, field)


@functools.lru_cache(maxsize=4096)
def _parsed_abilities(text: str | None, field: str) -> Abilities:
    return Abilities.parse(text, field)


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


def _name_field() -> Any:
    """A profile's ``name`` (a library sets it from the entry's key): how results and their headings
    name the profile, never what the engine or its caches see (it takes no part in equality or
    hashing)."""
    return field(default=None, compare=False)


#: The longest name a profile may have.
MAX_NAME = 200


def _check_name(name: Any) -> None:
    if name is not None and not isinstance(name, str):
        raise InputTypeError("name", f"expected the profile's name (text) or None, got {excerpt(name)}")
    if name is not None and len(name) > MAX_NAME:
        raise InputError("name", f"{len(name)} characters; at most {MAX_NAME}")


def labelled(profile: Any, notation: str | None = None) -> str:
    """How a result names a profile: its name, then its notation ("bolt_rifle (4A 3+ 3/4)"), or the
    notation alone when it has no name (``notation``: the profile's, when already made)."""
    text = str(profile) if notation is None else notation
    name = getattr(profile, "name", None)
    return f"{name} ({text})" if name and name != text else text


_CARD = re.compile(r"^\s*(\d+)\s*A\s+(\d)\+?\s+(\d+)\s*/\s*(\d+)\s*(.*)$", re.IGNORECASE)


@dataclass(frozen=True)
class Weapon(FieldsProfile):
    """A weapon profile: attacks (1..12), hit X+ (2..6), damage (normal, critical) 0..12, rules."""

    KIND = "weapon"

    attacks: int
    hit: int
    damage: tuple[int, int] = (3, 4)
    rules: WeaponRules = field(default_factory=WeaponRules)
    name: str | None = _name_field()

    if TYPE_CHECKING:  # what the constructor accepts: stats as 3 or "3+", damage as "3/4", rules as notation
        def __init__(self, attacks: int, hit: int | str, damage: tuple[int, int] | str = (3, 4),
                     rules: WeaponRules | str = ..., name: str | None = None) -> None: ...

    def __post_init__(self) -> None:
        object.__setattr__(self, "attacks", check_int("attacks", self.attacks, 1, MAX_ATTACKS))
        object.__setattr__(self, "hit", check_stat("hit", self.hit))
        object.__setattr__(self, "damage", _check_damage("damage", self.damage))
        object.__setattr__(self, "rules", as_weapon_rules(self.rules))
        _check_name(self.name)

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


def rule_notes(text: Any, kind: str = "rules") -> tuple[str, ...]:
    """The notes on the tokens a datacard text sets aside (:meth:`WeaponRules.parse_datacard`):
    ``kind`` "rules" for weapon rules, "weapon" or "fighter" for a profile's notation. Nothing for
    text that is not such notation (a library name) or that does not parse: building the profile
    reports its errors."""
    if not isinstance(text, str):
        return ()
    if kind in ("weapon", "fighter"):
        match = _CARD.match(text.split(";", 1)[0] if kind == "fighter" else text)
        if match is None:
            return ()
        text = match.group(5)
    try:
        return WeaponRules.parse_datacard(text)[1]
    except InputError:
        return ()


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
    name: str | None = _name_field()

    if TYPE_CHECKING:
        def __init__(self, attacks: int, hit: int | str, damage: tuple[int, int] | str = (3, 4), wounds: int = 12,
                     rules: WeaponRules | str = ..., abilities: Abilities | str = ..., strategy: str = "max_damage",
                     objective: str | None = None, name: str | None = None) -> None: ...

    def __post_init__(self) -> None:
        _check_name(self.name)
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
        """The melee weapon it fights with (its name the fighter's)."""
        return Weapon(self.attacks, self.hit, self.damage, self.rules, self.name)

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
    name: str | None = _name_field()

    if TYPE_CHECKING:
        def __init__(self, save: int | str, wounds: int = 12, abilities: Abilities | str = ...,
                     name: str | None = None) -> None: ...

    def __post_init__(self) -> None:
        object.__setattr__(self, "save", check_stat("save", self.save))
        object.__setattr__(self, "wounds", check_int("wounds", self.wounds, 1, MAX_WOUNDS))
        object.__setattr__(self, "abilities", as_abilities(self.abilities))
        _check_name(self.name)

    def __str__(self) -> str:
        text = f"{self.save}+ save; {self.wounds}W"
        abilities = str(self.abilities)
        return f"{text}; {abilities}" if abilities else text


#: The kinds of profile a Kill Team library holds, in the order it is read (the descriptor's,
#: killteam._game), and the tables of plain values beside them: an imported team's ``[team]``.
PROFILE_KINDS: dict[str, type] = {"weapon": Weapon, "fighter": Fighter, "operative": Operative}
INFO_TABLES = ("team",)
