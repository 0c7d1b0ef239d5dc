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
from mathhammer.killteam import plan

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
    """Every round plans its 10,000 shots anew (the plan caches are emptied before it) and builds the
    table; one round before the clock imports what a first sweep imports (pandas, the sweep module),
    which a figure per cell should not hold."""
    frame = benchmark.pedantic(lambda: mh.sweep(kt.shoot, weapon=GUN, target=TARGET, **SHOT_GRID), rounds=5,
                               setup=plan.clear_shot_caches, warmup_rounds=1)
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


#: The command-line grid of 240 exact shots, and the same grid as mh.sweep's own axes.
CLI_GRID = "attacks=2..7 hit=3,4 save=2..6 cover=0..3"
CLI_GRID_AXES: dict[str, Any] = {"weapon.attacks": range(2, 8), "weapon.hit": [3, 4], "target.save": range(2, 7),
                                 "cover": range(0, 4)}


def _command_cpu_seconds(*args: str) -> float:
    """CPU seconds (user + system) of one `mathhammer` process run with ``args``, output to a file."""
    import os
    import resource
    import subprocess
    import sys
    from pathlib import Path

    here = str(Path(mh.__file__).resolve().parent.parent)
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([here, os.environ.get("PYTHONPATH", "")]).rstrip(os.pathsep))
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run([sys.executable, "-m", "mathhammer.cli", *args], env=env, check=True, stdout=subprocess.DEVNULL)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)


def test_cli_sweep_240_cells(benchmark: Any, tmp_path: Any) -> None:
    """`mathhammer sweep killteam shoot` over 240 exact shots against mh.sweep of the same grid (issue
    36: the grid within 3x mh.sweep's time, plus the command's start). The command runs in this
    process (mathhammer.cli.main), after a first run that imported what it needs; its grid's own cost
    is its time less that of the same command over one cell (what any sweep command costs: the
    command line read, the table printed and written). CPU time, the least of 7 interleaved rounds,
    so that the shared machine's load does not stretch it. The start of the command as a new process
    (Python, the imports) is `start_process_cpu_seconds`."""
    import contextlib
    import io

    from mathhammer.cli import main

    out = str(tmp_path / "sweep.csv")
    big = ["sweep", "killteam", "shoot", "--grid", CLI_GRID, "--output", out]
    one = ["sweep", "killteam", "shoot", "--grid", "cover=0", "--output", out]
    grid: list[float] = []
    single: list[float] = []
    in_process: list[float] = []

    def cpu(run: Any) -> float:
        began = time.process_time()
        with contextlib.redirect_stdout(io.StringIO()):
            run()
        return time.process_time() - began

    assert main(big) == 0  # the imports and the first plans, before the clock

    def one_round() -> None:
        grid.append(cpu(lambda: main(big)))
        single.append(cpu(lambda: main(one)))
        in_process.append(cpu(lambda: mh.sweep(kt.shoot, weapon=GUN, target=TARGET, **CLI_GRID_AXES)))

    benchmark.pedantic(one_round, rounds=7, iterations=1)
    extra = max(0.0, min(grid) - min(single))
    benchmark.extra_info.update(command_cpu_seconds=min(grid), one_cell_cpu_seconds=min(single),
                                mh_sweep_cpu_seconds=min(in_process), grid_over_mh_sweep=extra / min(in_process),
                                start_process_cpu_seconds=min(_command_cpu_seconds(*one) for _ in range(3)))
