"""The fight cases of killteam.json (KF-*, KI-*) and the seed's worked scenarios, exactly."""

from __future__ import annotations

from fractions import Fraction

import pytest
from casedata import load_cases

from mathhammer import killteam as kt

CASES = {k: v for k, v in load_cases("killteam").items() if k.startswith("KF-")}


def fighter(spec: dict) -> kt.Fighter:
    # In the fixed-dice cases attacks and hit play no part: 4 attacks at 3+.
    return kt.Fighter(attacks=4, hit=3, damage=tuple(spec["damage"]), wounds=spec["wounds"], strategy=spec["strategy"],
                      abilities=spec.get("abilities", ""))


def test_there_are_fight_cases():
    assert {"KF-A", "KF-A2", "KF-C", "KF-B1", "KF-L1", "KF-D1", "KF-D2"} <= set(CASES)


@pytest.mark.parametrize("case_id", sorted(CASES))
def test_fight_case(case_id):
    case = CASES[case_id]
    inputs, expected = case["inputs"], case["expected"]
    fa, fb = inputs["fighter_a"], inputs["fighter_b"]
    log = kt.resolve_fight(
        fighter(fa), fighter(fb), dice_a=(fa["crits"], fa["norms"]), dice_b=(fb["crits"], fb["norms"]),
        first=inputs["first"],
    )
    assert log.wounds_a == expected["wounds_a"]
    assert log.wounds_b == expected["wounds_b"]
    if "first_action_a" in expected:
        first_a = next(kind for side, kind, _ in log.actions if side == "a")
        assert first_a == expected["first_action_a"]


def plain(strategy: str, wounds: int = 20) -> kt.Fighter:
    return kt.Fighter(attacks=4, hit=3, damage=(3, 4), wounds=wounds, strategy=strategy)


def test_seed_scenario_a_step_by_step():
    """Attacker {1 crit, 1 norm} Max Dmg first; defender {2 norms} Parry: norm-first, 7 damage."""
    log = kt.resolve_fight(plain("max_damage"), plain("parry"), dice_a=(1, 1), dice_b=(0, 2), first="a")
    assert log.actions == (
        ("a", "norm_strike", 3),  # 1. the norm goes through before it can be parried
        ("b", "norm_strike", 3),  # 2. a norm cannot parry a crit, so the defender strikes
        ("a", "crit_strike", 4),  # 3.
        ("b", "norm_strike", 3),  # 4.
    )
    assert (log.wounds_a, log.wounds_b) == (14, 13)


def test_seed_scenario_c_everyone_strikes():
    """Same dice, the defender Max Dmg: it gains nothing by parrying and strikes both norms."""
    log = kt.resolve_fight(plain("max_damage"), plain("max_damage"), dice_a=(1, 1), dice_b=(0, 2), first="a")
    assert [kind for _, kind, _ in log.actions] == ["crit_strike", "norm_strike", "norm_strike", "norm_strike"]
    assert (log.wounds_a, log.wounds_b) == (14, 13)  # attacker deals 7, defender 6


def test_seed_scenario_b_ties_strike_crit_first():
    """{1 crit, 2 norms} Strike against a parrying {2 norms}: the defender parries one of the two
    norms whichever order the attacker picks (crit-first: 4, parry, 3; norm-first: 3, parry, 4), so
    both orders deal 7 and the tie strikes crit-first."""
    log = kt.resolve_fight(plain("strike"), plain("parry"), dice_a=(1, 2), dice_b=(0, 2), first="a")
    assert log.actions == (
        ("a", "crit_strike", 4), ("b", "norm_parry", 1), ("a", "norm_strike", 3), ("b", "norm_strike", 3),
    )
    assert (log.wounds_a, log.wounds_b) == (17, 13)


def test_death_race_stays_crit_first():
    """{1 crit, 1 norm} on 3 wounds against a striking {2 norms} on 7: whoever strikes first of the
    enemy kills it, so the bigger die goes first (crit-first leaves the enemy on 3, norm-first on 4)."""
    log = kt.resolve_fight(plain("max_damage", 3), plain("strike", 7), dice_a=(1, 1), dice_b=(0, 2), first="a")
    assert log.actions == (("a", "crit_strike", 4), ("b", "norm_strike", 3))
    assert (log.wounds_a, log.wounds_b) == (0, 3)


# --- injured fighters between rounds (KI-*, docs/rules/killteam.md §3.9) ----------------------------

INJURED = {k: v for k, v in load_cases("killteam").items() if k.startswith("KI")}


def _pmf(expected: dict[str, str], size: int) -> list[float]:
    out = [0.0] * size
    for key, value in expected.items():
        out[int(key)] = float(Fraction(value))
    return out


@pytest.mark.parametrize("case_id", sorted(INJURED))
def test_injured_case(case_id: str) -> None:
    case = INJURED[case_id]
    inputs, expected = case["inputs"], case["expected"]
    a, b = (kt.Fighter(f["attacks"], f["hit"], tuple(f["damage"]), f["wounds"], strategy=f["strategy"])
            for f in (inputs["fighter_a"], inputs["fighter_b"]))
    r = kt.fight(a, b, inputs["first"], inputs["rounds"], method="exact")
    assert r.wounds_a.pmf == pytest.approx(_pmf(expected["wounds_a_pmf"], a.wounds + 1), abs=case["tolerance"])
    assert r.wounds_b.pmf == pytest.approx(_pmf(expected["wounds_b_pmf"], b.wounds + 1), abs=case["tolerance"])
    assert r.injured_chance("a") == pytest.approx(float(Fraction(expected["injured_chance_a"])), abs=case["tolerance"])
    plain = kt.fight(a, b, inputs["first"], inputs["rounds"], method="exact", variants={"injured": False})
    assert plain.wounds_b.pmf == pytest.approx(_pmf(expected["wounds_b_pmf_without_injury"], b.wounds + 1),
                                               abs=case["tolerance"])


def test_there_are_injured_cases() -> None:
    assert INJURED
