"""Kill Team profiles the package ships: the ones a bare command uses.

Kill Team has no built-in profiles by name (its example library, ``--profiles killteam-examples``,
is the bundled ``examples/killteam/profiles.toml``); these are the defaults of ``mathhammer killteam
shoot`` and ``fight``: 4 attacks, 3+, 3/4 damage against a 3+ save and 12 wounds.
"""

from __future__ import annotations

from mathhammer.killteam.profiles import Fighter, Operative, Weapon

__all__ = ["DEFAULT_FIGHTER", "DEFAULT_TARGET", "DEFAULT_WEAPON"]

#: What the bare shoot command shoots with and at.
DEFAULT_WEAPON = Weapon(attacks=4, hit=3, damage=(3, 4))
DEFAULT_TARGET = Operative(save=3, wounds=12)
#: The fighter each side of a bare fight starts from.
DEFAULT_FIGHTER = Fighter(attacks=4, hit=3, damage=(3, 4), wounds=12, strategy="max_damage")
