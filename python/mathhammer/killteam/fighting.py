"""Kill Team 2024 fights (docs/rules/killteam.md §3): distributions of the wounds both fighters have left.

>>> from mathhammer import killteam as kt
>>> a = kt.Fighter(attacks=4, hit=3, damage=(3, 4), wounds=12)
>>> r = kt.fight(a, a)
>>> r.method, round(r.death_chance("a"), 4), round(r.death_chance("b"), 4)
('exact', 0.1653, 0.1986)

The resolution itself (strikes, parries, abilities, decisions) is C++; both engines call it.
"""

from __future__ import annotations

import os
import pickle
import threading
from collections import OrderedDict
from collections.abc import Mapping
from concurrent.futures import Executor
from typing import Any, NamedTuple

from mathhammer import _core
from mathhammer.core import sampling
from mathhammer.core.checks import check_choice, check_int
from mathhammer.core.distributions import JointDistribution
from mathhammer.core.options import DEFAULT_SAMPLES, METHODS, Progress, engine_options, work_starts
from mathhammer.errors import InputError, InputTypeError
from mathhammer.killteam.plan import FIGHT_ROUNDS_MAX, FightPlan, check_optimal_pair, fight_plan, fight_spec, fighter_profile
from mathhammer.killteam.profiles import MAX_WOUNDS, Fighter
from mathhammer.killteam.results import SIDES, FightLog, FightResult
from mathhammer.killteam.variants import Variants
from mathhammer.core.guard import excerpt

__all__ = ["FightLog", "FightResult", "fight", "resolve_fight"]

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
    if not isinstance(value, Fighter):
        raise InputTypeError(field, f"expected a kt.Fighter, got {type(value).__name__}")
    return value


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
_ENGINES: OrderedDict[tuple[int, int], tuple[FightPlan, Any]] = OrderedDict()

_KEPT_ENGINES = 4

_ENGINES_LOCK = threading.Lock()


def _monte_carlo_engine(plan: FightPlan, a: Fighter, b: Fighter, rounds: int, variants: Variants) -> Any:
    key = (id(plan), os.getpid())
    if not plan.optimal:
        with _ENGINES_LOCK:
            found = _ENGINES.get(key)
            if found is not None and found[0] is plan:  # the entry holds its plan, so the id is its own
                _ENGINES.move_to_end(key)
                return found[1]
    engine = _kt.FightMonteCarlo(plan.spec, fighter_profile(a, variants), fighter_profile(b, variants), rounds)
    if not plan.optimal:
        with _ENGINES_LOCK:
            _ENGINES[key] = (plan, engine)
            while len(_ENGINES) > _KEPT_ENGINES:
                _ENGINES.popitem(last=False)
    return engine


class FightKernel:
    """kt.fight's Monte Carlo kernel: counts for chunks of a run (core.sampling's Kernel).

    The C++ engine does not pickle (it may hold a solved game), so the kernel pickles as what built
    it: the fight's spec, both fighters' dice, the rounds and, for an optimal fighter, the solver's
    budget. A process pool's or Dask's worker rebuilds the engine from that once per process
    (``_rebuilt``), solving an optimal fighter's game there once too.
    """

    __slots__ = ("_engine", "_inputs")

    def __init__(self, engine: Any, inputs: tuple[Any, ...]) -> None:
        self._engine = engine
        self._inputs = inputs

    def __call__(self, seed: int, total: int, chunk_begin: int, chunk_end: int, threads: int) -> Any:
        return self._engine.counts(seed, total, chunk_begin, chunk_end, threads)

    def __reduce__(self) -> tuple[Any, ...]:
        return _rebuilt, (self._inputs,)


_REBUILT: OrderedDict[bytes, FightKernel] = OrderedDict()
_REBUILT_LOCK = threading.Lock()


def _rebuilt(inputs: tuple[Any, ...]) -> FightKernel:
    """The kernel of ``inputs`` in this process (kept: every batch of a run arrives pickled)."""
    key = pickle.dumps(inputs)
    with _REBUILT_LOCK:
        found = _REBUILT.get(key)
        if found is not None:
            _REBUILT.move_to_end(key)
            return found
    spec, dice_a, dice_b, rounds, budget = inputs
    engine = _kt.FightMonteCarlo(spec, dice_a, dice_b, rounds)
    if budget is not None:
        engine.prepare(*budget)
    kernel = FightKernel(engine, inputs)
    with _REBUILT_LOCK:
        _REBUILT[key] = kernel
        while len(_REBUILT) > _KEPT_ENGINES:
            _REBUILT.popitem(last=False)
    return kernel


def fight(
    a: Fighter,
    b: Fighter,
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

    Each round both fighters roll their attack dice, then resolve them one die per turn starting
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
                                                      max_memory, on_caller)
        _check_solver(refused, states, max_states, max_memory)
        if pmf is not None:
            return FightResult._exact(JointDistribution._adopt(pmf, _NAMES), (a.wounds, b.wounds), rounds, first,
                                      rule_variants, plan.fighters)
        if method == "exact":
            raise InputError("method", f"the exact engine passed {limit:,.0f} units of work, far more than its "
                             f"estimate; use method='monte_carlo' or 'auto'")
    n = options.samples
    seed_value = options.draw_seed()
    thread_count = sampling.resolve_threads(options.threads)
    engine = _monte_carlo_engine(plan, a, b, rounds, rule_variants)
    if optimal:  # the solver's budget holds here too: the game is solved once, before sampling
        solved = engine.prepare(max_states, max_memory)
        _check_solver(solved["refused"], solved["states"], max_states, max_memory)
    inputs = (plan.spec, fighter_profile(a, rule_variants), fighter_profile(b, rule_variants), rounds,
              (max_states, max_memory) if optimal else None)
    counts = sampling.run_monte_carlo(FightKernel(engine, inputs), n, seed_value, thread_count, options.progress,
                                      options.executor)
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
        fighters=plan.fighters,
    )


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
    a: Fighter,
    b: Fighter,
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
    Relics dice, if the fighters have them, are rolled from ``seed`` (None: a random seed). An
    optimal fighter plays as in a one-round fight.
    """
    a, b, da, db, first, wa, wb, rule_variants = round_inputs(a, b, dice_a, dice_b, first, wounds_a, wounds_b,
                                                              variants)
    seed_value = engine_options(seed=seed).draw_seed()  # used only by Feel No Pain / relic rolls
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
