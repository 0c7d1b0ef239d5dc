"""Where each game's commands live: its command name, the one line the root --help shows for it
(mathhammer.cli.commands) and the module (imported on first use) that holds its Typer app."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from mathhammer.cli.commands import group_help

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


#: game command -> (its help line, from the command table; its Typer app's loader); a test holds the
#: commands to the game descriptors (mathhammer.games) and to the table.
GAME_APPS: dict[str, tuple[str, Callable[[], Any]]] = {
    name: (group_help(name), load) for name, load in (
        ("killteam", _killteam), ("starcraft", _starcraft), ("deathburgh", _deathburgh), ("force-melee", _force_melee))
}
