"""Seeds, chunks, threads and progress for every Monte Carlo engine.

A run of ``samples`` draws is cut into fixed-size chunks (``CHUNK_SAMPLES``); chunk ``k`` uses the
random stream ``(seed, k)`` and nothing else. The C++ kernels sum integer histograms, so the result
depends on the seed and the inputs only: the same for 1, 2 or 64 threads, for one call or many, and
for any ``concurrent.futures`` executor the batches are handed to.
"""

from __future__ import annotations

import os
import secrets
from collections.abc import Callable
from concurrent.futures import Executor
from typing import Protocol

import numpy as np

from mathhammer import _core
from mathhammer._validate import InputTypeError, check_int

CHUNK_SAMPLES: int = int(_core.core.CHUNK_SAMPLES)
MAX_SAMPLES: int = 10_000_000_000
MAX_THREADS: int = 256

#: progress(done_samples, total_samples) is called between batches, from the calling thread.
Progress = Callable[[int, int], None]


class Kernel(Protocol):
    """A C++ Monte Carlo entry point: counts for chunks [chunk_begin, chunk_end) of a run."""

    def __call__(self, seed: int, total: int, chunk_begin: int, chunk_end: int, threads: int) -> np.ndarray: ...


def resolve_seed(seed: int | None) -> int:
    """A 64-bit seed; None draws one from the operating system."""
    if seed is None:
        return secrets.randbits(64)
    return check_int("seed", seed, 0, 2**64 - 1)


def resolve_threads(threads: int | None) -> int:
    """Threads to use; None means every core this process may use."""
    if threads is None:
        try:
            return max(1, len(os.sched_getaffinity(0)))
        except AttributeError:  # pragma: no cover - not on Linux
            return max(1, os.cpu_count() or 1)
    return check_int("threads", threads, 1, MAX_THREADS)


def check_samples(samples: int) -> int:
    return check_int("samples", samples, 1, MAX_SAMPLES)


def run_monte_carlo(
    kernel: Kernel,
    samples: int,
    seed: int,
    threads: int,
    progress: Progress | None = None,
    executor: Executor | None = None,
) -> np.ndarray:
    """Sum the kernel's histograms over all chunks of a run of ``samples``.

    Work is always issued in batches of chunks, so that ``progress`` is called and Ctrl-C is honoured
    between batches (the C++ loop runs without the GIL). With ``executor`` the batches are submitted to it
    instead (a thread pool, or anything with the ``concurrent.futures`` interface that can run the
    kernel); the sum is the same.
    """
    if not callable(kernel):
        raise InputTypeError("kernel", "expected a callable C++ kernel")
    n_chunks = (samples + CHUNK_SAMPLES - 1) // CHUNK_SAMPLES
    # Enough chunks per batch to keep every thread busy, few enough for a lively progress bar and
    # for Ctrl-C to stop a long run promptly (Python raises KeyboardInterrupt between batches).
    per_batch = max(4 * threads, 16)
    batches = [(c, min(c + per_batch, n_chunks)) for c in range(0, n_chunks, per_batch)]
    total: np.ndarray | None = None

    def add(counts: np.ndarray) -> None:
        nonlocal total
        counts = np.asarray(counts, dtype=np.uint64)
        total = counts.copy() if total is None else total + counts

    if executor is not None:
        futures = [executor.submit(kernel, seed, samples, b, e, threads) for b, e in batches]
        for (b, e), future in zip(batches, futures):
            add(future.result())
            if progress is not None:
                progress(min(e * CHUNK_SAMPLES, samples), samples)
    else:
        for b, e in batches:
            add(kernel(seed, samples, b, e, threads))
            if progress is not None:
                progress(min(e * CHUNK_SAMPLES, samples), samples)
    assert total is not None
    return total
