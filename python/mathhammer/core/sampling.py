"""Seeds, chunks, threads and progress for every Monte Carlo engine.

A run of ``samples`` draws is cut into fixed-size chunks (``CHUNK_SAMPLES``); chunk ``k`` uses the
random stream ``(seed, k)`` and nothing else. The C++ kernels sum integer histograms, so the result
depends on the seed and the inputs only: the same for 1, 2 or 64 threads, for one call or many, and
for any ``concurrent.futures`` executor the batches are handed to.

``threads`` may ask for up to ``MAX_THREADS`` workers; the C++ runs at most as many as the process
has usable cores (``usable_cores()``), so memory does not grow with ``threads`` past the cores.
How many chunks go into one C++ call is sized by elapsed time (about ``BATCH_SECONDS`` a call), so
progress stays lively and Ctrl-C stops any run within a second whatever a sample costs; the C++
itself also stops at the next chunk or sample once Ctrl-C is seen.
"""

from __future__ import annotations

import math
import os
import time
from concurrent.futures import Executor, Future, ThreadPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout
from typing import Protocol

import numpy as np

from mathhammer import _core
from mathhammer.core import configs  # noqa: F401  (registers pickling for the C++ configs)
from mathhammer.core import stop
from mathhammer.core.checks import check_int
# The bounds, the progress callback's type and the seed check are the engine options' own.
from mathhammer.core.options import MAX_SAMPLES as MAX_SAMPLES  # re-exported
from mathhammer.core.options import MAX_THREADS as MAX_THREADS
from mathhammer.core.options import Progress as Progress
from mathhammer.core.options import engine_options
from mathhammer.errors import InputTypeError

CHUNK_SAMPLES: int = int(_core.core.CHUNK_SAMPLES)
#: The elapsed time one batch (one C++ call) of a run aims at.
BATCH_SECONDS: float = 0.25
#: At most this many chunks per worker in one batch (a fast kernel's batches stop growing there).
MAX_CHUNKS_PER_WORKER: int = 64


class Kernel(Protocol):
    """A C++ Monte Carlo entry point: counts for chunks [chunk_begin, chunk_end) of a run."""

    def __call__(self, seed: int, total: int, chunk_begin: int, chunk_end: int, threads: int) -> np.ndarray: ...


def resolve_seed(seed: int | None) -> int:
    """A 64-bit seed; None draws one from the operating system (the engines' own check and draw)."""
    return engine_options(seed=seed).draw_seed()


def resolve_threads(threads: int | None) -> int:
    """Threads to use; None means every core this process may use."""
    if threads is None:
        try:
            return max(1, len(os.sched_getaffinity(0)))
        except AttributeError:  # pragma: no cover - not on Linux
            return max(1, os.cpu_count() or 1)
    return check_int("threads", threads, 1, MAX_THREADS)


def usable_cores() -> int:
    """Cores this process may run on: the most workers any run uses, whatever ``threads`` asks."""
    return int(_core.core.usable_cores())


def next_batch(chunks_done: int, seconds: float, workers: int) -> int:
    """Chunks for the next batch after ``chunks_done`` chunks took ``seconds``: about
    ``BATCH_SECONDS`` of work, a whole number of rounds of the workers, at least one chunk."""
    cap = MAX_CHUNKS_PER_WORKER * workers
    if seconds <= 0.0:
        return cap
    fitting = chunks_done * BATCH_SECONDS / seconds
    rounds = max(1, math.floor(fitting / workers))
    return min(cap, rounds * workers)


def run_monte_carlo(
    kernel: Kernel,
    samples: int,
    seed: int,
    threads: int,
    progress: Progress | None = None,
    executor: Executor | None = None,
) -> np.ndarray:
    """Sum the kernel's histograms over all chunks of a run of ``samples``.

    Work is issued in batches of chunks, so that ``progress`` is called between batches. The first
    batch is one chunk per worker; later ones are sized from the time taken so far to last about
    ``BATCH_SECONDS``. Batch boundaries never change the result (the chunks do). With ``executor``
    the batches (fixed: a few chunks per worker) are submitted to it instead (a thread pool, or
    anything with the ``concurrent.futures`` interface that can run the kernel); the sum is the same.
    Ctrl-C raises KeyboardInterrupt within about a second and stops every computation of the
    process. The run has its own stop token (:mod:`mathhammer.core.stop`), a child of the caller's:
    the caller's token stops it between batches (:class:`~mathhammer.core.stop.Stopped`), and when
    anything fails after work went to the executor (a progress callback, a batch) only this run's
    batches are stopped, and those not yet started are cancelled.
    """
    if not callable(kernel):
        raise InputTypeError("kernel", "expected a callable C++ kernel")
    n_chunks = (samples + CHUNK_SAMPLES - 1) // CHUNK_SAMPLES
    workers = max(1, min(threads, usable_cores()))
    total: np.ndarray | None = None

    def add(counts: np.ndarray) -> None:
        nonlocal total
        counts = np.asarray(counts, dtype=np.uint64)
        total = counts.copy() if total is None else total + counts

    parent = stop.current()
    token = parent.child() if parent is not None else stop.StopToken()
    if executor is not None:
        per_batch = max(4 * workers, 16)
        batches = [(c, min(c + per_batch, n_chunks)) for c in range(0, n_chunks, per_batch)]
        # in-process workers run each batch under this run's token; other executors get the kernel
        # alone (it must pickle), and a stop cancels what they have not started
        in_process = isinstance(executor, ThreadPoolExecutor)
        futures = [executor.submit(_under, token, kernel, seed, samples, b, e, threads) if in_process else
                   executor.submit(kernel, seed, samples, b, e, threads) for b, e in batches]
        try:
            for (b, e), future in zip(batches, futures):
                add(_result(future, token))
                if progress is not None:
                    progress(min(e * CHUNK_SAMPLES, samples), samples)
        except BaseException as error:
            token.stop()  # this run's batches only
            for future in futures:
                future.cancel()
            if isinstance(error, KeyboardInterrupt):
                _core.core.request_interrupt()  # Ctrl-C is for the whole process
            raise
    else:
        begin, size = 0, workers
        started = time.perf_counter()
        while begin < n_chunks:
            token.check()
            end = min(begin + size, n_chunks)
            with stop.stopping(token):
                add(kernel(seed, samples, begin, end, threads))
            begin = end
            if progress is not None:
                progress(min(end * CHUNK_SAMPLES, samples), samples)
            size = next_batch(begin, time.perf_counter() - started, workers)
    assert total is not None
    return total


def _under(token: stop.StopToken, kernel: Kernel, *arguments: int) -> np.ndarray:
    """A batch run on an in-process worker under its run's stop token."""
    token.check()
    with stop.stopping(token):
        return kernel(*arguments)


#: How often a run waiting on an executor looks at its stop token.
_POLL_SECONDS = 0.05


def _result(future: Future[np.ndarray], token: stop.StopToken) -> np.ndarray:
    while True:
        try:
            return future.result(timeout=_POLL_SECONDS)
        except FutureTimeout:
            token.check()


_MASK = (1 << 64) - 1
_GAMMA = 0x9E3779B97F4A7C15


def cell_seed(seed: int, index: int) -> int:
    """The seed of item ``index`` of a run of many seeded with ``seed`` (a sweep's cell, a comparison
    matrix's pairing): splitmix64's output ``index + 1`` of the stream that starts at ``seed``. It
    depends on the seed and the index only, never on chunking or on what executes the item."""
    z = (seed + (index + 1) * _GAMMA) & _MASK
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    return z ^ (z >> 31)
