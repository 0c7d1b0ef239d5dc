"""How a result presents itself: its game's printer turns it into report tables and summary lines.

Each game registers one printer per result type through its descriptor (:mod:`mathhammer.core.game`),
so the game's own command, ``mathhammer run``, ``result.to_markdown()`` and a notebook print a
result the same way; a result type without a printer gets :func:`generic_tables`. The helpers here
(:func:`distribution_table`, :func:`run_conditions`, :func:`method_line`) are the pieces every
printer shares.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

from mathhammer.core.distributions import Distribution
from mathhammer.report.tables import Section, Table

__all__ = [
    "Printer", "distribution_table", "generic_tables", "method_line", "printed", "register_printer", "run_conditions",
    "sections",
]

#: A printer turns one result into (tables, summary lines); a non-empty ``title`` prefixes every
#: table title and line, for callers that list several results together.
Printer = Callable[[Any, str], "tuple[list[Table], list[str]]"]
_PRINTERS: dict[type, Printer] = {}


def register_printer(result_type: type, printer: Printer) -> None:
    """Make ``printer(result, title)`` the way results of ``result_type`` (and subclasses) are printed."""
    _PRINTERS[result_type] = printer


def printed(title: str, result: Any) -> tuple[list[Table], list[str]]:
    """The tables and summary lines of any result: its game's printer, or :func:`generic_tables`."""
    for cls in type(result).__mro__:
        if cls in _PRINTERS:
            return _PRINTERS[cls](result, title)
    return generic_tables(title, result)


def sections(result: Any) -> list[Section]:
    """The printed form of a result, as the game's own command prints it."""
    tables, lines = printed("", result)
    return [Section("", tables, lines)]


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


def generic_tables(title: str, result: Any) -> tuple[list[Table], list[str]]:
    """Tables for any result dataclass: one per Distribution field, scalars as summary lines."""
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
