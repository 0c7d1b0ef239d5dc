"""Kill Team attack dice: the seed cases exactly, and Monte Carlo rolls against the exact enumeration."""

import itertools
import random
from collections import defaultdict
from fractions import Fraction
from functools import lru_cache

import numpy as np
import pytest
from casedata import load_cases
from mathhammer import killteam as kt
from stats import assert_pmf_close
from test_shoot_brute import (
    FACES,
    REROLLS,
    TOL,
    after_roll,
    brute_attack,
    category,
    dice_to_reroll,
    rules_text,
    table_of,
)

CASES = load_cases("killteam")


@pytest.mark.parametrize("case_id", [c for c in CASES if c.startswith("KA")])
def test_attack_dice_cases(case_id):
    case = CASES[case_id]
    inputs = case["inputs"]
    weapon = kt.Weapon(attacks=inputs["attacks"], hit=inputs["hit"], rules=inputs["rules"])
    pmf = kt.attack_dice(weapon).pmf
    expected = np.zeros_like(pmf)
    for row in case["expected"]["retained"]:
        expected[row["crits"], row["norms"]] = float(Fraction(row["p"]))
    assert np.abs(pmf - expected).max() < case["tolerance"]


def test_ka2_by_hand():
    # 1 die, 4+, Balanced: crit 1/6 + 1/2*1/6 = 1/4; norm 1/3 + 1/2*1/3 = 1/2.
    pmf = kt.attack_dice(kt.Weapon(1, 4, rules="Balanced")).pmf
    assert pmf[1, 0] == pytest.approx(0.25, abs=1e-15) and pmf[0, 1] == pytest.approx(0.5, abs=1e-15)


@pytest.mark.parametrize(
    "attacks, hit, rules, obscured",
    [
        (4, 3, "", False),
        (6, 4, "Ceaseless Balanced, Lethal 5+, Rending", False),
        (5, 3, "Relentless (crit-fishing), Severe, Punishing", False),
        (7, 2, "Reroll Ones Balanced, Accurate 2, Norms to Crits 1, Rending", False),
        (8, 5, "Double Balanced, Fails to Norms 2, Punishing", True),
        (12, 4, "Ceaseless, Lethal 5+, Severe", False),
    ],
)
def test_monte_carlo_matches_exact(attacks, hit, rules, obscured):
    weapon = kt.Weapon(attacks, hit, rules=rules)
    exact = kt.attack_dice(weapon, obscured=obscured).pmf
    mc = kt.attack_dice(weapon, obscured=obscured, method="monte_carlo", samples=400_000, seed=11, threads=2)
    assert mc.joint.samples == 400_000
    assert_pmf_close(exact, mc.pmf, 400_000, f"{attacks} dice {hit}+ {rules} obscured={obscured}", floor=0.0)


def test_distribution_is_normalised_and_bounded():
    weapon = kt.Weapon(9, 3, rules="Accurate 2, Relentless, Lethal 5+, Norms to Crits 3")
    pmf = kt.attack_dice(weapon).pmf
    assert pmf.sum() == pytest.approx(1.0, abs=1e-12) and pmf.min() >= 0
    c, n = np.indices(pmf.shape)
    assert pmf[c + n > 9].sum() == 0


# ----------------------------------------------------------------------------------------------
# Brute force at 4 dice: every face of every die and every face of every rerolled die, for every
# reroll rule and random mixes of the post-roll rules (docs/rules/killteam.md §1), against the exact engine.
# The rules themselves are the plain ones of test_shoot_brute.py; only the bookkeeping is faster:
# the rerolled dice are independent of the dice kept, so each count of rerolled dice is enumerated
# once (all 6^k faces) and the results are cached by what they depend on.

FOUR_DICE_CASES = 180


def counts(cats: list[str]) -> tuple[int, int, int]:
    return cats.count("C"), cats.count("N"), cats.count("F")


@lru_cache(maxsize=None)
def rerolled_counts(k: int, hit: int, crit: int) -> tuple[tuple[tuple[int, int, int], float], ...]:
    """P(crits, norms, fails) among k rerolled dice, over all 6^k faces."""
    out: dict[tuple[int, int, int], float] = defaultdict(float)
    for faces in itertools.product(FACES, repeat=k):
        out[counts([category(x, hit, crit) for x in faces])] += 6.0**-k
    return tuple(out.items())


@lru_cache(maxsize=None)
def rolled_counts(rolled: int, hit: int, crit: int, reroll: str) -> tuple[tuple[tuple[int, int, int], float], ...]:
    """P(crits, norms, fails) after the reroll rule, over every face of every rolled die."""
    out: dict[tuple[int, int, int], float] = defaultdict(float)
    for faces in itertools.product(FACES, repeat=rolled):
        cats = [category(x, hit, crit) for x in faces]
        again = dice_to_reroll(faces, cats, reroll)
        assert len(set(again)) == len(again)  # no die is rerolled twice
        kc, kn, kf = counts([c for i, c in enumerate(cats) if i not in again])
        for (c, n, f), p in rerolled_counts(len(again), hit, crit):
            out[(kc + c, kn + n, kf + f)] += 6.0**-rolled * p
    return tuple(out.items())


def brute_attack_cached(dice: int, hit: int, rules: dict, obscured: bool) -> dict[tuple[int, int], float]:
    lethal = rules.get("lethal")
    crit = 6 if lethal is None else max(lethal, hit)
    accurate = min(rules.get("accurate", 0), dice)
    reroll = rules.get("reroll", "none")
    out: dict[tuple[int, int], float] = defaultdict(float)
    for (c, n, f), p in rolled_counts(dice - accurate, hit, crit, reroll):
        out[after_roll(["C"] * c + ["N"] * n + ["F"] * f, accurate, rules, obscured)] += p
    return dict(out)


def random_mix(rng: random.Random, index: int) -> tuple[int, int, dict, bool]:
    rules: dict = {"reroll": REROLLS[index % len(REROLLS)]}  # every reroll rule equally often
    if rng.random() < 0.4:
        rules["lethal"] = rng.randint(2, 6)
    for name, p in (("punishing", 0.3), ("severe", 0.3), ("rending", 0.4)):
        if rng.random() < p:
            rules[name] = True
    for name, top, p in (("accurate", 2, 0.3), ("fails_to_norms", 2, 0.25), ("norms_to_crits", 2, 0.25)):
        if rng.random() < p:
            rules[name] = rng.randint(1, top)
    return 4, rng.randint(2, 6), rules, rng.random() < 0.2


FOUR_DICE = [random_mix(random.Random(4000 + i), i) for i in range(FOUR_DICE_CASES)]


def test_four_dice_mixes_cover_every_rule():
    assert {m[2]["reroll"] for m in FOUR_DICE} == set(REROLLS)
    for name in ("lethal", "punishing", "severe", "rending", "accurate", "fails_to_norms", "norms_to_crits"):
        with_rule = [m for m in FOUR_DICE if name in m[2]]
        assert len(with_rule) >= 10, name
        assert {m[2]["reroll"] for m in with_rule} == set(REROLLS) or name == "lethal" and len(with_rule) >= 40, name
    assert {m[1] for m in FOUR_DICE} == {2, 3, 4, 5, 6}
    assert sum(m[3] for m in FOUR_DICE) >= 20 and any("punishing" in m[2] and m[3] for m in FOUR_DICE)
    assert {m[2].get("lethal") for m in FOUR_DICE} >= {2, 3, 4, 5, 6}


@pytest.mark.parametrize("block", range(6))
def test_four_dice_match_brute_force(block):
    for dice, hit, rules, obscured in FOUR_DICE[block::6]:
        weapon = kt.Weapon(dice, hit, rules=rules_text(rules))
        exact = kt.attack_dice(weapon, obscured=obscured).pmf
        expected = table_of(brute_attack_cached(dice, hit, rules, obscured), dice + 1)
        assert np.abs(exact - expected).max() < TOL, (hit, rules, obscured)


def test_cached_brute_force_is_the_plain_one():
    # The faster bookkeeping gives the plain enumeration's numbers (3 dice, where both are quick).
    for reroll in REROLLS:
        rules = {"reroll": reroll, "rending": True, "accurate": 1, "punishing": True}
        plain = table_of(brute_attack(3, 4, rules, False), 4)
        assert np.abs(plain - table_of(brute_attack_cached(3, 4, rules, False), 4)).max() < TOL, reroll
