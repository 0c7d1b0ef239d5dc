"""Kill Team 2024: attack dice, shooting and fighting (killteam.md).

>>> from mathhammer import killteam as kt
>>> kt.attack_dice(kt.Weapon(attacks=2, hit=3, rules="Lethal 5+")).pmf[1, 1]  # doctest: +ELLIPSIS
0.222...
"""

from mathhammer.killteam.attack_dice import AttackDiceResult, attack_dice, attack_distribution
from mathhammer.killteam.profiles import STRATEGIES, Fighter, Operative, Weapon
from mathhammer.killteam.rules import Abilities, WeaponRules
from mathhammer.killteam.shoot import ShootResult, shoot

__all__ = [
    "STRATEGIES",
    "Abilities",
    "AttackDiceResult",
    "Fighter",
    "Operative",
    "ShootResult",
    "Weapon",
    "WeaponRules",
    "attack_dice",
    "attack_distribution",
    "shoot",
]
