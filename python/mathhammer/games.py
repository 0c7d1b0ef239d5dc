"""The game registry: the one list of games and their actions that every layer above them reads.

Each game package exposes its descriptor as ``GAME`` (:class:`mathhammer.core.game.Game`). The
profile libraries, scenario files, sweeps and the HTTP API find games and actions here, by name;
the descriptors are read from the packages on every call, so a descriptor a test replaces is seen
everywhere at once.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from mathhammer import deathburgh, force_melee, killteam, starcraft
from mathhammer.core.game import Action, Game
from mathhammer.core.guard import excerpt
from mathhammer.errors import InputError, InputTypeError

__all__ = ["action", "actions", "all_games", "find_action", "game", "names"]

_PACKAGES = (killteam, starcraft, deathburgh, force_melee)


def all_games() -> tuple[Game, ...]:
    """Every game's descriptor, in the order the documentation lists them."""
    return tuple(package.GAME for package in _PACKAGES)


def names() -> tuple[str, ...]:
    """The games' names ("killteam", "starcraft", "deathburgh", "force_melee")."""
    return tuple(g.name for g in all_games())


def game(name: Any, field: str = "game") -> Game:
    """The game called ``name`` (its package name or its command, "force-melee")."""
    if not isinstance(name, str):
        raise InputTypeError(field, f"expected a game name, got {excerpt(name)}")
    for found in all_games():
        if name in (found.name, found.cli):
            return found
    raise InputError(field, f"unknown game {excerpt(name)}; allowed: {', '.join(names())}")


def action(game_name: str, action_name: str) -> Action:
    """The action ``action_name`` of game ``game_name``."""
    return game(game_name).action(action_name)


def actions() -> Iterator[tuple[Game, Action]]:
    """Every (game, action), game by game."""
    for found in all_games():
        for one in found.actions:
            yield found, one


def find_action(function: Any) -> tuple[Game, Action] | None:
    """The game and action whose function is ``function`` (None for any other callable)."""
    for found, one in actions():
        if one.function is function:
            return found, one
    return None
