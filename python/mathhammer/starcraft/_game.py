"""StarCraft as the layers above the games see it: its profile kinds, catalogue and actions
(docs/architecture.md)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from mathhammer.core.entries import check_keys
from mathhammer.core.game import Action, Game, Library
from mathhammer.errors import InputError
from mathhammer.starcraft import catalog
from mathhammer.starcraft.comparison import compare
from mathhammer.starcraft.engine import attack, attack_batch, sequence
from mathhammer.starcraft.profiles import ATTACK_KWARGS, Batch, Unit, Weapon
from mathhammer.starcraft.report import attack_tables, comparison_tables, sequence_tables
from mathhammer.starcraft.results import AttackResult, Comparison, SequenceResult
from mathhammer.starcraft.variants import Variants

__all__ = ["GAME"]


def _batches(kwargs: dict[str, Any], library: Library) -> dict[str, Any]:
    """A sequence's batches are tables: ``weapon`` (a library name, card notation or a table; left
    out in HITS mode) plus any sc.attack options of that batch."""
    batches = kwargs.get("batches")
    if not isinstance(batches, list):
        raise InputError("batches", "expected [[starcraft.sequence.batches]] tables: weapon = ... plus sc.attack options")
    converted = []
    for i, item in enumerate(batches):
        if not isinstance(item, Mapping):
            raise InputError(f"batches[{i}]", "expected a table: weapon = ... plus sc.attack options")
        check_keys(item, ("weapon", *ATTACK_KWARGS), f"batches[{i}].")
        options = dict(item)
        weapon = options.pop("weapon", None)
        if weapon is not None:
            weapon = GAME.resolve_profile("weapon", weapon, library, f"batches[{i}].weapon")
        converted.append(Batch(weapon, **options))
    kwargs["batches"] = converted
    return kwargs


GAME = Game(
    name="starcraft",
    title="StarCraft: Tabletop Miniatures Game",
    actions=(
        Action("attack", attack, AttackResult, "a StarCraft TMG batch of weapon at unit", printer=attack_tables,
               batch=attack_batch, profiles={"weapon": "weapon", "unit": "unit"}, options=ATTACK_KWARGS),
        Action("sequence", sequence, SequenceResult, "several StarCraft TMG batches against one unit, the state "
               "carried over", printer=sequence_tables, profiles={"unit": "unit"}, prepare=_batches),
        Action("compare", compare, Comparison, "StarCraft weapons against every unit", printer=comparison_tables,
               profile_lists={"weapons": "weapon", "units": "unit"}, sweep=False, scenario=False),
    ),
    profile_kinds={"weapon": Weapon, "unit": Unit},
    variants=Variants,
    builtin={"weapon": catalog.WEAPONS, "unit": catalog.UNITS},
    bundled_library="examples/starcraft/profiles.toml",
)
