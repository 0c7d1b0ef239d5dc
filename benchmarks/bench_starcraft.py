"""StarCraft TMG: time per exact attack (full Python call, warm), exact attacks per second through
sc.attack_batch, and Monte Carlo attacks per second on one thread (GIL released, no Python per sample).

Run: PYTHONPATH=python python -m pytest benchmarks/bench_starcraft.py --benchmark-enable
"""

import itertools

from mathhammer import _core
from mathhammer.core import sampling
from mathhammer import starcraft as sc
from mathhammer.starcraft import engine
from mathhammer.starcraft import plan as sc_plan

RIFLE = sc.catalog.weapon("c14_rifle")
ZERGLINGS = sc.catalog.unit("zergling")

# 12 dice with every keyword of a normal weapon attack: Surge, Pierce, Precision, Critical Hit,
# Anti-Evade, Burst Fire, Locked In, Long Range, Concentrated Fire; a Shielded, Tough, marked target
# that Dodges and Evades.
LOADED = sc.Weapon(2, 3, 1, surge_tags=("Light",), surge_dice="D3+1",
                   keywords='PIERCE Light (2), PRECISION (1), CRITICAL HIT (1), ANTI-EVADE (1), BURST FIRE 6" (1), '
                            'LOCKED IN (1), LONG RANGE (18"), CONCENTRATED FIRE (3)')
ZEALOTS = sc.Unit(3, 4, 5, 5, shield=3, tags=("Biological", "Light", "Ground"), tough=1, marker=2)
LOADED_OPTIONS = dict(firing_models=4, long_range_models=1, burst_models=1, target_stationary=True, dice_mod=-1,
                      dodge=1, td_reduction=1)

MC_SAMPLES = 10_000_000


def test_exact_attack_12_dice_every_keyword(benchmark):
    result = benchmark(sc.attack, LOADED, ZEALOTS, **LOADED_OPTIONS)
    assert result.stages.dice == 12 and result.method == "exact"
    benchmark.extra_info["ms_per_call"] = benchmark.stats.stats.mean * 1e3


def test_exact_attack_12_dice_every_keyword_natural_crit(benchmark):
    options = dict(LOADED_OPTIONS, rules={"critical_hit": "natural"})
    result = benchmark(sc.attack, LOADED, ZEALOTS, **options)
    assert result.stages.dice == 12
    benchmark.extra_info["ms_per_call"] = benchmark.stats.stats.mean * 1e3


def test_exact_attack_default(benchmark):
    # issue 14: <= 20 us per warm call
    result = benchmark(sc.attack, RIFLE, ZERGLINGS, firing_models=6)
    assert result.stages.dice == 12
    benchmark.extra_info["ms_per_call"] = benchmark.stats.stats.mean * 1e3
    benchmark.extra_info["us_per_call_best"] = benchmark.stats.stats.min * 1e6


def test_exact_attack_one_model(benchmark):
    result = benchmark(sc.attack, RIFLE, ZERGLINGS)
    assert result.stages.dice == 2
    benchmark.extra_info["ms_per_call"] = benchmark.stats.stats.mean * 1e3
    benchmark.extra_info["us_per_call_best"] = benchmark.stats.stats.min * 1e6


# 8,000 different attacks: 20 weapons (RoA 1-4, hit 2+-6+, Surge Light D3) x the 7 catalogue units x
# 1-10 firing models x armour_mod -1/0/+1 x dodge 0/1 (the first 8,000 of 8,400), 2-40 dice each.
_SWEEP_WEAPONS = [sc.Weapon(roa, hit, 1, surge_tags=("Light",), surge_dice="D3") for roa in range(1, 5)
                  for hit in range(2, 7)]
_SWEEP = list(itertools.product(_SWEEP_WEAPONS, sc.catalog.UNITS.values(), range(1, 11), (-1, 0, 1), (0, 1)))[:8000]
SWEEP_WEAPONS, SWEEP_UNITS, SWEEP_MODELS, SWEEP_ARMOUR, SWEEP_DODGE = (list(column) for column in zip(*_SWEEP))


def _sweep():
    return sc.attack_batch(SWEEP_WEAPONS, SWEEP_UNITS, firing_models=SWEEP_MODELS, armour_mod=SWEEP_ARMOUR,
                           dodge=SWEEP_DODGE)


def test_attack_batch_8000_different_attacks_per_second(benchmark):
    # cold: every attack validated afresh (the by-value cache of validated attacks emptied first)
    batch = benchmark.pedantic(_sweep, setup=sc_plan._cases.clear, rounds=5, iterations=1)
    assert len(batch) == 8000 and batch[7999].method == "exact"
    benchmark.extra_info["attacks_per_second"] = 8000 / benchmark.stats.stats.mean


def test_attack_batch_8000_repeated_attacks_per_second(benchmark):
    # warm: the same 8,000 attacks again, their validation cached by value
    _sweep()
    batch = benchmark(_sweep)
    assert len(batch) == 8000
    benchmark.extra_info["attacks_per_second"] = 8000 / benchmark.stats.stats.mean


def test_exact_sequence_three_batches(benchmark):
    batches = [sc.Batch(RIFLE, firing_models=6), sc.Batch(LOADED, **LOADED_OPTIONS), sc.Batch(RIFLE, firing_models=6)]
    result = benchmark(sc.sequence, ZEALOTS, batches)
    assert result.method == "exact"
    benchmark.extra_info["ms_per_call"] = benchmark.stats.stats.mean * 1e3


def _kernel(weapon, unit, **options):
    plan = engine.plan_batch(weapon, unit, sc.Rules(), **options)
    return lambda s, t, b, e, th: _core.starcraft.sample_attack(plan.config, s, t, b, e, th)


def test_monte_carlo_default_attack_per_second_one_thread(benchmark):
    kernel = _kernel(RIFLE, ZERGLINGS, firing_models=6)
    counts = benchmark(sampling.run_monte_carlo, kernel, MC_SAMPLES, 1, 1)
    assert int(counts[:13].sum()) == MC_SAMPLES  # the hits histogram counts every sample
    benchmark.extra_info["attacks_per_second"] = MC_SAMPLES / benchmark.stats.stats.mean


def test_monte_carlo_default_attack_per_second_two_threads(benchmark):
    """The same samples on two threads: the scaling figure (results are identical, the chunks decide)."""
    kernel = _kernel(RIFLE, ZERGLINGS, firing_models=6)
    counts = benchmark(sampling.run_monte_carlo, kernel, MC_SAMPLES, 1, 2)
    assert int(counts[:13].sum()) == MC_SAMPLES
    benchmark.extra_info["attacks_per_second"] = MC_SAMPLES / benchmark.stats.stats.mean


def test_monte_carlo_every_keyword_per_second_one_thread(benchmark):
    kernel = _kernel(LOADED, ZEALOTS, **LOADED_OPTIONS)
    counts = benchmark(sampling.run_monte_carlo, kernel, MC_SAMPLES, 1, 1)
    assert int(counts[:13].sum()) == MC_SAMPLES
    benchmark.extra_info["attacks_per_second"] = MC_SAMPLES / benchmark.stats.stats.mean


def test_monte_carlo_sequence_three_batches_per_second_one_thread(benchmark):
    batches = [sc.Batch(RIFLE, firing_models=6), sc.Batch(LOADED, **LOADED_OPTIONS), sc.Batch(RIFLE, firing_models=6)]
    samples = 2_000_000
    result = benchmark(sc.sequence, ZEALOTS, batches, method="monte_carlo", samples=samples, seed=1, threads=1)
    assert result.samples == samples
    benchmark.extra_info["sequences_per_second"] = samples / benchmark.stats.stats.mean
