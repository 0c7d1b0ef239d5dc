"""Stopping one call without stopping the others: a stop token per call.

A program that embeds the engine (a web back end, a notebook server, a batch farm) runs many calls
at once and must be able to stop one of them: a request over its time limit, a call whose
progress callback failed. Ctrl-C is different: it is meant for the whole run and still stops every
computation in the process within a second (``mathhammer.core.sampling``).

``with stopping(token):`` makes ``token`` the stop of every engine call made inside the block, on
this thread (and on the threads those calls hand work to). ``token.stop()``, from any thread, makes
them raise :class:`Stopped` at their next check: a Monte Carlo run between its batches (each about a
quarter of a second) and, inside the compiled core, at the next chunk, sample or state it checks.
A token may have a parent: stopping the parent stops it too, never the other way round, so a call
that stops its own work on failure leaves the caller's other calls running.

    token = StopToken()
    timer = threading.Timer(10.0, token.stop)  # a time limit
    timer.start()
    try:
        with stopping(token):
            result = kt.fight(a, b, method="monte_carlo", samples=10**9)
    except Stopped:
        ...  # this call only; others in the process ran on
    finally:
        timer.cancel()
"""

from __future__ import annotations

import contextlib
import contextvars
import threading
from collections.abc import Iterator

__all__ = ["StopToken", "Stopped", "adopt", "current", "stopping"]


class Stopped(Exception):
    """An engine call stopped by its :class:`StopToken` (a time limit, a failure of the call it
    served), not by Ctrl-C (which raises KeyboardInterrupt)."""


class StopToken:
    """A stop for the calls made inside ``with stopping(token):`` (see the module docstring)."""

    __slots__ = ("_event", "_parent")

    def __init__(self, parent: StopToken | None = None) -> None:
        if parent is not None and not isinstance(parent, StopToken):
            raise TypeError(f"parent must be a StopToken or None, not {type(parent).__name__}")
        self._event = threading.Event()
        self._parent = parent

    def stop(self) -> None:
        """Ask the token's calls (and those of its children) to stop; safe from any thread."""
        self._event.set()

    @property
    def stopped(self) -> bool:
        token: StopToken | None = self
        while token is not None:
            if token._event.is_set():
                return True
            token = token._parent
        return False

    def check(self) -> None:
        """Raise :class:`Stopped` when the token (or a parent) was stopped."""
        if self.stopped:
            raise Stopped("stopped by its stop token")

    def child(self) -> StopToken:
        """A token stopped with this one, that can also be stopped alone."""
        return StopToken(self)


_CURRENT: contextvars.ContextVar[StopToken | None] = contextvars.ContextVar("mathhammer_stop", default=None)


def current() -> StopToken | None:
    """The token of the calls made here (None outside any :func:`stopping` block)."""
    return _CURRENT.get()


@contextlib.contextmanager
def stopping(token: StopToken) -> Iterator[StopToken]:
    """Make ``token`` the stop of the engine calls made inside the block (on this thread)."""
    if not isinstance(token, StopToken):
        raise TypeError(f"expected a StopToken, not {type(token).__name__}")
    reset = _CURRENT.set(token)
    try:
        yield token
    finally:
        _CURRENT.reset(reset)


def adopt(token: StopToken) -> None:
    """Make ``token`` the stop of every engine call made from now on on this thread, outside any
    :func:`stopping` block: for a worker process's initializer, whose tasks all run on its main
    thread and are all stopped together (``mathhammer sweep --workers``)."""
    if not isinstance(token, StopToken):
        raise TypeError(f"expected a StopToken, not {type(token).__name__}")
    _CURRENT.set(token)
