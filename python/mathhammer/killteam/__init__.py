"""Kill Team 2024: attack dice, shooting and fighting (docs/rules/killteam.md).

>>> from mathhammer import killteam as kt
>>> dice = kt.attack_dice(kt.Weapon(attacks=2, hit=3, rules="Lethal 5+"))
>>> float(dice.pmf[1, 1])  # one crit and one norm: 2 x 2/6 x 2/6  # doctest: +ELLIPSIS
0.222...
"""

from mathhammer.killteam.advise import Advice, MoveValue, advise
from mathhammer.killteam.compare import Comparison, FightComparison, compare, compare_fights
from mathhammer.killteam.attack_dice import AttackDiceResult, attack_dice, attack_distribution
from mathhammer.killteam.fight import FightLog, FightResult, fight, resolve_fight
from mathhammer.killteam.profiles import ALL_STRATEGIES, OBJECTIVES, STRATEGIES, Fighter, Operative, Weapon
from mathhammer.killteam.rules import Abilities, WeaponRules
from mathhammer.killteam.shoot import ShootResult, shoot, shoot_batch, shoot_many
from mathhammer.killteam.variants import Variants

__all__ = [
    "ALL_STRATEGIES",
    "OBJECTIVES",
    "STRATEGIES",
    "Abilities",
    "Advice",
    "AttackDiceResult",
    "Comparison",
    "FightComparison",
    "FightLog",
    "FightResult",
    "Fighter",
    "MoveValue",
    "Operative",
    "ShootResult",
    "Variants",
    "Weapon",
    "WeaponRules",
    "advise",
    "attack_dice",
    "attack_distribution",
    "compare",
    "compare_fights",
    "fight",
    "resolve_fight",
    "shoot",
    "shoot_batch",
    "shoot_many",
]
