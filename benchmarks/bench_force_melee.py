"""Force melee: exact time per call, exact batches and Monte Carlo exchanges per second (one thread, GIL released).

Run: PYTHONPATH=python python -m pytest benchmarks/bench_force_melee.py --benchmark-enable
Scenarios are fixed so numbers compare across versions.
"""

import functools
import itertools

from mathhammer import force_melee as fm
from mathhammer.core import sampling
from mathhammer.force_melee import engine

F1 = (fm.example("line_troopers"), fm.example("militia"))  # 3 dice vs 2 dice, the spec's example
BIG = (  # 40 dice vs 35, rerolls, crits, bonus damage: the largest trinomials
    fm.Side(fm.Unit(30, 3), fm.Weapon(hit=3, force=7, crit=5, sustained=2, critical_damage=1, reroll="ones"), dice=40),
    fm.Side(fm.Unit(10, 8, vehicle=True), fm.Weapon(hit=4, force=9, bonus_flat=3, reroll="fails"), dice=35, hit_mod=1),
)
SAMPLES = 20_000_000


def _kernel(a, b, **switches):
    config = engine.planned_exchange(a, b, fm.Variants(**switches)).config
    return functools.partial(engine._fm.exchange_sample, config)


def test_exact_f1(benchmark):
    result = benchmark(fm.melee, *F1)
    assert result.method == "exact"
    benchmark.extra_info["calls_per_second"] = 1 / benchmark.stats.stats.mean


def test_exact_f1_with_summary(benchmark):
    """One exact exchange and its figures read (exact results build their distributions on first read)."""
    summary = benchmark(lambda: fm.melee(*F1).summary())
    assert len(summary) == 11


# Batches (fm.melee_batch): one C++ call for every exact exchange. 8,000 different exchanges:
# 1..10 dice a side at 2+..6+, side A's Force 2, 4, 6 or 8, against a fixed B weapon of Force 3.
BATCH_EXCHANGES = [
    (fm.Side(fm.Unit(5), fm.Weapon(hit=hit_a, force=force_a), dice=dice_a),
     fm.Side(fm.Unit(5, 2), fm.Weapon(hit=hit_b, force=3), dice=dice_b))
    for dice_a, dice_b, hit_a, hit_b, force_a in itertools.product(
        range(1, 11), range(1, 11), range(2, 7), range(2, 7), (2, 4, 6, 8))
][:8_000]


def test_exact_exchange_batch_per_second(benchmark):
    sides_a, sides_b = (list(column) for column in zip(*BATCH_EXCHANGES))
    batch = benchmark(fm.melee_batch, sides_a, sides_b, method="exact")
    assert len(batch) == len(BATCH_EXCHANGES)
    benchmark.extra_info["exchanges_per_second"] = len(BATCH_EXCHANGES) / benchmark.stats.stats.mean


def test_exact_exchange_batch_with_summaries_per_second(benchmark):
    """The same batch and every item's summary() (each result's figures built)."""
    sides_a, sides_b = (list(column) for column in zip(*BATCH_EXCHANGES))
    call = lambda: fm.melee_batch(sides_a, sides_b, method="exact").summaries()  # noqa: E731
    summaries = benchmark.pedantic(call, rounds=3, iterations=1)
    assert len(summaries) == len(BATCH_EXCHANGES)
    benchmark.extra_info["exchanges_per_second"] = len(BATCH_EXCHANGES) / benchmark.stats.stats.mean


def test_exact_40_vs_35_dice_per_hit(benchmark):
    result = benchmark(fm.melee, *BIG, winner_damage="per_hit")
    assert abs(result.joint.pmf.sum() - 1) < 1e-12
    benchmark.extra_info["seconds_per_call"] = benchmark.stats.stats.mean


def test_monte_carlo_f1_exchanges_per_second_one_thread(benchmark):
    kernel = _kernel(*F1)
    counts = benchmark.pedantic(sampling.run_monte_carlo, (kernel, SAMPLES, 1, 1), rounds=5, iterations=1)
    assert int(counts.sum()) == 2 * SAMPLES  # a damage bin and a hits bin per exchange
    benchmark.extra_info["exchanges_per_second"] = SAMPLES / benchmark.stats.stats.mean


def test_monte_carlo_f1_exchanges_per_second_two_threads(benchmark):
    """The squads' kernel on two threads, the same samples: the scaling figure."""
    kernel = _kernel(*F1)
    counts = benchmark.pedantic(sampling.run_monte_carlo, (kernel, SAMPLES, 1, 2), rounds=5, iterations=1)
    assert int(counts.sum()) == 2 * SAMPLES
    benchmark.extra_info["exchanges_per_second"] = SAMPLES / benchmark.stats.stats.mean


def test_monte_carlo_f1_public_api_one_thread(benchmark):
    result = benchmark.pedantic(fm.melee, F1, dict(method="monte_carlo", samples=SAMPLES, seed=1, threads=1),
                                rounds=3, iterations=1)
    assert result.samples == SAMPLES
    benchmark.extra_info["exchanges_per_second"] = SAMPLES / benchmark.stats.stats.mean


def test_monte_carlo_40_vs_35_dice_exchanges_per_second_one_thread(benchmark):
    samples = 2_000_000
    kernel = _kernel(*BIG, winner_damage="per_hit")
    counts = benchmark.pedantic(sampling.run_monte_carlo, (kernel, samples, 1, 1), rounds=3, iterations=1)
    assert int(counts.sum()) == 2 * samples
    benchmark.extra_info["exchanges_per_second"] = samples / benchmark.stats.stats.mean


MANY = dict(
    sides={"troopers": fm.example("line_troopers"), "carbines": fm.example("carbine_squad"),
           "walker": fm.example("walker"), "militia": fm.example("militia")},
    engaged=[("troopers", "walker"), ("carbines", "walker"), ("carbines", "militia")],
    assignment={"walker": {"troopers": 2, "carbines": 2}, "carbines": {"walker": 3, "militia": 1}},
)


def test_melee_many_exact(benchmark):
    result = benchmark(fm.melee_many, **MANY)
    assert result.method == "exact"
    benchmark.extra_info["seconds_per_call"] = benchmark.stats.stats.mean


def test_melee_many_monte_carlo_melees_per_second_one_thread(benchmark):
    samples = 5_000_000
    result = benchmark.pedantic(fm.melee_many, kwargs=dict(MANY, method="monte_carlo", samples=samples, seed=1,
                                                           threads=1), rounds=3, iterations=1)
    assert result.samples == samples
    benchmark.extra_info["melees_per_second"] = samples / benchmark.stats.stats.mean
