"""Kill Team attack dice: the seed cases exactly, and Monte Carlo rolls against the exact enumeration."""

from fractions import Fraction

import numpy as np
import pytest
from casedata import load_cases
from mathhammer import killteam as kt
from stats import assert_pmf_close

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
