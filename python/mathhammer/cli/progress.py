"""Progress bars on the terminal for long Monte Carlo runs (Rich, on stderr)."""

from __future__ import annotations

import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from mathhammer.cli.output import capture

__all__ = ["PROGRESS_DELAY", "ProgressGroup", "progress_bar"]

#: progress(done, total), as every engine function takes it.
Progress = Callable[[int, int], None]

#: A progress bar appears only once a Monte Carlo run has taken longer than this many seconds.
PROGRESS_DELAY: float = 1.0


class ProgressGroup:
    """Rich progress bars on stderr for a run of Monte Carlo jobs (one task each).

    Shown only when stderr is a terminal, and only once a job has taken longer than ``delay``
    seconds (default :data:`PROGRESS_DELAY`); transient, so nothing is left behind.
    ``callback(description)`` gives the ``progress(done, total)`` to pass to a game's function (a
    no-op when no bar is shown). Monte Carlo runs always work in batches, so Ctrl-C stops them
    between batches either way.
    """

    def __init__(self, enabled: bool = True, delay: float | None = None) -> None:
        self._enabled = enabled and sys.stderr.isatty() and capture.get() is None
        self._delay = PROGRESS_DELAY if delay is None else delay
        self._bar: Any = None

    def __enter__(self) -> ProgressGroup:
        return self

    def __exit__(self, *exc: Any) -> None:
        if self._bar is not None:
            self._bar.stop()

    def callback(self, description: str) -> Progress:
        if not self._enabled:
            return _no_progress
        started = time.monotonic()
        task: list[Any] = []

        def update(done: int, total: int) -> None:
            if not task:
                if time.monotonic() - started < self._delay:
                    return
                if self._bar is None:
                    from rich.console import Console
                    from rich.progress import BarColumn, TaskProgressColumn, TimeRemainingColumn
                    from rich.progress import Progress as RichProgress

                    self._bar = RichProgress(
                        "[progress.description]{task.description}", BarColumn(), TaskProgressColumn(),
                        TimeRemainingColumn(), console=Console(stderr=True), transient=True,
                    )
                    self._bar.start()
                task.append(self._bar.add_task(description, total=total))
            self._bar.update(task[0], completed=done)

        return update


def _no_progress(done: int, total: int) -> None:
    """Progress nobody watches (see :class:`ProgressGroup`)."""


@contextmanager
def progress_bar(description: str, enabled: bool = True, delay: float | None = None) -> Iterator[Progress]:
    """One progress bar (see :class:`ProgressGroup`): yields the ``progress(done, total)`` callback."""
    with ProgressGroup(enabled, delay) as group:
        yield group.callback(description)
