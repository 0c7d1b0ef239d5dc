"""A round: several combats among several miniatures, wounds carried over (docs/rules/deathburgh.md §7).

Combats are resolved in the order given. A combat with a participant already Wasted (0 wounds) is
skipped and changes nothing. Modes follow docs/rules/deathburgh.md §1: a miniature fights in Aggressive mode
until it has taken part in a combat this round, then in Defensive mode, unless the combat's options
fix its ``mode``.

Both engines are in the C++ core and play the round by one sequencing function: the exact engine
over every outcome of each exact combat (the joint law of the wounds of the miniatures in combat),
the Monte Carlo engine over real dice, one round per sample. This module checks and plans the
round: every combat's pools for every pair of modes it can be fought in.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Mapping, Sequence
from concurrent.futures import Executor
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from mathhammer import _core
from mathhammer.core.checks import check_bool, check_choice, check_int
from mathhammer.errors import InputError, InputTypeError
from mathhammer.deathburgh.engine import known_keywords
from mathhammer.deathburgh.profiles import MODES, SIDE_OPTIONS, Miniature, Side, _check_keys, as_miniature
from mathhammer.deathburgh.results import RoundResult
from mathhammer.deathburgh.plan import CombatPlan, plan_combat
from mathhammer.deathburgh.variants import REACTIONS, Variants
from mathhammer.core.options import DEFAULT_SAMPLES, METHODS, Progress, engine_options, work_starts
from mathhammer.core.variants import check_switches
from mathhammer.core.distributions import Distribution
from mathhammer.core.sampling import resolve_threads, run_monte_carlo
from mathhammer.core.guard import excerpt

__all__ = ["Engagement", "MAX_COMBATS", "MAX_EXACT_STATES", "MAX_MINIATURES", "round"]

_cpp = _core.deathburgh

MAX_MINIATURES: int = int(_cpp.MAX_MINIATURES)  # the C++ bounds, read from it
MAX_COMBATS: int = int(_cpp.MAX_COMBATS)
#: The exact engine runs when the joint wound space of the miniatures in combat has at most this many states.
MAX_EXACT_STATES: int = _cpp.MAX_EXACT_ROUND_STATES  # 10⁶


@dataclass(frozen=True)
class Engagement:
    """One combat of a round: who attacks whom, the reaction, and what each side brings.

    ``attacker`` / ``defender`` name a miniature of the round (its name, or its position).
    ``attacker_options`` / ``defender_options`` hold :class:`Side` fields other than ``mini`` and
    ``wounds`` (``mode``, ``charge``, ``support``, ``souls_dice``, ``reroll``, ``auto_hits``, …); a
    ``mode`` given here overrides the round's mode tracking for this combat.
    """

    attacker: str | int
    defender: str | int
    reaction: str = "attack"
    attacker_options: Mapping[str, Any] = field(default_factory=dict)
    defender_options: Mapping[str, Any] = field(default_factory=dict)
    stand_and_shoot: bool = False

    def to_dict(self) -> dict[str, Any]:
        return {
            "attacker": self.attacker, "defender": self.defender, "reaction": self.reaction,
            "attacker_options": dict(self.attacker_options), "defender_options": dict(self.defender_options),
            "stand_and_shoot": self.stand_and_shoot,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Engagement:
        if not isinstance(data, Mapping):
            raise InputTypeError("combat", f"expected a table with attacker, defender, reaction, …; got {excerpt(data)}")
        _check_keys("combat", data, ENGAGEMENT_FIELDS)
        for key in ("attacker", "defender"):
            if key not in data:
                raise InputError("combat", f"missing {excerpt(key)}")
        return cls(**data)


ENGAGEMENT_FIELDS = ("attacker", "defender", "reaction", "attacker_options", "defender_options", "stand_and_shoot")


@dataclass(frozen=True)
class _PlannedCombat:
    attacker: int
    defender: int
    attacker_mode: str | None  # None: follows the miniature's state
    defender_mode: str | None
    plans: dict[tuple[str, str], CombatPlan]  # by (attacker mode, defender mode), every mode that can occur


def _names(miniatures: Mapping[str, Any] | Sequence[Any]) -> tuple[list[str], list[Miniature]]:
    if isinstance(miniatures, Mapping):
        names = [str(k) for k in miniatures]
        minis = [as_miniature(f"miniatures[{n!r}]", m) for n, m in zip(names, miniatures.values())]
    elif isinstance(miniatures, Sequence) and not isinstance(miniatures, str):
        minis = [as_miniature(f"miniatures[{i}]", m) for i, m in enumerate(miniatures)]
        names = [m.name or str(i) for i, m in enumerate(minis)]
    else:
        raise InputTypeError("miniatures", f"expected a dict of name -> Miniature or a list of Miniature, got {excerpt(miniatures)}")
    if not 1 <= len(minis) <= MAX_MINIATURES:
        raise InputError("miniatures", f"{len(minis)} miniatures; allowed 1..{MAX_MINIATURES}")
    if len(set(names)) != len(names):
        duplicate = next(n for n in names if names.count(n) > 1)
        raise InputError("miniatures", f"duplicate name {excerpt(duplicate)}; give a dict of unique names")
    return names, minis


def _index(field: str, who: Any, names: list[str]) -> int:
    if isinstance(who, bool) or not isinstance(who, (str, int, np.integer)):
        raise InputTypeError(field, f"expected a miniature name or position, got {excerpt(who)}")
    if isinstance(who, str):
        if who not in names:
            raise InputError(field, f"unknown miniature {excerpt(who)}; known: {', '.join(names)}")
        return names.index(who)
    return check_int(field, who, 0, len(names) - 1)


def _plan_round(
    names: list[str], minis: list[Miniature], start: list[int], combats: Sequence[Any], rules: Variants
) -> list[_PlannedCombat]:
    """Validate every combat for every mode pair it can be fought in."""
    # Which "has fought" states each miniature can be in, and whether it can be Wasted, before each combat
    # (a superset: any miniature that has been in a combat may be Wasted).
    may_have_fought: list[set[bool]] = [{False} for _ in minis]
    may_be_wasted = [w == 0 for w in start]
    planned = []
    for k, entry in enumerate(combats):
        prefix = f"combats[{k}]."
        if isinstance(entry, Mapping):
            try:
                entry = Engagement.from_dict(entry)
            except InputError as error:
                raise type(error)(f"combats[{k}]", str(error)) from error
        if not isinstance(entry, Engagement):
            raise InputTypeError(f"combats[{k}]", f"expected an Engagement or a dict, got {excerpt(entry)}")
        a = _index(f"{prefix}attacker", entry.attacker, names)
        d = _index(f"{prefix}defender", entry.defender, names)
        if a == d:
            raise InputError(f"{prefix}defender", "a miniature cannot fight itself")
        reaction = check_choice(f"{prefix}reaction", entry.reaction, REACTIONS)
        stand_and_shoot = check_bool(f"{prefix}stand_and_shoot", entry.stand_and_shoot)
        sides, fixed_modes = [], []
        for label, who, options in (("attacker", a, entry.attacker_options), ("defender", d, entry.defender_options)):
            field_name = f"{prefix}{label}_options"
            if not isinstance(options, Mapping):
                raise InputTypeError(field_name, f"expected a dict of side options, got {excerpt(options)}")
            _check_keys(field_name, options, SIDE_OPTIONS)
            try:
                sides.append(Side(minis[who], **options))
            except InputError as error:
                raise type(error)(f"{field_name}.{error.field}", str(error).split(": ", 1)[1]) from error
            fixed_modes.append(check_choice(f"{field_name}.mode", options["mode"], MODES) if "mode" in options else None)

        def modes(who: int, fixed: str | None) -> list[str]:
            if fixed is not None:
                return [fixed]
            return [MODES[int(f)] for f in sorted(may_have_fought[who])]

        plans = {
            (ma, md): plan_combat(sides[0], sides[1], reaction, rules, stand_and_shoot, ma, md, prefix)
            for ma in modes(a, fixed_modes[0])
            for md in modes(d, fixed_modes[1])
        }
        planned.append(_PlannedCombat(a, d, fixed_modes[0], fixed_modes[1], plans))
        may_skip = may_be_wasted[a] or may_be_wasted[d]
        for who in (a, d):
            may_have_fought[who] = {True} | (may_have_fought[who] if may_skip else set())
            may_be_wasted[who] = True
    return planned


@known_keywords
def round(  # noqa: A001 - the spec's name, db.round
    miniatures: Mapping[str, Miniature | str] | Sequence[Miniature | str],
    combats: Sequence[Engagement | Mapping[str, Any]],
    *,
    wounds: Mapping[str, int] | None = None,
    edition: str | None = None,
    bonus_dice: str | None = None,
    souls: str | None = None,
    souls_limit: int | None = None,
    draw: str | None = None,
    draw_in_dodge: bool | None = None,
    cap_wounds_at_dice: bool | None = None,
    support_stacking: str | None = None,
    method: str = "auto",
    samples: int = DEFAULT_SAMPLES,
    seed: int | None = None,
    threads: int | None = None,
    progress: Progress | None = None,
    executor: Executor | None = None,
    variants: Variants | Mapping[str, Any] | str | None = None,
) -> RoundResult:
    """Resolve a round of combats in order, wounds carried from one combat to the next.

    ``miniatures``: a dict name → :class:`Miniature` (or a list; then each is named by its ``name``,
    or by its position); an example name or a profile like ``"A 4/4+ D 4/4+ W 3"`` may stand for a
    miniature. ``combats``: :class:`Engagement` objects or dicts with the same keys,
    e.g. ``{"attacker": "leader", "defender": "brute", "reaction": "dodge",
    "attacker_options": {"charge": True}}``. ``wounds``: current wounds by name (default each W).
    The rule switches are those of :func:`combat` (keywords or ``variants=``) and hold for every
    combat of the round. ``method="auto"`` is exact when the joint wound space of the fighting
    miniatures has at most 10⁶ states, else Monte Carlo (``samples``, ``seed``, ``threads``,
    ``progress``, ``executor``).
    """
    options = engine_options(method, samples, seed, threads, progress, executor, methods=METHODS)
    rules = check_switches(Variants, variants, dict(
        edition=edition, bonus_dice=bonus_dice, souls=souls, souls_limit=souls_limit, draw=draw,
        draw_in_dodge=draw_in_dodge, cap_wounds_at_dice=cap_wounds_at_dice, support_stacking=support_stacking,
    ))
    names, minis = _names(miniatures)
    start = [m.W for m in minis]
    if wounds is not None:
        if not isinstance(wounds, Mapping):
            raise InputTypeError("wounds", f"expected a dict of name -> current wounds, got {excerpt(wounds)}")
        for who, value in wounds.items():
            i = _index("wounds", who, names)
            start[i] = check_int(f"wounds[{names[i]!r}]", value, 0, minis[i].W)
    if isinstance(combats, (str, Mapping)) or not isinstance(combats, Sequence):
        raise InputTypeError("combats", f"expected a list of combats, got {excerpt(combats)}")
    if len(combats) > MAX_COMBATS:
        raise InputError("combats", f"{len(combats)} combats; allowed 0..{MAX_COMBATS}")
    planned = _plan_round(names, minis, start, combats, rules)
    method = options.method
    pairs = tuple((names[c.attacker], names[c.defender]) for c in planned)

    involved = sorted({c.attacker for c in planned} | {c.defender for c in planned})
    states = math.prod(start[i] + 1 for i in involved)
    if method == "auto":
        method = "exact" if states <= MAX_EXACT_STATES else "monte_carlo"
    if method == "exact" and states > MAX_EXACT_STATES:
        raise InputError(
            "method",
            f"exact needs at most {MAX_EXACT_STATES:,} joint wound states; this round has {states:,} "
            "(use method='monte_carlo')",
        )
    work_starts()
    if method == "exact":
        left, fought = _exact_round(start, planned, involved)
        return RoundResult(
            names=tuple(names), start_wounds=tuple(start),
            wounds_left={n: Distribution(p) for n, p in zip(names, left)},
            p_wasted={n: float(p[0]) for n, p in zip(names, left)},
            p_fought=tuple(float(p) for p in fought), method="exact", combats=pairs, variants=rules,
        )

    samples = options.samples
    seed_used = options.draw_seed()
    spec = _round_spec(start, planned)
    kernel = functools.partial(_cpp.round_monte_carlo, spec)  # pickles: process pools and Dask run it
    counts = run_monte_carlo(kernel, samples, seed_used, resolve_threads(options.threads), options.progress,
                             options.executor)
    left_counts, offset = [], 0
    for w in start:
        left_counts.append(counts[offset : offset + w + 1])
        offset += w + 1
    wounds_left = {n: Distribution.from_counts(c) for n, c in zip(names, left_counts)}
    return RoundResult(
        names=tuple(names), start_wounds=tuple(start), wounds_left=wounds_left,
        p_wasted={n: float(d.pmf[0]) for n, d in wounds_left.items()},
        p_fought=tuple(float(c) / samples for c in counts[offset:]), method="monte_carlo",
        samples=samples, seed=seed_used, combats=pairs, variants=rules,
    )


def _round_spec(start: list[int], planned: list[_PlannedCombat]) -> Any:
    spec = _cpp.RoundSpec()
    spec.start_wounds = list(start)
    combats = []
    for c in planned:
        rc = _cpp.RoundCombat()
        rc.attacker, rc.defender = c.attacker, c.defender
        rc.attacker_mode = _cpp.MODE_FROM_STATE if c.attacker_mode is None else MODES.index(c.attacker_mode)
        rc.defender_mode = _cpp.MODE_FROM_STATE if c.defender_mode is None else MODES.index(c.defender_mode)
        # Every mode that can occur has a plan; a mode that cannot occur borrows one (never rolled, or
        # weighted by probability 0 in the exact engine).
        any_plan = next(iter(c.plans.values()))
        attacker_pools, defender_pools = [], []
        for mode in MODES:
            plan_a = next((p for (ma, _), p in c.plans.items() if ma == mode), any_plan)
            plan_d = next((p for (_, md), p in c.plans.items() if md == mode), any_plan)
            attacker_pools.append(plan_a.attacker.spec())
            defender_pools.append(plan_d.defender.spec())
        rc.attacker_pools, rc.defender_pools = attacker_pools, defender_pools
        rc.rules = any_plan.spec().rules
        combats.append(rc)
    spec.combats = combats
    return spec


def _exact_round(
    start: list[int], planned: list[_PlannedCombat], involved: list[int]
) -> tuple[list[np.ndarray], list[float]]:
    """Each miniature's wounds-left law and each combat's chance to be fought, from the C++ exact engine.

    ``involved`` (the miniatures in some combat) only sized the caller's check: the engine finds them
    itself, and plays the round by the same sequencing as the Monte Carlo engine.
    """
    del involved
    probabilities = _cpp.round_exact(_round_spec(start, planned))
    left, offset = [], 0
    for w in start:  # the layout of the C++ round engines: wounds left 0..start per miniature, then each combat
        left.append(probabilities[offset : offset + w + 1])
        offset += w + 1
    return left, [float(p) for p in probabilities[offset:]]
