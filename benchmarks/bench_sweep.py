"""Sweeps: cells per second of exact Kill Team sweeps in one process and on a warm pool of two, and
the sweep machinery's own cost per cell.

Run: PYTHONPATH=python python -m pytest benchmarks/bench_sweep.py --benchmark-enable -s

The pool is started and warmed (every worker has imported mathhammer and run a shot) before the
clock starts; its start-up time is reported on its own in ``extra_info["pool_startup_seconds"]``.
"""

from __future__ import annotations

import multiprocessing
import time
from concurrent.futures import ProcessPoolExecutor, wait
from typing import Any

import mathhammer as mh
from mathhammer import killteam as kt

#: 5 attacks x 5 hit stats x 4 rule sets x 5 saves x 4 covers x 5 wounds = 10,000 different shots.
SHOT_GRID: dict[str, Any] = {
    "weapon.attacks": range(2, 7),
    "weapon.hit": range(2, 7),
    "weapon.rules": ["", "Lethal 5+", "Piercing 1", "Balanced"],
    "target.save": range(2, 7),
    "cover": range(0, 4),
    "target.wounds": [8, 10, 12, 14, 18],
}
GUN = kt.Weapon(4, 3, (3, 4))
TARGET = kt.Operative(3, 12)
#: The default fight (4 attacks 3+ 3/4, 12 wounds each) over both strategies and both wounds: 4 x 4 x 6 x 6.
FIGHTER = kt.Fighter(4, 3, (3, 4), 12)
FIGHT_GRID: dict[str, Any] = {
    "a.strategy": ["strike", "parry", "max_damage", "min_damage"],
    "b.strategy": ["strike", "parry", "max_damage", "min_damage"],
    "a.wounds": range(7, 13),
    "b.wounds": range(7, 13),
}


def _timed(run: Any) -> tuple[Any, float]:
    started = time.perf_counter()
    out = run()
    return out, time.perf_counter() - started


def test_exact_shot_sweep_one_process(benchmark: Any) -> None:
    frame = benchmark.pedantic(lambda: mh.sweep(kt.shoot, weapon=GUN, target=TARGET, **SHOT_GRID), rounds=3)
    assert len(frame) == 10_000
    benchmark.extra_info["cells_per_second"] = 10_000 / benchmark.stats.stats.mean if benchmark.stats else None


def test_exact_shot_sweep_two_processes(benchmark: Any) -> None:
    started = time.perf_counter()
    with ProcessPoolExecutor(2, mp_context=multiprocessing.get_context("spawn")) as pool:
        wait([pool.submit(kt.shoot, GUN, TARGET) for _ in range(8)])  # both workers up, mathhammer imported
        startup = time.perf_counter() - started
        serial, serial_seconds = _timed(lambda: mh.sweep(kt.shoot, weapon=GUN, target=TARGET, **SHOT_GRID))
        pooled = benchmark.pedantic(
            lambda: mh.sweep(kt.shoot, weapon=GUN, target=TARGET, executor=pool, **SHOT_GRID), rounds=3)
    assert pooled.equals(serial)
    seconds = benchmark.stats.stats.mean if benchmark.stats else serial_seconds
    benchmark.extra_info.update(pool_startup_seconds=startup, cells_per_second=10_000 / seconds,
                                speedup_over_one_process=serial_seconds / seconds)


def test_exact_default_fight_sweep(benchmark: Any) -> None:
    frame = benchmark.pedantic(lambda: mh.sweep(kt.fight, a=FIGHTER, b=FIGHTER, method="exact", **FIGHT_GRID),
                               rounds=3)
    assert len(frame) == 576 and (frame["death_chance_a"] <= 1).all()
    benchmark.extra_info["cells_per_second"] = 576 / benchmark.stats.stats.mean if benchmark.stats else None


def trivial(x: int, y: int) -> dict[str, float]:
    return {"value": 0.0}


def test_sweep_overhead_per_cell(benchmark: Any) -> None:
    """100,000 cells of a function that does nothing: what the sweep itself costs a cell."""
    frame = benchmark.pedantic(lambda: mh.sweep(trivial, x=range(1000), y=range(100)), rounds=5)
    assert len(frame) == 100_000
    if benchmark.stats:
        benchmark.extra_info["microseconds_per_cell"] = benchmark.stats.stats.mean / 100_000 * 1e6
