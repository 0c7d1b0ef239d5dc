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
import threading
from collections import OrderedDict
from collections.abc import Mapping
from concurrent.futures import Executor
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from mathhammer import _core, sampling
from mathhammer._validate import InputError, InputTypeError, check_choice, check_int
from mathhammer.killteam.attack_dice import attack_distribution, attack_profile
from mathhammer.killteam.profiles import MAX_WOUNDS, Fighter
from mathhammer.killteam.variants import Variants
from mathhammer.options import engine_options
from mathhammer.results import (
    Distribution,
    EngineResult,
    Figure,
    JointDistribution,
    ResultMixin,
    mean_stderr,
    probability_stderr,
)

_kt = _core.killteam

SIDES: tuple[str, str] = ("a", "b")
METHODS: tuple[str, ...] = ("auto", "exact", "monte_carlo")
MAX_ROUNDS = 3
#: ``method="auto"`` uses the exact engine when its work stays within this many resolutions (a
#: resolution: one round start x one pair of retained dice; eight chance states worked out or carried
#: forward, or eight states worked out by the lookahead, count as one more). Past it, Monte Carlo.
EXACT_WORK_LIMIT = 200_000
#: ``method="auto"`` does not even try the exact engine when :func:`exact_work` estimates more.
AUTO_ESTIMATE_MAX = 20_000_000
#: ``method="exact"`` refuses estimates above this many resolutions (use Monte Carlo instead).
EXACT_WORK_MAX = 1_000_000_000
#: Seconds :func:`exact_seconds` charges for one resolution without chance effects (measured on a
#: loaded core of the development machine: heuristic fights of 8 dice, 30 wounds, 2 rounds).
SECONDS_PER_RESOLUTION = 2e-6
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


@dataclass(frozen=True)
class FightResult(EngineResult):
    """The wounds both fighters have left after the fight.

    ``wounds_a.pmf[w]`` is P(fighter A ends on w wounds); ``joint.pmf[wa, wb]`` the joint
    probability. Exact results have ``samples is None``; Monte Carlo ones carry the sample count,
    and ``stderr`` gives the standard errors of the headline numbers.
    """

    wounds_a: Distribution
    wounds_b: Distribution
    joint: JointDistribution
    method: str
    samples: int | None
    start_wounds: tuple[int, int]
    rounds: int
    first: str
    seed: int | None = None
    variants: Variants = Variants()
    fighters: tuple[str, str] = ("", "")

    @classmethod
    def _exact(cls, joint: JointDistribution, start_wounds: tuple[int, int], rounds: int, first: str,
               variants: Variants, fighters: tuple[str, str]) -> FightResult:
        """An exact result whose marginals ``wounds_a`` / ``wounds_b`` are summed from ``joint`` only
        when first read (a caller that wants one figure does not pay for both)."""
        self = cls.__new__(cls)
        for name, value in (("joint", joint), ("method", "exact"), ("samples", None), ("start_wounds", start_wounds),
                            ("rounds", rounds), ("first", first), ("seed", None), ("variants", variants),
                            ("fighters", fighters)):
            object.__setattr__(self, name, value)
        return self

    if not TYPE_CHECKING:  # hidden from type checkers: a typo in a field name stays an error there
        def __getattr__(self, name: str) -> Any:
            # Only reached for an attribute not set yet: the marginals of a result built by _exact.
            axis = _LAZY_MARGINALS.get(name)
            joint = self.__dict__.get("joint")
            if axis is None or joint is None:
                raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")
            value = joint.marginal(axis)
            object.__setattr__(self, name, value)
            return value

    def _side(self, side: str) -> int:
        return SIDES.index(check_choice("side", side, SIDES))

    def wounds(self, side: str) -> Distribution:
        """The distribution of the wounds ``side`` ("a" or "b") has left."""
        return (self.wounds_a, self.wounds_b)[self._side(side)]

    def death_chance(self, side: str) -> float:
        """P(``side`` ends the fight incapacitated, on 0 wounds)."""
        return self.wounds(side).prob(0)

    def mean_damage_taken(self, side: str) -> float:
        """The mean number of wounds ``side`` loses."""
        return self.start_wounds[self._side(side)] - self.wounds(side).mean

    @property
    def death_chance_a(self) -> float:
        return self.death_chance("a")

    @property
    def death_chance_b(self) -> float:
        return self.death_chance("b")

    @property
    def mean_damage_taken_a(self) -> float:
        return self.mean_damage_taken("a")

    @property
    def mean_damage_taken_b(self) -> float:
        return self.mean_damage_taken("b")

    def _figures(self) -> dict[str, Figure]:
        n = self.samples
        out: dict[str, Figure] = {}
        for side, dist in zip(SIDES, (self.wounds_a, self.wounds_b)):
            out[f"death_chance_{side}"] = (dist.prob(0), probability_stderr(dist.prob(0), n))
        for side, dist in zip(SIDES, (self.wounds_a, self.wounds_b)):
            out[f"mean_wounds_{side}"] = (dist.mean, mean_stderr(dist, n))
        for side, dist in zip(SIDES, (self.wounds_a, self.wounds_b)):
            out[f"mean_damage_taken_{side}"] = (self.mean_damage_taken(side), mean_stderr(dist, n))
        return out

    def plot_series(self) -> tuple[list[tuple[str, Distribution]], str, str]:
        names = [f"{side.upper()}: {name}" if name else side.upper() for side, name in zip(SIDES, self.fighters)]
        return [(names[0], self.wounds_a), (names[1], self.wounds_b)], "wounds left", self._title()

    def plot_joint(self) -> tuple[JointDistribution, tuple[str, str], str] | None:
        labels = tuple(f"wounds left, {side.upper()}" + (f" ({name})" if name else "")
                       for side, name in zip(SIDES, self.fighters))
        return self.joint, (labels[0], labels[1]), self._title()

    def _title(self) -> str:
        rounds = f"{self.rounds} round{'s' if self.rounds > 1 else ''}"
        how = "exact" if self.samples is None else f"Monte Carlo, {self.samples:,} samples"
        return f"Kill Team fight, {rounds}, {self.first.upper()} first ({how})"

    def to_frame(self) -> Any:
        """One row per wounds value: P(A ends on it), P(B ends on it)."""
        import pandas as pd

        size = max(self.wounds_a.pmf.size, self.wounds_b.pmf.size)
        pa = np.zeros(size)
        pb = np.zeros(size)
        pa[: self.wounds_a.pmf.size] = self.wounds_a.pmf
        pb[: self.wounds_b.pmf.size] = self.wounds_b.pmf
        return pd.DataFrame({"wounds": np.arange(size), "p_a": pa, "p_b": pb})


_LAZY_MARGINALS: dict[str, int] = {"wounds_a": 0, "wounds_b": 1}
_NAMES: tuple[str, str] = ("wounds_a", "wounds_b")


@dataclass(frozen=True)
class FightLog(ResultMixin):
    """One round from fixed retained dice, step by step.

    ``actions`` holds ``(side, kind, value)`` steps in order. Kinds: ``crit_strike`` /
    ``norm_strike`` (value: damage inflicted), ``crit_parry`` / ``norm_parry`` and
    ``duelist_crit_parry`` / ``duelist_norm_parry`` (value: enemy successes cancelled), ``pass``,
    ``shock_discard_norm`` / ``shock_discard_crit``, ``murderous_entrance_strike`` (the bonus
    strike of the same crit strike action; value: damage), and the defender's ``feel_no_pain``
    (damage saved) and ``saintly_relics`` (damage ignored), logged right after the strike they act on
    (the strike's value is the damage that got through).
    """

    wounds_a: int
    wounds_b: int
    actions: tuple[tuple[str, str, int], ...]
    dice_a: tuple[int, int]
    dice_b: tuple[int, int]
    first: str
    relic_uses: tuple[int, int]
    seed: int | None = None
    variants: Variants = Variants()

    def to_frame(self) -> Any:
        import pandas as pd

        return pd.DataFrame(list(self.actions), columns=["side", "kind", "value"])


def _check_fighter(field: str, value: Any) -> Fighter:
    if not isinstance(value, Fighter):
        raise InputTypeError(field, f"expected a kt.Fighter, got {type(value).__name__}")
    return value


def _fighter_spec(f: Fighter, wounds: int | None = None) -> Any:
    s = _kt.FighterSpec()
    s.wounds = f.wounds if wounds is None else wounds
    s.normal_damage, s.critical_damage = f.damage
    s.strategy = getattr(_kt.Strategy, f.strategy)
    s.objective = getattr(_kt.Objective, f.objective or "trade")
    s.brutal = f.rules.brutal
    s.shock = f.rules.shock
    ab = f.abilities
    s.storm_shield = ab.storm_shield
    s.dueller = ab.dueller
    s.duelist = ab.duelist
    s.hammerhand = ab.hammerhand
    s.just_a_scratch = ab.just_a_scratch
    s.just_a_scratch_normals = ab.just_a_scratch_normals
    s.half_damage_first_strike = ab.half_damage_first_strike
    s.durable = ab.durable
    s.murderous_entrance = ab.murderous_entrance
    s.feel_no_pain = ab.feel_no_pain or 0
    s.saintly_relics = ab.saintly_relics
    return s


#: Objectives two optimal fighters may share: exact opposites, so the game is zero-sum (docs/rules/killteam.md §7).
ZERO_SUM_OBJECTIVES: tuple[str, ...] = ("trade", "net")


def check_optimal_pair(a: Fighter, b: Fighter) -> None:
    """Two optimal fighters must share the objective "trade" or "net" (zero-sum minimax on A's)."""
    if a.strategy == "optimal" and b.strategy == "optimal":
        if a.objective != b.objective or a.objective not in ZERO_SUM_OBJECTIVES:
            raise InputError("objective", f"two optimal fighters must share the objective 'trade' or 'net' (the "
                             f"game is then zero-sum); got a: {a.objective!r}, b: {b.objective!r}")


def fight_spec(a: Fighter, b: Fighter, first: str = "a", wounds_a: int | None = None, wounds_b: int | None = None,
               variants: Variants | None = None) -> Any:
    """The C++ FightSpec of a fight between validated fighters, with the fight's rule switches."""
    rule_variants = Variants.resolve(variants)
    spec = _kt.FightSpec()
    spec.fighter_a = _fighter_spec(a, wounds_a)
    spec.fighter_b = _fighter_spec(b, wounds_b)
    spec.first = SIDES.index(first)
    spec.shock = getattr(_kt.ShockRule, rule_variants.shock)
    spec.lethal_test = getattr(_kt.LethalTest, rule_variants.lethal_test)
    spec.duelist = getattr(_kt.DuelistRule, rule_variants.duelist)
    spec.durable = getattr(_kt.DurableRule, rule_variants.durable)
    return spec


def fighter_dice(f: Fighter, variants: Variants | None = None) -> Any:
    """The exact retained-dice table of a fighter (Mystic Scry scores without Devastating in a fight)."""
    return _fighter_dice(f, Variants.resolve(variants))


@functools.lru_cache(maxsize=4096)
def _fighter_dice(f: Fighter, variants: Variants) -> Any:
    # Fighters and variants are frozen and hashable, and the table is read-only: one fight asks for
    # it several times (the work estimates, then the engine), a sweep for the same fighters often.
    return attack_distribution(f, variants=variants, devastating=0)


def fighter_profile(f: Fighter, variants: Variants | None = None) -> Any:
    """The C++ AttackProfile a fighter rolls."""
    return attack_profile(f, variants=variants, devastating=0)


def _max_damage_per_round(f: Fighter) -> int:
    # every die striking for the larger damage, Hammerhand's +1 and Half Damage's minimum 2 included
    return f.attacks * (max(f.damage[0], f.damage[1], 2) + 1)


def exact_work(a: Fighter, b: Fighter, rounds: int, variants: Variants | None = None) -> int:
    """An upper estimate of the exact engine's work, in resolutions, known before running it.

    (pairs of retained-dice outcomes with non-zero probability) x (chance branches per pair:
    1 + the strikes a fighter with Feel No Pain can receive; x 2 for Saintly Relics) x (round
    starts: 1 for the first round, and for each later round an upper bound on the reachable
    wounds (and relic uses)).
    """
    pairs = int(np.count_nonzero(fighter_dice(a, variants))) * int(np.count_nonzero(fighter_dice(b, variants)))
    branches = 1
    for me, enemy in ((a, b), (b, a)):
        if me.abilities.feel_no_pain is not None:
            branches *= 1 + enemy.attacks
        if me.abilities.saintly_relics:
            branches *= 2
    starts = 1
    for r in range(2, rounds + 1):
        reach_a = min(a.wounds + 1, 1 + (r - 1) * _max_damage_per_round(b))
        reach_b = min(b.wounds + 1, 1 + (r - 1) * _max_damage_per_round(a))
        relic_states = 1
        for f in (a, b):
            if f.abilities.saintly_relics:
                relic_states *= min(r - 1, 2) + 1
        starts += reach_a * reach_b * relic_states
    return pairs * branches * starts


def _check_solver(refused: float, states: float, max_states: int, max_memory: int) -> None:
    """Refuses a fight whose optimal solver passed its budget (refused: 1 states, 2 bytes)."""
    if refused == 1:
        raise InputError("max_states", f"the optimal solver needs more than {max_states:,} game states for this "
                         f"fight; raise max_states= (and max_memory=) to solve it, or use fewer rounds or dice")
    if refused == 2:
        raise InputError("max_memory", f"the optimal solver needs more than {max_memory:,} bytes for this fight "
                         f"(it had valued {states:,.0f} states); raise max_memory= to solve it")


def _chance_cost(me: Fighter, enemy: Fighter) -> float:
    # What one fighter's chance effects multiply a resolution's cost by, measured: Feel No Pain
    # branches on every strike received, so it grows with the enemy's dice; relic rolls merge more.
    cost = 1.0
    if me.abilities.feel_no_pain is not None:
        cost = 1.0 + enemy.attacks / 2
    if me.abilities.saintly_relics:
        cost = 3.0 if cost == 1.0 else 1.5 * cost
    return cost


def exact_seconds(a: Fighter, b: Fighter, rounds: int, variants: Variants | None = None) -> float:
    """About how long the exact engine takes for this fight on one core.

    (pairs of retained dice) x (round starts, as in :func:`exact_work`), each charged
    ``SECONDS_PER_RESOLUTION``; with Feel No Pain or relics the chance states carried forward
    multiply a first-round resolution's cost (:func:`_chance_cost` of both fighters) and a later
    round's by an eighth of that (fewer wounds are left to branch on, and cached lookaheads are
    reused), never less than 1. Measured on fights of 4 to 12 dice with Feel No Pain, 1D6 / 2D6
    relics and both: over 2 or 3 rounds the real time was between a fiftieth and about half of this
    (relic fights' rounds are worked out once per state). It does not count the lookahead's
    decisions, so one round of 8 to 12 dice, mostly decisions, took up to 3.6 times this.
    """
    pairs = int(np.count_nonzero(fighter_dice(a, variants))) * int(np.count_nonzero(fighter_dice(b, variants)))
    later = exact_work(a, b, rounds, variants) // (exact_work(a, b, 1, variants) or 1) - 1  # round starts after the first
    chance = _chance_cost(a, b) * _chance_cost(b, a)
    if chance == 1.0:
        return SECONDS_PER_RESOLUTION * pairs * (1 + later)
    return SECONDS_PER_RESOLUTION * pairs * (chance + later * max(1.0, chance / 8))


#: ``method="exact"`` work that :func:`exact_seconds` puts below this runs on the calling thread (the
#: GIL released): a helper thread costs more than such a fight, and Ctrl-C waits at most this long.
ON_CALLER_SECONDS = 0.01


@dataclass(frozen=True)
class _Plan:
    """What a fight's inputs decide before any engine runs: kept per (fighters, first, rounds, variants)."""

    spec: Any  # the C++ FightSpec (shared: never modified)
    dice_a: Any
    dice_b: Any
    estimate: int
    seconds: float
    optimal: bool
    fighters: tuple[str, str]


@functools.lru_cache(maxsize=4096)
def _plan(a: Fighter, b: Fighter, first: str, rounds: int, variants: Variants) -> _Plan:
    # Fighters and variants are frozen and hashable: a sweep or a repeated fight builds these once.
    optimal = "optimal" in (a.strategy, b.strategy)
    # With an optimal fighter the solver's budget bounds the work instead (it dominates).
    seconds = 0.0 if optimal else exact_seconds(a, b, rounds, variants)
    return _Plan(spec=fight_spec(a, b, first, variants=variants), dice_a=fighter_dice(a, variants),
                 dice_b=fighter_dice(b, variants), estimate=exact_work(a, b, rounds, variants), seconds=seconds,
                 optimal=optimal, fighters=(str(a), str(b)))


#: Monte Carlo engines kept between calls, for fights without an optimal fighter (the solver's budget
#: is checked as it solves): an engine keeps its workspaces and its Feel No Pain / relic chance
#: graph. What they hold is deterministic (the same dice give the same fight, cold or warm), so a
#: repeated fight gives the same numbers without working them out again. Keyed by the plan and the
#: process: a forked child never uses its parent's engines (their locks may be held by a thread the
#: child does not have).
_ENGINES: OrderedDict[tuple[int, int], tuple[_Plan, Any]] = OrderedDict()
_KEPT_ENGINES = 4
_ENGINES_LOCK = threading.Lock()


def _monte_carlo_engine(plan: _Plan, a: Fighter, b: Fighter, rounds: int, variants: Variants) -> Any:
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


def fight(
    a: Fighter,
    b: Fighter,
    first: str = "a",
    rounds: int = 1,
    *,
    method: str = "auto",
    samples: int = 1_000_000,
    seed: int | None = None,
    threads: int | None = None,
    progress: sampling.Progress | None = None,
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
    rounds = check_int("rounds", rounds, 1, MAX_ROUNDS)
    max_states = check_int("max_states", max_states, 1, SOLVER_STATES_LIMIT)
    max_memory = check_int("max_memory", max_memory, 1, SOLVER_MEMORY_LIMIT)
    plan = _plan(a, b, first, rounds, rule_variants)
    estimate, seconds, optimal = plan.estimate, plan.seconds, plan.optimal
    if method == "exact" and estimate > EXACT_WORK_MAX:
        raise InputError("method", f"the exact engine would need up to about {estimate:,} resolutions (at most "
                         f"{EXACT_WORK_MAX:,}); use method='monte_carlo' or 'auto'")
    if method == "exact" and seconds > EXACT_SECONDS_MAX:
        raise InputError("method", f"the exact engine would take about {seconds:.0f} s for this fight (at most "
                         f"{EXACT_SECONDS_MAX:g} s); use method='monte_carlo' or 'auto'")
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
    counts = sampling.run_monte_carlo(engine.counts, n, seed_value, thread_count, options.progress,
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
        raise InputTypeError(field, f"expected retained dice (crits, norms) such as (1, 2), got {value!r}")
    crits = check_int(f"{field}.crits", value[0], 0, fighter.attacks)
    norms = check_int(f"{field}.norms", value[1], 0, fighter.attacks)
    if crits + norms > fighter.attacks:
        raise InputError(field, f"{crits} crits + {norms} norms is more than the fighter's {fighter.attacks} attacks")
    return crits, norms


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
    rule_variants = Variants.resolve(variants)
    a = _check_fighter("a", a)
    b = _check_fighter("b", b)
    check_optimal_pair(a, b)
    da = _check_dice("dice_a", dice_a, a)
    db = _check_dice("dice_b", dice_b, b)
    first = check_choice("first", first, SIDES)
    wa = a.wounds if wounds_a is None else check_int("wounds_a", wounds_a, 1, MAX_WOUNDS)
    wb = b.wounds if wounds_b is None else check_int("wounds_b", wounds_b, 1, MAX_WOUNDS)
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
