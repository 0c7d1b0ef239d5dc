"""The engine call a command makes, handed back instead of run.

Every command a sweep can run makes its one engine call through :func:`call_engine`. Inside
:func:`capture_call` that call is not made: the command has read its options, resolved its profiles
and checked them exactly as it does when it runs, and :func:`capture_call` returns the engine
function and the arguments the command gives it. ``mathhammer sweep`` uses it to run a grid through
``mathhammer.sweep`` on the action's own function (docs/sweeps.md, "From the command line").
"""

from __future__ import annotations

import contextvars
import inspect
from collections.abc import Callable
from typing import Any, TypeVar

__all__ = ["call_engine", "capture_call"]

T = TypeVar("T")

_CAPTURING: contextvars.ContextVar[bool] = contextvars.ContextVar("mathhammer_capture_call", default=False)


class _EngineCall(BaseException):
    """Raised by :func:`call_engine` while capturing (a BaseException: no ``except Exception`` on the
    way takes it for a failure)."""

    def __init__(self, fn: Callable[..., Any], arguments: dict[str, Any]) -> None:
        super().__init__(getattr(fn, "__name__", "engine call"))
        self.fn = fn
        self.arguments = arguments


def call_engine(fn: Callable[..., T], /, *args: Any, **kwargs: Any) -> T:
    """``fn(*args, **kwargs)``; inside :func:`capture_call`, that call handed back instead."""
    if _CAPTURING.get():
        bound = inspect.signature(fn).bind(*args, **kwargs)
        arguments: dict[str, Any] = {}
        for name, value in bound.arguments.items():
            if bound.signature.parameters[name].kind is inspect.Parameter.VAR_KEYWORD:
                arguments.update(value)
            else:
                arguments[name] = value
        raise _EngineCall(fn, arguments)
    return fn(*args, **kwargs)


def capture_call(command: Callable[..., Any], **options: Any) -> tuple[Callable[..., Any], dict[str, Any]]:
    """The engine function ``command(**options)`` calls and its arguments by name (the progress
    callback left out), without running it. The command's own errors (a bad option) go up."""
    from mathhammer.cli.output import capture

    token = _CAPTURING.set(True)
    quiet = capture.set(_discard)  # no progress bar, nothing printed
    try:
        command(**options)
    except _EngineCall as call:
        call.arguments.pop("progress", None)
        return call.fn, call.arguments
    finally:
        capture.reset(quiet)
        _CAPTURING.reset(token)
    raise RuntimeError(f"{getattr(command, '__name__', 'the command')} made no engine call through call_engine")


def _discard(payload: dict[str, Any]) -> None:
    """A command's output while its call is captured: none."""
