"""The floor for every Monte Carlo engine: how fast the core draws d6 (GIL released), on one thread and on two
(the chunked runner every engine shares: two threads should give about twice the dice per second)."""

from mathhammer import _core
from mathhammer.core import sampling

DICE = 10_000_000


def _d6(benchmark, dice, threads):
    counts = benchmark(sampling.run_monte_carlo, _core.core.d6_histogram, dice, 1, threads)
    assert int(counts.sum()) == dice
    benchmark.extra_info["threads"] = threads
    benchmark.extra_info["d6_per_second"] = dice / benchmark.stats.stats.mean


def test_d6_per_second_one_thread(benchmark):
    _d6(benchmark, DICE, 1)


def test_d6_per_second_two_threads(benchmark):
    # Ten times the dice: a 10 M run lasts about 10 ms, where starting the batches would weigh on
    # the scaling more than the threads do. The figure is a rate, comparable with the one above.
    _d6(benchmark, 10 * DICE, 2)


def test_attack_dice_rolls_per_second_one_thread(benchmark):
    from mathhammer import killteam as kt
    from mathhammer.killteam.plan import attack_profile

    profile = attack_profile(kt.Weapon(4, 3, rules="Balanced, Lethal 5+"))
    kernel = lambda s, t, b, e, th: _core.killteam.attack_dice_counts(profile, s, t, b, e, th)  # noqa: E731
    counts = benchmark(sampling.run_monte_carlo, kernel, 2_000_000, 1, 1)
    assert int(counts.sum()) == 2_000_000
    benchmark.extra_info["rolls_per_second"] = 2_000_000 / benchmark.stats.stats.mean
