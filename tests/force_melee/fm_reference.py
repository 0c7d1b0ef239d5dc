"""A plain reference for the Force melee, written from docs/rules/force_melee.md without looking at the engine:
every face of every die (and every reroll face) enumerated, the exchange resolved step by step,
allocation done on a list of model HP. Exact: integer weights and Fractions.

Also a seeded generator of random valid scenarios for the exact-vs-Monte-Carlo tests.
"""

from __future__ import annotations

import itertools
import random
from collections import defaultdict
from fractions import Fraction
from typing import Any

from mathhammer import force_melee as fm


# --- the hit roll: every face -------------------------------------------------------------------


def die_paths(side: fm.Side) -> list[tuple[bool, bool, int]]:
    """(hit, crit, weight) for every way one die can land, weights in 36ths."""
    target = side.weapon.hit - side.hit_mod
    target = max(2, min(6, target))
    crit_from = max(side.weapon.crit, target)
    paths = []
    for face in range(1, 7):
        missed = face < target
        rerolled = (side.weapon.reroll == "fails" and missed) or (side.weapon.reroll == "ones" and face == 1)
        if rerolled:
            for second in range(1, 7):
                paths.append((second >= target, second >= crit_from, 1))
        else:
            paths.append((face >= target, face >= crit_from, 6))
    return paths


def roll_law(side: fm.Side, dice: int) -> dict[tuple[int, int], Fraction]:
    """Law of (hits, crits) of `dice` dice, by enumerating every combination of every die's paths."""
    paths = die_paths(side)
    weights: dict[tuple[int, int], int] = defaultdict(int)
    for combo in itertools.product(paths, repeat=dice):
        hits = sum(1 for hit, _, _ in combo if hit)
        crits = sum(1 for _, crit, _ in combo if crit)
        weight = 1
        for _, _, w in combo:
            weight *= w
        weights[(hits, crits)] += weight
    return {key: Fraction(w, 36**dice) for key, w in weights.items()}


# --- the exchange, step by step -------------------------------------------------------------------


def exchange(a: fm.Side, roll_a: tuple[int, int], dice_a: int, b: fm.Side, roll_b: tuple[int, int], dice_b: int,
             sw: dict[str, Any]) -> tuple[int, int, int, int]:
    """(damage to A, damage to B, hits A compared, hits B compared) for one pair of rolls."""
    wa, wb = a.weapon, b.weapon
    (hits_a, crits_a), (hits_b, crits_b) = roll_a, roll_b
    extra = sw["sustained_mode"] == "extra_hits"
    ha = hits_a + (wa.sustained * crits_a if extra else 0)
    hb = hits_b + (wb.sustained * crits_b if extra else 0)
    fa, fb = wa.force, wb.force

    base_by_a = 0  # base damage A deals to B
    base_by_b = 0
    if ha == hb:
        if ha > 0 and fa != fb:
            if fa > fb:
                base_by_a = (fa - fb) * ha
            else:
                base_by_b = (fb - fa) * hb
    else:
        a_won = ha > hb
        hw, hl = (ha, hb) if a_won else (hb, ha)
        fw, fl = (fa, fb) if a_won else (fb, fa)
        winner_deals = 0
        loser_deals = 0
        mode = sw["winner_damage"]
        if mode == "once":
            winner_deals = fw
        elif mode == "excess":
            winner_deals = fw * (hw - hl)
        elif mode == "per_hit":
            winner_deals = fw * hw
        elif mode == "pairing":
            pairs = hl
            unpaired = hw - hl
            winner_deals = fw * unpaired
            if fw > fl:
                winner_deals += (fw - fl) * pairs
            elif fl > fw:
                loser_deals = (fl - fw) * pairs
        else:
            raise AssertionError(mode)
        if a_won:
            base_by_a, base_by_b = winner_deals, loser_deals
        else:
            base_by_a, base_by_b = loser_deals, winner_deals

    def bonus(w: fm.Weapon, hits: int, crits: int, base: int, dice: int) -> int:
        if base > 0:
            per_hit = 0 if extra else w.sustained * hits
            return w.bonus_flat + per_hit + w.critical_damage * crits
        if sw["bonus_always"] and dice > 0:
            return w.bonus_flat
        return 0

    to_b = base_by_a + bonus(wa, hits_a, crits_a, base_by_a, dice_a)
    to_a = base_by_b + bonus(wb, hits_b, crits_b, base_by_b, dice_b)
    return to_a, to_b, ha, hb


# --- allocation on a list of HP ---------------------------------------------------------------------


def allocation_order(unit: fm.Unit) -> list[int]:
    """Model indices, wounded first then the others, each group in the owner's order."""
    hp = list(unit.hp_now)
    return [i for i in range(unit.models) if hp[i] < unit.hp] + [i for i in range(unit.models) if hp[i] == unit.hp]


def allocate(unit: fm.Unit, hp_now: list[int], lump: int, allocation: str) -> tuple[list[int], int]:
    """New HP list (0 = removed) and damage lost, for one lump."""
    hp_now = list(hp_now)
    lost = 0
    while lump > 0:
        alive = [i for i in range(unit.models) if hp_now[i] > 0]
        if not alive:
            lost += lump
            break
        wounded = [i for i in alive if hp_now[i] < unit.hp]
        # among several wounded models, the first in the owner's order
        target = wounded[0] if wounded else alive[0]
        taken = min(lump, hp_now[target])
        hp_now[target] -= taken
        lump -= taken
        if allocation == "no_spill":
            lost += lump
            break
    return hp_now, lost


# --- whole melees ----------------------------------------------------------------------------------


def exchange_law(a: fm.Side, dice_a: int, b: fm.Side, dice_b: int, sw: dict[str, Any]) -> dict[tuple[int, int, int, int], Fraction]:
    """Law of (damage to A, damage to B, hits A, hits B)."""
    law: dict[tuple[int, int, int, int], Fraction] = defaultdict(Fraction)
    for roll_a, pa in roll_law(a, dice_a).items():
        for roll_b, pb in roll_law(b, dice_b).items():
            law[exchange(a, roll_a, dice_a, b, roll_b, dice_b, sw)] += pa * pb
    return dict(law)


def melee(a: fm.Side, b: fm.Side, sw: dict[str, Any]) -> dict[str, Any]:
    """Every output of fm.melee as {value tuple: Fraction} tables."""
    law = exchange_law(a, a.dice, b, b.dice, sw)
    out: dict[str, dict[Any, Fraction]] = {k: defaultdict(Fraction) for k in
                                           ("joint", "hits", "casualties", "remaining_a", "remaining_b")}
    order_a, order_b = allocation_order(a.unit), allocation_order(b.unit)
    for (to_a, to_b, ha, hb), p in law.items():
        out["joint"][(to_a, to_b)] += p
        out["hits"][(ha, hb)] += p
        hp_a, _ = allocate(a.unit, list(a.unit.hp_now), to_a, sw["allocation"])
        hp_b, _ = allocate(b.unit, list(b.unit.hp_now), to_b, sw["allocation"])
        out["casualties"][(hp_a.count(0), hp_b.count(0))] += p
        for k, i in enumerate(order_a):
            out["remaining_a"][(k, hp_a[i])] += p
        for k, i in enumerate(order_b):
            out["remaining_b"][(k, hp_b[i])] += p
    return out


def melee_many(sides: dict[str, fm.Side], engaged: list[tuple[str, str]], dice: dict[tuple[str, str], int],
               sw: dict[str, Any]) -> dict[str, Any]:
    """Per-unit damage, casualties and remaining HP, and per-pair joint casualties, by enumerating the
    product of every exchange's law and applying lumps in pair order."""
    laws = [exchange_law(sides[u], dice[(u, v)], sides[v], dice[(v, u)], sw) for u, v in engaged]
    out: dict[str, dict[Any, Fraction]] = defaultdict(lambda: defaultdict(Fraction))
    for combo in itertools.product(*[list(law.items()) for law in laws]):
        p = Fraction(1)
        hp = {name: list(side.unit.hp_now) for name, side in sides.items()}
        taken = {name: 0 for name in sides}
        for (u, v), ((to_u, to_v, _, _), q) in zip(engaged, combo):
            p *= q
            hp[u], _ = allocate(sides[u].unit, hp[u], to_u, sw["allocation"])
            hp[v], _ = allocate(sides[v].unit, hp[v], to_v, sw["allocation"])
            taken[u] += to_u
            taken[v] += to_v
        for name, side in sides.items():
            out[f"damage:{name}"][taken[name]] += p
            out[f"casualties:{name}"][hp[name].count(0)] += p
            for k, i in enumerate(allocation_order(side.unit)):
                out[f"remaining:{name}"][(k, hp[name][i])] += p
        for u, v in engaged:
            out[f"pair:{u}:{v}"][(hp[u].count(0), hp[v].count(0))] += p
    return out


# --- random valid scenarios ------------------------------------------------------------------------


def random_side(rng: random.Random, max_dice: int, max_models: int = 6, max_hp: int = 4) -> fm.Side:
    models = rng.randint(1, max_models)
    hp = rng.randint(1, max_hp)
    current = None
    if hp > 1 and rng.random() < 0.3:
        current = [rng.randint(1, hp) for _ in range(models)]
    kind = rng.choice(["melee", "melee", "ranged"])
    weapon = fm.Weapon(
        hit=rng.randint(2, 6),
        force=rng.choice([0, 1, 2, 3, 4, 5, 6, rng.randint(0, 20)]),
        crit=rng.choice([6, 6, rng.randint(2, 6)]),
        kind=kind,
        assault=kind == "ranged" or rng.random() < 0.2,
        sustained=rng.choice([0, 0, rng.randint(0, 3)]),
        critical_damage=rng.choice([0, 0, rng.randint(0, 3)]),
        bonus_flat=rng.choice([0, 0, rng.randint(0, 3)]),
        reroll=rng.choice(["none", "none", "fails", "ones"]),
    )
    unit = fm.Unit(models=models, hp=hp, current=current, vehicle=rng.random() < 0.2)
    return fm.Side(unit=unit, weapon=weapon, dice=rng.randint(0, max_dice), hit_mod=rng.choice([0, 0, 0, -1, 1, rng.randint(-5, 5)]))


def random_switches(rng: random.Random, winner_damage: str | None = None) -> dict[str, Any]:
    return {
        "winner_damage": winner_damage or rng.choice(fm.WINNER_DAMAGE),
        "allocation": rng.choice(fm.ALLOCATIONS),
        "sustained_mode": rng.choice(["bonus", "bonus", "extra_hits"]),
        "bonus_always": rng.random() < 0.25,
    }
