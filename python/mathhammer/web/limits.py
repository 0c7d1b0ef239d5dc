"""What bounds the work one server does for strangers (docs/web.md, "Limits").

:class:`Limits` holds the numbers; :class:`Gate` caps the computations running at once and the
requests waiting behind them; :class:`BodyLimit` refuses a request body over its size before the
application reads it.
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

from mathhammer.core.sampling import usable_cores

__all__ = ["BodyLimit", "Full", "Gate", "Limits"]

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
    computation per request (then its stop token stops it: 504); ``body``: bytes of a request body
    (then 413).
    """

    concurrency: int = dataclasses.field(default_factory=usable_cores)
    queue: int = 256
    wait: float = 5.0
    time_limit: float = 10.0
    body: int = 64 * 1024

    def __post_init__(self) -> None:
        for name in ("concurrency", "queue", "body"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < (0 if name == "queue" else 1):
                raise ValueError(f"{name}: expected a positive integer, got {value!r}")
        for name in ("wait", "time_limit"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not value > 0:
                raise ValueError(f"{name}: expected a positive number of seconds, got {value!r}")


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


class BodyLimit:
    """ASGI middleware: a request body over ``limit`` bytes is answered 413 without reaching the
    application (by its Content-Length, or by counting a body sent in chunks)."""

    def __init__(self, app: ASGIApp, limit: int) -> None:
        self.app = app
        self.limit = limit

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
                    await self._refuse(send)
                    return
        chunks: list[bytes] = []
        size = 0
        while True:  # the whole body (at most the limit) read first, then handed on
            message = await receive()
            if message["type"] == "http.disconnect":
                return
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > self.limit:
                await self._refuse(send)
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

    async def _refuse(self, send: Send) -> None:
        payload = {"error": "request too large", "field": None,
                   "message": f"the request body is over the limit of {self.limit // 1024} KiB"}
        data = json.dumps(payload).encode()
        await send({"type": "http.response.start", "status": 413,
                    "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(data)).encode()),
                                (b"connection", b"close")]})
        await send({"type": "http.response.body", "body": data})
