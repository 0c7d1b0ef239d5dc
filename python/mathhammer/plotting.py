"""Pictures of results: grouped bars of the pmf, "at least k" curves, and joint heat maps.

``result.plot(kind="pmf" | "at_least")`` on every engine result and ``mathhammer.plot(results)`` for
several on one axis. The x axis is the quantity (damage, wounds left, casualties) at integer ticks,
the y axis the probability in percent, and the title says what was computed. matplotlib is an
optional dependency (``pip install "mathhammer[plot]"``); nothing here imports it until a plot is
drawn. Every function returns the matplotlib Axes it drew on.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from mathhammer._validate import InputError, InputTypeError, check_choice
from mathhammer.results import Distribution, JointDistribution, _pyplot

__all__ = ["KINDS", "Series", "plot", "plot_joint", "plot_series"]

KINDS: tuple[str, ...] = ("pmf", "at_least")

#: One curve or bar group: its legend label and its distribution.
Series = tuple[str, Distribution]


def _axes(ax: Any) -> Any:
    if ax is None:
        _, ax = _pyplot().subplots(figsize=(7, 4))
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
    non-empty cells of Monte Carlo distributions; kind "at_least": P(quantity >= k) curves.
    """
    kind = check_choice("kind", kind, KINDS)
    if not series:
        raise InputError("results", "nothing to plot")
    ax = _axes(ax)
    lo = min(d.min for _, d in series)
    hi = max(d.max for _, d in series)
    width = 0.8 / len(series)
    top = 0.0
    for index, (label, dist) in enumerate(series):
        values = np.arange(lo, hi + 1)
        if kind == "pmf":
            p = np.array([dist.prob(int(v)) for v in values]) * 100
            x = values - 0.4 + width * (index + 0.5)
            ax.bar(x, p, width=width, label=label or None, **bar_kwargs)
            top = max(top, float(p.max()))
            errors = dist.stderr
            if errors is not None:
                cells = np.flatnonzero(dist.pmf > 0)
                ax.errorbar(dist.values[cells] - 0.4 + width * (index + 0.5), dist.pmf[cells] * 100,
                            yerr=2 * errors[cells] * 100, fmt="none", ecolor="black", capsize=2, linewidth=0.8)
        else:
            p = np.array([dist.at_least(int(v)) for v in values]) * 100
            ax.plot(values, p, marker="o", markersize=3, drawstyle="steps-mid", label=label or None)
            top = max(top, float(p.max()))
    labelled = [label for label, _ in series if label]
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


def plot_joint(joint: JointDistribution, *, labels: tuple[str, str], title: str = "", ax: Any = None,
               **imshow_kwargs: Any) -> Any:
    """A heat map of a joint distribution in percent, its axes labelled ``labels`` (rows, columns)."""
    ax = _axes(ax)
    image = ax.imshow(joint.pmf * 100, origin="lower", aspect="auto", cmap=imshow_kwargs.pop("cmap", "viridis"),
                      **imshow_kwargs)
    rows, cols = joint.pmf.shape
    from matplotlib.ticker import MaxNLocator

    ax.xaxis.set_major_locator(MaxNLocator(integer=True, nbins=min(12, cols)))
    ax.yaxis.set_major_locator(MaxNLocator(integer=True, nbins=min(12, rows)))
    ax.set_ylabel(labels[0])
    ax.set_xlabel(labels[1])
    ax.figure.colorbar(image, ax=ax, label="probability (%)")
    if title:
        ax.set_title(title)
    return ax


def plot(results: Any, *, kind: str = "pmf", labels: Sequence[str] | None = None, ax: Any = None) -> Any:
    """Several results (or distributions) on one axis: grouped bars or "at least k" curves.

    Each result contributes the series its own ``plot()`` draws (a shot its damage, a fight both
    fighters' wounds left, ...), labelled by ``labels`` (one per result) or by the result itself.
    """
    items = [results] if not isinstance(results, (list, tuple)) else list(results)
    if not items:
        raise InputError("results", "nothing to plot")
    if labels is not None and len(labels) != len(items):
        raise InputError("labels", f"{len(labels)} labels for {len(items)} results")
    series: list[Series] = []
    quantities: list[str] = []
    titles: list[str] = []
    for index, item in enumerate(items):
        own = None if labels is None else labels[index]
        if isinstance(item, Distribution):
            series.append((own or f"#{index + 1}", item))
            quantities.append("value")
            continue
        if not hasattr(item, "plot_series"):
            raise InputTypeError(f"results[{index}]", f"expected a result or a Distribution, got {type(item).__name__}")
        parts, quantity, title = item.plot_series()
        for label, dist in parts:
            if own:
                name = own if len(parts) == 1 else f"{own}: {label}"
            elif len(items) > 1:
                name = title if len(parts) == 1 and title else f"#{index + 1} {label}"
            else:
                name = label
            series.append((name, dist))
        quantities.append(quantity)
        titles.append(title)
    quantity = " / ".join(dict.fromkeys(quantities))
    return plot_series(series, quantity=quantity, title=_common_title(titles, len(items)), kind=kind, ax=ax)


def _common_title(titles: list[str], count: int) -> str:
    """One result's title; for several, what their titles share (e.g. the target of compared weapons)."""
    if len(set(titles)) == 1 and count == 1:
        return titles[0]
    if len(set(titles)) == 1 and titles:
        return f"{count} results: {titles[0]}"
    shared = ""
    if titles:
        for chars in zip(*(t[::-1] for t in titles)):
            if len(set(chars)) != 1:
                break
            shared = chars[0] + shared
    cut = shared.find(" vs ")
    if cut >= 0:
        return f"{count} results compared{shared[cut:]}"
    return f"{count} results compared"
