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
from dataclasses import dataclass
from typing import Any

import numpy as np

from mathhammer import _core, sampling
from mathhammer._validate import InputError, InputTypeError, check_bool, check_int
from mathhammer.batch import (
    ResultBatch,
    broadcast,
    checked_items,
    field_inside,
    is_sequence,
    item_error,
    profile_from_table,
)
from mathhammer.killteam.profiles import Operative, Weapon
from mathhammer.killteam.variants import Variants
from mathhammer.options import MAX_SEED, EngineOptions, Progress, engine_options
from mathhammer.results import Distribution, EngineResult, Figure, JointDistribution, mean_stderr, probability_stderr, std_stderr

__all__ = ["MAX_COVER", "MAX_ROUNDS", "METHODS", "ShootResult", "shoot", "shoot_batch", "shoot_config", "shoot_many"]

_kt = _core.killteam
METHODS: tuple[str, ...] = ("exact", "monte_carlo", "auto")
MAX_ROUNDS: int = int(_kt.MAX_ROUNDS)
MAX_COVER = 3
DEFAULT_SAMPLES = 1_000_000
_TABLE_SIDE = int(_kt.MAX_DICE) + 1
_SAVE_SIDE = 4
# configurations and labels kept by value: enough for a sweep of many thousand different shots
# (a configuration is a few hundred bytes)
_CACHED_SHOTS = 32_768
_sum = np.add.reduce  # ndarray.sum without its Python-level wrapper (the same summation)


@dataclass(frozen=True)
class ShootResult(EngineResult):
    """The outcome of ``rounds`` shots of one weapon at one operative.

    ``damage`` is the total damage (not capped at the target's wounds); ``kill_chance`` is
    P(damage >= wounds), ``injury_chance`` P(wounds / 2 < damage < wounds) (fewer than half its
    wounds left but alive) and ``wounds_left`` the distribution of max(0, wounds - damage).
    ``retained_attack`` (crits, norms) and ``retained_saves`` (crit saves, normal saves, cover saves
    included) are per attack; with Monte Carlo they are counted over every round of every sample.
    """

    damage: Distribution
    wounds_left: Distribution
    kill_chance: float
    injury_chance: float
    retained_attack: JointDistribution
    retained_saves: JointDistribution
    method: str
    samples: int | None
    weapon: str
    target: str
    wounds: int
    cover: int
    obscured: bool
    rounds: int
    seed: int | None = None
    variants: Variants = Variants()
    cover_crits: int = 0

    def _figures(self) -> dict[str, Figure]:
        n = self.samples
        return {
            "mean_damage": (self.damage.mean, mean_stderr(self.damage, n)),
            "std_damage": (self.damage.std, std_stderr(self.damage, n)),
            "kill_chance": (self.kill_chance, probability_stderr(self.kill_chance, n)),
            "injury_chance": (self.injury_chance, probability_stderr(self.injury_chance, n)),
        }

    def plot_series(self) -> tuple[list[tuple[str, Distribution]], str, str]:
        situation = [f"cover {self.cover}"] + (["obscured"] if self.obscured else [])
        situation += [f"{self.rounds} rounds"] if self.rounds > 1 else []
        return [("damage", self.damage)], "damage", f"{self.weapon} vs {self.target} ({', '.join(situation)})"

    @property
    def mean(self) -> float:
        """Mean total damage."""
        return self.damage.mean

    @property
    def kill_stderr(self) -> float | None:
        """Standard error of ``kill_chance`` (Monte Carlo only)."""
        return probability_stderr(self.kill_chance, self.samples)

    @property
    def injury_stderr(self) -> float | None:
        """Standard error of ``injury_chance`` (Monte Carlo only)."""
        return probability_stderr(self.injury_chance, self.samples)

    def to_frame(self) -> Any:
        """One row per damage value: damage, p, p_at_least, (stderr), wounds_left, kills."""
        frame = self.damage.to_frame("damage")
        frame["wounds_left"] = np.maximum(0, self.wounds - frame["damage"])
        frame["kills"] = frame["damage"] >= self.wounds
        return frame


@functools.lru_cache(maxsize=_CACHED_SHOTS)
def _weapon_side(weapon: Weapon, obscured: bool, variants: Variants) -> tuple[Any, str]:
    # the fields of a shot that come from the weapon and the rule variants (see shoot_config_join),
    # and the weapon's text for the result
    from mathhammer.killteam.attack_dice import attack_profile

    rules = weapon.rules
    c = _kt.ShootConfig()
    c.attack = attack_profile(weapon, obscured, variants)
    c.normal_damage, c.critical_damage = weapon.damage
    c.devastating = rules.devastating
    c.piercing = rules.piercing
    c.piercing_crits = rules.piercing_crits
    c.saturate = rules.saturate
    c.ones = getattr(_kt.Ones, variants.ones)
    c.blocks = getattr(_kt.BlockRule, variants.blocks)
    c.scratch = getattr(_kt.ScratchTiming, variants.just_a_scratch)
    c.fnp = getattr(_kt.FnpRule, variants.fnp)
    return c, str(weapon)


@functools.lru_cache(maxsize=_CACHED_SHOTS)
def _target_side(target: Operative) -> tuple[Any, str]:
    # the fields of a shot that come from the target (see shoot_config_join), and its text
    abilities = target.abilities
    c = _kt.ShootConfig()
    c.save = target.save
    c.hardy = abilities.hardy or 0
    c.save_reroll = getattr(_kt.Reroll, abilities.save_reroll)
    c.defender_punishing = abilities.punishing
    c.indomitus = abilities.indomitus
    c.save_fails_to_norms = abilities.save_fails_to_norms
    c.save_norms_to_crits = abilities.save_norms_to_crits
    c.just_a_scratch = abilities.just_a_scratch
    c.just_a_scratch_normals = abilities.just_a_scratch_normals
    c.durable = abilities.durable
    c.feel_no_pain = abilities.feel_no_pain or 0
    c.saintly_relics = abilities.saintly_relics
    return c, str(target)


def _check_profiles(weapon: Any, target: Any) -> None:
    if not isinstance(weapon, Weapon):
        raise InputTypeError("weapon", f"expected a kt.Weapon, got {type(weapon).__name__}")
    if not isinstance(target, Operative):
        raise InputTypeError("target", f"expected a kt.Operative, got {type(target).__name__}")


# A shot as the engine needs it: the profiles and variants it was made from (held, so their ids
# stay theirs), the C++ configuration, the profiles' labels and the checked situation.
_Shot = tuple[Weapon, Operative, Variants, Any, str, str, int, bool, int, int]
# The shots of recent calls by the identity of their (immutable) profiles and variants: a repeated
# call finds its shot with one small dict lookup instead of hashing the profiles by value. Each entry
# holds the very objects its key names (the shot may hold equal, older ones), so that no id in a key
# can be reused by another object while the entry lives.
_shots_by_identity: dict[tuple[int, int, int, bool, int, int, int], tuple[Weapon, Operative, Variants, _Shot]] = {}


def _shot(weapon: Weapon, target: Operative, cover: int, obscured: bool, rounds: int, cover_crits: int,
          rule_variants: Variants) -> _Shot:
    # exact types only in the key, so that True never finds the shot of 1
    plain = type(cover) is int and type(obscured) is bool and type(rounds) is int and type(cover_crits) is int
    if plain:
        key = (id(weapon), id(target), cover, obscured, rounds, cover_crits, id(rule_variants))
        found = _shots_by_identity.get(key)
        if found is not None:
            return found[3]
    _check_profiles(weapon, target)
    if not (plain and 0 <= cover <= MAX_COVER and 0 <= cover_crits <= MAX_COVER and 1 <= rounds <= MAX_ROUNDS):
        cover, obscured, rounds, cover_crits = _checked_situation(cover, obscured, rounds, cover_crits)
    shot = _cached_shot(weapon, target, cover, obscured, rounds, cover_crits, rule_variants)
    if plain:
        if len(_shots_by_identity) >= _CACHED_SHOTS:
            _shots_by_identity.clear()
        _shots_by_identity[key] = (weapon, target, rule_variants, shot)
    return shot


@functools.lru_cache(maxsize=_CACHED_SHOTS)
def _cached_shot(weapon: Weapon, target: Operative, cover: int, obscured: bool, rounds: int, cover_crits: int,
                 rule_variants: Variants) -> _Shot:
    # checked values only (plain ints and bools), so that the key of 1 is never the key of True.
    # Joined in C++ from the weapon's side and the target's, each built once per distinct profile:
    # a batch or sweep of many shots has far fewer weapons and targets than shots.
    weapon_side, weapon_label = _weapon_side(weapon, obscured, rule_variants)
    target_side, target_label = _target_side(target)
    config = _kt.shoot_config_join(weapon_side, target_side, cover, cover_crits, rounds)
    return (weapon, target, rule_variants, config, weapon_label, target_label, cover, obscured, rounds, cover_crits)


def _checked_situation(cover: Any, obscured: Any, rounds: Any, cover_crits: Any) -> tuple[int, bool, int, int]:
    cover = check_int("cover", cover, 0, MAX_COVER)
    cover_crits = check_int("cover_crits", cover_crits, 0, MAX_COVER)
    obscured = check_bool("obscured", obscured)
    rounds = check_int("rounds", rounds, 1, MAX_ROUNDS)
    return cover, obscured, rounds, cover_crits


def _clear_caches() -> None:
    """Forget every cached shot (the cold benchmarks start from nothing)."""
    _shots_by_identity.clear()
    _cached_shot.cache_clear()
    _weapon_side.cache_clear()
    _target_side.cache_clear()


def shoot_config(weapon: Weapon, target: Operative, cover: int = 0, obscured: bool = False, rounds: int = 1,
                 cover_crits: int = 0, variants: Variants | None = None) -> Any:
    """The validated C++ configuration of a shot (cached; treat it as read-only)."""
    _check_profiles(weapon, target)
    if type(cover) is int and type(cover_crits) is int and type(rounds) is int and type(obscured) is bool \
            and 0 <= cover <= MAX_COVER and 0 <= cover_crits <= MAX_COVER and 1 <= rounds <= MAX_ROUNDS:
        # already valid plain values: the checks below would return them unchanged
        return _cached_shot(weapon, target, cover, obscured, rounds, cover_crits,
                            variants if variants is not None else Variants.resolve(None))[3]
    cover, obscured, rounds, cover_crits = _checked_situation(cover, obscured, rounds, cover_crits)
    rule_variants = variants if variants is not None else Variants.resolve(None)
    return _cached_shot(weapon, target, cover, obscured, rounds, cover_crits, rule_variants)[3]


def shoot(
    weapon: Weapon | Mapping[str, Any],
    target: Operative | Mapping[str, Any],
    cover: int = 0,
    obscured: bool = False,
    rounds: int = 1,
    *,
    cover_crits: int = 0,
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
    method: "exact" (default; every face enumerated), "monte_carlo" (``samples`` shots rolled in
    C++ with ``seed`` over ``threads``; ``progress(done, total)`` between batches; batches go to
    ``executor`` when given) or "auto" (exact, which is always cheap for shooting).
    variants: Kill Team's rule switches (``kt.Variants``, docs/rules/killteam.md §8.5): None (this
    project's readings), "ktcalc" (the reference calculator's), a mapping or "field=value,...".
    Fight-only weapon rules and abilities (Brutal, Shock, Storm Shield, ...) have no effect here.
    ``weapon`` / ``target`` may also be tables of the profile's fields (``Weapon.from_dict``), as in
    ``kt.shoot_batch``.
    """
    options = engine_options(method, samples, seed, threads, progress, executor, methods=METHODS)
    rule_variants = Variants.resolve(variants)
    if not isinstance(weapon, Weapon) or not isinstance(target, Operative):
        weapon, target = _profiles_from_tables(weapon, target)
    shot = _shot(weapon, target, cover, obscured, rounds, cover_crits, rule_variants)
    if options.method != "monte_carlo":
        return _exact_result(_kt.shoot_exact_shaped(shot[3]), shot)
    config = shot[3]
    samples = options.samples
    seed_used = options.draw_seed()
    threads_used = sampling.resolve_threads(options.threads)
    kernel = functools.partial(_kt.shoot_counts, config)
    counts = sampling.run_monte_carlo(kernel, samples, seed_used, threads_used, options.progress, options.executor)
    side = weapon.attacks + 1
    damage_bins = counts.size - _TABLE_SIDE * _TABLE_SIDE - _SAVE_SIDE * _SAVE_SIDE
    damage_counts = np.trim_zeros(counts[:damage_bins], "b")
    attack_counts = counts[damage_bins : damage_bins + _TABLE_SIDE * _TABLE_SIDE].reshape(_TABLE_SIDE, _TABLE_SIDE)
    save_counts = counts[damage_bins + _TABLE_SIDE * _TABLE_SIDE :].reshape(_SAVE_SIDE, _SAVE_SIDE)
    damage = Distribution.from_counts(damage_counts)
    attack = JointDistribution.from_counts(attack_counts[:side, :side], names=("crits", "norms"))
    saves = JointDistribution.from_counts(save_counts, names=("crit_saves", "norm_saves"))
    return _result(damage, attack, saves, "monte_carlo", samples, seed_used, shot)


_ATTACK_NAMES = ("crits", "norms")
_SAVE_NAMES = ("crit_saves", "norm_saves")


def _exact_result(arrays: tuple[np.ndarray, np.ndarray, np.ndarray], shot: _Shot) -> ShootResult:
    # arrays: shoot_exact_shaped's fresh arrays (trailing zeros trimmed, attack table cut), owned here
    pmf, attack_pmf, save_pmf = arrays
    damage = Distribution._adopt(pmf)
    attack = JointDistribution._adopt(attack_pmf, _ATTACK_NAMES)
    saves = JointDistribution._adopt(save_pmf, _SAVE_NAMES)
    return _result(damage, attack, saves, "exact", None, None, shot)


def _kill_injury(pmf: np.ndarray, wounds: int) -> tuple[float, float]:
    kill = float(min(1.0, _sum(pmf[wounds:])))
    # Injured: more than half the starting wounds lost, but alive.
    injury = float(min(1.0, _sum(pmf[wounds // 2 + 1 : wounds])))
    return kill, injury


def _exact_summary(pmf: np.ndarray, wounds: int) -> dict[str, float]:
    # ShootResult.summary() of an exact shot from its damage pmf alone: the same figures computed
    # the same way (_figures, _kill_injury), without the tables and the result object
    damage = Distribution._adopt(pmf)
    kill, injury = _kill_injury(pmf, wounds)
    return {"mean_damage": float(damage.mean), "std_damage": float(damage.std), "kill_chance": float(kill),
            "injury_chance": float(injury)}


def _result(damage: Distribution, attack: JointDistribution, saves: JointDistribution, method_used: str,
            n: int | None, seed_used: int | None, shot: _Shot) -> ShootResult:
    target = shot[1]
    wounds = target.wounds
    pmf = damage.pmf
    kill, injury = _kill_injury(pmf, wounds)
    left = np.zeros(wounds + 1)
    alive = pmf[:wounds]  # never empty: damage 0 is in the pmf and wounds >= 1
    left[wounds - alive.size + 1 :] = alive[::-1]
    left[0] = kill
    # Every field, set straight into the new object: the frozen dataclass' __init__ would set them
    # one by one through object.__setattr__, which costs more than the rest of a small shot's result.
    result = object.__new__(ShootResult)
    result.__dict__.update(
        damage=damage,
        wounds_left=Distribution._adopt(left, samples=n),
        kill_chance=kill,
        injury_chance=injury,
        retained_attack=attack,
        retained_saves=saves,
        method=method_used,
        samples=n,
        weapon=shot[4],
        target=shot[5],
        wounds=wounds,
        cover=shot[6],
        obscured=shot[7],
        rounds=shot[8],
        seed=seed_used,
        variants=shot[2],
        cover_crits=shot[9],
    )
    return result


def _profiles_from_tables(weapon: Any, target: Any) -> tuple[Weapon, Operative]:
    """kt.shoot's weapon and target given as tables of their fields; an error names the field
    inside its argument (``weapon.attacks``)."""
    try:
        built_weapon = profile_from_table(Weapon, weapon, "weapon", "a kt.")
    except (InputError, InputTypeError) as error:
        raise field_inside("weapon", error) from None
    try:
        built_target = profile_from_table(Operative, target, "target", "a kt.")
    except (InputError, InputTypeError) as error:
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
    one after the other, each with ``progress`` and ``executor``. An invalid item fails the whole call
    with an error naming it (``weapons[3].hit: ...``).
    """
    arguments: dict[str, Any] = {
        "weapons": weapons, "targets": targets, "cover": cover, "obscured": obscured, "rounds": rounds,
        "cover_crits": cover_crits, "method": method, "samples": samples, "seed": seed, "threads": threads,
        "variants": variants,
    }
    size, items = broadcast(arguments)
    single = {name: not is_sequence(value) for name, value in arguments.items()}
    weapon_list = checked_items("weapons", items["weapons"], single, lambda w: profile_from_table(Weapon, w, "weapon", "a kt."), "weapon")
    target_list = checked_items("targets", items["targets"], single, lambda t: profile_from_table(Operative, t, "target", "a kt."), "target")
    variant_list = checked_items("variants", items["variants"], single, Variants.resolve)
    # Items made of the very same option objects share their checked options (keyed by identity, so
    # 1 and True stay apart; every object is held by `items` for the whole call).
    known_options: dict[tuple[int, ...], EngineOptions] = {}
    shared_options = single["method"] and single["samples"] and single["seed"] and single["threads"]
    methods, sample_list, seeds, thread_list = items["method"], items["samples"], items["seed"], items["threads"]
    covers, obscureds, rounds_list, cover_crits_list = (items["cover"], items["obscured"], items["rounds"],
                                                        items["cover_crits"])
    # Only the seeds vary (a sweep's cell seeds): the other options are checked with item 0's, and an
    # exact item's seed, which it does not use, only needs to be a valid one.
    seeds_only = single["method"] and single["samples"] and single["threads"]
    first: EngineOptions | None = None  # item 0's options
    option_list: list[EngineOptions] = []
    shots: list[_Shot] = []
    for i in range(size):
        try:
            seed_i = seeds[i]
            if first is not None and (shared_options or seeds_only and first.method != "monte_carlo" and (
                    seed_i is None or type(seed_i) is int and 0 <= seed_i <= MAX_SEED)):
                options = first  # its method and checks are this item's too
            else:
                parts = (methods[i], sample_list[i], seed_i, thread_list[i])
                key = tuple(map(id, parts))
                if key not in known_options:
                    known_options[key] = engine_options(*parts, progress, executor, methods=METHODS)
                options = known_options[key]
                if first is None:
                    first = options
            option_list.append(options)
            # each distinct shot's configuration and labels are cached (by identity, then by value)
            shots.append(_shot(weapon_list[i], target_list[i], covers[i], obscureds[i], rounds_list[i],
                               cover_crits_list[i], variant_list[i]))
        except (InputError, InputTypeError) as error:
            name = error.field.split(".")[0]
            raise item_error(error, name, i, single.get(name, True)) from None
    exact = [i for i in range(size) if option_list[i].method != "monte_carlo"]
    # one C++ call for every exact item; its arrays are made when batch[i] is first read
    resolved = _kt.shoot_exact_batch([shots[i][3] for i in exact]) if exact else None
    position = {i: k for k, i in enumerate(exact)}
    sampled = {i: shoot(weapon_list[i], target_list[i], covers[i], obscureds[i], rounds_list[i],
                        cover_crits=cover_crits_list[i], method="monte_carlo", samples=option_list[i].samples,
                        seed=option_list[i].seed, threads=option_list[i].threads, progress=progress,
                        executor=executor, variants=variant_list[i])
               for i in range(size) if i not in position}

    def build(i: int) -> ShootResult:
        if i in sampled:
            return sampled[i]
        assert resolved is not None  # i is an exact item
        return _exact_result(resolved[position[i]], shots[i])

    def summarize(i: int) -> dict[str, float]:
        if i in sampled:
            return sampled[i].summary()
        assert resolved is not None
        return _exact_summary(resolved.damage(position[i]), shots[i][1].wounds)

    return ResultBatch(size, build, summarize)


#: kt.shoot_many is kt.shoot_batch
shoot_many = shoot_batch

