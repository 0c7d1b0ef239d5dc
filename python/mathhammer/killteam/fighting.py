"""Kill Team 2024 fights (docs/rules/killteam.md §3): distributions of the wounds both fighters have left.

>>> from mathhammer import killteam as kt
>>> a = kt.Fighter(attacks=4, hit=3, damage=(3, 4), wounds=12)
>>> r = kt.fight(a, a)
>>> r.method, round(r.death_chance("a"), 4), round(r.death_chance("b"), 4)
('exact', 0.1653, 0.1986)

The resolution itself (strikes, parries, abilities, decisions) is C++; both engines call it.
"""

from __future__ import annotations

import functools
import os
import pickle
import threading
from collections import OrderedDict
from collections.abc import Mapping, Sequence
from concurrent.futures import Executor
from typing import Any, NamedTuple

from mathhammer import _core
from mathhammer.core import sampling
from mathhammer.core.batches import (
    ResultBatch,
    broadcast,
    checked_items,
    is_sequence,
    item_error,
    item_options,
    item_seeds,
    per_item,
)
from mathhammer.core.checks import check_choice, check_int
from mathhammer.core.distributions import JointDistribution
from mathhammer.core.options import DEFAULT_SAMPLES, METHODS, Progress, engine_options, work_starts
from mathhammer.core.profiles import profile_from_table
from mathhammer.errors import InputError, InputTypeError
from mathhammer.killteam.plan import (
    FIGHT_ROUNDS_MAX, FightPlan, check_optimal_pair, fight_plan, fight_spec, fighter_profile, injured_profile, injury_counts,
)
from mathhammer.killteam.plan import exact_seconds as plan_exact_seconds
from mathhammer.killteam.profiles import MAX_WOUNDS, Fighter, labelled
from mathhammer.killteam.results import SIDES, FightLog, FightResult
from mathhammer.killteam.variants import Variants
from mathhammer.core.guard import excerpt

__all__ = ["FightLog", "FightResult", "fight", "fight_batch", "resolve_fight"]

_kt = _core.killteam


#: ``method="auto"`` uses the exact engine when its work stays within this many resolutions (a
#: resolution: one round start x one pair of retained dice; eight chance states worked out or carried
#: forward, or eight states worked out by the lookahead, count as one more). Past it, Monte Carlo.
EXACT_WORK_LIMIT = 200_000

#: ``method="auto"`` does not even try the exact engine when :func:`exact_work` estimates more.
AUTO_ESTIMATE_MAX = 20_000_000

#: ``method="exact"`` refuses estimates above this many resolutions (use Monte Carlo instead).
EXACT_WORK_MAX = 1_000_000_000

#: ``method="exact"`` refuses fights :func:`exact_seconds` puts above this, and ``"auto"`` samples
#: them without trying the exact engine.
EXACT_SECONDS_MAX = 5.0

#: The exact engine's own work bound under ``method="exact"`` (in the units it counts, about a
#: microsecond each): a backstop should :func:`exact_seconds` ever fall short.
EXACT_UNITS_BACKSTOP = 4 * EXACT_SECONDS_MAX / 1e-6

#: The optimal solver's default budget (docs/rules/killteam.md §7), under every method: the game
#: states it values, and the bytes of its tables. A fight needing more is refused as soon as the
#: solver passes either; ``max_states=`` / ``max_memory=`` raise them (up to the limits below).
MAX_SOLVER_STATES = 2_000_000

MAX_SOLVER_MEMORY = 1 << 30

SOLVER_STATES_LIMIT = 2**32 - 1

SOLVER_MEMORY_LIMIT = 1 << 40


_NAMES: tuple[str, str] = ("wounds_a", "wounds_b")


def _check_fighter(field: str, value: Any) -> Fighter:
    """A fighter given as a kt.Fighter or as the notation ``str(fighter)`` writes (kt.Fighter.parse)."""
    if isinstance(value, str):
        return Fighter.parse(value, field)
    if not isinstance(value, Fighter):
        raise InputTypeError(field, f"expected a kt.Fighter or its notation such as '4A 3+ 3/4; 12W; parry', got "
                             f"{type(value).__name__}")
    return value


def _labels(a: Fighter, b: Fighter, plan: FightPlan) -> tuple[str, str]:
    """How the result names its fighters: their names (their own, not the plan's: a plan is kept by
    value) and notations."""
    if a.name or b.name:
        return labelled(a, plan.fighters[0]), labelled(b, plan.fighters[1])
    return plan.fighters


def _batch_fighter(value: Any) -> Fighter:
    """A fight_batch item's fighter: a kt.Fighter, its notation or a table of its fields."""
    if isinstance(value, str):
        return Fighter.parse(value)
    return profile_from_table(Fighter, value, "fighter", "a kt.")


def _check_solver(refused: float, states: float, max_states: int, max_memory: int) -> None:
    """Refuses a fight whose optimal solver passed its budget (refused: 1 states, 2 bytes)."""
    if refused == 1:
        raise InputError("max_states", f"the optimal solver needs more than {max_states:,} game states for this "
                         f"fight; raise max_states= (and max_memory=) to solve it, or use fewer rounds or dice")
    if refused == 2:
        raise InputError("max_memory", f"the optimal solver needs more than {max_memory:,} bytes for this fight "
                         f"(it had valued {states:,.0f} states); raise max_memory= to solve it")


#: ``method="exact"`` work that :func:`exact_seconds` puts below this runs on the calling thread (the
#: GIL released): a helper thread costs more than such a fight, and Ctrl-C waits at most this long.
ON_CALLER_SECONDS = 0.01


#: Monte Carlo engines kept between calls, for fights without an optimal fighter (the solver's budget
#: is checked as it solves): an engine keeps its workspaces and its Feel No Pain / relic chance
#: graph. What they hold is deterministic (the same dice give the same fight, cold or warm), so a
#: repeated fight gives the same numbers without working them out again. Keyed by the plan and the
#: process: a forked child never uses its parent's engines (their locks may be held by a thread the
#: child does not have).
_ENGINES: OrderedDict[tuple[int, int], tuple[FightPlan, FightKernel]] = OrderedDict()

_KEPT_ENGINES = 4

_ENGINES_LOCK = threading.Lock()


def _monte_carlo_kernel(plan: FightPlan, a: Fighter, b: Fighter, rounds: int, variants: Variants,
                        budget: tuple[int, int] | None) -> FightKernel:
    """The fight's Monte Carlo kernel; a heuristic fight's is kept (see ``_ENGINES``). ``budget``:
    the solver's (max_states, max_memory) for an optimal fighter, whose game the caller solves."""
    key = (id(plan), os.getpid())
    if not plan.optimal:
        with _ENGINES_LOCK:
            found = _ENGINES.get(key)
            if found is not None and found[0] is plan:  # the entry holds its plan, so the id is its own
                _ENGINES.move_to_end(key)
                return found[1]
    dice_a, dice_b = fighter_profile(a, variants), fighter_profile(b, variants)
    # the dice of a round started injured (§3.9): the fighter's own when no round can roll them
    injured = injury_counts(rounds, variants)
    injured_a = injured_profile(a, variants) if injured else dice_a
    injured_b = injured_profile(b, variants) if injured else dice_b
    inputs = (plan.spec, dice_a, dice_b, rounds, injured_a, injured_b, budget)
    kernel = FightKernel(_kt.FightMonteCarlo(*inputs[:-1]), inputs)
    if not plan.optimal:
        with _ENGINES_LOCK:
            _ENGINES[key] = (plan, kernel)
            while len(_ENGINES) > _KEPT_ENGINES:
                _ENGINES.popitem(last=False)
    return kernel


class FightKernel:
    """kt.fight's Monte Carlo kernel: counts for chunks of a run (core.sampling's Kernel).

    The C++ engine does not pickle (it may hold a solved game), so the kernel pickles as what built
    it: the fight's spec, both fighters' dice, the rounds, both fighters' injured dice and, for an
    optimal fighter, the solver's budget. A process pool's or Dask's worker rebuilds the engine from that once per process
    (``_rebuilt``), solving an optimal fighter's game there once too.
    """

    __slots__ = ("engine", "_inputs")

    def __init__(self, engine: Any, inputs: tuple[Any, ...]) -> None:
        self.engine = engine
        self._inputs = inputs

    def __call__(self, seed: int, total: int, chunk_begin: int, chunk_end: int, threads: int) -> Any:
        return self.engine.counts(seed, total, chunk_begin, chunk_end, threads)

    def __reduce__(self) -> tuple[Any, ...]:
        return _rebuilt, (self._inputs,)


def _rebuilt(inputs: tuple[Any, ...]) -> FightKernel:
    """The kernel of ``inputs`` in this process (kept: every batch of a run arrives pickled; the
    inputs hold C++ structs, which do not hash, so they are kept by their pickled bytes)."""
    return _kernel_of(pickle.dumps(inputs))


@functools.lru_cache(maxsize=_KEPT_ENGINES)
def _kernel_of(pickled: bytes) -> FightKernel:
    inputs = pickle.loads(pickled)
    *engine_inputs, budget = inputs
    engine = _kt.FightMonteCarlo(*engine_inputs)
    if budget is not None:
        engine.prepare(*budget)
    return FightKernel(engine, inputs)


def exact_seconds(a: Fighter | str, b: Fighter | str, *, rounds: int = 1, variants: Variants | Mapping[str, Any] | str | None = None
                  ) -> float:
    """About how many seconds of CPU ``kt.fight(a, b, rounds=rounds, method="exact")`` takes (its
    first call in a process), before running it: what decides which fights ``method="exact"``
    refuses (over ``EXACT_SECONDS_MAX``, 5 s), which "auto" samples instead, and which run on the
    calling thread. The law and how it was fitted: docs/rules/killteam.md §3.7. An optimal
    fighter's game is bounded by the solver's budget (``max_states``, ``max_memory``) instead: 0.

    >>> from mathhammer import killteam as kt
    >>> 0 < kt.exact_seconds(kt.Fighter(4, 3, (3, 4), 12), kt.Fighter(4, 3, (3, 4), 12)) < 0.01
    True
    """
    a, b = _check_fighter("a", a), _check_fighter("b", b)
    rounds = check_int("rounds", rounds, 1, FIGHT_ROUNDS_MAX)
    rule_variants = Variants.resolve(variants)
    if "optimal" in (a.strategy, b.strategy):
        return 0.0
    return plan_exact_seconds(a, b, rounds, rule_variants)


def fight(
    a: Fighter | str,
    b: Fighter | str,
    first: str = "a",
    rounds: int = 1,
    *,
    method: str = "auto",
    samples: int = DEFAULT_SAMPLES,
    seed: int | None = None,
    threads: int | None = None,
    progress: Progress | None = None,
    executor: Executor | None = None,
    variants: Variants | Mapping[str, Any] | str | None = None,
    max_states: int = MAX_SOLVER_STATES,
    max_memory: int = MAX_SOLVER_MEMORY,
) -> FightResult:
    """The distribution of both fighters' remaining wounds after a fight (docs/rules/killteam.md §3).

    ``a`` and ``b`` are ``kt.Fighter`` profiles, or their notation as ``str(fighter)`` writes it
    ("4A 3+ 3/4 Brutal; 12W; parry", ``kt.Fighter.parse``). Each round both fighters roll their attack dice, then resolve them one die per turn starting
    with ``first`` ("a" or "b"), striking or parrying as their strategies decide (an optimal
    fighter plays the best response for its objective over all ``rounds``). ``rounds`` (1..3)
    rounds are fought with fresh dice, wounds carried over. ``method="exact"`` sums over every
    pair of retained dice (Feel No Pain / Saintly Relics rolls as exact chance nodes);
    ``"monte_carlo"`` simulates ``samples`` fights in C++ (``seed``, ``threads``,
    ``progress(done, total)``, batches handed to ``executor`` when given); ``"auto"`` is exact when
    that is cheap (at most ``EXACT_WORK_LIMIT`` resolutions), else Monte Carlo. ``result.method``
    says which ran; a Monte Carlo result records the ``seed`` it used. ``variants``: Kill Team's rule
    switches (``kt.Variants``).

    Budgets: ``method="exact"`` refuses a fight estimated to take more than ``EXACT_SECONDS_MAX``
    seconds. With an optimal fighter every method first solves the game, and a game passing
    ``max_states`` valued states or ``max_memory`` bytes of solver tables is refused (InputError
    naming the keyword); raise them to allow more.
    """
    options = engine_options(method, samples, seed, threads, progress, executor, methods=METHODS)
    rule_variants = Variants.resolve(variants)
    method = options.method
    a = _check_fighter("a", a)
    b = _check_fighter("b", b)
    check_optimal_pair(a, b)
    first = check_choice("first", first, SIDES)
    rounds = check_int("rounds", rounds, 1, FIGHT_ROUNDS_MAX)
    max_states = check_int("max_states", max_states, 1, SOLVER_STATES_LIMIT)
    max_memory = check_int("max_memory", max_memory, 1, SOLVER_MEMORY_LIMIT)
    plan = fight_plan(a, b, first, rounds, rule_variants)
    estimate, seconds, optimal = plan.estimate, plan.seconds, plan.optimal
    if method == "exact" and estimate > EXACT_WORK_MAX:
        raise InputError("method", f"the exact engine would need up to about {estimate:,} resolutions (at most "
                         f"{EXACT_WORK_MAX:,}); use method='monte_carlo' or 'auto'")
    if method == "exact" and seconds > EXACT_SECONDS_MAX:
        raise InputError("method", f"the exact engine would take about {seconds:.0f} s for this fight (at most "
                         f"{EXACT_SECONDS_MAX:g} s); use method='monte_carlo' or 'auto'")
    work_starts()
    if method == "exact" or (method == "auto" and estimate <= AUTO_ESTIMATE_MAX and seconds <= EXACT_SECONDS_MAX):
        # With an optimal fighter both engines must first solve the game (the bulk of the work), so
        # "auto" does not fall back to Monte Carlo once the exact engine has started; the solver's
        # budget bounds it instead.
        if optimal:
            limit = 0.0
        elif method == "auto":
            limit = EXACT_WORK_LIMIT
        else:
            limit = EXACT_UNITS_BACKSTOP
        on_caller = not optimal and seconds <= ON_CALLER_SECONDS
        pmf, refused, states = _kt.fight_exact_shaped(plan.spec, plan.dice_a, plan.dice_b, rounds, limit, max_states,
                                                      max_memory, on_caller, plan.injured_a, plan.injured_b)
        _check_solver(refused, states, max_states, max_memory)
        if pmf is not None:
            return FightResult._exact(JointDistribution._adopt(pmf, _NAMES), (a.wounds, b.wounds), rounds, first,
                                      rule_variants, _labels(a, b, plan))
        if method == "exact":
            raise InputError("method", f"the exact engine passed {limit:,.0f} units of work, far more than its "
                             f"estimate; use method='monte_carlo' or 'auto'")
    n = options.samples
    seed_value = options.draw_seed()
    thread_count = sampling.resolve_threads(options.threads)
    kernel = _monte_carlo_kernel(plan, a, b, rounds, rule_variants, (max_states, max_memory) if optimal else None)
    if optimal:  # the solver's budget holds here too: the game is solved once, before sampling
        solved = kernel.engine.prepare(max_states, max_memory)
        _check_solver(solved["refused"], solved["states"], max_states, max_memory)
    counts = sampling.run_monte_carlo(kernel, n, seed_value, thread_count, options.progress, options.executor)
    joint = JointDistribution.from_counts(counts.reshape(a.wounds + 1, b.wounds + 1), names=_NAMES)
    return FightResult(
        wounds_a=joint.marginal(0),
        wounds_b=joint.marginal(1),
        joint=joint,
        method="monte_carlo",
        samples=n,
        start_wounds=(a.wounds, b.wounds),
        rounds=rounds,
        first=first,
        seed=seed_value,
        variants=rule_variants,
        fighters=_labels(a, b, plan),
    )


def fight_batch(
    fighters_a: Fighter | str | Mapping[str, Any] | Sequence[Fighter | str | Mapping[str, Any]],
    fighters_b: Fighter | str | Mapping[str, Any] | Sequence[Fighter | str | Mapping[str, Any]],
    first: str | Sequence[str] = "a",
    rounds: int | Sequence[int] = 1,
    *,
    method: str | Sequence[str] = "auto",
    samples: int | Sequence[int] = DEFAULT_SAMPLES,
    seed: int | None | Sequence[int | None] = None,
    threads: int | None | Sequence[int | None] = None,
    progress: Progress | None = None,
    executor: Executor | None = None,
    variants: Variants | Mapping[str, Any] | str | None | Sequence[Variants | Mapping[str, Any] | str | None] = None,
    max_states: int | Sequence[int] = MAX_SOLVER_STATES,
    max_memory: int | Sequence[int] = MAX_SOLVER_MEMORY,
) -> ResultBatch[FightResult]:
    """Many fights in one call: ``batch[i]`` equals ``kt.fight`` of the i-th item.

    Each argument is one value or a sequence (list, tuple, range or numpy array); sequences have the
    same length and single values are repeated to it. A fighter may also be given as its notation
    (``kt.Fighter.parse``) or a table of its fields. Every item that ``kt.fight`` would solve exactly (``method="exact"``, or ``"auto"`` within
    its budget) is solved in one C++ call with the GIL released, each distinct fight once; the
    others (and ``"auto"`` items the exact engine gives up on) run Monte Carlo one after the other,
    with ``progress`` and ``executor``. Seeds: a sequence gives each item its own; one seed (drawn
    when None) gives item i ``cell_seed(seed, i)`` (``mathhammer.core.sampling``), so every Monte
    Carlo item is ``kt.fight`` with ``seed=batch[i].seed``. An invalid item fails the whole call with
    an error naming it (``fighters_b[17].wounds: ...``).
    """
    arguments: dict[str, Any] = {
        "fighters_a": fighters_a, "fighters_b": fighters_b, "first": first, "rounds": rounds, "method": method,
        "samples": samples, "seed": seed, "threads": threads, "variants": variants, "max_states": max_states,
        "max_memory": max_memory,
    }
    size, items = broadcast(arguments)
    single = {name: not is_sequence(value) for name, value in arguments.items()}
    list_a = checked_items("fighters_a", items["fighters_a"], single,
                           _batch_fighter, "fighter")
    list_b = checked_items("fighters_b", items["fighters_b"], single,
                           _batch_fighter, "fighter")
    variant_list = checked_items("variants", items["variants"], single, Variants.resolve)
    firsts = checked_items("first", items["first"], single, lambda v: check_choice("first", v, SIDES))
    rounds_list = checked_items("rounds", items["rounds"], single,
                                lambda v: check_int("rounds", v, 1, FIGHT_ROUNDS_MAX))
    states_list = checked_items("max_states", items["max_states"], single,
                                lambda v: check_int("max_states", v, 1, SOLVER_STATES_LIMIT))
    memory_list = checked_items("max_memory", items["max_memory"], single,
                                lambda v: check_int("max_memory", v, 1, SOLVER_MEMORY_LIMIT))
    # the seed is checked on its own below: a sweep's cells each bring a different one
    option_list = per_item(items, ("method", "samples", "threads"), single,
                           lambda m, n, t: item_options(progress, executor, METHODS)(m, n, None, t))
    seeds = item_seeds(items["seed"], single["seed"])

    plans: list[FightPlan] = []
    known_pairs: dict[tuple[int, int], None] = {}  # (a, b) pairs already checked, by identity
    for i in range(size):
        a, b = list_a[i], list_b[i]
        if (id(a), id(b)) not in known_pairs:
            try:
                check_optimal_pair(a, b)
            except InputError as error:
                raise item_error(error, "fighters_b", i, single["fighters_a"] and single["fighters_b"]) from None
            known_pairs[(id(a), id(b))] = None
        plans.append(fight_plan(a, b, firsts[i], rounds_list[i], variant_list[i]))
    work_starts()

    # The exact items, as kt.fight decides them (its budgets, named per item under method="exact")
    limits: dict[int, float] = {}
    for i in range(size):
        plan, wanted = plans[i], option_list[i].method
        if wanted == "exact":
            try:
                if plan.estimate > EXACT_WORK_MAX:
                    raise InputError("method", f"the exact engine would need up to about {plan.estimate:,} "
                                     f"resolutions (at most {EXACT_WORK_MAX:,}); use method='monte_carlo' or 'auto'")
                if plan.seconds > EXACT_SECONDS_MAX:
                    raise InputError("method", f"the exact engine would take about {plan.seconds:.0f} s for this "
                                     f"fight (at most {EXACT_SECONDS_MAX:g} s); use method='monte_carlo' or 'auto'")
            except InputError as error:
                raise item_error(error, "method", i, single["method"]) from None
            limits[i] = 0.0 if plan.optimal else EXACT_UNITS_BACKSTOP
        elif wanted == "auto" and plan.estimate <= AUTO_ESTIMATE_MAX and plan.seconds <= EXACT_SECONDS_MAX:
            limits[i] = 0.0 if plan.optimal else EXACT_WORK_LIMIT
    # Fights of the same rules and dice, one after another: the decisions one works out are those the
    # next looks up, still in the processor's cache (in batch order, from a table of megabytes, most
    # lookups miss it). Items are independent, so their order changes no number.
    exact = sorted(limits, key=lambda i: _locality(list_a[i], list_b[i], plans[i]))
    # one C++ item per distinct fight and bounds: the batch solves each of them once
    made: dict[tuple[int, float, int, int], Any] = {}
    configs = []
    for i in exact:
        key = (id(plans[i]), limits[i], states_list[i], memory_list[i])
        config = made.get(key)
        if config is None:
            plan = plans[i]
            config = made[key] = _kt.fight_exact_item(plan.spec, plan.dice_a, plan.dice_b, rounds_list[i], limits[i],
                                                      states_list[i], memory_list[i], plan.injured_a, plan.injured_b)
        configs.append(config)
    resolved = _kt.fight_exact_batch(configs) if configs else None
    position: dict[int, int] = {}
    for k, i in sorted(enumerate(exact), key=lambda pair: pair[1]):  # the first failing item is named
        assert resolved is not None
        pmf, refused, solver_states = resolved[k]
        try:
            _check_solver(refused, solver_states, states_list[i], memory_list[i])
        except InputError as error:
            raise item_error(error, error.field, i, single[error.field]) from None
        if pmf is not None:
            position[i] = k
        elif option_list[i].method == "exact":
            gave_up = InputError("method", f"the exact engine passed {limits[i]:,.0f} units of work, far more "
                                 f"than its estimate; use method='monte_carlo' or 'auto'")
            raise item_error(gave_up, "method", i, single["method"])
    sampled = {i: fight(list_a[i], list_b[i], firsts[i], rounds_list[i], method="monte_carlo",
                        samples=option_list[i].samples, seed=seeds(i), threads=option_list[i].threads,
                        progress=progress, executor=executor, variants=variant_list[i], max_states=states_list[i],
                        max_memory=memory_list[i])
               for i in range(size) if i not in position}

    def build(i: int) -> FightResult:
        found = sampled.get(i)
        if found is not None:
            return found
        assert resolved is not None  # i is an exact item
        pmf = resolved[position[i]][0]
        assert pmf is not None  # position holds the items the exact engine solved
        a, b = list_a[i], list_b[i]
        return FightResult._exact(JointDistribution._adopt(pmf, _NAMES), (a.wounds, b.wounds), rounds_list[i],
                                  firsts[i], variant_list[i], _labels(a, b, plans[i]))

    return ResultBatch(size, build)


def _locality(a: Fighter, b: Fighter, plan: FightPlan) -> tuple[Any, ...]:
    # fighter_dice's tables are cached: one object per distinct dice
    return (a.damage, b.damage, a.strategy, b.strategy, id(plan.dice_a), id(plan.dice_b), plan.spec.first, a.wounds,
            b.wounds)


def _check_dice(field: str, value: Any, fighter: Fighter) -> tuple[int, int]:
    if not isinstance(value, (tuple, list)) or len(value) != 2:
        raise InputTypeError(field, f"expected retained dice (crits, norms) such as (1, 2), got {excerpt(value)}")
    crits = check_int(f"{field}.crits", value[0], 0, fighter.attacks)
    norms = check_int(f"{field}.norms", value[1], 0, fighter.attacks)
    if crits + norms > fighter.attacks:
        raise InputError(field, f"{crits} crits + {norms} norms is more than the fighter's {fighter.attacks} attacks")
    return crits, norms


class RoundInputs(NamedTuple):
    """The checked inputs of one round from fixed retained dice (:func:`round_inputs`)."""

    a: Fighter
    b: Fighter
    dice_a: tuple[int, int]
    dice_b: tuple[int, int]
    first: str
    wounds_a: int
    wounds_b: int
    variants: Variants


def round_inputs(a: Any, b: Any, dice_a: Any, dice_b: Any, first: Any, wounds_a: Any, wounds_b: Any,
                 variants: Any) -> RoundInputs:
    """Check what a round from fixed retained dice is given (kt.resolve_fight, kt.advise): the
    fighters, their dice, who strikes first and the starting wounds (the fighters' own when None)."""
    rule_variants = Variants.resolve(variants)
    a = _check_fighter("a", a)
    b = _check_fighter("b", b)
    check_optimal_pair(a, b)
    da = _check_dice("dice_a", dice_a, a)
    db = _check_dice("dice_b", dice_b, b)
    first = check_choice("first", first, SIDES)
    wa = a.wounds if wounds_a is None else check_int("wounds_a", wounds_a, 1, MAX_WOUNDS)
    wb = b.wounds if wounds_b is None else check_int("wounds_b", wounds_b, 1, MAX_WOUNDS)
    return RoundInputs(a, b, da, db, first, wa, wb, rule_variants)


def resolve_fight(
    a: Fighter | str,
    b: Fighter | str,
    dice_a: tuple[int, int],
    dice_b: tuple[int, int],
    first: str = "a",
    wounds_a: int | None = None,
    wounds_b: int | None = None,
    *,
    seed: int | None = None,
    variants: Variants | Mapping[str, Any] | str | None = None,
) -> FightLog:
    """Resolve one round from fixed retained dice ``(crits, norms)`` and log every step.

    ``wounds_a`` / ``wounds_b`` override the fighters' starting wounds. Feel No Pain and Saintly
    Relics dice, if the fighters have them, are rolled from ``seed`` (None: a random seed), and so
    are the decisions they make a chance with ``lookahead="rolled"`` (docs/rules/killteam.md §3.6).
    An optimal fighter plays as in a one-round fight.
    """
    a, b, da, db, first, wa, wb, rule_variants = round_inputs(a, b, dice_a, dice_b, first, wounds_a, wounds_b,
                                                              variants)
    seed_value = engine_options(seed=seed).draw_seed()  # used only by Feel No Pain / relic rolls (and rolled lines)
    spec = fight_spec(a, b, first, wa, wb, rule_variants)
    end_a, end_b, actions, relic_uses = _kt.resolve_fight(spec, da[0], da[1], db[0], db[1], wa, wb, seed_value)
    return FightLog(
        wounds_a=int(end_a),
        wounds_b=int(end_b),
        actions=tuple((str(s), str(k), int(v)) for s, k, v in actions),
        dice_a=da,
        dice_b=db,
        first=first,
        relic_uses=(int(relic_uses[0]), int(relic_uses[1])),
        seed=seed_value,
        variants=rule_variants,
    )
