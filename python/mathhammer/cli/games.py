"""Where each game's commands live: its command name, the one line the root --help shows for it,
and the module (imported on first use) that holds its Typer app."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

__all__ = ["GAME_APPS"]


def _killteam() -> Any:
    from mathhammer.cli import killteam

    return killteam.app


def _starcraft() -> Any:
    from mathhammer.cli import starcraft

    return starcraft.app


def _deathburgh() -> Any:
    from mathhammer.cli import deathburgh

    return deathburgh.app


def _force_melee() -> Any:
    from mathhammer.cli import force_melee

    return force_melee.app


#: game command -> (its help line, its Typer app's loader); a test holds the lines to the apps' own help
#: and the commands to the game descriptors (mathhammer.games).
GAME_APPS: dict[str, tuple[str, Callable[[], Any]]] = {
    "killteam": ("Kill Team 2024: fights and shots, and matrices comparing them.", _killteam),
    "starcraft": ("StarCraft: Tabletop Miniatures Game attacks and sequences of attacks, exact or Monte Carlo.",
                  _starcraft),
    "deathburgh": ("Deathburgh combat: opposed attacks, dodges, criticals worth 2, instant 6! / 1!, both editions.",
                   _deathburgh),
    "force-melee": ("Force melee: simultaneous close combat, hits compared, Force decides the damage.", _force_melee),
}
