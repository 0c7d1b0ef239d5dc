"""Budgets: the optimal solver's states and memory, the exact engine's time, workers and memory.

Memory is measured in a child process (its peak resident set, VmHWM), so that what this process
has allocated before does not count.
"""

from __future__ import annotations

import importlib
import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import mathhammer
from mathhammer import _core
from mathhammer.core import sampling
from mathhammer import killteam as kt
from mathhammer.errors import InputError, InputTypeError
from timing import CPU_MARGIN, SANITIZER_SLOWDOWN, cpu_at_most

fight_module = importlib.import_module("mathhammer.killteam.fighting")  # the name `fight` is the function
from mathhammer.killteam import plan as plan_module  # noqa: E402

# The children import the package this process runs (the sanitized build, under the sanitizers).
PYTHON_DIR = str(Path(mathhammer.__file__).resolve().parents[1])
# Under AddressSanitizer everything runs a few times slower and allocates more: memory bounds are
# scaled by this (the bounds themselves, not what is checked); time bounds by tests/timing.py.
SANITIZED = "libasan" in os.environ.get("LD_PRELOAD", "")

# The fight: 12 dice a side at 2+, 40 wounds, both optimal, three rounds.
GIANT = kt.Fighter(attacks=12, hit=2, damage=(1, 2), wounds=40, strategy="optimal")


def run_child(code: str, cores: int | None = None) -> dict[str, Any]:
    """Runs ``code`` (which sets ``out``, a dict) in a fresh interpreter; adds its peak memory."""
    pin = f"os.sched_setaffinity(0, sorted(os.sched_getaffinity(0))[:{cores}])\n" if cores else ""
    script = ("import json, os, time\n" + pin + "from mathhammer import killteam as kt\n" + code +
              "\nfor line in open('/proc/self/status'):\n"
              "    if line.startswith('VmHWM:'):\n"
              "        out['peak_bytes'] = int(line.split()[1]) * 1024\n"
              "print(json.dumps(out))\n")
    env = dict(os.environ, PYTHONPATH=PYTHON_DIR)
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=env, timeout=120)
    assert done.returncode == 0, done.stderr
    out: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return out


# --- the optimal solver -------------------------------------------------------------------------

def test_the_giant_optimal_fight_is_refused_under_every_method_in_time_and_memory() -> None:
    out = run_child(
        "a = kt.Fighter(attacks=12, hit=2, damage=(1, 2), wounds=40, strategy='optimal')\n"
        "out = {}\n"
        "for method in ('exact', 'auto', 'monte_carlo'):\n"
        "    start = time.process_time()\n"
        "    try:\n"
        "        kt.fight(a, a, rounds=3, method=method, samples=1000, seed=1)\n"
        "        out[method] = 'ran'\n"
        "    except ValueError as error:\n"
        "        out[method] = error.field\n"
        "    out[method + '_seconds'] = time.process_time() - start\n")
    for method in ("exact", "auto", "monte_carlo"):
        assert out[method] == "max_states"
        # refused as soon as the solver passes 2 million states: 4 to 5 s of CPU, not minutes
        assert out[method + "_seconds"] < CPU_MARGIN * SANITIZER_SLOWDOWN * 5.0
    # 2 million states and their tables stay far inside the 1 GiB memory budget
    assert out["peak_bytes"] < fight_module.MAX_SOLVER_MEMORY // (1 if SANITIZED else 2)


def test_the_optimal_twelve_dice_one_round_fight_fits_the_budget() -> None:
    a = kt.Fighter(attacks=12, hit=2, damage=(3, 4), wounds=12, strategy="optimal")
    b = kt.Fighter(attacks=12, hit=2, damage=(3, 4), wounds=12)
    with cpu_at_most(0.15):  # about 0.12 s of CPU
        r = kt.fight(a, b)
    assert r.method == "exact" and r.joint.pmf.sum() == pytest.approx(1.0)


def test_a_small_budget_refuses_and_a_raised_one_solves() -> None:
    a = kt.Fighter(attacks=4, hit=3, damage=(3, 4), wounds=12, strategy="optimal")
    b = kt.Fighter(attacks=4, hit=3, damage=(3, 4), wounds=12)
    for method in ("exact", "auto", "monte_carlo"):
        with pytest.raises(InputError, match="^max_states:"):
            kt.fight(a, b, method=method, samples=1000, seed=1, max_states=10)
        with pytest.raises(InputError, match="^max_memory:"):
            kt.fight(a, b, method=method, samples=1000, seed=1, max_memory=4096)
    # the default budget solves it, and Monte Carlo plays the same solved game
    exact = kt.fight(a, b, method="exact")
    mc = kt.fight(a, b, method="monte_carlo", samples=200_000, seed=4, threads=2)
    assert mc.stderr is not None
    for side in ("a", "b"):
        assert abs(mc.death_chance(side) - exact.death_chance(side)) < 5 * mc.stderr[f"death_chance_{side}"]


@pytest.mark.parametrize(("field", "value", "error"), [
    ("max_states", 0, InputError), ("max_states", -5, InputError), ("max_states", 2**33, InputError),
    ("max_states", 1.5, InputTypeError), ("max_memory", 0, InputError), ("max_memory", "1G", InputTypeError),
])
def test_budget_keywords_are_validated(field: str, value: object, error: type[Exception]) -> None:
    a = kt.Fighter(attacks=2, hit=3, strategy="optimal")
    with pytest.raises(error) as raised:
        kt.fight(a, a, **{field: value})  # type: ignore[arg-type]
    assert raised.value.field == field  # type: ignore[attr-defined]


# --- the exact engine's time budget ---------------------------------------------------------------

# 12 v 12 dice at 30 wounds over two rounds: about 11 s by kt.exact_seconds (and about twice that
# in fact, docs/killteam_fight.md): over EXACT_SECONDS_MAX
LONG = kt.Fighter(attacks=12, hit=3, damage=(3, 4), wounds=30)


def test_exact_refuses_the_long_fight_at_once_and_auto_samples_it() -> None:
    assert kt.exact_seconds(LONG, LONG, rounds=2) > fight_module.EXACT_SECONDS_MAX
    # refused from the estimate, before any work: under a millisecond of CPU
    with cpu_at_most(0.001), pytest.raises(InputError, match="^method:"):
        kt.fight(LONG, LONG, rounds=2, method="exact")
    r = kt.fight(LONG, LONG, rounds=2, samples=20_000, seed=1, threads=1)
    assert r.method == "monte_carlo"


def test_the_estimate_covers_the_time_exact_fights_take() -> None:
    """Fights the estimate lets through take about the CPU time it gives them (fitted within a factor
    of 2, docs/rules/killteam.md §3.7; benchmarks/bench_exact_seconds.py holds it to that): here,
    within CPU_MARGIN times."""
    fnp4 = kt.Fighter(attacks=4, hit=3, damage=(3, 4), wounds=12, abilities="Feel No Pain 5+")
    relic4 = kt.Fighter(attacks=4, hit=3, damage=(3, 4), wounds=12, abilities="Saintly Relics")
    fnp12 = kt.Fighter(attacks=12, hit=3, damage=(3, 4), wounds=12, abilities="Feel No Pain 5+")
    relics6 = kt.Fighter(attacks=6, hit=3, damage=(3, 4), wounds=11, abilities="Saintly Relics 2D6")
    for a, b, rounds in ((fnp4, fnp4, 2), (relic4, fnp4, 2), (fnp12, fnp12, 1), (relics6, relics6, 2)):
        estimate = plan_module.exact_seconds(a, b, rounds)
        assert estimate <= fight_module.EXACT_SECONDS_MAX
        with cpu_at_most(estimate + 0.005):  # a few milliseconds of fixed cost, for the shortest fights
            kt.fight(a, b, rounds=rounds, method="exact")


# --- workers and memory ---------------------------------------------------------------------------

def test_workers_never_outnumber_the_usable_cores() -> None:
    cores = sampling.usable_cores()
    assert cores == len(os.sched_getaffinity(0))
    assert _core.core.worker_count(256, 10_000) == cores
    assert _core.core.worker_count(1, 10_000) == 1
    assert _core.core.worker_count(256, 1) == 1


def test_memory_does_not_grow_with_threads() -> None:
    code = ("a = kt.Fighter(attacks=8, hit=3, damage=(3, 4), wounds=14, abilities='Feel No Pain 5+',"
            " strategy='optimal')\n"
            "b = kt.Fighter(attacks=8, hit=3, damage=(3, 4), wounds=14, abilities='Feel No Pain 5+')\n"
            "r = kt.fight(a, b, method='monte_carlo', samples=300_000, seed=9, threads=THREADS)\n"
            "out = {'pmf': r.joint.pmf.tolist()}\n")
    two = run_child(code.replace("THREADS", "2"), cores=2)
    many = run_child(code.replace("THREADS", "256"), cores=2)
    assert many["pmf"] == two["pmf"]  # the chunks decide the numbers, not the workers
    assert many["peak_bytes"] <= 1.5 * two["peak_bytes"]


# --- time-sized batches ---------------------------------------------------------------------------

def test_batches_are_sized_by_time_and_do_not_change_results() -> None:
    kernel = _core.core.d6_histogram
    sizes: list[int] = []

    def slow(seed: int, total: int, chunk_begin: int, chunk_end: int, threads: int) -> np.ndarray:
        sizes.append(chunk_end - chunk_begin)
        time.sleep(0.05 * (chunk_end - chunk_begin))  # a twentieth of a second a chunk: about 5 fit a batch
        return kernel(seed, total, chunk_begin, chunk_end, threads)

    samples = 40 * sampling.CHUNK_SAMPLES
    counts = sampling.run_monte_carlo(slow, samples, seed=3, threads=1)
    assert sum(sizes) == 40 and sizes[0] == 1
    assert 4 <= max(sizes) <= 5  # grown to the batch time, and no further
    assert np.array_equal(counts, kernel(3, samples, 0, 40, 1))


def test_next_batch_aims_at_the_batch_time() -> None:
    assert sampling.next_batch(10, 1.0, 1) == 2  # 10 chunks a second: a quarter-second is 2
    assert sampling.next_batch(10, 1.0, 2) == 2
    assert sampling.next_batch(1, 10.0, 4) == 4  # never less than one chunk per worker
    assert sampling.next_batch(1000, 0.001, 2) == 2 * sampling.MAX_CHUNKS_PER_WORKER
    assert sampling.next_batch(3, 0.0, 1) == sampling.MAX_CHUNKS_PER_WORKER
