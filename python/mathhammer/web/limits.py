"""What bounds the work one server does for strangers, and who may reach it (docs/web.md, "Limits").

:class:`Limits` holds the numbers; :class:`RequestBounds` refuses a request whose lists ask for too
large a grid, or whose samples add up to too many, before it takes a slot; :class:`Gate` caps the
computations running at once and the requests waiting behind them; :class:`BodyLimit` refuses a
request body over its size, or one that does not arrive in time, before the application reads it;
:class:`HeaderCount` refuses a request of too many headers; :class:`AllowedHosts` refuses a
``Host`` header the server does not answer to.
"""

from __future__ import annotations

import asyncio
import dataclasses
import inspect
import json
import math
from collections.abc import Awaitable, Callable, Iterable, Mapping, MutableMapping, Sized
from typing import Any

from mathhammer.core.game import Action, Library
from mathhammer.core.guard import excerpt
from mathhammer.core.sampling import usable_cores
from mathhammer.errors import InputError

__all__ = ["LOOPBACK_HOSTS", "MAX_HEADERS", "MAX_SAMPLES", "AllowedHosts", "BodyLimit", "Full", "Gate", "HeaderCount",
           "Limits", "RequestBounds", "TooLarge", "host_name"]

#: The most Monte Carlo samples one request may name, added up over every place it names them.
MAX_SAMPLES = 10**7

#: The most headers a request may have (then 431); their size is bounded by the server (``web.protocol``).
MAX_HEADERS = 100

#: The names a loopback server answers to by default (``mathhammer serve`` adds the address it binds).
LOOPBACK_HOSTS = ("localhost", "127.0.0.1", "[::1]")

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]


@dataclasses.dataclass(frozen=True)
class Limits:
    """The limits of one server process.

    ``concurrency``: computations at once (default: the usable cores); ``queue``: requests that may
    wait for a free slot, each at most ``wait`` seconds (then 503); ``time_limit``: seconds of
    computation per request, building its answer included (then its stop token stops it: 504);
    ``body``: bytes of a request body (then 413), which must arrive within ``body_seconds`` (then
    408); ``cells``: the cells of the grid a request's lists make (:meth:`RequestBounds.grid`; then 422);
    ``rows``: the rows of an answer's long table an action says it will hold (``Action.rows``: a
    matchup's pairings; then 422). Two 60-operative teams of two ranged and two melee weapons each
    make 43,200 rows at the defaults.
    """

    concurrency: int = dataclasses.field(default_factory=usable_cores)
    queue: int = 256
    wait: float = 5.0
    time_limit: float = 10.0
    body: int = 64 * 1024
    body_seconds: float = 10.0
    cells: int = 10_000
    rows: int = 50_000

    def __post_init__(self) -> None:
        for name in ("concurrency", "queue", "body", "cells", "rows"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < (0 if name == "queue" else 1):
                raise ValueError(f"{name}: expected a positive integer, got {value!r}")
        for name in ("wait", "time_limit", "body_seconds"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not value > 0:
                raise ValueError(f"{name}: expected a positive number of seconds, got {value!r}")


class TooLarge(InputError):
    """A request whose lists make a grid over :attr:`Limits.cells` (answered 422, naming the list)."""


class RequestBounds:
    """What one action's requests may ask for, worked out once per action: :meth:`grid` is the grid
    a request's lists make, :meth:`check` refuses a request over the server's limits."""

    def __init__(self, action: Action) -> None:
        self.rows = action.rows
        # the arguments that take a table of labelled profiles (a comparison's {label: fighter}, a melee's sides)
        self.tables = frozenset({*action.profile_lists, *action.profile_tables})
        # the list parameters with a default, at its length (kt.compare's five saves and 25 thresholds)
        self.defaults = tuple((name, len(parameter.default))
                              for name, parameter in inspect.signature(action.function).parameters.items()
                              if isinstance(parameter.default, Sized)
                              and not isinstance(parameter.default, (str, bytes, Mapping)))

    def grid(self, kwargs: Mapping[str, Any]) -> list[tuple[str, int]]:
        """The axes of the grid a request's lists make, each as (request key, length): every list the
        request gives at its top level, every table of labelled profiles the action takes, and every
        list parameter the request leaves out, at its default's length.

        A comparison computes one result per cell of the grid and answers a number or a row per
        cell, so its product bounds what the computation holds and the size of its answer, from the
        request's own sizes, before anything runs. (An action whose work grows with something its
        lists do not show needs its own bound beside this one.)
        """
        axes = [(name, len(value)) for name, value in kwargs.items()
                if isinstance(value, (list, tuple)) or (name in self.tables and isinstance(value, Mapping))]
        return axes + [(name, length) for name, length in self.defaults if name not in kwargs]

    def check(self, kwargs: Mapping[str, Any], limits: Limits, library: Library | None = None) -> None:
        """Refuse, before it takes a slot, a request that names more than :data:`MAX_SAMPLES` samples
        in all or any ``threads`` (InputError), whose lists make a grid of more than
        ``limits.cells`` cells (:class:`TooLarge`, naming its longest list), or whose answer would
        hold more than ``limits.rows`` rows by its action's count (``Action.rows``, from what the
        request names in ``library``; :class:`TooLarge` naming the argument they grow with)."""
        found: list[tuple[str, int]] = []
        _samples_and_threads(kwargs, "", found)
        total = 0
        for field, samples in found:
            if samples > MAX_SAMPLES:
                raise InputError(field, f"{samples} is over this server's limit of {MAX_SAMPLES:,} per request")
            total += samples
            if total > MAX_SAMPLES:
                raise InputError(field, f"the request's samples add up to {total:,} here, over this server's limit "
                                 f"of {MAX_SAMPLES:,} per request (the samples of every place that names them, added up)")
        axes = self.grid(kwargs)
        cells = math.prod(max(1, length) for _, length in axes)
        if cells > limits.cells:
            field = max(axes, key=lambda axis: axis[1])[0]
            sizes = " x ".join(f"{length:,} {name}" for name, length in axes if length > 1)
            raise TooLarge(field, f"the request's lists make a grid of {cells:,} cells ({sizes}), over this server's "
                           f"limit of {limits.cells:,} per request; ask for fewer")
        if self.rows is not None:
            rows, field, why = self.rows(dict(kwargs), library or {})
            if rows > limits.rows:
                raise TooLarge(field, f"the answer would hold {rows:,} rows: {why}, over this server's limit of "
                               f"{limits.rows:,} per request; ask for fewer (smaller teams, one kind of attack, "
                               "fewer options)")


def _samples_and_threads(value: Any, where: str, found: list[tuple[str, int]]) -> None:
    """Every ``samples`` a request names, with its place (``situations[1].samples``); a ``threads``
    anywhere is refused: beside the keys the models bound, a kt.compare situation or a **kwargs
    option carries its own."""
    if isinstance(value, Mapping):
        for key, inner in value.items():
            field = f"{where}.{key}" if where else str(key)
            if key == "samples" and isinstance(inner, int) and not isinstance(inner, bool):
                found.append((field, inner))
            if key == "threads":
                raise InputError(field, "set by the server (one per computation); leave it out")
            _samples_and_threads(inner, field, found)
    elif isinstance(value, (list, tuple)):
        for i, inner in enumerate(value):
            _samples_and_threads(inner, f"{where}[{i}]", found)


class Full(Exception):
    """No slot came free in time, or the queue is full: the request is answered 503."""


class Gate:
    """At most ``limits.concurrency`` computations at once; at most ``limits.queue`` requests
    waiting, each at most ``limits.wait`` seconds. Used from the event loop only."""

    def __init__(self, limits: Limits) -> None:
        self.limits = limits
        self.running = 0
        self.waiting = 0
        self._semaphore: asyncio.Semaphore | None = None
        self._loop: asyncio.AbstractEventLoop | None = None

    async def enter(self) -> None:
        """Take a slot or raise :class:`Full`; every successful enter is paired with :meth:`leave`."""
        loop = asyncio.get_running_loop()
        if self._semaphore is None or (self._loop is not loop and self.running == 0 and self.waiting == 0):
            # made inside the loop that serves: an idle app started again on another loop (a test
            # client's) gets a fresh one, since an asyncio semaphore belongs to one loop
            self._semaphore = asyncio.Semaphore(self.limits.concurrency)
            self._loop = loop
        if self._semaphore.locked():
            if self.waiting >= self.limits.queue:
                raise Full
            self.waiting += 1
            try:
                await asyncio.wait_for(self._semaphore.acquire(), self.limits.wait)
            except asyncio.TimeoutError:
                raise Full from None
            finally:
                self.waiting -= 1
        else:
            await self._semaphore.acquire()
        self.running += 1

    def leave(self) -> None:
        assert self._semaphore is not None
        self.running -= 1
        self._semaphore.release()


async def _answer(send: Send, status: int, error: str, message: str) -> None:
    """An error answer in the API's one shape, from a middleware, closing the connection (the rest
    of what the client sends is not read)."""
    data = json.dumps({"error": error, "field": None, "message": message}).encode()
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(data)).encode()),
                            (b"connection", b"close")]})
    await send({"type": "http.response.body", "body": data})


class BodyLimit:
    """ASGI middleware: a request body over ``limit`` bytes is answered 413 without reaching the
    application (by its Content-Length, or by counting a body sent in chunks), and one that has not
    arrived whole ``seconds`` after the request began is answered 408 (a client trickling its body
    would otherwise hold a connection for ever)."""

    def __init__(self, app: ASGIApp, limit: int, seconds: float) -> None:
        self.app = app
        self.limit = limit
        self.seconds = seconds

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        for name, value in scope.get("headers", ()):
            if name == b"content-length":
                try:
                    declared = int(value)
                except ValueError:
                    declared = -1
                if declared > self.limit:
                    await self._too_large(send)
                    return
        chunks: list[bytes] = []
        size = 0
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self.seconds
        while True:  # the whole body (at most the limit) read first, then handed on
            try:
                message = await asyncio.wait_for(receive(), deadline - loop.time())
            except asyncio.TimeoutError:
                await _answer(send, 408, "request timeout",
                              f"the request body did not arrive within this server's limit of {self.seconds:g} s")
                return
            if message["type"] == "http.disconnect":
                return
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > self.limit:
                await self._too_large(send)
                return
            chunks.append(chunk)
            if not message.get("more_body", False):
                break
        body = b"".join(chunks)
        sent = False

        async def replay() -> Message:
            nonlocal sent
            if not sent:
                sent = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        await self.app(scope, replay, send)

    async def _too_large(self, send: Send) -> None:
        await _answer(send, 413, "request too large", f"the request body is over the limit of {self.limit // 1024} KiB")


class HeaderCount:
    """ASGI middleware: a request of more than ``limit`` headers is answered 431 (their bytes are
    bounded before they reach the app: ``web.protocol``)."""

    def __init__(self, app: ASGIApp, limit: int) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and len(scope.get("headers", ())) > self.limit:
            await _answer(send, 431, "too many headers",
                          f"the request has {len(scope['headers'])} headers, over this server's limit of {self.limit}")
            return
        await self.app(scope, receive, send)


def host_name(value: str) -> str:
    """A ``Host`` header (or an address) as the name it compares by: lower case, without its port
    or a final dot, an IPv6 address in brackets (``[::1]``)."""
    value = value.strip().lower()
    if value.startswith("["):  # [::1]:8000
        return value[:value.find("]") + 1] if "]" in value else value
    if value.count(":") > 1:  # a bare IPv6 address, as --host gives it
        return f"[{value}]"
    return value.rsplit(":", 1)[0].rstrip(".") if ":" in value else value.rstrip(".")


class AllowedHosts:
    """ASGI middleware: a request whose ``Host`` header names none of ``hosts`` is answered 400.

    A web page cannot read a loopback server's answers, but a page whose own name the attacker
    points at 127.0.0.1 (DNS rebinding) can: its requests carry that name as their Host, which is
    refused here. ``"*"`` among the hosts answers any (behind a proxy that checks them itself).
    """

    def __init__(self, app: ASGIApp, hosts: Iterable[str]) -> None:
        self.app = app
        names = list(hosts)
        self.any = "*" in names
        self.hosts = frozenset(host_name(name) for name in names if name != "*")

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] in ("http", "websocket") and not self.any:
            given = next((value for name, value in scope.get("headers", ()) if name == b"host"), None)
            host = given.decode("latin-1") if given is not None else None
            if host is None or host_name(host) not in self.hosts:
                if scope["type"] == "websocket":  # no such route either: closed before it is accepted
                    await send({"type": "websocket.close", "code": 1008})
                    return
                named = "names no host" if host is None else f"names {excerpt(host)}"
                await _answer(send, 400, "host not allowed",
                              f"the request's Host header {named}, which this server does not answer to "
                              "(mathhammer serve --allowed-hosts)")
                return
        await self.app(scope, receive, send)
