"""Tables and sections: the unit every output format prints, and how their cells read.

A result presents itself as :class:`Section` s of :class:`Table` s and summary lines (its game's
printer makes them); the renderers (:mod:`mathhammer.report.render`, and the command line's Rich
renderer) only lay them out. This module knows cells, not dice: which cells hold probabilities is
read off the labels (:func:`probability_cells`), and :class:`Display` says how a terminal shows them.
"""

from __future__ import annotations

import contextvars
import enum
from dataclasses import dataclass, field
from typing import Any

__all__ = [
    "DISPLAY", "WIDTH", "Display", "Probabilities", "Section", "Table", "current_display", "display_cell",
    "number_text", "probability_cells", "probability_text", "shown_rows", "terminal_parts",
]


@dataclass
class Table:
    """A titled table: the unit every output format prints. ``keys``: how many leading columns name
    a row (a sweep's axes); the terminal splits a table wider than 80 columns into parts that repeat
    them, instead of letting the renderer cut its cells and headers. ``compact``: a table read at a
    glance (a summary): the terminal draws it without borders, one line a row where it fits, and
    never wraps its first column (the row's name). ``chances``: the columns that hold chances,
    when their labels do not say so (:func:`probability_cells`)."""

    title: str
    columns: list[str]
    rows: list[list[Any]] = field(default_factory=list)
    keys: int = 0
    compact: bool = False
    chances: tuple[int, ...] = ()


@dataclass
class Section:
    """Tables and summary lines under one heading (``mathhammer run`` prints one per scenario entry)."""

    heading: str
    tables: list[Table]
    summary: list[str] = field(default_factory=list)


class Probabilities(str, enum.Enum):
    percent = "percent"
    fraction = "fraction"


@dataclass(frozen=True)
class Display:
    """How the tables people read (terminal, text, Markdown, HTML) show probabilities: as
    percentages or fractions, with ``digits`` decimals (None: 2 for a percentage, 4 for a fraction,
    the same resolution). JSON and CSV keep the raw numbers."""

    digits: int | None = None
    probabilities: Probabilities = Probabilities.percent

    @property
    def decimals(self) -> int:
        """The decimals a probability is printed with."""
        if self.digits is not None:
            return self.digits
        return 2 if self.probabilities is Probabilities.percent else 4


#: How probabilities print where no display is given: the defaults, or what the running command
#: asked for (``--digits``, ``--probabilities``: the command line sets it for one command).
DISPLAY: contextvars.ContextVar[Display] = contextvars.ContextVar("display", default=Display())


def current_display() -> Display:
    """The display probabilities print with now (:data:`DISPLAY`)."""
    return DISPLAY.get()


#: The terminal width a table with ``keys`` is split to fit.
WIDTH = 80


#: A probability within this of 0 or 1 is printed as impossible or certain: a sum of many exact
#: terms lands a few ulps from 1 (P(damage >= 0) = 0.9999999999999998), which is not a real chance.
CERTAIN = 1e-12


def probability_text(p: float, display: Display | None = None) -> str:
    """A probability as the table prints it: "12.34%", never 0 for a non-zero chance ("<0.01%"),
    never 100% for a chance short of certainty (">99.99%"); within :data:`CERTAIN` of 0 or 1 it is
    0% or 100%."""
    display = display or DISPLAY.get()
    percent = display.probabilities is Probabilities.percent
    decimals = display.decimals
    scale, unit = (100.0, "%") if percent else (1.0, "")
    step = 10.0 ** -decimals  # the smallest printed step
    value = p * scale
    if abs(p) <= CERTAIN or abs(1.0 - p) <= CERTAIN:  # impossible or certain, up to summation's rounding
        return f"{round(p) * scale:.0f}{unit}"
    if value < step / 2:
        return f"<{step:.{decimals}f}{unit}"
    if value > scale - step / 2:
        return f">{scale - step:.{decimals}f}{unit}"
    return f"{value:.{decimals}f}{unit}"


def _is_probability_header(header: str) -> bool:
    return header == "P" or header.startswith("P(") or "chance" in header.lower() or header.lower() == "probability"


def probability_cells(table: Table) -> list[list[bool]]:
    """Which cells of a table hold probabilities, read off its labels: a column headed "P(...)" or
    "... chance" or listed in ``table.chances``; every column but the first in a table titled
    "P(...)"; a row labelled "P(...)"; and the stderr column next to probability columns (the error
    of a probability)."""
    by_title = "P(" in table.title
    columns = [by_title and i > 0 or _is_probability_header(c) or i in table.chances
               for i, c in enumerate(table.columns)]
    if any(columns):
        columns = [flag or c == "stderr" for flag, c in zip(columns, table.columns)]
    marks = []
    for row in table.rows:
        by_row = bool(row) and isinstance(row[0], str) and row[0].startswith("P(")
        marks.append([(columns[i] if i < len(columns) else False) or (by_row and i > 0) for i in range(len(row))])
    return marks


#: Decimals of the numbers that are not probabilities (means, deviations, values) where people read
#: them: one format for a whole column, never ragged significant digits.
DECIMALS = 3


def number_text(value: float) -> str:
    """A number that is not a probability as the tables show it: :data:`DECIMALS` decimals; one too
    small to show so (but not 0) in scientific notation rather than as 0.000."""
    if value != 0.0 and abs(value) < 0.5 * 10.0 ** -DECIMALS:
        return f"{value:.1e}"
    text = f"{value:.{DECIMALS}f}"
    return text[1:] if text.startswith("-") and float(text) == 0 else text


def display_cell(value: Any, probability: bool, display: Display) -> str:
    """A cell as people read it (the terminal, plain text, Markdown, HTML): probabilities as
    :func:`probability_text`, other floats as :func:`number_text`, the rest as ``str``."""
    if probability and isinstance(value, float) and 0.0 <= value <= 1.0:  # ints are counts, not chances
        return probability_text(float(value), display)
    if isinstance(value, float):
        return number_text(value)
    return str(value)


def shown_rows(table: Table, display: Display | None = None) -> list[list[str]]:
    """Every cell of ``table`` as :func:`display_cell` shows it."""
    display = display or DISPLAY.get()
    marks = probability_cells(table)
    return [[display_cell(v, m, display) for v, m in zip(row, mark)] for row, mark in zip(table.rows, marks)]


def terminal_parts(table: Table, display: Display) -> list[Table]:
    """``table`` as the terminal shows it: whole when it fits 80 columns or names no key columns,
    else several tables, each repeating the key columns and numbered in its title."""
    if not table.keys or not table.rows:
        return [table]
    marks = probability_cells(table)

    def width(index: int) -> int:  # its widest cell or its header on one line, with padding and border
        cells = [len(display_cell(row[index], mark[index], display)) for row, mark in zip(table.rows, marks)]
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
                           [[row[i] for i in keep] for row in table.rows], compact=table.compact,
                           chances=tuple(keep.index(i) for i in table.chances if i in keep)))
    return parts
