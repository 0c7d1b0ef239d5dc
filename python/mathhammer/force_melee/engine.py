"""Public functions of the Force melee: melee, melee_many, allocate, resolve.

Python validates, builds the C++ config, picks the engine and turns histograms into results. Every
outcome is decided in C++ by one resolution function (cpp/force_melee/resolve.hpp) and one
allocation function (allocation.hpp), which both the exact and the Monte Carlo engine call.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import Executor
from typing import Any, NamedTuple

import numpy as np

from mathhammer import _core, sampling
from mathhammer.batch import ResultBatch, broadcast, is_sequence, item_error, item_options, per_item
from mathhammer._grids import index_grids
from mathhammer._validate import InputError, InputTypeError, check_choice, check_int
from mathhammer.force_melee.profiles import MAX_DICE, Side, Unit, as_side, as_unit
from mathhammer.force_melee.results import AllocationResult, MeleeManyResult, MeleeResult, PairResult, UnitResult
from mathhammer.force_melee.variants import ALLOCATIONS, Variants
from mathhammer.options import check_switches, engine_options
from mathhammer.results import Distribution, JointDistribution

_fm = _core.force_melee

METHODS: tuple[str, ...] = ("auto", "exact", "monte_carlo")

DEFAULT_SAMPLES = 1_000_000
#: Cells of the product of the exchanges' laws the exact melee_many enumerates (docs/rules/force_melee.md §6).
MAX_EXACT_CELLS = 1_000_000
#: Histogram bins one call may use (a joint damage table of 2048 x 2048, 32 MB of doubles).
MAX_BINS = 1 << 22
MAX_UNITS = 8
MAX_PAIRS = 16
MAX_ALLOCATE_DAMAGE = 1_000_000
# planned exchanges kept by value: enough for a sweep over many thousand different exchanges
_CACHED_EXCHANGES = 16_384


def _side_config(side: Side, dice: int) -> _fm.SideConfig:
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


def _unit_config(unit: Unit) -> _fm.UnitConfig:
    return _fm.UnitConfig(unit.models, unit.hp, list(unit.hp_now))


# --- turning histograms into results ------------------------------------------------------------


def _trim(pmf: np.ndarray) -> np.ndarray:
    """Drop trailing all-zero rows / columns (values that cannot occur), keeping at least one."""
    if pmf.ndim == 1:
        nonzero = np.flatnonzero(pmf)
        return pmf[: (nonzero[-1] + 1 if nonzero.size else 1)]
    rows = np.flatnonzero(pmf.any(axis=1))
    cols = np.flatnonzero(pmf.any(axis=0))
    return pmf[: (rows[-1] + 1 if rows.size else 1), : (cols[-1] + 1 if cols.size else 1)]


def _unit_parts(
    state: np.ndarray, unit_config: _fm.UnitConfig, samples: int | None
) -> tuple[Distribution, tuple[Distribution, ...]]:
    """Casualties and HP left per model from the law of a unit's final state (removed, front HP); the
    distributions adopt the fresh arrays computed here."""
    models, hp = unit_config.models, unit_config.hp
    state = state.reshape(unit_config.removed_bins, unit_config.front_hp_bins)
    casualties = Distribution._adopt(state.sum(axis=1), samples)
    start = unit_config.start
    remaining = []
    for k in range(models):
        pmf = np.zeros(hp + 1)
        pmf[0] = state[k + 1 :, :].sum()  # removed
        pmf += state[k, :]  # the first living model: damage may have landed on it
        pmf[start[k]] += state[:k, :].sum()  # behind the first living model: untouched
        remaining.append(Distribution._adopt(pmf, samples))
    return casualties, tuple(remaining)


def _more_tie_less(hits: np.ndarray) -> tuple[float, float, float]:
    i, j = index_grids(hits.shape)
    return float(hits[i > j].sum()), float(hits[i == j].sum()), float(hits[i < j].sum())


def _exchange_parts(flat: np.ndarray, layout: _fm.ExchangeLayout) -> tuple[np.ndarray, np.ndarray]:
    """The damage table (damage to A x damage to B) and the hits table (hits A x hits B) of one exchange."""
    damage = flat[: layout.damage_cells].reshape(layout.damage_a_bins, layout.damage_b_bins)
    hits = flat[layout.hits_offset : layout.hits_offset + layout.hits_cells]
    return damage, hits.reshape(layout.hits_a_bins, layout.hits_b_bins)


def _check_bins(bins: int, field: str) -> None:
    if bins > MAX_BINS:
        raise InputError(
            field,
            f"this melee needs {bins:,} histogram bins (limit {MAX_BINS:,}): the damage it can deal is too "
            "large to tabulate; lower dice, force or sustained (extra_hits multiplies the hits)",
        )


def _switches(variants: Any, winner_damage: Any, allocation: Any, sustained_mode: Any, bonus_always: Any) -> Variants:
    if variants is None and winner_damage is None and allocation is None and sustained_mode is None \
            and bonus_always is None:
        return Variants.resolve(None)  # the defaults, checked once
    return check_switches(Variants, variants, dict(winner_damage=winner_damage, allocation=allocation,
                                                   sustained_mode=sustained_mode, bonus_always=bonus_always))


# --- one exchange -------------------------------------------------------------------------------


def melee(
    a: Side | Mapping[str, Any],
    b: Side | Mapping[str, Any],
    *,
    winner_damage: str | None = None,
    allocation: str | None = None,
    sustained_mode: str | None = None,
    bonus_always: bool | None = None,
    method: str = "auto",
    samples: int = DEFAULT_SAMPLES,
    seed: int | None = None,
    threads: int | None = None,
    progress: sampling.Progress | None = None,
    executor: Executor | None = None,
    variants: Variants | Mapping[str, Any] | str | None = None,
) -> MeleeResult:
    """One simultaneous exchange between side ``a`` and side ``b`` (docs/rules/force_melee.md §2).

    Both sides roll their dice at once; the hits are compared; the winner deals damage as
    ``winner_damage`` says ("once": its Force, the seed read literally; "excess": Force per hit more;
    "per_hit": Force per hit; "pairing": hits paired off, the lower-Force side hurt by the gap per
    pair, each unpaired hit dealing the winner's Force); a tie hurts the lower-Force side by the Force
    difference per matching hit. Bonus damage (bonus_flat, sustained per hit, critical_damage per crit)
    rides on base damage dealt (``bonus_always``: the flat bonus always). Damage is one lump per side,
    allocated with ``allocation`` ("spill" or "no_spill"). These four switches are those of
    :class:`Variants` (defaults as there): give them as keywords or as ``variants=``, not both.

    ``method``: "exact" (the default under "auto": one exchange is always cheap) or "monte_carlo"
    (``samples``, ``seed``, ``threads``, ``progress``, ``executor``; same seed, same result on any
    thread count). A Monte Carlo result records the seed it used.

    >>> from mathhammer import force_melee as fm
    >>> r = fm.melee(fm.example("line_troopers"), fm.example("militia"))
    >>> round(r.damage_b.mean, 6), round(r.p_a_more, 6)
    (3.0, 0.625)
    """
    options = engine_options(method, samples, seed, threads, progress, executor, methods=METHODS)
    switches = _switches(variants, winner_damage, allocation, sustained_mode, bonus_always)
    a = as_side(a, "a")
    b = as_side(b, "b")
    exchange = planned_exchange(a, b, switches)
    if options.method != "monte_carlo":
        return _exact_result(_fm.exchange_exact_shaped(exchange.config), exchange, a, b, switches)
    samples = options.samples
    seed_used = options.draw_seed()
    kernel = functools.partial(_fm.exchange_sample, exchange.config)
    counts = sampling.run_monte_carlo(kernel, samples, seed_used, sampling.resolve_threads(options.threads),
                                      options.progress, options.executor)
    flat = counts.astype(np.float64) / samples
    damage, hits = _exchange_parts(flat, exchange.layout)
    return MeleeResult(**_ready_fields("monte_carlo", samples, seed_used, a, b, switches),
                       **_exchange_fields(damage, hits, exchange, samples))


def melee_batch(
    a: Any,
    b: Any,
    *,
    winner_damage: str | None | Sequence[str | None] = None,
    allocation: str | None | Sequence[str | None] = None,
    sustained_mode: str | None | Sequence[str | None] = None,
    bonus_always: bool | None | Sequence[bool | None] = None,
    method: str | Sequence[str] = "auto",
    samples: int | Sequence[int] = DEFAULT_SAMPLES,
    seed: int | None | Sequence[int | None] = None,
    threads: int | None | Sequence[int | None] = None,
    progress: sampling.Progress | None = None,
    executor: Executor | None = None,
    variants: Variants | Mapping[str, Any] | str | None | Sequence[Variants | Mapping[str, Any] | str | None] = None,
) -> ResultBatch[MeleeResult]:
    """Many exchanges in one call: ``batch[i]`` equals ``fm.melee`` of the i-th item.

    The arguments are those of :func:`melee`, each one value or a sequence (list, tuple, range or
    numpy array); sequences have the same length and single values are repeated to it. A side may be
    a Side or a table of its fields. The exact items are resolved in one C++ call with the GIL
    released, each distinct exchange once; Monte Carlo items run one after the other, each with
    ``progress`` and ``executor``. An invalid item fails the whole call with an error naming it
    (``a[3].weapon.hit: ...``). (``fm.melee_many`` is a different thing: one melee of several units.)
    """
    switch_names = ("winner_damage", "allocation", "sustained_mode", "bonus_always")
    arguments: dict[str, Any] = {
        "a": a, "b": b, "winner_damage": winner_damage, "allocation": allocation, "sustained_mode": sustained_mode,
        "bonus_always": bonus_always, "method": method, "samples": samples, "seed": seed, "threads": threads,
        "variants": variants,
    }
    size, items = broadcast(arguments)
    single = {name: not is_sequence(value) for name, value in arguments.items()}
    sides_a = _checked_sides("a", items["a"], single["a"])
    sides_b = _checked_sides("b", items["b"], single["b"])
    option_list = per_item(items, ("method", "samples", "seed", "threads"), single, item_options(progress, executor, METHODS))
    switch_list = per_item(items, ("variants",) + switch_names, single, _switches)
    exchanges: list[PlannedExchange] = []
    for i in range(size):
        try:
            exchanges.append(planned_exchange(sides_a[i], sides_b[i], switch_list[i]))
        except (InputError, InputTypeError) as error:
            # the table-size check names the dice of both sides: the item is named by a listed side
            name = "b" if single["a"] and not single["b"] else "a"
            raise item_error(error, name, i, single[name]) from None
    exact = [i for i in range(size) if option_list[i].method != "monte_carlo"]
    found = _exact_tables([exchanges[i].config for i in exact]) if exact else None
    sampled = {
        i: melee(sides_a[i], sides_b[i], method="monte_carlo", samples=option_list[i].samples, seed=option_list[i].seed,
                 threads=option_list[i].threads, progress=progress, executor=executor, variants=switch_list[i])
        for i in range(size) if option_list[i].method == "monte_carlo"
    }
    position = {item: k for k, item in enumerate(exact)}

    def build(i: int) -> MeleeResult:
        if i in sampled or found is None:
            return sampled[i]
        return _exact_result(found(position[i]), exchanges[i], sides_a[i], sides_b[i], switch_list[i])

    return ResultBatch(size, build)


def _exact_tables(configs: list[_fm.ExchangeConfig]) -> Callable[[int], tuple[np.ndarray, np.ndarray]]:
    """Resolve exact exchanges in one C++ call; returns the k-th config's damage and hits tables,
    made when asked for."""
    return _fm.exchange_exact_batch(configs).__getitem__


def _checked_sides(name: str, values: Sequence[Any], single: bool) -> list[Side]:
    # each item checked as melee checks it; a single value once (it is shared by every item)
    if single:
        try:
            return [as_side(values[0], name)] * len(values)
        except (InputError, InputTypeError) as error:
            raise item_error(error, name, 0, True) from None
    out = []
    for i, value in enumerate(values):
        try:
            out.append(as_side(value, name))
        except (InputError, InputTypeError) as error:
            raise item_error(error, name, i, False) from None
    return out


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
    config = _fm.ExchangeConfig(_side_config(a, a.dice), _side_config(b, b.dice), switches.rules())
    layout = _fm.exchange_layout(config)
    _check_bins(layout.total, "dice")
    unit_a, unit_b = _unit_config(a.unit), _unit_config(b.unit)
    alloc = switches.allocation_enum()
    table_a = _fm.allocation_table(unit_a, layout.damage_a_bins - 1, alloc)
    table_b = _fm.allocation_table(unit_b, layout.damage_b_bins - 1, alloc)
    tables = [table_a.state, table_a.removed, table_b.state, table_b.removed]
    for table in tables:
        table.setflags(write=False)  # shared by every call of this exchange
    return PlannedExchange(config, layout, unit_a, unit_b, *tables)


def _ready_fields(method: str, samples: int | None, seed: int | None, a: Side, b: Side,
                  switches: Variants) -> dict[str, Any]:
    return {
        "method": method, "samples": samples, "seed": seed, "variants": switches, "names": (a.name or "A", b.name or "B"),
        "models_a": a.unit.models, "models_b": b.unit.models,
    }


def _exact_result(tables: tuple[np.ndarray, np.ndarray], exchange: PlannedExchange, a: Side, b: Side,
                  switches: Variants) -> MeleeResult:
    # tables: exchange_exact_shaped's fresh damage and hits tables, owned here
    damage, hits = tables
    compute = functools.partial(_exchange_fields, damage, hits, exchange, None)
    return MeleeResult._pending_result(_ready_fields("exact", None, None, a, b, switches), compute)


def _joint(pmf: np.ndarray, names: tuple[str, str], n: int | None) -> JointDistribution:
    # exact tables are the engine's own fresh arrays (a batch makes an item's when it is read): adopted, not copied
    return JointDistribution._adopt(pmf, names) if n is None else JointDistribution(pmf, names=names, samples=n)


def _exchange_fields(damage: np.ndarray, hits: np.ndarray, exchange: PlannedExchange, n: int | None
                     ) -> dict[str, Any]:
    """MeleeResult's distributions and figures from the damage and hits tables of an exchange."""
    unit_a, unit_b = exchange.unit_a, exchange.unit_b
    # A's final state depends on the damage to A only, B's on the damage to B.
    state_a = np.bincount(exchange.state_a, weights=damage.sum(axis=1), minlength=unit_a.state_count)
    state_b = np.bincount(exchange.state_b, weights=damage.sum(axis=0), minlength=unit_b.state_count)
    casualties_joint = np.zeros((unit_a.removed_bins, unit_b.removed_bins))
    np.add.at(casualties_joint, (exchange.removed_a[:, None], exchange.removed_b[None, :]), damage)

    casualties_a, remaining_a = _unit_parts(state_a, unit_a, n)
    casualties_b, remaining_b = _unit_parts(state_b, unit_b, n)
    damage = _trim(damage)
    hits = _trim(hits)
    p_a_more, p_tie, p_b_more = _more_tie_less(hits)
    return {
        "joint": _joint(damage, ("damage_a", "damage_b"), n),
        "damage_a": Distribution._adopt(_trim(damage.sum(axis=1)), n),
        "damage_b": Distribution._adopt(_trim(damage.sum(axis=0)), n),
        "hits_joint": _joint(hits, ("hits_a", "hits_b"), n),
        "hits_a": Distribution._adopt(_trim(hits.sum(axis=1)), n),
        "hits_b": Distribution._adopt(_trim(hits.sum(axis=0)), n),
        "p_a_more": p_a_more,
        "p_tie": p_tie,
        "p_b_more": p_b_more,
        "casualties_joint": _joint(casualties_joint, ("casualties_a", "casualties_b"), n),
        "casualties_a": casualties_a,
        "casualties_b": casualties_b,
        "remaining_a": remaining_a,
        "remaining_b": remaining_b,
    }


# --- several units ------------------------------------------------------------------------------


def _check_sides(sides: Any) -> dict[str, Side]:
    if not isinstance(sides, Mapping):
        raise InputTypeError("sides", f"expected a mapping of unit name to Side, got {type(sides).__name__}")
    if not 2 <= len(sides) <= MAX_UNITS:
        raise InputError("sides", f"has {len(sides)} units; allowed 2..{MAX_UNITS}")
    out: dict[str, Side] = {}
    for name, side in sides.items():
        if not isinstance(name, str) or not name:
            raise InputTypeError("sides", f"unit names must be non-empty text, got {name!r}")
        out[name] = as_side(side, f"sides.{name}")
    return out


def _check_engaged(engaged: Any, names: Sequence[str]) -> list[tuple[str, str]]:
    if isinstance(engaged, (str, bytes)) or not isinstance(engaged, Sequence):
        raise InputTypeError("engaged", f"expected a list of (unit, unit) pairs, got {engaged!r}")
    if not 1 <= len(engaged) <= MAX_PAIRS:
        raise InputError("engaged", f"has {len(engaged)} pairs; allowed 1..{MAX_PAIRS}")
    pairs: list[tuple[str, str]] = []
    seen: set[frozenset[str]] = set()
    for i, pair in enumerate(engaged):
        field = f"engaged[{i}]"
        if isinstance(pair, (str, bytes)) or not isinstance(pair, Sequence) or len(pair) != 2:
            raise InputTypeError(field, f"expected a pair of unit names, got {pair!r}")
        for name in pair:
            if name not in names:
                raise InputError(field, f"unknown unit {name!r}; units: {', '.join(names)}")
        if pair[0] == pair[1]:
            raise InputError(field, f"a unit cannot be engaged with itself ({pair[0]!r})")
        key = frozenset(pair)
        if key in seen:
            raise InputError(field, f"the pair ({pair[0]}, {pair[1]}) is listed twice")
        seen.add(key)
        pairs.append((pair[0], pair[1]))
    for name in names:
        if not any(name in pair for pair in pairs):
            raise InputError("engaged", f"unit {name!r} is not in any engaged pair")
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
                "assignment", f"keys are (unit, enemy) pairs, or unit names mapping to {{enemy: dice}}; got {key!r}"
            )
        for (unit, enemy), count in entries:
            field = f"assignment[{unit!r}, {enemy!r}]"
            if unit not in sides:
                raise InputError(field, f"unknown unit {unit!r}; units: {', '.join(sides)}")
            if enemy not in enemies[unit]:
                engaged_with = ", ".join(repr(e) for e in enemies[unit])
                raise InputError(field, f"{unit!r} is not engaged with {enemy!r}; it is engaged with {engaged_with}")
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
                f"{unit!r} is engaged with {len(enemies[unit])} units; say how its {side.dice} dice are split: {{{split}}}",
            )
    return dice


def melee_many(
    sides: Mapping[str, Side | Mapping[str, Any]],
    engaged: Sequence[tuple[str, str]],
    assignment: Mapping[Any, Any] | None = None,
    *,
    winner_damage: str | None = None,
    allocation: str | None = None,
    sustained_mode: str | None = None,
    bonus_always: bool | None = None,
    method: str = "auto",
    samples: int = DEFAULT_SAMPLES,
    seed: int | None = None,
    threads: int | None = None,
    progress: sampling.Progress | None = None,
    executor: Executor | None = None,
    variants: Variants | Mapping[str, Any] | str | None = None,
) -> MeleeManyResult:
    """A melee of several units (docs/rules/force_melee.md §3).

    sides: {name: Side}, each Side's ``dice`` being the unit's total. engaged: the (unit, unit) pairs
    in contact, in the order their damage is applied. assignment: how each unit splits its dice among
    its enemies before rolling, as {(unit, enemy): dice} or {unit: {enemy: dice}}; a unit with a single
    enemy may be left out (it rolls all its dice at it), a unit with several must be given; enemies
    it lists no dice for get none, and it may hold dice back.

    Every pair fights one exchange with the dice the two units assigned each other (a pair where
    neither assigned dice is skipped); all exchanges use the state before the melee; each exchange's
    damage to a unit is one lump, allocated in pair order; casualties are removed at the end.

    ``method="auto"``: exact while the product of the exchanges' laws has at most 1,000,000 cells,
    else Monte Carlo. The switches and engine options are those of :func:`melee`.

    >>> from mathhammer import force_melee as fm
    >>> r = fm.melee_many(
    ...     {"troopers": fm.example("line_troopers"), "militia": fm.example("militia"), "walker": fm.example("walker")},
    ...     engaged=[("troopers", "walker"), ("militia", "walker")],
    ...     assignment={"walker": {"troopers": 3, "militia": 1}},
    ... )
    >>> r.method, round(r.units["walker"].damage.mean, 4) > 0
    ('exact', True)
    """
    options = engine_options(method, samples, seed, threads, progress, executor, methods=METHODS)
    switches = _switches(variants, winner_damage, allocation, sustained_mode, bonus_always)
    side_map = _check_sides(sides)
    names = list(side_map)
    pairs = _check_engaged(engaged, names)
    dice = _check_assignment(assignment, side_map, pairs)
    method, samples = options.method, options.samples
    seed_used: int | None = None
    rules = switches.rules()

    unit_configs = [_unit_config(side_map[name].unit) for name in names]
    pair_configs = []
    for u, v in pairs:
        exchange = _fm.ExchangeConfig(
            _side_config(side_map[u], dice[(u, v)]), _side_config(side_map[v], dice[(v, u)]), rules
        )
        pair_configs.append(_fm.PairConfig(names.index(u), names.index(v), exchange))
    config = _fm.MeleeConfig(unit_configs, pair_configs, switches.allocation_enum())
    layout = _fm.melee_layout(config)
    _check_bins(layout.total, "sides")

    if method != "monte_carlo":
        cells = _fm.exact_cells(config)
        if cells > MAX_EXACT_CELLS:
            if method == "exact":
                raise InputError(
                    "method",
                    f"the exact product of the exchanges has {cells:,.0f} cells (limit {MAX_EXACT_CELLS:,}); "
                    "use method='monte_carlo' or 'auto'",
                )
            method = "monte_carlo"
        else:
            method = "exact"
    if method == "monte_carlo":
        seed_used = options.draw_seed()
        kernel = functools.partial(_fm.melee_sample, config)
        counts = sampling.run_monte_carlo(kernel, samples, seed_used, sampling.resolve_threads(options.threads),
                                          options.progress, options.executor)
        flat = counts.astype(np.float64) / samples
        n: int | None = samples
    else:
        flat = np.asarray(_fm.melee_exact(config))
        n = None

    units: dict[str, UnitResult] = {}
    for k, name in enumerate(names):
        unit = side_map[name].unit
        damage = flat[layout.damage_offset[k] : layout.damage_offset[k] + layout.damage_bins[k]]
        state = flat[layout.state_offset[k] : layout.state_offset[k] + unit_configs[k].state_count]
        casualties, remaining = _unit_parts(state, unit_configs[k], n)
        units[name] = UnitResult(name, unit.models, Distribution(_trim(damage), samples=n), casualties, remaining)

    pair_results = []
    for k, (u, v) in enumerate(pairs):
        ex_layout = layout.exchanges[k]
        offset = layout.exchange_offset[k]
        pair_damage, pair_hits = _exchange_parts(flat[offset : offset + ex_layout.total], ex_layout)
        pair_damage, pair_hits = _trim(pair_damage), _trim(pair_hits)
        # Joint models removed: rows the first unit's, columns the second's.
        rows, cols = unit_configs[names.index(u)].removed_bins, unit_configs[names.index(v)].removed_bins
        start = layout.casualties_offset[k]
        pair_casualties = flat[start : start + rows * cols].reshape(rows, cols)
        more, tie, less = _more_tie_less(pair_hits)
        pair_results.append(
            PairResult(
                first=u,
                second=v,
                dice=(dice[(u, v)], dice[(v, u)]),
                joint=JointDistribution(pair_damage, names=(f"damage_{u}", f"damage_{v}"), samples=n),
                damage_first=Distribution(_trim(pair_damage.sum(axis=1)), samples=n),
                damage_second=Distribution(_trim(pair_damage.sum(axis=0)), samples=n),
                hits_first=Distribution(_trim(pair_hits.sum(axis=1)), samples=n),
                hits_second=Distribution(_trim(pair_hits.sum(axis=0)), samples=n),
                p_first_more=more,
                p_tie=tie,
                p_second_more=less,
                casualties_joint=JointDistribution(pair_casualties, names=(f"casualties_{u}", f"casualties_{v}"),
                                                   samples=n),
            )
        )
    return MeleeManyResult(
        method=method, samples=n, seed=seed_used, units=units, pairs=tuple(pair_results), variants=switches
    )


# --- single steps ---------------------------------------------------------------------------------


def allocate(unit: Unit | Mapping[str, Any], damage: int | Sequence[int], allocation: str = "spill") -> AllocationResult:
    """Allocate damage to a unit (docs/rules/force_melee.md §2 step 5).

    ``damage`` is one lump, or a list of lumps applied in order (as several exchanges do). A lump goes
    to a wounded model first, else to the first model in the owner's order; "spill" carries the excess
    to the next model, "no_spill" loses it.

    >>> from mathhammer import force_melee as fm
    >>> fm.allocate(fm.Unit(models=5, hp=2), 5)
    AllocationResult(casualties=2, current=(1, 2, 2), lost=0)
    """
    unit = as_unit(unit)
    if isinstance(damage, Sequence) and not isinstance(damage, (str, bytes)):
        lumps = [check_int(f"damage[{i}]", d, 0, MAX_ALLOCATE_DAMAGE) for i, d in enumerate(damage)]
    else:
        lumps = [check_int("damage", damage, 0, MAX_ALLOCATE_DAMAGE)]
    allocation = check_choice("allocation", allocation, ALLOCATIONS)
    out = _fm.allocate(_unit_config(unit), lumps, getattr(_fm.Allocation, allocation))
    return AllocationResult(casualties=out.removed, current=tuple(out.survivors), lost=out.lost)


class ExchangeDamage(NamedTuple):
    """What one pair of rolls deals: damage to each side and the hits compared."""

    damage_to_a: int
    damage_to_b: int
    hits_a: int
    hits_b: int


def resolve(
    a: Side | Mapping[str, Any],
    b: Side | Mapping[str, Any],
    hits_a: int,
    hits_b: int,
    crits_a: int = 0,
    crits_b: int = 0,
    *,
    winner_damage: str | None = None,
    sustained_mode: str | None = None,
    bonus_always: bool | None = None,
    variants: Variants | Mapping[str, Any] | str | None = None,
) -> ExchangeDamage:
    """The damage of one exchange once the dice are rolled: ``hits_x`` successful hits (at most the
    side's dice), of which ``crits_x`` are critical. This is the engine's own resolution function.

    >>> from mathhammer import force_melee as fm
    >>> a = fm.Side(fm.Unit(5), fm.Weapon(hit=4, force=5), dice=4)
    >>> b = fm.Side(fm.Unit(5), fm.Weapon(hit=4, force=1), dice=4)
    >>> fm.resolve(a, b, 3, 3).damage_to_b, fm.resolve(a, b, 4, 3).damage_to_b   # a tie can beat a win
    (12, 5)
    """
    a = as_side(a, "a")
    b = as_side(b, "b")
    hits_a = check_int("hits_a", hits_a, 0, a.dice)
    hits_b = check_int("hits_b", hits_b, 0, b.dice)
    crits_a = check_int("crits_a", crits_a, 0, hits_a)
    crits_b = check_int("crits_b", crits_b, 0, hits_b)
    switches = _switches(variants, winner_damage, None, sustained_mode, bonus_always)
    out = _fm.resolve(
        _side_config(a, a.dice), hits_a, crits_a, _side_config(b, b.dice), hits_b, crits_b, switches.rules()
    )
    return ExchangeDamage(out.damage_to_a, out.damage_to_b, out.hits_a, out.hits_b)
