"""What every game's CLI command shares: output formats, tables, the progress bar, common options.

Each game's ``<game>/cli.py`` builds its result, turns it into a few :class:`Table` objects plus a
JSON payload, and calls :func:`emit`. Bad input raises ``InputError`` and the top-level ``main``
turns it into a one-line message and exit code 2.
"""

from __future__ import annotations

import csv
import enum
import io
import json
import sys
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Annotated, Any

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
SamplesOption = Annotated[int, typer.Option(help="Monte Carlo samples.", min=1)]
SeedOption = Annotated[int | None, typer.Option(help="Seed for Monte Carlo (same seed, same result).")]
ThreadsOption = Annotated[int | None, typer.Option(help="Threads for Monte Carlo (default: all cores).")]


@dataclass
class Table:
    """A titled table: the unit every output format prints."""

    title: str
    columns: list[str]
    rows: list[list[Any]] = field(default_factory=list)


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


def emit(fmt: OutputFormat, tables: Sequence[Table], payload: dict[str, Any], summary: Sequence[str] = ()) -> None:
    """Print the result: Rich tables, JSON (the payload), CSV or Markdown (the tables)."""
    if fmt is OutputFormat.json:
        sys.stdout.write(json.dumps(payload, indent=2) + "\n")
    elif fmt is OutputFormat.csv:
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\n")
        for n, table in enumerate(tables):
            if n:
                out.write("\n")
            out.write(f"# {table.title}\n")
            writer.writerow(table.columns)
            writer.writerows([[_cell(v) for v in row] for row in table.rows])
        sys.stdout.write(out.getvalue())
    elif fmt is OutputFormat.markdown:
        parts = []
        for table in tables:
            lines = [f"### {table.title}", "", "| " + " | ".join(table.columns) + " |"]
            lines.append("|" + "---|" * len(table.columns))
            lines += ["| " + " | ".join(_cell(v) for v in row) + " |" for row in table.rows]
            parts.append("\n".join(lines))
        parts += [f"- {line}" for line in summary]
        sys.stdout.write("\n\n".join(parts) + "\n")
    else:
        from rich.console import Console
        from rich.table import Table as RichTable

        console = Console()
        for table in tables:
            rich_table = RichTable(title=table.title, title_justify="left")
            for column in table.columns:
                rich_table.add_column(column, justify="right")
            for row in table.rows:
                rich_table.add_row(*[_cell(v) for v in row])
            console.print(rich_table)
        for line in summary:
            console.print(line)


@contextmanager
def progress_bar(description: str, enabled: bool = True, delay: float = 1.0) -> Iterator[Progress | None]:
    """A Rich progress bar on stderr for Monte Carlo runs; it appears only once a run takes > delay s."""
    if not enabled or not sys.stderr.isatty():
        yield None
        return
    from rich.console import Console
    from rich.progress import BarColumn, Progress as RichProgress, TaskProgressColumn, TimeRemainingColumn

    started = time.monotonic()
    state: dict[str, Any] = {}

    def update(done: int, total: int) -> None:
        if "bar" not in state:
            if time.monotonic() - started < delay:
                return
            bar = RichProgress(
                "[progress.description]{task.description}", BarColumn(), TaskProgressColumn(), TimeRemainingColumn(),
                console=Console(stderr=True), transient=True,
            )
            bar.start()
            state["bar"], state["task"] = bar, bar.add_task(description, total=total)
        state["bar"].update(state["task"], completed=done)

    try:
        yield update
    finally:
        if "bar" in state:
            state["bar"].stop()


def result_tables(title: str, result: Any) -> tuple[list[Table], list[str]]:
    """Generic tables for any result dataclass: one per Distribution field, scalars as summary lines.

    Used where a command prints results of several games at once (``mathhammer run``).
    """
    import dataclasses

    from mathhammer.results import Distribution

    tables: list[Table] = []
    summary: list[str] = []
    for f in dataclasses.fields(result):
        value = getattr(result, f.name)
        if isinstance(value, Distribution):
            table = distribution_table(f"{title}: {f.name}", value, f.name)
            tables.append(table)
            summary.append(f"{title}: mean {f.name} {value.mean:.4f} (std {value.std:.4f})")
        elif isinstance(value, float):
            summary.append(f"{title}: {f.name} = {value:.6g}")
        elif isinstance(value, (int, str)) and not isinstance(value, bool) and value is not None:
            summary.append(f"{title}: {f.name} = {value}")
    return tables, summary


class ProgressGroup:
    """Progress bars for a run of several Monte Carlo jobs (one task each), shown only on a terminal
    and only once a job has taken longer than ``delay`` seconds."""

    def __init__(self, enabled: bool = True, delay: float = 1.0) -> None:
        self._enabled = enabled and sys.stderr.isatty()
        self._delay = delay
        self._bar: Any = None

    def __enter__(self) -> ProgressGroup:
        return self

    def __exit__(self, *exc: Any) -> None:
        if self._bar is not None:
            self._bar.stop()

    def callback(self, description: str) -> Progress | None:
        if not self._enabled:
            return None
        started = time.monotonic()
        task: list[Any] = []

        def update(done: int, total: int) -> None:
            if not task:
                if time.monotonic() - started < self._delay:
                    return
                if self._bar is None:
                    from rich.console import Console
                    from rich.progress import BarColumn, Progress as RichProgress, TaskProgressColumn, TimeRemainingColumn

                    self._bar = RichProgress(
                        "[progress.description]{task.description}", BarColumn(), TaskProgressColumn(),
                        TimeRemainingColumn(), console=Console(stderr=True), transient=True,
                    )
                    self._bar.start()
                task.append(self._bar.add_task(description, total=total))
            self._bar.update(task[0], completed=done)

        return update
