"""Kill Team as the layers above the games see it: its profile kinds and its actions (docs/architecture.md)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from mathhammer.core.game import Action, Game, Library
from mathhammer.killteam.advice import advise
from mathhammer.killteam.comparison import compare, compare_fights
from mathhammer.killteam.dice import attack_dice
from mathhammer.killteam.fighting import fight, fight_batch
from mathhammer.killteam.profiles import INFO_TABLES, PROFILE_KINDS, rule_notes
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
from mathhammer.killteam.versus import matchup, matchup_rows, served_teams

__all__ = ["GAME"]


def _read_team(document: Mapping[str, Any], library: Library, source: str) -> Any:
    """The kt.data.Team an imported team library describes (its ``[team]`` table)."""
    from mathhammer.killteam.data.team import team_from_library  # the importer's, only when a team is read

    return team_from_library(document, library, source)


def _profile_notes(kind: str, value: Any) -> tuple[str, ...]:
    """The datacard tokens a weapon or fighter given as notation or a table sets aside (Range,
    Silent, ...: they change nothing in one shot or fight), as notes."""
    if kind not in ("weapon", "fighter"):
        return ()
    if isinstance(value, Mapping):
        return rule_notes(value.get("rules"))
    return rule_notes(value, kind)


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
        Action("matchup", matchup, Matchup, "every weapon of one Kill Team team against every operative of another",
               printer=matchup_tables, prepare=served_teams, rows=matchup_rows, sweep=False, scenario=False),
    ),
    profile_kinds=PROFILE_KINDS,
    variants=Variants,
    bundled_library="examples/killteam/profiles.toml",
    printers={VolleyResult: volley_tables, MatchupSummary: matchup_summary_tables,
              MetaRanking: meta_ranking_tables},
    info_tables=INFO_TABLES,  # an imported team's source (docs/data.md, "Team libraries")
    switches=SWITCHES,  # an imported team's [team.switch] tables (docs/data.md, "Switches")
    read_team=_read_team,
    profile_notes=_profile_notes,
)
