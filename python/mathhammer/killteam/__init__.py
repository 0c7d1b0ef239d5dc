"""Kill Team 2024: attack dice, shooting and fighting (docs/rules/killteam.md).

>>> from mathhammer import killteam as kt
>>> dice = kt.attack_dice(kt.Weapon(attacks=2, hit=3, rules="Lethal 5+"))
>>> float(dice.pmf[1, 1])  # one crit and one norm: 2 x 2/6 x 2/6  # doctest: +ELLIPSIS
0.222...
"""

from typing import Any

from mathhammer.killteam._game import GAME
from mathhammer.killteam.advice import advise
from mathhammer.killteam.comparison import compare, compare_fights
from mathhammer.killteam.dice import attack_dice
from mathhammer.killteam.fighting import exact_seconds, fight, fight_batch, resolve_fight
from mathhammer.killteam.versus import matchup, volley
from mathhammer.killteam.plan import attack_distribution
from mathhammer.killteam.profiles import (
    ALL_STRATEGIES,
    OBJECTIVES,
    STRATEGIES,
    Abilities,
    Fighter,
    Operative,
    Weapon,
    WeaponRules,
)
from mathhammer.killteam.results import (
    Advice,
    AttackDiceResult,
    Comparison,
    FightComparison,
    FightLog,
    FightResult,
    Matchup,
    MatchupSummary,
    MetaRanking,
    MoveValue,
    ShootResult,
    VolleyResult,
)
from mathhammer.killteam.shooting import shoot, shoot_batch, shoot_many
from mathhammer.killteam.variants import Variants


def __getattr__(name: str) -> Any:
    """``kt.data`` (the importer of BattleScribe files, docs/data.md) is loaded on first use: its
    XML reading costs nothing to a program that never imports a team."""
    if name == "data":
        import mathhammer.killteam.data as data  # not "from mathhammer.killteam import": that asks this hook again

        return data
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "GAME",
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
    "Matchup",
    "MatchupSummary",
    "MetaRanking",
    "MoveValue",
    "Operative",
    "ShootResult",
    "VolleyResult",
    "Variants",
    "Weapon",
    "WeaponRules",
    "advise",
    "attack_dice",
    "attack_distribution",
    "compare",
    "compare_fights",
    "exact_seconds",
    "fight",
    "fight_batch",
    "matchup",
    "resolve_fight",
    "shoot",
    "shoot_batch",
    "shoot_many",
    "volley",
]
