"""Force melee: a simultaneous close-combat exchange decided by hits compared and weapon Force
(docs/rules/force_melee.md).

>>> from mathhammer import force_melee as fm
>>> r = fm.melee(fm.example("line_troopers"), fm.example("militia"))
>>> round(r.damage_b.at_least(1), 6), round(r.wiped("b"), 6)
(0.833333, 0.0)
"""

from mathhammer.core.options import METHODS
from mathhammer.force_melee.engine import (
    ExchangeDamage,
    allocate,
    melee,
    melee_batch,
    melee_many,
    resolve,
)
from mathhammer.force_melee._game import GAME
from mathhammer.force_melee.catalog import EXAMPLES, example
from mathhammer.force_melee.profiles import KINDS, REROLLS, Side, Unit, Weapon
from mathhammer.force_melee.results import AllocationResult, MeleeManyResult, MeleeResult, PairResult, UnitResult
from mathhammer.force_melee.scenario import load_scenario, run_scenario
from mathhammer.force_melee.variants import ALLOCATIONS, SUSTAINED_MODES, WINNER_DAMAGE, Variants

__all__ = [
    "ALLOCATIONS",
    "GAME",
    "EXAMPLES",
    "KINDS",
    "METHODS",
    "REROLLS",
    "SUSTAINED_MODES",
    "WINNER_DAMAGE",
    "AllocationResult",
    "ExchangeDamage",
    "MeleeManyResult",
    "MeleeResult",
    "PairResult",
    "Side",
    "Unit",
    "UnitResult",
    "Variants",
    "Weapon",
    "allocate",
    "example",
    "load_scenario",
    "melee",
    "melee_batch",
    "melee_many",
    "resolve",
    "run_scenario",
]
