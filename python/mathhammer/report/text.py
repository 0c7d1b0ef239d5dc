"""Cells and labels of the comparison matrices every game prints (``kt.compare``, ``sc.compare``):
percentages as players read them, Markdown tables, row and column labels told apart."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from mathhammer.report.render import text_table
from mathhammer.report.tables import CERTAIN

__all__ = ["label_of", "markdown_table", "number", "percent", "signed_percent", "text_table", "unique_labels"]


def percent(value: float) -> str:
    """A probability as players read it: "37.5%"; certain and impossible outcomes exactly (within
    report.tables.CERTAIN of 1 or 0)."""
    if value <= CERTAIN:
        return "0%"
    if value >= 1.0 - CERTAIN:
        return "100%"
    if value < 0.0005 or value > 0.9995:  # neither impossible nor certain, so not rounded to look it
        return "<0.1%" if value < 0.5 else ">99.9%"
    return f"{100 * value:.1f}%"


def number(value: float) -> str:
    return f"{value:.2f}"


def signed_percent(value: float, decimals: int = 1, percent: bool = True) -> str:
    """A difference of probabilities: "+2.5%", "-0.3%", and "0.0%" for one that rounds to nothing
    (never "-0.0%"); with ``percent=False`` a signed fraction ("+0.0250")."""
    text = f"{100 * value:+.{decimals}f}%" if percent else f"{value:+.{decimals}f}"
    return text[1:] if float(text.rstrip("%")) == 0 else text


def markdown_table(title: str, header: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    def escape(cell: str) -> str:
        return cell.replace("|", "\\|")

    lines = [f"### {escape(title)}", ""] if title else []
    lines.append("| " + " | ".join(escape(h) for h in header) + " |")
    lines.append("|" + "---|" * len(header))
    lines += ["| " + " | ".join(escape(c) for c in row) + " |" for row in rows]
    return "\n".join(lines)


def unique_labels(labels: Sequence[str]) -> list[str]:
    """Labels with repeats told apart ("4A 3+ 3/4", "4A 3+ 3/4 #2"): they key rows and columns."""
    seen: dict[str, int] = {}
    out = []
    for label in labels:
        seen[label] = seen.get(label, 0) + 1
        out.append(label if seen[label] == 1 else f"{label} #{seen[label]}")
    return out


def label_of(value: Any) -> str:
    return str(getattr(value, "name", "") or value)
