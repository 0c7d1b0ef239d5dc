"""Pictures: bars of distributions, "at least k" curves, heat maps, grouped bars and sweep lines.

This module draws arrays it is given, and knows nothing of dice: a distribution arrives as a
:class:`Series` (its values, probabilities and, for Monte Carlo, standard errors), a joint table as
a 2-D array, a comparison as categories and values, a sweep as a table. The x axis is the quantity
(damage, wounds left, casualties) at integer ticks, the y axis the probability in percent, and the
title says what was drawn. matplotlib is an optional dependency (``pip install "mathhammer[plot]"``),
imported only when something is drawn. Every function returns the matplotlib Axes it drew on.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from mathhammer.errors import InputError

__all__ = ["KINDS", "LABEL_LINE", "MAX_LABEL", "MAX_SWEEP_LINES", "Series", "grouped_bars", "heat_map",
           "heat_map_panels", "labelled_heat_map", "plot_joint", "plot_series", "pyplot", "save", "sweep_figure"]

#: What a distribution is drawn as: bars of its pmf, or its "at least k" curve.
KINDS: tuple[str, ...] = ("pmf", "at_least")
#: A sweep draws at most this many lines; the title says how many were left out.
MAX_SWEEP_LINES = 8
#: Legend labels longer than this are cut (weapon notations can run long).
MAX_LABEL = 40


@dataclass(frozen=True)
class Series:
    """One curve or bar group: its legend label, the integer ``values`` (consecutive), the
    probability of each, and the Monte Carlo standard error of each (None when exact)."""

    label: str
    values: np.ndarray
    pmf: np.ndarray
    stderr: np.ndarray | None = None

    @property
    def lowest(self) -> int:
        return int(self.values[0]) + int(np.flatnonzero(self.pmf > 0)[0])

    @property
    def highest(self) -> int:
        return int(self.values[0]) + int(np.flatnonzero(self.pmf > 0)[-1])

    def prob(self, value: int) -> float:
        i = value - int(self.values[0])
        return float(self.pmf[i]) if 0 <= i < self.pmf.size else 0.0

    def at_least(self, value: int) -> float:
        i = max(0, value - int(self.values[0]))
        return float(min(1.0, self.pmf[i:].sum()))


def pyplot() -> Any:
    """matplotlib's pyplot, or an ImportError saying how to install it."""
    try:
        import matplotlib.pyplot as plt
    except ImportError:
        raise ImportError("plotting needs matplotlib: pip install 'mathhammer[plot]'") from None
    return plt


#: The least width, in pixels, of a picture ``save`` writes as PNG.
MIN_PIXELS = 1200


def save(draw: Callable[[], Any], path: Path) -> None:
    """Draw a picture with ``draw()`` (it returns the Axes it drew on) into the file ``path`` (.png or
    .svg), headless: the Agg backend, no window even without a display. OSError if it cannot be written."""
    import matplotlib

    matplotlib.use("Agg")
    plt = pyplot()
    ax = draw()
    try:
        # at least MIN_PIXELS wide, a size a screen reads: the tight box's inches (and its padding)
        # times the dots per inch
        figure = ax.figure
        inches = figure.get_tightbbox(figure.canvas.get_renderer()).width + 0.2
        dpi = max(100, math.ceil(MIN_PIXELS / inches))
        ax.figure.savefig(path, bbox_inches="tight", dpi=dpi)
    finally:
        plt.close(ax.figure)


def _axes(ax: Any) -> Any:
    if ax is None:
        _, ax = pyplot().subplots(figsize=(7, 4))
    return ax


def _integer_ticks(ax: Any, lo: int, hi: int) -> None:
    from matplotlib.ticker import MaxNLocator

    ax.xaxis.set_major_locator(MaxNLocator(integer=True, nbins=min(12, hi - lo + 1)))
    ax.set_xlim(lo - 0.6, hi + 0.6)


def _percent(ax: Any, top: float, room: float) -> None:
    from matplotlib.ticker import FuncFormatter, MaxNLocator

    ax.yaxis.set_major_locator(MaxNLocator(steps=[1, 2, 5, 10]))  # 0, 5, 10 %: no rounded-off labels
    ax.yaxis.set_major_formatter(FuncFormatter(lambda value, _: f"{value:.4g}%"))
    ax.set_ylim(0, max(top, 1e-9) * (1 + room))


def plot_series(
    series: Sequence[Series],
    *,
    quantity: str,
    title: str = "",
    kind: str = "pmf",
    ax: Any = None,
    **bar_kwargs: Any,
) -> Any:
    """Several distributions of one quantity on one axis.

    kind "pmf": grouped bars, side by side (never overlapping), with 2-standard-error bars on the
    non-empty cells of Monte Carlo distributions; kind "at_least": P(quantity >= k) curves (one of
    :data:`KINDS`, checked by the caller).
    """
    if not series:
        raise InputError("results", "nothing to plot")
    ax = _axes(ax)
    lo = min(s.lowest for s in series)
    hi = max(s.highest for s in series)
    width = 0.8 / len(series)
    top = 0.0
    for index, one in enumerate(series):
        label = one.label
        values = np.arange(lo, hi + 1)
        if kind == "pmf":
            p = np.array([one.prob(int(v)) for v in values]) * 100
            x = values - 0.4 + width * (index + 0.5)
            ax.bar(x, p, width=width, label=label or None, **bar_kwargs)
            top = max(top, float(p.max()))
            errors = one.stderr
            if errors is not None:
                cells = np.flatnonzero(one.pmf > 0)
                ax.errorbar(one.values[cells] - 0.4 + width * (index + 0.5), one.pmf[cells] * 100,
                            yerr=2 * errors[cells] * 100, fmt="none", ecolor="black", capsize=2, linewidth=0.8)
        else:
            p = np.array([one.at_least(int(v)) for v in values]) * 100
            ax.plot(values, p, marker="o", markersize=3, drawstyle="steps-mid", label=label or None)
            top = max(top, float(p.max()))
    labelled = [s.label for s in series if s.label]
    legend = len(series) > 1 and bool(labelled)
    _integer_ticks(ax, lo, hi)
    # Room above the tallest bar for the legend, one row per series.
    _percent(ax, top, 0.1 + (0.09 * len(series) if legend else 0.0))
    ax.set_xlabel(quantity if kind == "pmf" else f"at least this {quantity} (k)")
    ax.set_ylabel("probability" if kind == "pmf" else f"P({quantity} \u2265 k)")
    if title:
        ax.set_title(title)
    if legend:
        ax.legend(loc="upper right", fontsize="small", framealpha=0.9)
    ax.grid(axis="y", alpha=0.3)
    return ax


def plot_joint(pmf: np.ndarray, *, labels: tuple[str, str], title: str = "", ax: Any = None,
               **imshow_kwargs: Any) -> Any:
    """A heat map of a joint distribution's table in percent, its axes labelled ``labels`` (rows,
    columns)."""
    ax = _axes(ax)
    image = ax.imshow(pmf * 100, origin="lower", aspect="auto", cmap=imshow_kwargs.pop("cmap", "viridis"),
                      **imshow_kwargs)
    rows, cols = pmf.shape
    from matplotlib.ticker import MaxNLocator

    ax.xaxis.set_major_locator(MaxNLocator(integer=True, nbins=min(12, cols)))
    ax.yaxis.set_major_locator(MaxNLocator(integer=True, nbins=min(12, rows)))
    ax.set_ylabel(labels[0])
    ax.set_xlabel(labels[1])
    ax.figure.colorbar(image, ax=ax, label="probability (%)")
    if title:
        ax.set_title(title)
    return ax


def heat_map(pmf: np.ndarray, *, rows: str, columns: str, ax: Any = None, **imshow_kwargs: Any) -> Any:
    """A heat map of a joint table of probabilities, its axes named ``rows`` and ``columns``."""
    ax = _axes(ax)
    image = ax.imshow(pmf, origin="lower", aspect="auto", **imshow_kwargs)
    ax.set_ylabel(rows)
    ax.set_xlabel(columns)
    ax.figure.colorbar(image, ax=ax, label="probability")
    return ax


#: The widest line of a heat map's tick label: a longer name is wrapped onto more lines, never cut.
LABEL_LINE = 28


def _whole(label: str, width: int = LABEL_LINE) -> str:
    """A tick label whole, wrapped between words onto lines of at most ``width`` characters (a word
    longer than that keeps its line): no two different names read the same, none is cut."""
    import textwrap

    return "\n".join(textwrap.wrap(label, width, break_long_words=False, break_on_hyphens=False)) or label


def labelled_heat_map(values: np.ndarray, rows: Sequence[str], columns: Sequence[str], *, title: str = "",
                      label: str = "", percent: bool = False, ax: Any = None, scale: str = "fixed") -> Any:
    """A heat map of a table of figures with every row and column labelled (a matchup's weapons x
    operatives), each label whole (long names wrapped, never cut). Sized to its table, its height
    growing with the rows and their lines, so that 49 rows x 14 columns still read: each cell holds
    its value while the table has at most 60 rows and 20 columns; empty cells (NaN) stay blank.
    ``scale``: "fixed" colours a percentage from 0 to 100%, "data" any table from its lowest
    value to its highest (so that rows of small chances still differ)."""
    table = np.asarray(values, dtype=float)
    n_rows, n_columns = table.shape
    row_labels, column_labels = [_whole(r) for r in rows], [_whole(c, 20) for c in columns]
    if ax is None:
        _, ax = pyplot().subplots(figsize=_heat_map_size(row_labels, column_labels))
    finite = table[np.isfinite(table)]
    low: float | None = None
    high: float | None = None
    if scale == "data" and finite.size:
        low, high = float(finite.min()), float(finite.max())
    elif percent:
        low, high = 0.0, 1.0
    image = ax.imshow(table, aspect="auto", cmap="viridis", vmin=low, vmax=high)
    size = 7 if n_rows <= 30 else 6
    ax.set_xticks(range(n_columns), column_labels, rotation=45, ha="right", fontsize=size)
    ax.set_yticks(range(n_rows), row_labels, fontsize=size)
    if n_rows <= 60 and n_columns <= 20:
        middle = float((finite.max() + finite.min()) / 2) if finite.size else 0.0
        for i in range(n_rows):
            for j in range(n_columns):
                v = table[i, j]
                if math.isnan(v):
                    continue
                if percent:
                    text = f"{100 * v:.0f}"
                else:
                    text = "∞" if math.isinf(v) else f"{v:.2g}" if v < 10 else f"{v:.0f}"
                ax.text(j, i, text, ha="center", va="center", fontsize=size - 1,
                        color="black" if math.isfinite(v) and v > middle else "white")
    bar = ax.figure.colorbar(image, ax=ax, label=label + (" (%)" if percent else ""))
    if percent:
        from matplotlib.ticker import PercentFormatter

        bar.ax.yaxis.set_major_formatter(PercentFormatter(1.0))
    if title:
        ax.set_title(title)
    return ax


def _heat_map_size(rows: Sequence[str], columns: Sequence[str]) -> tuple[float, float]:
    """A heat map's size in inches: its width from its columns, its height from its rows' lines (a
    wrapped label takes several) and the height of the rotated column labels."""
    lines = sum(r.count("\n") + 1 for r in rows)
    longest = max((len(line) for c in columns for line in c.split("\n")), default=0)
    width = min(4 + 0.75 * len(columns) + 0.06 * max(len(line) for r in rows for line in r.split("\n")), 40)
    return width, min(1.5 + 0.16 * max(lines, 2 * len(rows)) + 0.05 * longest, 80)


def heat_map_panels(panels: Sequence[tuple[np.ndarray, Sequence[str], Sequence[str], str, str]],
                    title: str = "") -> Any:
    """Heat maps one above the other (each ``(values, rows, columns, title, label)``, a percentage
    coloured from its lowest value to its highest), each as tall as its rows need; returns the
    first panel's Axes (its figure holds them all)."""
    sizes = [_heat_map_size([_whole(r) for r in rows], [_whole(c, 20) for c in columns])
             for _, rows, columns, _, _ in panels]
    figure, axes = pyplot().subplots(len(panels), 1, figsize=(max(w for w, _ in sizes), sum(h for _, h in sizes)),
                                     gridspec_kw={"height_ratios": [h for _, h in sizes]}, squeeze=False)
    for ax, (values, rows, columns, heading, label) in zip(axes[:, 0], panels):
        labelled_heat_map(values, rows, columns, title=heading, label=label, percent=True, ax=ax, scale="data")
    if title:
        figure.suptitle(title)
    figure.tight_layout()
    return axes[0, 0]


def _short(label: str) -> str:
    return label if len(label) <= MAX_LABEL else label[: MAX_LABEL - 1] + "…"


def _wrapped(label: str, count: int) -> str:
    """A category label broken into lines narrow enough for ``count`` of them side by side."""
    import textwrap

    return "\n".join(textwrap.wrap(_short(label), width=max(10, 72 // max(count, 1)))) or label


def _percent_axis(ax: Any) -> None:
    from matplotlib.ticker import FuncFormatter

    ax.yaxis.set_major_formatter(FuncFormatter(lambda value, _: f"{value:.4g}%"))


def grouped_bars(
    categories: Sequence[str],
    series: Sequence[tuple[str, Sequence[float]]],
    *,
    xlabel: str,
    ylabel: str,
    title: str,
    percent: bool = False,
    ax: Any = None,
) -> Any:
    """One group of bars per category, one bar per series, side by side (never overlapping).
    ``percent``: the values are probabilities, drawn in percent."""
    ax = _axes(ax)
    width = 0.8 / max(len(series), 1)
    scale = 100.0 if percent else 1.0
    top = 0.0
    for index, (label, values) in enumerate(series):
        xs = [i - 0.4 + width * (index + 0.5) for i in range(len(categories))]
        heights = [float(v) * scale for v in values]
        ax.bar(xs, heights, width=width, label=_short(label))
        top = max([top, *heights])
    ax.set_xticks(range(len(categories)))
    ax.set_xticklabels([_wrapped(c, len(categories)) for c in categories])
    ax.set_xlim(-0.6, len(categories) - 0.4)
    room = 0.1 + (0.09 * len(series) if len(series) > 1 else 0.0)  # the legend sits above the bars
    ax.set_ylim(0, max(top, 1e-9) * (1 + room))
    if percent:
        _percent_axis(ax)
    ax.set_xlabel(xlabel)
    ax.set_ylabel(f"{ylabel} (%)" if percent else ylabel)
    ax.set_title(title)
    if len(series) > 1:
        ax.legend(loc="upper right", fontsize="small", framealpha=0.9)
    ax.grid(axis="y", alpha=0.3)
    return ax


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)


def _as_number(value: Any) -> float | None:
    """An axis value as a number: numbers, and text options given numbers ("3" of --hit 3)."""
    if _is_number(value):
        return float(value)
    if isinstance(value, str):
        try:
            number = float(value.strip().rstrip("+"))
        except ValueError:
            return None
        return number if math.isfinite(number) else None
    return None


def sweep_figure(frame: Any, axes: Sequence[str], title: str, ax: Any = None) -> Any:
    """A sweep table: its first summary figure against the first axis whose values are all numbers
    (put the axis to draw along first in the grid; else the first axis, as categories), one line per combination of the other axes (at most
    :data:`MAX_SWEEP_LINES`). Probabilities (figures named ``*chance*`` or ``p_*``) in percent."""
    ax = _axes(ax)
    axes = list(axes)
    figures = [c for c in frame.columns if c not in axes and all(_is_number(v) for v in frame[c])]
    if not figures:
        raise InputError("--plot", "the sweep has no numeric figure to plot")
    figure = figures[0]
    numeric = [a for a in axes if all(_as_number(v) is not None for v in frame[a])]
    x_axis = numeric[0] if numeric else axes[0]
    others = [a for a in axes if a != x_axis]
    percent = "chance" in figure or figure.startswith("p_")
    scale = 100.0 if percent else 1.0
    categories = list(dict.fromkeys(frame[x_axis]))
    groups: dict[tuple[Any, ...], Any] = {}
    for key, rows in (frame.groupby(others, sort=False) if others else [((), frame)]):
        groups[key if isinstance(key, tuple) else (key,)] = rows
    for key, rows in list(groups.items())[:MAX_SWEEP_LINES]:
        label = ", ".join(f"{name}={value}" for name, value in zip(others, key))
        if numeric:
            xs, ys = [_as_number(v) for v in rows[x_axis]], [float(v) * scale for v in rows[figure]]
        else:  # categories in the order the sweep ran them
            xs = [categories.index(v) for v in rows[x_axis]]
            ys = [float(v) * scale for v in rows[figure]]
        ax.plot(xs, ys, marker="o", markersize=3, label=_short(label) if label else None)
    if numeric:
        from matplotlib.ticker import MaxNLocator

        ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    else:
        ax.set_xticks(range(len(categories)))
        ax.set_xticklabels([_wrapped(str(c), len(categories)) for c in categories])
    left_out = len(groups) - MAX_SWEEP_LINES
    title += f": {figure.replace('_', ' ')} by {x_axis}" + (f", one line per {', '.join(others)}" if others else "")
    ax.set_title(title + (f" (first {MAX_SWEEP_LINES} of {len(groups)} lines)" if left_out > 0 else ""))
    ax.set_xlabel(x_axis)
    ax.set_ylabel(figure.replace("_", " ") + (" (%)" if percent else ""))
    if percent:
        _percent_axis(ax)
    if others:
        ax.legend(fontsize="small", framealpha=0.9)
    ax.grid(alpha=0.3)
    return ax
