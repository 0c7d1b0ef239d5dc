"""The exact engine against brute force: every face of every die (hit dice, Surge die, Armour dice,
Evade dice) for pools of at most 3 dice, with the rules written out plainly here from docs/rules/starcraft.md.

The same plain resolution checks sc.resolve on random scripted faces (sc.resolve runs the C++
function the Monte Carlo engine rolls).
"""

from __future__ import annotations

import itertools
import random
from collections import defaultdict
from fractions import Fraction
from functools import lru_cache
from typing import Any

import pytest
from sc_scenarios import ALL_FEATURES, features, profiles, scenarios

from mathhammer import starcraft as sc

SIXTH = Fraction(1, 6)


# ---- the rules, plainly ------------------------------------------------------------------------------

def clamp_target(base: int, mod: int = 0, penalty: int = 0) -> int:
    return min(6, max(2, base - mod + penalty))


def plain_allocate(unit: dict[str, Any], damage: int, cf: int | None, visible: int | None, engaged: bool,
                   td_reduction: int, td_floor: int, lost: bool) -> tuple:
    """Returns (casualties, models, marker, shielded, first_model_alive)."""
    models, marker = unit["models"], unit["marker"]
    shielded, first = unit["shielded"], unit["first_model_alive"]
    if damage == 0:
        return 0, models, marker, shielded, first
    total = max(td_floor, damage + marker - td_reduction)
    if total > unit["shield"]:
        shielded = False
    cap = models
    if not engaged and visible is not None:
        cap = min(cap, visible)
    if cf is not None:
        cap = min(cap, cf)
    removed = 0
    while removed < cap:
        need = unit["hp"] + unit["shield"] if first else unit["hp"]
        if total < need:
            break
        total -= need
        removed += 1
        if first:
            first = False
            shielded = False
    marker = 0 if (removed == cap or lost) else total
    return removed, models - removed, marker, shielded, first


def plain_setup(w: dict[str, Any] | None, u: dict[str, Any], kw: dict[str, Any], rules: dict[str, str]) -> dict[str, Any]:
    """Everything the dice need, from the raw profile fields and attack options (docs/rules/starcraft.md §3)."""
    mode = kw.get("mode", "weapon")
    add = (lambda xs: sum(xs)) if rules.get("stacking", "sum") == "sum" else (lambda xs: max(xs, default=0))

    def grants(v: Any) -> list[int]:
        return list(v) if isinstance(v, list) else [v]

    s: dict[str, Any] = {"mode": mode}
    if mode == "hits":
        s["groups"] = []
        s["direct"] = kw["hits"][0]
        base_damage = kw["hits"][1]
    else:
        hit_mod = kw.get("hit_mod", 0)
        t_normal, t_long = clamp_target(w["hit"], hit_mod), clamp_target(w["hit"], hit_mod, 1)
        if mode == "spillover":
            normal, long_ = kw["affected_models"], 0
        elif w.get("template"):  # the total, dice_mod included, is floored at 0 (below)
            normal, long_ = kw["affected_models"] + w["roa"] + kw.get("roa_mod", 0), 0
        else:
            firing = kw.get("firing_models", 1)
            lr = kw.get("long_range_models", 0)
            burst = kw.get("burst_models", firing - lr)
            per = w["roa"] + kw.get("roa_mod", 0) + (w.get("locked_in", 0) if kw.get("target_stationary") else 0)
            normal = burst * max(0, per + w.get("burst_fire", 0)) + (firing - lr - burst) * max(0, per)
            long_ = lr * max(0, per)
        dm = kw.get("dice_mod", 0)
        if mode != "spillover" and w.get("template"):
            normal = max(0, normal + dm)
        elif dm >= 0:
            normal += dm
        else:
            cut = min(-dm, normal)
            normal -= cut
            long_ = max(0, long_ - (-dm - cut))
        s["groups"] = [(normal, t_normal), (long_, t_long)]
        s["direct"] = None
        base_damage = w["damage"]
    rolls = mode == "weapon"
    s["precision"] = add(([w.get("precision", 0)] if rolls else []) + grants(kw.get("precision", 0))) if rolls else 0
    s["crit"] = add(([w.get("critical_hit", 0)] if rolls else []) + grants(kw.get("critical_hit", 0))) if rolls else 0
    s["natural"] = rules.get("critical_hit", "count") == "natural"
    reaction = {} if (w is not None and w.get("instant")) else kw.get("reaction", {})
    s["dodge"] = add(grants(kw.get("dodge", 0)) + grants(reaction.get("dodge", [])))
    s["tough"] = add([u.get("tough", 0)] + grants(kw.get("tough", 0)) + grants(reaction.get("tough", [])))
    anti = add(([w.get("anti_evade", 0)] if w is not None else []) + grants(kw.get("anti_evade", 0)))
    s["surge"] = None
    if rolls and set(w.get("surge_tags", ())) & set(u.get("tags", ())):
        s["surge"] = ("fixed", kw["affected_models"]) if w.get("template") else w["surge_dice"]
    s["armour"] = clamp_target(u["armour"], kw.get("armour_mod", 0))
    eligible = kw.get("evade_eligible")
    if eligible is None:
        eligible = u.get("evade") is not None
    s["evade"] = clamp_target(u["evade"], kw.get("evade_mod", 0), anti) if eligible and u.get("evade") is not None else None
    setters = [] if kw.get("damage_set") is None else grants(kw["damage_set"])
    if w is not None and w.get("pierce") and w["pierce"][0] in u.get("tags", ()):
        setters.append(w["pierce"][1])
    caps = ([] if kw.get("damage_cap") is None else grants(kw["damage_cap"])) + grants(reaction.get("damage_cap", []))
    per_die = max(setters) if setters else base_damage
    if caps:
        per_die = min(per_die, min(caps))
    s["per_die"] = per_die
    shield = u.get("shield", 0)
    first = u.get("first_model_alive", True)
    s["unit"] = {"models": u["models"], "hp": u["hp"], "shield": shield, "marker": u.get("marker", 0),
                 "shielded": shield > 0 and first, "first_model_alive": first}
    s["alloc"] = dict(
        cf=None if w is None else w.get("concentrated_fire"),
        visible=kw.get("visible_models"), engaged=kw.get("engaged", False),
        td_reduction=sum(grants(kw.get("td_reduction", 0)) + grants(reaction.get("td_reduction", []))),
        td_floor=max(grants(kw.get("td_floor", 0)) + grants(reaction.get("td_floor", []))),
        lost=rules.get("leftover", "marker") == "lost",
    )
    return s


def surge_of(kind: Any, face: int | None) -> int:
    if kind is None:
        return 0
    if isinstance(kind, tuple):
        return kind[1]
    d3 = (face + 1) // 2
    return {"D3": d3, "D3+1": d3 + 1, "D6": face}[kind]


def hit_stage(s: dict[str, Any], faces: tuple[int, ...]) -> tuple[int, int, int]:
    """(dice, H', Critical Hit dice) from the hit faces in roll order."""
    if s["direct"] is not None:
        return s["direct"], s["direct"], s["crit"]
    targets = [t for n, t in s["groups"] for _ in range(n)]
    hit = [f >= t for f, t in zip(faces, targets)]
    misses = [f for f, h in zip(faces, hit) if not h]
    # Precision promotes misses; those showing the Critical Hit face first.
    if s["natural"]:
        misses.sort(key=lambda f: f != s["crit"])
    promoted = misses[: s["precision"]]
    pool = sum(hit) + len(promoted)
    if s["natural"]:
        showing = sum(1 for f, h in zip(faces, hit) if h and f == s["crit"]) + sum(1 for f in promoted if f == s["crit"])
        return len(faces), pool, showing
    return len(faces), pool, s["crit"]


@lru_cache(maxsize=None)
def armour_outcomes(dice: int, target: int, tough_x: int) -> dict[int, Fraction]:
    out: dict[int, Fraction] = defaultdict(Fraction)
    for faces in itertools.product(range(1, 7), repeat=dice):
        fails = sum(1 for f in faces if f < target)
        out[max(0, fails - tough_x)] += SIXTH ** dice
    return dict(out)


@lru_cache(maxsize=None)
def evade_outcomes(dice: int, target: int | None) -> dict[int, Fraction]:
    if target is None:
        return {dice: Fraction(1)}
    out: dict[int, Fraction] = defaultdict(Fraction)
    for faces in itertools.product(range(1, 7), repeat=dice):
        out[dice - sum(1 for f in faces if f >= target)] += SIXTH ** dice
    return dict(out)


def brute_force(s: dict[str, Any]) -> dict[str, dict[Any, Fraction]]:
    n_hit = 0 if s["direct"] is not None else sum(n for n, _ in s["groups"])
    die = s["surge"] is not None and not isinstance(s["surge"], tuple)
    out: dict[str, dict[Any, Fraction]] = {k: defaultdict(Fraction) for k in (
        "hits", "surge", "bypass", "armour_fails", "damage_pool", "inflicting", "damage", "casualties", "marker",
        "destroyed", "shield_lost", "state")}
    for faces in itertools.product(range(1, 7), repeat=n_hit):
        p_faces = SIXTH ** n_hit
        _, pool, crit = hit_stage(s, faces)
        for surge_face in (range(1, 7) if die else [None]):
            p_surge = p_faces * (SIXTH if die else 1)
            surge = surge_of(s["surge"], surge_face)
            moved = max(0, min(pool, surge + crit) - s["dodge"])
            out["hits"][pool] += p_surge
            out["surge"][surge] += p_surge
            out["bypass"][moved] += p_surge
            for fails, p_a in armour_outcomes(pool - moved, s["armour"], s["tough"]).items():
                damage_pool = moved + fails
                out["armour_fails"][fails] += p_surge * p_a
                out["damage_pool"][damage_pool] += p_surge * p_a
                for kept, p_e in evade_outcomes(damage_pool, s["evade"]).items():
                    p = p_surge * p_a * p_e
                    damage = kept * s["per_die"]
                    cas, models, marker, shielded, first = plain_allocate(s["unit"], damage, **s["alloc"])
                    out["inflicting"][kept] += p
                    out["damage"][damage] += p
                    out["casualties"][cas] += p
                    out["marker"][marker] += p
                    out["destroyed"][models == 0] += p
                    out["shield_lost"][s["unit"]["shielded"] and not shielded] += p
                    out["state"][(models, marker, shielded, first)] += p
    return out


# ---- random small scenarios ---------------------------------------------------------------------------

def _compare(dist: Any, expected: dict[Any, Fraction], label: str) -> None:
    for value in range(dist.pmf.size):
        assert float(dist.pmf[value]) == pytest.approx(float(expected.get(value, 0)), abs=1e-12), (label, value)
    assert all(int(v) < dist.pmf.size or p == 0 for v, p in expected.items()), label


@pytest.mark.parametrize("index,scenario", list(enumerate(scenarios(120, 2024, 3))))
def test_exact_matches_every_die_face(index: int, scenario: tuple) -> None:
    weapon, unit, kw, rules = scenario
    setup = plain_setup(weapon, unit, kw, rules)
    expected = brute_force(setup)
    w, u = profiles(weapon, unit)
    result = sc.attack(w, u, rules=rules, method="exact", **kw)
    assert result.damage_per_die == setup["per_die"]
    for name in ("hits", "surge", "bypass", "armour_fails", "damage_pool", "inflicting"):
        _compare(getattr(result.stages, name), expected[name], name)
    _compare(result.damage, expected["damage"], "damage")
    _compare(result.casualties, expected["casualties"], "casualties")
    _compare(result.marker, expected["marker"], "marker")
    assert result.destroyed == pytest.approx(float(expected["destroyed"].get(True, 0)), abs=1e-12)
    assert result.shield_lost == pytest.approx(float(expected["shield_lost"].get(True, 0)), abs=1e-12)
    for (models, marker, shielded, first), p in expected["state"].items():
        mask = (result.state.models == models) & (result.state.marker == marker) & (result.state.shielded == shielded) & (
            result.state.first_model_alive == first)
        assert float(result.state.p[mask].sum()) == pytest.approx(float(p), abs=1e-12)


def test_brute_force_scenarios_cover_every_feature() -> None:
    counts: dict[str, int] = defaultdict(int)
    for scenario in scenarios(120, 2024, 3):
        for name in features(*scenario):
            counts[name] += 1
    assert ALL_FEATURES <= set(counts), ALL_FEATURES - set(counts)
    assert min(counts[name] for name in ALL_FEATURES) >= 3, dict(counts)


# ---- scripted faces: sc.resolve (the Monte Carlo resolution function) against the plain rules ----------

def plain_resolve(s: dict[str, Any], faces: list[int]) -> dict[str, int]:
    it = iter(faces)
    n_hit = 0 if s["direct"] is not None else sum(n for n, _ in s["groups"])
    hit_faces = tuple(next(it) for _ in range(n_hit))
    dice, pool, crit = hit_stage(s, hit_faces)
    die = s["surge"] is not None and not isinstance(s["surge"], tuple)
    surge = surge_of(s["surge"], next(it) if die else None)
    moved = max(0, min(pool, surge + crit) - s["dodge"])
    armour = [next(it) for _ in range(pool - moved)]
    fails = max(0, sum(1 for f in armour if f < s["armour"]) - s["tough"])
    damage_pool = moved + fails
    evaded = 0
    if s["evade"] is not None:
        evaded = sum(1 for _ in range(damage_pool) if next(it) >= s["evade"])
    kept = damage_pool - evaded
    cas, models, marker, shielded, first = plain_allocate(s["unit"], kept * s["per_die"], **s["alloc"])
    return {"dice": dice, "hits": pool, "surge": surge, "bypass": moved, "armour_fails": fails,
            "damage_pool": damage_pool, "evaded": evaded, "inflicting": kept, "damage": kept * s["per_die"],
            "casualties": cas, "models": models, "marker": marker, "shielded": shielded, "destroyed": models == 0}


def test_resolve_matches_the_plain_rules_on_random_faces() -> None:
    rng = random.Random(77)
    for weapon, unit, kw, rules in scenarios(400, 99, 12):
        setup = plain_setup(weapon, unit, kw, rules)
        faces = [rng.randint(1, 6) for _ in range(40)]
        expected = plain_resolve(setup, faces)
        w, u = profiles(weapon, unit)
        record = sc.resolve(w, u, faces, rules=rules, **kw)
        assert {k: getattr(record, k) for k in expected} == expected, (weapon, unit, kw, rules)
