"""What every command does with its result: print it in the format asked for, remember it for
``--plot`` and the CSV summary figures, and say which options it ignored.

A command builds its result, turns it into report tables and summary lines with its game's printer
(:func:`result_tables`, which also notes the result for ``--plot``), and calls :func:`emit` with a
JSON payload holding the command's inputs and ``"result": result.to_dict()``. The table format is
drawn by Rich (:mod:`mathhammer.cli.render`); JSON, CSV and Markdown by the report layer. Bad input
raises ``InputError`` and :func:`mathhammer.cli.main` turns it into a one-line message, exit code 2.
"""

from __future__ import annotations

import contextvars
import json
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import typer

from mathhammer.cli.commands import epilog
from mathhammer.cli.options import FormatOption, OutputFormat
from mathhammer.core.guard import shown_path
from mathhammer.errors import InputError
from mathhammer.core.guard import did_you_mean, excerpt
from mathhammer.report.render import csv_table, markdown, named_tables
from mathhammer.report.tables import Section, Table

__all__ = [
    "add_profiles_command", "capture", "emit", "emit_sections", "note_plot",
    "note_result", "profile_text", "result_tables", "save_plot", "shipped_profiles",
]

#: While set, :func:`emit_sections` hands each payload to it instead of printing, and no progress bar
#: is shown: ``mathhammer sweep`` reads its grid through the action's command this way
#: (``mathhammer.cli.engine_call``).
capture: contextvars.ContextVar[Callable[[dict[str, Any]], None] | None] = contextvars.ContextVar(
    "capture", default=None)


def _context() -> Any:
    from typer._click.globals import get_current_context

    return get_current_context(silent=True)


def result_tables(title: str, result: Any) -> tuple[list[Table], list[str]]:
    """A result's tables and summary lines as its game prints them (:func:`mathhammer.core.present.printed`),
    the result noted for ``--plot`` and the CSV summary figures."""
    from mathhammer.core.present import printed

    note_result(result)
    return printed(title, result)


def emit(fmt: OutputFormat, tables: Sequence[Table], payload: dict[str, Any], summary: Sequence[str] = ()) -> None:
    """Print a command's result: Rich tables then the summary lines, JSON (the payload), CSV (the
    tables) or Markdown (the tables and the summary)."""
    emit_sections(fmt, [Section("", list(tables), list(summary))], payload)


def emit_sections(fmt: OutputFormat, sections: Sequence[Section], payload: dict[str, Any]) -> None:
    """Print several results, each under its heading (see :func:`emit`)."""
    sink = capture.get()
    if sink is not None:
        sink(payload)
        return
    warn_ignored_options(payload)
    save_plot()
    ctx = _context()
    choice = ctx.meta.get("mathhammer.table") if ctx is not None else None
    if fmt is OutputFormat.json:
        if choice is not None:
            raise InputError("--table", "picks a table of the table, CSV or Markdown output; JSON holds them all")
        sys.stdout.write(json.dumps(payload, indent=2) + "\n")
        return
    if fmt is OutputFormat.csv:  # one table, so that what reads CSV reads it: the first, or --table's
        tables = named_tables(sections, _summary_figures(sections))
        if tables:
            sys.stdout.write(csv_table(_chosen(tables, choice or tables[0][0])))
        return
    if choice is not None:
        picked = _chosen(named_tables(sections), choice)
        sections = [Section(s.heading, [t for t in s.tables if t is picked]) for s in sections]
        sections = [s for s in sections if s.tables]
    if fmt is OutputFormat.markdown:
        sys.stdout.write(markdown(sections) + "\n")
    else:
        from mathhammer.cli.render import print_sections

        print_sections(sections)


def _chosen(tables: Sequence[tuple[str, Table]], name: str) -> Table:
    """The table named ``name`` (``--table``), or an InputError listing the names there are."""
    for known, table in tables:
        if known == name.lower():
            return table
    names = [known for known, _ in tables]
    raise InputError("--table", f"no table {excerpt(name)} here{did_you_mean(name, names)}; the tables: {', '.join(names)}")


def _methods(payload: Any) -> set[str]:
    """Every ``method`` a payload records (a scenario's entries each record theirs)."""
    found: set[str] = set()
    if isinstance(payload, dict):
        for key, value in payload.items():
            if key == "method" and isinstance(value, str):
                found.add(value)
            else:
                found |= _methods(value)
    elif isinstance(payload, list):
        for value in payload:
            found |= _methods(value)
    return found


#: Options only a Monte Carlo run reads.
MONTE_CARLO_ONLY = ("samples", "seed")


def given_on_command_line(name: str) -> bool:
    """Whether the running command's parameter ``name`` was given (on the command line or in the
    environment), not left at its default."""
    from typer._click.core import ParameterSource

    ctx = _context()
    return ctx is not None and name in ctx.params and \
        ctx.get_parameter_source(name) in (ParameterSource.COMMANDLINE, ParameterSource.ENVIRONMENT)


def warn_ignored_options(payload: dict[str, Any]) -> None:
    """Say once, on stderr, which options given on the command line the run ignored (``--samples``
    and ``--seed`` when everything was computed exactly), rather than letting them pass silently."""
    ctx = _context()
    if ctx is None:
        return
    methods = _methods(payload)
    if not methods:
        method = ctx.params.get("method")
        methods = {getattr(method, "value", method)} if method is not None else set()
    if methods != {"exact"}:
        return
    given = [name for name in MONTE_CARLO_ONLY if given_on_command_line(name)]
    if given:
        options = " and ".join("--" + name for name in given)
        verb = "are" if len(given) > 1 else "is"
        sys.stderr.write(f"note: {options} {verb} ignored: the result is exact (--method monte_carlo samples)\n")


def _summary_figures(sections: Sequence[Section]) -> list[tuple[str, dict[str, Any]]]:
    """The ``summary()`` figures of the results the running command printed, titled by their
    section when there is one a result (``mathhammer run``)."""
    ctx = _context()
    results = [r for r in (ctx.meta.get("mathhammer.results", []) if ctx is not None else [])
               if callable(getattr(r, "summary", None))]
    out = []
    for index, result in enumerate(results):
        figures = result.summary()
        if not isinstance(figures, dict) or not figures:
            continue
        heading = sections[index].heading if len(sections) == len(results) and len(results) > 1 else ""
        label = heading or (f"#{index + 1}" if len(results) > 1 else "")
        out.append((f"{label + ': ' if label else ''}Summary figures", figures))
    return out


def note_result(result: Any) -> None:
    """Remember a result the running command prints, for ``--plot`` and the CSV summary figures
    (no-op outside a command)."""
    ctx = _context()
    if ctx is not None and capture.get() is None:  # a sweep's cells are not what the sweep prints
        ctx.meta.setdefault("mathhammer.results", []).append(result)


# --- --plot ---------------------------------------------------------------------------------------

def note_plot(draw: Callable[[], Any]) -> None:
    """Give the running command's ``--plot`` a picture of its own, for output that is not a result's
    distribution (a comparison matrix, a sweep table): ``draw()`` returns the matplotlib Axes it drew
    on. No-op outside a command."""
    ctx = _context()
    if ctx is not None:
        ctx.meta["mathhammer.draw"] = draw


def save_plot() -> None:
    """Draw the results the command printed into its ``--plot`` file (headless: the Agg backend)."""
    ctx = _context()
    if ctx is None or ctx.meta.get("mathhammer.plot") is None:
        return
    path = ctx.meta["mathhammer.plot"]
    draw = ctx.meta.get("mathhammer.draw")
    results = [r for r in ctx.meta.get("mathhammer.results", []) if hasattr(r, "plot_series")]
    if draw is None and not results:
        raise InputError("--plot", "this command's output has no distribution to plot")
    from mathhammer.core.plots import plot
    from mathhammer.report.plot import save

    write_file("--plot", path, lambda: save(draw if draw is not None else lambda: plot(results), path))
    sys.stderr.write(f"plot written to {path}\n")  # stderr: stdout may be a CSV or JSON being piped


def check_writable(option: str, path: Path) -> None:
    """Refuse, before any work, an output file ``path`` that names a folder or lies in no folder."""
    if path.is_dir():
        raise InputError(option, f"{shown_path(path)} is a folder; name a file in it")
    if not path.parent.is_dir():
        raise InputError(option, f"cannot write {shown_path(path)}: no folder {shown_path(path.parent)}")


def write_file(option: str, path: Path, write: Callable[[], Any]) -> None:
    """Run ``write()``, which writes the file ``path`` that ``option`` names: a folder, a missing
    folder or a disk that refuses it is an InputError naming the option, one line (no traceback)."""
    check_writable(option, path)
    try:
        write()
    except OSError as error:
        raise InputError(option, f"cannot write {shown_path(path)}: {error.strerror or error}") from None


# --- mathhammer <game> profiles -------------------------------------------------------------------

def add_profiles_command(app: typer.Typer, game: str) -> None:
    """Add ``mathhammer <game> profiles``: the profiles shipped with mathhammer that the game's
    commands take by name (its built-in profiles and its bundled example library)."""
    cli_name = game.replace("_", "-")

    @app.command("profiles", epilog=epilog(cli_name, "profiles"))
    def profiles_command(fmt: FormatOption = OutputFormat.table) -> None:
        """List the profiles shipped with mathhammer, usable by name without --profiles."""
        shipped_profiles(game, fmt)


def profile_text(profile: Any) -> str:
    """A profile as a listing shows it: its notation, else its fields."""
    from mathhammer.core.profiles import profile_to_dict

    if getattr(type(profile), "__str__") is not getattr(object, "__str__"):  # a notation of its own
        return str(profile)
    return ", ".join(f"{k} {v}" for k, v in profile_to_dict(profile).items()
                     if not isinstance(v, (dict, list)) and v not in (False, 0, ""))


def shipped_profiles(game: str, fmt: OutputFormat) -> None:
    """Print the profiles a game ships: built in, and its bundled example library."""
    from mathhammer import games
    from mathhammer.core.profiles import profile_to_dict

    descriptor = games.game(game)
    cli_name = game.replace("_", "-")
    library = descriptor.default_library()
    bundled = descriptor.bundled_library_name
    tables: list[Table] = []
    listed: list[dict[str, Any]] = []
    for source, title in (("built in", "built in"), (bundled, f"--profiles {bundled}, the default")):
        rows: list[list[Any]] = []
        for kind in descriptor.profile_kinds:
            entries = descriptor.builtin_profiles(kind) if source == "built in" else library.get(kind, {})
            for name, profile in entries.items():
                rows.append([kind, name, profile_text(profile)])
                listed.append({"kind": kind, "name": name, "source": source, "fields": profile_to_dict(profile)})
        if rows:
            tables.append(Table(f"{cli_name} profiles: {title}", ["kind", "name", "profile"], rows))
    emit(fmt, tables, {"game": game, "profiles": listed})
