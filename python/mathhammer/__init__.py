"""mathhammer: exact and Monte Carlo outcome distributions for tabletop-miniature dice combat.

Games: ``mathhammer.killteam`` (Kill Team 2024 shooting and fighting), ``mathhammer.starcraft``
(StarCraft: Tabletop Miniatures Game attacks), ``mathhammer.deathburgh`` (Deathburgh combat) and
``mathhammer.force_melee`` (a Force-based simultaneous melee). Results are numpy-backed
:class:`Distribution` and :class:`JointDistribution` objects.
"""

from mathhammer._validate import InputError, InputTypeError
from mathhammer.results import Distribution, JointDistribution

__version__ = "0.1.0"

__all__ = ["Distribution", "InputError", "InputTypeError", "JointDistribution", "__version__"]
