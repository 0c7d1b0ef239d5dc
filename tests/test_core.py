"""The dice source and the chunked runner: uniform faces, determinism across threads and batches."""

import numpy as np
import pytest

from mathhammer import _core
from mathhammer.core import sampling
from mathhammer.core.distributions import Distribution, JointDistribution

KERNEL = _core.core.d6_histogram


def test_d6_faces_are_uniform():
    n = 3_000_000
    counts = sampling.run_monte_carlo(KERNEL, n, seed=12345, threads=2)
    assert counts.sum() == n
    expected = n / 6
    chi2 = float(((counts - expected) ** 2 / expected).sum())
    assert chi2 < 25.7  # 5 degrees of freedom, p = 1e-4


@pytest.mark.parametrize("threads", [1, 2, 8])
def test_same_seed_same_counts_any_thread_count(threads):
    reference = sampling.run_monte_carlo(KERNEL, 500_000, seed=7, threads=1)
    counts = sampling.run_monte_carlo(KERNEL, 500_000, seed=7, threads=threads)
    assert np.array_equal(reference, counts)


def test_batches_with_progress_equal_one_call():
    seen = []
    whole = sampling.run_monte_carlo(KERNEL, 2_000_000, seed=99, threads=2)
    parts = sampling.run_monte_carlo(KERNEL, 2_000_000, seed=99, threads=2, progress=lambda d, t: seen.append((d, t)))
    assert np.array_equal(whole, parts)
    assert seen[-1] == (2_000_000, 2_000_000) and len(seen) > 1


def test_different_seeds_differ():
    a = sampling.run_monte_carlo(KERNEL, 100_000, seed=1, threads=1)
    b = sampling.run_monte_carlo(KERNEL, 100_000, seed=2, threads=1)
    assert not np.array_equal(a, b)


def test_executor_gives_the_same_counts():
    from concurrent.futures import ThreadPoolExecutor

    whole = sampling.run_monte_carlo(KERNEL, 1_000_000, seed=3, threads=1)
    with ThreadPoolExecutor(2) as pool:
        split = sampling.run_monte_carlo(KERNEL, 1_000_000, seed=3, threads=1, executor=pool)
    assert np.array_equal(whole, split)


@pytest.mark.parametrize("bad", [-1, 2**64, 1.5, "7", True])
def test_seed_validation(bad):
    with pytest.raises((ValueError, TypeError), match="seed"):
        sampling.resolve_seed(bad)


def test_distribution_questions():
    d = Distribution([0.5, 0.25, 0.25])
    assert d.mean == pytest.approx(0.75)
    assert d.std == pytest.approx((0.5 * 0.75**2 + 0.25 * 0.25**2 + 0.25 * 1.25**2) ** 0.5)
    assert d.at_least(1) == pytest.approx(0.5)
    assert d.at_most(0) == pytest.approx(0.5)
    assert d.quantile(0.5) == 0 and d.quantile(0.6) == 1
    assert d.stderr is None
    assert Distribution.from_dict(d.to_dict()) == d


def test_distribution_from_counts_has_stderr():
    d = Distribution.from_counts([30, 70])
    assert d.samples == 100
    assert d.stderr[0] == pytest.approx((0.3 * 0.7 / 100) ** 0.5)


def test_joint_marginals():
    j = JointDistribution(np.array([[0.1, 0.2], [0.3, 0.4]]), names=("a", "b"))
    assert np.allclose(j.marginal("a").pmf, [0.3, 0.7])
    assert np.allclose(j.marginal(1).pmf, [0.4, 0.6])
    assert j.prob(lambda i, k: i == k) == pytest.approx(0.5)
    assert JointDistribution.from_dict(j.to_dict()) == j


def test_plots_draw_the_probabilities():
    import matplotlib

    matplotlib.use("Agg")
    d = Distribution.from_counts([30, 50, 20])
    ax = d.plot(label="damage")
    heights = [patch.get_height() for patch in ax.patches]
    assert heights == pytest.approx([30, 50, 20])  # percent
    j = JointDistribution(np.array([[0.1, 0.2], [0.3, 0.4]]), names=("a", "b"))
    ax = j.plot()
    assert np.allclose(ax.images[0].get_array(), j.pmf) and ax.get_ylabel() == "a"


def test_games_load_from_the_top_level_package():
    import mathhammer as mh

    for game in mh.GAMES:
        assert getattr(mh, game).__name__ == f"mathhammer.{game}"
    assert mh.killteam.Weapon(4, 3).attacks == 4
    with pytest.raises(AttributeError):
        mh.chess  # noqa: B018


@pytest.mark.parametrize("text", ["²", "3²", "x+", ""])
def test_stat_text_that_is_not_a_number_is_an_input_error(text):
    from mathhammer.core.checks import check_stat
    from mathhammer.errors import InputError

    with pytest.raises(InputError, match="hit"):
        check_stat("hit", text)


def test_distribution_mean_and_var_are_the_dot_products_of_the_integer_values() -> None:
    # Distribution.mean takes its values as floats from one shared array where they fit (and keeps the
    # mean once worked out): bit for bit np.dot of the integer values, wherever the values lie
    rng = np.random.default_rng(36)
    for start, size in [(0, 1), (0, 13), (0, 256), (0, 257), (-5, 9), (3, 40), (250, 6), (250, 7), (300, 400)]:
        pmf = rng.random(size)
        pmf /= pmf.sum()
        d = Distribution(pmf, start=start)
        values = np.arange(start, start + size)
        mean = float(np.dot(values, d.pmf))
        assert d.mean == mean and d.mean == mean  # the second read is the kept one
        assert d.var == float(max(0.0, np.dot((values - mean) ** 2, d.pmf)))
