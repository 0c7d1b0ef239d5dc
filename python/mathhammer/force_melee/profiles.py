"""Force melee profiles: a Weapon, a Unit (models and their HP) and a Side (a unit, the weapon it
fights with and the dice it rolls), validated against the ranges of docs/rules/force_melee.md §7.

Profiles are frozen dataclasses; ``from_dict`` / ``to_dict`` turn them into plain TOML/JSON tables
and nested errors name the full path of the field (``weapon.hit``).
"""

from __future__ import annotations

import contextlib
import dataclasses
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from mathhammer.core.checks import check_bool, check_choice, check_int, check_stat
from mathhammer.errors import InputError, InputTypeError
from mathhammer.core.guard import excerpt

MAX_DICE = 40
MAX_FORCE = 20
MAX_BONUS = 10
MAX_MODELS = 30
MAX_HP = 30
MAX_HIT_MOD = 5

KINDS: tuple[str, ...] = ("melee", "ranged")
REROLLS: tuple[str, ...] = ("none", "fails", "ones")


def _check_name(field: str, value: Any) -> str:
    if not isinstance(value, str):
        raise InputTypeError(field, f"expected text, got {excerpt(value)}")
    return value


@contextlib.contextmanager
def field_prefix(prefix: str) -> Iterator[None]:
    """Re-raise input errors from nested profiles with the outer field in front (``a.weapon.hit``)."""
    try:
        yield
    except InputError as error:
        raise InputError(f"{prefix}.{error.field}", str(error)[len(error.field) + 2 :]) from None
    except InputTypeError as error:
        raise InputTypeError(f"{prefix}.{error.field}", str(error)[len(error.field) + 2 :]) from None


_P = TypeVar("_P")


def _from_mapping(cls: type[_P], data: Any, field: str) -> _P:
    """Build a profile from a table of its fields; unknown fields are listed with the known ones."""
    if isinstance(data, cls):
        return data
    if not isinstance(data, Mapping):
        raise InputTypeError(field, f"expected a {cls.__name__} or a table of its fields, got {excerpt(data)}")
    fields = dataclasses.fields(cls)  # type: ignore[arg-type]  # every profile class is a dataclass
    known = [f.name for f in fields]
    unknown = sorted(str(k) for k in data if k not in known)
    if unknown:
        raise InputError(f"{field}.{unknown[0]}", f"unknown field; {cls.__name__} fields are: {', '.join(known)}")
    required = [f.name for f in fields if f.default is dataclasses.MISSING and f.name not in data]
    if required:
        raise InputError(f"{field}.{required[0]}", f"missing; {cls.__name__} needs {', '.join(required)}")
    with field_prefix(field):
        return cls(**data)


def _plain(profile: Any) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for f in dataclasses.fields(profile):
        value = getattr(profile, f.name)
        if value is None:
            continue
        if dataclasses.is_dataclass(value):
            value = _plain(value)
        elif isinstance(value, tuple):
            value = list(value)
        out[f.name] = value
    return out


@dataclass(frozen=True)
class Weapon:
    """The weapon a side fights with in this exchange.

    hit: target number 2..6 (``4`` or ``"4+"``); force: the damage value 0..20; crit: the natural face
    from which a hit is critical (2..6, read as at least the final hit target); kind: ``"melee"``, or
    ``"ranged"`` for an Assault ranged weapon used in close combat (needs ``assault=True``);
    sustained / critical_damage / bonus_flat: 0..10; reroll: ``"none"``, ``"fails"`` or ``"ones"``.
    """

    hit: int
    force: int
    crit: int = 6
    kind: str = "melee"
    assault: bool = False
    sustained: int = 0
    critical_damage: int = 0
    bonus_flat: int = 0
    reroll: str = "none"
    name: str = ""

    def __post_init__(self) -> None:
        set_ = object.__setattr__
        set_(self, "hit", check_stat("hit", self.hit))
        set_(self, "force", check_int("force", self.force, 0, MAX_FORCE))
        set_(self, "crit", check_stat("crit", self.crit))
        set_(self, "kind", check_choice("kind", self.kind, KINDS))
        set_(self, "assault", check_bool("assault", self.assault))
        set_(self, "sustained", check_int("sustained", self.sustained, 0, MAX_BONUS))
        set_(self, "critical_damage", check_int("critical_damage", self.critical_damage, 0, MAX_BONUS))
        set_(self, "bonus_flat", check_int("bonus_flat", self.bonus_flat, 0, MAX_BONUS))
        set_(self, "reroll", check_choice("reroll", self.reroll, REROLLS))
        set_(self, "name", _check_name("name", self.name))
        if self.kind == "ranged" and not self.assault:
            raise InputError(
                "kind",
                "a ranged weapon fights in close combat only if it is an Assault weapon; "
                "allowed: kind='melee', or kind='ranged' with assault=True",
            )

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Weapon:
        return _from_mapping(cls, data, "weapon")

    def to_dict(self) -> dict[str, Any]:
        return _plain(self)


@dataclass(frozen=True)
class Unit:
    """A unit of ``models`` models (1..30) of ``hp`` HP each (1..30).

    current: optional HP of each model now (1..hp each), in the owner's allocation order; a model
    below ``hp`` is wounded and takes damage first. vehicle: vehicles use the same engine (the flag
    changes nothing yet).
    """

    models: int
    hp: int = 1
    current: tuple[int, ...] | None = None
    vehicle: bool = False
    name: str = ""

    def __post_init__(self) -> None:
        set_ = object.__setattr__
        set_(self, "models", check_int("models", self.models, 1, MAX_MODELS))
        set_(self, "hp", check_int("hp", self.hp, 1, MAX_HP))
        if self.current is not None:
            if isinstance(self.current, (str, bytes)) or not isinstance(self.current, Sequence):
                raise InputTypeError("current", f"expected a list of HP per model, got {excerpt(self.current)}")
            if len(self.current) != self.models:
                raise InputError("current", f"has {len(self.current)} entries; expected one per model ({self.models})")
            set_(
                self,
                "current",
                tuple(check_int(f"current[{i}]", hp, 1, self.hp) for i, hp in enumerate(self.current)),
            )
        set_(self, "vehicle", check_bool("vehicle", self.vehicle))
        set_(self, "name", _check_name("name", self.name))

    @property
    def hp_now(self) -> tuple[int, ...]:
        """Current HP of every model in the owner's order."""
        return self.current if self.current is not None else (self.hp,) * self.models

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Unit:
        return _from_mapping(cls, data, "unit")

    def to_dict(self) -> dict[str, Any]:
        return _plain(self)


@dataclass(frozen=True)
class Side:
    """One side of an exchange: ``unit`` fighting with ``weapon``, rolling ``dice`` dice (0..40) with
    ``hit_mod`` (-5..5, added to the roll: +1 turns a 4+ into a 3+).

    In ``melee_many``, ``dice`` is the unit's total, split among the enemies it is engaged with.
    ``unit`` and ``weapon`` may be given as tables of their fields.
    """

    unit: Unit
    weapon: Weapon
    dice: int
    hit_mod: int = 0

    def __post_init__(self) -> None:
        object.__setattr__(self, "unit", _from_mapping(Unit, self.unit, "unit"))
        object.__setattr__(self, "weapon", _from_mapping(Weapon, self.weapon, "weapon"))
        object.__setattr__(self, "dice", check_int("dice", self.dice, 0, MAX_DICE))
        object.__setattr__(self, "hit_mod", check_int("hit_mod", self.hit_mod, -MAX_HIT_MOD, MAX_HIT_MOD))

    @property
    def name(self) -> str:
        return self.unit.name

    @property
    def target(self) -> int:
        """The final hit target: clamp(hit - hit_mod, 2, 6)."""
        return min(6, max(2, self.weapon.hit - self.hit_mod))

    @property
    def crit_face(self) -> int:
        """Natural faces from this one up are crits: max(crit, final hit target)."""
        return max(self.weapon.crit, self.target)

    def replace(self, **changes: Any) -> Side:
        """A copy with some fields changed; ``unit`` and ``weapon`` changes may be partial tables."""
        unit = changes.pop("unit", None)
        weapon = changes.pop("weapon", None)
        if isinstance(unit, Mapping):
            with field_prefix("unit"):
                unit = dataclasses.replace(self.unit, **unit)
        if isinstance(weapon, Mapping):
            with field_prefix("weapon"):
                weapon = dataclasses.replace(self.weapon, **weapon)
        return dataclasses.replace(self, unit=unit or self.unit, weapon=weapon or self.weapon, **changes)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], field: str = "side") -> Side:
        """A side from ``{"unit": {...}, "weapon": {...}, "dice": 3, "hit_mod": 0}``; errors name
        the field as ``<field>.weapon.hit``."""
        if isinstance(data, Side):
            return data
        if not isinstance(data, Mapping):
            raise InputTypeError(field, f"expected a Side or a table with unit, weapon and dice, got {excerpt(data)}")
        known = [f.name for f in dataclasses.fields(cls)]
        unknown = sorted(str(k) for k in data if k not in known)
        if unknown:
            raise InputError(f"{field}.{unknown[0]}", f"unknown field; Side fields are: {', '.join(known)}")
        for name in ("unit", "weapon", "dice"):
            if name not in data:
                raise InputError(f"{field}.{name}", "missing; a Side needs unit, weapon and dice")
        with field_prefix(field):
            return cls(**data)

    def to_dict(self) -> dict[str, Any]:
        return _plain(self)


def as_side(value: Any, field: str) -> Side:
    """A Side, or one built from a table of its fields (errors prefixed with ``field``)."""
    return Side.from_dict(value, field)


def as_unit(value: Any, field: str = "unit") -> Unit:
    return _from_mapping(Unit, value, field)
