"""The C++ exact round engine against a plain state-by-state play in exact fractions, and against
the C++ Monte Carlo round engine, on random rounds covering every rule a round can meet."""

from __future__ import annotations

import itertools
import random
from typing import Any

import numpy as np
import pytest

import db_reference as ref
from mathhammer import _core
from mathhammer import deathburgh as db
from mathhammer.deathburgh.rounds import MAX_EXACT_STATES
from stats import assert_pmf_close

SMALL = [ref.random_round(random.Random(1200 + k), n_minis=4, max_dice=2, max_w=3, n_combats=5) for k in range(40)]
# Longer rounds, more wounds: still small enough for the fractions.
LONG = [ref.random_round(random.Random(1300 + k), n_minis=3, max_dice=3, max_w=5, n_combats=8) for k in range(8)]
MC_ROUNDS = [ref.random_round(random.Random(1400 + k), n_minis=5, max_dice=4, max_w=5, n_combats=8) for k in range(6)]
MC_SAMPLES = 200_000


def run(r: dict[str, Any], **kwargs: Any) -> db.RoundResult:
    minis = {n: db.Miniature(**m) for n, m in r["minis"].items()}
    return db.round(minis, r["combats"], wounds=r["start"], **r["switches"], **kwargs)


def test_random_rounds_cover_every_rule() -> None:
    seen = set().union(*(ref.round_features(r) for r in SMALL + LONG + MC_ROUNDS))
    for feature in (
        "edition=web", "edition=alpha", "reaction=attack", "reaction=dodge", "reaction=none", "role=melee",
        "role=ranged", "stand_and_shoot", "attacker.auto_hits", "attacker.charge", "attacker.support",
        "defender.support", "attacker.full_visibility", "attacker.steady_aim", "defender.full_visibility",
        "defender.take_cover", "defender.get_down", "defender.zig_zag", "attacker.instant6", "defender.instant1",
        "attacker.souls_dice", "defender.extra_dice", "reroll=all_fails", "reroll=one_fail",
        "attacker.mode=from state", "attacker.mode=aggressive", "defender.mode=defensive",
        "bonus_dice=add", "souls=add", "souls_limit=2", "draw=scored", "draw_in_dodge=True",
        "cap_wounds_at_dice=True", "support_stacking=once", "wasted at start", "wounded at start",
    ):
        assert feature in seen, feature


def assert_matches_play(r: dict[str, Any]) -> None:
    expected_left, expected_fought = ref.play_round(r)
    result = run(r, method="exact")
    assert result.method == "exact"
    for name, law in expected_left.items():
        pmf = result.wounds_left[name].pmf
        assert pmf.size == r["start"][name] + 1
        expected = np.array([float(law.get(w, 0)) for w in range(pmf.size)])
        np.testing.assert_allclose(pmf, expected, rtol=0, atol=1e-12, err_msg=name)
        assert result.wasted(name) == pytest.approx(float(law.get(0, 0)), abs=1e-12)
    np.testing.assert_allclose(result.p_fought, [float(p) for p in expected_fought], rtol=0, atol=1e-12)


@pytest.mark.parametrize("index", range(len(SMALL)))
def test_exact_round_matches_plain_play(index: int) -> None:
    assert_matches_play(SMALL[index])


@pytest.mark.parametrize("index", range(len(LONG)))
def test_long_exact_round_matches_plain_play(index: int) -> None:
    assert_matches_play(LONG[index])


def test_random_rounds_skip_and_fight_combats() -> None:
    """The oracle's rounds hold combats always fought, never fought and sometimes fought."""
    fought = [p for r in SMALL + LONG for p in ref.play_round(r)[1]]
    assert any(p == 0 for p in fought) and any(0 < p < 1 for p in fought) and any(p == 1 for p in fought)


@pytest.mark.parametrize("index", range(len(MC_ROUNDS)))
def test_monte_carlo_round_agrees_with_exact_round(index: int) -> None:
    r = MC_ROUNDS[index]
    exact = run(r, method="exact")
    mc = run(r, method="monte_carlo", samples=MC_SAMPLES, seed=100 + index, threads=1)
    for name in exact.names:
        assert_pmf_close(exact.wounds_left[name].pmf, mc.wounds_left[name].pmf, MC_SAMPLES, name)
    fought = np.array(exact.p_fought)
    sigma = np.sqrt(np.clip(fought * (1 - fought), 0, None) / MC_SAMPLES)
    assert np.all(np.abs(np.array(mc.p_fought) - fought) <= 5 * sigma + 3 / MC_SAMPLES)


def _spec(start: list[int], pairs: list[tuple[int, int]], dice: int = 0) -> Any:
    """A round of opposed web attacks, every side rolling `dice` dice at 4+ in either mode."""
    cpp = _core.deathburgh
    pool = cpp.PoolSpec()
    pool.rolled, pool.target = dice, 4
    spec = cpp.RoundSpec()
    spec.start_wounds = start
    combats = []
    for a, d in pairs:
        c = cpp.RoundCombat()
        c.attacker, c.defender = a, d
        c.attacker_pools = c.defender_pools = [pool, pool]
        combats.append(c)
    spec.combats = combats
    return spec


def test_engine_layout_and_a_miniature_in_no_combat() -> None:
    """Wounds left per miniature (0..start), then each combat's chance to be fought."""
    out = _core.deathburgh.round_exact(_spec([2, 3, 1], [(0, 1)], dice=4))
    assert out.shape == (3 + 4 + 2 + 1,)
    # Web opposed attack: each side takes all the other's successes; count them over every face.
    successes = [sum((f >= 4) + (f == 6) for f in faces) for faces in itertools.product(range(1, 7), repeat=4)]
    left_0 = [sum(max(0, 2 - s) == w for s in successes) / 6**4 for w in range(3)]
    left_1 = [sum(max(0, 3 - s) == w for s in successes) / 6**4 for w in range(4)]
    np.testing.assert_allclose(out[0:3], left_0, rtol=0, atol=1e-15)
    np.testing.assert_allclose(out[3:7], left_1, rtol=0, atol=1e-15)
    assert out[7:9].tolist() == [0.0, 1.0]  # miniature 2 fights nobody: it keeps its wound
    assert out[9] == 1.0  # the only combat is always fought


def test_engine_refuses_too_large_a_wound_space() -> None:
    assert MAX_EXACT_STATES == 10**6
    # 20 miniatures of 1 wound in a chain of combats: 2^20 > 10^6 joint states.
    with pytest.raises(ValueError, match="joint wound states"):
        _core.deathburgh.round_exact(_spec([1] * 20, [(i, i + 1) for i in range(19)]))
    # One miniature fewer in combat fits (2^19 states); with no dice nothing ever happens.
    out = _core.deathburgh.round_exact(_spec([1] * 20, [(i, i + 1) for i in range(18)]))
    assert out.tolist() == [0.0, 1.0] * 20 + [1.0] * 18
