"""The Deathburgh files a player keeps: miniature libraries and round files.

A miniature library is a profile library (docs/scenarios.md) of ``game = "deathburgh"`` with one
``[miniature."Name"]`` table per miniature; a round file holds one round's miniatures and combats.
Both are read through the game's descriptor and :mod:`mathhammer.core.entries`, as every profile
library and scenario file is.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from mathhammer.core.entries import META_KEYS, entry, game_library, read_file
from mathhammer.core.guard import as_path, excerpt, read_data, shown_path
from mathhammer.core.writing import write_data
from mathhammer.deathburgh._game import GAME
from mathhammer.deathburgh.profiles import Miniature
from mathhammer.errors import InputError, InputTypeError, ProfileFileError

__all__ = ["load_profiles", "load_round", "save_profiles"]


def load_profiles(path: str | Path) -> dict[str, Miniature]:
    """Miniatures from a profile library (TOML or JSON) with ``game = "deathburgh"`` and one table
    ``[miniature."Name"]`` per miniature: the fields ``A``, ``A_plus``, ``D``, ``D_plus``, ``W``,
    ``role``, or ``card = "A 4/4+ D 4/4+ W 3"`` (plus ``role``). A miniature without a ``name`` takes
    its table's. Returns them by table name, in file order."""
    data = _read_table(path)
    source = str(path)
    game = data.get("game")
    if game != GAME.name:
        if isinstance(game, str):
            raise ProfileFileError(source, f"game: this is a {excerpt(game)[1:-1]} library; expected game = \"deathburgh\"")
        raise ProfileFileError(source, "a profile library needs game = \"deathburgh\"")
    profiles = GAME.parse_library(data, source)
    out: dict[str, Miniature] = {}
    for key, mini in profiles.get("miniature", {}).items():
        out[key] = mini if mini.name else dataclasses.replace(mini, name=key)
    if not out:
        raise ProfileFileError(source, "no [miniature.<name>] tables")
    return out


def save_profiles(path: str | Path, miniatures: Iterable[Miniature] | Mapping[str, Miniature]) -> None:
    """Write miniatures as a profile library, TOML (``.toml``) or JSON (``.json``), readable by
    :func:`load_profiles`; a list of miniatures is keyed by their names."""
    if isinstance(miniatures, Mapping):
        entries = dict(miniatures)
    else:
        entries = {}
        for mini in miniatures:
            if not isinstance(mini, Miniature) or not mini.name:
                raise InputTypeError("miniatures", f"expected named Miniature objects, got {excerpt(mini)}")
            entries[mini.name] = mini
    for key, mini in entries.items():
        if not isinstance(mini, Miniature):
            raise InputTypeError(f"miniatures[{key!r}]", f"expected a Miniature, got {excerpt(mini)}")
    target = as_path(path)
    try:
        write_data(target, GAME.library_document({"miniature": entries}))
    except InputError as error:
        raise ProfileFileError(error.field, str(error)[len(error.field) + 2:]) from None


def _read_table(path: str | Path) -> dict[str, Any]:
    path = as_path(path)
    try:
        data = read_data(path)  # a regular file of at most 16 MiB, nested at most 64 deep
    except InputError as error:
        raise InputError("path", f"{shown_path(path)}: {str(error).split(': ', 1)[1]}") from None
    if not isinstance(data, dict):
        raise InputError("path", f"{shown_path(path)}: expected a table at the top level")
    return data


def load_round(path: Any) -> dict[str, Any]:
    """Read a round file (TOML or JSON) into the keyword arguments of :func:`mathhammer.deathburgh.round`.

    The file holds the rule switches at the top level (optional), a table ``miniatures`` of
    name → miniature (the :class:`Miniature` fields, or ``card = "A 4/4+ D 4/4+ W 3"``, or
    ``example = "Bandit Brute"``; plus an optional ``role`` and current ``wounds``), and a list
    ``combat`` of tables with the keys of :class:`Engagement`. Use it as
    ``db.round(**db.load_round("round_scenario.toml"), method="exact")``. The file is read as a
    scenario's one ``[[deathburgh.round]]`` entry (:mod:`mathhammer.core.entries`), so it takes the
    same keys and ``mathhammer run`` runs it too.
    """
    path = as_path(path)
    data = read_file(path)
    if not isinstance(data, Mapping):
        raise ProfileFileError(str(path), "a scenario file holds a table")
    data = dict(data)
    if not isinstance(data.get("miniatures"), Mapping) or not data["miniatures"]:
        raise InputError("miniatures", f"{path}: expected a table of name -> miniature")
    if "combat" not in data and "combats" not in data:
        data["combat"] = []  # a round file may list its miniatures before it has combats
    source = str(path)
    library = game_library(GAME, data, path.parent, source)
    round_entry = {key: value for key, value in data.items() if key not in META_KEYS}
    kwargs: dict[str, Any] = dict(entry(GAME, GAME.action("round"), 0, round_entry, library, source).kwargs)
    return {"miniatures": kwargs.pop("miniatures"), "combats": kwargs.pop("combats"),
            "wounds": kwargs.pop("wounds", {}), **kwargs}
