"""Deathburgh combat: exact and Monte Carlo (docs/rules/deathburgh.md).

    from mathhammer import deathburgh as db
    brute = db.Miniature.parse("A 3/4+ D 5/3+ W 5", name="Old Fellas Brute")
    leader = db.example("Bandit Leader")
    r = db.combat(db.Side(leader, charge=True), db.Side(brute, "defensive"), reaction="dodge")
    r.wasted("defender"), r.p_counter_wound, r.wounds_defender.pmf

``db.pool`` gives one side's successes, ``db.combat`` one combat (``edition="web"`` by default,
``"alpha"`` for the alpha rulebook), ``db.combat_batch`` many combats in one call, ``db.round`` a
round of combats with wounds carried over.
"""

from typing import Any

from mathhammer.deathburgh._game import GAME
from mathhammer.deathburgh.engine import combat, combat_batch, pool
from mathhammer.deathburgh.files import load_profiles, load_round, save_profiles
from mathhammer.deathburgh.profiles import EXAMPLES, Miniature, Side, example
from mathhammer.deathburgh.results import CombatResult, RoundResult
from mathhammer.deathburgh.rounds import Engagement, round
from mathhammer.deathburgh.variants import Variants

__all__ = [
    "EXAMPLES",
    "GAME",
    "CombatResult",
    "Engagement",
    "Miniature",
    "RoundResult",
    "Variants",
    "Side",
    "combat",
    "combat_batch",
    "example",
    "load_profiles",
    "load_round",
    "pool",
    "round",
    "save_profiles",
]


def __getattr__(name: str) -> Any:
    """The deprecated name ``db.Rules`` (now ``db.Variants``)."""
    if name == "Rules":
        import warnings

        warnings.warn("db.Rules is deprecated; use db.Variants", DeprecationWarning, stacklevel=2)
        return Variants
    raise AttributeError(f"module 'mathhammer.deathburgh' has no attribute {name!r}")
