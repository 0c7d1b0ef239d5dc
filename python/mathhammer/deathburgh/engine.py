"""One side's pool and one combat, exact or Monte Carlo (docs/rules/deathburgh.md §2, §4, §7)."""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import Executor
from typing import Any, TypeVar

import numpy as np

from mathhammer import _core
from mathhammer.core.batches import ResultBatch, broadcast, checked_items, is_sequence, item_error, item_options, item_seeds, per_item
from mathhammer.core.checks import check_choice, check_int, check_stat
from mathhammer.errors import InputError, InputTypeError
from mathhammer.deathburgh.profiles import MAX_BONUS, MAX_DICE, REROLLS, Miniature, Side, as_miniature
from mathhammer.deathburgh.report import side_heading, side_line
from mathhammer.deathburgh.results import CombatResult
from mathhammer.deathburgh.plan import CombatPlan, plan_combat, plan_pool
from mathhammer.deathburgh.variants import Variants
from mathhammer.core.options import DEFAULT_SAMPLES, METHODS, Progress, engine_options, work_starts
from mathhammer.core.variants import check_switches
from mathhammer.core.distributions import Distribution
from mathhammer.core.sampling import resolve_threads, run_monte_carlo
from mathhammer.core.guard import excerpt

__all__ = ["METHODS", "combat", "combat_batch", "pool"]

_cpp = _core.deathburgh

# planned combats kept by value: enough for a sweep over many thousand different combats (a plan and
# its spec are a few hundred bytes)
_CACHED_COMBATS = 32_768

F = TypeVar("F", bound=Callable[..., Any])


def known_keywords(function: F) -> F:
    """Refuse unknown keyword arguments with a message listing the known ones."""
    known = [
        name for name, p in inspect.signature(function).parameters.items()
        if p.kind in (p.KEYWORD_ONLY, p.POSITIONAL_OR_KEYWORD)
    ]

    @functools.wraps(function)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        unknown = [k for k in kwargs if k not in known]
        if unknown:
            raise InputTypeError(unknown[0], f"unknown keyword; known: {', '.join(known)}")
        return function(*args, **kwargs)

    return wrapper  # type: ignore[return-value]


@known_keywords
def pool(
    dice: int,
    target: int | str,
    instant6: int = 0,
    instant1: int = 0,
    extra_dice: int = 0,
    reroll: str = "none",
    *,
    bonus_dice: str | None = None,
    souls_dice: int = 0,
    souls: str | None = None,
    souls_limit: int | None = None,
    variants: Variants | Mapping[str, Any] | str | None = None,
) -> Distribution:
    """Exact distribution of one side's successes (docs/rules/deathburgh.md §2).

    ``dice`` mode dice at ``target`` (2..6), ``extra_dice`` more rolled dice, ``instant6`` instant 6!
    (each worth 2; with ``bonus_dice="add"`` each adds a die instead of replacing one), ``instant1``
    instant 1! (1! wins conflicts), ``souls_dice`` Soul's Dice (converted into 6!, or added with
    ``souls="add"``), ``reroll`` of failed rolled dice: ``"none"``, ``"all_fails"``, ``"one_fail"``.
    ``bonus_dice``, ``souls`` and ``souls_limit`` are switches of :class:`Variants` (defaults
    "replace", "convert", 1): give them as keywords or in ``variants=``, not both.

    >>> pool(2, 4, reroll="all_fails").mean
    2.0
    """
    rules = check_switches(Variants, variants, {"bonus_dice": bonus_dice, "souls": souls, "souls_limit": souls_limit})
    plan = plan_pool(
        "",
        check_int("dice", dice, 0, MAX_DICE),
        check_stat("target", target),
        check_int("instant6", instant6, 0, MAX_BONUS),
        check_int("souls_dice", souls_dice, 0, MAX_BONUS),
        check_int("instant1", instant1, 0, MAX_BONUS),
        check_int("extra_dice", extra_dice, 0, MAX_DICE),
        check_choice("reroll", reroll, REROLLS),
        rules,
    )
    return Distribution(_cpp.pool_pmf(plan.spec()))


def as_side(field: str, value: Side | Miniature | str | Mapping[str, Any]) -> Side:
    """A Side from a Side; a Miniature, an example name or notation (Aggressive, no options); or a
    dict of Side fields (its ``mini`` may be any of those too)."""
    if isinstance(value, Side):
        return value
    if isinstance(value, (Miniature, str)):
        return Side(as_miniature(field, value))
    if isinstance(value, Mapping):
        try:
            return Side.from_dict(value)
        except InputError as error:
            raise InputError(f"{field}.{error.field}", str(error).split(": ", 1)[1]) from error
    raise InputTypeError(field, f"expected a Side, a Miniature, an example name or a profile, got {excerpt(value)}")


@known_keywords
def combat(
    attacker: Side | Miniature | str,
    defender: Side | Miniature | str,
    reaction: str = "attack",
    *,
    edition: str | None = None,
    bonus_dice: str | None = None,
    souls: str | None = None,
    souls_limit: int | None = None,
    draw: str | None = None,
    draw_in_dodge: bool | None = None,
    cap_wounds_at_dice: bool | None = None,
    support_stacking: str | None = None,
    stand_and_shoot: bool = False,
    method: str = "auto",
    samples: int = DEFAULT_SAMPLES,
    seed: int | None = None,
    threads: int | None = None,
    progress: Progress | None = None,
    executor: Executor | None = None,
    variants: Variants | Mapping[str, Any] | str | None = None,
) -> CombatResult:
    """Resolve one combat: the joint law of the wounds each side inflicts, and what follows from it.

    ``attacker`` / ``defender``: a :class:`Side` (or a :class:`Miniature`, an example name or a
    profile like ``"A 4/4+ D 4/4+ W 3"``, meaning Aggressive with no options; or a dict of Side fields). ``reaction``: ``"attack"`` (opposed attacks; the web edition wounds with all successes
    both ways, the alpha edition with the difference), ``"dodge"`` (each dodge success parries one
    attack success; web: excess parries wound the attacker when the roles match), or ``"none"``.
    The switches are those of :class:`Variants` (as keywords, defaults as there, or as ``variants=``,
    not both) plus ``stand_and_shoot`` (a charged ranged defender shoots back as in melee).
    ``method``: ``"exact"``, ``"monte_carlo"`` or ``"auto"`` (exact: always cheap for one combat);
    ``samples``, ``seed``, ``threads``, ``progress`` and ``executor`` drive Monte Carlo.
    """
    options = engine_options(method, samples, seed, threads, progress, executor, methods=METHODS)
    rules = _rules(variants, edition, bonus_dice, souls, souls_limit, draw, draw_in_dodge, cap_wounds_at_dice,
                   support_stacking)
    side_a = as_side("attacker", attacker)
    side_d = as_side("defender", defender)
    plan, spec = planned_combat(side_a, side_d, reaction, rules, stand_and_shoot)
    work_starts()
    if options.method == "monte_carlo":
        seed_used = options.draw_seed()
        counts = combat_counts(plan, options.samples, seed_used, resolve_threads(options.threads), options.progress,
                               options.executor)
        successes, wounds = split_counts(plan, counts)
        return CombatResult.build(
            successes, wounds, samples=options.samples, method="monte_carlo", seed=seed_used,
            defender_wounds=side_d.current_wounds, attacker_wounds=side_a.current_wounds, reaction=plan.reaction,
            edition=rules.edition, variants=rules, **_labels(side_a, side_d, stand_and_shoot),
        )
    return _exact_result(_cpp.combat_exact(spec), plan, side_a, side_d, rules, stand_and_shoot)


def _labels(side_a: Side, side_d: Side, stand_and_shoot: bool) -> dict[str, Any]:
    """How a combat's result names it (its printer's heading and lines): both sides, and whether the
    defender stood and shot (already checked: a bool)."""
    return {**_side_labels(side_a, side_d), "stand_and_shoot": bool(stand_and_shoot)}


def _side_labels(side_a: Side, side_d: Side) -> dict[str, Any]:
    return {"sides": (side_heading(side_a), side_heading(side_d)), "profiles": (side_line(side_a), side_line(side_d))}


def _exact_result(arrays: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray], plan: CombatPlan, side_a: Side,
                  side_d: Side, rules: Variants, stand_and_shoot: bool) -> CombatResult:
    # the sides' text is made when the result is printed, not for each figure a sweep reads
    return CombatResult._exact(arrays, defender_wounds=side_d.current_wounds, attacker_wounds=side_a.current_wounds,
                               reaction=plan.reaction, variants=rules, stand_and_shoot=bool(stand_and_shoot),
                               labels=functools.partial(_side_labels, side_a, side_d))


def _rules(variants: Any, edition: Any, bonus_dice: Any, souls: Any, souls_limit: Any, draw: Any, draw_in_dodge: Any,
           cap_wounds_at_dice: Any, support_stacking: Any) -> Variants:
    if variants is None and edition is None and bonus_dice is None and souls is None and souls_limit is None \
            and draw is None and draw_in_dodge is None and cap_wounds_at_dice is None and support_stacking is None:
        return Variants.resolve(None)  # the defaults, checked once
    return check_switches(Variants, variants, dict(
        edition=edition, bonus_dice=bonus_dice, souls=souls, souls_limit=souls_limit, draw=draw,
        draw_in_dodge=draw_in_dodge, cap_wounds_at_dice=cap_wounds_at_dice, support_stacking=support_stacking,
    ))


@functools.lru_cache(maxsize=_CACHED_COMBATS)
def _cached_plan(side_a: Side, side_d: Side, reaction: str, rules: Variants, stand_and_shoot: bool
                 ) -> tuple[CombatPlan, Any]:
    plan = plan_combat(side_a, side_d, reaction, rules, stand_and_shoot)
    return plan, plan.spec()


def planned_combat(side_a: Side, side_d: Side, reaction: Any, rules: Variants, stand_and_shoot: Any
                   ) -> tuple[CombatPlan, Any]:
    """The checked plan of a combat and its C++ spec, cached by value (treat both as read-only).

    Only plain ``str`` / ``bool`` arguments are looked up: a key equal to ``True`` but not ``True``
    (``1``) must reach the checks and fail there.
    """
    if type(reaction) is str and type(stand_and_shoot) is bool:
        return _cached_plan(side_a, side_d, reaction, rules, stand_and_shoot)
    plan = plan_combat(side_a, side_d, reaction, rules, stand_and_shoot)
    return plan, plan.spec()


def combat_batch(
    attacker: Any,
    defender: Any,
    reaction: str | Sequence[str] = "attack",
    *,
    edition: str | None | Sequence[str | None] = None,
    bonus_dice: str | None | Sequence[str | None] = None,
    souls: str | None | Sequence[str | None] = None,
    souls_limit: int | None | Sequence[int | None] = None,
    draw: str | None | Sequence[str | None] = None,
    draw_in_dodge: bool | None | Sequence[bool | None] = None,
    cap_wounds_at_dice: bool | None | Sequence[bool | None] = None,
    support_stacking: str | None | Sequence[str | None] = None,
    stand_and_shoot: bool | Sequence[bool] = False,
    method: str | Sequence[str] = "auto",
    samples: int | Sequence[int] = DEFAULT_SAMPLES,
    seed: int | None | Sequence[int | None] = None,
    threads: int | None | Sequence[int | None] = None,
    progress: Progress | None = None,
    executor: Executor | None = None,
    variants: Variants | Mapping[str, Any] | str | None | Sequence[Variants | Mapping[str, Any] | str | None] = None,
) -> ResultBatch[CombatResult]:
    """Many combats in one call: ``batch[i]`` equals ``db.combat`` of the i-th item.

    The arguments are those of :func:`combat`, each one value or a sequence (list, tuple, range or
    numpy array); sequences have the same length and single values are repeated to it. A side may be
    anything :func:`combat` takes (a Side, a Miniature, an example name, a profile or a dict of Side
    fields). The exact items are resolved in one C++ call with the GIL released, each distinct combat
    once; Monte Carlo items run one after the other, each with ``progress`` and ``executor``. Seeds: a
    sequence gives each item its own; one seed (drawn when None) gives item i ``cell_seed(seed, i)``
    (``mathhammer.core.sampling``), so every Monte Carlo item is ``db.combat`` with
    ``seed=batch[i].seed``. An invalid item fails the whole call with an error naming it
    (``attacker[3].wounds: ...``).
    """
    switch_names = ("edition", "bonus_dice", "souls", "souls_limit", "draw", "draw_in_dodge", "cap_wounds_at_dice",
                    "support_stacking")
    arguments: dict[str, Any] = {
        "attacker": attacker, "defender": defender, "reaction": reaction, "edition": edition,
        "bonus_dice": bonus_dice, "souls": souls, "souls_limit": souls_limit, "draw": draw,
        "draw_in_dodge": draw_in_dodge, "cap_wounds_at_dice": cap_wounds_at_dice,
        "support_stacking": support_stacking, "stand_and_shoot": stand_and_shoot, "method": method,
        "samples": samples, "seed": seed, "threads": threads, "variants": variants,
    }
    size, items = broadcast(arguments)
    single = {name: not is_sequence(value) for name, value in arguments.items()}
    attackers = checked_items("attacker", items["attacker"], single, lambda v: as_side("attacker", v))
    defenders = checked_items("defender", items["defender"], single, lambda v: as_side("defender", v))
    rule_names = ("variants",) + switch_names
    # the seeds are checked on their own (a sweep's cells each bring a different one)
    option_list = per_item(items, ("method", "samples", "threads"), single,
                           lambda m, n, t: item_options(progress, executor, METHODS)(m, n, None, t))
    seeds = item_seeds(items["seed"], single["seed"])
    rule_list = per_item(items, rule_names, single, _rules)
    reactions, stand = items["reaction"], items["stand_and_shoot"]
    plans: list[tuple[CombatPlan, Any]] = []
    for i in range(size):
        try:
            plans.append(planned_combat(attackers[i], defenders[i], reactions[i], rule_list[i], stand[i]))
        except InputError as error:
            name = error.field.split(".")[0]
            raise item_error(error, name, i, single.get(name, True)) from None
    exact = [i for i in range(size) if option_list[i].method != "monte_carlo"]
    found = _exact_arrays([plans[i][1] for i in exact]) if exact else None
    sampled = {
        i: combat(attackers[i], defenders[i], plans[i][0].reaction, stand_and_shoot=stand[i], method="monte_carlo",
                  samples=option_list[i].samples, seed=seeds(i), threads=option_list[i].threads,
                  progress=progress, executor=executor, variants=rule_list[i])
        for i in range(size) if option_list[i].method == "monte_carlo"
    }
    position = {item: k for k, item in enumerate(exact)}

    def build(i: int) -> CombatResult:
        if i in sampled or found is None:
            return sampled[i]
        return _exact_result(found(position[i]), plans[i][0], attackers[i], defenders[i], rule_list[i], stand[i])

    return ResultBatch(size, build)


def _exact_arrays(specs: list[Any]) -> Callable[[int], tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]]:
    """Resolve exact combats in one C++ call; returns the k-th spec's arrays (successes grid, wounds
    grid, both pools' laws), made when asked for."""
    return _cpp.combat_exact_batch(specs).__getitem__


def combat_counts(plan: CombatPlan, samples: int, seed: int, threads: int, progress: Progress | None = None,
                  executor: Executor | None = None) -> np.ndarray:
    """Raw Monte Carlo counts of a planned combat (the successes grid, then the wounds grid)."""
    spec = plan.spec()
    kernel = functools.partial(_cpp.combat_monte_carlo, spec)
    return run_monte_carlo(kernel, samples, seed, threads, progress, executor)


def split_counts(plan: CombatPlan, counts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The successes grid [sA, sD] and the wounds grid [to defender, to attacker] of flat counts."""
    rows_a, rows_d, rows_wd, rows_wa = _cpp.combat_shape(plan.spec())
    cut = rows_a * rows_d
    return counts[:cut].reshape(rows_a, rows_d), counts[cut:].reshape(rows_wd, rows_wa)
