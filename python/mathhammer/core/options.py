"""The options every engine function shares, defined and checked in one place.

Every engine function (``kt.fight``, ``kt.shoot``, ``kt.attack_dice``, ``sc.attack``,
``sc.sequence``, ``db.combat``, ``db.round``, ``fm.melee``, ``fm.melee_many``) takes the keyword-only
options ``method, samples, seed, threads, progress, executor, variants`` and hands the first six to
:func:`engine_options` before doing any work, whichever engine then runs: a bad value fails the same
way everywhere (an :class:`~mathhammer.InputError` naming the field, or an
:class:`~mathhammer.InputTypeError` for a wrong type). The methods, the default sample count and
the bounds are defined here once; the rule switches (``variants``) are :mod:`mathhammer.core.variants`.
"""

from __future__ import annotations

import contextlib
import contextvars
import dataclasses
import secrets
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import Executor
from typing import Any

from mathhammer.core import stop
from mathhammer.core.checks import check_choice, check_int
from mathhammer.errors import InputTypeError
from mathhammer.core.guard import excerpt

__all__ = [
    "DEFAULT_SAMPLES",
    "EXACT_FIRST",
    "METHODS",
    "MAX_SAMPLES",
    "MAX_SEED",
    "MAX_THREADS",
    "Checked",
    "EngineOptions",
    "Progress",
    "check_only",
    "engine_options",
    "work_starts",
]

#: The engines a call may ask for; "auto" picks exact when its work is small, else Monte Carlo.
METHODS: tuple[str, ...] = ("auto", "exact", "monte_carlo")
#: The same methods in the order of a function whose default is "exact" (its errors list them so).
EXACT_FIRST: tuple[str, ...] = ("exact", "monte_carlo", "auto")
#: Monte Carlo samples when a call gives none.
DEFAULT_SAMPLES: int = 1_000_000
MAX_SAMPLES: int = 10_000_000_000
MAX_THREADS: int = 256
MAX_SEED: int = 2**64 - 1

#: progress(done, total) is called between batches of work, from the calling thread.
Progress = Callable[[int, int], None]


@dataclasses.dataclass(frozen=True)
class EngineOptions:
    """The validated engine options of one call (see :func:`engine_options`)."""

    method: str
    samples: int
    seed: int | None
    threads: int | None
    progress: Progress | None
    executor: Executor | None

    def draw_seed(self) -> int:
        """The seed a Monte Carlo run uses: the one given, else a fresh one from the operating system.

        Results record it, so a run made with ``seed=None`` can be repeated exactly.
        """
        return secrets.randbits(64) if self.seed is None else self.seed


def engine_options(
    method: Any = "auto",
    samples: Any = DEFAULT_SAMPLES,
    seed: Any = None,
    threads: Any = None,
    progress: Any = None,
    executor: Any = None,
    *,
    methods: Iterable[str] = METHODS,
) -> EngineOptions:
    """Check the shared engine options; every engine function calls this before any work.

    method: one of ``methods`` (by default "auto", "exact", "monte_carlo"); samples: 1..10**10;
    seed: None or 0..2**64-1; threads: None or 1..256; progress: None or a callable(done, total);
    executor: None or a ``concurrent.futures.Executor`` (Monte Carlo hands its batches to it; an
    exact run ignores it).
    """
    if seed is None and threads is None and progress is None and executor is None and type(samples) is int \
            and type(method) is str:
        # The common call (defaults but the method): checked once per distinct value, as the checks
        # cost more than a small exact engine call. Exact types only, so True never passes for 1.
        choices = methods if isinstance(methods, tuple) else tuple(methods)
        key = (method, samples, choices)
        cached = _PLAIN_OPTIONS.get(key)
        if cached is None:
            cached = _checked_options(method, samples, None, None, None, None, choices)
            if len(_PLAIN_OPTIONS) < _PLAIN_OPTIONS_MAX:
                _PLAIN_OPTIONS[key] = cached
        return cached
    return _checked_options(method, samples, seed, threads, progress, executor, tuple(methods))


# engine_options' results for calls with default seed, threads, progress and executor (frozen, so shared)
_PLAIN_OPTIONS: dict[tuple[str, int, tuple[str, ...]], EngineOptions] = {}
_PLAIN_OPTIONS_MAX = 256


def _checked_options(method: Any, samples: Any, seed: Any, threads: Any, progress: Any, executor: Any,
                     methods: tuple[str, ...]) -> EngineOptions:
    method = check_choice("method", method, methods)
    samples = check_int("samples", samples, 1, MAX_SAMPLES)
    if seed is not None:
        seed = check_int("seed", seed, 0, MAX_SEED)
    if threads is not None:
        threads = check_int("threads", threads, 1, MAX_THREADS)
    if progress is not None and not callable(progress):
        raise InputTypeError("progress", f"expected None or a callable progress(done, total), got {excerpt(progress)}")
    if executor is not None and not isinstance(executor, Executor):
        raise InputTypeError(
            "executor", f"expected None or a concurrent.futures.Executor, got {type(executor).__name__}"
        )
    return EngineOptions(method, samples, seed, threads, progress, executor)


# ---- checking a call without running it ------------------------------------------------------------

class Checked(BaseException):
    """Raised by an engine function inside :func:`check_only` once its arguments passed every check
    and its plan is made, before any work. A BaseException, so that no ``except Exception`` on the
    way mistakes it for a failure."""


_CHECK_ONLY: contextvars.ContextVar[bool] = contextvars.ContextVar("mathhammer_check_only", default=False)


@contextlib.contextmanager
def check_only() -> Iterator[None]:
    """Inside this block an engine function checks its arguments and plans its work as usual, then
    raises :class:`Checked` instead of computing: how a sweep validates every value of its grid
    before the first cell runs (docs/sweeps.md, "Limits")."""
    token = _CHECK_ONLY.set(True)
    try:
        yield
    finally:
        _CHECK_ONLY.reset(token)


def work_starts() -> None:
    """Every engine function calls this between its checks and its work (see :func:`check_only`).
    A call whose stop token was already stopped (:mod:`mathhammer.core.stop`) stops here."""
    if _CHECK_ONLY.get():
        raise Checked
    token = stop.current()
    if token is not None:
        token.check()
