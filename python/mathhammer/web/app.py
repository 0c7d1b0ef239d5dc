"""The FastAPI application: the JSON API generated from the game registry, and the page at ``/``.

``create_app()`` builds it (docs/web.md). Every action of every game (``mathhammer.games``) becomes
``POST /api/v1/<game>/<action>``; a request body holds the function's keyword arguments and the
answer is ``{"result": result.to_dict(), "summary": result.summary()}``. A request is checked
against the server's limits before it takes a slot (``limits.RequestBounds``: its samples, the grid
its lists make). Each computation runs on a worker thread (the engines release the GIL) under its
own stop token, which a timer stops at the request's time limit, and its answer is built under the
same token; a gate caps how many run at once and how many wait. ``serve`` runs the app on uvicorn
with httptools, its requests' heads bounded (``web.protocol``).
"""

from __future__ import annotations

import asyncio
import ctypes
import dataclasses
import inspect
import json
import logging
import os
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel
from starlette.exceptions import HTTPException as StarletteHTTPException

from mathhammer import __version__, games
from mathhammer.core import entries
from mathhammer.core.game import SWITCHES, Action, Game, LabelledEntries, Library, merge_libraries, merge_library
from mathhammer.core.guard import as_path, shown_path
from mathhammer.core.profiles import profile_to_dict
from mathhammer.core.stop import StopToken, Stopped, stopping
from mathhammer.core.results import MatrixResult
from mathhammer.errors import InputError
from mathhammer.files.library import parse_library
from mathhammer.web.limits import (
    LOOPBACK_HOSTS, MAX_HEADERS, MAX_SAMPLES, AllowedHosts, BodyLimit, Full, Gate, HeaderCount, Limits, RequestBounds,
    TooLarge,
)
from mathhammer.web.models import BUDGETS, SERVER_PARAMETERS, request_models

__all__ = ["API", "ENVIRONMENT", "create_app", "default_hosts", "from_environment", "load_profiles", "result_dict",
           "serve"]

API = "/api/v1"
#: How ``mathhammer serve`` hands its options to worker processes (uvicorn starts them by import string).
ENVIRONMENT = "MATHHAMMER_WEB_OPTIONS"
#: The page and its assets, shipped in the package (docs/web.md, "The page").
STATIC = Path(__file__).parent / "static"
#: Seconds a stopped computation is given to return before the request is answered 504 anyway.
_GRACE = 1.0
#: A computation that ran this long gives the allocator's free memory back afterwards (see _release).
_RELEASE_AFTER = 0.25

try:  # glibc's malloc_trim: free heap pages that the allocator keeps are given back to the system
    _malloc_trim: Any = ctypes.CDLL(None).malloc_trim
    _malloc_trim.argtypes = [ctypes.c_size_t]
except (AttributeError, OSError, TypeError):  # another C library (musl, macOS, Windows): nothing to call
    _malloc_trim = None

log = logging.getLogger("mathhammer.web")


class ErrorBody(BaseModel):
    """Every error answer: what went wrong, the field it names (the engine's ``InputError.field``,
    dotted into profiles: ``weapon.rules.lethal``) and one line saying why."""

    error: str
    field: str | None = None
    message: str


class ResultBody(BaseModel):
    """An action's answer: the result's ``to_dict()`` and its headline figures (``summary()``, or
    null for a result without one)."""

    result: dict[str, Any]
    summary: dict[str, Any] | None = None


_ERRORS: dict[int | str, dict[str, Any]] = {
    status: {"model": ErrorBody, "description": text} for status, text in (
        (400, "the body cannot be read as JSON text, or the Host header names a host this server does not answer to"),
        (408, "the body did not arrive within the server's time limit"), (413, "the body is over 64 KiB"),
        (422, "invalid input, or a grid over the server's limit, naming the field"),
        (431, "more than 100 headers, or (mathhammer serve) a request line and headers over 16 KiB"),
        (503, "the server is full (Retry-After says when to try again)"), (504, "over the time limit"))
}


def load_profiles(paths: Iterable[str | Path]) -> dict[str, Library]:
    """The profile libraries at ``paths`` (files, or folders whose ``.toml`` / ``.json`` libraries are
    all read, as ``mathhammer killteam import`` writes them), merged by game: a name two libraries
    share is "<library>/<name>" in each (:func:`mathhammer.core.game.merge_libraries`)."""
    parts: dict[str, list[tuple[str, Library]]] = {}
    for path in paths:
        path = as_path(path)
        if not path.exists():
            raise InputError(shown_path(path, quoted=False), "no such file or folder")
        files = sorted(p for p in path.iterdir() if p.suffix in (".toml", ".json")
                       and not p.name.endswith(".import.json")) if path.is_dir() else [path]
        for file in files:
            game, library = parse_library(entries.read_file(file), str(file))
            kinds = games.game(game).profile_kinds
            # the profiles and the switches, not the info tables (an imported team's [team] record)
            served = {kind: found for kind, found in library.items() if kind in kinds or kind == SWITCHES}
            parts.setdefault(game, []).append((games.game(game).library_label(library, str(file)), served))
    return {game: merge_libraries(found, list(games.game(game).profile_kinds)) for game, found in parts.items()}


def _libraries(extra: Mapping[str, Library]) -> dict[str, Library]:
    """Per game: its bundled examples, then the libraries the server was given."""
    out: dict[str, Library] = {}
    for game in games.all_games():
        library = {kind: dict(found) for kind, found in game.default_library().items()}
        for kind, found in extra.get(game.name, {}).items():
            if kind == SWITCHES:  # the switches of one name add up
                merge_library(library, {SWITCHES: found})
                continue
            # libraries given together keep saying which each entry came from (ambiguous names list them so)
            merged = LabelledEntries(library.get(kind, {}), getattr(found, "labels", None))
            merged.update(found)
            library[kind] = merged if merged.labels else dict(merged)
        out[game.name] = library
    return out


def _profiles_document(libraries: Mapping[str, Library]) -> dict[str, Any]:
    """{game: {kind: {name: fields}}}: the built-in profiles and every library entry, by name."""
    document: dict[str, Any] = {}
    for game in games.all_games():
        kinds: dict[str, Any] = {}
        for kind in game.profile_kinds:
            named = {**game.builtin_profiles(kind), **libraries[game.name].get(kind, {})}
            kinds[kind] = {str(name): profile_to_dict(profile) for name, profile in sorted(named.items())}
        document[game.name] = kinds
    return document


def _error(status: int, error: str, message: str, field: str | None = None,
           headers: Mapping[str, str] | None = None) -> JSONResponse:
    return JSONResponse({"error": error, "field": field, "message": message}, status_code=status,
                        headers=dict(headers or {}))


def _pydantic_field(location: Sequence[Any], tags: set[str]) -> str:
    """A Pydantic error location as the engine names fields: ``weapon.rules``, ``batches[0].weapon``
    (without "body" and without the union members Pydantic names in it)."""
    field = ""
    for part in location[1:] if location and location[0] == "body" else location:
        if isinstance(part, int):
            field += f"[{part}]"
        elif part not in tags and not str(part).startswith(("function-", "tuple[", "dict[", "union[")):
            field += f".{part}" if field else str(part)
    return field or "body"


def _takes(function: Callable[..., Any], name: str) -> bool:
    parameters = inspect.signature(function).parameters
    return name in parameters or any(p.kind is p.VAR_KEYWORD for p in parameters.values())


@dataclasses.dataclass(frozen=True)
class _Endpoint:
    """What a request to one action needs, worked out once when the app is built."""

    game: Game
    action: Action
    checked: bool  # its model names every key (extra="forbid"): keys and required ones already checked
    threads: bool  # its function takes threads
    bounds: RequestBounds


def result_dict(result: Any) -> dict[str, Any]:
    """A result as the API answers it: its ``to_dict()``; a comparison as the rows of its
    ``to_frame()``, a row per cell (its ``to_dict()`` holds every cell's whole result: the grid's
    bound would no longer bound the answer, docs/web.md "Limits")."""
    if isinstance(result, MatrixResult):
        return {"rows": result.to_frame().to_dict(orient="records")}
    answer: dict[str, Any] = result.to_dict()
    return answer


def _answer(result: Any, token: StopToken) -> bytes:
    """A finished computation's answer, built under the request's stop token: the token is checked
    between the stages of building it (each bounded by the request's grid), so the time limit holds
    to the last byte of the answer, not only to the engine's last step."""
    token.check()
    rows = result_dict(result)
    token.check()
    summary = result.summary() if hasattr(result, "summary") else None
    token.check()
    data = json.dumps({"result": rows, "summary": summary}, allow_nan=False, separators=(",", ":")).encode()
    token.check()
    return data


def _release(seconds: float) -> None:
    """After a long computation (a large grid, a fight's solver tables, a run stopped at its time
    limit), give the free memory the allocator keeps back to the system: glibc keeps the freed heap
    of each worker thread's arena otherwise, and the server's memory would stay at its peak. About a
    millisecond; after short requests it is not worth it (docs/web.md, "Limits")."""
    if _malloc_trim is not None and seconds >= _RELEASE_AFTER:
        _malloc_trim(0)


def _compute(endpoint: _Endpoint, kwargs: dict[str, Any], library: Library, token: StopToken) -> bytes:
    """One request's computation, on a worker thread: its profiles resolved, the engine called under
    the request's stop token (context variables do not follow a call to another thread, so the token
    is entered here), the answer built under it."""
    game, action = endpoint.game, endpoint.action
    start = time.perf_counter()
    try:
        with stopping(token):
            if endpoint.checked:  # the model checked the keys: turn on the switches it names, if any
                kwargs = entries.resolve_keywords(game, action, kwargs, entries.switched(game, kwargs, library))
            else:
                kwargs = entries.prepare(game, action, kwargs, library)
            if endpoint.threads:
                kwargs["threads"] = 1  # one core per computation: the gate runs one computation per core
            return _answer(action.function(**kwargs), token)
    finally:
        _release(time.perf_counter() - start)


def _budget_message(error: InputError, action: Action) -> str:
    """An exact engine's budget error as a client of this server can act on it: a request may lower
    ``max_states`` / ``max_memory`` but not raise them, so instead of "raise max_states=" the
    message says how far this server goes."""
    needs = str(error)[len(error.field) + 2:].split("; raise", 1)[0]
    parameter = inspect.signature(action.function).parameters.get(error.field)
    if parameter is not None and isinstance(parameter.default, int):
        accepts = f"this server accepts {error.field} up to {parameter.default:,} (the engine's default)"
    else:
        accepts = f"this server's {action.cli} keeps the engine's default {error.field}"
    return f"{error.field}: {needs}; {accepts}, so ask for a smaller computation (fewer rounds or dice)"


def _json_position(error: RequestValidationError, position: int) -> str:
    """Where a body stops being JSON, as a character offset into its text (a JSON decoder counts
    characters, not bytes) with its line and column."""
    text = error.body
    if not isinstance(text, str) or not 0 <= position <= len(text):
        return f"at character {position}"
    line = text.count("\n", 0, position) + 1
    column = position - (text.rfind("\n", 0, position) + 1) + 1
    return f"at character {position} (line {line}, column {column})"


class _Security:
    """ASGI middleware: every answer says the page may load nothing from another host."""

    HEADERS = [
        (b"content-security-policy", b"default-src 'self'; img-src 'self' data:; object-src 'none'; "
                                     b"base-uri 'none'; form-action 'self'; frame-ancestors 'none'"),
        (b"x-content-type-options", b"nosniff"),
        (b"referrer-policy", b"no-referrer"),
    ]

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        async def with_headers(message: Any) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = [*message.get("headers", []), *self.HEADERS]
            await send(message)

        await self.app(scope, receive, with_headers if scope["type"] == "http" else send)


def create_app(profiles: Iterable[str | Path] = (), limits: Limits | None = None,
               hosts: Iterable[str] | None = None) -> FastAPI:
    """The ASGI application (docs/web.md): the API under ``/api/v1`` and the page at ``/``.

    ``profiles``: profile library files or folders of them, whose entries requests may name (beside
    each game's built-in and bundled example profiles); ``limits``: the server's bounds (defaults:
    one computation per core, 256 waiting for at most 5 s, 10 s per request, 64 KiB bodies arriving
    within 10 s, grids of 10,000 cells); ``hosts``: the ``Host`` names it answers to (``"*"``: any;
    None, the default, leaves the check to the server it is mounted in: ``mathhammer serve`` passes
    :func:`default_hosts`).
    """
    limits = limits or Limits()
    libraries = _libraries(load_profiles(profiles))
    profiles_json = json.dumps(_profiles_document(libraries), separators=(",", ":")).encode()
    gate = Gate(limits)
    # the app's own threads, one per computation slot; idle between requests, kept for the app's life
    # (an app may be started and stopped several times, as a test client does)
    pool = ThreadPoolExecutor(max_workers=limits.concurrency, thread_name_prefix="mathhammer-web")
    models, profile_models = request_models(games.all_games())
    # the names Pydantic gives a union's members in an error's location, which a field name is not
    tags = {model.__name__ for model in (*models.values(), *profile_models)} | {"str", "int", "bool", "float", "none"}

    app = FastAPI(title="mathhammer", version=__version__,
                  description="Outcome distributions of tabletop dice combat, exact or Monte Carlo (docs/web.md).",
                  openapi_url=f"{API}/openapi.json", docs_url=None, redoc_url=None)  # their pages load a CDN
    app.state.gate = gate
    app.state.limits = limits

    @app.exception_handler(RequestValidationError)
    async def invalid(_: Request, error: RequestValidationError) -> JSONResponse:
        problems = list(error.errors())
        # of a union's failures, the one inside a profile's table says the most
        first = max(problems, key=lambda p: len(p.get("loc", ()))) if problems else {}
        location = first.get("loc", ())
        if first.get("type") == "json_invalid" and len(location) == 2 and isinstance(location[1], int):
            # ("body", offset): where the text stops being JSON, not an index into a list
            reason = first.get("ctx", {}).get("error", "invalid")
            return _error(422, "invalid input", f"body: not valid JSON {_json_position(error, location[1])}: {reason}",
                          "body")
        field = _pydantic_field(location, tags)
        return _error(422, "invalid input", f"{field}: {first.get('msg', 'invalid')}", field)

    @app.exception_handler(StarletteHTTPException)
    async def http_error(_: Request, error: StarletteHTTPException) -> JSONResponse:
        # FastAPI's own answers (a body that is not text, an unknown path, a wrong method) in the same shape
        return _error(error.status_code, "bad request" if error.status_code == 400 else "not served", str(error.detail),
                      headers=error.headers)

    @app.exception_handler(Exception)
    async def failed(_: Request, error: Exception) -> JSONResponse:
        log.error("internal error", exc_info=error)  # the traceback goes to the log, never to the client
        return _error(500, "internal error", "the server failed on this request; it is logged")

    @app.get(f"{API}/health", tags=["service"])
    async def health() -> dict[str, Any]:
        """The server is up: its version, its computations running and waiting, and its limits."""
        return {"status": "ok", "version": __version__, "running": gate.running, "waiting": gate.waiting,
                "concurrency": limits.concurrency, "queue": limits.queue, "time_limit": limits.time_limit,
                "max_samples": MAX_SAMPLES, "max_cells": limits.cells}

    @app.get(f"{API}/profiles", tags=["service"])
    async def profiles_list() -> Response:
        """Every profile a request may name, by game and kind: {game: {kind: {name: fields}}}."""
        return Response(profiles_json, media_type="application/json")

    async def run(endpoint: _Endpoint, kwargs: dict[str, Any]) -> Response:
        try:
            endpoint.bounds.check(kwargs, limits)  # before it takes a slot
        except TooLarge as error:
            return _error(422, "too large", str(error), error.field)
        except InputError as error:
            return _error(422, "invalid input", str(error), error.field)
        try:
            await gate.enter()
        except Full:
            return _error(503, "server full", "every computation slot is busy and the queue is full; try again",
                          headers={"Retry-After": str(max(1, round(limits.wait)))})
        loop = asyncio.get_running_loop()
        token = StopToken()
        timer = loop.call_later(limits.time_limit, token.stop)
        try:
            future = loop.run_in_executor(pool, _compute, endpoint, kwargs, libraries[endpoint.game.name], token)
        except BaseException:
            timer.cancel()
            gate.leave()
            raise

        def finished(done: asyncio.Future[bytes]) -> None:  # the slot is free only when the thread is
            timer.cancel()
            gate.leave()
            if not done.cancelled():
                done.exception()  # read: a computation that stops after its request was answered is not logged

        future.add_done_callback(finished)
        over = f"stopped at this server's time limit of {limits.time_limit:g} s per request"
        # asyncio.wait leaves the future running past its timeout (no second future to cancel, whose
        # result nobody would read); `finished` reads its outcome whenever it comes
        done, _ = await asyncio.wait({future}, timeout=limits.time_limit + _GRACE)
        if not done:  # the engine has not reached a check yet: answer, let it finish
            token.stop()
            return _error(504, "time limit", over)
        try:
            body = future.result()
        except Stopped:
            return _error(504, "time limit", over)
        except InputError as error:
            message = _budget_message(error, endpoint.action) if error.field in BUDGETS else str(error)
            return _error(422, "invalid input", message, error.field)
        return Response(body, media_type="application/json")

    def add_endpoint(game: Game, action: Action, model: type[BaseModel]) -> None:
        found = _Endpoint(game, action, model.model_config.get("extra") == "forbid" and not action.aliases,
                          _takes(action.function, "threads"), RequestBounds(action))

        async def endpoint(body: BaseModel) -> Response:
            return await run(found, body.model_dump(exclude_unset=True, by_alias=True))

        endpoint.__signature__ = inspect.Signature(  # type: ignore[attr-defined]
            [inspect.Parameter("body", inspect.Parameter.KEYWORD_ONLY, annotation=model)])
        endpoint.__name__ = f"{game.name}_{action.name}"
        endpoint.__doc__ = f"{action.help} ({action.function.__module__}.{action.function.__name__})."
        app.add_api_route(f"{API}/{game.cli}/{action.cli}", endpoint, methods=["POST"], tags=[game.title],
                          response_model=None, responses={200: {"model": ResultBody}, **_ERRORS},
                          summary=action.help)

    for game in games.all_games():
        for action in game.actions:
            if any(p in SERVER_PARAMETERS for p in action.required()):
                continue  # nothing a request can give
            add_endpoint(game, action, models[(game.name, action.name)])

    @app.get("/", include_in_schema=False)
    async def page() -> FileResponse:
        return FileResponse(STATIC / "index.html", media_type="text/html")

    # the page's assets under /static only: a catch-all mount would answer the API's wrong methods
    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    app.add_middleware(BodyLimit, limit=limits.body, seconds=limits.body_seconds)
    app.add_middleware(HeaderCount, limit=MAX_HEADERS)
    if hosts is not None:
        app.add_middleware(AllowedHosts, hosts=list(hosts))
    app.add_middleware(_Security)  # the outermost: every answer carries its headers, a refusal's too
    return app


def from_environment() -> FastAPI:
    """The app as ``mathhammer serve`` configures it in each worker process (options in
    :data:`ENVIRONMENT`, a JSON object of ``profiles``, ``limits`` and ``hosts``)."""
    options = json.loads(os.environ.get(ENVIRONMENT, "{}"))
    return create_app(options.get("profiles", ()), Limits(**options.get("limits", {})), options.get("hosts"))


def default_hosts(host: str) -> list[str]:
    """The ``Host`` names a server bound to ``host`` answers to by default: the loopback names and
    the bound address itself."""
    return list(dict.fromkeys([*LOOPBACK_HOSTS, host]))


def serve(host: str, port: int, workers: int, profiles: Sequence[str], limits: Limits, hosts: Sequence[str]) -> None:
    """Run the app on uvicorn (what ``mathhammer serve`` does) until it is stopped: with httptools,
    fed at most 16 KiB of a request's line and headers (:class:`~mathhammer.web.protocol.BoundedHttpTools`)."""
    import uvicorn

    from mathhammer.web.protocol import BoundedHttpTools

    os.environ[ENVIRONMENT] = json.dumps({"profiles": list(profiles), "limits": dataclasses.asdict(limits),
                                          "hosts": list(hosts)})
    # uvicorn starts worker processes from an import string; each builds the app from the options above
    uvicorn.run("mathhammer.web.app:from_environment", factory=True, host=host, port=port, workers=workers,
                log_level="warning", server_header=False, http=BoundedHttpTools)
