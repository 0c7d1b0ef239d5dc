"""StarCraft: Tabletop Miniatures Game attacks, exact and Monte Carlo (docs/rules/starcraft.md).

>>> from mathhammer import starcraft as sc
>>> rifles = sc.Weapon(roa=2, hit=3, damage=1, surge_tags=("Light",), surge_dice="D3")
>>> zerglings = sc.Unit(models=12, hp=1, armour=6, evade=4, tags=("Biological", "Light", "Ground"))
>>> r = sc.attack(rifles, zerglings, firing_models=6)
>>> round(r.casualties.mean, 4)
3.5
"""

from typing import Any

from mathhammer.starcraft import catalog, steps
from mathhammer.starcraft._game import GAME
from mathhammer.starcraft.comparison import compare
from mathhammer.starcraft.engine import attack, attack_batch, resolve, sequence
from mathhammer.starcraft.profiles import (
    KEYWORDS,
    TAGS,
    Batch,
    BatchOptions,
    Unit,
    Weapon,
    format_keywords,
    parse_keywords,
)
from mathhammer.starcraft.results import (
    Allocation,
    AttackResult,
    BatchSummary,
    Comparison,
    Resolution,
    SequenceResult,
    Stages,
    StateDistribution,
)
from mathhammer.starcraft.variants import Variants

__all__ = [
    "GAME",
    "KEYWORDS",
    "TAGS",
    "Allocation",
    "AttackResult",
    "Batch",
    "BatchOptions",
    "BatchSummary",
    "Comparison",
    "Resolution",
    "SequenceResult",
    "Stages",
    "StateDistribution",
    "Unit",
    "Variants",
    "Weapon",
    "attack",
    "attack_batch",
    "catalog",
    "compare",
    "format_keywords",
    "parse_keywords",
    "resolve",
    "sequence",
    "steps",
]


def __getattr__(name: str) -> Any:
    """The deprecated names: ``sc.Rules`` (now ``sc.Variants``) and ``sc.rules`` (now ``sc.steps``)."""
    import warnings

    if name == "Rules":
        warnings.warn("sc.Rules is deprecated; use sc.Variants", DeprecationWarning, stacklevel=2)
        return Variants
    if name == "rules":
        import mathhammer.starcraft.rules as rules  # warns itself when first imported

        return rules
    raise AttributeError(f"module 'mathhammer.starcraft' has no attribute {name!r}")
