"""
Kill Team 2024
"""
from __future__ import annotations
import collections.abc
import numpy
import numpy.typing
import typing
__all__: list[str] = ['AttackProfile', 'BlockRule', 'DEFENCE_DICE', 'DuelistRule', 'DurableRule', 'ExactBatch', 'FightExactBatch', 'FightExactItem', 'FightMonteCarlo', 'FightSpec', 'FighterSpec', 'FnpRule', 'LethalTest', 'Lookahead', 'MAX_DICE', 'MAX_FIGHT_WOUNDS', 'MAX_ROUNDS', 'Objective', 'Ones', 'Reroll', 'ScratchTiming', 'ShockRule', 'ShootConfig', 'ShotTables', 'Strategy', 'Upgrades', 'advise', 'attack_dice_counts', 'attack_distribution', 'fight_exact', 'fight_exact_batch', 'fight_exact_item', 'fight_exact_shaped', 'injured_profile', 'resolve_fight', 'same_decision_rules', 'shoot_blocks', 'shoot_config_join', 'shoot_counts', 'shoot_exact', 'shoot_exact_batch', 'shoot_exact_tables', 'shoot_self_damage_bins']
class Reroll:
    """
    Members:
    
      none
    
      balanced
    
      double_balanced
    
      ceaseless
    
      ceaseless_balanced
    
      relentless
    
      relentless_crit_fishing
    
      reroll_ones
    
      reroll_ones_balanced
    """
    __members__: typing.ClassVar[dict[str, Reroll]]
    balanced: typing.ClassVar[Reroll]
    ceaseless: typing.ClassVar[Reroll]
    ceaseless_balanced: typing.ClassVar[Reroll]
    double_balanced: typing.ClassVar[Reroll]
    none: typing.ClassVar[Reroll]
    relentless: typing.ClassVar[Reroll]
    relentless_crit_fishing: typing.ClassVar[Reroll]
    reroll_ones: typing.ClassVar[Reroll]
    reroll_ones_balanced: typing.ClassVar[Reroll]
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
class Upgrades:
    """
    Members:
    
      accurate_first
    
      rolled_first
    """
    __members__: typing.ClassVar[dict[str, Upgrades]]
    accurate_first: typing.ClassVar[Upgrades]
    rolled_first: typing.ClassVar[Upgrades]
    @typing.overload
    def __eq__(self, other: Upgrades) -> bool:
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
    def __ne__(self, other: Upgrades) -> bool:
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
class Ones:
    """
    Members:
    
      unmodified_ones
    
      any_two_fails
    """
    __members__: typing.ClassVar[dict[str, Ones]]
    any_two_fails: typing.ClassVar[Ones]
    unmodified_ones: typing.ClassVar[Ones]
    @typing.overload
    def __eq__(self, other: Ones) -> bool:
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
    def __ne__(self, other: Ones) -> bool:
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
class AttackProfile:
    close_assault: bool
    mystic_scry: bool
    obscured: bool
    ones: Ones
    punishing: bool
    purity_seal: bool
    rending: bool
    reroll: Reroll
    severe: bool
    upgrades: Upgrades
    waaagh: bool
    @staticmethod
    def field_tags() -> dict[str, tuple[str, ...]]:
        """
        Each field of the config's list in order, with what reads it (its tags)
        """
    @staticmethod
    def from_fields(values: dict[str, typing.Any]) -> AttackProfile:
        """
        A config with the defaults, then each field named in `values` set to its value
        """
    def __getstate__(self) -> tuple[typing.Any, ...]:
        ...
    def __init__(self) -> None:
        ...
    def __setstate__(self, arg0: tuple[typing.Any, ...]) -> None:
        ...
    def dice_table_key(self) -> tuple[int, ...]:
        """
        The key of the attack-dice table caches: the fields tagged dice_table
        """
    @property
    def accurate(self) -> int:
        ...
    @accurate.setter
    def accurate(self, arg0: typing.SupportsInt | typing.SupportsIndex) -> None:
        ...
    @property
    def auto_crits(self) -> int:
        ...
    @auto_crits.setter
    def auto_crits(self, arg0: typing.SupportsInt | typing.SupportsIndex) -> None:
        ...
    @property
    def crit(self) -> int:
        ...
    @crit.setter
    def crit(self, arg0: typing.SupportsInt | typing.SupportsIndex) -> None:
        ...
    @property
    def dice(self) -> int:
        ...
    @dice.setter
    def dice(self, arg0: typing.SupportsInt | typing.SupportsIndex) -> None:
        ...
    @property
    def fails_to_norms(self) -> int:
        ...
    @fails_to_norms.setter
    def fails_to_norms(self, arg0: typing.SupportsInt | typing.SupportsIndex) -> None:
        ...
    @property
    def hit(self) -> int:
        ...
    @hit.setter
    def hit(self, arg0: typing.SupportsInt | typing.SupportsIndex) -> None:
        ...
    @property
    def norms_to_crits(self) -> int:
        ...
    @norms_to_crits.setter
    def norms_to_crits(self, arg0: typing.SupportsInt | typing.SupportsIndex) -> None:
        ...
    @property
    def scry_crit_value(self) -> int:
        ...
    @scry_crit_value.setter
    def scry_crit_value(self, arg0: typing.SupportsInt | typing.SupportsIndex) -> None:
        ...
    @property
    def scry_norm_value(self) -> int:
        ...
    @scry_norm_value.setter
    def scry_norm_value(self, arg0: typing.SupportsInt | typing.SupportsIndex) -> None:
        ...
class Strategy:
    """
    Members:
    
      strike
    
      parry
    
      max_damage
    
      min_damage
    
      optimal
    """
    __members__: typing.ClassVar[dict[str, Strategy]]
    max_damage: typing.ClassVar[Strategy]
    min_damage: typing.ClassVar[Strategy]
    optimal: typing.ClassVar[Strategy]
    parry: typing.ClassVar[Strategy]
    strike: typing.ClassVar[Strategy]
    @typing.overload
    def __eq__(self, other: Strategy) -> bool:
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
    def __ne__(self, other: Strategy) -> bool:
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
class Objective:
    """
    Members:
    
      trade
    
      net
    
      kill
    
      survive
    """
    __members__: typing.ClassVar[dict[str, Objective]]
    kill: typing.ClassVar[Objective]
    net: typing.ClassVar[Objective]
    survive: typing.ClassVar[Objective]
    trade: typing.ClassVar[Objective]
    @typing.overload
    def __eq__(self, other: Objective) -> bool:
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
    def __ne__(self, other: Objective) -> bool:
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
class FighterSpec:
    brutal: bool
    crits_as_normal: bool
    duelist: bool
    dueller: bool
    durable: bool
    half_damage_first_strike: bool
    hammerhand: bool
    just_a_scratch: bool
    just_a_scratch_normals: bool
    murderous_entrance: bool
    objective: Objective
    shock: bool
    storm_shield: bool
    strategy: Strategy
    @staticmethod
    def field_tags() -> dict[str, tuple[str, ...]]:
        """
        Each field of the config's list in order, with what reads it (its tags)
        """
    @staticmethod
    def from_fields(values: dict[str, typing.Any]) -> FighterSpec:
        """
        A config with the defaults, then each field named in `values` set to its value
        """
    def __getstate__(self) -> tuple[typing.Any, ...]:
        ...
    def __init__(self) -> None:
        ...
    def __setstate__(self, arg0: tuple[typing.Any, ...]) -> None:
        ...
    @property
    def critical_damage(self) -> int:
        ...
    @critical_damage.setter
    def critical_damage(self, arg0: typing.SupportsInt | typing.SupportsIndex) -> None:
        ...
    @property
    def feel_no_pain(self) -> int:
        ...
    @feel_no_pain.setter
    def feel_no_pain(self, arg0: typing.SupportsInt | typing.SupportsIndex) -> None:
        ...
    @property
    def normal_damage(self) -> int:
        ...
    @normal_damage.setter
    def normal_damage(self, arg0: typing.SupportsInt | typing.SupportsIndex) -> None:
        ...
    @property
    def reduce_damage(self) -> int:
        ...
    @reduce_damage.setter
    def reduce_damage(self, arg0: typing.SupportsInt | typing.SupportsIndex) -> None:
        ...
    @property
    def reduce_normal_damage(self) -> int:
        ...
    @reduce_normal_damage.setter
    def reduce_normal_damage(self, arg0: typing.SupportsInt | typing.SupportsIndex) -> None:
        ...
    @property
    def saintly_relics(self) -> int:
        ...
    @saintly_relics.setter
    def saintly_relics(self, arg0: typing.SupportsInt | typing.SupportsIndex) -> None:
        ...
    @property
    def wounds(self) -> int:
        ...
    @wounds.setter
    def wounds(self, arg0: typing.SupportsInt | typing.SupportsIndex) -> None:
        ...
class ShockRule:
    """
    Members:
    
      discard_crit
    
      norms_only
    """
    __members__: typing.ClassVar[dict[str, ShockRule]]
    discard_crit: typing.ClassVar[ShockRule]
    norms_only: typing.ClassVar[ShockRule]
    @typing.overload
    def __eq__(self, other: ShockRule) -> bool:
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
    def __ne__(self, other: ShockRule) -> bool:
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
class LethalTest:
    """
    Members:
    
      real_damage
    
      nominal
    """
    __members__: typing.ClassVar[dict[str, LethalTest]]
    nominal: typing.ClassVar[LethalTest]
    real_damage: typing.ClassVar[LethalTest]
    @typing.overload
    def __eq__(self, other: LethalTest) -> bool:
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
    def __ne__(self, other: LethalTest) -> bool:
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
class DuelistRule:
    """
    Members:
    
      never_parry_nothing
    
      always
    """
    __members__: typing.ClassVar[dict[str, DuelistRule]]
    always: typing.ClassVar[DuelistRule]
    never_parry_nothing: typing.ClassVar[DuelistRule]
    @typing.overload
    def __eq__(self, other: DuelistRule) -> bool:
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
    def __ne__(self, other: DuelistRule) -> bool:
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
class DurableRule:
    """
    Members:
    
      after_damage_modifiers
    
      before_damage_modifiers
    """
    __members__: typing.ClassVar[dict[str, DurableRule]]
    after_damage_modifiers: typing.ClassVar[DurableRule]
    before_damage_modifiers: typing.ClassVar[DurableRule]
    @typing.overload
    def __eq__(self, other: DurableRule) -> bool:
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
    def __ne__(self, other: DurableRule) -> bool:
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
class Lookahead:
    """
    Members:
    
      fixed
    
      rolled
    """
    __members__: typing.ClassVar[dict[str, Lookahead]]
    fixed: typing.ClassVar[Lookahead]
    rolled: typing.ClassVar[Lookahead]
    @typing.overload
    def __eq__(self, other: Lookahead) -> bool:
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
    def __ne__(self, other: Lookahead) -> bool:
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
class FightSpec:
    duelist: DuelistRule
    durable: DurableRule
    fighter_a: FighterSpec
    fighter_b: FighterSpec
    injured: bool
    lethal_test: LethalTest
    lookahead: Lookahead
    shock: ShockRule
    @staticmethod
    def field_tags() -> dict[str, tuple[str, ...]]:
        """
        Each field of the config's list in order, with what reads it (its tags)
        """
    @staticmethod
    def from_fields(values: dict[str, typing.Any]) -> FightSpec:
        """
        A config with the defaults, then each field named in `values` set to its value
        """
    def __getstate__(self) -> tuple[typing.Any, ...]:
        ...
    def __init__(self) -> None:
        ...
    def __setstate__(self, arg0: tuple[typing.Any, ...]) -> None:
        ...
    @property
    def first(self) -> int:
        ...
    @first.setter
    def first(self, arg0: typing.SupportsInt | typing.SupportsIndex) -> None:
        ...
class FightMonteCarlo:
    def __init__(self, spec: FightSpec, dice_a: AttackProfile, dice_b: AttackProfile, rounds: typing.SupportsInt | typing.SupportsIndex, injured_a: AttackProfile | None = None, injured_b: AttackProfile | None = None) -> None:
        ...
    def counts(self, seed: typing.SupportsInt | typing.SupportsIndex, total: typing.SupportsInt | typing.SupportsIndex, chunk_begin: typing.SupportsInt | typing.SupportsIndex, chunk_end: typing.SupportsInt | typing.SupportsIndex, threads: typing.SupportsInt | typing.SupportsIndex) -> numpy.typing.NDArray[numpy.uint64]:
        ...
    def prepare(self, max_states: typing.SupportsInt | typing.SupportsIndex = 0, max_bytes: typing.SupportsInt | typing.SupportsIndex = 0) -> dict[str, float]:
        """
        Solve an optimal fighter's game once, within the budget (0: unbounded), before sampling
        """
    @property
    def bins(self) -> int:
        ...
class FightExactItem:
    """
    One fight of an exact fight batch (fight_exact_item)
    """
    @property
    def rounds(self) -> int:
        ...
    @property
    def work_limit(self) -> float:
        ...
class FightExactBatch:
    """
    Exact results of many configurations: batch[i] is item i's arrays
    """
    def __getitem__(self, index: typing.SupportsInt | typing.SupportsIndex) -> tuple[numpy.typing.NDArray[numpy.float64] | None, int, float]:
        ...
    def __len__(self) -> int:
        ...
class BlockRule:
    """
    Members:
    
      optimal
    
      greedy
    """
    __members__: typing.ClassVar[dict[str, BlockRule]]
    greedy: typing.ClassVar[BlockRule]
    optimal: typing.ClassVar[BlockRule]
    @typing.overload
    def __eq__(self, other: BlockRule) -> bool:
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
    def __ne__(self, other: BlockRule) -> bool:
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
class ScratchTiming:
    """
    Members:
    
      after_blocks
    
      before_blocks
    """
    __members__: typing.ClassVar[dict[str, ScratchTiming]]
    after_blocks: typing.ClassVar[ScratchTiming]
    before_blocks: typing.ClassVar[ScratchTiming]
    @typing.overload
    def __eq__(self, other: ScratchTiming) -> bool:
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
    def __ne__(self, other: ScratchTiming) -> bool:
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
class FnpRule:
    """
    Members:
    
      per_damage_instance
    
      per_hit
    """
    __members__: typing.ClassVar[dict[str, FnpRule]]
    per_damage_instance: typing.ClassVar[FnpRule]
    per_hit: typing.ClassVar[FnpRule]
    @typing.overload
    def __eq__(self, other: FnpRule) -> bool:
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
    def __ne__(self, other: FnpRule) -> bool:
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
class ShootConfig:
    attack: AttackProfile
    blocks: BlockRule
    crits_as_normal: bool
    defender_punishing: bool
    durable: bool
    fnp: FnpRule
    hot: bool
    ignore_lethal: bool
    ignore_piercing: bool
    ignore_rending: bool
    ignore_saturate: bool
    ignore_severe: bool
    indomitus: bool
    just_a_scratch: bool
    just_a_scratch_normals: bool
    ones: Ones
    saturate: bool
    save_reroll: Reroll
    scratch: ScratchTiming
    worsen_piercing: bool
    @staticmethod
    def field_tags() -> dict[str, tuple[str, ...]]:
        """
        Each field of the config's list in order, with what reads it (its tags)
        """
    @staticmethod
    def from_fields(values: dict[str, typing.Any]) -> ShootConfig:
        """
        A config with the defaults, then each field named in `values` set to its value
        """
    def __getstate__(self) -> tuple[typing.Any, ...]:
        ...
    def __init__(self) -> None:
        ...
    def __setstate__(self, arg0: tuple[typing.Any, ...]) -> None:
        ...
    def blocks_key(self) -> tuple[int, ...]:
        """
        The key of the blocks tables: the fields tagged blocks
        """
    @property
    def cover(self) -> int:
        ...
    @cover.setter
    def cover(self, arg0: typing.SupportsInt | typing.SupportsIndex) -> None:
        ...
    @property
    def cover_crits(self) -> int:
        ...
    @cover_crits.setter
    def cover_crits(self, arg0: typing.SupportsInt | typing.SupportsIndex) -> None:
        ...
    @property
    def critical_damage(self) -> int:
        ...
    @critical_damage.setter
    def critical_damage(self, arg0: typing.SupportsInt | typing.SupportsIndex) -> None:
        ...
    @property
    def devastating(self) -> int:
        ...
    @devastating.setter
    def devastating(self, arg0: typing.SupportsInt | typing.SupportsIndex) -> None:
        ...
    @property
    def feel_no_pain(self) -> int:
        ...
    @feel_no_pain.setter
    def feel_no_pain(self, arg0: typing.SupportsInt | typing.SupportsIndex) -> None:
        ...
    @property
    def hardy(self) -> int:
        ...
    @hardy.setter
    def hardy(self, arg0: typing.SupportsInt | typing.SupportsIndex) -> None:
        ...
    @property
    def normal_damage(self) -> int:
        ...
    @normal_damage.setter
    def normal_damage(self, arg0: typing.SupportsInt | typing.SupportsIndex) -> None:
        ...
    @property
    def piercing(self) -> int:
        ...
    @piercing.setter
    def piercing(self, arg0: typing.SupportsInt | typing.SupportsIndex) -> None:
        ...
    @property
    def piercing_crits(self) -> int:
        ...
    @piercing_crits.setter
    def piercing_crits(self, arg0: typing.SupportsInt | typing.SupportsIndex) -> None:
        ...
    @property
    def reduce_damage(self) -> int:
        ...
    @reduce_damage.setter
    def reduce_damage(self, arg0: typing.SupportsInt | typing.SupportsIndex) -> None:
        ...
    @property
    def reduce_normal_damage(self) -> int:
        ...
    @reduce_normal_damage.setter
    def reduce_normal_damage(self, arg0: typing.SupportsInt | typing.SupportsIndex) -> None:
        ...
    @property
    def rounds(self) -> int:
        ...
    @rounds.setter
    def rounds(self, arg0: typing.SupportsInt | typing.SupportsIndex) -> None:
        ...
    @property
    def saintly_relics(self) -> int:
        ...
    @saintly_relics.setter
    def saintly_relics(self, arg0: typing.SupportsInt | typing.SupportsIndex) -> None:
        ...
    @property
    def save(self) -> int:
        ...
    @save.setter
    def save(self, arg0: typing.SupportsInt | typing.SupportsIndex) -> None:
        ...
    @property
    def save_fails_to_norms(self) -> int:
        ...
    @save_fails_to_norms.setter
    def save_fails_to_norms(self, arg0: typing.SupportsInt | typing.SupportsIndex) -> None:
        ...
    @property
    def save_norms_to_crits(self) -> int:
        ...
    @save_norms_to_crits.setter
    def save_norms_to_crits(self, arg0: typing.SupportsInt | typing.SupportsIndex) -> None:
        ...
class ShotTables:
    """
    An exact shot's tables; each method returns a new numpy array
    """
    def attack(self) -> numpy.typing.NDArray[numpy.float64]:
        """
        P(retained crits, norms), side x side (side = the weapon's dice + 1)
        """
    def damage(self) -> numpy.typing.NDArray[numpy.float64]:
        """
        P(total damage), without its trailing zeros
        """
    def saves(self) -> numpy.typing.NDArray[numpy.float64]:
        """
        P(crit saves, normal saves), cover saves included
        """
    def self_damage(self) -> numpy.typing.NDArray[numpy.float64]:
        """
        P(the shooter's Hot damage), without its trailing zeros; empty without Hot
        """
class ExactBatch:
    """
    Exact results of many configurations: batch[i] is item i's arrays
    """
    def __getitem__(self, index: typing.SupportsInt | typing.SupportsIndex) -> ShotTables:
        ...
    def __len__(self) -> int:
        ...
    def damage(self, index: typing.SupportsInt | typing.SupportsIndex) -> numpy.typing.NDArray[numpy.float64]:
        ...
    def pmf_columns(self) -> tuple[numpy.typing.NDArray[numpy.uint64], numpy.typing.NDArray[numpy.float64], numpy.typing.NDArray[numpy.int64], numpy.typing.NDArray[numpy.float64], numpy.typing.NDArray[numpy.int64]]:
        """
        (slots, damage values, damage offsets, Hot values, Hot offsets): every distinct result's damage and Hot pmfs end to end (mh::ragged), and which result each item is
        """
    def self_damage(self, index: typing.SupportsInt | typing.SupportsIndex) -> numpy.typing.NDArray[numpy.float64]:
        """
        Item i's Hot damage pmf alone (empty without Hot)
        """
def advise(spec: FightSpec, crits_a: typing.SupportsInt | typing.SupportsIndex, norms_a: typing.SupportsInt | typing.SupportsIndex, crits_b: typing.SupportsInt | typing.SupportsIndex, norms_b: typing.SupportsInt | typing.SupportsIndex) -> tuple[str | None, list[tuple[str, float, float, float, float, bool]], dict[str, str]]:
    ...
def attack_dice_counts(profile: AttackProfile, seed: typing.SupportsInt | typing.SupportsIndex, total: typing.SupportsInt | typing.SupportsIndex, chunk_begin: typing.SupportsInt | typing.SupportsIndex, chunk_end: typing.SupportsInt | typing.SupportsIndex, threads: typing.SupportsInt | typing.SupportsIndex) -> numpy.typing.NDArray[numpy.uint64]:
    """
    Monte Carlo histogram of retained (crits, norms), flattened like attack_distribution
    """
def attack_distribution(profile: AttackProfile) -> numpy.typing.NDArray[numpy.float64]:
    ...
def fight_exact(spec: FightSpec, dice_a: typing.Annotated[numpy.typing.ArrayLike, numpy.float64], dice_b: typing.Annotated[numpy.typing.ArrayLike, numpy.float64], rounds: typing.SupportsInt | typing.SupportsIndex, work_limit: typing.SupportsFloat | typing.SupportsIndex = 0.0, cache_entries: typing.SupportsInt | typing.SupportsIndex = 0, max_states: typing.SupportsInt | typing.SupportsIndex = 0, max_bytes: typing.SupportsInt | typing.SupportsIndex = 0, reuse_decisions: bool = False, injured_a: typing.Annotated[numpy.typing.ArrayLike, numpy.float64] | None = None, injured_b: typing.Annotated[numpy.typing.ArrayLike, numpy.float64] | None = None) -> tuple[numpy.typing.NDArray[numpy.float64] | None, dict[str, float]]:
    """
    Joint wounds pmf (None past work_limit or the solver budget; 0: unbounded) and what the engine did; injured_a / injured_b: the dice tables of an injured fighter (None: its own)
    """
def fight_exact_batch(items: collections.abc.Sequence[FightExactItem], on_caller: bool = False) -> FightExactBatch:
    """
    Exact fights, each distinct item object once: batch[i] is the tuple fight_exact_shaped gives for items[i]
    """
def fight_exact_item(spec: FightSpec, dice_a: typing.Annotated[numpy.typing.ArrayLike, numpy.float64], dice_b: typing.Annotated[numpy.typing.ArrayLike, numpy.float64], rounds: typing.SupportsInt | typing.SupportsIndex, work_limit: typing.SupportsFloat | typing.SupportsIndex, max_states: typing.SupportsInt | typing.SupportsIndex, max_bytes: typing.SupportsInt | typing.SupportsIndex, injured_a: typing.Annotated[numpy.typing.ArrayLike, numpy.float64] | None = None, injured_b: typing.Annotated[numpy.typing.ArrayLike, numpy.float64] | None = None) -> FightExactItem:
    """
    An exact fight batch's item: the fight's spec, both dice tables, the rounds, the work limit (0: none), the solver budget and the injured dice tables (None: the fighter's own), as fight_exact_shaped takes them
    """
def fight_exact_shaped(spec: FightSpec, dice_a: typing.Annotated[numpy.typing.ArrayLike, numpy.float64], dice_b: typing.Annotated[numpy.typing.ArrayLike, numpy.float64], rounds: typing.SupportsInt | typing.SupportsIndex, work_limit: typing.SupportsFloat | typing.SupportsIndex, max_states: typing.SupportsInt | typing.SupportsIndex, max_bytes: typing.SupportsInt | typing.SupportsIndex, on_caller: bool, injured_a: typing.Annotated[numpy.typing.ArrayLike, numpy.float64] | None = None, injured_b: typing.Annotated[numpy.typing.ArrayLike, numpy.float64] | None = None) -> tuple[numpy.typing.NDArray[numpy.float64] | None, int, float]:
    ...
def injured_profile(profile: AttackProfile) -> AttackProfile:
    """
    The attack dice a fighter rolls in a round it starts injured (docs/rules/killteam.md §3.9)
    """
def resolve_fight(spec: FightSpec, crits_a: typing.SupportsInt | typing.SupportsIndex, norms_a: typing.SupportsInt | typing.SupportsIndex, crits_b: typing.SupportsInt | typing.SupportsIndex, norms_b: typing.SupportsInt | typing.SupportsIndex, wounds_a: typing.SupportsInt | typing.SupportsIndex, wounds_b: typing.SupportsInt | typing.SupportsIndex, seed: typing.SupportsInt | typing.SupportsIndex) -> tuple[int, int, list[tuple[str, str, int]], tuple[int, int]]:
    ...
def same_decision_rules(x: FightSpec, y: FightSpec) -> bool:
    """
    Whether two fight specs agree on every field tagged decisions (their decisions are shared)
    """
def shoot_blocks(config: ShootConfig, crits: typing.SupportsInt | typing.SupportsIndex, norms: typing.SupportsInt | typing.SupportsIndex, crit_saves: typing.SupportsInt | typing.SupportsIndex, norm_saves: typing.SupportsInt | typing.SupportsIndex) -> tuple[int, int, int, int, int]:
    ...
def shoot_config_join(weapon: ShootConfig, target: ShootConfig, cover: typing.SupportsInt | typing.SupportsIndex, cover_crits: typing.SupportsInt | typing.SupportsIndex, rounds: typing.SupportsInt | typing.SupportsIndex) -> ShootConfig:
    ...
def shoot_counts(config: ShootConfig, seed: typing.SupportsInt | typing.SupportsIndex, total: typing.SupportsInt | typing.SupportsIndex, chunk_begin: typing.SupportsInt | typing.SupportsIndex, chunk_end: typing.SupportsInt | typing.SupportsIndex, threads: typing.SupportsInt | typing.SupportsIndex) -> numpy.typing.NDArray[numpy.uint64]:
    """
    Monte Carlo kernel: histogram laid out as shoot_histogram_bins describes
    """
def shoot_exact(config: ShootConfig) -> tuple[numpy.typing.NDArray[numpy.float64], numpy.typing.NDArray[numpy.float64], numpy.typing.NDArray[numpy.float64], numpy.typing.NDArray[numpy.float64]]:
    ...
def shoot_exact_batch(configs: collections.abc.Sequence[ShootConfig], on_caller: bool = False) -> ExactBatch:
    """
    Exact shots, each distinct configuration object once: batch[i] is shoot_exact_tables(configs[i])
    """
def shoot_exact_tables(config: ShootConfig) -> ShotTables:
    ...
def shoot_self_damage_bins(config: ShootConfig) -> int:
    """
    The bins of the shooter's Hot damage at the end of shoot_counts' histogram (0 without Hot)
    """
DEFENCE_DICE: int = 3
MAX_DICE: int = 12
MAX_FIGHT_WOUNDS: int = 40
MAX_ROUNDS: int = 9
