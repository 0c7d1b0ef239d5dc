"""mathhammer: exact and Monte Carlo outcome distributions for tabletop-miniature dice combat.

Games: ``mathhammer.killteam`` (Kill Team 2024 shooting and fighting), ``mathhammer.starcraft``
(StarCraft: Tabletop Miniatures Game attacks), ``mathhammer.deathburgh`` (Deathburgh combat) and
``mathhammer.force_melee`` (a Force-based simultaneous melee). Results are numpy-backed
:class:`Distribution` and :class:`JointDistribution` objects; :func:`sweep` runs any engine function over a
grid of its arguments (docs/sweeps.md); :func:`load_library` reads a profile library.

The package's layers, top to bottom (docs/architecture.md): ``cli`` → ``files``, ``sweeps``,
``web`` → the games → ``core`` → ``report`` → ``errors``. This module is only the facade: the
games and the heavier layers load on first use.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from mathhammer.errors import InputError, InputTypeError, SweepError

if TYPE_CHECKING:  # what the lazy names below are, for type checkers
    from mathhammer.core.distributions import Distribution as Distribution
    from mathhammer.core.distributions import JointDistribution as JointDistribution

__version__ = "0.2.0"

GAMES = ("killteam", "starcraft", "deathburgh", "force_melee")

__all__ = ["GAMES", "Distribution", "InputError", "InputTypeError", "JointDistribution", "SweepError", "__version__",
           "load_library", "plot", "sweep", *GAMES]


def __getattr__(name: str) -> object:
    """The games and the result types load on first use (``import mathhammer as mh`` stays light)."""
    if name == "killteam":
        import mathhammer.killteam as killteam  # not "from mathhammer import": that would ask this hook again

        return killteam
    if name == "starcraft":
        import mathhammer.starcraft as starcraft  # not "from mathhammer import": that would ask this hook again

        return starcraft
    if name == "deathburgh":
        import mathhammer.deathburgh as deathburgh  # not "from mathhammer import": that would ask this hook again

        return deathburgh
    if name == "force_melee":
        import mathhammer.force_melee as force_melee  # not "from mathhammer import": that would ask this hook again

        return force_melee
    if name in ("Distribution", "JointDistribution"):
        import mathhammer.core.distributions as distributions

        return getattr(distributions, name)
    raise AttributeError(f"module 'mathhammer' has no attribute {name!r}")


def sweep(fn: Any, /, *, seed: Any = None, executor: Any = None, progress: Any = None, chunk: Any = None,
          **arguments: Any) -> Any:
    """Run ``fn(**cell)`` for every cell of the Cartesian product of its list, tuple and range
    arguments: a pandas DataFrame, one row per cell (see :func:`mathhammer.sweeps.sweep`, docs/sweeps.md)."""
    from mathhammer.sweeps import sweep as run

    return run(fn, seed=seed, executor=executor, progress=progress, chunk=chunk, **arguments)


def plot(results: Any, *, kind: str = "pmf", labels: Sequence[str] | None = None, ax: Any = None) -> Any:
    """Several results (or distributions) on one axis: grouped bars or "at least k" curves; returns the
    matplotlib Axes (see :func:`mathhammer.core.plots.plot`; needs the ``plot`` extra)."""
    from mathhammer.core.plots import plot as draw

    return draw(results, kind=kind, labels=labels, ax=ax)


def load_library(path: str | Path) -> dict[str, dict[str, Any]]:
    """A profile library file: {kind: {name: profile}} (see :mod:`mathhammer.files.library`)."""
    from mathhammer.files.library import load_library as load

    return load(path)
