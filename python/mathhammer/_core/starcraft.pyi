"""
StarCraft: Tabletop Miniatures Game
"""
from __future__ import annotations
import collections.abc
import numpy
import numpy.typing
import typing
__all__: list[str] = ['AllocParams', 'Allocation', 'AllocationTable', 'AttackCase', 'AttackLayout', 'BatchConfig', 'BatchRoll', 'BatchSlots', 'ExactBatch', 'Resolution', 'SequenceLayout', 'StateColumns', 'SurgeKind', 'UnitProfile', 'UnitState', 'allocate', 'allocation_table', 'attack_layout', 'attack_tables', 'bypass', 'damage_per_die', 'exact_attack', 'exact_attack_tables', 'exact_attack_tables_batch', 'exact_sequence', 'final_target', 'p_success', 'precision_hits', 'resolve', 'sample_attack', 'sample_sequence', 'sequence_layout', 'surge_value', 'tough']
class SurgeKind:
    """
    How a batch's Surge result is found (fixed: a template's affected models)
    
    Members:
    
      none
    
      d3
    
      d3_plus_1
    
      d6
    
      fixed
    """
    __members__: typing.ClassVar[dict[str, SurgeKind]]
    d3: typing.ClassVar[SurgeKind]
    d3_plus_1: typing.ClassVar[SurgeKind]
    d6: typing.ClassVar[SurgeKind]
    fixed: typing.ClassVar[SurgeKind]
    none: typing.ClassVar[SurgeKind]
    @typing.overload
    def __eq__(self, other: SurgeKind) -> bool:
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
    def __ne__(self, other: SurgeKind) -> bool:
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
class AllocParams:
    """
    What allocation needs beyond the unit: caps, TD reductions, leftover rule
    """
    engaged: bool
    leftover_lost: bool
    def __init__(self) -> None:
        ...
    @property
    def concentrated_fire(self) -> int:
        ...
    @concentrated_fire.setter
    def concentrated_fire(self, arg0: typing.SupportsInt | typing.SupportsIndex) -> None:
        ...
    @property
    def td_floor(self) -> int:
        ...
    @td_floor.setter
    def td_floor(self, arg0: typing.SupportsInt | typing.SupportsIndex) -> None:
        ...
    @property
    def td_reduction(self) -> int:
        ...
    @td_reduction.setter
    def td_reduction(self, arg0: typing.SupportsInt | typing.SupportsIndex) -> None:
        ...
    @property
    def visible_models(self) -> int:
        ...
    @visible_models.setter
    def visible_models(self, arg0: typing.SupportsInt | typing.SupportsIndex) -> None:
        ...
class UnitProfile:
    """
    HP and Shield of each model
    """
    def __init__(self) -> None:
        ...
    @property
    def hp(self) -> int:
        ...
    @hp.setter
    def hp(self, arg0: typing.SupportsInt | typing.SupportsIndex) -> None:
        ...
    @property
    def shield(self) -> int:
        ...
    @shield.setter
    def shield(self, arg0: typing.SupportsInt | typing.SupportsIndex) -> None:
        ...
class UnitState:
    """
    A unit between attacks
    """
    first_model_alive: bool
    shielded: bool
    def __init__(self) -> None:
        ...
    @property
    def marker(self) -> int:
        ...
    @marker.setter
    def marker(self, arg0: typing.SupportsInt | typing.SupportsIndex) -> None:
        ...
    @property
    def models(self) -> int:
        ...
    @models.setter
    def models(self, arg0: typing.SupportsInt | typing.SupportsIndex) -> None:
        ...
class BatchConfig:
    """
    One batch once profiles, keywords, grants and variants are combined
    """
    alloc: AllocParams
    crit_natural: bool
    evade: bool
    roll_hits: bool
    surge_kind: SurgeKind
    def __init__(self) -> None:
        ...
    @property
    def armour_target(self) -> int:
        ...
    @armour_target.setter
    def armour_target(self, arg0: typing.SupportsInt | typing.SupportsIndex) -> None:
        ...
    @property
    def critical_hit(self) -> int:
        ...
    @critical_hit.setter
    def critical_hit(self, arg0: typing.SupportsInt | typing.SupportsIndex) -> None:
        ...
    @property
    def damage_per_die(self) -> int:
        ...
    @damage_per_die.setter
    def damage_per_die(self, arg0: typing.SupportsInt | typing.SupportsIndex) -> None:
        ...
    @property
    def dice_long(self) -> int:
        ...
    @dice_long.setter
    def dice_long(self, arg0: typing.SupportsInt | typing.SupportsIndex) -> None:
        ...
    @property
    def dice_normal(self) -> int:
        ...
    @dice_normal.setter
    def dice_normal(self, arg0: typing.SupportsInt | typing.SupportsIndex) -> None:
        ...
    @property
    def dodge(self) -> int:
        ...
    @dodge.setter
    def dodge(self, arg0: typing.SupportsInt | typing.SupportsIndex) -> None:
        ...
    @property
    def evade_target(self) -> int:
        ...
    @evade_target.setter
    def evade_target(self, arg0: typing.SupportsInt | typing.SupportsIndex) -> None:
        ...
    @property
    def hit_target_long(self) -> int:
        ...
    @hit_target_long.setter
    def hit_target_long(self, arg0: typing.SupportsInt | typing.SupportsIndex) -> None:
        ...
    @property
    def hit_target_normal(self) -> int:
        ...
    @hit_target_normal.setter
    def hit_target_normal(self, arg0: typing.SupportsInt | typing.SupportsIndex) -> None:
        ...
    @property
    def precision(self) -> int:
        ...
    @precision.setter
    def precision(self, arg0: typing.SupportsInt | typing.SupportsIndex) -> None:
        ...
    @property
    def surge_fixed(self) -> int:
        ...
    @surge_fixed.setter
    def surge_fixed(self, arg0: typing.SupportsInt | typing.SupportsIndex) -> None:
        ...
    @property
    def tough(self) -> int:
        ...
    @tough.setter
    def tough(self, arg0: typing.SupportsInt | typing.SupportsIndex) -> None:
        ...
class Allocation:
    """
    What allocate() did: the state after, casualties, flags
    """
    @property
    def casualties(self) -> int:
        ...
    @property
    def destroyed(self) -> bool:
        ...
    @property
    def shield_lost(self) -> bool:
        ...
    @property
    def state(self) -> UnitState:
        ...
class BatchRoll:
    """
    One batch resolved on dice, stage by stage
    """
    @property
    def armour_fails(self) -> int:
        ...
    @property
    def bypass(self) -> int:
        ...
    @property
    def damage_pool(self) -> int:
        ...
    @property
    def dice(self) -> int:
        ...
    @property
    def hits(self) -> int:
        ...
    @property
    def inflicting(self) -> int:
        ...
    @property
    def surge(self) -> int:
        ...
class Resolution:
    """
    A scripted batch: its roll, damage and allocation
    """
    @property
    def allocation(self) -> Allocation:
        ...
    @property
    def damage(self) -> int:
        ...
    @property
    def faces_used(self) -> int:
        ...
    @property
    def roll(self) -> BatchRoll:
        ...
class StateColumns:
    """
    Unit states as numpy columns, one entry per state
    """
    @property
    def first_model_alive(self) -> numpy.typing.NDArray[numpy.int32]:
        ...
    @property
    def marker(self) -> numpy.typing.NDArray[numpy.int32]:
        ...
    @property
    def models(self) -> numpy.typing.NDArray[numpy.int32]:
        ...
    @property
    def shielded(self) -> numpy.typing.NDArray[numpy.int32]:
        ...
class AllocationTable:
    """
    allocate() for damage k * damage_per_die, k = 0..k_max
    """
    @property
    def casualties(self) -> numpy.typing.NDArray[numpy.int32]:
        ...
    @property
    def destroyed(self) -> numpy.typing.NDArray[numpy.int32]:
        ...
    @property
    def shield_lost(self) -> numpy.typing.NDArray[numpy.int32]:
        ...
    @property
    def state(self) -> StateColumns:
        ...
class AttackLayout:
    """
    Offsets of one batch's stage histograms
    """
    @property
    def armour_fails(self) -> int:
        ...
    @property
    def bypass(self) -> int:
        ...
    @property
    def damage_pool(self) -> int:
        ...
    @property
    def dice(self) -> int:
        ...
    @property
    def hits(self) -> int:
        ...
    @property
    def inflicting(self) -> int:
        ...
    @property
    def size(self) -> int:
        ...
    @property
    def surge(self) -> int:
        ...
    @property
    def surge_max(self) -> int:
        ...
class BatchSlots:
    """
    Offsets of one batch's marginals in a sequence
    """
    @property
    def casualties(self) -> int:
        ...
    @property
    def damage(self) -> int:
        ...
    @property
    def damage_size(self) -> int:
        ...
    @property
    def destroyed(self) -> int:
        ...
    @property
    def marker(self) -> int:
        ...
    @property
    def shield_lost(self) -> int:
        ...
class SequenceLayout:
    """
    Offsets of a sequence's histograms; state index <-> state
    """
    def states(self) -> StateColumns:
        """
        Every unit state, in the order of the state histogram
        """
    @property
    def batches(self) -> list[BatchSlots]:
        ...
    @property
    def marker_max(self) -> int:
        ...
    @property
    def models(self) -> int:
        ...
    @property
    def size(self) -> int:
        ...
    @property
    def state(self) -> int:
        ...
    @property
    def state_size(self) -> int:
        ...
    @property
    def total_damage(self) -> int:
        ...
    @property
    def total_damage_size(self) -> int:
        ...
class AttackCase:
    """
    One batch against one unit in a state: what an exact attack needs
    """
    def __getstate__(self) -> tuple[typing.Any, ...]:
        ...
    def __init__(self, config: BatchConfig, unit: UnitProfile, state: UnitState) -> None:
        ...
    def __setstate__(self, arg0: tuple[typing.Any, ...]) -> None:
        ...
    @property
    def config(self) -> BatchConfig:
        ...
    @property
    def state(self) -> UnitState:
        ...
    @property
    def unit(self) -> UnitProfile:
        ...
class ExactBatch:
    """
    Exact results of many configurations: batch[i] is item i's arrays
    """
    def __getitem__(self, index: typing.SupportsInt | typing.SupportsIndex) -> tuple[numpy.typing.NDArray[numpy.float64], tuple[int, ...], float, float, numpy.typing.NDArray[numpy.int64]]:
        ...
    def __len__(self) -> int:
        ...
def allocate(unit: UnitProfile, state: UnitState, damage: typing.SupportsInt | typing.SupportsIndex, params: AllocParams) -> Allocation:
    """
    Allocate one attack's damage to a unit in a state
    """
def allocation_table(unit: UnitProfile, state: UnitState, params: AllocParams, damage_per_die: typing.SupportsInt | typing.SupportsIndex, k_max: typing.SupportsInt | typing.SupportsIndex) -> AllocationTable:
    """
    allocate() for damage k * damage_per_die, k = 0..k_max
    """
def attack_layout(config: BatchConfig) -> AttackLayout:
    ...
def attack_tables(case: AttackCase, stages: typing.Annotated[numpy.typing.ArrayLike, numpy.float64]) -> tuple[numpy.typing.NDArray[numpy.float64], tuple[int, ...], float, float, numpy.typing.NDArray[numpy.int64]]:
    """
    The result tables from stage histograms laid out by attack_layout (Monte Carlo frequencies)
    """
def bypass(hits: typing.SupportsInt | typing.SupportsIndex, surge: typing.SupportsInt | typing.SupportsIndex, crit: typing.SupportsInt | typing.SupportsIndex, dodge: typing.SupportsInt | typing.SupportsIndex) -> int:
    """
    max(0, min(hits, surge + crit) - dodge)
    """
def damage_per_die(base: typing.SupportsInt | typing.SupportsIndex, setter: typing.SupportsInt | typing.SupportsIndex, cap: typing.SupportsInt | typing.SupportsIndex) -> int:
    """
    A setter (-1: none) replaces the damage, then a cap (-1: none) limits it
    """
def exact_attack(config: BatchConfig) -> numpy.typing.NDArray[numpy.float64]:
    """
    Probabilities of every stage of one batch, laid out by attack_layout
    """
def exact_attack_tables(case: AttackCase) -> tuple[numpy.typing.NDArray[numpy.float64], tuple[int, ...], float, float, numpy.typing.NDArray[numpy.int64]]:
    """
    One exact attack as (values, segment sizes, P(destroyed), P(Shielded lost), states)
    """
def exact_attack_tables_batch(cases: collections.abc.Sequence[AttackCase], on_caller: bool = False) -> ExactBatch:
    """
    Exact attacks, each distinct case object once: batch[i] is exact_attack_tables(cases[i])
    """
def exact_sequence(unit: UnitProfile, state: UnitState, batches: collections.abc.Sequence[BatchConfig], max_work: typing.SupportsFloat | typing.SupportsIndex) -> numpy.typing.NDArray[numpy.float64]:
    """
    Probabilities of a sequence, laid out by sequence_layout; empty when over max_work steps
    """
def final_target(base: typing.SupportsInt | typing.SupportsIndex, roll_mod: typing.SupportsInt | typing.SupportsIndex, penalty: typing.SupportsInt | typing.SupportsIndex) -> int:
    """
    clamp(base - roll_mod + penalty, 2, 6)
    """
def p_success(target: typing.SupportsInt | typing.SupportsIndex) -> float:
    """
    Chance that one d6 meets the (clamped) target
    """
def precision_hits(dice: typing.SupportsInt | typing.SupportsIndex, hits: typing.SupportsInt | typing.SupportsIndex, x: typing.SupportsInt | typing.SupportsIndex) -> int:
    """
    hits + min(x, dice - hits)
    """
def resolve(config: BatchConfig, unit: UnitProfile, state: UnitState, faces: collections.abc.Sequence[typing.SupportsInt | typing.SupportsIndex], every_face: typing.SupportsInt | typing.SupportsIndex) -> Resolution:
    """
    One batch on scripted faces (every_face > 0: every die shows it)
    """
def sample_attack(config: BatchConfig, seed: typing.SupportsInt | typing.SupportsIndex, total: typing.SupportsInt | typing.SupportsIndex, chunk_begin: typing.SupportsInt | typing.SupportsIndex, chunk_end: typing.SupportsInt | typing.SupportsIndex, threads: typing.SupportsInt | typing.SupportsIndex) -> numpy.typing.NDArray[numpy.uint64]:
    """
    Monte Carlo counts of chunks [chunk_begin, chunk_end) of a run of `total` batches
    """
def sample_sequence(unit: UnitProfile, state: UnitState, batches: collections.abc.Sequence[BatchConfig], seed: typing.SupportsInt | typing.SupportsIndex, total: typing.SupportsInt | typing.SupportsIndex, chunk_begin: typing.SupportsInt | typing.SupportsIndex, chunk_end: typing.SupportsInt | typing.SupportsIndex, threads: typing.SupportsInt | typing.SupportsIndex) -> numpy.typing.NDArray[numpy.uint64]:
    """
    Monte Carlo counts of chunks [chunk_begin, chunk_end) of a run of `total` sequences
    """
def sequence_layout(unit: UnitProfile, state: UnitState, batches: collections.abc.Sequence[BatchConfig]) -> SequenceLayout:
    ...
def surge_value(kind: SurgeKind, face: typing.SupportsInt | typing.SupportsIndex) -> int:
    """
    The Surge value a d6 face gives
    """
def tough(fails: typing.SupportsInt | typing.SupportsIndex, x: typing.SupportsInt | typing.SupportsIndex) -> int:
    """
    max(0, fails - x)
    """
