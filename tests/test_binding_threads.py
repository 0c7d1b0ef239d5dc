"""The bindings' helper threads: kept between calls, concurrent calls never wait for each other, and
a forked child (a process pool started by fork) runs engine calls though the parent's helpers are
not in it."""

from __future__ import annotations

import multiprocessing
import sys
from concurrent.futures import ThreadPoolExecutor

import pytest

from mathhammer import force_melee as fm


def _melee_json() -> str:
    """A small exact exchange (run on the calling thread) and a seeded Monte Carlo one (run by the
    bindings' helper threads, the ones a forked child does not inherit)."""
    a, b = fm.example("line_troopers"), fm.example("militia")
    return fm.melee(a, b).to_json() + fm.melee(a, b, method="monte_carlo", samples=20_000, seed=3, threads=2).to_json()


def test_concurrent_calls_give_the_serial_results() -> None:
    expected = _melee_json()
    with ThreadPoolExecutor(4) as pool:
        results = list(pool.map(lambda _: _melee_json(), range(16)))
    assert results == [expected] * 16


@pytest.mark.skipif(sys.platform == "win32", reason="fork is POSIX only")
def test_a_forked_child_runs_engine_calls() -> None:
    expected = _melee_json()  # the parent has started a helper thread
    with multiprocessing.get_context("fork").Pool(1) as pool:
        assert pool.apply_async(_melee_json).get(timeout=60) == expected
