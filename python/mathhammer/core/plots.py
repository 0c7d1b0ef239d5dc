"""Several results on one picture: ``mathhammer.plot(results)``.

Each result contributes the series its own ``plot()`` draws (a shot its damage, a fight both
fighters' wounds left, ...); :mod:`mathhammer.report.plot` draws them as grouped bars or "at least
k" curves on one axis, titled by what the results share.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from mathhammer.core.checks import check_choice
from mathhammer.core.distributions import Distribution
from mathhammer.errors import InputError, InputTypeError
from mathhammer.report import plot as pictures

__all__ = ["plot"]


def plot(results: Any, *, kind: str = "pmf", labels: Sequence[str] | None = None, title: str | None = None,
         ax: Any = None) -> Any:
    """Several results (or distributions) on one axis: grouped bars or "at least k" curves.

    Each result contributes the series its own ``plot()`` draws (a shot its damage, a fight both
    fighters' wounds left, ...), labelled by ``labels`` (one per result) or by the result itself.
    ``title``: the picture's title (default: what the results' own titles share).
    """
    items = [results] if not isinstance(results, (list, tuple)) else list(results)
    if not items:
        raise InputError("results", "nothing to plot")
    if labels is not None and len(labels) != len(items):
        raise InputError("labels", f"{len(labels)} labels for {len(items)} results")
    series: list[pictures.Series] = []
    quantities: list[str] = []
    titles: list[str] = []
    for index, item in enumerate(items):
        own = None if labels is None else labels[index]
        if isinstance(item, Distribution):
            series.append(item.series(own or f"#{index + 1}"))
            quantities.append("value")
            continue
        if not hasattr(item, "plot_series"):
            raise InputTypeError(f"results[{index}]", f"expected a result or a Distribution, got {type(item).__name__}")
        parts, quantity, item_title = item.plot_series()
        for label, dist in parts:
            if own:
                name = own if len(parts) == 1 else f"{own}: {label}"
            elif len(items) > 1:
                name = item_title if len(parts) == 1 and item_title else f"#{index + 1} {label}"
            else:
                name = label
            series.append(dist.series(name))
        quantities.append(quantity)
        titles.append(item_title)
    quantity = " / ".join(dict.fromkeys(quantities))
    return pictures.plot_series(series, quantity=quantity, title=title or _common_title(titles, len(items)),
                                kind=check_choice("kind", kind, pictures.KINDS), ax=ax)


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
