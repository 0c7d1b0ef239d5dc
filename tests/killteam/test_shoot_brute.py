"""Brute force, written plainly: every attack face and reroll face, every defence face, every way to
spend the saves, every relic die and every Feel No Pain die, compared with the exact engines to 1e-12.

Nothing here calls the code under test except to get the numbers being checked. The rules are
re-stated from docs/rules/killteam.md §1-§2 in the simplest form: lists of dice, loops over faces.
"""

from __future__ import annotations

import itertools
from collections import defaultdict
from functools import lru_cache

import numpy as np
import pytest

from mathhammer import _core
from mathhammer import killteam as kt
from mathhammer.killteam.plan import shoot_config

FACES = (1, 2, 3, 4, 5, 6)
TOL = 1e-12

# ----------------------------------------------------------------------------------------------
# Attack dice (§1), one die at a time.


def category(face: int, hit: int, crit: int) -> str:
    if face >= crit:
        return "C"
    return "N" if face >= hit else "F"


def dice_to_reroll(faces: tuple[int, ...], cats: list[str], reroll: str) -> list[int]:
    """Indices of the dice the reroll rule rerolls (fails only, except crit-fishing)."""
    fails = [i for i, c in enumerate(cats) if c == "F"]
    ones = [i for i in fails if faces[i] == 1]
    if reroll == "none":
        return []
    if reroll == "balanced":
        return fails[:1]
    if reroll == "double_balanced":
        return fails[:2]
    if reroll in ("ceaseless", "ceaseless_balanced"):
        chosen: list[int] = []
        if fails:
            # the most common fail face (on a tie, the lowest: which one does not change the odds)
            best = max(sorted({faces[i] for i in fails}), key=lambda f: sum(faces[i] == f for i in fails))
            chosen = [i for i in fails if faces[i] == best]
        if reroll == "ceaseless_balanced":
            chosen += [i for i in fails if i not in chosen][:1]
        return chosen
    if reroll == "relentless":
        return fails
    if reroll == "relentless_crit_fishing":
        return [i for i, c in enumerate(cats) if c != "C"]
    if reroll == "reroll_ones":
        return ones
    if reroll == "reroll_ones_balanced":
        return ones + [i for i in fails if i not in ones][:1]
    raise AssertionError(reroll)


def after_roll(cats: list[str], accurate: int, rules: dict, obscured: bool) -> tuple[int, int]:
    """The post-roll steps of §1.4 on rolled dice (categories) plus `accurate` Accurate norms."""
    c = cats.count("C")
    rolled_norms = cats.count("N")
    f = cats.count("F")
    acc = accurate
    if rules.get("punishing") and not obscured and c > 0 and f > 0:
        f -= 1
        rolled_norms += 1
    moved = min(rules.get("fails_to_norms", 0), f)
    f -= moved
    rolled_norms += moved
    severe_fired = False
    if rules.get("severe") and c == 0 and rolled_norms + acc > 0:
        if acc:
            acc -= 1
        else:
            rolled_norms -= 1
        c += 1
        severe_fired = True
    # Norms to crits: the attacker picks which norms to upgrade; try every split and keep the best.
    upgrade = min(rules.get("norms_to_crits", 0), rolled_norms + acc)
    best = None
    for from_acc in range(0, min(upgrade, acc) + 1):
        from_rolled = upgrade - from_acc
        if from_rolled > rolled_norms:
            continue
        cc, rn, an = c + upgrade, rolled_norms - from_rolled, acc - from_acc
        if rules.get("rending") and not severe_fired and cc > 0 and rn > 0:
            cc, rn = cc + 1, rn - 1
        outcome = (cc, rn + an)
        best = outcome if best is None or outcome > best else best
    c, n = best
    if obscured:
        n += c
        c = 0
        n = max(0, n - 1)
    return c, n


def brute_attack(dice: int, hit: int, rules: dict, obscured: bool = False) -> dict[tuple[int, int], float]:
    """P(crits, norms) retained, over every face of every die and every face of every reroll."""
    lethal = rules.get("lethal")
    crit = 6 if lethal is None else max(lethal, hit)
    accurate = min(rules.get("accurate", 0), dice)
    rolled = dice - accurate
    reroll = rules.get("reroll", "none")
    out: dict[tuple[int, int], float] = defaultdict(float)
    for faces in itertools.product(FACES, repeat=rolled):
        cats = [category(x, hit, crit) for x in faces]
        again = dice_to_reroll(faces, cats, reroll)
        kept = [c for i, c in enumerate(cats) if i not in again]
        for new_faces in itertools.product(FACES, repeat=len(again)):
            final = kept + [category(x, hit, crit) for x in new_faces]
            out[after_roll(final, accurate, rules, obscured)] += 6.0 ** -(rolled + len(again))
    return dict(out)


def table_of(dist: dict[tuple[int, int], float], side: int) -> np.ndarray:
    t = np.zeros((side, side))
    for (c, n), p in dist.items():
        t[c, n] += p
    return t


REROLLS = ("none", "balanced", "double_balanced", "ceaseless", "ceaseless_balanced", "relentless",
           "relentless_crit_fishing", "reroll_ones", "reroll_ones_balanced")
RULE_MIXES = [
    {},
    {"lethal": 5},
    {"lethal": 4, "rending": True},
    {"accurate": 1, "rending": True},
    {"accurate": 2, "norms_to_crits": 1, "rending": True},
    {"punishing": True, "lethal": 5},
    {"severe": True, "rending": True},
    {"severe": True, "accurate": 1, "norms_to_crits": 1},
    {"fails_to_norms": 1, "punishing": True, "rending": True},
    {"norms_to_crits": 2, "fails_to_norms": 2},
]


def rules_text(rules: dict) -> str:
    parts = []
    names = {"balanced": "Balanced", "double_balanced": "Double Balanced", "ceaseless": "Ceaseless",
             "ceaseless_balanced": "Ceaseless, Balanced", "relentless": "Relentless",
             "relentless_crit_fishing": "Relentless (crit-fishing)", "reroll_ones": "Reroll Ones",
             "reroll_ones_balanced": "Reroll Ones, Balanced"}
    if rules.get("reroll", "none") != "none":
        parts.append(names[rules["reroll"]])
    if "lethal" in rules:
        parts.append(f"Lethal {rules['lethal']}+")
    for key, label in (("accurate", "Accurate"), ("fails_to_norms", "Fails to Norms"),
                       ("norms_to_crits", "Norms to Crits"), ("piercing", "Piercing"),
                       ("piercing_crits", "Piercing Crits"), ("devastating", "Devastating")):
        if rules.get(key):
            parts.append(f"{label} {rules[key]}")
    for key, label in (("punishing", "Punishing"), ("severe", "Severe"), ("rending", "Rending"),
                       ("saturate", "Saturate")):
        if rules.get(key):
            parts.append(label)
    return ", ".join(parts)


ATTACK_CASES = [
    (dice, hit, reroll, mix, obscured)
    for dice in (1, 2, 3)
    for reroll in REROLLS
    for i, mix in enumerate(RULE_MIXES)
    for hit in ((2, 4, 6) if (dice + i) % 2 else (3, 5))
    for obscured in ((False, True) if i in (0, 5, 8) else (False,))
]


@pytest.mark.parametrize("dice, hit, reroll, mix, obscured", ATTACK_CASES)
def test_attack_dice_match_brute_force(dice, hit, reroll, mix, obscured):
    rules = dict(mix, reroll=reroll)
    weapon = kt.Weapon(dice, hit, rules=rules_text(rules))
    exact = kt.attack_dice(weapon, obscured=obscured).pmf
    expected = table_of(brute_attack(dice, hit, rules, obscured), dice + 1)
    assert np.abs(exact - expected).max() < TOL


def test_attack_brute_force_covers_the_cases():
    # every reroll option, every rule, obscured, 1..3 dice
    assert {r for _, _, r, _, _ in ATTACK_CASES} == set(REROLLS)
    assert {d for d, *_ in ATTACK_CASES} == {1, 2, 3}
    assert any(o for *_, o in ATTACK_CASES)
    assert len(ATTACK_CASES) > 200


# ----------------------------------------------------------------------------------------------
# Shooting (§2), step by step.


def brute_defence(dice: int, cover_saves: int, save: int, punishing: bool) -> dict[tuple[int, int], float]:
    """P(crit saves, normal saves): cover saves retained as norms, the rest rolled."""
    out: dict[tuple[int, int], float] = defaultdict(float)
    rolled = dice - cover_saves
    for faces in itertools.product(FACES, repeat=rolled):
        crits = sum(x == 6 for x in faces)
        norms = sum(save <= x < 6 for x in faces)
        fails = rolled - crits - norms
        if punishing and crits > 0 and fails > 0:
            norms += 1
        out[(crits, norms + cover_saves)] += 6.0 ** -rolled
    return dict(out)


def scratch(crits: int, norms: int, jas: bool, jas_normals: bool) -> tuple[int, int]:
    if jas:
        if crits:
            crits -= 1
        elif norms:
            norms -= 1
    if jas_normals and norms:
        norms -= 1
    return crits, norms


def dice_damage(crits: int, norms: int, dn: int, dc: int, durable: bool) -> int:
    damage = crits * dc + norms * dn
    if durable and crits > 0 and dc > 3:
        damage -= 1
    return damage


def all_allocations(crits: int, norms: int, crit_saves: int, norm_saves: int):
    """Every way to place each save on an attack die (or nowhere): yields (blocked crits, blocked norms)."""
    hits = ["C"] * crits + ["N"] * norms
    saves = ["C"] * crit_saves + ["N"] * norm_saves
    for targets in itertools.product(range(-1, len(hits)), repeat=len(saves)):
        bc = bn = 0
        for i, kind in enumerate(hits):
            on_it = [saves[s] for s, t in enumerate(targets) if t == i]
            if kind == "C" and (on_it.count("C") >= 1 or on_it.count("N") >= 2):
                bc += 1
            if kind == "N" and on_it:
                bn += 1
        yield bc, bn


def brute_blocks(crits, norms, crit_saves, norm_saves, dn, dc, jas, jas_normals, durable):
    """The defender's choice: least damage after Just a Scratch and Durable, then most dice blocked,
    then the more damaging kind blocked. Returns (blocked, left after Just a Scratch, damage)."""

    def value(blocked):
        bc, bn = blocked
        left = scratch(crits - bc, norms - bn, jas, jas_normals)
        preferred = bc if dc >= dn else bn
        return (dice_damage(*left, dn, dc, durable), -(bc + bn), -preferred)

    best = min(set(all_allocations(crits, norms, crit_saves, norm_saves)), key=value)
    left = scratch(crits - best[0], norms - best[1], jas, jas_normals)
    return best, left, dice_damage(*left, dn, dc, durable)


@lru_cache(maxsize=None)
def relic_attempt(mode: int) -> float:
    """P(any 6) on the relic dice, by enumerating them."""
    rolls = list(itertools.product(FACES, repeat=mode))
    return sum(6 in r for r in rolls) / len(rolls)


@lru_cache(maxsize=None)
def fnp_successes(instances: int, fnp: int) -> tuple[float, ...]:
    """P(k of `instances` Feel No Pain dice succeed), by enumerating every face."""
    out = [0.0] * (instances + 1)
    for faces in itertools.product(FACES, repeat=instances):
        out[sum(x >= fnp for x in faces)] += 6.0 ** -instances
    return tuple(out)


def dealt(dn: int, dc: int, crit: bool, target: dict) -> int:
    """The Dmg stat a success inflicts on the target (§2.3): a crit counts as a norm under Crits as
    Normal Dmg; each reduction whose x the stat reaches takes 1 off."""
    as_normal = not crit or target.get("crits_as_normal", False)
    stat = dn if as_normal else dc
    damage = stat
    if as_normal and target.get("reduce_normal") and stat >= target["reduce_normal"]:
        damage -= 1
    if target.get("reduce_all") and stat >= target["reduce_all"]:
        damage -= 1
    return max(0, damage)


def against(rules: dict, target: dict) -> dict:
    """The weapon's rules against the target's defences (§2.3): ignored rules gone, Piercing worsened."""
    rules = dict(rules)
    for name in ("lethal", "rending", "severe", "saturate"):
        if target.get(f"ignore_{name}"):
            rules.pop(name, None)
    for name in ("piercing", "piercing_crits"):
        if target.get("ignore_piercing"):
            rules.pop(name, None)
        elif target.get("worsen_piercing") and rules.get(name):
            rules[name] -= 1
    return rules


def brute_shot(weapon: dict, target: dict, cover: int, obscured: bool, rounds: int) -> dict[int, float]:
    dn, dc = (dealt(*weapon["damage"], crit, target) for crit in (False, True))
    rules = against(weapon["rules"], target)
    attack = brute_attack(weapon["attacks"], weapon["hit"], rules, obscured)
    dev = rules.get("devastating", 0)
    fnp = target.get("fnp")
    relic_mode = target.get("relics", 0)

    def one_attack(relic_available: bool) -> dict[tuple[int, bool], float]:
        """P(damage, relic used) of one attack."""
        out: dict[tuple[int, bool], float] = defaultdict(float)
        for (c, n), pa in attack.items():
            pierce = rules.get("piercing", 0)
            if c > 0:
                pierce = max(pierce, rules.get("piercing_crits", 0))
            dice = max(0, 3 - pierce)
            cover_saves = 0 if rules.get("saturate") else min(cover, dice)
            for (sc, sn), pd in brute_defence(dice, cover_saves, target["save"], target.get("punishing", False)).items():
                _, (uc, un), _ = brute_blocks(c, n, sc, sn, dn, dc, target.get("jas", False),
                                              target.get("jas_normals", False), target.get("durable", False))
                # Saintly Relics: the die whose ignoring saves the most damage first (Durable taken
                # into account; crits on a tie), then each next damaging die in turn.
                durable = target.get("durable", False)
                full = dice_damage(uc, un, dn, dc, durable)
                saved_by_crit = full - dice_damage(uc - 1, un, dn, dc, durable) if uc else 0
                crits_first = saved_by_crit >= dn
                order = ["C"] * uc + ["N"] * un if crits_first else ["N"] * un + ["C"] * uc
                order = [k for k in order if (dc if k == "C" else dn) > 0]
                branches = []  # (ignored kind or None, probability)
                reach = 1.0
                if relic_available and relic_mode:
                    q = relic_attempt(relic_mode)
                    for kind in order:
                        branches.append((kind, reach * q))
                        reach *= 1 - q
                branches.append((None, reach))
                for ignored, pr in branches:
                    lc, ln = uc - (ignored == "C"), un - (ignored == "N")
                    damage = c * dev + dice_damage(lc, ln, dn, dc, target.get("durable", False))
                    instances = (c if dev > 0 else 0) + (lc if dc > 0 else 0) + (ln if dn > 0 else 0)
                    if fnp:
                        for k, pf in enumerate(fnp_successes(instances, fnp)):
                            out[(damage - k, ignored is not None)] += pa * pd * pr * pf
                    else:
                        out[(damage, ignored is not None)] += pa * pd * pr
        return dict(out)

    with_relic, without_relic = one_attack(True), one_attack(False)

    @lru_cache(maxsize=None)
    def remaining(rounds_left: int, relics_left: int) -> tuple[tuple[int, float], ...]:
        if rounds_left == 0:
            return ((0, 1.0),)
        table = with_relic if relics_left > 0 else without_relic
        out: dict[int, float] = defaultdict(float)
        for (damage, used), p in table.items():
            for later, q in remaining(rounds_left - 1, relics_left - used):
                out[damage + later] += p * q
        return tuple(out.items())

    return dict(remaining(rounds, 2))


SHOT_MIXES = [
    # (attacks, hit, damage, weapon rules, target abilities, cover, obscured, rounds)
    (1, 3, (3, 4), {}, {}, 0, False, 1),
    (2, 3, (3, 4), {"lethal": 5}, {}, 1, False, 1),
    (2, 4, (3, 4), {"reroll": "balanced", "piercing_crits": 2}, {"fnp": 5}, 1, False, 1),
    (2, 3, (4, 5), {"devastating": 2, "rending": True}, {"fnp": 4, "durable": True}, 0, False, 1),
    (2, 2, (2, 4), {"piercing": 1, "piercing_crits": 2, "saturate": True}, {"jas": True}, 2, False, 1),
    (2, 3, (4, 4), {"severe": True}, {"durable": True, "relics": 1}, 1, False, 1),
    (2, 3, (4, 4), {"lethal": 4}, {"durable": True, "relics": 2}, 0, False, 2),
    (2, 3, (5, 3), {"devastating": 1, "accurate": 1}, {"jas_normals": True, "fnp": 6}, 1, False, 1),
    (2, 4, (3, 6), {"reroll": "ceaseless", "devastating": 3, "punishing": True},
     {"relics": 1, "fnp": 5, "jas": True}, 0, False, 3),
    (2, 3, (3, 4), {"reroll": "relentless", "lethal": 5}, {"punishing": True, "jas": True, "jas_normals": True}, 3,
     False, 1),
    (2, 3, (3, 4), {"piercing_crits": 1, "devastating": 2}, {"fnp": 5}, 1, True, 1),
    (2, 4, (3, 4), {"lethal": 5, "piercing": 1}, {"punishing": True, "fnp": 5, "durable": True}, 0, False, 1),
    (1, 3, (3, 3), {"severe": True}, {"punishing": True, "durable": True}, 1, False, 2),
    (2, 5, (0, 4), {"reroll": "reroll_ones", "devastating": 1}, {"fnp": 3, "relics": 2, "durable": True}, 0, False, 2),
    (2, 3, (4, 0), {"lethal": 5, "devastating": 2}, {"relics": 1, "jas": True}, 1, False, 1),
    # the target's defences (§2.3)
    (2, 3, (3, 4), {"piercing": 2, "piercing_crits": 3}, {"ignore_piercing": True, "worsen_piercing": True}, 0, False,
     1),
    (2, 4, (3, 5), {"piercing": 1, "piercing_crits": 2}, {"worsen_piercing": True, "durable": True}, 1, False, 1),
    (2, 3, (3, 4), {"lethal": 4, "rending": True, "severe": True},
     {"ignore_lethal": True, "ignore_rending": True}, 0, False, 1),
    (2, 3, (3, 4), {"severe": True, "rending": True, "saturate": True}, {"ignore_severe": True,
                                                                          "ignore_saturate": True}, 1, False, 1),
    (2, 3, (4, 5), {"devastating": 1, "lethal": 5}, {"reduce_normal": 4, "fnp": 5}, 0, False, 1),
    (2, 2, (3, 5), {"piercing": 1}, {"reduce_all": 4, "durable": True, "relics": 1}, 0, False, 2),
    (2, 3, (4, 6), {"devastating": 2}, {"crits_as_normal": True, "reduce_normal": 4, "jas": True}, 1, False, 1),
    (2, 3, (5, 3), {"lethal": 5}, {"crits_as_normal": True, "reduce_all": 3, "durable": True}, 0, False, 1),
]


def ability_text(target: dict) -> str:
    parts = []
    if target.get("fnp"):
        parts.append(f"Feel No Pain {target['fnp']}+")
    if target.get("relics") == 1:
        parts.append("Saintly Relics")
    if target.get("relics") == 2:
        parts.append("Saintly Relics (2D6)")
    for key, label in (("jas", "Just a Scratch"), ("jas_normals", "Just a Scratch (normals)"),
                       ("durable", "Durable"), ("punishing", "Punishing"), ("ignore_piercing", "Ignore Piercing"),
                       ("worsen_piercing", "Worsen Piercing"), ("ignore_lethal", "Ignore Lethal"),
                       ("ignore_rending", "Ignore Rending"), ("ignore_severe", "Ignore Severe"),
                       ("ignore_saturate", "Ignore Saturate"), ("crits_as_normal", "Crits as Normal Dmg")):
        if target.get(key):
            parts.append(label)
    for key, label in (("reduce_normal", "Reduce Normal Dmg"), ("reduce_all", "Reduce Dmg")):
        if target.get(key):
            parts.append(f"{label} {target[key]}+")
    return ", ".join(parts)


@pytest.mark.parametrize("save", [2, 3, 4, 5, 6])
@pytest.mark.parametrize("mix", SHOT_MIXES, ids=[f"mix{i}" for i in range(len(SHOT_MIXES))])
def test_shoot_matches_brute_force(mix, save):
    attacks, hit, damage, rules, abilities, cover, obscured, rounds = mix
    weapon = kt.Weapon(attacks, hit, damage, rules_text(rules))
    target = kt.Operative(save, 12, ability_text(abilities))
    result = kt.shoot(weapon, target, cover=cover, obscured=obscured, rounds=rounds)
    expected = brute_shot({"attacks": attacks, "hit": hit, "damage": damage, "rules": rules},
                          dict(abilities, save=save), cover, obscured, rounds)
    size = max(result.damage.pmf.size, max(expected) + 1)
    want = np.zeros(size)
    for d, p in expected.items():
        want[d] += p
    got = np.zeros(size)
    got[: result.damage.pmf.size] = result.damage.pmf
    assert np.abs(got - want).max() < TOL
    assert result.kill_chance == pytest.approx(want[12:].sum(), abs=TOL)


def test_shot_mixes_cover_every_defender_rule():
    abilities = set().union(*(m[4] for m in SHOT_MIXES))
    rules = set().union(*(m[3] for m in SHOT_MIXES))
    assert {"fnp", "relics", "jas", "jas_normals", "durable", "punishing"} <= abilities
    # every row of the target's defences (§2.3), by its field in the abilities table
    defences = {name for name, row in kt.Abilities.TABLE.rows() if row.section.startswith("§2.3")}
    named = {"reduce_normal": "reduce_normal_damage", "reduce_all": "reduce_damage"}
    assert {named.get(key, key) for key in abilities} >= defences
    assert {"devastating", "piercing", "piercing_crits", "saturate"} <= rules
    assert {m[7] for m in SHOT_MIXES} >= {1, 2, 3}


# ----------------------------------------------------------------------------------------------
# The defender's block allocation against every allocation.

BLOCK_RULES = [
    # (dn, dc, Just a Scratch, Just a Scratch (normals), Durable)
    (3, 4, False, False, False),
    (3, 6, False, False, False),
    (3, 7, False, False, False),
    (4, 4, False, False, True),
    (4, 5, False, False, True),
    (5, 5, True, False, True),
    (2, 4, True, False, False),
    (3, 4, False, True, True),
    (5, 3, False, False, False),
    (6, 3, True, True, True),
    (0, 4, False, True, False),
    (4, 0, True, False, False),
]


@pytest.mark.parametrize("dn, dc, jas, jas_normals, durable", BLOCK_RULES)
def test_blocks_are_optimal_against_every_allocation(dn, dc, jas, jas_normals, durable):
    abilities = ", ".join(label for flag, label in ((jas, "Just a Scratch"), (jas_normals, "Just a Scratch (normals)"),
                                                    (durable, "Durable")) if flag)
    config = shoot_config(kt.Weapon(8, 3, (dn, dc)), kt.Operative(3, 12, abilities))
    checked = 0
    for crits in range(5):
        for norms in range(5 - crits):
            for crit_saves in range(4):
                for norm_saves in range(4 - crit_saves):
                    bc, bn, uc, un, damage = _core.killteam.shoot_blocks(config, crits, norms, crit_saves, norm_saves)
                    options = set(all_allocations(crits, norms, crit_saves, norm_saves))
                    assert (bc, bn) in options  # a legal allocation
                    for obc, obn in options:  # no allocation deals less damage
                        left = scratch(crits - obc, norms - obn, jas, jas_normals)
                        assert damage <= dice_damage(*left, dn, dc, durable)
                    assert (uc, un) == scratch(crits - bc, norms - bn, jas, jas_normals)
                    assert damage == dice_damage(uc, un, dn, dc, durable)
                    expected, left, best = brute_blocks(crits, norms, crit_saves, norm_saves, dn, dc, jas,
                                                        jas_normals, durable)
                    assert ((bc, bn), (uc, un), damage) == (expected, left, best)
                    checked += 1
    assert checked == 15 * 10


def test_blocks_examples_by_hand():
    # dc = 2 dn: two normal saves cancel two norms rather than one crit (most dice blocked).
    config = shoot_config(kt.Weapon(4, 3, (3, 6)), kt.Operative(3, 12))
    assert _core.killteam.shoot_blocks(config, 1, 2, 0, 2)[:2] == (0, 2)
    # Durable with dn = dc = 4: one crit save on the norm leaves a crit dealing 3, not a norm dealing 4.
    config = shoot_config(kt.Weapon(4, 3, (4, 4)), kt.Operative(3, 12, "Durable"))
    assert _core.killteam.shoot_blocks(config, 1, 1, 1, 0) == (0, 1, 1, 0, 3)
    # dc > 2 dn: two normal saves block the crit.
    config = shoot_config(kt.Weapon(4, 3, (2, 5)), kt.Operative(3, 12))
    assert _core.killteam.shoot_blocks(config, 1, 2, 0, 2) == (1, 0, 0, 2, 4)
