"""Every Monte Carlo engine on every kind of executor docs/results.md promises: a thread pool, a
process pool (whose workers get the kernel by pickling) and a Dask cluster. The counts are the same
bit for bit as the serial run's: the chunks, not what executes them, decide the numbers.
"""

from __future__ import annotations

import multiprocessing
import os
import pickle
from collections.abc import Iterator
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from typing import Any

import pytest

from mathhammer.core.batches import ResultBatch
from tests.test_engine_contract import ENGINES

SAMPLES = 300_000  # several batches of chunks on any executor (batches are at least 16 chunks)
SEED = 20261202


@pytest.fixture(scope="module")
def process_pool() -> Iterator[Executor]:
    # "spawn": the workers share nothing with this process, so every kernel must really pickle
    with ProcessPoolExecutor(2, mp_context=multiprocessing.get_context("spawn")) as pool:
        yield pool


@pytest.fixture(scope="module")
def dask_client() -> Iterator[Any]:
    distributed = pytest.importorskip("dask.distributed")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster, distributed.Client(cluster) as client:
        yield client


def _serial(name: str, index: int) -> str:
    call = ENGINES[name][1][index]
    return str(call(method="monte_carlo", samples=SAMPLES, seed=SEED, threads=1).to_json())


@pytest.mark.parametrize("index", [0, 1])
@pytest.mark.parametrize("name", ENGINES)
def test_process_pool_gives_the_serial_counts(name: str, index: int, process_pool: Executor) -> None:
    call = ENGINES[name][1][index]
    pooled = call(method="monte_carlo", samples=SAMPLES, seed=SEED, executor=process_pool)
    assert pooled.to_json() == _serial(name, index)


@pytest.mark.parametrize("name", ENGINES)
def test_thread_pool_gives_the_serial_counts(name: str) -> None:
    call = ENGINES[name][1][1]
    with ThreadPoolExecutor(3) as pool:
        pooled = call(method="monte_carlo", samples=SAMPLES, seed=SEED, executor=pool)
    assert pooled.to_json() == _serial(name, 1)


@pytest.mark.parametrize("name", ENGINES)
def test_dask_gives_the_serial_counts(name: str, dask_client: Any) -> None:
    call = ENGINES[name][1][1]
    pooled = call(method="monte_carlo", samples=SAMPLES, seed=SEED, executor=dask_client.get_executor())
    assert pooled.to_json() == _serial(name, 1)


def test_a_result_batch_pickles() -> None:
    from mathhammer import killteam as kt

    weapon = kt.Weapon(attacks=4, hit=3, damage=(3, 4))
    batch = kt.shoot_batch(weapon, [kt.Operative(save=s, wounds=8) for s in (2, 3, 4, 5)], cover=[0, 1, 0, 1])
    assert isinstance(batch, ResultBatch)
    again = pickle.loads(pickle.dumps(batch))
    assert len(again) == len(batch)
    assert [r.to_json() for r in again] == [r.to_json() for r in batch]


def test_an_optimal_fighter_solves_its_game_once_per_worker(process_pool: Executor) -> None:
    from mathhammer import killteam as kt

    a = kt.Fighter(4, 3, (3, 4), 10, strategy="optimal")
    b = kt.Fighter(4, 4, (4, 5), 9)
    serial = kt.fight(a, b, rounds=2, method="monte_carlo", samples=SAMPLES, seed=SEED, threads=1)
    pooled = kt.fight(a, b, rounds=2, method="monte_carlo", samples=SAMPLES, seed=SEED, executor=process_pool)
    assert pooled.to_json() == serial.to_json()


# --- fuzzed: any seed, any sample count, any thread count, on every executor kind -----------------

from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

FUZZ = settings(max_examples=int(os.environ.get("FUZZ_EXAMPLES", "6")), deadline=None, derandomize=True,
                suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
RUNS = st.tuples(st.integers(0, 2**64 - 1), st.integers(1, 200_000), st.integers(1, 4), st.sampled_from([0, 1]))


def _fuzzed(name: str, executor: Executor, run: tuple[int, int, int, int]) -> None:
    seed, samples, threads, index = run
    call = ENGINES[name][1][index]
    serial = call(method="monte_carlo", samples=samples, seed=seed, threads=1)
    pooled = call(method="monte_carlo", samples=samples, seed=seed, threads=threads, executor=executor)
    assert pooled.to_json() == serial.to_json()


@pytest.mark.parametrize("name", ENGINES)
def test_fuzzed_runs_on_a_thread_pool(name: str) -> None:
    with ThreadPoolExecutor(2) as pool:
        given(run=RUNS)(FUZZ(lambda run: _fuzzed(name, pool, run)))()


@pytest.mark.parametrize("name", ENGINES)
def test_fuzzed_runs_on_a_process_pool(name: str, process_pool: Executor) -> None:
    given(run=RUNS)(FUZZ(lambda run: _fuzzed(name, process_pool, run)))()


@pytest.mark.parametrize("name", ENGINES)
def test_fuzzed_runs_on_dask(name: str, dask_client: Any) -> None:
    executor = dask_client.get_executor()
    given(run=RUNS)(FUZZ(lambda run: _fuzzed(name, executor, run)))()
