"""Exact engine vs a plain enumeration of every die face (and reroll face), ≤ 3 dice a side, to 1e-12."""

from __future__ import annotations

import random
from fractions import Fraction
from typing import Any

import numpy as np
import pytest

import db_reference as ref
from mathhammer import deathburgh as db

N_SCENARIOS = 400
SCENARIOS = [ref.random_scenario(random.Random(1000 + k), max_dice=3, max_pool=3) for k in range(N_SCENARIOS)]


def play(scenario: dict[str, Any], **kwargs: Any) -> db.CombatResult:
    return db.combat(
        db.Side.from_dict(scenario["attacker"]), db.Side.from_dict(scenario["defender"]), scenario["reaction"],
        **scenario["switches"], **kwargs,
    )


def as_grid(law: dict[tuple[int, int], Fraction], shape: tuple[int, int]) -> np.ndarray:
    grid = np.zeros(shape)
    for (i, j), p in law.items():
        assert i < shape[0] and j < shape[1], f"reference cell {(i, j)} outside the engine's grid {shape}"
        grid[i, j] = float(p)
    return grid


def test_random_scenarios_cover_every_rule() -> None:
    seen = set().union(*(ref.features(s) for s in SCENARIOS))
    wanted = {
        "edition=web", "edition=alpha", "reaction=attack", "reaction=dodge", "reaction=none",
        "bonus_dice=replace", "bonus_dice=add", "souls=convert", "souls=add", "souls_limit=2",
        "draw=always", "draw=scored", "draw_in_dodge=True", "cap_wounds_at_dice=True", "support_stacking=once",
        "stand_and_shoot=True", "attacker.mode=defensive", "defender.mode=aggressive", "role=ranged",
        "attacker.charge", "attacker.support", "defender.support", "attacker.full_visibility", "attacker.steady_aim",
        "defender.full_visibility", "defender.steady_aim", "defender.take_cover", "defender.get_down",
        "defender.zig_zag", "attacker.instant6", "attacker.instant1", "defender.instant6", "defender.instant1",
        "attacker.souls_dice", "defender.souls_dice", "attacker.extra_dice", "defender.extra_dice",
        "attacker.auto_hits", "reroll=all_fails", "reroll=one_fail",
    }
    assert wanted <= seen, f"not covered: {sorted(wanted - seen)}"


@pytest.mark.parametrize("index", range(N_SCENARIOS))
def test_exact_matches_enumeration(index: int) -> None:
    scenario = SCENARIOS[index]
    expected = ref.combat(scenario)
    result = play(scenario, method="exact")

    wounds = result.joint.pmf
    np.testing.assert_allclose(wounds, as_grid(expected["wounds"], wounds.shape), rtol=0, atol=1e-12)
    pa, pd = result.successes_attacker.pmf, result.successes_defender.pmf
    successes = as_grid(expected["successes"], (pa.size, pd.size))
    np.testing.assert_allclose(np.outer(pa, pd), successes, rtol=0, atol=1e-12)

    w_a, w_d = scenario["attacker"]["wounds"], scenario["defender"]["wounds"]
    law = expected["wounds"]
    checks = {
        "p_tie": sum(p for (a, d), p in expected["successes"].items() if a == d),
        "p_attacker_more": sum(p for (a, d), p in expected["successes"].items() if a > d),
        "p_counter_wound": sum(p for (_, to_a), p in law.items() if to_a >= 1),
        "p_wasted_defender": sum(p for (to_d, _), p in law.items() if to_d >= w_d),
        "p_wasted_attacker": sum(p for (_, to_a), p in law.items() if to_a >= w_a),
        "p_wasted_both": sum(p for (to_d, to_a), p in law.items() if to_d >= w_d and to_a >= w_a),
        "mean_wounds_defender": sum(p * to_d for (to_d, _), p in law.items()),
        "mean_wounds_attacker": sum(p * to_a for (_, to_a), p in law.items()),
    }
    for name, value in checks.items():
        assert getattr(result, name) == pytest.approx(float(value), abs=1e-12), name
    assert result.wasted("defender") == result.p_wasted_defender


@pytest.mark.parametrize("target", range(2, 7))
@pytest.mark.parametrize("reroll", ref.REROLLS)
@pytest.mark.parametrize("dice", range(0, 4))
def test_pool_matches_enumeration(dice: int, reroll: str, target: int) -> None:
    expected = ref.rolled_dice(dice, target, reroll)
    pmf = db.pool(dice, target, reroll=reroll).pmf
    assert pmf.size == 2 * dice + 1
    for s in range(pmf.size):
        assert pmf[s] == pytest.approx(float(expected.get(s, 0)), abs=1e-12)


@pytest.mark.parametrize(
    "kwargs, n6, rolled",
    [
        ({"dice": 3, "target": 4, "instant6": 1}, 1, 2),
        ({"dice": 3, "target": 4, "instant6": 1, "bonus_dice": "add"}, 1, 3),
        ({"dice": 2, "target": 5, "instant6": 3, "instant1": 1}, 1, 0),
        ({"dice": 2, "target": 5, "instant6": 1, "instant1": 1, "bonus_dice": "add"}, 1, 1),
        ({"dice": 2, "target": 3, "souls_dice": 1}, 1, 1),
        ({"dice": 2, "target": 3, "souls_dice": 1, "souls": "add"}, 1, 2),
        ({"dice": 1, "target": 4, "extra_dice": 2, "instant1": 2}, 0, 1),
        ({"dice": 0, "target": 4, "instant6": 2}, 0, 0),
    ],
)
def test_instant_dice_placement(kwargs: dict[str, Any], n6: int, rolled: int) -> None:
    """1! first, then 6!, then what is left is rolled (docs/rules/deathburgh.md §2, DB-3, DB-4, DB-9)."""
    target = kwargs["target"]
    law = ref.rolled_dice(rolled, target, "none")
    pmf = db.pool(**kwargs).pmf
    expected = np.zeros(pmf.size)
    for s, p in law.items():
        expected[2 * n6 + s] = float(p)
    np.testing.assert_allclose(pmf, expected, atol=1e-12, rtol=0)
