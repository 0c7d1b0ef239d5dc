"""The worker processes of ``mathhammer sweep --workers N``, stopped as one when the sweep stops.

Ctrl-C at a terminal reaches the workers too, and a process pool would let each worker answer its
interrupt and then start the next chunk waiting in the pool's queue, so the sweep would stop only
after a chunk's time. Here the workers ignore SIGINT and stop on a message instead: every worker
runs its chunks under one stop token (docs/architecture.md "Stopping one call"), stopped when the
sweep sets the pool's stop event. A running chunk then stops at its next check (within
milliseconds, inside the compiled core too) and a queued chunk at its first cell, so the pool is
gone within a second of Ctrl-C.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import signal
import sys
import threading
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from mathhammer.core import stop


def _worker_starts(stop_event: Any) -> None:
    """A worker process's initializer: ignore Ctrl-C, stop every chunk once ``stop_event`` is set."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    token = stop.StopToken()
    stop.adopt(token)  # the worker's tasks run on this thread

    def watch() -> None:
        stop_event.wait()
        token.stop()

    threading.Thread(target=watch, name="mathhammer-stop-watch", daemon=True).start()


@contextlib.contextmanager
def _ctrl_c_ignored() -> Iterator[None]:
    """Ctrl-C ignored for the block (on the main thread, where signals are handled): a second
    Ctrl-C while the pool stops must not leave it half stopped, its workers waiting forever."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


@contextlib.contextmanager
def worker_pool(workers: int) -> Iterator[ProcessPoolExecutor]:
    """A pool of ``workers`` processes; when the block fails (Ctrl-C, a bad cell) the workers' chunks
    are stopped and the queued ones never run, whatever Ctrl-C follows while they stop."""
    context = multiprocessing.get_context()
    stop_event = context.Event()
    pool = ProcessPoolExecutor(workers, mp_context=context, initializer=_worker_starts, initargs=(stop_event,))
    try:
        yield pool
    except BaseException:
        with _ctrl_c_ignored():
            stop_event.set()
            pool.shutdown(wait=True, cancel_futures=True)
        raise
    pool.shutdown(wait=True)


def capped_workers(workers: int) -> int:
    """At most one worker process per usable core, as ``threads`` is; said on stderr when capped."""
    from mathhammer.core.sampling import usable_cores

    cores = usable_cores()
    if workers > cores:
        sys.stderr.write(f"note: --workers {workers} capped at {cores}, the cores this process may use\n")
        return cores
    return workers
