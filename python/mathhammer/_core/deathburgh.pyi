"""
Deathburgh
"""
from __future__ import annotations
import collections.abc
import numpy
import numpy.typing
import typing
__all__: list[str] = ['CombatSpec', 'Edition', 'ExactBatch', 'MAX_COMBATS', 'MAX_DICE', 'MAX_EXACT_ROUND_STATES', 'MAX_MINIATURES', 'MAX_WOUNDS', 'MODE_FROM_STATE', 'OutcomeRules', 'PoolSpec', 'Reaction', 'Reroll', 'RoundCombat', 'RoundSpec', 'combat_exact', 'combat_exact_batch', 'combat_monte_carlo', 'combat_shape', 'pool_pmf', 'round_exact', 'round_monte_carlo']
class Reroll:
    """
    Members:
    
      none
    
      all_fails
    
      one_fail
    """
    __members__: typing.ClassVar[dict[str, Reroll]]
    all_fails: typing.ClassVar[Reroll]
    none: typing.ClassVar[Reroll]
    one_fail: typing.ClassVar[Reroll]
    @typing.overload
    def __eq__(self, other: Reroll) -> bool:
        ...
    @typing.overload
    def __eq__(self, other: typing.Any) -> bool:
        ...
    def __getstate__(self) -> int:
        ...
    def __hash__(self) -> int:
        ...
    def __index__(self) -> int:
        ...
    def __init__(self, value: typing.SupportsInt | typing.SupportsIndex) -> None:
        ...
    def __int__(self) -> int:
        ...
    @typing.overload
    def __ne__(self, other: Reroll) -> bool:
        ...
    @typing.overload
    def __ne__(self, other: typing.Any) -> bool:
        ...
    def __repr__(self) -> str:
        ...
    def __setstate__(self, state: typing.SupportsInt | typing.SupportsIndex) -> None:
        ...
    def __str__(self) -> str:
        ...
    @property
    def name(self) -> str:
        ...
    @property
    def value(self) -> int:
        ...
class Edition:
    """
    Members:
    
      web
    
      alpha
    """
    __members__: typing.ClassVar[dict[str, Edition]]
    alpha: typing.ClassVar[Edition]
    web: typing.ClassVar[Edition]
    @typing.overload
    def __eq__(self, other: Edition) -> bool:
        ...
    @typing.overload
    def __eq__(self, other: typing.Any) -> bool:
        ...
    def __getstate__(self) -> int:
        ...
    def __hash__(self) -> int:
        ...
    def __index__(self) -> int:
        ...
    def __init__(self, value: typing.SupportsInt | typing.SupportsIndex) -> None:
        ...
    def __int__(self) -> int:
        ...
    @typing.overload
    def __ne__(self, other: Edition) -> bool:
        ...
    @typing.overload
    def __ne__(self, other: typing.Any) -> bool:
        ...
    def __repr__(self) -> str:
        ...
    def __setstate__(self, state: typing.SupportsInt | typing.SupportsIndex) -> None:
        ...
    def __str__(self) -> str:
        ...
    @property
    def name(self) -> str:
        ...
    @property
    def value(self) -> int:
        ...
class Reaction:
    """
    Members:
    
      attack
    
      dodge
    
      none
    """
    __members__: typing.ClassVar[dict[str, Reaction]]
    attack: typing.ClassVar[Reaction]
    dodge: typing.ClassVar[Reaction]
    none: typing.ClassVar[Reaction]
    @typing.overload
    def __eq__(self, other: Reaction) -> bool:
        ...
    @typing.overload
    def __eq__(self, other: typing.Any) -> bool:
        ...
    def __getstate__(self) -> int:
        ...
    def __hash__(self) -> int:
        ...
    def __index__(self) -> int:
        ...
    def __init__(self, value: typing.SupportsInt | typing.SupportsIndex) -> None:
        ...
    def __int__(self) -> int:
        ...
    @typing.overload
    def __ne__(self, other: Reaction) -> bool:
        ...
    @typing.overload
    def __ne__(self, other: typing.Any) -> bool:
        ...
    def __repr__(self) -> str:
        ...
    def __setstate__(self, state: typing.SupportsInt | typing.SupportsIndex) -> None:
        ...
    def __str__(self) -> str:
        ...
    @property
    def name(self) -> str:
        ...
    @property
    def value(self) -> int:
        ...
class PoolSpec:
    reroll: Reroll
    def __init__(self) -> None:
        ...
    @property
    def auto_hits(self) -> int:
        ...
    @auto_hits.setter
    def auto_hits(self, arg0: typing.SupportsInt | typing.SupportsIndex) -> None:
        ...
    @property
    def instant_crits(self) -> int:
        ...
    @instant_crits.setter
    def instant_crits(self, arg0: typing.SupportsInt | typing.SupportsIndex) -> None:
        ...
    @property
    def rolled(self) -> int:
        ...
    @rolled.setter
    def rolled(self, arg0: typing.SupportsInt | typing.SupportsIndex) -> None:
        ...
    @property
    def target(self) -> int:
        ...
    @target.setter
    def target(self, arg0: typing.SupportsInt | typing.SupportsIndex) -> None:
        ...
    @property
    def wound_cap(self) -> int:
        ...
    @wound_cap.setter
    def wound_cap(self, arg0: typing.SupportsInt | typing.SupportsIndex) -> None:
        ...
class OutcomeRules:
    draw_at_zero: bool
    draw_in_dodge: bool
    edition: Edition
    reaction: Reaction
    same_role: bool
    def __init__(self) -> None:
        ...
class CombatSpec:
    attacker: PoolSpec
    defender: PoolSpec
    rules: OutcomeRules
    def __init__(self) -> None:
        ...
class RoundCombat:
    rules: OutcomeRules
    def __init__(self) -> None:
        ...
    @property
    def attacker(self) -> int:
        ...
    @attacker.setter
    def attacker(self, arg0: typing.SupportsInt | typing.SupportsIndex) -> None:
        ...
    @property
    def attacker_mode(self) -> int:
        ...
    @attacker_mode.setter
    def attacker_mode(self, arg0: typing.SupportsInt | typing.SupportsIndex) -> None:
        ...
    @property
    def attacker_pools(self) -> list[PoolSpec]:
        ...
    @attacker_pools.setter
    def attacker_pools(self, arg1: collections.abc.Sequence[PoolSpec]) -> None:
        ...
    @property
    def defender(self) -> int:
        ...
    @defender.setter
    def defender(self, arg0: typing.SupportsInt | typing.SupportsIndex) -> None:
        ...
    @property
    def defender_mode(self) -> int:
        ...
    @defender_mode.setter
    def defender_mode(self, arg0: typing.SupportsInt | typing.SupportsIndex) -> None:
        ...
    @property
    def defender_pools(self) -> list[PoolSpec]:
        ...
    @defender_pools.setter
    def defender_pools(self, arg1: collections.abc.Sequence[PoolSpec]) -> None:
        ...
class RoundSpec:
    def __init__(self) -> None:
        ...
    @property
    def combats(self) -> list[RoundCombat]:
        ...
    @combats.setter
    def combats(self, arg0: collections.abc.Sequence[RoundCombat]) -> None:
        ...
    @property
    def start_wounds(self) -> list[int]:
        ...
    @start_wounds.setter
    def start_wounds(self, arg0: collections.abc.Sequence[typing.SupportsInt | typing.SupportsIndex]) -> None:
        ...
class ExactBatch:
    """
    Exact results of many configurations: batch[i] is item i's arrays
    """
    def __getitem__(self, index: typing.SupportsInt | typing.SupportsIndex) -> tuple[numpy.typing.NDArray[numpy.float64], numpy.typing.NDArray[numpy.float64], numpy.typing.NDArray[numpy.float64], numpy.typing.NDArray[numpy.float64]]:
        ...
    def __len__(self) -> int:
        ...
def combat_exact(spec: CombatSpec) -> tuple[numpy.typing.NDArray[numpy.float64], numpy.typing.NDArray[numpy.float64], numpy.typing.NDArray[numpy.float64], numpy.typing.NDArray[numpy.float64]]:
    ...
def combat_exact_batch(specs: collections.abc.Sequence[CombatSpec], on_caller: bool = False) -> ExactBatch:
    """
    Exact combats, each distinct spec object once: batch[i] is combat_exact(specs[i])
    """
def combat_monte_carlo(spec: CombatSpec, seed: typing.SupportsInt | typing.SupportsIndex, total: typing.SupportsInt | typing.SupportsIndex, chunk_begin: typing.SupportsInt | typing.SupportsIndex, chunk_end: typing.SupportsInt | typing.SupportsIndex, threads: typing.SupportsInt | typing.SupportsIndex) -> numpy.typing.NDArray[numpy.uint64]:
    ...
def combat_shape(arg0: CombatSpec) -> tuple[int, int, int, int]:
    ...
def pool_pmf(arg0: PoolSpec) -> numpy.typing.NDArray[numpy.float64]:
    ...
def round_exact(spec: RoundSpec) -> numpy.typing.NDArray[numpy.float64]:
    ...
def round_monte_carlo(spec: RoundSpec, seed: typing.SupportsInt | typing.SupportsIndex, total: typing.SupportsInt | typing.SupportsIndex, chunk_begin: typing.SupportsInt | typing.SupportsIndex, chunk_end: typing.SupportsInt | typing.SupportsIndex, threads: typing.SupportsInt | typing.SupportsIndex) -> numpy.typing.NDArray[numpy.uint64]:
    ...
MAX_COMBATS: int = 50
MAX_DICE: int = 20
MAX_EXACT_ROUND_STATES: int = 1000000
MAX_MINIATURES: int = 20
MAX_WOUNDS: int = 20
MODE_FROM_STATE: int = -1
