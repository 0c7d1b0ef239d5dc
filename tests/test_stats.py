"""The shared exact-vs-Monte-Carlo check (tests/stats.py) itself: it passes fair samples and fails
biased ones, whether the bias sits in one cell, is spread thinly over many, or samples the impossible."""

from __future__ import annotations

import numpy as np
import pytest
from stats import (
    assert_pmf_close,
    chi_square_bound,
    compare_pmf,
    expected_total_variation,
)

# Two d6 summed (1-D, 11 cells) and two independent d6 (2-D, 36 cells), from the dice directly.
TWO_DICE = np.bincount([a + b for a in range(6) for b in range(6)], minlength=11) / 36
GRID = np.full((6, 6), 1 / 36)


def draw(pmf: np.ndarray, samples: int, seed: int) -> np.ndarray:
    counts = np.random.default_rng(seed).multinomial(samples, pmf.ravel())
    return (counts / samples).reshape(pmf.shape)


@pytest.mark.parametrize("pmf", [TWO_DICE, GRID], ids=["1-D", "2-D"])
def test_fair_samples_pass(pmf):
    for seed in range(50):
        assert_pmf_close(pmf, draw(pmf, 100_000, seed), 100_000, f"seed {seed}")


def test_one_biased_cell_fails_and_is_named():
    # A die whose 6 comes up 1.2 % more often: 3 % of that cell's probability, 9 standard errors at 10^6.
    die = np.full(6, 1 / 6)
    loaded = die.copy()
    loaded[5] += 0.012
    loaded[:5] -= 0.012 / 5
    with pytest.raises(AssertionError, match=r"worst cell \(5,\).*z=\+\d") as info:
        assert_pmf_close(die, draw(loaded, 1_000_000, 1), 1_000_000, "loaded die")
    assert "loaded die" in str(info.value)


def test_a_bias_spread_over_many_cells_fails_the_chi_square():
    # Half the 2-D cells 0.013 % up, half down: 2.5 standard errors in every cell, but far beyond
    # the chi-square bound on the whole table.
    tilt = np.where(np.indices((6, 6)).sum(axis=0) % 2 == 0, 1.0, -1.0) * 1.3e-4
    sample = GRID + tilt
    result = compare_pmf(GRID, sample, 10**7)
    assert result.cells_ok and not result.impossible and not result.chi2_ok
    with pytest.raises(AssertionError, match="chi-square"):
        assert_pmf_close(GRID, sample, 10**7)


def test_sampling_an_impossible_value_fails_even_once():
    sample = np.append(draw(TWO_DICE, 100_000, 3) * (1 - 1e-5), 1e-5)  # one sample at 13 with two dice
    with pytest.raises(AssertionError, match=r"impossible cells sampled: \[\(11,\)\]"):
        assert_pmf_close(TWO_DICE, sample, 100_000)


def test_shapes_are_padded_and_dimensions_must_agree():
    short = draw(TWO_DICE, 100_000, 4)[:-1]  # a sample that never hit the last value
    assert compare_pmf(TWO_DICE, short, 100_000).shape == (11,)
    with pytest.raises(ValueError, match="1-D"):
        compare_pmf(TWO_DICE, GRID, 100)


def test_chi_square_bound_is_near_the_true_quantile():
    # Against the exact 1 - 2.87e-7 quantiles (z = 5) of chi-square with 1, 10, 100 and 1000 dof.
    for dof, quantile, within in ((1, 26.34, 0.2), (10, 49.83, 0.03), (100, 187.33, 0.01), (1000, 1239.82, 0.01)):
        assert quantile <= chi_square_bound(dof) <= (1 + within) * quantile


def test_total_variation_of_fair_samples_stays_under_its_bound():
    bound = expected_total_variation(GRID, 100_000)
    tvs = [compare_pmf(GRID, draw(GRID, 100_000, seed), 100_000).total_variation for seed in range(40)]
    assert np.mean(tvs) <= bound
