"""sc.attack, sc.sequence and sc.resolve: validate a batch, build its C++ config, run an engine,
and turn the flat arrays both engines return into results (docs/rules/starcraft.md §3, §5, §7).
"""

from __future__ import annotations

import dataclasses
import functools
import re
from collections.abc import Mapping, Sequence
from concurrent.futures import Executor
from typing import Any

import numpy as np

from mathhammer import _core
from mathhammer.core import sampling
from mathhammer.core.batches import ResultBatch, broadcast, checked_items, is_sequence, item_error, item_seeds
from mathhammer.core.checks import check_int
from mathhammer.core.distributions import Distribution
from mathhammer.core.options import DEFAULT_SAMPLES, EngineOptions, METHODS, Progress, engine_options, work_starts
from mathhammer.core.profiles import field_inside, profile_from_table
from mathhammer.errors import InputError, InputTypeError
from mathhammer.starcraft.plan import (
    MAX_BATCHES,
    MAX_FACES,
    AttackCase,
    Plan,
    attack_case,
    batch_label,
    plan_batch,
    unit_profile,
    unit_state,
)
from mathhammer.starcraft.profiles import ATTACK_KWARGS, Batch, Unit, Weapon
from mathhammer.starcraft.results import AttackResult, AttackTables, BatchSummary, Resolution, SequenceResult, StateDistribution
from mathhammer.starcraft.variants import Variants, check_variants

__all__ = ["attack", "attack_batch", "resolve", "sequence"]

_sc = _core.starcraft


# Steps of the exact sequence propagation before method="auto" samples instead (about 0.2 s).
MAX_EXACT_WORK = 2e8


def _run(kernel: sampling.Kernel, options: EngineOptions) -> tuple[np.ndarray, int, int]:
    """Monte Carlo: the probabilities of every counted cell, the samples and the seed used."""
    seed = options.draw_seed()
    counts = sampling.run_monte_carlo(kernel, options.samples, seed, sampling.resolve_threads(options.threads),
                                      options.progress, options.executor)
    return counts / options.samples, options.samples, seed


# ---- one batch -------------------------------------------------------------------------------------

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
    case = attack_case(weapon, unit, rule_variants, kwargs)
    work_starts()
    if options.method == "monte_carlo":
        return _sampled_attack(case, options, rule_variants)
    return _attack_result(case, _sc.exact_attack_tables(case.native), None, "exact", None, rule_variants)


def _sampled_attack(case: AttackCase, options: EngineOptions, variants: Variants) -> AttackResult:
    config = case.plan.config
    kernel = functools.partial(_sc.sample_attack, config)  # picklable: process pools and Dask run it
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


def _attack_result(case: AttackCase, tables: tuple[np.ndarray, tuple[int, ...], float, float, np.ndarray],
                   samples: int | None, method: str, seed: int | None, variants: Variants) -> AttackResult:
    """The result of C++-shaped tables (exact_attack_tables / attack_tables); its distributions,
    stages and state are built from them on first use."""
    values, sizes, destroyed, shield_lost, states = tables
    plan = case.plan
    return AttackResult._lazy(
        AttackTables(values, sizes, states, plan.dice, samples),
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
        labels=case.labels,
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
    and ``executor``. Seeds: a sequence gives each item its own; one seed (drawn when None) gives item
    i ``cell_seed(seed, i)`` (``mathhammer.core.sampling``), so every Monte Carlo item is ``sc.attack``
    with ``seed=batch[i].seed``. An invalid item fails the whole call with an error naming it
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
    cases: list[AttackCase] = []
    seeds = item_seeds(items["seed"], single["seed"])
    # Items made of the very same objects share their checked options and case (keyed by identity,
    # so 1 and True stay apart; every object is held by `items` for the whole call).
    known: dict[tuple[Any, ...], Any] = {}
    for i in range(size):
        try:
            parts = (items["method"][i], items["samples"][i], items["threads"][i])
            key = ("options", *map(id, parts))
            options = known.get(key)
            if options is None:
                options = known[key] = engine_options(parts[0], parts[1], None, parts[2], progress, executor,
                                                      methods=METHODS)
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
                case = known[key] = attack_case(weapon_list[i], unit_list[i], rule_variants, kw)
            cases.append(case)
        except InputError as error:
            raise _item_error(error, i, single) from None
    exact = [i for i in range(size) if option_list[i].method != "monte_carlo"]
    resolved = _sc.exact_attack_tables_batch([cases[i].native for i in exact]) if exact else None
    position = {i: k for k, i in enumerate(exact)}
    sampled = {i: _sampled_attack(cases[i], dataclasses.replace(option_list[i], seed=seeds(i)), variant_list[i])
               for i in range(size) if i not in position}

    def build(i: int) -> AttackResult:
        if i in sampled or resolved is None:
            return sampled[i]
        return _attack_result(cases[i], resolved[position[i]], None, "exact", None, variant_list[i])

    return ResultBatch(size, build)


# plan_batch's error fields that name another argument of the batch than their own head
_FIELD_ARGUMENT = {"weapon": "weapons", "unit": "units"}


def _item_error(error: InputError, index: int, single: Mapping[str, bool]) -> InputError:
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
    except InputError as error:
        raise field_inside("weapon", error) from None
    try:
        built_unit = _unit(unit)
    except InputError as error:
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
        except InputError as error:
            message = str(error)[len(error.field) + 2:]
            raise type(error)(f"batches[{i}].{error.field}", message) from None
    configs = [p.config for p in plans]
    profile, start = unit_profile(unit), unit_state(unit)
    layout = _sc.sequence_layout(profile, start, configs)
    work_starts()

    if method in ("auto", "exact"):
        probs = np.asarray(_sc.exact_sequence(profile, start, configs, MAX_EXACT_WORK))
        if probs.size:
            return _sequence_result(batches, plans, unit, layout, probs, None, "exact", None, rule_variants)
        if method == "exact":
            raise InputError("method", "the exact propagation over (unit state, total damage) is too large for these batches; "
                                       "use method='monte_carlo' or 'auto'")
    kernel = functools.partial(_sc.sample_sequence, profile, start, configs)  # picklable: process pools and Dask run it
    probs, n, seed_used = _run(kernel, options)
    return _sequence_result(batches, plans, unit, layout, probs, n, "monte_carlo", seed_used, rule_variants)


def _sequence_result(batches: Sequence[Batch], plans: list[Plan], unit: Unit, layout: _sc.SequenceLayout, probs: np.ndarray, samples: int | None,
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
    for index, (batch, plan, slot) in enumerate(zip(batches, plans, layout.batches)):
        batch_marker = probs[slot.marker: slot.marker + marker_size]
        summaries.append(BatchSummary(
            damage=dist(slot.damage, slot.damage_size),
            casualties=dist(slot.casualties, models_size),
            marker=Distribution(batch_marker[: max(1, int(np.flatnonzero(batch_marker).max(initial=0)) + 1)], samples=samples),
            destroyed=float(probs[slot.destroyed]),
            shield_lost=float(probs[slot.shield_lost]),
            reaction_ignored=plan.reaction_ignored,
            label=batch_label(index, batch.weapon, batch.kwargs),
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
        inputs=(f"unit: {unit}",),
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
