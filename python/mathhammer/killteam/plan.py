"""Kill Team profiles → the C++ configurations the engines run, built once and kept.

A weapon's attack dice become an ``AttackProfile`` and its exact table of retained (crits, norms);
a shot's weapon and target become one ``ShootConfig`` (each side built once per distinct profile and
joined in C++); a fight's fighters become a ``FightSpec``, their dice tables and the estimates that
decide which engine runs. Profiles and variants are frozen and hashable, so every plan is cached by
value (and the hottest by identity): a batch or a sweep builds each distinct one once.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, NamedTuple

import numpy as np

from mathhammer import _core
from mathhammer.core.checks import check_bool, check_int
from mathhammer.errors import InputError, InputTypeError
from mathhammer.killteam.notation import RuleTable
from mathhammer.killteam.profiles import (
    FIGHT_ROUNDS_MAX, MAX_COVER, MAX_ROUNDS, Abilities, Fighter, Operative, Weapon, WeaponRules, labelled,
)
from mathhammer.killteam.results import SIDES
from mathhammer.killteam.variants import Variants
from mathhammer.core.guard import excerpt

__all__ = [
    "FIGHT_ROUNDS_MAX", "MAX_COVER", "MAX_ROUNDS", "TABLE_SIDE", "FightPlan", "Shot", "attack_distribution",
    "attack_profile", "check_optimal_pair", "clear_shot_caches", "exact_seconds", "exact_work", "fight_plan",
    "fight_spec", "fighter_dice", "fighter_profile", "injured_profile", "injury_counts", "profile_distribution",
    "shoot_config", "shot", "shot_label", "weapon_of",
]

_kt = _core.killteam


# --- attack dice (docs/rules/killteam.md §1) ------------------------------------------------------

TABLE_SIDE: int = int(_kt.MAX_DICE) + 1

def weapon_of(source: Any) -> Weapon:
    if isinstance(source, Weapon):
        return source
    if isinstance(source, Fighter):
        return source.weapon
    raise InputTypeError("weapon", f"expected a kt.Weapon or kt.Fighter, got {type(source).__name__}")

def _copies(table: RuleTable, config: str, staged: bool = False) -> Callable[[Any, Any], None]:
    """``copy(c, profile)``: sets every field of the C++ config ``config`` that a row of ``table``
    copies as it is (notation.Rule.copied) from the profile's rules or abilities: a flag or a
    number as it is, an absent parameter (None) as 0, a named value as the C++ enum value of the
    same name. Compiled from the rows (as dataclasses compiles __init__): attribute writes cost a
    third of setattr() calls, and every shot's and fight's plan makes them. ``staged``: ``c`` is a
    dict of the config's fields instead (``from_fields`` makes the config from it in one call)."""
    fields = getattr(_kt, config)()
    lines, enums = [], {}
    for name, row in table.rows():
        for target in row.engine:
            struct, cpp = target.split(".")
            if not row.copied or struct != config:
                continue
            if not (name.isidentifier() and cpp.isidentifier()):
                raise ValueError(f"not a field name: {name!r} -> {target!r}")
            kind = type(getattr(fields, cpp))
            into = f"c[{cpp!r}]" if staged else f"c.{cpp}"
            if hasattr(kind, "__members__"):
                enums[f"_{cpp}"] = kind
                lines.append(f"{into} = getattr(_{cpp}, p.{name})")
            elif table.default(name) is None:
                lines.append(f"{into} = 0 if p.{name} is None else p.{name}")
            else:
                lines.append(f"{into} = p.{name}")
    source = "def copy(c, p):\n" + "".join(f"    {line}\n" for line in lines or ["pass"])
    namespace: dict[str, Any] = dict(enums)
    exec(compile(source, f"<copy into {config}>", "exec"), namespace)  # noqa: S102 (names checked above)
    copy: Callable[[Any, Any], None] = namespace["copy"]
    return copy

_copy_dice_rules = _copies(WeaponRules.TABLE, "AttackProfile", staged=True)
_copy_shot_rules = _copies(WeaponRules.TABLE, "ShootConfig", staged=True)
_copy_shot_abilities = _copies(Abilities.TABLE, "ShootConfig", staged=True)
_copy_fight_rules = _copies(WeaponRules.TABLE, "FighterSpec")
_copy_fight_abilities = _copies(Abilities.TABLE, "FighterSpec")

def attack_profile(source: Weapon | Fighter, obscured: bool = False, variants: Variants | None = None,
                   devastating: int | None = None) -> _kt.AttackProfile:
    """The C++ AttackProfile of a weapon's attack dice.

    Mystic Scry scores a crit at dc + Devastating (``devastating``: the weapon's own when None; a
    fight passes 0) and a norm at dn; ``variants`` gives the upgrade and Purity Seal readings.
    """
    weapon = weapon_of(source)
    rules = weapon.rules
    rule_variants = Variants.resolve(variants)  # a public helper: any form of variants=, checked
    auto_crits = min(rules.auto_crits, weapon.attacks)
    # the fields by name, made into the config in one call (an attribute write costs several times more)
    p: dict[str, Any] = {"dice": weapon.attacks, "hit": weapon.hit, "crit": weapon.crit_threshold,
                         "auto_crits": auto_crits, "accurate": min(rules.accurate, weapon.attacks - auto_crits)}
    _copy_dice_rules(p, rules)
    if rules.mystic_scry:
        p["scry_crit_value"] = weapon.critical_damage + (rules.devastating if devastating is None else devastating)
        p["scry_norm_value"] = weapon.normal_damage
    p["obscured"] = check_bool("obscured", obscured)
    p["upgrades"] = getattr(_kt.Upgrades, rule_variants.upgrades)
    p["ones"] = getattr(_kt.Ones, rule_variants.ones)
    return _kt.AttackProfile.from_fields(p)

# The exact tables by the C++ key of the attack-dice table caches (AttackProfile.dice_table_key():
# every field of the profile's list tagged dice_table), so that no profile field can be left out.
_CACHED_TABLES = 4096
_tables: dict[tuple[int, ...], np.ndarray] = {}

def profile_distribution(profile: _kt.AttackProfile) -> np.ndarray:
    """Exact P(crits, norms) of a C++ AttackProfile as a read-only 13x13 array [crits, norms]."""
    key = profile.dice_table_key()
    table = _tables.get(key)
    if table is None:
        table = np.asarray(_kt.attack_distribution(profile))
        table.setflags(write=False)
        if len(_tables) >= _CACHED_TABLES:
            _tables.clear()
        _tables[key] = table
    return table

def attack_distribution(source: Weapon | Fighter, obscured: bool = False, variants: Variants | None = None,
                        devastating: int | None = None) -> np.ndarray:
    """Exact P(crits, norms) of a weapon's retained attack dice, a read-only 13x13 array."""
    return profile_distribution(attack_profile(source, obscured, variants, devastating))

# --- shots (docs/rules/killteam.md §2) ---------------------------------------------------------------


# configurations and labels kept by value: enough for a sweep of many thousand different shots
# (a configuration is a few hundred bytes)
_CACHED_SHOTS = 32_768

@functools.lru_cache(maxsize=_CACHED_SHOTS)
def _weapon_side(weapon: Weapon, obscured: bool, variants: Variants) -> _kt.ShootConfig:
    # the fields of a shot that come from the weapon and the rule variants (see shoot_config_join)
    normal_damage, critical_damage = weapon.damage
    c: dict[str, Any] = {"attack": attack_profile(weapon, obscured, variants), "normal_damage": normal_damage,
                         "critical_damage": critical_damage}
    _copy_shot_rules(c, weapon.rules)
    c["ones"] = getattr(_kt.Ones, variants.ones)
    c["blocks"] = getattr(_kt.BlockRule, variants.blocks)
    c["scratch"] = getattr(_kt.ScratchTiming, variants.just_a_scratch)
    c["fnp"] = getattr(_kt.FnpRule, variants.fnp)
    return _kt.ShootConfig.from_fields(c)

@functools.lru_cache(maxsize=_CACHED_SHOTS)
def _target_side(target: Operative) -> _kt.ShootConfig:
    # the fields of a shot that come from the target (see shoot_config_join)
    c: dict[str, Any] = {"save": target.save}
    _copy_shot_abilities(c, target.abilities)
    return _kt.ShootConfig.from_fields(c)

@functools.lru_cache(maxsize=_CACHED_SHOTS)
def _notation(profile: Weapon | Operative) -> str:
    return str(profile)

def shot_label(profile: Weapon | Operative) -> str:
    """How a shot's result names its weapon or target (profiles.labelled), each distinct profile's
    notation written once: a result asks when its ``weapon`` or ``target`` is first read."""
    return labelled(profile, _notation(profile)) if profile.name else _notation(profile)

def _check_profiles(weapon: Any, target: Any) -> None:
    if not isinstance(weapon, Weapon):
        raise InputTypeError("weapon", f"expected a kt.Weapon, got {type(weapon).__name__}")
    if not isinstance(target, Operative):
        raise InputTypeError("target", f"expected a kt.Operative, got {type(target).__name__}")

class Shot(NamedTuple):
    """A shot as the engine needs it: the profiles and variants it was made from (held, so their ids
    stay theirs; shot_label names them), the C++ configuration and the checked situation."""

    weapon: Weapon
    target: Operative
    variants: Variants
    config: _kt.ShootConfig
    cover: int
    obscured: bool
    rounds: int
    cover_crits: int

# The shots of recent calls by the identity of their (immutable) profiles and variants: a repeated
# call finds its shot with one small dict lookup instead of hashing the profiles by value. Each entry
# holds the very objects its key names (the shot may hold equal, older ones), so that no id in a key
# can be reused by another object while the entry lives.
_shots_by_identity: dict[tuple[int, int, int, bool, int, int, int], tuple[Weapon, Operative, Variants, Shot]] = {}

def shot(weapon: Weapon, target: Operative, cover: int, obscured: bool, rounds: int, cover_crits: int,
         rule_variants: Variants) -> Shot:
    """A checked shot's plan, cached (by the identity of its profiles, then by their value)."""
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
    planned = _cached_shot(weapon, target, cover, obscured, rounds, cover_crits, rule_variants)
    if weapon.name or target.name:  # names are the profiles' own: the shot kept by value may hold others
        planned = planned._replace(weapon=weapon, target=target)
    if plain:
        if len(_shots_by_identity) >= _CACHED_SHOTS:
            _shots_by_identity.clear()
        _shots_by_identity[key] = (weapon, target, rule_variants, planned)
    return planned

@functools.lru_cache(maxsize=_CACHED_SHOTS)
def _cached_shot(weapon: Weapon, target: Operative, cover: int, obscured: bool, rounds: int, cover_crits: int,
                 rule_variants: Variants) -> Shot:
    # checked values only (plain ints and bools), so that the key of 1 is never the key of True.
    # Joined in C++ from the weapon's side and the target's, each built once per distinct profile:
    # a batch or sweep of many shots has far fewer weapons and targets than shots.
    config = _kt.shoot_config_join(_side_of(weapon, obscured, rule_variants), _side_of(target), cover, cover_crits,
                                   rounds)
    return Shot(weapon, target, rule_variants, config, cover, obscured, rounds, cover_crits)

# Each side of a shot by the identity of its profile (and variants), as _shots_by_identity keeps shots:
# a sweep or batch meets the same few profile objects in many shots, and hashing a profile by value
# (its rules or abilities included) costs more than the join. Each entry holds the objects it names.
_sides_by_identity: dict[tuple[int, bool, int], tuple[Weapon | Operative, Variants | None, _kt.ShootConfig]] = {}

def _side_of(profile: Weapon | Operative, obscured: bool = False, variants: Variants | None = None
             ) -> _kt.ShootConfig:
    key = (id(profile), obscured, id(variants))
    found = _sides_by_identity.get(key)
    if found is not None:
        return found[2]
    if isinstance(profile, Weapon):
        assert variants is not None
        side = _weapon_side(profile, obscured, variants)
    else:
        side = _target_side(profile)
    if len(_sides_by_identity) >= _CACHED_SHOTS:
        _sides_by_identity.clear()
    _sides_by_identity[key] = (profile, variants, side)
    return side

def _checked_situation(cover: Any, obscured: Any, rounds: Any, cover_crits: Any) -> tuple[int, bool, int, int]:
    cover = check_int("cover", cover, 0, MAX_COVER)
    cover_crits = check_int("cover_crits", cover_crits, 0, MAX_COVER)
    obscured = check_bool("obscured", obscured)
    rounds = check_int("rounds", rounds, 1, MAX_ROUNDS)
    return cover, obscured, rounds, cover_crits

def clear_shot_caches() -> None:
    """Forget every cached shot (the cold benchmarks start from nothing)."""
    _shots_by_identity.clear()
    _sides_by_identity.clear()
    _cached_shot.cache_clear()
    _weapon_side.cache_clear()
    _target_side.cache_clear()
    _notation.cache_clear()

def shoot_config(weapon: Weapon, target: Operative, cover: int = 0, obscured: bool = False, rounds: int = 1,
                 cover_crits: int = 0, variants: Variants | None = None) -> _kt.ShootConfig:
    """The validated C++ configuration of a shot (cached; treat it as read-only)."""
    _check_profiles(weapon, target)
    if type(cover) is int and type(cover_crits) is int and type(rounds) is int and type(obscured) is bool \
            and 0 <= cover <= MAX_COVER and 0 <= cover_crits <= MAX_COVER and 1 <= rounds <= MAX_ROUNDS:
        # already valid plain values: the checks below would return them unchanged
        return _cached_shot(weapon, target, cover, obscured, rounds, cover_crits,
                            variants if variants is not None else Variants.resolve(None)).config
    cover, obscured, rounds, cover_crits = _checked_situation(cover, obscured, rounds, cover_crits)
    rule_variants = variants if variants is not None else Variants.resolve(None)
    return _cached_shot(weapon, target, cover, obscured, rounds, cover_crits, rule_variants).config

# --- fights (docs/rules/killteam.md §3) --------------------------------------------------------------



def _fighter_spec(f: Fighter, wounds: int | None = None) -> _kt.FighterSpec:
    if wounds is None:
        return _own_fighter_spec(f)
    return _new_fighter_spec(f, wounds)

@functools.lru_cache(maxsize=4096)
def _own_fighter_spec(f: Fighter) -> _kt.FighterSpec:
    # a fighter at its own wounds, built once: FightSpec's fighter_a / fighter_b copy it in
    return _new_fighter_spec(f, None)

def _new_fighter_spec(f: Fighter, wounds: int | None) -> _kt.FighterSpec:
    s = _kt.FighterSpec()
    s.wounds = f.wounds if wounds is None else wounds
    s.normal_damage, s.critical_damage = f.damage
    s.strategy = getattr(_kt.Strategy, f.strategy)
    s.objective = getattr(_kt.Objective, f.objective or "trade")
    _copy_fight_rules(s, f.rules)
    _copy_fight_abilities(s, f.abilities)
    return s

#: Objectives two optimal fighters may share: exact opposites, so the game is zero-sum (docs/rules/killteam.md §7).
ZERO_SUM_OBJECTIVES: tuple[str, ...] = ("trade", "net")

def check_optimal_pair(a: Fighter, b: Fighter) -> None:
    """Two optimal fighters must share the objective "trade" or "net" (zero-sum minimax on A's)."""
    if a.strategy == "optimal" and b.strategy == "optimal":
        if a.objective != b.objective or a.objective not in ZERO_SUM_OBJECTIVES:
            raise InputError("objective", f"two optimal fighters must share the objective 'trade' or 'net' (the "
                             f"game is then zero-sum); got a: {excerpt(a.objective)}, b: {excerpt(b.objective)}")

def fight_spec(a: Fighter, b: Fighter, first: str = "a", wounds_a: int | None = None, wounds_b: int | None = None,
               variants: Variants | None = None) -> _kt.FightSpec:
    """The C++ FightSpec of a fight between validated fighters, with the fight's rule switches."""
    spec = _kt.FightSpec()
    spec.fighter_a = _fighter_spec(a, wounds_a)
    spec.fighter_b = _fighter_spec(b, wounds_b)
    _set_fight_rules(spec, first, Variants.resolve(variants))
    return spec

def _set_fight_rules(spec: _kt.FightSpec, first: str, rule_variants: Variants) -> None:
    spec.first = SIDES.index(first)
    spec.injured = rule_variants.injured
    spec.shock = getattr(_kt.ShockRule, rule_variants.shock)
    spec.lethal_test = getattr(_kt.LethalTest, rule_variants.lethal_test)
    spec.lookahead = getattr(_kt.Lookahead, rule_variants.lookahead)
    spec.duelist = getattr(_kt.DuelistRule, rule_variants.duelist)
    spec.durable = getattr(_kt.DurableRule, rule_variants.durable)

def fighter_dice(f: Fighter, variants: Variants | None = None) -> np.ndarray:
    """The exact retained-dice table of a fighter (Mystic Scry scores without Devastating in a fight)."""
    return _fighter_dice(f, Variants.resolve(variants))

@functools.lru_cache(maxsize=4096)
def _fighter_dice(f: Fighter, variants: Variants) -> np.ndarray:
    # Fighters and variants are frozen and hashable, and the table is read-only: one fight asks for
    # it several times (the work estimates, then the engine), a sweep for the same fighters often.
    return attack_distribution(f, variants=variants, devastating=0)

def fighter_profile(f: Fighter, variants: Variants | None = None) -> _kt.AttackProfile:
    """The C++ AttackProfile a fighter rolls."""
    return attack_profile(f, variants=variants, devastating=0)

def injured_profile(f: Fighter, variants: Variants | None = None) -> _kt.AttackProfile:
    """The C++ AttackProfile a fighter rolls in a round it starts injured (docs/rules/killteam.md §3.9)."""
    return _kt.injured_profile(fighter_profile(f, variants))

@functools.lru_cache(maxsize=4096)
def _injured_dice(f: Fighter, variants: Variants) -> np.ndarray:
    # the exact retained-dice table of a fighter rolling injured (read-only, cached as _fighter_dice)
    return profile_distribution(injured_profile(f, variants))

def injury_counts(rounds: int, variants: Variants) -> bool:
    """Whether a fight of ``rounds`` rounds can roll injured dice: a later round, and the switch on."""
    return rounds > 1 and variants.injured

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
    pairs, branches, starts = _work_parts(a, b, rounds, Variants.resolve(variants))
    return pairs * branches * starts

@functools.lru_cache(maxsize=4096)
def _outcomes(f: Fighter, variants: Variants, injured: bool = False) -> int:
    # the retained-dice outcomes of non-zero probability (what every estimate counts); with
    # ``injured`` the larger count of the fighter's own and its injured dice (a later round may roll either)
    own = int(np.count_nonzero(_fighter_dice(f, variants)))
    return max(own, int(np.count_nonzero(_injured_dice(f, variants)))) if injured else own

def _work_parts(a: Fighter, b: Fighter, rounds: int, variants: Variants, pairs: int | None = None
                ) -> tuple[int, int, int]:
    # exact_work's three factors: dice pairs (given when known), chance branches per pair, round starts
    if pairs is None:
        injured = injury_counts(rounds, variants)
        pairs = _outcomes(a, variants, injured) * _outcomes(b, variants, injured)
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
    return pairs, branches, starts

# exact_seconds' law (docs/rules/killteam.md §3.7): seconds = FIXED + PER_RESOLUTION x resolutions +
# decisions x (1 + CHANCE x chance branches^BRANCHES_POWER), where resolutions = pairs x (1 + later
# starts) and the lookahead's decisions = PER_DECISION x pairs x (dice_a x dice_b)^DICE_POWER x
# (1 + later starts)^STARTS_POWER x (wounds_a x wounds_b)^WOUNDS_POWER. Fitted to the CPU time
# (time.process_time) of the first call in a fresh process, on 56 fights of 3 to 12 dice, 6 to 30
# wounds, 1 to 3 rounds, with and without Feel No Pain and relics, on the 2-core development machine:
# every benchmark fight within a factor of 1.8 (the benchmark fights weighing more in the fit), the
# others from 0.6 to 5 times their time, mostly within 2 (the outliers over-estimated). FIXED is
# kt.fight's own first-call cost (about a millisecond of CPU: the plan, the result), a little
# above the fit's, so that a millisecond fight on a busy machine stays within a factor of 2.
_FIXED = 9.0e-4
_PER_RESOLUTION = 9.61e-8
_PER_DECISION = 2.13e-10
_DICE_POWER = 1.41
_STARTS_POWER = 0.633
_WOUNDS_POWER = 0.653
_CHANCE = 0.317
_BRANCHES_POWER = 0.518
# The rolled lookahead (docs/rules/killteam.md §3.6, a Max Dmg / Min Dmg fighter with Feel No Pain or
# relics in the fight) works its lines' states out too: ROLLED x decisions^ROLLED_POWER x chance
# branches^ROLLED_BRANCHES_POWER x ROLLED_RELICS per fighter with relics, x ROLLED_NOMINAL under the
# nominal lethal test (whose memo lowers no wounds), added to the rest. Fitted the same way to 66
# fights of 3 to 10 dice, 6 to 20 wounds and 1 to 3 rounds with Feel No Pain or relics, each with
# the rolled lookahead alone and with variants="ktcalc": the benchmark fights within a factor of 2
# (0.5 to 1.0), 119 of the 132 runs within 2, the others from 0.35 to 2.9 (the default law's own
# spread on those fights is 0.42 to 2.9).
_ROLLED = 0.25
_ROLLED_POWER = 0.75
_ROLLED_BRANCHES_POWER = 0.5
_ROLLED_RELICS = 1.26
_ROLLED_NOMINAL = 1.73


def _round_losses(attacker: Fighter, defender: Fighter) -> frozenset[int]:
    """The wounds ``defender`` can lose to ``attacker`` in one round: sums of its dice each striking
    for nothing, normal or critical damage; every value up to the most when the defender's
    abilities or the attacker's change what a strike deals (Feel No Pain, Durable, Hammerhand, ...)."""
    normal, critical = attacker.damage
    sums = {0}
    for _ in range(attacker.attacks):
        sums = {s + d for s in sums for d in (0, normal, critical)}
    ab, mine = defender.abilities, attacker.abilities
    if (ab.feel_no_pain is not None or ab.durable or ab.just_a_scratch or ab.just_a_scratch_normals
            or ab.half_damage_first_strike or mine.hammerhand or mine.murderous_entrance
            or ab.reduce_normal_damage is not None or ab.reduce_damage is not None or ab.crits_as_normal):
        sums = set(range(max(sums) + 1))
    return frozenset(sums)


@functools.lru_cache(maxsize=4096)
def later_starts(a: Fighter, b: Fighter, rounds: int) -> int:
    """The states later rounds start from that both fighters can reach alive: for each round after
    the first, (A's reachable wounds) x (B's) x (relic uses), the wounds lost being sums of the
    round losses (:func:`_round_losses`) of the rounds before."""
    into_a, into_b = _round_losses(b, a), _round_losses(a, b)
    lost_a, lost_b = {0}, {0}
    total = 0
    for r in range(2, rounds + 1):
        lost_a = {min(x + d, a.wounds) for x in lost_a for d in into_a}
        lost_b = {min(x + d, b.wounds) for x in lost_b for d in into_b}
        relic_states = 1
        for f in (a, b):
            if f.abilities.saintly_relics:
                relic_states *= min(r - 1, 2) + 1
        total += sum(x < a.wounds for x in lost_a) * sum(x < b.wounds for x in lost_b) * relic_states
    return total


def exact_seconds(a: Fighter, b: Fighter, rounds: int = 1, variants: Variants | None = None) -> float:
    """About how many seconds of CPU the exact engine takes for this fight (its first call in a
    process; later calls of the same rules reuse decisions and take less).

    The resolutions (every pair of retained dice from every reachable round start), the lookahead's
    decisions (growing with both fighters' dice, the later round starts and the wounds), the chance
    states Feel No Pain and relics add to the decisions' memo, and with the rolled lookahead its
    lines' states: the law and its fit are in docs/rules/killteam.md §3.7. ``method="exact"``
    refuses a fight estimated over ``EXACT_SECONDS_MAX`` (5 s); "auto" samples it instead; below
    ``ON_CALLER_SECONDS`` it runs on the calling thread. An optimal fighter's game is bounded by
    the solver's budget instead.
    """
    rule_variants = Variants.resolve(variants)
    pairs, branches, _ = _work_parts(a, b, rounds, rule_variants)
    return _seconds(a, b, pairs, branches, rounds, rule_variants)


def _seconds(a: Fighter, b: Fighter, pairs: int, branches: int, rounds: int, variants: Variants) -> float:
    # exact_seconds from the fight's dice pairs and chance branches (_work_parts)
    later = later_starts(a, b, rounds)
    relics = bool(a.abilities.saintly_relics) + bool(b.abilities.saintly_relics)
    chance = a.abilities.feel_no_pain is not None or b.abilities.feel_no_pain is not None or relics > 0
    decisions = (_PER_DECISION * pairs * float(a.attacks * b.attacks) ** _DICE_POWER * (1 + later) ** _STARTS_POWER
                 * float(a.wounds * b.wounds) ** _WOUNDS_POWER)
    seconds = _FIXED + _PER_RESOLUTION * pairs * (1 + later)
    if chance:
        if variants.lookahead == "rolled" and {a.strategy, b.strategy} & {"max_damage", "min_damage"}:
            seconds += (_ROLLED * decisions ** _ROLLED_POWER * branches ** _ROLLED_BRANCHES_POWER
                        * _ROLLED_RELICS ** relics * (_ROLLED_NOMINAL if variants.lethal_test == "nominal" else 1.0))
        decisions *= 1 + _CHANCE * branches ** _BRANCHES_POWER
    return float(seconds + decisions)


@dataclass(frozen=True)
class FightPlan:
    """What a fight's inputs decide before any engine runs: kept per (fighters, first, rounds, variants)."""

    spec: _kt.FightSpec  # shared: never modified
    dice_a: np.ndarray
    dice_b: np.ndarray
    injured_a: np.ndarray | None  # the injured fighter's dice (§3.9); None when no round can roll them
    injured_b: np.ndarray | None
    estimate: int
    seconds: float
    optimal: bool
    fighters: tuple[str, str]

@functools.lru_cache(maxsize=4096)
def fight_plan(a: Fighter, b: Fighter, first: str, rounds: int, variants: Variants) -> FightPlan:
    # Fighters and variants are frozen and hashable: a sweep or a repeated fight builds these once.
    optimal = "optimal" in (a.strategy, b.strategy)
    # each fighter's half looked up once (hashing a fighter costs more than what it finds)
    spec_a, dice_a, outcomes_a, label_a = _fighter_half(a, variants)
    spec_b, dice_b, outcomes_b, label_b = _fighter_half(b, variants)
    injured = injury_counts(rounds, variants)
    if injured:
        outcomes_a, outcomes_b = _outcomes(a, variants, True), _outcomes(b, variants, True)
    parts = _work_parts(a, b, rounds, variants, outcomes_a * outcomes_b)
    # With an optimal fighter the solver's budget bounds the work instead (it dominates).
    seconds = 0.0 if optimal else _seconds(a, b, parts[0], parts[1], rounds, variants)
    spec = _kt.FightSpec()
    spec.fighter_a = spec_a
    spec.fighter_b = spec_b
    _set_fight_rules(spec, first, variants)
    return FightPlan(spec=spec, dice_a=dice_a, dice_b=dice_b,
                     injured_a=_injured_dice(a, variants) if injured else None,
                     injured_b=_injured_dice(b, variants) if injured else None, estimate=parts[0] * parts[1] * parts[2],
                     seconds=seconds, optimal=optimal, fighters=(label_a, label_b))

@functools.lru_cache(maxsize=4096)
def _fighter_half(f: Fighter, variants: Variants) -> tuple[_kt.FighterSpec, np.ndarray, int, str]:
    # what a fight plan takes from one fighter: its spec at its own wounds, its dice table, the
    # table's outcomes and its text
    return _own_fighter_spec(f), _fighter_dice(f, variants), _outcomes(f, variants), str(f)
