"""sc.attack, sc.sequence and sc.resolve: validate a batch, build its C++ config, run an engine,
and turn the flat arrays both engines return into results (docs/rules/starcraft.md §3, §5, §7).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Mapping, Sequence
from concurrent.futures import Executor
from dataclasses import dataclass
from typing import Any, NamedTuple

import numpy as np

from mathhammer import _core, sampling
from mathhammer._validate import InputError, InputTypeError, check_bool, check_choice, check_int
from mathhammer.batch import (
    ResultBatch,
    broadcast,
    checked_items,
    field_inside,
    is_sequence,
    item_error,
    profile_from_table,
)
from mathhammer.options import EngineOptions, Progress, engine_options
from mathhammer.results import Distribution
from mathhammer.starcraft.profiles import ATTACK_KWARGS, MAX_DAMAGE, MAX_KEYWORD, MAX_MODELS, Batch, Rules, Unit, Variants, Weapon, check_variants
from mathhammer.starcraft.results import AttackResult, BatchSummary, LazyTables, Resolution, SequenceResult, StateDistribution

__all__ = ["attack", "attack_batch", "resolve", "sequence"]

_sc = _core.starcraft

MAX_DICE = 120
MAX_FIRING_MODELS = 60
MAX_ROA_MOD = 30
MAX_ROLL_MOD = 5
MAX_TD_REDUCTION = 50
MAX_BATCHES = 50
MAX_GRANTS = 10
MAX_FACES = 10_000
DEFAULT_SAMPLES = 1_000_000
# Steps of the exact sequence propagation before method="auto" samples instead (about 0.2 s).
MAX_EXACT_WORK = 2e8

MODES = ("weapon", "spillover", "hits")
METHODS = ("auto", "exact", "monte_carlo")
REACTION_KEYS = ("dodge", "tough", "damage_cap", "td_reduction", "td_floor")
SURGE_KIND = {None: _sc.SurgeKind.none, "D3": _sc.SurgeKind.d3, "D3+1": _sc.SurgeKind.d3_plus_1, "D6": _sc.SurgeKind.d6}


@dataclass(frozen=True)
class Plan:
    """A validated batch: its C++ config and what the result reports about it."""

    config: _sc.BatchConfig
    dice: int
    damage_per_die: int
    surge_applied: bool
    evade_rolled: bool
    reaction_ignored: bool


def _int(field: str, value: Any, lo: int, hi: int) -> int:
    # check_int, without its call for the plain in-range ints nearly every option is
    if type(value) is int and lo <= value <= hi:
        return value
    return check_int(field, value, lo, hi)


def _grants(name: str, value: Any, lo: int, hi: int) -> list[int]:
    """One grant (an int) or several named sources (a list of ints)."""
    if type(value) is int and lo <= value <= hi:
        return [value]
    if isinstance(value, (list, tuple)):
        if len(value) > MAX_GRANTS:
            raise InputError(name, f"{len(value)} grants; allowed at most {MAX_GRANTS}")
        return [_int(f"{name}[{i}]", v, lo, hi) for i, v in enumerate(value)]
    return [_int(name, value, lo, hi)]


def _stack(grants: list[int], stacking: str) -> int:
    return sum(grants) if stacking == "sum" else max(grants, default=0)


def _reaction(value: Any) -> dict[str, Any]:
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise InputTypeError("reaction", f"expected a dict with keys among {', '.join(REACTION_KEYS)}, got {value!r}")
    unknown = sorted(str(key) for key in value if key not in REACTION_KEYS)  # str: keys of any type sort
    if unknown:
        raise InputError(f"reaction.{unknown[0]}", f"not a reaction grant; allowed: {', '.join(REACTION_KEYS)}")
    return dict(value)


def _damage_setters(value: Any, unit: Unit) -> list[int]:
    """damage_set: an int, 'size' (Aftershock Rounds: the target's Size), or a list of them."""
    items = value if isinstance(value, (list, tuple)) else [value]
    if len(items) > MAX_GRANTS:
        raise InputError("damage_set", f"{len(items)} setters; allowed at most {MAX_GRANTS}")
    out = []
    for item in items:
        if isinstance(item, str) and item.strip().lower() == "size":
            if unit.size is None:
                raise InputError("damage_set", "'size' needs the unit's size (sc.Unit(size=...))")
            out.append(unit.size)
        else:
            out.append(_int("damage_set", item, 0, MAX_DAMAGE))
    return out


def plan_batch(
    weapon: Weapon | None,
    unit: Unit,
    rules: Rules,
    *,
    mode: str = "weapon",
    firing_models: int = 1,
    long_range_models: int = 0,
    burst_models: int | None = None,
    target_stationary: bool = False,
    affected_models: int | None = None,
    hits: Sequence[int] | None = None,
    roa_mod: int = 0,
    dice_mod: int = 0,
    hit_mod: int = 0,
    armour_mod: int = 0,
    evade_mod: int = 0,
    anti_evade: int | list[int] = 0,
    precision: int | list[int] = 0,
    critical_hit: int | list[int] = 0,
    dodge: int | list[int] = 0,
    tough: int | list[int] = 0,
    evade_eligible: bool | None = None,
    damage_set: int | str | list[int | str] | None = None,
    damage_cap: int | list[int] | None = None,
    td_reduction: int | list[int] = 0,
    td_floor: int | list[int] = 0,
    visible_models: int | None = None,
    engaged: bool = False,
    reaction: dict[str, Any] | None = None,
) -> Plan:
    """Validate one batch (docs/rules/starcraft.md §3, §10) and build its C++ config."""
    mode = check_choice("mode", mode, MODES)
    if not isinstance(unit, Unit):
        raise InputTypeError("unit", f"expected sc.Unit, got {type(unit).__name__}")
    if weapon is not None and not isinstance(weapon, Weapon):
        raise InputTypeError("weapon", f"expected sc.Weapon, got {type(weapon).__name__}")
    if weapon is None and mode != "hits":
        raise InputError("weapon", f"mode {mode!r} needs a weapon; only mode 'hits' takes None")
    stacking = rules.stacking
    c = _sc.BatchConfig()

    # ---- 0. Attack Pool ------------------------------------------------------------------------
    roa_mod = _int("roa_mod", roa_mod, -MAX_ROA_MOD, MAX_ROA_MOD)
    dice_mod = _int("dice_mod", dice_mod, -MAX_DICE, MAX_DICE)
    firing_models = _int("firing_models", firing_models, 0, MAX_FIRING_MODELS)
    long_range_models = _int("long_range_models", long_range_models, 0, firing_models)
    target_stationary = check_bool("target_stationary", target_stationary)
    if hits is not None and mode != "hits":
        raise InputError("hits", "only for mode 'hits' (HITS X (Y)); leave it None")
    if affected_models is not None:
        affected_models = _int("affected_models", affected_models, 0, MAX_MODELS)
    template_main = mode == "weapon" and weapon is not None and weapon.template
    needs_affected = template_main or mode == "spillover"
    if needs_affected and affected_models is None:
        raise InputError("affected_models", "a template attack needs the number of models under the template (0..40)")
    if not needs_affected and affected_models is not None:
        raise InputError("affected_models", "only for a template weapon or mode 'spillover'; leave it None")
    if (long_range_models or burst_models is not None) and (mode != "weapon" or template_main):
        name = "long_range_models" if long_range_models else "burst_models"
        raise InputError(name, "only for a non-template weapon in mode 'weapon'")

    n_normal = n_long = 0
    hits_damage = 0
    if mode == "hits":
        if hits is None or isinstance(hits, (str, bytes)) or not isinstance(hits, Sequence) or len(hits) != 2:
            raise InputError("hits", f"mode 'hits' needs hits=(X, Y): X dice (0..{MAX_DICE}) of damage Y (0..{MAX_DAMAGE})")
        n_normal = _int("hits[0]", hits[0], 0, MAX_DICE)
        hits_damage = _int("hits[1]", hits[1], 0, MAX_DAMAGE)
        if dice_mod:
            raise InputError("dice_mod", "HITS X (Y) places dice without an Attack Pool; allowed 0")
        c.roll_hits = False
    else:
        assert weapon is not None
        if mode == "spillover":
            if not weapon.template:
                raise InputError("mode", "'spillover' is the template's batch against another unit; the weapon is not a template")
            n_normal = affected_models  # type: ignore[assignment]
        elif template_main:
            # docs/rules/starcraft.md §3.0: affected_models + roa + roa_mod + dice_mod; only the total is floored.
            n_normal = max(0, affected_models + weapon.roa + roa_mod + dice_mod)  # type: ignore[operator]
        else:
            if long_range_models and not weapon.long_range:
                raise InputError("long_range_models", "the weapon has no LONG RANGE; allowed 0")
            normal_models = firing_models - long_range_models
            burst = normal_models if burst_models is None else _int("burst_models", burst_models, 0, normal_models)
            per_model = weapon.roa + roa_mod + (weapon.locked_in if target_stationary else 0)
            n_normal = burst * max(0, per_model + weapon.burst_fire) + (normal_models - burst) * max(0, per_model)
            n_long = long_range_models * max(0, per_model)
        # Dice modifiers come last; a reduction removes normal-range dice first.
        if template_main:
            pass  # dice_mod is already in the template's sum
        elif dice_mod >= 0:
            n_normal += dice_mod
        else:
            cut = min(-dice_mod, n_normal)
            n_normal -= cut
            n_long = max(0, n_long - (-dice_mod - cut))
        hit_mod = _int("hit_mod", hit_mod, -MAX_ROLL_MOD, MAX_ROLL_MOD)
        c.hit_target_normal = _sc.final_target(weapon.hit, hit_mod, 0)
        c.hit_target_long = _sc.final_target(weapon.hit, hit_mod, 1)
    if n_normal + n_long > MAX_DICE:
        raise InputError("dice", f"the batch has {n_normal + n_long} dice; allowed at most {MAX_DICE} "
                                 "(firing_models x (roa + roa_mod + keywords) + dice_mod, or hits X)")
    c.dice_normal, c.dice_long = n_normal, n_long

    # ---- grants --------------------------------------------------------------------------------
    react = _reaction(reaction)
    reaction_ignored = bool(react) and weapon is not None and weapon.instant
    if reaction_ignored:
        react = {}
    weapon_rolls = mode == "weapon"
    precision_total = _stack(([weapon.precision] if weapon_rolls else []) + _grants("precision", precision, 0, MAX_KEYWORD), stacking)  # type: ignore[union-attr]
    crit_total = _stack(([weapon.critical_hit] if weapon_rolls else []) + _grants("critical_hit", critical_hit, 0, MAX_KEYWORD), stacking)  # type: ignore[union-attr]
    dodge_total = _stack(_grants("dodge", dodge, 0, MAX_KEYWORD) + _grants("reaction.dodge", react.get("dodge", []), 0, MAX_KEYWORD), stacking)
    tough_total = _stack([unit.tough] + _grants("tough", tough, 0, MAX_KEYWORD) + _grants("reaction.tough", react.get("tough", []), 0, MAX_KEYWORD), stacking)
    anti_total = _stack(([weapon.anti_evade] if weapon is not None else []) + _grants("anti_evade", anti_evade, 0, MAX_KEYWORD), stacking)
    natural = rules.critical_hit == "natural"
    if natural and crit_total > 6:
        raise InputError("critical_hit", f"under rules.critical_hit='natural' CRITICAL HIT (X) names a face; allowed 1..6, got {crit_total}")
    c.precision = precision_total if weapon_rolls else 0
    c.critical_hit = crit_total if weapon_rolls else 0
    c.crit_natural = natural
    c.dodge = dodge_total

    # ---- 2. Surge --------------------------------------------------------------------------------
    surge_applied = weapon_rolls and weapon is not None and bool(set(weapon.surge_tags) & set(unit.tags))
    if surge_applied:
        assert weapon is not None
        if weapon.template:
            assert affected_models is not None  # a template attack needs it (checked above)
            c.surge_kind, c.surge_fixed = _sc.SurgeKind.fixed, affected_models
        else:
            c.surge_kind = SURGE_KIND[weapon.surge_dice]

    # ---- 3. Armour, 4. Evade ----------------------------------------------------------------------
    armour_mod = _int("armour_mod", armour_mod, -MAX_ROLL_MOD, MAX_ROLL_MOD)
    evade_mod = _int("evade_mod", evade_mod, -MAX_ROLL_MOD, MAX_ROLL_MOD)
    c.armour_target = _sc.final_target(unit.armour, armour_mod, 0)
    c.tough = tough_total
    eligible = unit.evade is not None if evade_eligible is None else check_bool("evade_eligible", evade_eligible)
    evade_rolled = eligible and unit.evade is not None
    c.evade = evade_rolled
    c.evade_target = 6 if unit.evade is None or not evade_rolled else _sc.final_target(unit.evade, evade_mod, anti_total)

    # ---- 5. Damage per die: setters (largest), then caps (smallest) ------------------------------
    base = hits_damage if mode == "hits" else weapon.damage  # type: ignore[union-attr]
    setters = [] if damage_set is None else _damage_setters(damage_set, unit)
    if weapon is not None and weapon.pierce is not None and weapon.pierce[0] in unit.tags:
        setters.append(weapon.pierce[1])
    caps = [] if damage_cap is None else _grants("damage_cap", damage_cap, 0, MAX_DAMAGE)
    caps += _grants("reaction.damage_cap", react.get("damage_cap", []), 0, MAX_DAMAGE)
    per_die = _sc.damage_per_die(base, max(setters, default=-1), min(caps, default=-1))
    c.damage_per_die = per_die

    # ---- 6. Casualties ------------------------------------------------------------------------------
    alloc = _sc.AllocParams()
    alloc.concentrated_fire = 0 if weapon is None or weapon.concentrated_fire is None else weapon.concentrated_fire
    alloc.visible_models = -1 if visible_models is None else _int("visible_models", visible_models, 0, unit.models)
    alloc.engaged = check_bool("engaged", engaged)
    alloc.td_reduction = sum(_grants("td_reduction", td_reduction, 0, MAX_TD_REDUCTION)
                             + _grants("reaction.td_reduction", react.get("td_reduction", []), 0, MAX_TD_REDUCTION))
    alloc.td_floor = max(_grants("td_floor", td_floor, 0, MAX_DAMAGE)
                         + _grants("reaction.td_floor", react.get("td_floor", []), 0, MAX_DAMAGE), default=0)
    alloc.leftover_lost = rules.leftover == "lost"
    c.alloc = alloc
    return Plan(c, n_normal + n_long, per_die, surge_applied, evade_rolled, reaction_ignored)


def unit_profile(unit: Unit) -> _sc.UnitProfile:
    p = _sc.UnitProfile()
    p.hp, p.shield = unit.hp, unit.shield
    return p


def unit_state(unit: Unit) -> _sc.UnitState:
    s = _sc.UnitState()
    s.models, s.marker, s.first_model_alive = unit.models, unit.marker, unit.first_model_alive
    s.shielded = bool(unit.shielded)  # None only before Unit's own check resolves it
    return s


def _run(kernel: sampling.Kernel, options: EngineOptions) -> tuple[np.ndarray, int, int]:
    """Monte Carlo: the probabilities of every counted cell, the samples and the seed used."""
    seed = options.draw_seed()
    counts = sampling.run_monte_carlo(kernel, options.samples, seed, sampling.resolve_threads(options.threads),
                                      options.progress, options.executor)
    return counts / options.samples, options.samples, seed


# ---- one batch -------------------------------------------------------------------------------------

class _Case(NamedTuple):
    """One validated attack as the engines take it, with the labels its result carries."""

    plan: Plan
    native: _sc.AttackCase
    weapon: str
    unit: str


# Validated attacks kept by value: a sweep of many thousand different attacks stays cached (an
# entry is under a kilobyte).
_CACHED_CASES = 16_384
_cases: dict[tuple[Any, ...], _Case] = {}
# Option values cached by value and type (so 1 and True, 6 and 6.0 stay apart): what is not one of
# these, or a list, tuple or dict of them, is validated afresh on every call.
_PLAIN = (int, bool, str, float, type(None))


def _frozen(value: Any) -> Any:
    kind = type(value)
    if kind in _PLAIN:
        return kind, value
    if kind is list or kind is tuple:
        return kind, tuple(_frozen(v) for v in value)
    if kind is dict:
        return kind, tuple((_frozen(k), _frozen(v)) for k, v in value.items())
    raise TypeError(kind.__name__)


def _case(weapon: Weapon | None, unit: Unit, variants: Variants, kwargs: dict[str, Any]) -> _Case:
    """The validated attack (plan_batch) for these arguments, cached by value (kwargs' names are
    already checked)."""
    try:
        key: tuple[Any, ...] | None = (type(weapon), weapon, type(unit), unit, variants,
                                       tuple((name, _frozen(value)) for name, value in kwargs.items()))
        case = _cases.get(key)  # type: ignore[arg-type]
    except TypeError:  # an unhashable argument: validated below, and not kept
        key, case = None, None
    if case is not None:
        return case
    plan = plan_batch(weapon, unit, variants, **kwargs)
    native = _sc.AttackCase(plan.config, *_native_unit(unit))
    case = _Case(plan, native, "" if weapon is None else _label(weapon), _label(unit))
    if key is not None:
        if len(_cases) >= _CACHED_CASES:
            _cases.clear()  # a sweep larger than the cache starts it afresh (clear() is safe across threads)
        _cases[key] = case
    return case


@functools.lru_cache(maxsize=_CACHED_CASES)
def _native_unit(unit: Unit) -> tuple[_sc.UnitProfile, _sc.UnitState]:
    # the C++ unit and state of a profile, made once per distinct unit (AttackCase copies them)
    return unit_profile(unit), unit_state(unit)


@functools.lru_cache(maxsize=_CACHED_CASES)
def _label(profile: Weapon | Unit) -> str:
    # a profile's text for the result, formatted once per distinct profile
    return profile.name or str(profile)


def attack(
    weapon: Weapon | Mapping[str, Any] | None,
    unit: Unit | Mapping[str, Any],
    *,
    rules: Variants | Mapping[str, str] | str | None = None,
    method: str = "auto",
    samples: int = DEFAULT_SAMPLES,
    seed: int | None = None,
    threads: int | None = None,
    progress: Progress | None = None,
    executor: Executor | None = None,
    variants: Variants | Mapping[str, str] | str | None = None,
    **kwargs: Any,
) -> AttackResult:
    """One batch: every model firing ``weapon`` at ``unit`` (docs/rules/starcraft.md §3).

    Keyword arguments (all optional): mode ("weapon" | "spillover" | "hits"), firing_models,
    long_range_models, burst_models, target_stationary, affected_models, hits=(X, Y), roa_mod,
    dice_mod, hit_mod, armour_mod, evade_mod, anti_evade, precision, critical_hit, dodge, tough
    (an int, or a list of grants from several sources combined by rules.stacking), evade_eligible,
    damage_set (int or "size"), damage_cap, td_reduction, td_floor, visible_models, engaged,
    reaction={dodge, tough, damage_cap, td_reduction, td_floor}.

    method: "exact" (nested conditioning), "monte_carlo", or "auto" (exact; it is always cheap for
    one batch); samples, seed, threads, progress and executor drive Monte Carlo. variants (or its
    older name rules): StarCraft's rule switches, ``sc.Variants``. Returns an AttackResult.
    ``weapon`` / ``unit`` may also be tables of the profile's fields, as in ``sc.attack_batch``.
    """
    options = engine_options(method, samples, seed, threads, progress, executor, methods=METHODS)
    if kwargs:
        _check_kwargs(kwargs)
    rule_variants = check_variants(rules, variants)
    if not (weapon is None or isinstance(weapon, Weapon)) or not isinstance(unit, Unit):
        weapon, unit = _profiles_from_tables(weapon, unit)
    case = _case(weapon, unit, rule_variants, kwargs)
    if options.method == "monte_carlo":
        return _sampled_attack(case, options, rule_variants)
    return _attack_result(case, _sc.exact_attack_tables(case.native), None, "exact", None, rule_variants)


def _sampled_attack(case: _Case, options: EngineOptions, variants: Variants) -> AttackResult:
    config = case.plan.config
    kernel = lambda s, t, b, e, th: _sc.sample_attack(config, s, t, b, e, th)  # noqa: E731
    probs, n, seed_used = _run(kernel, options)
    return _attack_result(case, _sc.attack_tables(case.native, probs), n, "monte_carlo", seed_used, variants)


def _check_kwargs(kwargs: dict[str, Any]) -> None:
    unknown = sorted(str(key) for key in kwargs if key not in ATTACK_KWARGS)
    if unknown:
        raise InputError(unknown[0], f"unknown option; allowed: {', '.join(ATTACK_KWARGS)}, rules, method, samples, "
                                     "seed, threads, progress, executor, variants")


def _state_rows(states: _sc.StateColumns) -> np.ndarray:
    """(models, marker, shielded, first_model_alive) per state, as StateDistribution.from_rows takes them."""
    return np.stack([states.models, states.marker, states.shielded, states.first_model_alive], axis=1)


def _attack_result(case: _Case, tables: tuple[np.ndarray, tuple[int, ...], float, float, np.ndarray],
                   samples: int | None, method: str, seed: int | None, variants: Variants) -> AttackResult:
    """The result of C++-shaped tables (exact_attack_tables / attack_tables); its distributions,
    stages and state are built from them on first use."""
    values, sizes, destroyed, shield_lost, states = tables
    plan = case.plan
    return AttackResult._lazy(
        LazyTables(values, sizes, states, plan.dice, samples),
        destroyed=destroyed,
        shield_lost=shield_lost,
        damage_per_die=plan.damage_per_die,
        surge_applied=plan.surge_applied,
        evade_rolled=plan.evade_rolled,
        reaction_ignored=plan.reaction_ignored,
        method=method,
        samples=samples,
        seed=seed,
        variants=variants,
        weapon=case.weapon,
        unit=case.unit,
    )


# ---- many attacks in one call -----------------------------------------------------------------------

def attack_batch(
    weapons: Weapon | Mapping[str, Any] | None | Sequence[Weapon | Mapping[str, Any] | None],
    units: Unit | Mapping[str, Any] | Sequence[Unit | Mapping[str, Any]],
    *,
    rules: Any = None,
    method: str | Sequence[str] = "auto",
    samples: int | Sequence[int] = DEFAULT_SAMPLES,
    seed: int | None | Sequence[int | None] = None,
    threads: int | None | Sequence[int | None] = None,
    progress: Progress | None = None,
    executor: Executor | None = None,
    variants: Any = None,
    **kwargs: Any,
) -> ResultBatch[AttackResult]:
    """Many attacks in one call: ``batch[i]`` equals ``sc.attack`` of the i-th item.

    Each argument (the attack options of :func:`attack` included) is one value or a sequence (list,
    tuple, range or numpy array); sequences have the same length and single values are repeated to
    it. An option whose own value is a list or tuple (``hits=(X, Y)``, a list of grants) is therefore
    given as a sequence of such values, one per item (``hits=[(4, 1)] * n``). A profile may also be a
    table of its fields. The exact items are resolved in one C++ call with the GIL released, each
    distinct configuration once; Monte Carlo items run one after the other, each with ``progress``
    and ``executor``. An invalid item fails the whole call with an error naming it
    (``weapons[3].roa: ...``).
    """
    if kwargs:
        _check_kwargs(kwargs)
    arguments: dict[str, Any] = {"weapons": weapons, "units": units, "rules": rules, "variants": variants,
                                 "method": method, "samples": samples, "seed": seed, "threads": threads, **kwargs}
    size, items = broadcast(arguments)
    single = {name: not is_sequence(value) for name, value in arguments.items()}
    weapon_list = checked_items("weapons", items["weapons"], single, _weapon, "weapon")
    unit_list = checked_items("units", items["units"], single, _unit, "unit")
    option_list: list[EngineOptions] = []
    variant_list: list[Variants] = []
    cases: list[_Case] = []
    # Items made of the very same objects share their checked options and case (keyed by identity,
    # so 1 and True stay apart; every object is held by `items` for the whole call).
    known: dict[tuple[Any, ...], Any] = {}
    for i in range(size):
        try:
            parts = (items["method"][i], items["samples"][i], items["seed"][i], items["threads"][i])
            key = ("options", *map(id, parts))
            options = known.get(key)
            if options is None:
                options = known[key] = engine_options(*parts, progress, executor, methods=METHODS)
            option_list.append(options)
            key = ("variants", id(items["rules"][i]), id(items["variants"][i]))
            rule_variants = known.get(key)
            if rule_variants is None:
                rule_variants = known[key] = check_variants(items["rules"][i], items["variants"][i])
            variant_list.append(rule_variants)
            kw = {name: items[name][i] for name in kwargs}
            key = ("case", id(weapon_list[i]), id(unit_list[i]), id(rule_variants), *map(id, kw.values()))
            case = known.get(key)
            if case is None:
                case = known[key] = _case(weapon_list[i], unit_list[i], rule_variants, kw)
            cases.append(case)
        except (InputError, InputTypeError) as error:
            raise _item_error(error, i, single) from None
    exact = [i for i in range(size) if option_list[i].method != "monte_carlo"]
    resolved = _sc.exact_attack_tables_batch([cases[i].native for i in exact]) if exact else None
    position = {i: k for k, i in enumerate(exact)}
    sampled = {i: _sampled_attack(cases[i], option_list[i], variant_list[i]) for i in range(size) if i not in position}

    def build(i: int) -> AttackResult:
        if i in sampled or resolved is None:
            return sampled[i]
        return _attack_result(cases[i], resolved[position[i]], None, "exact", None, variant_list[i])

    return ResultBatch(size, build)


# plan_batch's error fields that name another argument of the batch than their own head
_FIELD_ARGUMENT = {"weapon": "weapons", "unit": "units"}


def _item_error(error: InputError | InputTypeError, index: int, single: Mapping[str, bool]) -> InputError | InputTypeError:
    """An error of one item's checks, its field named after the batch argument (``dodge[3]: ...``,
    ``reaction[3].tough: ...``); a field that is no argument (the batch's dice) names the item
    (``items[3].dice: ...``)."""
    head = re.split(r"[.\[]", error.field, maxsplit=1)[0]
    name = _FIELD_ARGUMENT.get(head, head)
    if name not in single:
        return type(error)(f"items[{index}].{error.field}", str(error)[len(error.field) + 2:])
    if name != head:
        return item_error(error, name, index, single[name], head)
    prefix = name if single[name] else f"{name}[{index}]"
    return type(error)(prefix + error.field[len(head):], str(error)[len(error.field) + 2:])


def _profiles_from_tables(weapon: Any, unit: Any) -> tuple[Weapon | None, Unit]:
    """sc.attack's weapon and unit given as tables of their fields; an error names the field inside
    its argument (``unit.models``)."""
    try:
        built_weapon = _weapon(weapon)
    except (InputError, InputTypeError) as error:
        raise field_inside("weapon", error) from None
    try:
        built_unit = _unit(unit)
    except (InputError, InputTypeError) as error:
        raise field_inside("unit", error) from None
    return built_weapon, built_unit


def _weapon(value: Any) -> Weapon | None:
    return None if value is None else profile_from_table(Weapon, value, "weapon", "sc.")


def _unit(value: Any) -> Unit:
    return profile_from_table(Unit, value, "unit", "sc.")


# ---- several batches -------------------------------------------------------------------------------

def sequence(
    unit: Unit,
    batches: Sequence[Batch],
    *,
    rules: Variants | Mapping[str, str] | str | None = None,
    method: str = "auto",
    samples: int = DEFAULT_SAMPLES,
    seed: int | None = None,
    threads: int | None = None,
    progress: Progress | None = None,
    executor: Executor | None = None,
    variants: Variants | Mapping[str, str] | str | None = None,
) -> SequenceResult:
    """Several batches against one unit, in order, the state carried over (docs/rules/starcraft.md §5).

    batches: sc.Batch(weapon, **attack_options) each (1..50). A batch against a destroyed unit does
    nothing. method "auto" is exact unless the propagation over (state, total damage) grows too
    large, then Monte Carlo. The other options are those of :func:`attack`.
    """
    options = engine_options(method, samples, seed, threads, progress, executor, methods=METHODS)
    method = options.method
    if not isinstance(unit, Unit):
        raise InputTypeError("unit", f"expected sc.Unit, got {type(unit).__name__}")
    if isinstance(batches, (str, bytes)) or not isinstance(batches, Sequence):
        raise InputTypeError("batches", f"expected a list of sc.Batch, got {type(batches).__name__}")
    if not 1 <= len(batches) <= MAX_BATCHES:
        raise InputError("batches", f"{len(batches)} batches; allowed 1..{MAX_BATCHES}")
    rule_variants = check_variants(rules, variants)
    plans = []
    for i, batch in enumerate(batches):
        if not isinstance(batch, Batch):
            raise InputTypeError(f"batches[{i}]", f"expected sc.Batch, got {type(batch).__name__}")
        try:
            plans.append(plan_batch(batch.weapon, unit, rule_variants, **batch.kwargs))
        except (InputError, InputTypeError) as error:
            message = str(error)[len(error.field) + 2:]
            raise type(error)(f"batches[{i}].{error.field}", message) from None
    configs = [p.config for p in plans]
    profile, start = unit_profile(unit), unit_state(unit)
    layout = _sc.sequence_layout(profile, start, configs)

    if method in ("auto", "exact"):
        probs = np.asarray(_sc.exact_sequence(profile, start, configs, MAX_EXACT_WORK))
        if probs.size:
            return _sequence_result(plans, unit, layout, probs, None, "exact", None, rule_variants)
        if method == "exact":
            raise InputError("method", "the exact propagation over (unit state, total damage) is too large for these batches; "
                                       "use method='monte_carlo' or 'auto'")
    kernel = lambda s, t, b, e, th: _sc.sample_sequence(profile, start, configs, s, t, b, e, th)  # noqa: E731
    probs, n, seed_used = _run(kernel, options)
    return _sequence_result(plans, unit, layout, probs, n, "monte_carlo", seed_used, rule_variants)


def _sequence_result(plans: list[Plan], unit: Unit, layout: _sc.SequenceLayout, probs: np.ndarray, samples: int | None,
                     method: str, seed: int | None, variants: Variants) -> SequenceResult:
    def dist(start: int, size: int) -> Distribution:
        return Distribution(probs[start: start + size], samples=samples)

    rows = _state_rows(layout.states())
    state_p = probs[layout.state: layout.state + layout.state_size]
    casualties = np.bincount(unit.models - rows[:, 0], weights=state_p, minlength=unit.models + 1)
    marker = np.bincount(rows[:, 1], weights=state_p, minlength=1)
    marker = marker[: max(1, int(np.flatnonzero(marker).max(initial=0)) + 1)]
    models_size, marker_size = unit.models + 1, layout.marker_max + 1
    summaries = []
    for plan, slot in zip(plans, layout.batches):
        batch_marker = probs[slot.marker: slot.marker + marker_size]
        summaries.append(BatchSummary(
            damage=dist(slot.damage, slot.damage_size),
            casualties=dist(slot.casualties, models_size),
            marker=Distribution(batch_marker[: max(1, int(np.flatnonzero(batch_marker).max(initial=0)) + 1)], samples=samples),
            destroyed=float(probs[slot.destroyed]),
            shield_lost=float(probs[slot.shield_lost]),
            reaction_ignored=plan.reaction_ignored,
        ))
    return SequenceResult(
        total_damage=dist(layout.total_damage, layout.total_damage_size),
        casualties=Distribution(casualties, samples=samples),
        marker=Distribution(marker, samples=samples),
        destroyed=float(state_p[rows[:, 0] == 0].sum()),
        shield_lost=float(state_p[rows[:, 2] == 0].sum()) if unit.shielded else 0.0,
        state=StateDistribution.from_rows(rows, state_p, samples),
        batches=tuple(summaries),
        method=method,
        samples=samples,
        seed=seed,
        variants=variants,
        unit=unit.name or str(unit),
    )


# ---- one scripted roll -----------------------------------------------------------------------------

def resolve(weapon: Weapon | None, unit: Unit, faces: int | Sequence[int], *,
            rules: Variants | Mapping[str, str] | str | None = None,
            variants: Variants | Mapping[str, str] | str | None = None, **kwargs: Any) -> Resolution:
    """Resolve one batch on scripted d6 faces and return every stage (docs/rules/starcraft.md §7).

    faces: an int (every die shows it) or a list consumed in order — hit dice (normal-range group,
    then long-range), the Surge die (when a Surge die applies), Armour dice, Evade dice. Running out
    raises ValueError. Precision promotes misses in roll order (those showing the Critical Hit face
    first under rules.critical_hit="natural").
    """
    _check_kwargs(kwargs)
    plan = plan_batch(weapon, unit, check_variants(rules, variants), **kwargs)
    if isinstance(faces, (list, tuple)):
        if len(faces) > MAX_FACES:
            raise InputError("faces", f"{len(faces)} faces; allowed at most {MAX_FACES}")
        script = [check_int(f"faces[{i}]", f, 1, 6) for i, f in enumerate(faces)]
        every = 0
    else:
        every, script = check_int("faces", faces, 1, 6), []
    try:
        record = _sc.resolve(plan.config, unit_profile(unit), unit_state(unit), script, every)
    except ValueError as error:
        message = str(error)
        raise InputError("faces", message[len("faces: "):] if message.startswith("faces: ") else message) from None
    roll, after = record.roll, record.allocation
    return Resolution(
        dice=roll.dice, hits=roll.hits, surge=roll.surge, bypass=roll.bypass, armour_fails=roll.armour_fails,
        damage_pool=roll.damage_pool, evaded=roll.damage_pool - roll.inflicting, inflicting=roll.inflicting,
        damage=record.damage, casualties=after.casualties, models=after.state.models, marker=after.state.marker,
        shielded=after.state.shielded, first_model_alive=after.state.first_model_alive, destroyed=after.destroyed,
        shield_lost=after.shield_lost, faces_used=record.faces_used,
    )
