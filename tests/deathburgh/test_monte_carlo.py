"""Monte Carlo vs exact on many random valid combats (every switch, both editions); determinism."""

from __future__ import annotations

import math
import random

import db_reference as ref
import numpy as np
import pytest
from stats import assert_pmf_close
from test_bruteforce import play

N_SCENARIOS = 220
SAMPLES = 200_000
SCENARIOS = [ref.random_scenario(random.Random(5000 + k), max_dice=6, max_pool=12) for k in range(N_SCENARIOS)]


def test_random_scenarios_cover_every_rule() -> None:
    seen = set().union(*(ref.features(s) for s in SCENARIOS))
    for feature in ("edition=alpha", "reaction=none", "stand_and_shoot=True", "defender.zig_zag", "attacker.auto_hits",
                    "bonus_dice=add", "souls=add", "draw=scored", "draw_in_dodge=True", "cap_wounds_at_dice=True",
                    "support_stacking=once", "reroll=one_fail", "reroll=all_fails", "defender.take_cover"):
        assert feature in seen, feature


@pytest.mark.parametrize("index", range(N_SCENARIOS))
def test_monte_carlo_agrees_with_exact(index: int) -> None:
    scenario = SCENARIOS[index]
    exact = play(scenario, method="exact")
    mc = play(scenario, method="monte_carlo", samples=SAMPLES, seed=index, threads=1)
    assert mc.samples == SAMPLES and mc.method == "monte_carlo" and mc.seed == index
    assert mc.joint.pmf.shape == exact.joint.pmf.shape
    # Every cell within 5 standard errors (+3 counts for the rare cells), nothing impossible, chi-square.
    assert_pmf_close(exact.joint.pmf, mc.joint.pmf, SAMPLES, f"scenario {index} wounds")
    assert_pmf_close(exact.successes_attacker.pmf, mc.successes_attacker.pmf, SAMPLES, f"scenario {index} sA")
    assert_pmf_close(exact.successes_defender.pmf, mc.successes_defender.pmf, SAMPLES, f"scenario {index} sD")
    for name, p in exact.summary().items():
        if name.startswith("p_"):
            bound = 5.0 * math.sqrt(max(p * (1.0 - p), 0.0) / SAMPLES) + 3.0 / SAMPLES
        else:  # a mean: 5 standard errors from the exact standard deviation
            wounds = exact.wounds_defender if name.endswith("defender") else exact.wounds_attacker
            bound = 5.0 * wounds.std / math.sqrt(SAMPLES) + 1e-9
        assert abs(getattr(mc, name) - p) <= bound, name


@pytest.mark.parametrize("threads", [1, 2, 8])
def test_same_seed_same_result_for_any_thread_count(threads: int) -> None:
    scenario = SCENARIOS[3]
    reference = play(scenario, method="monte_carlo", samples=300_000, seed=42, threads=1)
    again = play(scenario, method="monte_carlo", samples=300_000, seed=42, threads=threads)
    assert np.array_equal(reference.joint.pmf, again.joint.pmf)
    assert reference.to_dict() == again.to_dict()


def test_different_seeds_differ_and_a_drawn_seed_is_reported() -> None:
    scenario = SCENARIOS[0]
    a = play(scenario, method="monte_carlo", samples=100_000, seed=1, threads=1)
    b = play(scenario, method="monte_carlo", samples=100_000, seed=2, threads=1)
    assert not np.array_equal(a.joint.pmf, b.joint.pmf)
    drawn = play(scenario, method="monte_carlo", samples=100_000, threads=1)
    replay = play(scenario, method="monte_carlo", samples=100_000, seed=drawn.seed, threads=1)
    assert np.array_equal(drawn.joint.pmf, replay.joint.pmf)


def test_progress_is_reported() -> None:
    seen: list[tuple[int, int]] = []
    play(SCENARIOS[1], method="monte_carlo", samples=1_000_000, seed=3, threads=1, progress=lambda d, t: seen.append((d, t)))
    assert seen and seen[-1] == (1_000_000, 1_000_000)


def test_auto_is_exact_for_a_combat() -> None:
    result = play(SCENARIOS[2])
    assert result.method == "exact" and result.samples is None and result.stderr is None
