"""The terminal's tables: report sections drawn by Rich, split to fit 80 columns, probabilities as
the running command's ``--digits`` and ``--probabilities`` say (:data:`mathhammer.report.tables.DISPLAY`)."""

from __future__ import annotations

import re
import textwrap
from collections.abc import Sequence
from typing import Any

from mathhammer.report.tables import WIDTH, Section, current_display, shown_rows, terminal_parts

__all__ = ["print_sections", "rich_renderables"]


def rich_renderables(sections: Sequence[Section]) -> list[Any]:
    """Sections as Rich renderables (a rule per heading, a title line and a table per table)."""
    from rich.rule import Rule
    from rich.table import Table as RichTable
    from rich.text import Text

    out: list[Any] = []
    display = current_display()
    for section in sections:
        if section.heading:
            out.append(Rule(Text(section.heading, style="bold")))
        for table in [part for whole in section.tables for part in terminal_parts(whole, display)]:
            out.append(Text(table.title, style="bold"))  # above the table, not wrapped to its width
            # a compact table: no lines at all (its header in bold), two spaces between columns
            rich_table = RichTable(box=None, show_edge=False, pad_edge=False) if table.compact else RichTable()
            # names and profiles read left to right; numbers line up on the right
            text = [any(isinstance(row[i], str) and not _NUMERIC.fullmatch(row[i]) for row in table.rows if i < len(row))
                    for i in range(len(table.columns))]
            for index, (column, left) in enumerate(zip(table.columns, text)):
                rich_table.add_column(column, justify="left" if left else "right",
                                      no_wrap=table.compact and index == 0)
            for row in _wrapped(table.columns, shown_rows(table, display), text, table.compact):
                rich_table.add_row(*row)
            out.append(rich_table)
        out.extend(Text(line) for line in section.summary)
    return out


# A space between a word and the number that belongs to it ("Devastating 4", "Lethal 5+"): a table
# wraps a long profile between its rules, never inside one.
_RULE_VALUE = re.compile(r"(?<=[A-Za-z]) (?=\d)")
_KEEP = "\u00a0"
# Text that is a number all the same ("+2.5%", ">=4", "3+"), or stands for none ("-"): aligned with
# the numbers, on the right.
_NUMERIC = re.compile(r"[-+<>=]*\d[\d.,]*[%+]?|-")  # textwrap breaks at ASCII whitespace only


def _wrapped(columns: Sequence[str], rows: list[list[str]], text: Sequence[bool], compact: bool = False
             ) -> list[list[str]]:
    """``rows`` with the widest text column wrapped, at word and rule boundaries, to what is left of
    the terminal's 80 columns: Rich would otherwise break a profile wherever its width falls. A
    compact table (no borders: two spaces between columns) never wraps its first column."""
    if not rows or not any(text):
        return rows
    # a header wraps between its words: a column needs its longest header word and its widest cell
    widths = [max([*(len(word) for word in columns[i].split()), *(len(row[i]) for row in rows if i < len(row))])
              for i in range(len(columns))]
    edge, gap = (-2, 2) if compact else (1, 3)  # what the borders and the padding take
    if edge + sum(w + gap for w in widths) <= WIDTH:
        return rows
    candidates = [i for i in range(1 if compact else 0, len(columns)) if text[i]]
    if not candidates:
        return rows
    widest = max(candidates, key=lambda i: widths[i])
    room = WIDTH - edge - sum(w + gap for i, w in enumerate(widths) if i != widest) - gap
    if room < 12:  # too narrow to read anyway: let Rich fold
        return rows
    out = []
    for row in rows:
        cell = _RULE_VALUE.sub(_KEEP, row[widest])
        lines = textwrap.wrap(cell, room, break_long_words=False, break_on_hyphens=False) or [""]
        out.append([*row[:widest], "\n".join(lines).replace(_KEEP, " "), *row[widest + 1:]])
    return out


def print_sections(sections: Sequence[Section]) -> None:
    """Print sections on the terminal (stdout)."""
    from rich.console import Console

    console = Console()
    for renderable in rich_renderables(sections):
        console.print(renderable)
