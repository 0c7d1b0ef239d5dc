"""Deathburgh sides → the plain structs of the C++ core: each side's pool, and the legality of a combat.

Everything here runs before any C++: it turns a pair of :class:`Side` objects, a reaction and the
switches into the plain structs of the C++ core (``PoolSpec``, ``OutcomeRules``), or raises an
``InputError`` naming the offending field (docs/rules/deathburgh.md §2, §3).
"""

from __future__ import annotations

from dataclasses import dataclass

from mathhammer import _core
from mathhammer.core.checks import check_bool, check_choice
from mathhammer.deathburgh.profiles import MAX_DICE, Side
from mathhammer.deathburgh.variants import REACTIONS, Variants
from mathhammer.errors import InputError

__all__ = ["CombatPlan", "PoolPlan", "check_legal", "plan_combat", "plan_pool", "side_plan"]

_cpp = _core.deathburgh


@dataclass(frozen=True)
class PoolPlan:
    """One side's dice once instants are placed (docs/rules/deathburgh.md §2): what the C++ core rolls."""

    dice: int  # every die of the pool: rolled + 6! + 1!
    rolled: int
    instant6: int
    instant1: int
    target: int
    reroll: str
    auto_hits: int | None = None
    wound_cap: int | None = None  # cap_wounds_at_dice: the dice count

    def spec(self) -> _cpp.PoolSpec:
        """The C++ ``PoolSpec``."""
        out = _cpp.PoolSpec()
        out.rolled = self.rolled
        out.target = self.target
        out.instant_crits = self.instant6
        out.reroll = getattr(_cpp.Reroll, self.reroll)
        out.auto_hits = -1 if self.auto_hits is None else self.auto_hits
        if self.wound_cap is not None:
            out.wound_cap = self.wound_cap
        return out


def plan_pool(
    field: str,
    dice: int,
    target: int,
    bonus6: int,
    souls_dice: int,
    instant1: int,
    extra_dice: int,
    reroll: str,
    rules: Variants,
) -> PoolPlan:
    """Place the instant dice (docs/rules/deathburgh.md §2, DB-3, DB-4, DB-9).

    n = dice + extra dice (+ the bonus 6! with bonus_dice="add", + Soul's Dice with souls="add");
    1! wins conflicts: n1 = min(k1, n), n6 = min(k6, n - n1), rolled = n - n1 - n6.
    """
    if souls_dice > rules.souls_limit:
        raise InputError(f"{field}souls_dice", f"{souls_dice} is more than souls_limit={rules.souls_limit} per side")
    n = dice + extra_dice
    if rules.bonus_dice == "add":
        n += bonus6
    if rules.souls == "add":
        n += souls_dice
    if n > MAX_DICE:
        raise InputError(
            f"{field}extra_dice",
            f"the pool has {n} dice after extra dice and added 6!; allowed 0..{MAX_DICE}",
        )
    n1 = min(instant1, n)
    n6 = min(bonus6 + souls_dice, n - n1)
    return PoolPlan(
        dice=n, rolled=n - n1 - n6, instant6=n6, instant1=n1, target=target, reroll=reroll,
        wound_cap=n if rules.cap_wounds_at_dice else None,
    )


def _bonus_count(side: Side, rules: Variants) -> int:
    support = min(side.support, 1) if rules.support_stacking == "once" else side.support
    flags = (side.charge, side.full_visibility, side.steady_aim, side.take_cover, side.get_down, side.zig_zag)
    return support + sum(int(f) for f in flags) + side.instant6


def side_plan(field: str, side: Side, mode: str, rules: Variants) -> PoolPlan:
    """The pool of a validated side in a mode."""
    if side.auto_hits is not None:
        return PoolPlan(
            dice=side.auto_hits, rolled=0, instant6=0, instant1=0, target=6, reroll="none",
            auto_hits=side.auto_hits, wound_cap=side.auto_hits if rules.cap_wounds_at_dice else None,
        )
    dice, target = side.mini.dice(mode)
    return plan_pool(
        field, dice, target, _bonus_count(side, rules), side.souls_dice, side.instant1, side.extra_dice,
        side.reroll, rules,
    )


_NO_ROLL = PoolPlan(dice=0, rolled=0, instant6=0, instant1=0, target=6, reroll="none", auto_hits=0)

# What a side rolls with, and its default: a defender that does not react must leave these alone.
_ROLL_OPTIONS = {
    "charge": False, "support": 0, "full_visibility": False, "steady_aim": False, "take_cover": False,
    "get_down": False, "zig_zag": False, "instant6": 0, "instant1": 0, "souls_dice": 0, "extra_dice": 0,
    "reroll": "none",
}


@dataclass(frozen=True)
class CombatPlan:
    """A legal combat, ready for either engine."""

    attacker: PoolPlan
    defender: PoolPlan
    reaction: str
    same_role: bool
    rules: Variants

    def spec(self) -> _cpp.CombatSpec:
        out = _cpp.CombatSpec()
        out.attacker = self.attacker.spec()
        out.defender = self.defender.spec()
        out.rules = self.rules.outcome_rules(self.reaction, self.same_role)
        return out


def check_legal(
    attacker: Side,
    defender: Side,
    reaction: str,
    rules: Variants,
    stand_and_shoot: bool,
    attacker_mode: str | None = None,
    defender_mode: str | None = None,
    prefix: str = "",
) -> None:
    """Raise InputError for a combat the rules do not allow (docs/rules/deathburgh.md §3, §4).

    ``attacker_mode`` / ``defender_mode`` override the sides' own modes (a round decides them).
    """
    a, d = f"{prefix}attacker.", f"{prefix}defender."
    role_a, role_d = attacker.mini.role, defender.mini.role
    mode_d = defender.mode if defender_mode is None else defender_mode
    ranged_attack = role_a == "ranged"
    ranged_duel = reaction == "attack" and role_a == role_d == "ranged"

    if attacker.current_wounds == 0:
        raise InputError(f"{a}wounds", "a Wasted miniature (0 wounds) cannot attack")
    if defender.current_wounds == 0 and reaction != "none":
        raise InputError(f"{d}wounds", "a Wasted defender (0 wounds) cannot react; use reaction='none'")
    if stand_and_shoot:
        if not (reaction == "attack" and role_a == "melee" and role_d == "ranged"):
            raise InputError(
                f"{prefix}stand_and_shoot",
                "Stand and Shoot is a ranged defender's reaction='attack' to a melee attacker's charge",
            )
        if not attacker.charge:
            raise InputError(f"{prefix}stand_and_shoot", "Stand and Shoot answers a Charge: set the attacker's charge=True")
    elif reaction == "attack" and role_a != role_d:
        raise InputError(
            f"{prefix}reaction",
            f"'attack' needs matching roles (melee vs melee, or a ranged duel); here a {role_a} attacker meets a "
            f"{role_d} defender: use 'dodge' or 'none' (or stand_and_shoot=True for a charged ranged defender)",
        )

    if defender.auto_hits is not None:
        raise InputError(f"{d}auto_hits", "automatic hits belong to the attacker")
    if attacker.auto_hits is not None:
        if reaction == "attack":
            raise InputError(f"{prefix}reaction", "automatic hits cannot be met with 'attack'; use 'dodge' or 'none'")
        for option, default in _ROLL_OPTIONS.items():
            if getattr(attacker, option) != default:
                raise InputError(f"{a}{option}", "automatic hits replace the roll: no dice options with auto_hits")

    if defender.charge:
        raise InputError(f"{d}charge", "only the attacker charges")
    if attacker.charge and ranged_attack:
        raise InputError(f"{a}charge", "a Charge is a melee attack and the attacker is ranged")
    for side, label in ((attacker, a), (defender, d)):
        if side.support and ranged_attack:
            raise InputError(f"{label}support", "Support applies in melee combat only; the attacker is ranged")
    for option in ("full_visibility", "steady_aim"):
        if getattr(attacker, option) and not ranged_attack:
            raise InputError(f"{a}{option}", "a ranged attack bonus; the attacker is melee")
        if getattr(defender, option) and not ranged_duel:
            raise InputError(f"{d}{option}", "a ranged attack bonus: the defender shoots back only in a ranged duel")
    for option in ("take_cover", "get_down", "zig_zag"):
        if getattr(attacker, option):
            raise InputError(f"{a}{option}", "a bonus for the defender dodging a ranged attack")
        if getattr(defender, option) and not (reaction == "dodge" and ranged_attack):
            raise InputError(f"{d}{option}", "a bonus for dodging a ranged attack (reaction='dodge', ranged attacker)")
    if defender.zig_zag:
        if rules.edition != "alpha":
            raise InputError(f"{d}zig_zag", "Zig Zag! is alpha only (edition='alpha'); the web's Flee under fire "
                             "dodges in Aggressive mode with no 6!")
        if mode_d != "defensive":
            raise InputError(f"{d}zig_zag", "Zig Zag! dodges in Defensive mode; set the defender's mode='defensive'")
    if reaction == "none":
        for option, default in _ROLL_OPTIONS.items():
            if getattr(defender, option) != default:
                raise InputError(f"{d}{option}", "the defender rolls nothing when reaction='none'")


def plan_combat(
    attacker: Side,
    defender: Side,
    reaction: str,
    rules: Variants,
    stand_and_shoot: bool = False,
    attacker_mode: str | None = None,
    defender_mode: str | None = None,
    prefix: str = "",
) -> CombatPlan:
    """Check a combat and compose both pools."""
    reaction = check_choice(f"{prefix}reaction", reaction, REACTIONS)
    stand_and_shoot = check_bool(f"{prefix}stand_and_shoot", stand_and_shoot)
    check_legal(attacker, defender, reaction, rules, stand_and_shoot, attacker_mode, defender_mode, prefix)
    mode_a = attacker.mode if attacker_mode is None else attacker_mode
    mode_d = defender.mode if defender_mode is None else defender_mode
    pool_a = side_plan(f"{prefix}attacker.", attacker, mode_a, rules)
    pool_d = _NO_ROLL if reaction == "none" else side_plan(f"{prefix}defender.", defender, mode_d, rules)
    return CombatPlan(
        attacker=pool_a, defender=pool_d, reaction=reaction,
        same_role=attacker.mini.role == defender.mini.role, rules=rules,
    )
