"""Profile files: weapons, fighters, operatives, units and miniatures in TOML or JSON.

A library file names its game and holds one table per kind of profile, each entry by name::

    game = "killteam"

    [weapon.bolt_rifle]
    card = "4A 3+ 3/4 Piercing Crits 1"      # datacard notation, or the fields themselves

    [fighter.sergeant]
    attacks = 5
    hit = 3
    damage = [4, 5]
    wounds = 15
    rules = "Lethal 5+"
    abilities = "Storm Shield"
    strategy = "max_damage"

Every entry is validated when loaded; an error names the file, the entry and the field. A profile
with a ``name`` field that does not set it takes its table's name (``[unit.walker]`` → "walker"). A Force
melee ``[side.x]`` may name the library's own ``[unit.*]`` and ``[weapon.*]`` entries
(``unit = "militia_squad"``). :func:`resolve_profile` turns whatever names a profile (a library name,
a built-in profile of the game, datacard notation or a table of fields) into the profile object;
the CLI commands and scenario files use it. The kinds, references and built-in profiles of each game
come from its descriptor (``<game>.GAME``, :mod:`mathhammer.games`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from mathhammer import games
from mathhammer.core.entries import read_file
from mathhammer.core.game import Library, find_profile, merge_libraries
from mathhammer.core.guard import as_path, check_source, excerpt, shown_path
from mathhammer.core.writing import write_data
from mathhammer.core.guard import tomllib as tomllib  # re-exported: tests and tools read TOML through it
from mathhammer.core.profiles import FieldsProfile, build_from_fields, check_fields, profile_to_dict
from mathhammer.errors import InputError, ProfileFileError

__all__ = [
    "FieldsProfile", "Library", "ProfileFileError", "build_from_fields", "builtin_profiles", "bundled_library_name",
    "check_fields", "default_library", "find_profile", "library_files", "library_game", "load_game_libraries",
    "load_game_library", "load_library",
    "parse_library", "profile_class", "profile_from_dict", "profile_kinds", "profile_to_dict", "resolve_profile",
    "save_library", "tomllib",
]


def profile_kinds(game: str) -> dict[str, type]:
    """The kinds of profile a library of ``game`` may hold, each with its class, in library order."""
    return dict(games.game(game).profile_kinds)


def profile_class(game: str, kind: str) -> type:
    """The class behind a (game, kind) pair, e.g. ("killteam", "fighter") -> kt.Fighter."""
    return games.game(game).profile_class(kind)


def profile_from_dict(game: str, kind: str, data: Mapping[str, Any],
                      named: Mapping[str, Mapping[str, Any]] | None = None) -> Any:
    """Build and validate one profile from its fields (or from ``card = "..."`` datacard notation).

    ``named`` ({kind: {name: profile}}) resolves fields that name another profile of the library.
    """
    return games.game(game).profile(kind, data, named)


def builtin_profiles(game: str, kind: str) -> dict[str, Any]:
    """The profiles a game ships by name for a kind (sc.catalog, the Deathburgh and Force melee
    examples); empty when it has none."""
    return games.game(game).builtin_profiles(kind)


def resolve_profile(
    game: str, kind: str, value: Any, library: Mapping[str, Mapping[str, Any]] | None = None, field: str | None = None
) -> Any:
    """A profile from whatever names one: a profile object, a name from ``library`` ({kind: {name:
    profile}}), a built-in profile of the game, datacard notation (where the game has one) or a table
    of fields. Errors name ``field`` (default: the kind) and list the names known."""
    return games.game(game).resolve_profile(kind, value, library, field)


def load_library(path: str | Path) -> Library:
    """Load a profile library: {kind: {name: profile}}; the game is in ``library_game(path)``."""
    return parse_library(read_file(as_path(path)), str(path))[1]


def bundled_library_name(game: str) -> str:
    """What names a game's bundled example library on the command line: "killteam-examples"."""
    return games.game(game).bundled_library_name


def _bundled(path: str | Path) -> str | None:
    """The game whose bundled library ``path`` names ("force-melee-examples"), unless it is a file."""
    text = str(path)
    for game in games.all_games():
        if game.bundled_library is not None and text in (game.bundled_library_name, game.name + "-examples") \
                and not Path(text).exists():
            return game.name
    return None


def default_library(game: str) -> Library:
    """The library a command uses without ``--profiles``: the game's bundled examples, less the
    entries a built-in profile of the game already answers to (the built-in one keeps its name)."""
    return games.game(game).default_library()


#: The files a folder of libraries holds (``mathhammer killteam import`` writes one per team, and its
#: report as ``<team>.import.json``, which is no library).
LIBRARY_SUFFIXES = (".toml", ".json")
REPORT_SUFFIX = ".import.json"


def library_files(paths: Sequence[str | Path], field: str = "profiles") -> list[Path]:
    """The library files ``paths`` name, in order: each file itself, each folder's ``.toml`` /
    ``.json`` libraries (not the import reports) by name, a bundled library's name ("killteam-examples")
    as written. A folder holding none, or a path that is neither, is an InputError naming ``field``."""
    found: list[Path] = []
    for given in paths:
        path = as_path(given, field)
        try:
            folder, there = path.is_dir(), path.exists()
        except OSError as error:  # a name too long, a folder that cannot be read
            raise InputError(field, f"{shown_path(path)}: {error.strerror or error}") from None
        if folder:
            files = sorted(p for p in path.iterdir() if p.is_file() and p.suffix.lower() in LIBRARY_SUFFIXES
                           and not p.name.lower().endswith(REPORT_SUFFIX))
            if not files:
                raise InputError(field, f"no profile libraries (.toml, .json) in the folder {shown_path(path)}")
            found += files
        elif there or _bundled(path) is not None:
            found.append(path)
        else:
            raise InputError(field, f"{shown_path(path)}: no such file or folder")
    return list(dict.fromkeys(found))  # a file named twice (a folder and one of its files) is read once


def load_game_libraries(paths: Sequence[str | Path], game: str, field: str = "profiles") -> Library:
    """The profiles of several libraries of ``game`` (files, folders of them, bundled names) as one
    library: an entry keeps its name unless another library has one of that kind and name, then each
    is "<library>/<name>", the library named by its ``[team]`` or its file's stem
    (:func:`mathhammer.core.game.merge_libraries`)."""
    descriptor = games.game(game)
    parts = []
    for path in library_files(paths, field):
        library = load_game_library(path, game)
        parts.append((descriptor.library_label(library, str(path)), library))
    return merge_libraries(parts, list(descriptor.profile_kinds))


def load_game_library(path: str | Path, game: str) -> Library:
    """Load a profile library that must be of ``game`` (a library of another game is an error); a
    bundled library's name ("killteam-examples") loads that library."""
    bundled = _bundled(path)
    data = games.game(bundled).bundled_document() if bundled is not None else read_file(as_path(path))
    found, library = parse_library(data, str(path))
    if found != game:
        raise ProfileFileError(str(path), f"game: this is a {found} library; expected game = {excerpt(game)}")
    return library


def library_document_game(data: Any, source: str) -> str:
    """The game a library document names; a document naming none is an error naming ``source``."""
    if not isinstance(data, Mapping) or "game" not in data:
        raise ProfileFileError(source, f"a profile library needs game = one of {', '.join(games.names())}")
    game = data["game"]
    if not isinstance(game, str) or game not in games.names():
        raise ProfileFileError(source, f"game: unknown game {excerpt(game)}; allowed: {', '.join(games.names())}")
    return game


def parse_library(data: Mapping[str, Any], source: str) -> tuple[str, Library]:
    """Validate the content of a library file; errors name the source, the entry and the field."""
    check_source(source)
    game = library_document_game(data, source)
    return game, games.game(game).parse_library(data, source)


def library_game(path: str | Path) -> str:
    """The game a library file is for."""
    return parse_library(read_file(as_path(path)), str(path))[0]


def save_library(path: str | Path, game: str, library: Mapping[str, Mapping[str, Any]]) -> None:
    """Write a profile library as TOML or JSON (by the file's suffix)."""
    path = as_path(path)
    data = games.game(game).library_document(library)
    try:
        write_data(path, data)
    except InputError as error:
        raise ProfileFileError(error.field, str(error)[len(error.field) + 2:]) from None
