"""The step functions of one attack (docs/rules/starcraft.md §2, §4): validated calls into the C++ functions
both engines use."""

from __future__ import annotations

from typing import Any

from mathhammer import _core
from mathhammer.core.checks import check_bool, check_choice, check_int
from mathhammer.errors import InputTypeError
from mathhammer.starcraft.plan import MAX_TD_REDUCTION, SURGE_KIND, unit_profile, unit_state
from mathhammer.starcraft.profiles import MAX_DAMAGE, MAX_MODELS, SURGE_DICE, Unit
from mathhammer.starcraft.results import Allocation
from mathhammer.starcraft.variants import Variants

__all__ = ["allocate", "bypass", "final_target", "p_success", "precision_hits", "surge_value", "tough"]

_sc = _core.starcraft
_ANY = 1000  # bound for plain integers that only need to stay small
_MAX_DAMAGE = 100_000


def final_target(base: int, roll_mod: int = 0, penalty: int = 0) -> int:
    """clamp(base - roll_mod + penalty, 2, 6): a +X modifier lowers the target number by X."""
    return _sc.final_target(check_int("base", base, -_ANY, _ANY), check_int("roll_mod", roll_mod, -_ANY, _ANY),
                            check_int("penalty", penalty, -_ANY, _ANY))


def p_success(target: int) -> float:
    """(7 - clamp(target, 2, 6)) / 6: natural 1 always fails, natural 6 always succeeds."""
    return _sc.p_success(check_int("target", target, -_ANY, _ANY))


def surge_value(kind: str, face: int) -> int:
    """The Surge value a d6 face gives: D3 = ceil(face / 2), D3+1 = that + 1, D6 = the face."""
    name = check_choice("kind", kind, SURGE_DICE)
    return _sc.surge_value(SURGE_KIND[name], check_int("face", face, 1, 6))


def precision_hits(dice: int, hits: int, x: int) -> int:
    """hits + min(x, dice - hits): PRECISION (X) moves up to X misses into the Armour Pool."""
    dice = check_int("dice", dice, 0, _ANY)
    return _sc.precision_hits(dice, check_int("hits", hits, 0, dice), check_int("x", x, 0, _ANY))


def bypass(hits: int, surge: int, crit: int, dodge: int) -> int:
    """max(0, min(hits, surge + crit) - dodge): capped by the pool first, then one shared Dodge budget."""
    return _sc.bypass(check_int("hits", hits, 0, _ANY), check_int("surge", surge, 0, _ANY),
                      check_int("crit", crit, 0, _ANY), check_int("dodge", dodge, 0, _ANY))


def tough(fails: int, x: int) -> int:
    """max(0, fails - x): TOUGH (X) turns up to X failed Armour results into successes."""
    return _sc.tough(check_int("fails", fails, 0, _ANY), check_int("x", x, 0, _ANY))


def allocate(
    unit: Unit,
    damage: int,
    *,
    concentrated_fire: int | None = None,
    visible_models: int | None = None,
    engaged: bool = False,
    td_reduction: int = 0,
    td_floor: int = 0,
    rules: Variants | dict[str, Any] | None = None,
) -> Allocation:
    """Allocate ``damage`` (attack damage) to ``unit`` in its current state (docs/rules/starcraft.md §4)."""
    if not isinstance(unit, Unit):
        raise InputTypeError("unit", f"expected sc.Unit, got {type(unit).__name__}")
    params = _sc.AllocParams()
    params.concentrated_fire = 0 if concentrated_fire is None else check_int("concentrated_fire", concentrated_fire, 1, MAX_MODELS)
    params.visible_models = -1 if visible_models is None else check_int("visible_models", visible_models, 0, unit.models)
    params.engaged = check_bool("engaged", engaged)
    params.td_reduction = check_int("td_reduction", td_reduction, 0, MAX_TD_REDUCTION)
    params.td_floor = check_int("td_floor", td_floor, 0, MAX_DAMAGE)
    params.leftover_lost = Variants.of(rules).leftover == "lost"
    out = _sc.allocate(unit_profile(unit), unit_state(unit), check_int("damage", damage, 0, _MAX_DAMAGE), params)
    return Allocation(casualties=out.casualties, models=out.state.models, marker=out.state.marker,
                      shielded=out.state.shielded, first_model_alive=out.state.first_model_alive,
                      destroyed=out.destroyed, shield_lost=out.shield_lost)
