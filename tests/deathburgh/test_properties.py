"""Properties the rules guarantee: laws sum to 1, symmetry, monotonicity, bounds, results round-trip."""

from __future__ import annotations

import random

import numpy as np
import pytest

import db_reference as ref
from mathhammer import deathburgh as db
from test_bruteforce import play

SCENARIOS = [ref.random_scenario(random.Random(9000 + k), max_dice=8, max_pool=20) for k in range(60)]


@pytest.mark.parametrize("index", range(len(SCENARIOS)))
def test_laws_are_probabilities_and_bounded(index: int) -> None:
    scenario = SCENARIOS[index]
    r = play(scenario)
    for dist in (r.wounds_defender, r.wounds_attacker, r.successes_attacker, r.successes_defender):
        assert dist.pmf.min() >= 0 and dist.pmf.sum() == pytest.approx(1.0, abs=1e-12)
    assert r.joint.pmf.sum() == pytest.approx(1.0, abs=1e-12)
    # one success is one wound: never more wounds than successes (bar an alpha draw's single wound)
    assert r.wounds_defender.max <= max(r.successes_attacker.max, 1)
    assert r.wounds_attacker.max <= max(r.successes_defender.max, 1)
    assert r.successes_attacker.max <= 2 * ref.pool_size(scenario["attacker"], scenario["attacker"]["mode"],
                                                         scenario["switches"])[0] or scenario["attacker"].get("auto_hits")
    assert 0 <= r.p_wasted_both <= min(r.p_wasted_attacker, r.p_wasted_defender) + 1e-15
    assert r.p_tie + r.p_attacker_more <= 1 + 1e-12


def test_web_opposed_attacks_are_symmetric() -> None:
    a = db.Side(db.example("Old Fellas Leader"))
    d = db.Side(db.example("Bandit Brute"), "defensive")
    forward = db.combat(a, d, "attack")
    backward = db.combat(d, a, "attack")
    np.testing.assert_allclose(forward.joint.pmf, backward.joint.pmf.T, atol=1e-15)
    assert forward.wasted("attacker") == pytest.approx(backward.wasted("defender"), abs=1e-15)


def test_alpha_draw_counts_zero_zero_unless_scored() -> None:
    mini = db.Miniature(A=2, A_plus=6, D=2, D_plus=6, W=3)
    always = db.combat(mini, mini, "attack", edition="alpha")
    scored = db.combat(mini, mini, "attack", edition="alpha", draw="scored")
    p00 = (25 / 36) ** 2
    assert always.joint.pmf[1, 1] - scored.joint.pmf[1, 1] == pytest.approx(p00, abs=1e-15)
    assert scored.joint.pmf[0, 0] == pytest.approx(p00, abs=1e-15)


def test_more_is_never_worse() -> None:
    base = db.Side(db.Miniature(A=3, A_plus=4, D=3, D_plus=4, W=3))
    target = db.Side(db.Miniature(A=3, A_plus=4, D=4, D_plus=4, W=4), "defensive")
    reference = db.combat(base, target, "dodge").wounds_defender
    better = [
        base.replace(mini=db.Miniature(A=4, A_plus=4, D=3, D_plus=4, W=3)),
        base.replace(mini=db.Miniature(A=3, A_plus=3, D=3, D_plus=4, W=3)),
        base.replace(charge=True), base.replace(support=2), base.replace(souls_dice=1),
        base.replace(extra_dice=1), base.replace(reroll="one_fail"), base.replace(reroll="all_fails"),
    ]
    for side in better:
        improved = db.combat(side, target, "dodge").wounds_defender
        for k in range(1, 10):
            assert improved.at_least(k) >= reference.at_least(k) - 1e-15, (side, k)
    # Rerolling every failed die beats rerolling one.
    one = db.combat(base.replace(reroll="one_fail"), target, "dodge").wounds_defender
    every = db.combat(base.replace(reroll="all_fails"), target, "dodge").wounds_defender
    assert all(every.at_least(k) >= one.at_least(k) - 1e-15 for k in range(1, 10))


def test_cover_and_instant_ones_help_the_dodger() -> None:
    shooter = db.Side(db.example("Bandit Ranged Follower"))
    dodger = db.Side(db.example("Old Fellas Melee Warrior Follower"), "defensive")
    plain = db.combat(shooter, dodger, "dodge").wasted("defender")
    assert db.combat(shooter, dodger.replace(take_cover=True), "dodge").wasted("defender") < plain
    assert db.combat(shooter.replace(instant1=2), dodger, "dodge").wasted("defender") < plain


def test_results_round_trip_and_frame() -> None:
    r = play(SCENARIOS[0])
    again = db.CombatResult.from_json(r.to_json())
    assert again == r
    mc = play(SCENARIOS[0], method="monte_carlo", samples=100_000, seed=4, threads=1)
    assert db.CombatResult.from_dict(mc.to_dict()) == mc
    frame = r.to_frame()
    assert list(frame.columns) == ["wounds_defender", "wounds_attacker", "p", "defender_wasted", "attacker_wasted"]
    assert frame["p"].sum() == pytest.approx(1.0)
    assert frame.loc[frame["defender_wasted"], "p"].sum() == pytest.approx(r.wasted("defender"))
