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

from mathhammer import _core
from mathhammer.core import sampling
from mathhammer.core.batches import ResultBatch, broadcast, checked_items, is_sequence, item_error, item_options, item_seeds, per_item
from mathhammer.core.distributions import index_grids
from mathhammer.core.checks import check_choice, check_int
from mathhammer.errors import InputError
from mathhammer.force_melee.plan import MeleeKernel, MeleePlan, PlannedExchange, plan_melee, planned_exchange, side_config, unit_config
from mathhammer.force_melee.profiles import Side, Unit, as_side, as_unit
from mathhammer.force_melee.report import side_heading
from mathhammer.force_melee.results import AllocationResult, MeleeManyResult, MeleeResult, PairResult, UnitResult
from mathhammer.force_melee.variants import ALLOCATIONS, Variants, switches_of
from mathhammer.core.options import DEFAULT_SAMPLES, METHODS, engine_options, work_starts
from mathhammer.core.distributions import Distribution, JointDistribution

_fm = _core.force_melee


#: Cells of the product of the exchanges' laws the exact melee_many enumerates (docs/rules/force_melee.md §6).
MAX_EXACT_CELLS = 1_000_000
MAX_ALLOCATE_DAMAGE = 1_000_000


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
    switches = switches_of(variants, winner_damage, allocation, sustained_mode, bonus_always)
    a = as_side(a, "a")
    b = as_side(b, "b")
    exchange = planned_exchange(a, b, switches)
    work_starts()
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
                       **_exchange_fields(damage, hits, exchange, samples), sides=(side_heading(a), side_heading(b)))


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
    ``progress`` and ``executor``. Seeds: a sequence gives each item its own; one seed (drawn when
    None) gives item i ``cell_seed(seed, i)`` (``mathhammer.core.sampling``), so every Monte Carlo
    item is ``fm.melee`` with ``seed=batch[i].seed``. An invalid item fails the whole call with an
    error naming it (``a[3].weapon.hit: ...``). (``fm.melee_many`` is a different thing: one melee of several units.)
    """
    switch_names = ("winner_damage", "allocation", "sustained_mode", "bonus_always")
    arguments: dict[str, Any] = {
        "a": a, "b": b, "winner_damage": winner_damage, "allocation": allocation, "sustained_mode": sustained_mode,
        "bonus_always": bonus_always, "method": method, "samples": samples, "seed": seed, "threads": threads,
        "variants": variants,
    }
    size, items = broadcast(arguments)
    single = {name: not is_sequence(value) for name, value in arguments.items()}
    sides_a = checked_items("a", items["a"], single, lambda v: as_side(v, "a"))
    sides_b = checked_items("b", items["b"], single, lambda v: as_side(v, "b"))
    # the seeds are checked on their own (a sweep's cells each bring a different one)
    option_list = per_item(items, ("method", "samples", "threads"), single,
                           lambda m, n, t: item_options(progress, executor, METHODS)(m, n, None, t))
    seeds = item_seeds(items["seed"], single["seed"])
    switch_list = per_item(items, ("variants",) + switch_names, single, switches_of)
    exchanges: list[PlannedExchange] = []
    for i in range(size):
        try:
            exchanges.append(planned_exchange(sides_a[i], sides_b[i], switch_list[i]))
        except InputError as error:
            # the table-size check names the dice of both sides: the item is named by a listed side
            name = "b" if single["a"] and not single["b"] else "a"
            raise item_error(error, name, i, single[name]) from None
    exact = [i for i in range(size) if option_list[i].method != "monte_carlo"]
    found = _exact_tables([exchanges[i].config for i in exact]) if exact else None
    sampled = {
        i: melee(sides_a[i], sides_b[i], method="monte_carlo", samples=option_list[i].samples, seed=seeds(i),
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

    def compute() -> dict[str, Any]:  # the sides' text too is made when read, not for each figure a sweep reads
        return {**_exchange_fields(damage, hits, exchange, None), "sides": (side_heading(a), side_heading(b))}

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
    switches = switches_of(variants, winner_damage, allocation, sustained_mode, bonus_always)
    plan = plan_melee(sides, engaged, assignment, switches)
    method_used = _melee_method(plan, options.method)
    work_starts()
    seed_used: int | None = None
    if method_used == "monte_carlo":
        seed_used = options.draw_seed()
        # the plan's own config; it pickles as the plan's inputs (process pools, Dask)
        kernel = MeleeKernel(plan.config, (plan.sides, plan.names, plan.pairs, plan.dice, switches))
        counts = sampling.run_monte_carlo(kernel, options.samples, seed_used, sampling.resolve_threads(options.threads),
                                          options.progress, options.executor)
        flat = counts.astype(np.float64) / options.samples
        n: int | None = options.samples
    else:
        flat = np.asarray(_fm.melee_exact(plan.config))
        n = None
    return MeleeManyResult(method=method_used, samples=n, seed=seed_used, units=_unit_results(plan, flat, n),
                           pairs=_pair_results(plan, flat, n), variants=switches)


def _melee_method(plan: MeleePlan, method: str) -> str:
    """The engine a melee runs: "auto" is exact while the product of the exchanges' laws stays within
    MAX_EXACT_CELLS cells."""
    if method == "monte_carlo":
        return method
    cells = _fm.exact_cells(plan.config)
    if cells <= MAX_EXACT_CELLS:
        return "exact"
    if method == "exact":
        raise InputError(
            "method",
            f"the exact product of the exchanges has {cells:,.0f} cells (limit {MAX_EXACT_CELLS:,}); "
            "use method='monte_carlo' or 'auto'",
        )
    return "monte_carlo"


def _unit_results(plan: MeleePlan, flat: np.ndarray, n: int | None) -> dict[str, UnitResult]:
    """Each unit's damage taken, casualties and HP left, from the melee's flat histogram."""
    layout = plan.layout
    units: dict[str, UnitResult] = {}
    for k, name in enumerate(plan.names):
        unit = plan.sides[name].unit
        damage = flat[layout.damage_offset[k] : layout.damage_offset[k] + layout.damage_bins[k]]
        state = flat[layout.state_offset[k] : layout.state_offset[k] + plan.units[k].state_count]
        casualties, remaining = _unit_parts(state, plan.units[k], n)
        units[name] = UnitResult(name, unit.models, Distribution(_trim(damage), samples=n), casualties, remaining)
    return units


def _pair_results(plan: MeleePlan, flat: np.ndarray, n: int | None) -> tuple[PairResult, ...]:
    """Each engaged pair's exchange, from the melee's flat histogram."""
    layout, names, dice = plan.layout, plan.names, plan.dice
    out = []
    for k, (u, v) in enumerate(plan.pairs):
        ex_layout = layout.exchanges[k]
        offset = layout.exchange_offset[k]
        pair_damage, pair_hits = _exchange_parts(flat[offset : offset + ex_layout.total], ex_layout)
        pair_damage, pair_hits = _trim(pair_damage), _trim(pair_hits)
        # Joint models removed: rows the first unit's, columns the second's.
        rows, cols = plan.units[names.index(u)].removed_bins, plan.units[names.index(v)].removed_bins
        start = layout.casualties_offset[k]
        pair_casualties = flat[start : start + rows * cols].reshape(rows, cols)
        more, tie, less = _more_tie_less(pair_hits)
        out.append(
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
    return tuple(out)


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
    out = _fm.allocate(unit_config(unit), lumps, getattr(_fm.Allocation, allocation))
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
    switches = switches_of(variants, winner_damage, None, sustained_mode, bonus_always)
    out = _fm.resolve(
        side_config(a, a.dice), hits_a, crits_a, side_config(b, b.dice), hits_b, crits_b, switches.rules()
    )
    return ExchangeDamage(out.damage_to_a, out.damage_to_b, out.hits_a, out.hits_b)
