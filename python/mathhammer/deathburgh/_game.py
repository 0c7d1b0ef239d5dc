"""Deathburgh as the layers above the games see it: its profile kind, example miniatures and actions
(docs/architecture.md)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from mathhammer.core.game import Action, Game, Library
from mathhammer.core.guard import excerpt
from mathhammer.deathburgh.engine import combat, combat_batch
from mathhammer.deathburgh.profiles import EXAMPLES, Miniature, as_miniature
from mathhammer.deathburgh.report import combat_tables, round_tables
from mathhammer.deathburgh.results import CombatResult, RoundResult
from mathhammer.deathburgh.rounds import round as play_round
from mathhammer.deathburgh.variants import Variants
from mathhammer.errors import InputTypeError

__all__ = ["GAME"]


def _library_miniatures(kwargs: dict[str, Any], library: Library) -> dict[str, Any]:
    """Deathburgh resolves example names, notation and tables itself; put the library's miniatures
    in where an entry names one (a side, a side's ``mini``, or a round's miniature). A round's
    miniature given as a table may carry its current ``wounds`` and takes its key as its name."""
    named = library.get("miniature", {})

    def mini(value: Any) -> Any:
        return named[value] if isinstance(value, str) and value in named else value

    for side in ("attacker", "defender"):
        value = kwargs.get(side)
        if isinstance(value, Mapping) and "mini" in value:
            kwargs[side] = {**value, "mini": mini(value["mini"])}
        elif side in kwargs:
            kwargs[side] = mini(value)
    if isinstance(kwargs.get("miniatures"), Mapping):
        miniatures, wounds = {}, {}
        for name, value in kwargs["miniatures"].items():
            if isinstance(value, Mapping):
                value = dict(value)
                if "wounds" in value:
                    wounds[name] = value.pop("wounds")
                value = {"name": name, **value}
            miniatures[name] = as_miniature(f"miniatures.{name}", mini(value))
        kwargs["miniatures"] = miniatures
        if wounds:
            given = kwargs.get("wounds") or {}
            if not isinstance(given, Mapping):
                raise InputTypeError("wounds", f"expected a table of name -> current wounds, got {excerpt(given)}")
            kwargs["wounds"] = {**wounds, **given}
    return kwargs


GAME = Game(
    name="deathburgh",
    title="Deathburgh",
    actions=(
        Action("combat", combat, CombatResult, "a Deathburgh combat between attacker and defender",
               printer=combat_tables, batch=combat_batch, prepare=_library_miniatures),
        Action("round", play_round, RoundResult, "a Deathburgh round of combats", printer=round_tables,
               prepare=_library_miniatures, aliases={"combat": "combats"}),
    ),
    profile_kinds={"miniature": Miniature},
    variants=Variants,
    builtin={"miniature": EXAMPLES},
)
