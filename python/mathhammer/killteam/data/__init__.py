"""Kill Team data files users already have: the BattleScribe catalogues and rosters (docs/data.md).

:func:`load_catalogues` reads a folder (or a list) of ``.gst`` and ``.cat`` files into one
:class:`Team` per Kill Team 2024 catalogue, :func:`load_roster` a ``.ros`` / ``.rosz`` list,
:func:`load_team` a team library written by ``mathhammer killteam import``. Every team carries its
:class:`ImportReport`: what was read, rewritten, kept out of the weapons and why, and what its
abilities became (applied, a :class:`Switch`, set aside).
"""

from mathhammer.killteam.data.load import folder_contents, load_catalogues, load_roster, load_team, read_catalogues
from mathhammer.killteam.data.report import AbilityEntry, Change, Entry, ImportReport, Reading
from mathhammer.killteam.data.team import Applied, Team, TeamOperative, TeamWeapon
from mathhammer.killteam.data.tokens import Kept, Rewrite, Translation, translate
from mathhammer.killteam.switches import Switch

__all__ = [
    "AbilityEntry", "Applied", "Change", "Entry", "ImportReport", "Kept", "Reading", "Rewrite", "Switch", "Team",
    "TeamOperative", "TeamWeapon", "Translation", "folder_contents", "load_catalogues", "load_roster", "load_team",
    "read_catalogues", "translate",
]
