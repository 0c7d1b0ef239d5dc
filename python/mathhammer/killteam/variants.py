"""Kill Team's rule switches, passed to every Kill Team engine function as ``variants=``.

The defaults are the readings of docs/rules/killteam.md. Each deliberate departure from the
reference calculator, and each rule the two read differently, is one named switch
(docs/rules/killteam.md §8.5); the preset ``"ktcalc"`` sets every switch to the reference's reading:
``kt.Variants.resolve("ktcalc").blocks == "greedy"``, and ``"shock=norms_only"`` sets one switch.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from mathhammer.core.variants import Variants as BaseVariants
from mathhammer.core.checks import check_bool, check_choice

__all__ = ["CHOICES", "Variants"]

#: Every switch's readings, the default (this project's reading) first, the reference's second.
CHOICES: dict[str, tuple[str, str] | tuple[bool, bool]] = {
    "shock": ("discard_crit", "norms_only"),
    "lethal_test": ("real_damage", "nominal"),
    "lookahead": ("fixed", "rolled"),
    "duelist": ("never_parry_nothing", "always"),
    "durable": ("after_damage_modifiers", "before_damage_modifiers"),
    "blocks": ("optimal", "greedy"),
    "just_a_scratch": ("after_blocks", "before_blocks"),
    "fnp": ("per_damage_instance", "per_hit"),
    "upgrades": ("accurate_first", "rolled_first"),
    "ones": ("unmodified_ones", "any_two_fails"),
    "injured": (True, False),
}


@dataclass(frozen=True)
class Variants(BaseVariants):
    """Kill Team's rule switches (docs/rules/killteam.md §8.5); ``Variants.resolve("ktcalc")`` is the reference.

    shock: what Shock discards when the enemy holds no norm ("discard_crit") or not ("norms_only").
    lethal_test: the lethal-strike test uses the strike's real damage or the reference's nominal one.
    lookahead: Max Dmg / Min Dmg play their two lines without Feel No Pain and relics ("fixed"), or
        roll them as the lines go, the decision then a chance ("rolled").
    duelist: Duelist skips a parry that would cancel nothing ("never_parry_nothing") or parries always.
    durable: Durable's 1 comes off after Hammerhand / Half Damage First Strike, or before.
    blocks: the defender allocates saves optimally, or by the reference's greedy.
    just_a_scratch: in shooting, Just a Scratch cancels after the blocks, or before them.
    fnp: one Feel No Pain roll per damage instance, or per hit (pooled, the reference).
    upgrades: Waaagh / Norms to Crits / Mystic Scry upgrade Accurate norms first, or rolled norms first.
    ones: Purity Seal / Indomitus need two unmodified 1s, or any two fails.
    injured: a fighter below half its starting wounds fights later rounds at a worse Hit (True), or
    every round at its own (False: the reference does not model injury).
    """

    GAME: ClassVar[str] = "killteam"
    PRESETS: ClassVar[Mapping[str, Mapping[str, Any]]] = {
        "ktcalc": {name: readings[1] for name, readings in CHOICES.items()},
    }

    shock: str = "discard_crit"
    lethal_test: str = "real_damage"
    lookahead: str = "fixed"
    duelist: str = "never_parry_nothing"
    durable: str = "after_damage_modifiers"
    blocks: str = "optimal"
    just_a_scratch: str = "after_blocks"
    fnp: str = "per_damage_instance"
    upgrades: str = "accurate_first"
    ones: str = "unmodified_ones"
    injured: bool = True

    def __post_init__(self) -> None:
        for name, readings in CHOICES.items():
            value = getattr(self, name)
            if isinstance(readings[0], bool):
                object.__setattr__(self, name, check_bool(f"variants.{name}", value))
            else:
                object.__setattr__(self, name, check_choice(f"variants.{name}", value, readings))
