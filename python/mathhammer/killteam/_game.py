"""Kill Team as the layers above the games see it: its profile kinds and its actions (docs/architecture.md)."""

from __future__ import annotations

from mathhammer.core.game import Action, Game
from mathhammer.killteam.advice import advise
from mathhammer.killteam.comparison import compare, compare_fights
from mathhammer.killteam.dice import attack_dice
from mathhammer.killteam.fighting import fight, fight_batch
from mathhammer.killteam.profiles import Fighter, Operative, Weapon
from mathhammer.killteam.report import (
    advice_tables,
    attack_dice_tables,
    fight_comparison_tables,
    fight_tables,
    shoot_tables,
    matchup_summary_tables,
    matchup_tables,
    meta_ranking_tables,
    shot_comparison_tables,
    volley_tables,
)
from mathhammer.killteam.results import (
    Advice,
    AttackDiceResult,
    Comparison,
    FightComparison,
    FightResult,
    Matchup,
    MatchupSummary,
    MetaRanking,
    ShootResult,
    VolleyResult,
)
from mathhammer.killteam.shooting import shoot, shoot_batch
from mathhammer.killteam.switches import SWITCHES
from mathhammer.killteam.variants import Variants

__all__ = ["GAME"]


GAME = Game(
    name="killteam",
    title="Kill Team 2024",
    actions=(
        Action("fight", fight, FightResult, "a Kill Team fight between fighters a and b", printer=fight_tables,
               batch=fight_batch, profiles={"a": "fighter", "b": "fighter"}),
        Action("shoot", shoot, ShootResult, "a Kill Team shot of weapon at target", printer=shoot_tables,
               batch=shoot_batch, profiles={"weapon": "weapon", "target": "operative"}),
        Action("attack_dice", attack_dice, AttackDiceResult, "the retained attack dice of a Kill Team weapon",
               printer=attack_dice_tables, profiles={"source": "weapon"}),
        Action("advise", advise, Advice, "the value of every legal move from fixed retained dice",
               printer=advice_tables, profiles={"a": "fighter", "b": "fighter"}, sweep=False),
        Action("compare", compare, Comparison, "Kill Team guns compared at every save", printer=shot_comparison_tables,
               sweep=False, scenario=False),
        Action("compare_fights", compare_fights, FightComparison, "Kill Team fighters against every opponent",
               printer=fight_comparison_tables, profile_lists={"fighters": "fighter", "opponents": "fighter"}, sweep=False,
               scenario=False),
    ),
    profile_kinds={"weapon": Weapon, "fighter": Fighter, "operative": Operative},
    variants=Variants,
    bundled_library="examples/killteam/profiles.toml",
    printers={VolleyResult: volley_tables, Matchup: matchup_tables, MatchupSummary: matchup_summary_tables,
              MetaRanking: meta_ranking_tables},
    info_tables=("team",),  # an imported team's source (docs/data.md, "Team libraries")
    switches=SWITCHES,  # an imported team's [team.switch] tables (docs/data.md, "Switches")
)
