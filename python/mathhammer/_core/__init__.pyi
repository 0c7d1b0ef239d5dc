"""
mathhammer C++ core (private: use the mathhammer package)
"""
from __future__ import annotations
from . import core
from . import killteam
from . import starcraft
from . import deathburgh
from . import force_melee
__all__: list[str] = ['core', 'deathburgh', 'force_melee', 'killteam', 'starcraft']
