"""
Force-based simultaneous melee
"""
from __future__ import annotations
import collections.abc
import numpy
import numpy.typing
import typing
__all__: list[str] = ['Allocation', 'AllocationOutcome', 'AllocationTable', 'ExactBatch', 'ExchangeConfig', 'ExchangeLayout', 'ExchangeOutcome', 'ExchangeRules', 'MAX_DICE', 'MAX_HP', 'MAX_MODELS', 'MAX_PAIRS', 'MAX_UNITS', 'MeleeConfig', 'MeleeLayout', 'PairConfig', 'Reroll', 'SideConfig', 'SustainedMode', 'UnitConfig', 'WinnerDamage', 'allocate', 'allocation_table', 'exact_cells', 'exchange_exact', 'exchange_exact_batch', 'exchange_exact_shaped', 'exchange_layout', 'exchange_sample', 'melee_exact', 'melee_layout', 'melee_sample', 'resolve']
class Reroll:
    """
    Hit-roll rerolls
    
    Members:
    
      none
    
      fails
    
      ones
    """
    __members__: typing.ClassVar[dict[str, Reroll]]
    fails: typing.ClassVar[Reroll]
    none: typing.ClassVar[Reroll]
    ones: typing.ClassVar[Reroll]
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
class WinnerDamage:
    """
    Damage of the side with more hits (FM-1)
    
    Members:
    
      once
    
      excess
    
      per_hit
    
      pairing
    """
    __members__: typing.ClassVar[dict[str, WinnerDamage]]
    excess: typing.ClassVar[WinnerDamage]
    once: typing.ClassVar[WinnerDamage]
    pairing: typing.ClassVar[WinnerDamage]
    per_hit: typing.ClassVar[WinnerDamage]
    @typing.overload
    def __eq__(self, other: WinnerDamage) -> bool:
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
    def __ne__(self, other: WinnerDamage) -> bool:
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
class Allocation:
    """
    Whether excess damage spills to the next model (FM-10)
    
    Members:
    
      spill
    
      no_spill
    """
    __members__: typing.ClassVar[dict[str, Allocation]]
    no_spill: typing.ClassVar[Allocation]
    spill: typing.ClassVar[Allocation]
    @typing.overload
    def __eq__(self, other: Allocation) -> bool:
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
    def __ne__(self, other: Allocation) -> bool:
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
class SustainedMode:
    """
    Sustained / Critical Damage as bonus or extra hits (FM-7)
    
    Members:
    
      bonus
    
      extra_hits
    """
    __members__: typing.ClassVar[dict[str, SustainedMode]]
    bonus: typing.ClassVar[SustainedMode]
    extra_hits: typing.ClassVar[SustainedMode]
    @typing.overload
    def __eq__(self, other: SustainedMode) -> bool:
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
    def __ne__(self, other: SustainedMode) -> bool:
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
class SideConfig:
    """
    One side of one exchange, reduced to what the dice and damage need
    """
    def __getstate__(self) -> tuple[typing.Any, ...]:
        ...
    def __init__(self, dice: typing.SupportsInt | typing.SupportsIndex, target: typing.SupportsInt | typing.SupportsIndex, crit_face: typing.SupportsInt | typing.SupportsIndex, reroll: Reroll, force: typing.SupportsInt | typing.SupportsIndex, sustained: typing.SupportsInt | typing.SupportsIndex, critical_damage: typing.SupportsInt | typing.SupportsIndex, bonus_flat: typing.SupportsInt | typing.SupportsIndex) -> None:
        ...
    def __setstate__(self, arg0: tuple[typing.Any, ...]) -> None:
        ...
    @property
    def bonus_flat(self) -> int:
        ...
    @property
    def crit_face(self) -> int:
        ...
    @property
    def critical_damage(self) -> int:
        ...
    @property
    def dice(self) -> int:
        ...
    @property
    def force(self) -> int:
        ...
    @property
    def reroll(self) -> Reroll:
        ...
    @property
    def sustained(self) -> int:
        ...
    @property
    def target(self) -> int:
        ...
class ExchangeRules:
    """
    The switches that change the exchange itself
    """
    def __getstate__(self) -> tuple[typing.Any, ...]:
        ...
    def __init__(self, winner_damage: WinnerDamage, sustained_mode: SustainedMode, bonus_always: bool) -> None:
        ...
    def __setstate__(self, arg0: tuple[typing.Any, ...]) -> None:
        ...
    @property
    def bonus_always(self) -> bool:
        ...
    @property
    def sustained_mode(self) -> SustainedMode:
        ...
    @property
    def winner_damage(self) -> WinnerDamage:
        ...
class ExchangeConfig:
    """
    One exchange: both sides and the rules
    """
    def __getstate__(self) -> tuple[typing.Any, ...]:
        ...
    def __init__(self, a: SideConfig, b: SideConfig, rules: ExchangeRules) -> None:
        ...
    def __setstate__(self, arg0: tuple[typing.Any, ...]) -> None:
        ...
    @property
    def a(self) -> SideConfig:
        ...
    @property
    def b(self) -> SideConfig:
        ...
    @property
    def rules(self) -> ExchangeRules:
        ...
class ExchangeLayout:
    """
    An exchange histogram: the damage table (damage to A x damage to B) from 0, then the hits table (hits A x hits B) at hits_offset
    """
    @property
    def damage_a_bins(self) -> int:
        ...
    @property
    def damage_b_bins(self) -> int:
        ...
    @property
    def damage_cells(self) -> int:
        ...
    @property
    def hits_a_bins(self) -> int:
        ...
    @property
    def hits_b_bins(self) -> int:
        ...
    @property
    def hits_cells(self) -> int:
        ...
    @property
    def hits_offset(self) -> int:
        ...
    @property
    def total(self) -> int:
        ...
class ExchangeOutcome:
    """
    Hits compared and damage taken in one exchange
    """
    @property
    def damage_to_a(self) -> int:
        ...
    @property
    def damage_to_b(self) -> int:
        ...
    @property
    def hits_a(self) -> int:
        ...
    @property
    def hits_b(self) -> int:
        ...
class UnitConfig:
    """
    A unit in allocation order (wounded models first)
    """
    def __init__(self, models: typing.SupportsInt | typing.SupportsIndex, hp: typing.SupportsInt | typing.SupportsIndex, current: collections.abc.Sequence[typing.SupportsInt | typing.SupportsIndex]) -> None:
        ...
    @property
    def front_hp_bins(self) -> int:
        """
        Columns of the state table: HP of the first living model
        """
    @property
    def hp(self) -> int:
        ...
    @property
    def models(self) -> int:
        ...
    @property
    def removed_bins(self) -> int:
        """
        Rows of the state table: models removed
        """
    @property
    def start(self) -> list[int]:
        """
        Starting HP per model, in allocation order
        """
    @property
    def state_count(self) -> int:
        ...
class AllocationTable:
    """
    One lump of each damage 0..max_damage on a fresh unit
    """
    @property
    def removed(self) -> numpy.typing.NDArray[numpy.int32]:
        """
        Models removed
        """
    @property
    def state(self) -> numpy.typing.NDArray[numpy.int32]:
        """
        State index (UnitConfig state table)
        """
class AllocationOutcome:
    """
    Lumps allocated in order to a fresh unit
    """
    @property
    def lost(self) -> int:
        ...
    @property
    def removed(self) -> int:
        ...
    @property
    def survivors(self) -> list[int]:
        ...
class PairConfig:
    """
    Two engaged units (indices) and their exchange
    """
    def __init__(self, first: typing.SupportsInt | typing.SupportsIndex, second: typing.SupportsInt | typing.SupportsIndex, exchange: ExchangeConfig) -> None:
        ...
class MeleeConfig:
    """
    Several units, their engaged pairs and the allocation rule
    """
    def __init__(self, units: collections.abc.Sequence[UnitConfig], pairs: collections.abc.Sequence[PairConfig], allocation: Allocation) -> None:
        ...
class MeleeLayout:
    """
    Offsets of every part of a melee histogram
    """
    @property
    def casualties_offset(self) -> list[int]:
        ...
    @property
    def damage_bins(self) -> list[int]:
        ...
    @property
    def damage_offset(self) -> list[int]:
        ...
    @property
    def exchange_offset(self) -> list[int]:
        ...
    @property
    def exchanges(self) -> list[ExchangeLayout]:
        ...
    @property
    def state_offset(self) -> list[int]:
        ...
    @property
    def total(self) -> int:
        ...
class ExactBatch:
    """
    Exact results of many configurations: batch[i] is item i's arrays
    """
    def __getitem__(self, index: typing.SupportsInt | typing.SupportsIndex) -> tuple[numpy.typing.NDArray[numpy.float64], numpy.typing.NDArray[numpy.float64]]:
        ...
    def __len__(self) -> int:
        ...
def allocate(unit: UnitConfig, lumps: collections.abc.Sequence[typing.SupportsInt | typing.SupportsIndex], allocation: Allocation) -> AllocationOutcome:
    """
    Lumps of damage allocated in order to a fresh unit
    """
def allocation_table(unit: UnitConfig, max_damage: typing.SupportsInt | typing.SupportsIndex, allocation: Allocation) -> AllocationTable:
    """
    One lump of each damage 0..max_damage on a fresh unit
    """
def exact_cells(config: MeleeConfig) -> float:
    """
    Cells of the product of the exchanges' joint damage laws
    """
def exchange_exact(config: ExchangeConfig) -> numpy.typing.NDArray[numpy.float64]:
    """
    Exact probabilities of one exchange, laid out by exchange_layout
    """
def exchange_exact_batch(configs: collections.abc.Sequence[ExchangeConfig], on_caller: bool = False) -> ExactBatch:
    """
    Exact exchanges, each distinct config object once: batch[i] is exchange_exact_shaped(configs[i])
    """
def exchange_exact_shaped(config: ExchangeConfig) -> tuple[numpy.typing.NDArray[numpy.float64], numpy.typing.NDArray[numpy.float64]]:
    """
    Exact (damage to A x damage to B, hits A x hits B) tables of one exchange; a small exchange runs on the calling thread
    """
def exchange_layout(config: ExchangeConfig) -> ExchangeLayout:
    ...
def exchange_sample(config: ExchangeConfig, seed: typing.SupportsInt | typing.SupportsIndex, total: typing.SupportsInt | typing.SupportsIndex, chunk_begin: typing.SupportsInt | typing.SupportsIndex, chunk_end: typing.SupportsInt | typing.SupportsIndex, threads: typing.SupportsInt | typing.SupportsIndex) -> numpy.typing.NDArray[numpy.uint64]:
    """
    Monte Carlo counts of chunks [chunk_begin, chunk_end) of a run of `total` exchanges
    """
def melee_exact(config: MeleeConfig) -> numpy.typing.NDArray[numpy.float64]:
    """
    Exact probabilities of a melee, laid out by melee_layout
    """
def melee_layout(config: MeleeConfig) -> MeleeLayout:
    ...
def melee_sample(config: MeleeConfig, seed: typing.SupportsInt | typing.SupportsIndex, total: typing.SupportsInt | typing.SupportsIndex, chunk_begin: typing.SupportsInt | typing.SupportsIndex, chunk_end: typing.SupportsInt | typing.SupportsIndex, threads: typing.SupportsInt | typing.SupportsIndex) -> numpy.typing.NDArray[numpy.uint64]:
    """
    Monte Carlo counts of chunks [chunk_begin, chunk_end) of a run of `total` melees
    """
def resolve(a: SideConfig, hits_a: typing.SupportsInt | typing.SupportsIndex, crits_a: typing.SupportsInt | typing.SupportsIndex, b: SideConfig, hits_b: typing.SupportsInt | typing.SupportsIndex, crits_b: typing.SupportsInt | typing.SupportsIndex, rules: ExchangeRules) -> ExchangeOutcome:
    """
    The engine's resolution function on rolled hits and crits
    """
MAX_DICE: int = 40
MAX_HP: int = 30
MAX_MODELS: int = 30
MAX_PAIRS: int = 16
MAX_UNITS: int = 8
