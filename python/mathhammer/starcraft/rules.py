"""Deprecated: the step functions are :mod:`mathhammer.starcraft.steps` (``sc.steps``).

"Rules" means a weapon's rules everywhere else in the package; this module keeps the old name
``sc.rules`` working, warning once when it is imported.
"""

from __future__ import annotations

import warnings

from mathhammer.starcraft.steps import *  # noqa: F401,F403
from mathhammer.starcraft.steps import __all__ as __all__  # noqa: F401

warnings.warn("mathhammer.starcraft.rules is deprecated; use mathhammer.starcraft.steps (sc.steps)",
              DeprecationWarning, stacklevel=2)
