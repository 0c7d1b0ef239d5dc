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
import gc
import dataclasses
import inspect
import json
import logging
import math
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
from mathhammer.core.game import (
    SWITCHES, TEAMS, Action, Game, LabelledEntries, Library, library_labels, merge_libraries, merge_library,
    merged_names,
)
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

__all__ = ["API", "ENVIRONMENT", "create_app", "default_hosts", "from_environment", "load_profiles", "request_notes",
           "result_dict", "serve"]

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
    """An action's answer: the result's ``to_dict()``, its headline figures (``summary()``, or null
    for a result without one; a matchup's summary tables) and notes: what the request's profiles set
    aside (datacard tokens that change nothing in one shot or fight), then what the result says
    (a team without ranged weapons)."""

    result: dict[str, Any]
    summary: dict[str, Any] | None = None
    notes: list[str] = []


_ERRORS: dict[int | str, dict[str, Any]] = {
    status: {"model": ErrorBody, "description": text} for status, text in (
        (400, "the body cannot be read as JSON text, or the Host header names a host this server does not answer to"),
        (408, "the body did not arrive within the server's time limit"), (413, "the body is over 64 KiB"),
        (422, "invalid input, or a grid or an answer's rows over the server's limit, naming the field"),
        (431, "more than 100 headers, or (mathhammer serve) a request line and headers over 16 KiB"),
        (503, "the server is full (Retry-After says when to try again)"), (504, "over the time limit"))
}


def load_profiles(paths: Iterable[str | Path]) -> dict[str, Library]:
    """The profile libraries at ``paths`` (files, or folders whose ``.toml`` / ``.json`` libraries are
    all read, as ``mathhammer killteam import`` writes them), merged by game: a name two libraries
    share is "<library>/<name>" in each (:func:`mathhammer.core.game.merge_libraries`). A game that
    reads teams (Kill Team's imported team libraries) has them under ``TEAMS``: {label: team}."""
    return _load_profiles(paths)[0]


@dataclasses.dataclass(frozen=True)
class _ServedTeam:
    """One team as the server serves it: the team, and the name each of its library's entries
    has among every library loaded ({kind: {key: name}}: "Kasrkin/Gunner" where names clash)."""

    team: Any
    names: dict[str, dict[str, str]]


def _load_profiles(paths: Iterable[str | Path]) -> tuple[dict[str, Library], dict[str, dict[str, _ServedTeam]]]:
    """:func:`load_profiles`, and each game's teams by label with the names their entries are served by."""
    parts: dict[str, list[tuple[str, Library, Mapping[str, Any], str, Library]]] = {}
    for path in paths:
        path = as_path(path)
        if not path.exists():
            raise InputError(shown_path(path, quoted=False), "no such file or folder")
        files = sorted(p for p in path.iterdir() if p.suffix in (".toml", ".json")
                       and not p.name.endswith(".import.json")) if path.is_dir() else [path]
        for file in files:
            document = entries.read_file(file)
            of, library = parse_library(document, str(file))
            own = games.game(of).profile_kinds
            # the profiles and the switches are served, not the info tables (an imported team's [team]
            # record), which its team is read from
            served_part = {kind: found for kind, found in library.items() if kind in own or kind == SWITCHES}
            parts.setdefault(of, []).append((games.game(of).library_label(library, str(file)), served_part, document,
                                             str(file), library))
    merged: dict[str, Library] = {}
    served: dict[str, dict[str, _ServedTeam]] = {}
    for name, found in parts.items():
        game = games.game(name)
        kinds = list(game.profile_kinds)
        pairs = [(label, library) for label, library, *_ in found]
        merged[name] = merge_libraries(pairs, kinds)
        read_team = game.read_team
        if read_team is None:
            continue
        labels = library_labels([label for label, _ in pairs])
        for label, names, (_, _, document, source, whole) in zip(labels, merged_names(pairs, kinds), found):
            if any(kind in whole for kind in game.info_tables):  # a team library: its team, by its label
                team = read_team(document, whole, source)
                served.setdefault(name, {})[label] = _ServedTeam(team, names)
                merged[name].setdefault(TEAMS, {})[label] = team
    return merged, served


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


def _team_document(served: _ServedTeam, library: Library) -> dict[str, Any]:
    """One team of ``GET /profiles``: its operatives and weapons by the names requests give them,
    each with its team's own name for it, its fields and (a weapon) its kind, the flat kind it is
    served under ("weapon" for a ranged weapon or equipment, "fighter" for an operative's melee
    weapon), its operative and its WR text as the datacard writes it; and the team's switches."""
    team, names = served.team, served.names

    def weapon(key: str, gun: Any, operative: str | None) -> tuple[str, dict[str, Any]]:
        kind = "fighter" if operative is not None and gun.kind == "melee" else "weapon"
        name = names[kind][key]
        return name, {"name": gun.name, "operative": operative, "kind": gun.kind, "served_as": kind, "wr": gun.wr,
                      "fields": profile_to_dict(library[kind][name])}

    operatives: dict[str, Any] = {}
    weapons: dict[str, Any] = {}
    for op in team:
        shown = [weapon(f"{op.name}/{gun.name}", gun, op.name) for gun in op.weapons]
        weapons.update(shown)
        name = names["operative"][op.name]
        operatives[name] = {"name": op.name, "apl": op.apl, "move": op.move, "weapons": [key for key, _ in shown],
                            "fields": profile_to_dict(library["operative"][name])}
    weapons.update(weapon(gun.name, gun, None) for gun in team.equipment)
    # its switches (options under a condition, off until a request names them in kt.matchup's switches)
    switches = {switch.name: switch.to_table() for switch in getattr(team, "switches", ())}
    return {"name": team.name, "source": team.file, "revision": team.revision, "operatives": operatives,
            "weapons": weapons, "switches": switches}


def _profiles_document(libraries: Mapping[str, Library],
                       teams: Mapping[str, Mapping[str, _ServedTeam]]) -> dict[str, Any]:
    """{game: {kind: {name: fields}}}: the built-in profiles and every library entry, by name; and
    for a game that reads teams, ``teams``: {team: {operatives, weapons}} (docs/web.md, "Teams")."""
    document: dict[str, Any] = {}
    for game in games.all_games():
        kinds: dict[str, Any] = {}
        for kind in game.profile_kinds:
            named = {**game.builtin_profiles(kind), **libraries[game.name].get(kind, {})}
            kinds[kind] = {str(name): profile_to_dict(profile) for name, profile in sorted(named.items())}
        if game.read_team is not None:
            kinds["teams"] = {label: _team_document(served, libraries[game.name])
                              for label, served in teams.get(game.name, {}).items()}
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


def request_notes(game: Game, action: Action, kwargs: Mapping[str, Any]) -> list[str]:
    """The notes on what the request's profiles set aside (``Game.profile_notes``: Kill Team's
    datacard tokens that change nothing in one shot or fight, 'Range 8"', Silent), each led by the
    field it is in (``weapon.rules``, ``fighters[1]``), as the command line prints them."""
    notes_of = game.profile_notes
    if notes_of is None:
        return []
    notes: list[str] = []

    def add(field: str, kind: str, value: Any) -> None:
        where = f"{field}.rules" if isinstance(value, Mapping) else field
        notes.extend(f"{where}: {note}" for note in notes_of(kind, value))

    for argument, kind in action.profiles.items():
        if argument in kwargs:
            add(argument, kind, kwargs[argument])
    for argument, kind in {**action.profile_tables, **action.profile_lists}.items():
        value = kwargs.get(argument)
        if isinstance(value, Mapping):
            for label, one in value.items():
                add(f"{argument}.{label}", kind, one)
        elif isinstance(value, (list, tuple)):
            for i, one in enumerate(value):
                add(f"{argument}[{i}]", kind, one)
    return notes


def _answer(result: Any, token: StopToken, notes: Sequence[str] = ()) -> bytes:
    """A finished computation's answer, built under the request's stop token: the token is checked
    between the stages of building it (each bounded by the request's grid, or by its answer's rows),
    so the time limit holds to the last byte of the answer, not only to the engine's last step.
    ``notes``: the request's own (:func:`request_notes`), then the result's (a matchup's "X has no
    ranged weapons")."""
    token.check()
    rows = result_dict(result)
    token.check()
    summary = result.summary() if hasattr(result, "summary") else None
    if summary is not None and not isinstance(summary, Mapping):  # a summary that is a result of its own (a matchup's)
        summary = summary.to_dict()
    token.check()
    own = getattr(result, "notes", ())
    every = [*notes, *(own if isinstance(own, tuple) else ())]
    answer = {"result": rows, "summary": summary, "notes": every}
    try:
        data = json.dumps(answer, allow_nan=False, separators=(",", ":")).encode()
    except ValueError:  # an infinite figure (a weapon that can never kill: its shots to kill), which JSON cannot hold
        token.check()
        data = json.dumps(_finite(answer), allow_nan=False, separators=(",", ":")).encode()
    token.check()
    return data


def _finite(value: Any) -> Any:
    """``value`` with every infinite or NaN number as null (docs/web.md: "never" on the page)."""
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, Mapping):
        return {key: _finite(inner) for key, inner in value.items()}
    if isinstance(value, (list, tuple)):
        return [_finite(inner) for inner in value]
    return value


def _release(seconds: float) -> None:
    """After a long computation (a large grid, a fight's solver tables, a run stopped at its time
    limit), give the free memory the allocator keeps back to the system: glibc keeps the freed heap
    of each worker thread's arena otherwise, and the server's memory would stay at its peak. About a
    millisecond; after short requests it is not worth it (docs/web.md, "Limits")."""
    if _malloc_trim is not None and seconds >= _RELEASE_AFTER:
        gc.collect()  # what a large answer left in reference cycles goes first, or it stays until a collection
        _malloc_trim(0)


def _compute(endpoint: _Endpoint, kwargs: dict[str, Any], library: Library, token: StopToken) -> bytes:
    """One request's computation, on a worker thread: its profiles resolved, the engine called under
    the request's stop token (context variables do not follow a call to another thread, so the token
    is entered here), the answer built under it."""
    game, action = endpoint.game, endpoint.action
    start = time.perf_counter()
    try:
        with stopping(token):
            notes = request_notes(game, action, kwargs)
            if endpoint.checked:  # the model checked the keys: turn on the switches it names, if any
                kwargs = entries.resolve_keywords(game, action, kwargs, entries.switched(game, kwargs, library))
            else:
                kwargs = entries.prepare(game, action, kwargs, library)
            if endpoint.threads:
                kwargs["threads"] = 1  # one core per computation: the gate runs one computation per core
            return _answer(action.function(**kwargs), token, notes)
    except Stopped as stopped:
        # the frames of a stopped computation hold what it had built (10,000 results of a grid): its
        # traceback, kept by the future until a garbage collection comes, would keep them, and the
        # memory trimmed below would not come back (docs/web.md, "Limits")
        raise stopped.with_traceback(None) from None
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
    loaded, teams = _load_profiles(profiles)
    libraries = _libraries(loaded)
    profiles_json = json.dumps(_profiles_document(libraries, teams), separators=(",", ":")).encode()
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
                "max_samples": MAX_SAMPLES, "max_cells": limits.cells, "max_rows": limits.rows}

    @app.get(f"{API}/profiles", tags=["service"])
    async def profiles_list() -> Response:
        """Every profile a request may name, by game and kind: {game: {kind: {name: fields}}}; Kill
        Team's imported teams under ``teams``: {team: {operatives, weapons}}."""
        return Response(profiles_json, media_type="application/json")

    async def run(endpoint: _Endpoint, kwargs: dict[str, Any]) -> Response:
        try:
            endpoint.bounds.check(kwargs, limits, libraries[endpoint.game.name])  # before it takes a slot
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
