"""Renderers that need no command-line library: Markdown, HTML, CSV and plain text.

Each takes :class:`~mathhammer.report.tables.Section` s and returns text. Numbers are printed as the
tables show them (:func:`~mathhammer.report.tables.shown_rows`; CSV at full precision); the terminal's Rich renderer
lives with the command line.
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Mapping, Sequence
from html import escape
from typing import Any

from mathhammer.report.tables import Section, Table, shown_rows

__all__ = ["csv_table", "full_precision", "html", "markdown", "named_tables", "table_name", "text", "text_table"]


def markdown(sections: Sequence[Section]) -> str:
    """Sections as Markdown: a heading each, its tables, its summary lines as a list."""
    parts = []
    for section in sections:
        if section.heading:
            parts.append(f"## {section.heading}")
        for table in section.tables:
            lines = [f"### {table.title}", "", "| " + " | ".join(table.columns) + " |"]
            lines.append("|" + "---|" * len(table.columns))
            lines += ["| " + " | ".join(row) + " |" for row in shown_rows(table)]
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
            body = "".join("<tr>" + "".join(f"<td>{escape(cell)}</td>" for cell in row) + "</tr>"
                           for row in shown_rows(table))
            parts.append(f"<table><caption>{escape(table.title)}</caption><thead><tr>{head}</tr></thead>"
                         f"<tbody>{body}</tbody></table>")
        if section.summary:
            parts.append("<ul>" + "".join(f"<li>{escape(line)}</li>" for line in section.summary) + "</ul>")
    return "\n".join(parts)


def csv_table(table: Table) -> str:
    """One table as CSV: the header line first, then the rows, numbers at full precision (the
    shortest text that reads back as the same float). What ``pandas.read_csv`` loads as it is."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(table.columns)
    writer.writerows([[full_precision(v) for v in row] for row in table.rows])
    return out.getvalue()


def full_precision(value: Any) -> str:
    """A cell for files that are read back: floats exactly (``repr``), the rest as ``str``."""
    return repr(value) if isinstance(value, float) else str(value)


def table_name(title: str) -> str:
    """The name ``--table`` picks a table by: its title in lower case, words joined by "-", cut at
    the first ":" ("Damage: 4A 3+ ..." is "damage")."""
    head = title.split(":", 1)[0]
    return re.sub(r"[^a-z0-9]+", "-", head.lower()).strip("-") or "table"


def named_tables(sections: Sequence[Section], figures: Sequence[tuple[str, Mapping[str, Any]]] = ()
                 ) -> list[tuple[str, Table]]:
    """Every table of ``sections``, then each result's summary figures as a ``figure,value`` table,
    under the names ``--table`` knows them by (made unique with "-2", "-3", ...)."""
    tables = [(table_name(table.title), table) for section in sections for table in section.tables]
    tables += [("summary", Table(title, ["figure", "value"], [[k, v] for k, v in values.items()]))
               for title, values in figures]
    out: list[tuple[str, Table]] = []
    seen: dict[str, int] = {}
    for name, table in tables:
        seen[name] = seen.get(name, 0) + 1
        out.append((name if seen[name] == 1 else f"{name}-{seen[name]}", table))
    return out


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
    return text_table(table.title, table.columns, shown_rows(table))


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
