"""What every game's CLI command shares: output formats, tables, the progress bar, common options.

Each game's ``<game>/cli.py`` builds its result, turns it into a few :class:`Table` objects and
summary lines with a public printer function (registered here with :func:`register_printer`, so
``mathhammer run`` prints every result the way its game's command does), and calls :func:`emit`
with a JSON payload holding the command's inputs and ``"result": result.to_dict()``. Bad input
raises ``InputError`` and the top-level ``main`` turns it into a one-line message and exit code 2.
"""

from __future__ import annotations

import contextvars
import csv
import enum
import io
import json
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Any, Optional

import typer

from mathhammer.sampling import Progress


class OutputFormat(str, enum.Enum):
    table = "table"
    json = "json"
    csv = "csv"
    markdown = "markdown"


class Method(str, enum.Enum):
    auto = "auto"
    exact = "exact"
    monte_carlo = "monte_carlo"


FormatOption = Annotated[
    OutputFormat, typer.Option("--format", "-f", help="table (Rich), json, csv or markdown.", case_sensitive=False)
]
MethodOption = Annotated[Method, typer.Option(help="exact, monte_carlo, or auto (exact when it is cheap).")]
SamplesOption = Annotated[int, typer.Option(help="Monte Carlo samples (1..10^10).")]
SeedOption = Annotated[int | None, typer.Option(help="Seed for Monte Carlo (same seed, same result).")]
ThreadsOption = Annotated[int | None, typer.Option(help="Threads for Monte Carlo (default: all cores).")]
VariantsOption = Annotated[
    Optional[str],
    typer.Option(
        "--variants",
        help="Rule variants: a preset name or 'field=value,field=value' (the game's Variants fields; docs/results.md).",
    ),
]
ProfilesOption = Annotated[
    Optional[Path],
    typer.Option(help="A profile library (.toml/.json, see docs/scenarios.md) whose entries the profile options may name; "
                 "<game>-examples (the default) is the library shipped with mathhammer."),
]


@dataclass
class Table:
    """A titled table: the unit every output format prints. ``keys``: how many leading columns name
    a row (a sweep's axes); the terminal splits a table wider than 80 columns into parts that repeat
    them, instead of letting Rich cut its cells and headers."""

    title: str
    columns: list[str]
    rows: list[list[Any]] = field(default_factory=list)
    keys: int = 0


#: The terminal width a table with ``keys`` is split to fit.
WIDTH = 80


def terminal_parts(table: Table, display: Display) -> list[Table]:
    """``table`` as the terminal shows it: whole when it fits 80 columns or names no key columns,
    else several tables, each repeating the key columns and numbered in its title."""
    if not table.keys or not table.rows:
        return [table]
    marks = probability_cells(table)

    def width(index: int) -> int:  # its widest cell or its header on one line, with padding and border
        cells = [len(_display_cell(row[index], mark[index], display)) for row, mark in zip(table.rows, marks)]
        return max([*cells, len(table.columns[index])]) + 3

    fixed = 1 + sum(width(i) for i in range(table.keys))
    groups: list[list[int]] = [[]]
    used = fixed
    for index in range(table.keys, len(table.columns)):
        if groups[-1] and used + width(index) > WIDTH:
            groups.append([])
            used = fixed
        groups[-1].append(index)
        used += width(index)
    if len(groups) == 1:
        return [table]
    parts = []
    for number, group in enumerate(groups):
        keep = list(range(table.keys)) + group
        parts.append(Table(f"{table.title} ({number + 1}/{len(groups)})", [table.columns[i] for i in keep],
                           [[row[i] for i in keep] for row in table.rows]))
    return parts


def _cell(value: Any) -> str:
    if isinstance(value, float):
        return f"{value:.6g}" if abs(value) >= 1e-4 or value == 0 else f"{value:.3e}"
    return str(value)


def distribution_table(title: str, dist: Any, value_name: str, with_at_least: bool = True) -> Table:
    """A Distribution as rows of value, P(=), P(>=), plus standard errors for Monte Carlo."""
    columns = [value_name, "P(=)"] + (["P(>=)"] if with_at_least else [])
    if dist.stderr is not None:
        columns.append("stderr")
    rows = []
    for i, value in enumerate(dist.values):
        p = float(dist.pmf[i])
        if p == 0.0:
            continue
        row: list[Any] = [int(value), p]
        if with_at_least:
            row.append(dist.at_least(int(value)))
        if dist.stderr is not None:
            row.append(float(dist.stderr[i]))
        rows.append(row)
    return Table(title, columns, rows)


@dataclass
class Section:
    """Tables and summary lines under one heading (``mathhammer run`` prints one per scenario entry)."""

    heading: str
    tables: list[Table]
    summary: list[str] = field(default_factory=list)


def emit(fmt: OutputFormat, tables: Sequence[Table], payload: dict[str, Any], summary: Sequence[str] = ()) -> None:
    """Print a command's result: Rich tables then the summary lines, JSON (the payload), CSV (the
    tables) or Markdown (the tables and the summary)."""
    emit_sections(fmt, [Section("", list(tables), list(summary))], payload)


#: While set, :func:`emit_sections` hands each payload to it instead of printing, and no progress bar
#: is shown: ``mathhammer sweep`` runs an action's command once per cell this way.
capture: contextvars.ContextVar[Callable[[dict[str, Any]], None] | None] = contextvars.ContextVar(
    "capture", default=None)


def emit_sections(fmt: OutputFormat, sections: Sequence[Section], payload: dict[str, Any]) -> None:
    """Print several results, each under its heading (see :func:`emit`)."""
    sink = capture.get()
    if sink is not None:
        sink(payload)
        return
    warn_ignored_options(payload)
    save_plot()
    if fmt is OutputFormat.json:
        sys.stdout.write(json.dumps(payload, indent=2) + "\n")
    elif fmt is OutputFormat.csv:
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\n")
        first = True
        for section in sections:
            for table in section.tables:
                out.write("" if first else "\n")
                first = False
                out.write(f"# {section.heading + ': ' if section.heading else ''}{table.title}\n")
                writer.writerow(table.columns)
                writer.writerows([[_cell(v) for v in row] for row in table.rows])
        for title, figures in _summary_figures(sections):  # after the tables: a figure,value table each
            out.write(f"\n# {title}\n")
            writer.writerow(["figure", "value"])
            writer.writerows([[name, _cell(value)] for name, value in figures.items()])
        sys.stdout.write(out.getvalue())
    elif fmt is OutputFormat.markdown:
        sys.stdout.write(render_markdown(sections) + "\n")
    else:
        from rich.console import Console

        console = Console()
        for renderable in rich_renderables(sections):
            console.print(renderable)


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


def warn_ignored_options(payload: dict[str, Any]) -> None:
    """Say once, on stderr, which options given on the command line the run ignored (``--samples``
    and ``--seed`` when everything was computed exactly), rather than letting them pass silently."""
    from typer._click.globals import get_current_context
    from typer._click.core import ParameterSource

    ctx = get_current_context(silent=True)
    if ctx is None:
        return
    methods = _methods(payload)
    if not methods:
        method = ctx.params.get("method")
        methods = {getattr(method, "value", method)} if method is not None else set()
    if methods != {"exact"}:
        return
    given = [name for name in MONTE_CARLO_ONLY if name in ctx.params
             and ctx.get_parameter_source(name) in (ParameterSource.COMMANDLINE, ParameterSource.ENVIRONMENT)]
    if given:
        options = " and ".join("--" + name for name in given)
        verb = "are" if len(given) > 1 else "is"
        sys.stderr.write(f"note: {options} {verb} ignored: the result is exact (--method monte_carlo samples)\n")


def _summary_figures(sections: Sequence[Section]) -> list[tuple[str, dict[str, Any]]]:
    """The ``summary()`` figures of the results the running command printed, titled by their
    section when there is one a result (``mathhammer run``)."""
    from typer._click.globals import get_current_context

    ctx = get_current_context(silent=True)
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


def render_markdown(sections: Sequence[Section]) -> str:
    """Sections as Markdown: a heading each, its tables, its summary lines as a list."""
    parts = []
    for section in sections:
        if section.heading:
            parts.append(f"## {section.heading}")
        for table in section.tables:
            lines = [f"### {table.title}", "", "| " + " | ".join(table.columns) + " |"]
            lines.append("|" + "---|" * len(table.columns))
            lines += ["| " + " | ".join(_cell(v) for v in row) + " |" for row in table.rows]
            parts.append("\n".join(lines))
        if section.summary:
            parts.append("\n".join(f"- {line}" for line in section.summary))
    return "\n\n".join(parts)


def render_html(sections: Sequence[Section]) -> str:
    """Sections as HTML (what a notebook shows): headings, tables and the summary lines."""
    from html import escape

    parts = []
    for section in sections:
        if section.heading:
            parts.append(f"<h3>{escape(section.heading)}</h3>")
        for table in section.tables:
            head = "".join(f"<th>{escape(c)}</th>" for c in table.columns)
            body = "".join("<tr>" + "".join(f"<td>{escape(_cell(v))}</td>" for v in row) + "</tr>" for row in table.rows)
            parts.append(f"<table><caption>{escape(table.title)}</caption><thead><tr>{head}</tr></thead>"
                         f"<tbody>{body}</tbody></table>")
        if section.summary:
            parts.append("<ul>" + "".join(f"<li>{escape(line)}</li>" for line in section.summary) + "</ul>")
    return "\n".join(parts)


class Probabilities(str, enum.Enum):
    percent = "percent"
    fraction = "fraction"


@dataclass(frozen=True)
class Display:
    """How the terminal table shows probabilities: ``digits`` decimals of a percentage (of a
    fraction: ``digits + 2``, the same resolution). JSON, CSV and Markdown keep the raw numbers."""

    digits: int = 2
    probabilities: Probabilities = Probabilities.percent


def current_display() -> Display:
    """The ``--digits`` / ``--probabilities`` of the running command, else the defaults."""
    from typer._click.globals import get_current_context

    ctx = get_current_context(silent=True)
    found = ctx.meta.get("mathhammer.display") if ctx is not None else None
    return found if isinstance(found, Display) else Display()


def probability_text(p: float, display: Display | None = None) -> str:
    """A probability as the table prints it: "12.34%", never 0 for a non-zero chance ("<0.01%"),
    never 100% for a chance short of certainty (">99.99%")."""
    display = display or current_display()
    percent = display.probabilities is Probabilities.percent
    decimals = display.digits if percent else display.digits + 2
    scale, unit = (100.0, "%") if percent else (1.0, "")
    step = 10.0 ** -decimals  # the smallest printed step
    value = p * scale
    if p == 0.0 or p == 1.0:
        return f"{value:.0f}{unit}"
    if value < step / 2:
        return f"<{step:.{decimals}f}{unit}"
    if value > scale - step / 2:
        return f">{scale - step:.{decimals}f}{unit}"
    return f"{value:.{decimals}f}{unit}"


def _is_probability_header(header: str) -> bool:
    return header.startswith("P(") or "chance" in header.lower()


def probability_cells(table: Table) -> list[list[bool]]:
    """Which cells of a table hold probabilities, read off its labels: a column headed "P(...)" or
    "... chance"; every column but the first in a table titled "P(...)"; a row labelled "P(...)";
    and the stderr column next to probability columns (the error of a probability)."""
    by_title = "P(" in table.title
    columns = [by_title and i > 0 or _is_probability_header(c) for i, c in enumerate(table.columns)]
    if any(columns):
        columns = [flag or c == "stderr" for flag, c in zip(columns, table.columns)]
    marks = []
    for row in table.rows:
        by_row = bool(row) and isinstance(row[0], str) and row[0].startswith("P(")
        marks.append([(columns[i] if i < len(columns) else False) or (by_row and i > 0) for i in range(len(row))])
    return marks


def _display_cell(value: Any, probability: bool, display: Display) -> str:
    if probability and isinstance(value, float) and 0.0 <= value <= 1.0:  # ints are counts, not chances
        return probability_text(float(value), display)
    return _cell(value)


def rich_renderables(sections: Sequence[Section]) -> list[Any]:
    """Sections as Rich renderables (a rule per heading, a title line and a table per table)."""
    from rich.rule import Rule
    from rich.table import Table as RichTable
    from rich.text import Text

    out: list[Any] = []
    for section in sections:
        if section.heading:
            out.append(Rule(Text(section.heading, style="bold")))
        display = current_display()
        for table in [part for whole in section.tables for part in terminal_parts(whole, display)]:
            out.append(Text(table.title, style="bold"))  # above the table, not wrapped to its width
            rich_table = RichTable()
            for column in table.columns:
                rich_table.add_column(column, justify="right")
            for row, marks in zip(table.rows, probability_cells(table)):
                rich_table.add_row(*[_display_cell(v, m, display) for v, m in zip(row, marks)])
            out.append(rich_table)
        out.extend(Text(line) for line in section.summary)
    return out


def result_sections(result: Any) -> list[Section]:
    """The printed form of a result, as the game's own command prints it (its printer)."""
    import importlib

    game = type(result).__module__.split(".")[:2]  # mathhammer.<game>
    if len(game) == 2:
        try:  # the game's CLI module registers its printers
            importlib.import_module(".".join(game) + ".cli")
        except ModuleNotFoundError:
            pass
    tables, lines = result_tables("", result)
    return [Section("", tables, lines)]


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


def method_line(method: str, samples: int | None = None, seed: int | None = None) -> str:
    """How a result was computed, worded the same by every command: "method: exact" or
    "method: monte_carlo, 1,000,000 samples, seed 7"."""
    text = f"method: {method}"
    if samples is not None:
        text += f", {samples:,} samples"
    if seed is not None:
        text += f", seed {seed}"
    return text


def run_conditions(result: Any) -> list[str]:
    """What a heading says about how a result was computed: the rule variants that depart from the
    defaults, and the method with its samples ("monte_carlo, 100,000 samples")."""
    parts: list[str] = []
    variants = getattr(result, "variants", None)
    if variants is not None and hasattr(variants, "to_dict"):
        default = type(variants)().to_dict()
        changed = [f"{k}={v}" for k, v in variants.to_dict().items() if default.get(k) != v]
        presets = [name for name, switches in getattr(type(variants), "PRESETS", {}).items()
                   if {**default, **switches} == variants.to_dict()]
        if changed and presets:  # a preset by its name, not its dozen switches
            parts.append(f"variants {presets[0]}")
        elif changed:
            parts.append("variants " + ",".join(changed))
    samples = getattr(result, "samples", None)
    parts.append(str(result.method) + (f", {samples:,} samples" if samples else ""))
    return parts


#: A printer turns one result into (tables, summary lines); a non-empty ``title`` prefixes every
#: table title and line, for callers that list several results together.
Printer = Callable[[Any, str], "tuple[list[Table], list[str]]"]
_PRINTERS: dict[type, Printer] = {}


def register_printer(result_type: type, printer: Printer) -> None:
    """Make ``printer(result, title)`` the way results of ``result_type`` (and subclasses) are printed."""
    _PRINTERS[result_type] = printer


def result_tables(title: str, result: Any) -> tuple[list[Table], list[str]]:
    """The tables and summary lines of any result: its game's printer (each game's CLI module registers
    one per result type it prints), or :func:`generic_tables`."""
    for cls in type(result).__mro__:
        if cls in _PRINTERS:
            return _PRINTERS[cls](result, title)
    return generic_tables(title, result)


def generic_tables(title: str, result: Any) -> tuple[list[Table], list[str]]:
    """Tables for any result dataclass: one per Distribution field, scalars as summary lines."""
    import dataclasses

    from mathhammer.results import Distribution

    prefix = f"{title}: " if title else ""
    tables: list[Table] = []
    summary: list[str] = []
    for f in dataclasses.fields(result):
        value = getattr(result, f.name)
        if isinstance(value, Distribution):
            tables.append(distribution_table(f"{prefix}{f.name}", value, f.name))
            summary.append(f"{prefix}mean {f.name} {value.mean:.4f} (std {value.std:.4f})")
        elif isinstance(value, float):
            summary.append(f"{prefix}{f.name} = {value:.6g}")
        elif isinstance(value, (int, str)) and not isinstance(value, bool):
            summary.append(f"{prefix}{f.name} = {value}")
    return tables, summary


def cli_variants(variants_cls: Any, text: str | None, switches: dict[str, Any],
                 option_names: dict[str, str] | None = None) -> Any:
    """The game's Variants from ``--variants`` or from its per-switch options.

    ``switches`` maps a Variants field to its option's value (None = the option was not given);
    ``option_names`` the fields whose option is not ``--<field with dashes>``. Giving a switch both
    ways is refused rather than letting one silently win.
    """
    from mathhammer._validate import InputError

    given = {name: value for name, value in switches.items() if value is not None}
    if text is not None and given:
        name = next(iter(given))
        option = (option_names or {}).get(name, "--" + name.replace("_", "-"))
        raise InputError("--variants", f"{option} is also given; set each switch once, with {option} or inside --variants")
    if text is not None:
        return variants_cls.resolve(text, "--variants")
    try:
        return variants_cls.from_dict(given, "")
    except InputError as error:  # name the option the user typed
        name = error.field.split(".")[-1]
        option = (option_names or {}).get(name, "--" + name.replace("_", "-"))
        raise InputError(option, str(error)[len(error.field) + 2:]) from None


def hide_flag_metavars(command: Any) -> None:
    """Show on/off flags (``--obscured``, ``--help``) in the help without a ``<bool>`` value: they take none."""
    from typer._click import Context

    help_option = command.get_help_option(Context(command))
    for param in [*command.params, *([help_option] if help_option is not None else [])]:
        if getattr(param, "is_flag", False):
            param.metavar = ""
    for sub in getattr(command, "commands", {}).values():
        hide_flag_metavars(sub)


#: Where to go to try several values of one option, by command path.
COMPARE_COMMANDS: dict[tuple[str, ...], str] = {
    ("killteam", "shoot"): "mathhammer killteam compare",
    ("killteam", "fight"): "mathhammer killteam compare-fights",
    ("starcraft", "attack"): "mathhammer starcraft compare",
}


def check_repeated_options(command: Any, args: Sequence[str]) -> None:
    """Refuse a single-value option given twice (``--weapon a --weapon b``): click keeps the last one
    silently, which reads as a comparison that never happened. Points to the command that compares."""
    from typer._click import Context

    if any(token in ("--version", "--help") for token in args):  # eager options: nothing runs
        return
    path: list[str] = []
    rest = list(args)
    ctx: Any = None
    while hasattr(command, "commands"):  # descend the groups as click does, without running anything
        ctx = command.make_context(path[-1] if path else "mathhammer", rest, parent=ctx, resilient_parsing=True)
        rest = [*ctx._protected_args, *ctx.args]
        if not rest:
            return
        name, sub, rest = command.resolve_command(ctx, rest)
        if sub is None or name is None:
            return
        path.append(name)
        command = sub
    options = {opt: param for param in command.get_params(Context(command)) if getattr(param, "param_type_name", "") == "option"
               for opt in [*param.opts, *param.secondary_opts]}
    seen: dict[str, str] = {}
    i = 0
    while i < len(rest):
        token = rest[i]
        i += 1
        if token == "--":
            break
        param = options.get(token.split("=", 1)[0])
        if param is None:
            continue
        takes_value = not param.is_flag and not param.count
        value = token.split("=", 1)[1] if "=" in token else (rest[i] if takes_value and i < len(rest) else "")
        if takes_value and "=" not in token:
            i += 1
        if not takes_value or param.multiple or param.name is None:
            continue
        if param.name in seen:
            game_action = len(path) == 2 and path[0] != "sweep"
            where = COMPARE_COMMANDS.get(tuple(path), f"mathhammer sweep {' '.join(path)} --grid" if game_action else "")
            option = param.opts[-1] if param.opts else token
            raise_repeated(option, seen[param.name], value, where)
        seen[param.name] = value


def raise_repeated(option: str, first: str, second: str, where: str) -> None:
    from mathhammer._validate import InputError

    hint = f"; to compare several, use {where}" if where else ""
    raise InputError(option, f"given twice ({first!r}, then {second!r}); it takes one value{hint}")


def _keep_display(ctx: Any, param: Any, value: Any) -> Any:
    """Record --digits / --probabilities where the printers find them (see :func:`current_display`)."""
    shown = ctx.meta.get("mathhammer.display", Display())
    if param.name == "digits" and value is not None:
        shown = Display(int(value), shown.probabilities)
    elif param.name == "probabilities" and value is not None:
        shown = Display(shown.digits, Probabilities(getattr(value, "value", value)))
    ctx.meta["mathhammer.display"] = shown
    return value


def _display_params() -> list[Any]:
    """--digits and --probabilities as typer builds them (on a throwaway command), for every command."""
    probe = typer.Typer()

    @probe.command()
    def _probe(
        digits: Annotated[int, typer.Option(min=0, max=8, help="Decimals of the percentages the table prints.")] = 2,
        probabilities: Annotated[Probabilities, typer.Option(
            help="Probabilities in the table as percent (12.34%) or fraction (0.1234).", case_sensitive=False)]
        = Probabilities.percent,
        plot: Annotated[Optional[str], typer.Option(
            help="Also draw the result into FILE.png or FILE.svg (needs matplotlib).", is_eager=True)] = None,
    ) -> None:
        """Only here to build the options."""

    params = list(typer.main.get_command(probe).params)
    for param in params:
        param.expose_value = False
        param.callback = _check_plot if param.name == "plot" else _keep_display
    return params


def add_display_options(command: Any) -> None:
    """Give every command --digits and --probabilities (how the table shows probabilities)."""
    params = _display_params()

    def add(cmd: Any) -> None:
        if hasattr(cmd, "commands"):
            for sub in cmd.commands.values():
                add(sub)
        elif not any(p.name == "digits" for p in cmd.params):
            cmd.params.extend(params)

    add(command)


def register_profiles_command(app: typer.Typer, game: str) -> None:
    """Add ``mathhammer <game> profiles``: the profiles shipped with mathhammer that the game's
    commands take by name (its built-in profiles and its bundled example library)."""
    cli_name = game.replace("_", "-")

    @app.command("profiles", epilog=f"Example: mathhammer {cli_name} profiles --format csv")
    def profiles_command(fmt: FormatOption = OutputFormat.table) -> None:
        """List the profiles shipped with mathhammer, usable by name without --profiles."""
        from mathhammer.library import (
            PROFILE_KINDS,
            builtin_profiles,
            bundled_library_name,
            default_library,
            profile_to_dict,
        )

        def text(profile: Any) -> str:  # its notation, else its fields
            if getattr(type(profile), "__str__") is not getattr(object, "__str__"):  # a notation of its own
                return str(profile)
            return ", ".join(f"{k} {v}" for k, v in profile_to_dict(profile).items()
                             if not isinstance(v, (dict, list)) and v not in (False, 0, ""))

        library = default_library(game)
        tables: list[Table] = []
        listed: list[dict[str, Any]] = []
        for source, title in (("built in", "built in"),
                              (bundled_library_name(game), f"--profiles {bundled_library_name(game)}, the default")):
            rows: list[list[Any]] = []
            for kind in PROFILE_KINDS[game]:
                entries = builtin_profiles(game, kind) if source == "built in" else library.get(kind, {})
                for name, profile in entries.items():
                    rows.append([kind, name, text(profile)])
                    listed.append({"kind": kind, "name": name, "source": source, "fields": profile_to_dict(profile)})
            if rows:
                tables.append(Table(f"{cli_name} profiles: {title}", ["kind", "name", "profile"], rows))
        emit(fmt, tables, {"game": game, "profiles": listed})


#: The file types ``--plot`` writes.
PLOT_SUFFIXES = (".png", ".svg")


def note_result(result: Any) -> None:
    """Remember a result the running command prints, for ``--plot`` and the CSV summary figures
    (no-op outside a command)."""
    from typer._click.globals import get_current_context

    ctx = get_current_context(silent=True)
    if ctx is not None and capture.get() is None:  # a sweep's cells are not what the sweep prints
        ctx.meta.setdefault("mathhammer.results", []).append(result)


def note_plot(draw: Callable[[], Any]) -> None:
    """Give the running command's ``--plot`` a picture of its own, for output that is not a result's
    distribution (a comparison matrix, a sweep table): ``draw()`` returns the matplotlib Axes it drew
    on. No-op outside a command."""
    from typer._click.globals import get_current_context

    ctx = get_current_context(silent=True)
    if ctx is not None:
        ctx.meta["mathhammer.draw"] = draw


def _check_plot(ctx: Any, param: Any, value: Any) -> Any:
    """--plot FILE: a .png or .svg, and matplotlib installed; checked before anything is computed."""
    if value is None:
        return value
    from importlib.util import find_spec

    from mathhammer._validate import InputError

    path = Path(value)
    if path.suffix.lower() not in PLOT_SUFFIXES:
        raise InputError("--plot", f"{value!r}: give a file ending in {' or '.join(PLOT_SUFFIXES)}")
    if find_spec("matplotlib") is None:
        raise InputError("--plot", "plotting needs matplotlib: pip install 'mathhammer[plot]'")
    ctx.meta["mathhammer.plot"] = path
    return value


def save_plot() -> None:
    """Draw the results the command printed into its ``--plot`` file (headless: the Agg backend)."""
    from typer._click.globals import get_current_context

    ctx = get_current_context(silent=True)
    if ctx is None or ctx.meta.get("mathhammer.plot") is None:
        return
    path = ctx.meta["mathhammer.plot"]
    from mathhammer._validate import InputError

    draw = ctx.meta.get("mathhammer.draw")
    results = [r for r in ctx.meta.get("mathhammer.results", []) if hasattr(r, "plot_series")]
    if draw is None and not results:
        raise InputError("--plot", "this command's output has no distribution to plot")
    import matplotlib

    matplotlib.use("Agg")  # no window, also without a display
    import matplotlib.pyplot as plt

    from mathhammer.plotting import plot

    ax = draw() if draw is not None else plot(results)
    try:
        ax.figure.savefig(path, bbox_inches="tight")
    except OSError as error:
        raise InputError("--plot", f"cannot write {str(path)!r}: {error.strerror or error}") from None
    finally:
        plt.close(ax.figure)
