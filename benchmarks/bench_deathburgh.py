"""Deathburgh benchmarks: exact combat time, exact batches and Monte Carlo combats per second (one thread).

Run: PYTHONPATH=python python -m pytest benchmarks/bench_deathburgh.py --benchmark-enable
Each Monte Carlo scenario reports ``per_second`` (samples / mean time) in extra_info; the printed
table gives the time per call.
"""

from __future__ import annotations

import itertools
from pathlib import Path
from typing import Any, Callable

import pytest

from mathhammer import deathburgh as db
from mathhammer.deathburgh.engine import combat_counts
from mathhammer.deathburgh.plan import plan_combat
from mathhammer.deathburgh.variants import Variants as Rules

MC_SAMPLES = 20_000_000
ROUND_SAMPLES = 2_000_000
EXAMPLES_DIR = Path(__file__).resolve().parents[1] / "examples" / "deathburgh"

FOLLOWERS = (db.Side(db.example("Old Fellas Melee Warrior Follower")), db.Side(db.example("Bandit Melee Follower")))
BIG = (  # 10 dice with a reroll of every failure against 10 defensive dice with one reroll, Dodge
    db.Side(db.Miniature(10, 4, 10, 4, 10), charge=True, reroll="all_fails"),
    db.Side(db.Miniature(10, 4, 10, 3, 10), "defensive", reroll="one_fail"),
)
MAXED = (  # 20 dice a side, the largest pools allowed
    db.Side(db.Miniature(20, 3, 20, 3, 20)),
    db.Side(db.Miniature(20, 4, 20, 4, 20)),
)
SCENARIOS = {
    "followers_4v4_attack": (FOLLOWERS, "attack"),
    "reroll_10v10_dodge": (BIG, "dodge"),
    "maxed_20v20_attack": (MAXED, "attack"),
}


def _rate(benchmark: Any, samples: int) -> None:
    if benchmark.stats is not None:
        benchmark.extra_info["per_second"] = samples / benchmark.stats.stats.mean


@pytest.mark.parametrize("name", list(SCENARIOS))
def test_exact_combat(benchmark: Any, name: str) -> None:
    (attacker, defender), reaction = SCENARIOS[name]
    result = benchmark(db.combat, attacker, defender, reaction, method="exact")
    assert result.method == "exact"


def test_exact_combat_with_summary(benchmark: Any) -> None:
    """One exact combat and its figures read (exact results build their distributions on first read)."""
    summary = benchmark(lambda: db.combat(*FOLLOWERS, method="exact").summary())
    assert len(summary) == 8


# Batches (db.combat_batch): one C++ call for every exact combat. 8,000 different combats, no two
# with the same pools: dice 1..8 at 2+..6+ each side, opposed attacks or dodge, three rerolls.
BATCH_COMBATS = [
    (db.Side(db.Miniature(a, a_plus, 4, 4, 3), reroll=reroll), db.Side(db.Miniature(d, d_plus, 4, 4, 3)), reaction)
    for a, a_plus, d, d_plus, reaction, reroll in itertools.product(
        range(1, 9), range(2, 7), range(1, 9), range(2, 7), ("attack", "dodge"), ("none", "all_fails", "one_fail"))
][:8_000]


def test_exact_combat_batch_per_second(benchmark: Any) -> None:
    attackers, defenders, reactions = (list(column) for column in zip(*BATCH_COMBATS))
    batch = benchmark(db.combat_batch, attackers, defenders, reactions, method="exact")
    assert len(batch) == len(BATCH_COMBATS)
    benchmark.extra_info["combats_per_second"] = len(BATCH_COMBATS) / benchmark.stats.stats.mean


def test_exact_combat_batch_with_summaries_per_second(benchmark: Any) -> None:
    """The same batch and every item's summary() (each result's figures built)."""
    attackers, defenders, reactions = (list(column) for column in zip(*BATCH_COMBATS))
    call = lambda: db.combat_batch(attackers, defenders, reactions, method="exact").summaries()  # noqa: E731
    summaries = benchmark.pedantic(call, rounds=3, iterations=1)
    assert len(summaries) == len(BATCH_COMBATS)
    benchmark.extra_info["combats_per_second"] = len(BATCH_COMBATS) / benchmark.stats.stats.mean


@pytest.mark.parametrize("name", list(SCENARIOS))
def test_monte_carlo_combat_one_thread(benchmark: Any, name: str) -> None:
    """The C++ kernel alone (no result building): combats per second on one thread."""
    (attacker, defender), reaction = SCENARIOS[name]
    plan = plan_combat(attacker, defender, reaction, Rules())
    counts = benchmark.pedantic(combat_counts, args=(plan, MC_SAMPLES, 1, 1), rounds=3, iterations=1)
    assert int(counts.sum()) == 2 * MC_SAMPLES  # two grids counted per combat
    _rate(benchmark, MC_SAMPLES)


def test_monte_carlo_combat_two_threads(benchmark: Any) -> None:
    """The 4 v 4 kernel on two threads, the same samples: the scaling figure."""
    (attacker, defender), reaction = SCENARIOS["followers_4v4_attack"]
    plan = plan_combat(attacker, defender, reaction, Rules())
    counts = benchmark.pedantic(combat_counts, args=(plan, MC_SAMPLES, 1, 2), rounds=3, iterations=1)
    assert int(counts.sum()) == 2 * MC_SAMPLES
    _rate(benchmark, MC_SAMPLES)


def test_monte_carlo_combat_public_api(benchmark: Any) -> None:
    call: Callable[[], Any] = lambda: db.combat(*FOLLOWERS, method="monte_carlo", samples=MC_SAMPLES, seed=1, threads=1)  # noqa: E731
    result = benchmark.pedantic(call, rounds=3, iterations=1)
    assert result.samples == MC_SAMPLES
    _rate(benchmark, MC_SAMPLES)


def test_exact_round_example(benchmark: Any) -> None:
    kwargs = db.load_round(EXAMPLES_DIR / "round_scenario.toml")
    result = benchmark(db.round, **kwargs, method="exact")
    assert result.method == "exact"


def test_monte_carlo_round_example_one_thread(benchmark: Any) -> None:
    kwargs = db.load_round(EXAMPLES_DIR / "round_scenario.toml")
    call = lambda: db.round(**kwargs, method="monte_carlo", samples=ROUND_SAMPLES, seed=1, threads=1)  # noqa: E731
    result = benchmark.pedantic(call, rounds=3, iterations=1)
    assert result.samples == ROUND_SAMPLES
    _rate(benchmark, ROUND_SAMPLES)


def test_exact_round_large(benchmark: Any) -> None:
    """Six brutes (W 5: 6^6 = 46,656 joint wound states), twelve opposed attacks in a ring."""
    minis = {f"b{i}": db.example("Bandit Brute") for i in range(6)}
    combats = [{"attacker": f"b{i % 6}", "defender": f"b{(i + 1) % 6}", "reaction": "attack"} for i in range(12)]
    result = benchmark.pedantic(lambda: db.round(minis, combats, method="exact"), rounds=3, iterations=1)
    assert result.method == "exact"
