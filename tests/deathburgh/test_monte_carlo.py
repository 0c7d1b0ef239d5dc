"""Monte Carlo vs exact on many random valid combats (every switch, both editions); determinism."""

from __future__ import annotations

import math
import random

import numpy as np
import pytest

import db_reference as ref
from test_bruteforce import play

N_SCENARIOS = 220
SAMPLES = 200_000
SCENARIOS = [ref.random_scenario(random.Random(5000 + k), max_dice=6, max_pool=12) for k in range(N_SCENARIOS)]


def assert_counts_agree(counts: np.ndarray, exact: np.ndarray, samples: int, label: str) -> None:
    """Every cell within 5 standard errors (+3 counts of slack for the rare cells), and a chi-square bound."""
    expected = exact * samples
    sigma = np.sqrt(samples * np.clip(exact * (1.0 - exact), 0.0, None))
    excess = np.abs(counts - expected) - (5.0 * sigma + 3.0)
    assert excess.max() <= 0, f"{label}: cell {np.unravel_index(excess.argmax(), excess.shape)} off by {excess.max():.1f}"
    assert counts[exact == 0].sum() == 0, f"{label}: samples in impossible cells"
    # Chi-square over the cells expecting >= 5 samples, the rest pooled when the pool does too
    # (a near-empty bin says nothing here; the per-cell check above covers it).
    big = expected >= 5
    observed, wanted = counts[big], expected[big]
    if expected[~big].sum() >= 5:
        observed, wanted = np.append(observed, counts[~big].sum()), np.append(wanted, expected[~big].sum())
    chi2 = float(((observed - wanted) ** 2 / wanted).sum())
    df = max(wanted.size - 1, 1)
    assert chi2 <= df + 6.0 * math.sqrt(2.0 * df) + 10.0, f"{label}: chi-square {chi2:.1f} with {df} df"


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
    assert_counts_agree(mc.joint.pmf * SAMPLES, exact.joint.pmf, SAMPLES, "wounds")
    assert_counts_agree(
        np.outer(mc.successes_attacker.pmf, 1) * SAMPLES, exact.successes_attacker.pmf[:, None], SAMPLES, "sA"
    )
    assert_counts_agree(mc.successes_defender.pmf * SAMPLES, exact.successes_defender.pmf, SAMPLES, "sD")
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
