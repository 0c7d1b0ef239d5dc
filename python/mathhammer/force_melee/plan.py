"""Force melee sides → the C++ configuration of an exchange or of a melee of several units, checked
and kept (docs/rules/force_melee.md §2, §3): the sides' dice and weapons, the units' models, the
histogram layout (refused when too large to tabulate), and for a melee of several units the pairs
in contact and how each unit splits its dice.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from typing import Any, NamedTuple

import numpy as np

from mathhammer import _core
from mathhammer.core.checks import check_int
from mathhammer.errors import InputError, InputTypeError
from mathhammer.force_melee.profiles import MAX_DICE, Side, Unit, as_side
from mathhammer.force_melee.variants import Variants
from mathhammer.core.guard import did_you_mean, excerpt

__all__ = ["MAX_BINS", "MAX_PAIRS", "MAX_UNITS", "MeleePlan", "PlannedExchange", "plan_melee", "planned_exchange",
           "side_config", "unit_config"]

_fm = _core.force_melee


#: Histogram bins one call may use (a joint damage table of 2048 x 2048, 32 MB of doubles).
MAX_BINS = 1 << 22

MAX_UNITS: int = int(_fm.MAX_UNITS)  # the C++ bounds, read from it

MAX_PAIRS: int = int(_fm.MAX_PAIRS)

# planned exchanges kept by value: enough for a sweep over many thousand different exchanges
_CACHED_EXCHANGES = 16_384

def side_config(side: Side, dice: int) -> _fm.SideConfig:
    w = side.weapon
    return _fm.SideConfig(
        dice=dice,
        target=side.target,
        crit_face=side.crit_face,
        reroll=getattr(_fm.Reroll, w.reroll),
        force=w.force,
        sustained=w.sustained,
        critical_damage=w.critical_damage,
        bonus_flat=w.bonus_flat,
    )

def unit_config(unit: Unit) -> _fm.UnitConfig:
    return _fm.UnitConfig(unit.models, unit.hp, list(unit.hp_now))

def _check_bins(bins: int, field: str) -> None:
    if bins > MAX_BINS:
        raise InputError(
            field,
            f"this melee needs {bins:,} histogram bins (limit {MAX_BINS:,}): the damage it can deal is too "
            "large to tabulate; lower dice, force or sustained (extra_hits multiplies the hits)",
        )

class PlannedExchange(NamedTuple):
    """What one exchange needs besides its dice: the C++ config, its histogram layout, both units and
    their allocation tables (one lump of each damage on the fresh unit: final state, models removed)."""

    config: _fm.ExchangeConfig
    layout: _fm.ExchangeLayout
    unit_a: _fm.UnitConfig
    unit_b: _fm.UnitConfig
    state_a: np.ndarray
    removed_a: np.ndarray
    state_b: np.ndarray
    removed_b: np.ndarray

@functools.lru_cache(maxsize=_CACHED_EXCHANGES)
def planned_exchange(a: Side, b: Side, switches: Variants) -> PlannedExchange:
    """The checked plan of an exchange between two validated sides, cached by value (read-only)."""
    config = _fm.ExchangeConfig(side_config(a, a.dice), side_config(b, b.dice), switches.rules())
    layout = _fm.exchange_layout(config)
    _check_bins(layout.total, "dice")
    unit_a, unit_b = unit_config(a.unit), unit_config(b.unit)
    alloc = switches.allocation_enum()
    table_a = _fm.allocation_table(unit_a, layout.damage_a_bins - 1, alloc)
    table_b = _fm.allocation_table(unit_b, layout.damage_b_bins - 1, alloc)
    tables = [table_a.state, table_a.removed, table_b.state, table_b.removed]
    for table in tables:
        table.setflags(write=False)  # shared by every call of this exchange
    return PlannedExchange(config, layout, unit_a, unit_b, *tables)

def _check_sides(sides: Any) -> dict[str, Side]:
    if not isinstance(sides, Mapping):
        raise InputTypeError("sides", f"expected a mapping of unit name to Side, got {type(sides).__name__}")
    if not 2 <= len(sides) <= MAX_UNITS:
        raise InputError("sides", f"has {len(sides)} units; allowed 2..{MAX_UNITS}")
    out: dict[str, Side] = {}
    for name, side in sides.items():
        if not isinstance(name, str) or not name:
            raise InputTypeError("sides", f"unit names must be non-empty text, got {excerpt(name)}")
        out[name] = as_side(side, f"sides.{name}")
    return out

def _check_engaged(engaged: Any, names: Sequence[str]) -> list[tuple[str, str]]:
    if isinstance(engaged, (str, bytes)) or not isinstance(engaged, Sequence):
        raise InputTypeError("engaged", f"expected a list of (unit, unit) pairs, got {excerpt(engaged)}")
    if not 1 <= len(engaged) <= MAX_PAIRS:
        raise InputError("engaged", f"has {len(engaged)} pairs; allowed 1..{MAX_PAIRS}")
    pairs: list[tuple[str, str]] = []
    seen: set[frozenset[str]] = set()
    for i, pair in enumerate(engaged):
        field = f"engaged[{i}]"
        if isinstance(pair, (str, bytes)) or not isinstance(pair, Sequence) or len(pair) != 2:
            raise InputTypeError(field, f"expected a pair of unit names, got {excerpt(pair)}")
        for name in pair:
            if not isinstance(name, str):  # (an array's `in` would not answer yes or no)
                raise InputTypeError(field, f"expected a pair of unit names, got {excerpt(pair)}")
            if name not in names:
                raise InputError(field, f"unknown unit {excerpt(name)}{did_you_mean(name, names)}; units: {', '.join(names)}")
        if pair[0] == pair[1]:
            raise InputError(field, f"a unit cannot be engaged with itself ({excerpt(pair[0])})")
        key = frozenset(pair)
        if key in seen:
            raise InputError(field, f"the pair ({pair[0]}, {pair[1]}) is listed twice")
        seen.add(key)
        pairs.append((pair[0], pair[1]))
    for name in names:
        if not any(name in pair for pair in pairs):
            raise InputError("engaged", f"unit {excerpt(name)} is not in any engaged pair")
    return pairs

def _check_assignment(assignment: Any, sides: dict[str, Side], pairs: list[tuple[str, str]]) -> dict[tuple[str, str], int]:
    """Dice each unit rolls against each enemy: explicit entries, else all dice on a lone enemy."""
    enemies: dict[str, list[str]] = {name: [] for name in sides}
    for u, v in pairs:
        enemies[u].append(v)
        enemies[v].append(u)
    if assignment is None:
        assignment = {}
    if not isinstance(assignment, Mapping):
        raise InputTypeError("assignment", f"expected a mapping (unit, enemy) -> dice, got {type(assignment).__name__}")
    given: dict[tuple[str, str], int] = {}
    for key, value in assignment.items():
        if isinstance(key, str) and isinstance(value, Mapping):  # {unit: {enemy: dice}}
            entries = [((key, enemy), dice) for enemy, dice in value.items()]
        elif isinstance(key, tuple) and len(key) == 2:
            entries = [(key, value)]
        else:
            raise InputTypeError(
                "assignment", f"keys are (unit, enemy) pairs, or unit names mapping to {{enemy: dice}}; got {excerpt(key)}"
            )
        for (unit, enemy), count in entries:
            field = f"assignment[{unit!r}, {enemy!r}]"
            if unit not in sides:
                raise InputError(field, f"unknown unit {excerpt(unit)}{did_you_mean(unit, list(sides))}; units: {', '.join(sides)}")
            if enemy not in enemies[unit]:
                engaged_with = ", ".join(repr(e) for e in enemies[unit])
                raise InputError(field, f"{excerpt(unit)} is not engaged with {excerpt(enemy)}; it is engaged with {engaged_with}")
            given[(unit, enemy)] = check_int(field, count, 0, MAX_DICE)
    dice: dict[tuple[str, str], int] = {}
    for unit, side in sides.items():
        mine = {enemy: n for (u, enemy), n in given.items() if u == unit}
        if mine:
            total = sum(mine.values())
            if total > side.dice:
                raise InputError(f"assignment[{unit!r}]", f"assigns {total} dice; the unit has {side.dice}")
            for enemy in enemies[unit]:
                dice[(unit, enemy)] = mine.get(enemy, 0)
        elif len(enemies[unit]) == 1 or side.dice == 0:
            for enemy in enemies[unit]:
                dice[(unit, enemy)] = side.dice
        else:
            split = ", ".join(f"({unit!r}, {enemy!r}): ..." for enemy in enemies[unit])
            raise InputError(
                "assignment",
                f"{excerpt(unit)} is engaged with {len(enemies[unit])} units; say how its {side.dice} dice are split: {{{split}}}",
            )
    return dice

class MeleePlan(NamedTuple):
    """A checked melee of several units: its C++ config and histogram layout, the units in order with
    their configs, the engaged pairs and the dice each side of a pair rolls."""

    config: _fm.MeleeConfig
    layout: _fm.MeleeLayout
    names: list[str]
    sides: dict[str, Side]
    units: list[_fm.UnitConfig]
    pairs: list[tuple[str, str]]
    dice: dict[tuple[str, str], int]


def _melee_config(sides: dict[str, Side], names: list[str], pairs: list[tuple[str, str]],
                  dice: dict[tuple[str, str], int], switches: Variants) -> tuple[_fm.MeleeConfig, list[_fm.UnitConfig]]:
    """The C++ config of a checked melee, and its units' configs in order."""
    rules = switches.rules()
    unit_configs = [unit_config(sides[name].unit) for name in names]
    pair_configs = []
    for u, v in pairs:
        exchange = _fm.ExchangeConfig(side_config(sides[u], dice[(u, v)]), side_config(sides[v], dice[(v, u)]), rules)
        pair_configs.append(_fm.PairConfig(names.index(u), names.index(v), exchange))
    return _fm.MeleeConfig(unit_configs, pair_configs, switches.allocation_enum()), unit_configs


class MeleeKernel:
    """fm.melee_many's Monte Carlo kernel: counts for chunks of a run (core.sampling's Kernel).

    The C++ MeleeConfig exposes no fields to pickle, so the kernel pickles as the checked melee it was
    built from (``inputs``: the sides, names, pairs, dice and switches of :func:`_melee_config`), and a
    process pool's or Dask's worker rebuilds the same config from that.
    """

    __slots__ = ("_config", "_inputs")

    def __init__(self, config: _fm.MeleeConfig, inputs: tuple[Any, ...]) -> None:
        self._config = config
        self._inputs = inputs

    def __call__(self, seed: int, total: int, chunk_begin: int, chunk_end: int, threads: int) -> Any:
        return _fm.melee_sample(self._config, seed, total, chunk_begin, chunk_end, threads)

    def __reduce__(self) -> tuple[Any, ...]:
        return _rebuilt_melee_kernel, self._inputs


def _rebuilt_melee_kernel(sides: dict[str, Side], names: list[str], pairs: list[tuple[str, str]],
                          dice: dict[tuple[str, str], int], switches: Variants) -> MeleeKernel:
    inputs = (sides, names, pairs, dice, switches)
    return MeleeKernel(_melee_config(*inputs)[0], inputs)


def plan_melee(sides: Any, engaged: Any, assignment: Any, switches: Variants) -> MeleePlan:
    """Check the units, the pairs in contact and how the dice are split (docs/rules/force_melee.md §3),
    and build the melee's C++ config."""
    side_map = _check_sides(sides)
    names = list(side_map)
    pairs = _check_engaged(engaged, names)
    dice = _check_assignment(assignment, side_map, pairs)
    config, unit_configs = _melee_config(side_map, names, pairs, dice, switches)
    layout = _fm.melee_layout(config)
    _check_bins(layout.total, "sides")
    return MeleePlan(config, layout, names, side_map, unit_configs, pairs, dice)
