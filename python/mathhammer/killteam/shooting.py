"""Kill Team 2024 shooting (docs/rules/killteam.md §2): the damage one weapon deals to one operative.

>>> from mathhammer import killteam as kt
>>> gun = kt.Weapon(attacks=4, hit=3, damage=(3, 4), rules="Piercing 1, Lethal 5+")
>>> r = kt.shoot(gun, kt.Operative(save=3, wounds=12), cover=1)
>>> round(r.damage.mean, 4), round(r.kill_chance, 4)
(5.1687, 0.0453)

The exact engine (the default) enumerates every retained attack (crits, norms) and every retained
save, resolves each in C++ (Devastating, optimal blocks, Just a Scratch, Saintly Relics, Durable,
damage, Feel No Pain), and expands Feel No Pain and the relic rolls as exact branches; rounds are
convolved with the relic's two-per-battle budget as state. The Monte Carlo engine rolls every die in
C++ through the same resolution functions.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from concurrent.futures import Executor
from typing import Any

import numpy as np

from mathhammer import _core
from mathhammer.core import sampling
from mathhammer.core.batches import ResultBatch, broadcast, checked_items, is_sequence, item_error, item_seeds
from mathhammer.core.checks import check_int
from mathhammer.core.distributions import Distribution, JointDistribution
from mathhammer.core.options import DEFAULT_SAMPLES, EXACT_FIRST, EngineOptions, Progress, engine_options, work_starts
from mathhammer.core.profiles import field_inside, profile_from_table
from mathhammer.errors import InputError
from mathhammer.killteam.plan import TABLE_SIDE as _TABLE_SIDE
from mathhammer.killteam.plan import Shot, shot, shot_label
from mathhammer.killteam.profiles import MAX_WOUNDS, Operative, Weapon
from mathhammer.killteam.results import ShootResult
from mathhammer.killteam.shot_figures import (
    SUMMARY_KEYS, ExactShotFields, exact_columns, exact_summary, injury_chance, kill_chance, wounds_left,
)
from mathhammer.killteam.variants import Variants

__all__ = ["ShootResult", "shoot", "shoot_batch", "shoot_many"]

_kt = _core.killteam


_SAVE_SIDE = 4

def shoot(
    weapon: Weapon | Mapping[str, Any],
    target: Operative | Mapping[str, Any],
    cover: int = 0,
    obscured: bool = False,
    rounds: int = 1,
    *,
    cover_crits: int = 0,
    shooter_wounds: int | None = None,
    method: str = "exact",
    samples: int = DEFAULT_SAMPLES,
    seed: int | None = None,
    threads: int | None = None,
    progress: Progress | None = None,
    executor: Executor | None = None,
    variants: Variants | Mapping[str, Any] | str | None = None,
) -> ShootResult:
    """The damage ``weapon`` deals to ``target`` over ``rounds`` shots (docs/rules/killteam.md §2).

    cover: cover saves retained without rolling (0 = not in cover, 1 = in cover; 0..3).
    cover_crits: crit saves retained without rolling (0..3), taken before ``cover``; Saturate denies both.
    obscured: the target is obscured (crits become norms, then one success is discarded).
    rounds: independent shots (1..9); damage adds up and Saintly Relics' two-per-battle cap spans them.
    shooter_wounds: the shooter's wounds (1..40), for the chance a Hot weapon incapacitates it
    (``result.shooter_death_chance``); a Hot weapon's ``result.self_damage`` is the damage the
    shooter takes, one D6 a round (docs/rules/killteam.md §2.2).
    method: "exact" (default; every face enumerated), "monte_carlo" (``samples`` shots rolled in
    C++ with ``seed`` over ``threads``; ``progress(done, total)`` between batches; batches go to
    ``executor`` when given) or "auto" (exact, which is always cheap for shooting).
    variants: Kill Team's rule switches (``kt.Variants``, docs/rules/killteam.md §8.5): None (this
    project's readings), "ktcalc" (the reference calculator's), a mapping or "field=value,...".
    Fight-only weapon rules and abilities (Brutal, Shock, Storm Shield, ...) have no effect here.
    ``weapon`` / ``target`` may also be tables of the profile's fields (``Weapon.from_dict``), as in
    ``kt.shoot_batch``.
    """
    options = engine_options(method, samples, seed, threads, progress, executor, methods=EXACT_FIRST)
    rule_variants = Variants.resolve(variants)
    if not isinstance(weapon, Weapon) or not isinstance(target, Operative):
        weapon, target = _profiles_from_tables(weapon, target)
    planned = shot(weapon, target, cover, obscured, rounds, cover_crits, rule_variants)
    shooter = _checked_shooter_wounds(shooter_wounds)
    work_starts()
    if options.method != "monte_carlo":
        return _exact_result(_kt.shoot_exact_tables(planned.config), planned, shooter)
    config = planned.config
    samples = options.samples
    seed_used = options.draw_seed()
    threads_used = sampling.resolve_threads(options.threads)
    kernel = functools.partial(_kt.shoot_counts, config)
    counts = sampling.run_monte_carlo(kernel, samples, seed_used, threads_used, options.progress, options.executor)
    side = weapon.attacks + 1
    # the histogram: damage, attack dice, saves, then the shooter's Hot damage (shoot_histogram_bins)
    self_bins = _kt.shoot_self_damage_bins(config)
    saves_end = counts.size - self_bins
    damage_bins = saves_end - _TABLE_SIDE * _TABLE_SIDE - _SAVE_SIDE * _SAVE_SIDE
    damage_counts = np.trim_zeros(counts[:damage_bins], "b")
    attack_counts = counts[damage_bins : damage_bins + _TABLE_SIDE * _TABLE_SIDE].reshape(_TABLE_SIDE, _TABLE_SIDE)
    save_counts = counts[damage_bins + _TABLE_SIDE * _TABLE_SIDE : saves_end].reshape(_SAVE_SIDE, _SAVE_SIDE)
    damage = Distribution.from_counts(damage_counts)
    attack = JointDistribution.from_counts(attack_counts[:side, :side], names=("crits", "norms"))
    saves = JointDistribution.from_counts(save_counts, names=("crit_saves", "norm_saves"))
    hot = Distribution.from_counts(np.trim_zeros(counts[saves_end:], "b")) if self_bins else None
    return _result(damage, attack, saves, "monte_carlo", samples, seed_used, planned, hot, shooter)


def _checked_shooter_wounds(value: Any) -> int | None:
    return None if value is None else check_int("shooter_wounds", value, 1, MAX_WOUNDS)


def _exact_result(tables: _kt.ShotTables, planned: Shot, shooter_wounds: int | None) -> ShootResult:
    # tables: the engine's (trailing zeros trimmed, attack table cut). The distributions and figures
    # are made when first read (ExactShotFields), each once.
    ready = _ready_fields("exact", None, None, planned, shooter_wounds)
    return ShootResult._pending_result(ready, ExactShotFields(tables, planned))


def _ready_fields(method_used: str, n: int | None, seed_used: int | None, planned: Shot,
                  shooter_wounds: int | None) -> dict[str, Any]:
    # a shot result's fields that are not made from the engine's tables
    return {"method": method_used, "samples": n, "wounds": planned.target.wounds, "cover": planned.cover, "obscured": planned.obscured,
            "rounds": planned.rounds, "seed": seed_used, "variants": planned.variants,
            "cover_crits": planned.cover_crits, "shooter_wounds": shooter_wounds}


def _result(damage: Distribution, attack: JointDistribution, saves: JointDistribution, method_used: str,
            n: int | None, seed_used: int | None, planned: Shot, self_damage: Distribution | None,
            shooter_wounds: int | None) -> ShootResult:
    # A result with every field made now (the Monte Carlo engine's), set straight into the new object:
    # the frozen dataclass' __init__ would set them one by one through object.__setattr__.
    wounds = planned.target.wounds
    pmf = damage.pmf
    result = object.__new__(ShootResult)
    result.__dict__.update(
        _ready_fields(method_used, n, seed_used, planned, shooter_wounds),
        weapon=shot_label(planned.weapon),
        target=shot_label(planned.target),
        self_damage=self_damage,
        damage=damage,
        wounds_left=wounds_left(pmf, wounds, n),
        kill_chance=kill_chance(pmf, wounds),
        injury_chance=injury_chance(pmf, wounds),
        retained_attack=attack,
        retained_saves=saves,
    )
    return result


def _profiles_from_tables(weapon: Any, target: Any) -> tuple[Weapon, Operative]:
    """kt.shoot's weapon and target given as tables of their fields; an error names the field
    inside its argument (``weapon.attacks``)."""
    try:
        built_weapon = profile_from_table(Weapon, weapon, "weapon", "a kt.")
    except InputError as error:
        raise field_inside("weapon", error) from None
    try:
        built_target = profile_from_table(Operative, target, "target", "a kt.")
    except InputError as error:
        raise field_inside("target", error) from None
    return built_weapon, built_target


def shoot_batch(
    weapons: Weapon | Mapping[str, Any] | Sequence[Weapon | Mapping[str, Any]],
    targets: Operative | Mapping[str, Any] | Sequence[Operative | Mapping[str, Any]],
    cover: int | Sequence[int] = 0,
    obscured: bool | Sequence[bool] = False,
    rounds: int | Sequence[int] = 1,
    *,
    cover_crits: int | Sequence[int] = 0,
    shooter_wounds: int | None | Sequence[int | None] = None,
    method: str | Sequence[str] = "exact",
    samples: int | Sequence[int] = DEFAULT_SAMPLES,
    seed: int | None | Sequence[int | None] = None,
    threads: int | None | Sequence[int | None] = None,
    progress: Progress | None = None,
    executor: Executor | None = None,
    variants: Variants | Mapping[str, Any] | str | None | Sequence[Variants | Mapping[str, Any] | str | None] = None,
) -> ResultBatch[ShootResult]:
    """Many shots in one call: ``batch[i]`` equals ``kt.shoot`` of the i-th item.

    Each argument is one value or a sequence (list, tuple, range or numpy array); sequences have the
    same length and single values are repeated to it. A profile may also be given as a table of its
    fields. The exact items are resolved in one C++ call with the GIL released; Monte Carlo items run
    one after the other, each with ``progress`` and ``executor``. Seeds: a sequence gives each item its
    own; one seed (drawn when None) gives item i ``cell_seed(seed, i)`` (``mathhammer.core.sampling``),
    so every Monte Carlo item is ``kt.shoot`` with ``seed=batch[i].seed``. An invalid item fails the
    whole call with an error naming it (``weapons[3].hit: ...``).
    """
    arguments: dict[str, Any] = {
        "weapons": weapons, "targets": targets, "cover": cover, "obscured": obscured, "rounds": rounds,
        "cover_crits": cover_crits, "shooter_wounds": shooter_wounds, "method": method, "samples": samples,
        "seed": seed, "threads": threads, "variants": variants,
    }
    size, items = broadcast(arguments)
    single = {name: not is_sequence(value) for name, value in arguments.items()}
    weapon_list = checked_items("weapons", items["weapons"], single, lambda w: profile_from_table(Weapon, w, "weapon", "a kt."), "weapon")
    target_list = checked_items("targets", items["targets"], single, lambda t: profile_from_table(Operative, t, "target", "a kt."), "target")
    variant_list = checked_items("variants", items["variants"], single, Variants.resolve)
    shooter_list = checked_items("shooter_wounds", items["shooter_wounds"], single, _checked_shooter_wounds)
    # Items made of the very same option objects share their checked options (keyed by identity, so
    # 1 and True stay apart; every object is held by `items` for the whole call). The seeds are
    # checked on their own: a sweep's cells each bring a different one.
    known_options: dict[tuple[int, ...], EngineOptions] = {}
    methods, sample_list, thread_list = items["method"], items["samples"], items["threads"]
    covers, obscureds, rounds_list, cover_crits_list = (items["cover"], items["obscured"], items["rounds"],
                                                        items["cover_crits"])
    seeds = item_seeds(items["seed"], single["seed"])
    shared = single["method"] and single["samples"] and single["threads"]  # then item 0's are every item's
    option_list: list[EngineOptions] = []
    shots: list[Shot] = []
    for i in range(size):
        try:
            if shared and option_list:
                options = option_list[0]
            else:
                parts = (methods[i], sample_list[i], thread_list[i])
                key = tuple(map(id, parts))
                if key not in known_options:
                    known_options[key] = engine_options(parts[0], parts[1], None, parts[2], progress, executor,
                                                        methods=EXACT_FIRST)
                options = known_options[key]
            option_list.append(options)
            # each distinct shot's configuration and labels are cached (by identity, then by value)
            shots.append(shot(weapon_list[i], target_list[i], covers[i], obscureds[i], rounds_list[i],
                               cover_crits_list[i], variant_list[i]))
        except InputError as error:
            name = error.field.split(".")[0]
            raise item_error(error, name, i, single.get(name, True)) from None
    exact = [i for i in range(size) if option_list[i].method != "monte_carlo"]
    # one C++ call for every exact item; its arrays are made when batch[i] is first read
    resolved = _kt.shoot_exact_batch([shots[i].config for i in exact]) if exact else None
    position = {i: k for k, i in enumerate(exact)}
    sampled = {i: shoot(weapon_list[i], target_list[i], covers[i], obscureds[i], rounds_list[i],
                        cover_crits=cover_crits_list[i], shooter_wounds=shooter_list[i], method="monte_carlo",
                        samples=option_list[i].samples, seed=seeds(i), threads=option_list[i].threads, progress=progress,
                        executor=executor, variants=variant_list[i])
               for i in range(size) if i not in position}

    def build(i: int) -> ShootResult:
        if i in sampled:
            return sampled[i]
        assert resolved is not None  # i is an exact item
        return _exact_result(resolved[position[i]], shots[i], shooter_list[i])

    def summarize(i: int) -> dict[str, float]:
        if i in sampled:
            return sampled[i].summary()
        assert resolved is not None
        k = position[i]
        return exact_summary(resolved.damage(k), shots[i].target.wounds, resolved.self_damage(k))

    def columns() -> dict[str, np.ndarray]:
        out = {key: np.empty(size) for key in SUMMARY_KEYS}
        if resolved is not None:
            rows = np.asarray(exact, dtype=np.intp)
            figures = exact_columns(resolved, np.array([shots[i].target.wounds for i in exact], dtype=np.intp))
            for key, column in figures.items():
                out[key][rows] = column
        for i, result in sampled.items():
            for key, value in result.summary().items():
                out[key][i] = value
        return out

    return ResultBatch(size, build, summarize, columns)


#: kt.shoot_many is kt.shoot_batch
shoot_many = shoot_batch
