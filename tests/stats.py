"""One statistical check of a Monte Carlo distribution against the exact one, shared by every game.

`assert_pmf_close(exact, sampled, samples)` takes two pmfs (1-D or 2-D, padded to a common shape)
and the sample count behind the sampled one, and fails (AssertionError) when
- any cell is more than k standard errors from the exact probability (plus a floor of a few counts,
  so that a cell expecting far below one sample may still be hit once or twice), or
- a value the exact engine calls impossible was sampled, or
- the chi-square over the cells expecting at least 5 samples (the rest pooled when the pool does
  too) exceeds its upper quantile at z (about 3e-7 for z = 5): many small deviations in the same
  direction that no single cell shows.
The message names the worst cell, its probabilities and z-score, the chi-square and the total
variation distance, so a red test says where to look.
"""

from __future__ import annotations

import math

import numpy as np

__all__ = ["Comparison", "assert_pmf_close", "chi_square_bound", "compare_pmf", "expected_total_variation"]


def _padded(a: np.ndarray, shape: tuple[int, ...]) -> np.ndarray:
    out = np.zeros(shape)
    out[tuple(slice(0, n) for n in a.shape)] = a
    return out


def chi_square_bound(dof: int, z: float = 5.0) -> float:
    """The upper quantile of chi-square with `dof` degrees of freedom at normal deviate z
    (Wilson-Hilferty: never below the exact quantile here; 3 % above it at 10 dof, 17 % at 1)."""
    return dof * (1 - 2 / (9 * dof) + z * math.sqrt(2 / (9 * dof))) ** 3


def expected_total_variation(exact: np.ndarray, samples: int) -> float:
    """An upper bound on E[TV(exact, sampled)]: 0.5 * sum sqrt(p (1 - p) / n) (Jensen per cell)."""
    p = np.clip(np.asarray(exact, dtype=float), 0.0, 1.0)
    return 0.5 * float(np.sqrt(p * (1 - p) / samples).sum())


class Comparison:
    """The numbers behind a verdict (kept so tests of the helper can look at them)."""

    def __init__(self, exact: np.ndarray, sampled: np.ndarray, samples: int, *, k: float, floor: float,
                 sampled_variance: bool, impossible_below: float, z: float, slack: float) -> None:
        exact = np.atleast_1d(np.asarray(exact, dtype=float))
        sampled = np.atleast_1d(np.asarray(sampled, dtype=float))
        if exact.ndim != sampled.ndim:
            raise ValueError(f"exact is {exact.ndim}-D but the sample is {sampled.ndim}-D")
        shape = tuple(max(x, y) for x, y in zip(exact.shape, sampled.shape))
        p, q = _padded(exact, shape), _padded(sampled, shape)
        n = samples
        self.shape = shape
        self.samples = n
        variance = np.clip(p * (1 - p), 0.0, None)
        if sampled_variance:
            # The larger of the exact and the sampled variance: the Gaussian bound alone is tight
            # when the expected count is far below one.
            variance = np.maximum(variance, np.clip(q * (1 - q), 0.0, None))
        sigma = np.sqrt(variance / n)
        tolerance = k * sigma + floor / n + 1e-9
        excess = np.abs(q - p) - tolerance
        worst = np.unravel_index(int(np.argmax(excess)), shape)
        self.cells_ok = bool(excess.max() <= 0)
        self.worst_cell = tuple(int(i) for i in worst)
        self.worst_exact = float(p[worst])
        self.worst_sampled = float(q[worst])
        self.worst_z = float((q[worst] - p[worst]) / sigma[worst]) if sigma[worst] > 0 else math.inf
        impossible = (p <= impossible_below) & (q > 0)
        self.impossible = [tuple(int(i) for i in cell) for cell in zip(*np.nonzero(impossible))]

        expected, observed = p * n, q * n
        big = expected >= 5
        wanted, got = expected[big], observed[big]
        if expected[~big].sum() >= 5:
            wanted = np.append(wanted, expected[~big].sum())
            got = np.append(got, observed[~big].sum())
        self.chi2 = float(((got - wanted) ** 2 / wanted).sum()) if wanted.size else 0.0
        self.dof = max(int(wanted.size) - 1, 1)
        self.chi2_bound = chi_square_bound(self.dof, z) + slack
        self.chi2_ok = self.chi2 <= self.chi2_bound
        self.total_variation = 0.5 * float(np.abs(q - p).sum())
        self.ok = self.cells_ok and not self.impossible and self.chi2_ok

    def message(self, label: str) -> str:
        return (f"{label}: worst cell {self.worst_cell} exact {self.worst_exact:.6g} sampled {self.worst_sampled:.6g} "
                f"(z={self.worst_z:+.2f}, {'within' if self.cells_ok else 'beyond'} tolerance); "
                f"impossible cells sampled: {self.impossible[:5]}; chi-square {self.chi2:.1f} vs bound "
                f"{self.chi2_bound:.1f} on {self.dof} dof; total variation {self.total_variation:.2e}; "
                f"{self.samples} samples")


def compare_pmf(exact: np.ndarray, sampled: np.ndarray, samples: int, *, k: float = 5.0, floor: float = 3.0,
                sampled_variance: bool = False, impossible_below: float = 0.0, z: float = 5.0,
                slack: float = 0.0) -> Comparison:
    """The comparison without the verdict; see assert_pmf_close for the parameters."""
    return Comparison(exact, sampled, samples, k=k, floor=floor, sampled_variance=sampled_variance,
                      impossible_below=impossible_below, z=z, slack=slack)


def assert_pmf_close(exact: np.ndarray, sampled: np.ndarray, samples: int, label: str = "", *, k: float = 5.0,
                     floor: float = 3.0, sampled_variance: bool = False, impossible_below: float = 0.0,
                     z: float = 5.0, slack: float = 0.0) -> Comparison:
    """Fail unless the sampled pmf is a plausible draw of `samples` samples from the exact one.

    k: standard errors allowed per cell; floor: counts allowed on top (rare cells);
    sampled_variance: use the larger of the exact and the sampled variance per cell;
    impossible_below: exact probabilities at or below this are impossible values, never to be sampled;
    z, slack: the chi-square bound is its quantile at normal deviate z, plus slack."""
    result = compare_pmf(exact, sampled, samples, k=k, floor=floor, sampled_variance=sampled_variance,
                         impossible_below=impossible_below, z=z, slack=slack)
    assert result.ok, result.message(label)
    return result
