"""StarCraft profiles and batch options → the C++ configuration one batch runs, validated and kept.

:func:`plan_batch` checks one batch's options (docs/rules/starcraft.md §3, §10) step by step, in the
order of the rules — the Attack Pool, the keywords granted, Surge, Armour and Evade, the damage per
die, the casualties — and fills the ``BatchConfig`` both engines take. Attacks are cached by value
(:func:`attack_case`), so a sweep or a batch plans each distinct one once.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

from mathhammer import _core
from mathhammer.core.checks import check_bool, check_choice, check_int
from mathhammer.errors import InputError, InputTypeError
from mathhammer.starcraft.profiles import ATTACK_KWARGS, MAX_DAMAGE, MAX_KEYWORD, MAX_MODELS, BatchOptions, Unit, Weapon
from mathhammer.starcraft.variants import Variants
from mathhammer.core.guard import excerpt

__all__ = [
    "MAX_BATCHES", "MAX_DICE", "MAX_FACES", "MAX_FIRING_MODELS", "MAX_GRANTS", "MAX_ROA_MOD", "MAX_ROLL_MOD",
    "MAX_TD_REDUCTION", "MODES", "REACTION_KEYS", "SURGE_KIND", "AttackCase", "Plan", "attack_case", "batch_label",
    "described", "label", "plan_batch", "unit_profile", "unit_state",
]

_sc = _core.starcraft

MAX_DICE = 120
MAX_FIRING_MODELS = 60
MAX_ROA_MOD = 30
MAX_ROLL_MOD = 5
MAX_TD_REDUCTION = 50
MAX_BATCHES = 50
MAX_GRANTS = 10
MAX_FACES = 10_000

MODES = ("weapon", "spillover", "hits")
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
        raise InputTypeError("reaction", f"expected a dict with keys among {', '.join(REACTION_KEYS)}, got {excerpt(value)}")
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


def plan_batch(weapon: Weapon | None, unit: Unit, rules: Variants, **options: Any) -> Plan:
    """Validate one batch (docs/rules/starcraft.md §3, §10) and build its C++ config.

    ``options`` are :func:`mathhammer.starcraft.attack`'s batch options (``sc.BatchOptions``' fields:
    mode, firing_models, hits, the keyword grants, reaction, ...), checked in the order the rules
    apply them, so that the first problem found is the one reported.
    """
    o = BatchOptions(**options)
    mode = check_choice("mode", o.mode, MODES)
    if not isinstance(unit, Unit):
        raise InputTypeError("unit", f"expected sc.Unit, got {type(unit).__name__}")
    if weapon is not None and not isinstance(weapon, Weapon):
        raise InputTypeError("weapon", f"expected sc.Weapon, got {type(weapon).__name__}")
    if weapon is None and mode != "hits":
        raise InputError("weapon", f"mode {excerpt(mode)} needs a weapon; only mode 'hits' takes None")
    c = _sc.BatchConfig()
    dice, hits_damage, affected_models = _attack_pool(c, weapon, mode, o)
    react, reaction_ignored, tough_total, anti_total = _keyword_grants(c, weapon, unit, rules, mode, o)
    surge_applied = _surge(c, weapon, unit, mode, affected_models)
    evade_rolled = _armour_and_evade(c, unit, o, tough_total, anti_total)
    per_die = _damage_per_die(c, weapon, unit, mode, o, hits_damage, react)
    _casualties(c, weapon, unit, rules, o, react)
    return Plan(c, dice, per_die, surge_applied, evade_rolled, reaction_ignored)


def _attack_pool(c: Any, weapon: Weapon | None, mode: str, o: BatchOptions) -> tuple[int, int, int | None]:
    """Step 0, the Attack Pool (docs/rules/starcraft.md §3.0): the dice at normal and long range and
    the hit targets. Returns the dice, the damage of HITS X (Y) and the models under a template."""
    roa_mod = _int("roa_mod", o.roa_mod, -MAX_ROA_MOD, MAX_ROA_MOD)
    dice_mod = _int("dice_mod", o.dice_mod, -MAX_DICE, MAX_DICE)
    firing_models = _int("firing_models", o.firing_models, 0, MAX_FIRING_MODELS)
    long_range_models = _int("long_range_models", o.long_range_models, 0, firing_models)
    target_stationary = check_bool("target_stationary", o.target_stationary)
    if o.hits is not None and mode != "hits":
        raise InputError("hits", "only for mode 'hits' (HITS X (Y)); leave it None")
    affected_models = o.affected_models
    if affected_models is not None:
        affected_models = _int("affected_models", affected_models, 0, MAX_MODELS)
    template_main = mode == "weapon" and weapon is not None and weapon.template
    needs_affected = template_main or mode == "spillover"
    if needs_affected and affected_models is None:
        raise InputError("affected_models", "a template attack needs the number of models under the template (0..40)")
    if not needs_affected and affected_models is not None:
        raise InputError("affected_models", "only for a template weapon or mode 'spillover'; leave it None")
    if (long_range_models or o.burst_models is not None) and (mode != "weapon" or template_main):
        name = "long_range_models" if long_range_models else "burst_models"
        raise InputError(name, "only for a non-template weapon in mode 'weapon'")

    n_normal = n_long = 0
    hits_damage = 0
    if mode == "hits":
        hits = o.hits
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
            burst = normal_models if o.burst_models is None else _int("burst_models", o.burst_models, 0, normal_models)
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
        hit_mod = _int("hit_mod", o.hit_mod, -MAX_ROLL_MOD, MAX_ROLL_MOD)
        c.hit_target_normal = _sc.final_target(weapon.hit, hit_mod, 0)
        c.hit_target_long = _sc.final_target(weapon.hit, hit_mod, 1)
    if n_normal + n_long > MAX_DICE:
        raise InputError("dice", f"the batch has {n_normal + n_long} dice; allowed at most {MAX_DICE} "
                                 "(firing_models x (roa + roa_mod + keywords) + dice_mod, or hits X)")
    c.dice_normal, c.dice_long = n_normal, n_long
    return n_normal + n_long, hits_damage, affected_models


def _keyword_grants(c: Any, weapon: Weapon | None, unit: Unit, rules: Variants, mode: str, o: BatchOptions
                    ) -> tuple[dict[str, Any], bool, int, int]:
    """The X-keywords of the weapon and of every other source, stacked by ``rules.stacking``
    (docs/rules/starcraft.md §10): Precision, Critical Hit and Dodge into the config. Returns the
    reaction's grants (none when an INSTANT weapon ignores them), whether it ignored one, and the
    stacked Tough and Anti-Evade the later steps use."""
    stacking = rules.stacking
    react = _reaction(o.reaction)
    reaction_ignored = bool(react) and weapon is not None and weapon.instant
    if reaction_ignored:
        react = {}
    weapon_rolls = mode == "weapon"
    precision_total = _stack(([weapon.precision] if weapon_rolls else []) + _grants("precision", o.precision, 0, MAX_KEYWORD), stacking)  # type: ignore[union-attr]
    crit_total = _stack(([weapon.critical_hit] if weapon_rolls else []) + _grants("critical_hit", o.critical_hit, 0, MAX_KEYWORD), stacking)  # type: ignore[union-attr]
    dodge_total = _stack(_grants("dodge", o.dodge, 0, MAX_KEYWORD) + _grants("reaction.dodge", react.get("dodge", []), 0, MAX_KEYWORD), stacking)
    tough_total = _stack([unit.tough] + _grants("tough", o.tough, 0, MAX_KEYWORD) + _grants("reaction.tough", react.get("tough", []), 0, MAX_KEYWORD), stacking)
    anti_total = _stack(([weapon.anti_evade] if weapon is not None else []) + _grants("anti_evade", o.anti_evade, 0, MAX_KEYWORD), stacking)
    natural = rules.critical_hit == "natural"
    if natural and crit_total > 6:
        raise InputError("critical_hit", f"under rules.critical_hit='natural' CRITICAL HIT (X) names a face; allowed 1..6, got {crit_total}")
    c.precision = precision_total if weapon_rolls else 0
    c.critical_hit = crit_total if weapon_rolls else 0
    c.crit_natural = natural
    c.dodge = dodge_total
    return react, reaction_ignored, tough_total, anti_total


def _surge(c: Any, weapon: Weapon | None, unit: Unit, mode: str, affected_models: int | None) -> bool:
    """Step 2, Surge: whether it applies (a Surge tag on the target), and its die."""
    surge_applied = mode == "weapon" and weapon is not None and bool(set(weapon.surge_tags) & set(unit.tags))
    if surge_applied:
        assert weapon is not None
        if weapon.template:
            assert affected_models is not None  # a template attack needs it (checked above)
            c.surge_kind, c.surge_fixed = _sc.SurgeKind.fixed, affected_models
        else:
            c.surge_kind = SURGE_KIND[weapon.surge_dice]
    return surge_applied


def _armour_and_evade(c: Any, unit: Unit, o: BatchOptions, tough_total: int, anti_total: int) -> bool:
    """Steps 3 and 4, Armour (with Tough) and Evade: the targets; returns whether Evade is rolled."""
    armour_mod = _int("armour_mod", o.armour_mod, -MAX_ROLL_MOD, MAX_ROLL_MOD)
    evade_mod = _int("evade_mod", o.evade_mod, -MAX_ROLL_MOD, MAX_ROLL_MOD)
    c.armour_target = _sc.final_target(unit.armour, armour_mod, 0)
    c.tough = tough_total
    eligible = unit.evade is not None if o.evade_eligible is None else check_bool("evade_eligible", o.evade_eligible)
    evade_rolled = eligible and unit.evade is not None
    c.evade = evade_rolled
    c.evade_target = 6 if unit.evade is None or not evade_rolled else _sc.final_target(unit.evade, evade_mod, anti_total)
    return evade_rolled


def _damage_per_die(c: Any, weapon: Weapon | None, unit: Unit, mode: str, o: BatchOptions, hits_damage: int,
                    react: dict[str, Any]) -> int:
    """Step 5, the damage per die: the largest setter (damage_set, Pierce), then the smallest cap."""
    base = hits_damage if mode == "hits" else weapon.damage  # type: ignore[union-attr]
    setters = [] if o.damage_set is None else _damage_setters(o.damage_set, unit)
    if weapon is not None and weapon.pierce is not None and weapon.pierce[0] in unit.tags:
        setters.append(weapon.pierce[1])
    caps = [] if o.damage_cap is None else _grants("damage_cap", o.damage_cap, 0, MAX_DAMAGE)
    caps += _grants("reaction.damage_cap", react.get("damage_cap", []), 0, MAX_DAMAGE)
    per_die = _sc.damage_per_die(base, max(setters, default=-1), min(caps, default=-1))
    c.damage_per_die = per_die
    return int(per_die)


def _casualties(c: Any, weapon: Weapon | None, unit: Unit, rules: Variants, o: BatchOptions,
                react: dict[str, Any]) -> None:
    """Step 6, casualties: how damage is allocated (Concentrated Fire, visibility, total-damage
    reductions, the leftover damage)."""
    alloc = _sc.AllocParams()
    alloc.concentrated_fire = 0 if weapon is None or weapon.concentrated_fire is None else weapon.concentrated_fire
    alloc.visible_models = -1 if o.visible_models is None else _int("visible_models", o.visible_models, 0, unit.models)
    alloc.engaged = check_bool("engaged", o.engaged)
    alloc.td_reduction = sum(_grants("td_reduction", o.td_reduction, 0, MAX_TD_REDUCTION)
                             + _grants("reaction.td_reduction", react.get("td_reduction", []), 0, MAX_TD_REDUCTION))
    alloc.td_floor = max(_grants("td_floor", o.td_floor, 0, MAX_DAMAGE)
                         + _grants("reaction.td_floor", react.get("td_floor", []), 0, MAX_DAMAGE), default=0)
    alloc.leftover_lost = rules.leftover == "lost"
    c.alloc = alloc


def unit_profile(unit: Unit) -> _sc.UnitProfile:
    p = _sc.UnitProfile()
    p.hp, p.shield = unit.hp, unit.shield
    return p


def unit_state(unit: Unit) -> _sc.UnitState:
    s = _sc.UnitState()
    s.models, s.marker, s.first_model_alive = unit.models, unit.marker, unit.first_model_alive
    s.shielded = bool(unit.shielded)  # None only before Unit's own check resolves it
    return s


# ---- one attack, cached ------------------------------------------------------------------------------

class AttackCase(NamedTuple):
    """One validated attack as the engines take it, with the labels its result carries: ``weapon``
    and ``unit``, and in ``labels`` the functions that make ``fired``, ``options`` and ``inputs``
    (:func:`described`: made once per case, when one of its results is first printed)."""

    plan: Plan
    native: _sc.AttackCase
    weapon: str
    unit: str
    labels: Mapping[str, Callable[[], Any]]


# Validated attacks kept by value: a sweep of many thousand different attacks stays cached (an
# entry is under a kilobyte).
_CACHED_CASES = 16_384
_cases: dict[tuple[Any, ...], AttackCase] = {}
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


def attack_case(weapon: Weapon | None, unit: Unit, variants: Variants, kwargs: dict[str, Any]) -> AttackCase:
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
    texts = functools.cache(functools.partial(described, weapon, unit, plan, dict(kwargs)))
    labels = {name: functools.partial(_item, texts, i) for i, name in enumerate(("fired", "options", "inputs"))}
    case = AttackCase(plan, native, "" if weapon is None else label(weapon), label(unit), labels)
    if key is not None:
        if len(_cases) >= _CACHED_CASES:
            _cases.clear()  # a sweep larger than the cache starts it afresh (clear() is safe across threads)
        _cases[key] = case
    return case


@functools.lru_cache(maxsize=_CACHED_CASES)
def _native_unit(unit: Unit) -> tuple[_sc.UnitProfile, _sc.UnitState]:
    # the C++ unit and state of a profile, made once per distinct unit (AttackCase copies them)
    return unit_profile(unit), unit_state(unit)


def _item(texts: Callable[[], tuple[Any, ...]], index: int) -> Any:
    return texts()[index]


#: Batch options a heading says first (who fired) rather than among the options that change anything.
_SAID_FIRST = ("mode", "firing_models", "hits")


def described(weapon: Weapon | None, unit: Unit, plan: Plan, kwargs: dict[str, Any]
              ) -> tuple[str, tuple[str, ...], tuple[str, ...]]:
    """What an attack's result says about its batch (checked by ``plan``): who fired what ("2 models
    firing C-14 Rifle", "HITS 4 (1)", "Shock Cannon (template)"), the options given that change
    anything ("dodge 1", "engaged"), and its inputs as lines (the profiles, a Surge that does not
    apply)."""
    mode = check_choice("mode", kwargs.get("mode", "weapon"), MODES)
    name = "" if weapon is None else label(weapon)
    if mode == "hits":
        x, y = kwargs["hits"]
        fired = f"HITS {x} ({y})" + (f" with {name}" if name else "")
        inputs = [f"HITS {x} ({y})" + (f" with {weapon}" if weapon is not None else "")]
    else:
        assert weapon is not None  # plan_batch: only mode "hits" takes no weapon
        if mode == "spillover":
            fired = f"{name} (spillover)"
        elif weapon.template:  # its models under the template count, not the models firing
            fired = f"{name} (template)"
        else:
            models = kwargs.get("firing_models", 1)
            fired = f"{models} model{'s' if models != 1 else ''} firing {name}"
        inputs = [f"weapon: {weapon}"]
    inputs.append(f"unit: {unit}")
    if weapon is not None and mode == "weapon" and weapon.surge_tags and not plan.surge_applied:
        inputs.append("Surge does not apply: the unit has none of the weapon's Surge tags")
    options = []
    for key in ATTACK_KWARGS:  # in the options' own order, whatever order they were given in
        value = kwargs.get(key)
        if key in _SAID_FIRST or value is None or value is False or value == 0 or value == {}:
            continue
        text = key.replace("_", " ")
        options.append(text if value is True else f"{text} {value}")
    return fired, tuple(options), tuple(inputs)


def batch_label(index: int, weapon: Weapon | None, kwargs: dict[str, Any]) -> str:
    """A batch of a sequence as its row names it: "1: C-14 Rifle x6", "3: HITS 4 (1)"."""
    if kwargs.get("mode") == "hits" or weapon is None:
        hits = kwargs.get("hits")
        what = f"HITS {hits[0]} ({hits[1]})" if isinstance(hits, (tuple, list)) and len(hits) == 2 else "HITS"
    else:
        what = label(weapon)
        if not weapon.template and kwargs.get("mode", "weapon") == "weapon":
            what += f" x{kwargs.get('firing_models', 1)}"
    return f"{index + 1}: {what}"


@functools.lru_cache(maxsize=_CACHED_CASES)
def label(profile: Weapon | Unit) -> str:
    """A profile's text for a result, formatted once per distinct profile."""
    return profile.name or str(profile)
