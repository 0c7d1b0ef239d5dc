"""Force melee as the layers above the games see it: its profile kinds, example sides and actions
(docs/architecture.md)."""

from __future__ import annotations

from mathhammer.core.game import Action, Game
from mathhammer.force_melee.catalog import EXAMPLES
from mathhammer.force_melee.engine import melee, melee_batch, melee_many
from mathhammer.force_melee.profiles import Side, Unit, Weapon
from mathhammer.force_melee.report import melee_many_tables, melee_tables
from mathhammer.force_melee.results import MeleeManyResult, MeleeResult
from mathhammer.force_melee.variants import Variants

__all__ = ["GAME"]

GAME = Game(
    name="force_melee",
    title="Force melee",
    actions=(
        Action("melee", melee, MeleeResult, "a Force melee exchange between sides a and b", printer=melee_tables,
               batch=melee_batch, profiles={"a": "side", "b": "side"}),
        Action("melee_many", melee_many, MeleeManyResult, "a Force melee among several engaged units",
               printer=melee_many_tables, profile_tables={"sides": "side"}),
    ),
    # in this order: a side may name the library's units and weapons before it
    profile_kinds={"weapon": Weapon, "unit": Unit, "side": Side},
    variants=Variants,
    builtin={"side": EXAMPLES},
    references={"side": {"unit": "unit", "weapon": "weapon"}},
    bundled_library="examples/force_melee/profiles.toml",
)
