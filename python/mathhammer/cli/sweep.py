"""`mathhammer sweep <game> <action> --grid GRID [the action's options]`: a table, one row per cell.

Each sweep command takes its action's own options (the same names, types and defaults) plus
``--grid``, ``--output``, ``--workers`` and ``--chunk``. A cell runs the action's command itself with
the grid's values in place of its options, its output captured rather than printed
(``mathhammer.cli.output.capture``), so a sweep means exactly what the single command means. The
actions a sweep can run are every action of the game descriptors a sweep can run (``Action.sweep``)
that the game's command line has a command for.

Grid syntax (docs/sweeps.md): ``key=v1,v2 key=a..b key=* key="a, quoted"|b``. Keys are the
action's option names without ``--``; values are separated by ``,`` or ``|``; quotes keep spaces,
commas and bars; ``a..b`` is an integer range; ``*`` every integer the action accepts there, asked
of the action itself (:func:`whole_range`). Before the first cell runs, every value is checked by the
action (``mathhammer.sweeps``, "Limits"): a bad one is an error naming ``--grid <key>``.
"""

from __future__ import annotations

import contextlib
import dataclasses
import enum
import functools
import inspect
import json
import re
import typing
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Annotated, Any, Optional

import typer

from mathhammer.cli.commands import epilog, group_help
from mathhammer.cli.games import GAME_APPS
from mathhammer.cli.options import OutputFormat, finish
from mathhammer.cli.output import capture, emit, given_on_command_line, note_plot
from mathhammer.cli.progress import ProgressGroup
from mathhammer.cli.workers import capped_workers, worker_pool
from mathhammer.core.guard import did_you_mean, excerpt, label
from mathhammer.core.options import Checked, check_only
from mathhammer.core.writing import check_output_file, output_lock, write_whole
from mathhammer.errors import InputError, SweepError
from mathhammer.report.tables import Table

__all__ = ["app", "parse_grid", "result_type", "sweepable_commands"]


#: Options of an action that are not grid keys: the output format, a command's own comparison mode,
#: and the seed (each cell's is derived from it).
_NOT_KEYS = {"fmt", "saves", "seed"}
_SWEEP_OPTIONS = ("grid", "output", "workers", "chunk")


@dataclasses.dataclass(frozen=True)
class Key:
    """A grid key: the option's name on the command line, its parameter, type and default."""

    name: str
    parameter: str
    kind: Any
    default: Any = None


# ---- the grid ---------------------------------------------------------------------------------------

def _split_grid(text: str) -> list[tuple[str, list[tuple[str, bool]]]]:
    """``text`` as (key, [(value, quoted)]) in order; whitespace outside quotes separates keys."""
    entries: list[tuple[str, list[tuple[str, bool]]]] = []
    i, n = 0, len(text)
    while i < n:
        if text[i].isspace():
            i += 1
            continue
        start = i
        while i < n and text[i] != "=" and not text[i].isspace():
            i += 1
        key = text[start:i]
        if i >= n or text[i] != "=":
            raise InputError("--grid", f"{excerpt(key)} has no values; write key=value,value (e.g. hit=3,4)")
        if not key:
            raise InputError("--grid", f"a value at position {start + 1} has no key; write key=value,value")
        i += 1
        values: list[tuple[str, bool]] = []
        current, quoted = "", False
        while True:
            if i < n and text[i] in "\"'":
                quote, close = text[i], text.find(text[i], i + 1)
                if close < 0:
                    raise InputError(f"--grid {key}", f"unclosed {quote} quote")
                current += text[i + 1:close]
                quoted, i = True, close + 1
                continue
            if i >= n or text[i].isspace() or text[i] in ",|":
                if not current and not quoted:
                    raise InputError(f"--grid {key}", "has an empty value; separate values with one , or |")
                values.append((current, quoted))
                current, quoted = "", False
                if i < n and text[i] in ",|":
                    i += 1
                    continue
                break
            current += text[i]
            i += 1
        entries.append((key, values))
    if not entries:
        raise InputError("--grid", "is empty; write e.g. 'hit=3,4 save=2..6'")
    return entries


_TRUE = {"1", "true", "yes", "on", "y"}
_FALSE = {"0", "false", "no", "off", "n"}


def _convert(key: Key, text: str) -> Any:
    kind = key.kind
    try:
        if kind is bool:
            lowered = text.strip().lower()
            if lowered in _TRUE | _FALSE:
                return lowered in _TRUE
            raise ValueError("expected true or false (1/0, yes/no)")
        if kind is int:
            return int(text)
        if isinstance(kind, type) and issubclass(kind, enum.Enum):
            return kind(text.strip().lower())
        if kind is Path:
            return Path(text)
        return text
    except ValueError as error:
        allowed = f"; allowed: {', '.join(m.value for m in kind)}" if isinstance(kind, type) and issubclass(
            kind, enum.Enum) else ""
        detail = "expected an integer" if kind is int else str(error)
        raise InputError(f"--grid {key.name}", f"{excerpt(text)}: {detail}{allowed}") from None


#: What ``key=*`` parses to until :func:`whole_range` asks the action for the integers it accepts.
WHOLE = "*"


def parse_grid(text: str, keys: Mapping[str, Key]) -> dict[str, Any]:
    """The grid's axes by parameter name, each value converted to its option's type: a list, a
    range for an integer option's single ``a..b`` (kept a range, never listed), or :data:`WHOLE`.

    A bad grid is an ``InputError`` whose field names the key (``--grid hit``)."""
    axes: dict[str, Any] = {}
    for name, values in _split_grid(text):
        key = keys.get(name) or keys.get(name.replace("_", "-"))
        if key is None:
            raise InputError(f"--grid {label(name)}", f"not an option of this action{did_you_mean(name, keys)}; "
                                                     f"keys: {', '.join(keys)}")
        if key.parameter in axes:
            raise InputError(f"--grid {name}", "is given twice; list all its values once")
        axes[key.parameter] = _axis(name, key, values)
    return axes


def _axis(name: str, key: Key, values: list[tuple[str, bool]]) -> Any:
    """One key's values: :data:`WHOLE`, a range (an integer option's single ``a..b``) or a list."""
    from mathhammer.core.checks import integer_span
    from mathhammer.sweeps import MAX_CELLS

    if any(not quoted and value == "*" for value, quoted in values):
        if len(values) > 1 or key.kind not in (int, str):
            raise InputError(f"--grid {name}", "'*' stands alone, for an option that takes an integer")
        return WHOLE
    spans = [None if quoted else integer_span(f"--grid {name}", value) for value, quoted in values]
    if len(values) == 1 and key.kind is int and spans[0] is not None:
        return range(spans[0][0], spans[0][1] + 1)
    out: list[Any] = []
    for (value, _), span in zip(values, spans):
        if span is None:
            out.append(_convert(key, value))
        elif span[1] - span[0] >= MAX_CELLS:
            raise InputError(f"--grid {name}", f"{excerpt(value)} holds {span[1] - span[0] + 1:,} values; a sweep "
                                               f"holds at most {MAX_CELLS:,} cells")
        else:
            out += [_convert(key, str(v)) for v in range(span[0], span[1] + 1)]
    return out


def whole_range(accepts: Callable[[Any], bool], start: Any, name: str) -> range:
    """Every integer an option accepts, found by asking: ``accepts(v)`` checks value ``v`` through the
    action itself (checked, not run), so the range is the engine's own, never a copy of it. Starts at
    the option's default (or the first accepted integer in -1..64), doubles its steps outwards until
    refused, then halves back to the edge: a few dozen checks."""
    from mathhammer.sweeps import MAX_CELLS

    if not (isinstance(start, int) and not isinstance(start, bool) and accepts(start)):
        start = next((v for v in range(-1, 65) if accepts(v)), None)
        if start is None:
            raise InputError(f"--grid {name}", "'*': no integer in -1..64 is accepted here; give the values")
    edges = []
    for direction in (1, -1):
        inside, step = start, 1
        while accepts(inside + direction * step):
            inside += direction * step
            step *= 2
            if abs(inside - start) > MAX_CELLS:
                raise InputError(f"--grid {name}", f"'*': the option has no {'upper' if direction > 0 else 'lower'} "
                                                   f"bound within {MAX_CELLS:,} values; give a range a..b")
        while step > 1:  # the edge lies between inside (accepted) and inside + step (refused)
            step //= 2
            if accepts(inside + direction * step):
                inside += direction * step
        edges.append(inside)
    return range(edges[1], edges[0] + 1)


# ---- running a cell ---------------------------------------------------------------------------------

@functools.lru_cache(maxsize=None)
def _game_app(game: str) -> typer.Typer:
    """The game's command group (its module's Typer app)."""
    instance: typer.Typer = GAME_APPS[game][1]()
    return instance


def _commands(game: str) -> dict[str, Callable[..., Any]]:
    return {info.name: info.callback for info in _game_app(game).registered_commands
            if info.name is not None and info.callback is not None}


def sweepable_commands() -> dict[tuple[str, str], type]:
    """The commands a sweep can run, (game command, action command) -> the result type their JSON
    payload's "result" decodes to: every action a sweep can run that has a command."""
    from mathhammer import games

    found: dict[tuple[str, str], type] = {}
    for game, action in games.actions():
        if action.sweep and action.cli in _commands(game.cli):
            found[(game.cli, action.cli)] = action.result
    return found


@functools.lru_cache(maxsize=None)
def _command(game: str, action: str) -> Callable[..., Any]:
    found = _commands(game).get(action)
    if found is None:
        raise InputError("action", f"{game} has no action {excerpt(action)}")
    return found


def result_type(game: str, action: str) -> Any:
    """The result type of a sweepable command (see :func:`sweepable_commands`)."""
    from mathhammer import games

    return games.game(game).action(action).result


@functools.lru_cache(maxsize=None)
def _takes_seed(game: str, action: str) -> bool:
    return "seed" in inspect.signature(_command(game, action)).parameters


def run_cell(game: str, action: str, seed: int | None = None, **options: Any) -> dict[str, float]:
    """One cell: the action's command with ``options``, its result's ``summary()`` (runs in workers)."""
    callback = _command(game, action)
    if _takes_seed(game, action):
        options["seed"] = seed
    payloads: list[dict[str, Any]] = []
    token = capture.set(payloads.append)
    try:
        callback(**options, fmt=OutputFormat.json)
    finally:
        capture.reset(token)
    summary: dict[str, float] = result_type(game, action).from_dict(payloads[-1]["result"]).summary()
    return summary


# ---- the commands -----------------------------------------------------------------------------------

def _keys(game: str, action: str) -> tuple[dict[str, Key], list[inspect.Parameter], dict[str, Any]]:
    """The action's grid keys, and the parameters and resolved annotations the sweep command copies."""
    callback = _command(game, action)
    hints = typing.get_type_hints(callback, include_extras=True)
    click_command = typer.main.get_command(_game_app(game)).commands[action]  # type: ignore[attr-defined]
    flags = {p.name: p for p in click_command.params}
    keys: dict[str, Key] = {}
    parameters = []
    for parameter in inspect.signature(callback).parameters.values():
        if parameter.kind is inspect.Parameter.VAR_KEYWORD:
            continue
        if parameter.name in _SWEEP_OPTIONS:
            raise RuntimeError(f"{game} {action} has an option named like a sweep option: {parameter.name}")
        if parameter.name in ("fmt", "saves"):  # the sweep's own --format; --saves is what a grid does
            continue
        parameters.append(parameter.replace(annotation=hints[parameter.name]))
        if parameter.name in _NOT_KEYS:
            continue
        click_param = flags[parameter.name]
        name = click_param.opts[0].lstrip("-")
        kind = typing.get_args(hints[parameter.name])[0]
        kind = next((a for a in typing.get_args(kind) if a is not type(None)), kind)  # Optional[X] -> X
        keys[name] = Key(name, parameter.name, kind, parameter.default)
    return keys, parameters, hints


#: The files ``--output`` writes.
OUTPUT_SUFFIXES = (".csv", ".json")


def _output_bytes(path: Path, frame: Any) -> bytes:
    if path.suffix.lower() == ".csv":
        return bytes(frame.to_csv(index=False).encode("utf-8"))
    records = frame.to_dict(orient="records")  # json, not pandas' writer: every digit of every figure
    return (json.dumps(records, indent=2, default=str) + "\n").encode("utf-8")


_NUMBER = re.compile(r"[-+]?\d+(\.\d+)?")


def _cell_value(value: Any, kind: Any = None) -> Any:
    """An axis value as the table and the payload hold it: a number when the grid's text is one
    (``hit=3`` is 3, ``hit=3+`` stays text), else the option's own value."""
    if isinstance(value, enum.Enum):
        return value.value
    if isinstance(value, str) and (kind in (int, float) or _NUMBER.fullmatch(value.strip())):
        for number in (int, float):
            try:
                return number(value)
            except ValueError:
                continue
        return value
    if isinstance(value, (int, float, str, bool)) or value is None:
        return value
    return str(value)


def _make_command(game: str, action: str) -> Callable[..., None]:
    keys, parameters, hints = _keys(game, action)
    names = [p.name for p in parameters]

    def command(**given: Any) -> None:
        grid, output, workers, chunk = (given.pop(name) for name in _SWEEP_OPTIONS)
        fmt = given.pop("fmt")
        given.pop("saves", None)
        if output is not None:  # checked and locked before any cell runs, written whole after the last
            output = check_output_file("--output", output, OUTPUT_SUFFIXES)
        with output_lock("--output", output):
            run(grid, output, workers, chunk, fmt, given)

    def run(grid: str, output: Path | None, workers: int, chunk: int, fmt: Any, given: dict[str, Any]) -> None:
        from mathhammer.sweeps import sweep

        axes = parse_grid(grid, keys)
        _refuse_options_in_grid(axes, keys)
        seed = given.pop("seed", None)
        fixed = {k: v for k, v in given.items() if k in names and k not in axes}
        for parameter, values in axes.items():
            if values is WHOLE:
                axes[parameter] = _whole_axis(game, action, fixed, _key(keys, parameter))
        # the axes first, in the grid's order (the first slowest), then the options they leave alone
        arguments = {**axes, **fixed}
        workers = capped_workers(workers)
        try:
            with contextlib.ExitStack() as stack:
                executor = stack.enter_context(worker_pool(workers)) if workers > 1 else None
                bars = stack.enter_context(ProgressGroup())
                frame = sweep(run_cell, game=game, action=action, seed=seed, executor=executor, chunk=chunk,
                              progress=bars.callback("Sweep"), check=True, **arguments)
        except SweepError as error:
            where = ", ".join(f"{_flag(keys, k)}={v}" for k, v in error.parameters.items())
            raise InputError(f"cell {error.index} ({where})", error.message) from None
        except InputError as error:  # a grid value the action refused before any cell ran
            if error.field not in axes:
                raise
            raise type(error)(f"--grid {_flag(keys, error.field)}", str(error)[len(error.field) + 2:]) from None
        frame.columns = [_flag(keys, c) for c in frame.columns]
        for parameter, column in zip(axes, frame.columns[: len(axes)]):  # numbers as numbers in JSON and CSV
            kind = _key(keys, parameter).kind
            frame[column] = [_cell_value(v, kind) for v in frame[column]]
        seed_used = int(frame.attrs["seed"])
        lines = [f"{len(frame):,} cells; seed {seed_used}"]
        if output is not None:
            write_whole(output, _output_bytes(output, frame), "--output")
            lines.append(f"written to {output}")
        flags = list(frame.columns[: len(axes)])
        note_plot(lambda: _plot_sweep(frame, flags, f"Sweep: {game} {action}"))
        title = f"Sweep: {game} {action}"
        tables = [Table(title, list(frame.columns), frame.values.tolist(), keys=len(axes))]
        payload = {"game": game, "action": action, "grid": grid, "seed": seed_used, "cells": len(frame),
                   "rows": frame.to_dict(orient="records")}
        emit(fmt, tables if output is None else [], payload, lines)

    sweep_parameters = [
        inspect.Parameter("grid", inspect.Parameter.KEYWORD_ONLY, annotation=Annotated[str, typer.Option(rich_help_panel="Sweep", 
            help="The axes: 'key=v1,v2 key=a..b key=*' (keys: the action's options without --; values split by , "
                 "or |; quote values with spaces or commas).")]),
        inspect.Parameter("output", inspect.Parameter.KEYWORD_ONLY, default=None, annotation=Annotated[
            Optional[Path], typer.Option(rich_help_panel="Sweep", help="Also write the table to FILE.csv or FILE.json.")]),
        inspect.Parameter("workers", inspect.Parameter.KEYWORD_ONLY, default=1, annotation=Annotated[
            int, typer.Option(rich_help_panel="Sweep", min=1, max=256, help="Processes to run cells on (1: this process).")]),
        inspect.Parameter("chunk", inspect.Parameter.KEYWORD_ONLY, default=None, annotation=Annotated[
            Optional[int], typer.Option(rich_help_panel="Sweep", min=1, help="Cells sent to a worker at a time (default: at most 1,024).")]),
        inspect.Parameter("fmt", inspect.Parameter.KEYWORD_ONLY, default=OutputFormat.table,
                          annotation=hints["fmt"]),
    ]
    signature = [p.replace(kind=inspect.Parameter.KEYWORD_ONLY) for p in parameters] + sweep_parameters
    command.__signature__ = inspect.Signature(signature)  # type: ignore[attr-defined]
    command.__annotations__ = {p.name: p.annotation for p in signature}
    command.__name__ = f"sweep_{game}_{action}".replace("-", "_")
    command.__doc__ = (f"Sweep `{game} {action}` over a grid of its options: one row per cell, the result's "
                       f"summary figures as columns.\n\nGrid keys: {', '.join(keys)}.")
    return command


def _plot_sweep(frame: Any, axes: list[str], title: str) -> Any:
    """--plot of a sweep: its first figure against the first numeric axis (mathhammer.report.plot)."""
    from mathhammer.report.plot import sweep_figure

    return sweep_figure(frame, axes, title)


def _flag(keys: Mapping[str, Key], parameter: str) -> str:
    return next((k.name for k in keys.values() if k.parameter == parameter), parameter)


def _key(keys: Mapping[str, Key], parameter: str) -> Key:
    return next(k for k in keys.values() if k.parameter == parameter)


def _refuse_options_in_grid(axes: Mapping[str, Any], keys: Mapping[str, Key]) -> None:
    """``--grid hit=3,4 --hit 5``: the option would be silently replaced by the grid; refuse it."""
    for parameter in axes:
        if given_on_command_line(parameter):
            flag = _flag(keys, parameter)
            raise InputError(f"--{flag}", f"is also a grid key; give its values in --grid {flag}=... only")


def _whole_axis(game: str, action: str, fixed: Mapping[str, Any], key: Key) -> Any:
    """``key=*``: every integer the action accepts for the option, given the other options."""
    def accepts(value: int) -> bool:
        try:
            with check_only():
                run_cell(game, action, **{**fixed, key.parameter: _convert(key, str(value))})
        except Checked:
            return True
        except InputError:
            return False
        return True  # (a command that computed without reaching its check point: accepted too)

    values = whole_range(accepts, key.default, key.name)
    return values if key.kind is int else [_convert(key, str(v)) for v in values]


class _SweepGroup(typer.core.TyperGroup):
    """``mathhammer sweep``: its game groups and their commands are made when the group is first used."""

    def _groups(self) -> dict[str, Any]:
        groups = self.__dict__.get("_made")
        if groups is None:
            groups = self.__dict__["_made"] = _make_groups()
        return groups

    def list_commands(self, ctx: Any) -> list[str]:
        return list(self._groups())

    def get_command(self, ctx: Any, cmd_name: str) -> Any:
        return self._groups().get(cmd_name)


def _make_groups() -> dict[str, Any]:

    made: dict[str, Any] = {}
    groups: dict[str, typer.Typer] = {}
    for game, action in sweepable_commands():
        if game not in groups:
            groups[game] = typer.Typer(name=game, help=f"Sweep a {game} action.", no_args_is_help=True)
            groups[game].callback()(_group_callback)  # a group even where one action is sweepable
        groups[game].command(action, epilog=epilog("sweep"))(_make_command(game, action))
    for game, group in groups.items():
        command = typer.main.get_command(group)
        command.name = game
        finish(command)
        made[game] = command
    return made


def _group_callback() -> None:
    """Sweep an action over a grid of its options: one row per cell."""


app = typer.Typer(name="sweep", help=group_help("sweep"), epilog=epilog("sweep"), no_args_is_help=True,
                  cls=_SweepGroup)
app.callback()(_group_callback)
