"""mathhammer: exact and Monte Carlo outcome distributions for tabletop-miniature dice combat.

Games: ``mathhammer.killteam`` (Kill Team 2024 shooting and fighting), ``mathhammer.starcraft``
(StarCraft: Tabletop Miniatures Game attacks), ``mathhammer.deathburgh`` (Deathburgh combat) and
``mathhammer.force_melee`` (a Force-based simultaneous melee). Results are numpy-backed
:class:`Distribution` and :class:`JointDistribution` objects; :func:`sweep` runs any engine function over a
grid of its arguments (docs/sweeps.md).
"""

from collections.abc import Sequence
from typing import Any

from mathhammer._validate import InputError, InputTypeError
from mathhammer.results import Distribution, JointDistribution
from mathhammer.sweep import SweepError, sweep

__version__ = "0.1.0"

GAMES = ("killteam", "starcraft", "deathburgh", "force_melee")

__all__ = ["GAMES", "Distribution", "InputError", "InputTypeError", "JointDistribution", "SweepError", "__version__",
           "plot", "sweep", *GAMES]


def __getattr__(name: str) -> object:
    """``mathhammer.killteam`` and the other games load on first use (``import mathhammer as mh``)."""
    if name in GAMES:
        import importlib

        return importlib.import_module(f"mathhammer.{name}")

    raise AttributeError(f"module 'mathhammer' has no attribute {name!r}")


def plot(results: Any, *, kind: str = "pmf", labels: Sequence[str] | None = None, ax: Any = None) -> Any:
    """Several results (or distributions) on one axis: grouped bars or "at least k" curves; returns the
    matplotlib Axes (see :func:`mathhammer.plotting.plot`; needs the ``plot`` extra)."""
    from mathhammer.plotting import plot as draw

    return draw(results, kind=kind, labels=labels, ax=ax)
