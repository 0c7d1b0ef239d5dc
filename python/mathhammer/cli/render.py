"""The terminal's tables: report sections drawn by Rich, split to fit 80 columns, probabilities as
the running command's ``--digits`` and ``--probabilities`` say (:data:`mathhammer.report.tables.DISPLAY`)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from mathhammer.report.tables import Section, current_display, display_cell, probability_cells, terminal_parts

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
            rich_table = RichTable()
            for column in table.columns:
                rich_table.add_column(column, justify="right")
            for row, marks in zip(table.rows, probability_cells(table)):
                rich_table.add_row(*[display_cell(v, m, display) for v, m in zip(row, marks)])
            out.append(rich_table)
        out.extend(Text(line) for line in section.summary)
    return out


def print_sections(sections: Sequence[Section]) -> None:
    """Print sections on the terminal (stdout)."""
    from rich.console import Console

    console = Console()
    for renderable in rich_renderables(sections):
        console.print(renderable)
