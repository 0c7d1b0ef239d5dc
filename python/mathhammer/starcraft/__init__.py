"""StarCraft: Tabletop Miniatures Game attacks, exact and Monte Carlo (docs/rules/starcraft.md).

>>> from mathhammer import starcraft as sc
>>> rifles = sc.Weapon(roa=2, hit=3, damage=1, surge_tags=("Light",), surge_dice="D3")
>>> zerglings = sc.Unit(models=12, hp=1, armour=6, evade=4, tags=("Biological", "Light", "Ground"))
>>> r = sc.attack(rifles, zerglings, firing_models=6)
>>> round(r.casualties.mean, 4)
3.5
"""

from mathhammer.starcraft import catalog, rules
from mathhammer.starcraft.compare import Comparison, compare
from mathhammer.starcraft.engine import attack, attack_batch, resolve, sequence
from mathhammer.starcraft.keywords import KEYWORDS, TAGS, format_keywords, parse_keywords
from mathhammer.starcraft.profiles import Batch, Rules, Unit, Variants, Weapon
from mathhammer.starcraft.results import (
    Allocation,
    AttackResult,
    BatchSummary,
    Resolution,
    SequenceResult,
    Stages,
    StateDistribution,
)

__all__ = [
    "KEYWORDS",
    "TAGS",
    "Allocation",
    "AttackResult",
    "Batch",
    "BatchSummary",
    "Comparison",
    "Resolution",
    "Rules",
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
    "rules",
    "sequence",
]
