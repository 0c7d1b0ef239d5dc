"""A few real StarCraft TMG profiles (docs/rules/starcraft.md §11), by name.

The same profiles are in ``examples/starcraft/profiles.toml`` for users to copy; a test checks that
the two agree.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TypeVar

from mathhammer.errors import InputError, InputTypeError
from mathhammer.starcraft.profiles import Unit, Weapon

__all__ = ["ARMED_WITH", "UNITS", "WEAPONS", "unit", "weapon", "weapon_of"]

WEAPONS: dict[str, Weapon] = {
    "c14_rifle": Weapon(2, 3, 1, surge_tags=("Light",), surge_dice="D3", name="C-14 Rifle"),
    "quad_k12": Weapon(3, 3, 1, surge_tags=("Armoured",), surge_dice="D3", keywords="PIERCE Armoured (2)", name="Quad K12"),
    "particle_disruptors": Weapon(4, 3, 2, surge_tags=("Armoured",), surge_dice="D3", name="Particle Disruptors"),
    "kerrigan_blades": Weapon(6, 4, 2, keywords="CRITICAL HIT (2)", name="Blades (Kerrigan)"),
    # Aftershock Rounds (Dmg = target Size) is an ability: pass damage_set="size" to sc.attack.
    # roa as card text ("BT+4": a template weapon, roa 4), which the constructor reads.
    "shock_cannon": Weapon("BT+4", 4, 1, surge_tags=("Light", "Armoured"), name="Shock Cannon"),  # type: ignore[arg-type]
}

UNITS: dict[str, Unit] = {
    "marine": Unit(6, 2, 5, 5, tags=("Biological", "Light", "Ground"), name="Marine"),
    "marauder": Unit(2, 5, 4, 6, tags=("Armoured", "Biological", "Ground"), name="Marauder"),
    "zergling": Unit(12, 1, 6, 4, tags=("Biological", "Light", "Ground"), name="Zergling"),
    "roach": Unit(3, 4, 3, 5, tags=("Armoured", "Biological", "Ground"), name="Roach"),
    "zealot": Unit(3, 4, 5, 5, shield=3, tags=("Biological", "Light", "Ground"), name="Zealot"),
    "stalker": Unit(1, 6, 4, 6, shield=3, tags=("Armoured", "Mechanical", "Ground"), name="Stalker"),
    "immortal": Unit(1, 8, 4, None, shield=6, tags=("Armoured", "Mechanical", "Ground"), name="Immortal"),
}

#: The catalogue weapon each catalogue unit fires (sc.Unit has no weapon field: a unit is a target
#: first). ``mathhammer starcraft attack --attacker marine`` fires all the unit's models with it.
ARMED_WITH: dict[str, str] = {"marine": "c14_rifle", "marauder": "quad_k12", "stalker": "particle_disruptors"}


P = TypeVar("P", Weapon, Unit)


def _key(name: str) -> str:
    return "".join(ch if ch.isalnum() else "_" for ch in name.strip().lower()).strip("_").replace("__", "_")


def _lookup(kind: str, table: Mapping[str, P], name: str) -> P:
    if not isinstance(name, str):
        raise InputTypeError(kind, f"expected a {kind} name, got {name!r}")
    key = _key(name)
    for entry_key, profile in table.items():
        if key in (entry_key, _key(profile.name)):
            return profile
    raise InputError(kind, f"unknown {kind} {name!r}; known: {', '.join(table)}")


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
