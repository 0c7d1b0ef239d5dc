"""The Force melee profiles the package ships: the example sides of docs/rules/force_melee.md §8
(invented), usable by name wherever a side is named."""

from __future__ import annotations

from mathhammer.core.checks import check_choice
from mathhammer.force_melee.profiles import Side, Unit, Weapon

__all__ = ["EXAMPLES", "example"]


# The example profiles of docs/rules/force_melee.md §8 (invented). The Assault carbine's attacks, hit and Force
# are ours: the spec only says the weapon brings its own.
EXAMPLES: dict[str, Side] = {
    "line_troopers": Side(
        unit=Unit(models=5, hp=1, name="Line Trooper squad"),
        weapon=Weapon(hit=4, force=4, name="Combat blades"),
        dice=3,
    ),
    "militia": Side(
        unit=Unit(models=5, hp=1, name="Militia squad"),
        weapon=Weapon(hit=5, force=2, name="Improvised weapons"),
        dice=2,
    ),
    "walker": Side(
        unit=Unit(models=1, hp=12, vehicle=True, name="Walker"),
        weapon=Weapon(hit=3, force=6, name="Crushing claws"),
        dice=4,
    ),
    "carbine_squad": Side(
        unit=Unit(models=5, hp=1, name="Carbine squad"),
        weapon=Weapon(hit=4, force=3, kind="ranged", assault=True, name="Assault carbine"),
        dice=4,
    ),
}


def example(name: str) -> Side:
    """One of the example sides: line_troopers, militia, walker, carbine_squad."""
    return EXAMPLES[check_choice("profile", name, EXAMPLES)]
