"""A few real StarCraft TMG profiles (docs/rules/starcraft.md §11), by name.

They are the example library ``examples/starcraft/profiles.toml`` (shipped in the package, for users
to copy), read once here: one copy of each profile.
"""

from __future__ import annotations

from collections.abc import Mapping
from importlib import resources
from typing import Any, TypeVar

from mathhammer.core.guard import did_you_mean, excerpt, tomllib
from mathhammer.core.profiles import profile_from_fields
from mathhammer.errors import InputError, InputTypeError
from mathhammer.starcraft.profiles import Unit, Weapon

__all__ = ["ARMED_WITH", "UNITS", "WEAPONS", "unit", "weapon", "weapon_of"]

#: The package resource the catalogue is read from.
LIBRARY = "examples/starcraft/profiles.toml"

_K = TypeVar("_K", Weapon, Unit)


def _read(kind: str, cls: type[_K], data: Mapping[str, Any]) -> dict[str, _K]:
    return {key: profile_from_fields(cls, kind, fields, game="starcraft") for key, fields in data[kind].items()}


_LIBRARY: dict[str, Any] = tomllib.loads(resources.files("mathhammer").joinpath(LIBRARY).read_text(encoding="utf-8"))
WEAPONS: dict[str, Weapon] = _read("weapon", Weapon, _LIBRARY)
UNITS: dict[str, Unit] = _read("unit", Unit, _LIBRARY)

#: The catalogue weapon each catalogue unit fires (sc.Unit has no weapon field: a unit is a target
#: first). ``mathhammer starcraft attack --attacker marine`` fires all the unit's models with it.
ARMED_WITH: dict[str, str] = {"marine": "c14_rifle", "marauder": "quad_k12", "stalker": "particle_disruptors"}


P = TypeVar("P", Weapon, Unit)


def _key(name: str) -> str:
    return "".join(ch if ch.isalnum() else "_" for ch in name.strip().lower()).strip("_").replace("__", "_")


def _lookup(kind: str, table: Mapping[str, P], name: str) -> P:
    if not isinstance(name, str):
        raise InputTypeError(kind, f"expected a {kind} name, got {excerpt(name)}")
    key = _key(name)
    for entry_key, profile in table.items():
        if key in (entry_key, _key(profile.name)):
            return profile
    raise InputError(kind, f"unknown {kind} {excerpt(name)}{did_you_mean(key, list(table))}; known: {', '.join(table)}")


def weapon(name: str) -> Weapon:
    """A catalogue weapon by key ('c14_rifle') or name ('C-14 Rifle')."""
    return _lookup("weapon", WEAPONS, name)


def unit(name: str) -> Unit:
    """A catalogue unit by key ('zergling') or name ('Zergling')."""
    return _lookup("unit", UNITS, name)


def weapon_of(name: str) -> str | None:
    """The catalogue key of the weapon a catalogue unit fires ('marine' or 'Marine' -> 'c14_rifle'),
    None for a unit the catalogue arms with nothing (Zerglings' claws are not in it)."""
    key = _key(name)
    for entry_key, profile in UNITS.items():
        if key in (entry_key, _key(profile.name)):
            return ARMED_WITH.get(entry_key)
    return None
