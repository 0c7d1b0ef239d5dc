"""Kill Team shooting: time per exact shot called from Python, and Monte Carlo shots per second.

Run: PYTHONPATH=python python -m pytest benchmarks/bench_killteam_shoot.py --benchmark-enable

The three exact scenarios are the ones the established web calculator is compared on
(0.12 ms, 0.16 ms and 2.2 ms there on the development machine).
"""

from __future__ import annotations

import time
import timeit

import numpy_shot
import pytest

from mathhammer import killteam as kt

from mathhammer.killteam import plan  # noqa: E402

RULES_A = "Balanced, Lethal 5+, Rending, Piercing Crits 1, Devastating 1"
SCENARIOS = {
    "4d_3+_balanced_lethal_rending_pc1_dev1_vs_3+_cover1_fnp5": (
        kt.Weapon(4, 3, (3, 4), RULES_A), kt.Operative(3, 12, "Feel No Pain 5+"), 1),
    "8d_3+_balanced_lethal_rending_pc1_dev1_vs_3+_cover1_fnp5": (
        kt.Weapon(8, 3, (3, 4), RULES_A), kt.Operative(3, 12, "Feel No Pain 5+"), 1),
    "8d_4+_ceaseless_balanced_severe_punishing_p1_vs_3+_relics2d6_jas": (
        kt.Weapon(8, 4, (4, 5), "Ceaseless Balanced, Severe, Punishing, Piercing 1"),
        kt.Operative(3, 12, "Saintly Relics (2D6), Just a Scratch"), 0),
}
MC_SAMPLES = 2_000_000

# The defence-dice rules and Purity Seal (docs/rules/killteam.md §8) against the same shot without them:
# the exact shot with them must stay within 2x.
PLAIN_8D = (kt.Weapon(8, 4, (4, 5), "Lethal 5+, Rending, Piercing 1"), kt.Operative(4, 12, "Feel No Pain 5+"), 1)
HARDY_8D = (kt.Weapon(8, 4, (4, 5), "Purity Seal, Lethal 5+, Rending, Piercing 1"),
            kt.Operative(4, 12, "Hardy 5+, Ceaseless Balanced Saves, Feel No Pain 5+"), 1)


@pytest.mark.parametrize("name", list(SCENARIOS))
def test_exact_shot(benchmark, name):
    weapon, target, cover = SCENARIOS[name]
    result = benchmark(kt.shoot, weapon, target, cover=cover)
    assert abs(result.damage.pmf.sum() - 1) < 1e-12
    benchmark.extra_info["scenario"] = name
    benchmark.extra_info["microseconds_per_shot"] = benchmark.stats.stats.mean * 1e6


@pytest.mark.parametrize("name", list(SCENARIOS))
def test_exact_shot_cold(benchmark, name):
    """As above, but the cached C++ configuration of the shot and its labels are rebuilt on every call."""
    weapon, target, cover = SCENARIOS[name]

    def cold() -> kt.ShootResult:
        plan.clear_shot_caches()
        return kt.shoot(weapon, target, cover=cover)

    result = benchmark(cold)
    assert abs(result.damage.pmf.sum() - 1) < 1e-12
    benchmark.extra_info["microseconds_per_shot"] = benchmark.stats.stats.mean * 1e6


# Issue-style single exact shots (benchmarks/README.md): 64 distinct shots, each call's mean damage and
# kill chance read. Warm: plans cached, a new result object every call. Cold: the profiles are built
# before the clock, every cache of plans and labels emptied before each call.
CYCLED = [(kt.Weapon(a, h, (3, 4), "Lethal 5+, Piercing 1"), kt.Operative(s, 12, "Feel No Pain 5+"))
          for a in (3, 4, 5, 6) for h in (2, 3, 4, 5) for s in (3, 4, 5, 6)]


def _cycle(cold: bool) -> float:
    figures = 0.0
    for weapon, target in CYCLED:
        if cold:
            plan.clear_shot_caches()
        result = kt.shoot(weapon, target, cover=1)
        figures += result.damage.mean + result.kill_chance
    return figures


@pytest.mark.parametrize("kind", ["warm", "cold"])
def test_exact_shot_64_cycled(benchmark, kind):
    _cycle(False)
    benchmark.pedantic(_cycle, args=(kind == "cold",), rounds=50, iterations=5, warmup_rounds=2)
    started = time.process_time()
    for _ in range(20):
        _cycle(kind == "cold")
    benchmark.extra_info["microseconds_per_shot"] = benchmark.stats.stats.min / len(CYCLED) * 1e6
    benchmark.extra_info["cpu_microseconds_per_shot"] = (time.process_time() - started) / (20 * len(CYCLED)) * 1e6


def test_exact_worst_case(benchmark):
    weapon = kt.Weapon(12, 2, (12, 12), "Ceaseless Balanced, Devastating 9, Lethal 5+")
    target = kt.Operative(6, 40, "Saintly Relics (2D6), Feel No Pain 4+, Durable, Just a Scratch")
    result = benchmark(kt.shoot, weapon, target, rounds=9)
    assert abs(result.damage.pmf.sum() - 1) < 1e-9
    benchmark.extra_info["milliseconds_per_call"] = benchmark.stats.stats.mean * 1e3


@pytest.mark.parametrize("threads", [1, 2])
@pytest.mark.parametrize("name", list(SCENARIOS))
def test_monte_carlo_shots_per_second(benchmark, name, threads):
    weapon, target, cover = SCENARIOS[name]
    result = benchmark.pedantic(kt.shoot, args=(weapon, target),
                                kwargs=dict(cover=cover, method="monte_carlo", samples=MC_SAMPLES, seed=1,
                                            threads=threads), rounds=3, iterations=1)
    assert result.samples == MC_SAMPLES
    benchmark.extra_info["shots_per_second"] = MC_SAMPLES / benchmark.stats.stats.mean


# The plain shot of the comparison with numpy (4 dice 3+ 3/4 against 3+, 1 cover), and its yardstick:
# benchmarks/numpy_shot.py, the vectorised numpy program an analyst would write (checked against the
# exact engine by tests/killteam/test_numpy_yardstick.py).
PLAIN_4D = (kt.Weapon(numpy_shot.ATTACK_DICE, numpy_shot.HIT, (numpy_shot.NORMAL_DAMAGE, numpy_shot.CRITICAL_DAMAGE)),
            kt.Operative(numpy_shot.SAVE, 12), numpy_shot.COVER)
YARDSTICK_SAMPLES = 4_000_000


def test_monte_carlo_shot_against_numpy(benchmark):
    """One thread against the numpy yardstick on the same shot, in the same run: each round times
    both (interleaved, so a busy spell slows both), and the figures are the fastest round of each."""
    weapon, target, cover = PLAIN_4D
    ours: list[float] = []
    yardstick: list[float] = []

    def both() -> None:
        start = time.perf_counter()
        counts = numpy_shot.damage_histogram(YARDSTICK_SAMPLES, seed=1)
        middle = time.perf_counter()
        result = kt.shoot(weapon, target, cover=cover, method="monte_carlo", samples=YARDSTICK_SAMPLES, seed=1,
                          threads=1)
        end = time.perf_counter()
        assert counts.sum() == YARDSTICK_SAMPLES and result.samples == YARDSTICK_SAMPLES
        yardstick.append(middle - start)
        ours.append(end - middle)

    benchmark.pedantic(both, rounds=7, iterations=1)
    benchmark.extra_info["shots_per_second"] = YARDSTICK_SAMPLES / min(ours)
    benchmark.extra_info["numpy_shots_per_second"] = YARDSTICK_SAMPLES / min(yardstick)


@pytest.mark.parametrize("name, scenario", [("plain", PLAIN_8D), ("hardy_save_reroll_purity_seal", HARDY_8D)])
def test_exact_shot_with_defence_rules(benchmark, name, scenario):
    weapon, target, cover = scenario
    result = benchmark(kt.shoot, weapon, target, cover=cover)
    assert abs(result.damage.pmf.sum() - 1) < 1e-12
    benchmark.extra_info["microseconds_per_shot"] = benchmark.stats.stats.mean * 1e6


def test_defence_rules_cost_at_most_twice_the_plain_shot():
    def best_of(scenario: tuple) -> float:
        weapon, target, cover = scenario
        kt.shoot(weapon, target, cover=cover)
        return min(timeit.repeat(lambda: kt.shoot(weapon, target, cover=cover), number=200, repeat=5)) / 200

    assert best_of(HARDY_8D) <= 2 * best_of(PLAIN_8D)


# Batches (kt.shoot_batch): one C++ call for every exact shot.
# 8,000 different shots, none alike (the 4-dice shot above and simpler ones).
BATCH_RULES = (RULES_A, "Lethal 5+, Piercing 1", "Rending", "")
BATCH_SHOTS = [
    (kt.Weapon(attacks, hit, (3, 4), rules), kt.Operative(save, 12, f"Feel No Pain {fnp}+" if fnp < 7 else ""), cover)
    for attacks in (1, 2, 3, 4) for hit in (2, 3, 4, 5, 6) for rules in BATCH_RULES
    for save in (2, 3, 4, 5, 6) for fnp in (3, 4, 5, 6, 7) for cover in (0, 1, 2, 3)
]


def test_exact_shot_batch_per_second(benchmark):
    weapons, targets, covers = (list(column) for column in zip(*BATCH_SHOTS))
    batch = benchmark(kt.shoot_batch, weapons, targets, covers)
    assert len(batch) == len(BATCH_SHOTS)
    benchmark.extra_info["shots_per_second"] = len(BATCH_SHOTS) / benchmark.stats.stats.mean


def test_exact_shot_batch_summaries_per_second(benchmark):
    """As above, with every item's summary read (ResultBatch.summaries(): the figures of each damage
    pmf, no result objects built), as a sweep reads a batch."""
    weapons, targets, covers = (list(column) for column in zip(*BATCH_SHOTS))
    summaries = benchmark(lambda: kt.shoot_batch(weapons, targets, covers).summaries())
    assert len(summaries) == len(BATCH_SHOTS)
    benchmark.extra_info["shots_per_second"] = len(BATCH_SHOTS) / benchmark.stats.stats.mean


def test_exact_shot_batch_summary_arrays_per_second(benchmark):
    """As above, with every summary read through one columnar call (ResultBatch.summary_arrays(), what
    to_frame and mh.sweep read)."""
    weapons, targets, covers = (list(column) for column in zip(*BATCH_SHOTS))
    columns = benchmark(lambda: kt.shoot_batch(weapons, targets, covers).summary_arrays())
    assert len(columns["mean_damage"]) == len(BATCH_SHOTS)
    benchmark.extra_info["shots_per_second"] = len(BATCH_SHOTS) / benchmark.stats.stats.mean


def test_exact_shot_batch_cold_per_second(benchmark):
    """As above, but every cache of shots, configurations and labels is emptied before each round:
    the batch builds the configurations of its 8,000 shots (80 weapons x 25 targets x 4 covers)."""
    weapons, targets, covers = (list(column) for column in zip(*BATCH_SHOTS))
    batch = benchmark.pedantic(kt.shoot_batch, args=(weapons, targets, covers), setup=plan.clear_shot_caches,
                               rounds=5)
    assert len(batch) == len(BATCH_SHOTS)
    benchmark.extra_info["shots_per_second"] = len(BATCH_SHOTS) / benchmark.stats.stats.mean


def test_exact_shot_batch_of_one_shot_per_second(benchmark):
    """The 4-dice shot 8,000 times (a sweep cell repeated): resolved once, copied to every item."""
    weapon, target, cover = SCENARIOS["4d_3+_balanced_lethal_rending_pc1_dev1_vs_3+_cover1_fnp5"]
    batch = benchmark(kt.shoot_batch, weapon, [target] * len(BATCH_SHOTS), cover=cover)
    assert len(batch) == len(BATCH_SHOTS)
    benchmark.extra_info["shots_per_second"] = len(BATCH_SHOTS) / benchmark.stats.stats.mean


def test_weapon_from_notation(benchmark):
    """kt.Weapon with its rules as datacard text, as a sweep or a team file builds it again and again."""
    weapon = benchmark(kt.Weapon, 4, 3, (3, 4), "Lethal 5+, Piercing 1")
    assert weapon.rules.lethal == 5 and weapon.rules.piercing == 1
    benchmark.extra_info["microseconds_per_weapon"] = benchmark.stats.stats.mean * 1e6
