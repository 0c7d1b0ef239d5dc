"""The pictures ``--plot`` draws for outputs that are not one distribution: comparison matrices
(grouped bars, one group per save, opponent or unit) and sweep tables (a figure against the first
numeric axis, one line per combination of the other axes).

Each function draws on a new figure (or ``ax``) and returns the matplotlib Axes; matplotlib is
imported only here, when a plot is asked for.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from mathhammer.results import _pyplot

#: A sweep draws at most this many lines; the title says how many were left out.
MAX_SWEEP_LINES = 8
#: Legend labels longer than this are cut (weapon notations can run long).
MAX_LABEL = 40


def _short(label: str) -> str:
    return label if len(label) <= MAX_LABEL else label[: MAX_LABEL - 1] + "…"


def _wrapped(label: str, count: int) -> str:
    """A category label broken into lines narrow enough for ``count`` of them side by side."""
    import textwrap

    return "\n".join(textwrap.wrap(_short(label), width=max(10, 72 // max(count, 1)))) or label


def _axes(ax: Any) -> Any:
    if ax is None:
        _, ax = _pyplot().subplots(figsize=(7, 4))
    return ax


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


def killteam_comparison(comparison: Any, title: str, ax: Any = None) -> Any:
    """kt.compare: mean damage at each save, one bar per weapon."""
    return grouped_bars([f"{save}+" for save in comparison.saves],
                        [(label, comparison.mean[i]) for i, label in enumerate(comparison.labels)],
                        xlabel="save", ylabel="mean damage", title=title, ax=ax)


def fight_comparison(comparison: Any, title: str, ax: Any = None) -> Any:
    """kt.compare_fights: the chance to kill each opponent, one bar per fighter."""
    return grouped_bars(list(comparison.opponents),
                        [(label, comparison.kill[i]) for i, label in enumerate(comparison.fighters)],
                        xlabel="opponent", ylabel="kill chance", title=title, percent=True, ax=ax)


def starcraft_comparison(comparison: Any, title: str, ax: Any = None) -> Any:
    """sc.compare: mean damage into each unit, one bar per weapon."""
    return grouped_bars(list(comparison.units),
                        [(label, comparison.damage[i]) for i, label in enumerate(comparison.weapons)],
                        xlabel="target unit", ylabel="mean damage", title=title, ax=ax)


def advice(result: Any, title: str, ax: Any = None) -> Any:
    """kt.Advice: the wounds each fighter is left on after each legal move (expected, when Feel No
    Pain or relics leave it to chance), the best move marked."""
    moves = [f"{m.move}{' (best)' if m.best else ''}" for m in result.moves]
    return grouped_bars(moves, [("A", [m.wounds_a for m in result.moves]), ("B", [m.wounds_b for m in result.moves])],
                        xlabel=f"{(result.mover or '').upper()}'s move", ylabel="wounds left", title=title, ax=ax)


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
        from mathhammer._validate import InputError

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
    ax.set_title(title + (f" (first {MAX_SWEEP_LINES} of {len(groups)} lines)" if left_out > 0 else ""))
    ax.set_xlabel(x_axis)
    ax.set_ylabel(figure.replace("_", " ") + (" (%)" if percent else ""))
    if percent:
        _percent_axis(ax)
    if others:
        ax.legend(fontsize="small", framealpha=0.9)
    ax.grid(alpha=0.3)
    return ax
