"""mathhammer: exact and Monte Carlo outcome distributions for tabletop-miniature dice combat.

Games: ``mathhammer.killteam`` (Kill Team 2024 shooting and fighting), ``mathhammer.starcraft``
(StarCraft: Tabletop Miniatures Game attacks), ``mathhammer.deathburgh`` (Deathburgh combat) and
``mathhammer.force_melee`` (a Force-based simultaneous melee). Results are numpy-backed
:class:`Distribution` and :class:`JointDistribution` objects; :func:`sweep` runs any engine function over a
grid of its arguments (docs/sweeps.md).
"""

from mathhammer._validate import InputError, InputTypeError
from mathhammer.results import Distribution, JointDistribution
from mathhammer.sweep import SweepError, sweep

__version__ = "0.1.0"

GAMES = ("killteam", "starcraft", "deathburgh", "force_melee")

__all__ = ["GAMES", "Distribution", "InputError", "InputTypeError", "JointDistribution", "SweepError", "__version__",
           "sweep", *GAMES]


def __getattr__(name: str) -> object:
    """``mathhammer.killteam`` and the other games load on first use (``import mathhammer as mh``)."""
    if name in GAMES:
        import importlib

        return importlib.import_module(f"mathhammer.{name}")
    raise AttributeError(f"module 'mathhammer' has no attribute {name!r}")
