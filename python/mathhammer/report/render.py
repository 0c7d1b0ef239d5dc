"""Renderers that need no command-line library: Markdown, HTML, CSV and plain text.

Each takes :class:`~mathhammer.report.tables.Section` s and returns text. Numbers are printed as the
text formats print them (:func:`~mathhammer.report.tables.cell_text`); the terminal's Rich renderer
lives with the command line.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Mapping, Sequence
from html import escape
from typing import Any

from mathhammer.report.tables import Section, Table, cell_text, current_display, display_cell, probability_cells

__all__ = ["csv_text", "html", "markdown", "text", "text_table"]


def markdown(sections: Sequence[Section]) -> str:
    """Sections as Markdown: a heading each, its tables, its summary lines as a list."""
    parts = []
    for section in sections:
        if section.heading:
            parts.append(f"## {section.heading}")
        for table in section.tables:
            lines = [f"### {table.title}", "", "| " + " | ".join(table.columns) + " |"]
            lines.append("|" + "---|" * len(table.columns))
            lines += ["| " + " | ".join(cell_text(v) for v in row) + " |" for row in table.rows]
            parts.append("\n".join(lines))
        if section.summary:
            parts.append("\n".join(f"- {line}" for line in section.summary))
    return "\n\n".join(parts)


def html(sections: Sequence[Section]) -> str:
    """Sections as HTML (what a notebook shows): headings, tables and the summary lines."""
    parts = []
    for section in sections:
        if section.heading:
            parts.append(f"<h3>{escape(section.heading)}</h3>")
        for table in section.tables:
            head = "".join(f"<th>{escape(c)}</th>" for c in table.columns)
            body = "".join("<tr>" + "".join(f"<td>{escape(cell_text(v))}</td>" for v in row) + "</tr>"
                           for row in table.rows)
            parts.append(f"<table><caption>{escape(table.title)}</caption><thead><tr>{head}</tr></thead>"
                         f"<tbody>{body}</tbody></table>")
        if section.summary:
            parts.append("<ul>" + "".join(f"<li>{escape(line)}</li>" for line in section.summary) + "</ul>")
    return "\n".join(parts)


def csv_text(sections: Sequence[Section], figures: Sequence[tuple[str, Mapping[str, Any]]] = ()) -> str:
    """Sections' tables as CSV blocks, each after a ``# title`` line, then one ``figure,value``
    block per entry of ``figures`` (a title and the summary figures of a result)."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    first = True
    for section in sections:
        for table in section.tables:
            out.write("" if first else "\n")
            first = False
            out.write(f"# {section.heading + ': ' if section.heading else ''}{table.title}\n")
            writer.writerow(table.columns)
            writer.writerows([[cell_text(v) for v in row] for row in table.rows])
    for title, values in figures:
        out.write(f"\n# {title}\n")
        writer.writerow(["figure", "value"])
        writer.writerows([[name, cell_text(value)] for name, value in values.items()])
    return out.getvalue()


def text_table(title: str, header: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    """Right-aligned columns under a title, the first column left-aligned (row labels)."""
    table = [list(header)] + [list(row) for row in rows]
    widths = [max(len(row[i]) for row in table) for i in range(len(header))]
    lines = [title] if title else []
    for row in table:
        cells = [row[0].ljust(widths[0])] + [cell.rjust(width) for cell, width in zip(row[1:], widths[1:])]
        lines.append("  ".join(cells).rstrip())
    return "\n".join(lines)


def _table_text(table: Table) -> str:
    display = current_display()
    marks = probability_cells(table)
    return text_table(table.title, table.columns,
                      [[display_cell(v, m, display) for v, m in zip(row, mark)] for row, mark in zip(table.rows, marks)])


def text(sections: Sequence[Section]) -> str:
    """Sections as plain text: a heading line each, its tables as aligned columns (probabilities as
    the terminal shows them: percentages), its summary lines."""
    parts = []
    for section in sections:
        if section.heading:
            parts.append(f"== {section.heading}")
        parts += [_table_text(table) for table in section.tables]
        if section.summary:
            parts.append("\n".join(section.summary))
    return "\n\n".join(parts)
