"""Scenario entries of one game: keywords checked against the action, profiles built, then run.

A scenario file (docs/scenarios.md) holds ``[[<game>.<action>]]`` entries of any game;
:mod:`mathhammer.files.scenario` reads every section of it. A game's own readers (``fm.load_scenario``,
``db.load_round``) read only their game's section. Both prepare an entry here, the same way: its keys
checked against the action's function (an unknown key suggests the closest), aliases applied, the
required keys present, and every profile argument resolved from the libraries the scenario names,
the game's built-in profiles, notation or a table of fields (:meth:`Game.resolve_profile`).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any, TypeVar

from mathhammer.core.game import Action, Game, Library, merge_libraries
from mathhammer.core.guard import did_you_mean, excerpt, label, read_data
from mathhammer.core.payload import check_plain, plain
from mathhammer.errors import InputError, InputTypeError, ProfileFileError

__all__ = [
    "META_KEYS", "SWITCH_KEY", "Entry", "check_inputs", "check_keys", "entry", "game_entries", "game_library",
    "library_files", "load_libraries", "prepare", "read_file", "resolve_keywords", "section_entries", "switched",
]

#: Top-level keys of a scenario that are not game sections.
META_KEYS = ("title", "description", "profiles")
#: The key of an entry (or an API request) naming the switches of its libraries to turn on: the
#: entry's profiles are resolved from the libraries with those switches on (docs/scenarios.md).
SWITCH_KEY = "with"


def check_keys(entry: Mapping[str, Any], allowed: tuple[str, ...], prefix: str = "") -> None:
    """Refuse a key that is not ``allowed``, suggesting the allowed key it is closest to."""
    for key in entry:
        if key not in allowed:
            hint = did_you_mean(str(key), allowed)
            raise InputError(f"{prefix}{label(key)}", f"unknown keyword{hint}; allowed: {', '.join(allowed)}")


def read_file(path: Path) -> Any:
    """The content of a TOML or JSON file; every failure is a ProfileFileError naming the file (a
    regular file of at most 16 MiB, nested at most 64 deep: see :mod:`mathhammer.core.guard`)."""
    try:
        return read_data(path)
    except InputError as error:
        raise ProfileFileError(error.field, str(error).split(": ", 1)[1]) from None


def _library_path(base: Path, file: str, source: str, allow_outside: bool) -> Path:
    """A ``profiles`` path, relative to the scenario's folder; unless ``allow_outside``, it must stay
    inside that folder once ``..`` and symbolic links are resolved (a scenario from elsewhere may not
    read other files of the machine). Built-in profiles need no file: they are always known by name."""
    path = base / file
    if allow_outside:
        return path
    try:
        inside = path.resolve().is_relative_to(base.resolve())
    except (OSError, RuntimeError, ValueError):  # a symbolic-link loop, a NUL byte
        inside = False
    if Path(file).is_absolute() or not inside:
        raise ProfileFileError(source, f"profiles: {excerpt(file)} is outside the scenario's folder; "
                               "keep libraries beside the scenario or pass --allow-outside (allow_outside=True)")
    return path


def library_files(scenario: Mapping[str, Any], base: Path, source: str, allow_outside: bool) -> list[tuple[Path, Any]]:
    """The libraries a scenario's ``profiles`` names, each as (path, its content), in order."""
    profiles = scenario.get("profiles", [])
    if isinstance(profiles, str):
        profiles = [profiles]
    if not isinstance(profiles, list) or not all(isinstance(p, str) for p in profiles):
        raise ProfileFileError(source, f"profiles: expected a list of library files, got {excerpt(profiles)}")
    return [(path, read_file(path)) for path in (_library_path(base, file, source, allow_outside) for file in profiles)]


def load_libraries(files: list[tuple[Path, Any]], find: Callable[[Any, str], Game | None]) -> dict[str, Library]:
    """The profiles of library documents by game, merged (:func:`mathhammer.core.game.merge_libraries`:
    a name two libraries share is qualified by each one's name). ``find(data,
    source)`` gives the descriptor of the game a library document names, or raises when it names
    none (None: a library of a game this reader skips)."""
    parts: dict[str, list[tuple[str, Library]]] = {}
    found: dict[str, Game] = {}
    for path, data in files:
        source = str(path)
        game = find(data, source)
        if game is None:
            continue
        library = game.parse_library(data, source)
        found[game.name] = game
        parts.setdefault(game.name, []).append((game.library_label(library, source), library))
    return {name: merge_libraries(libraries, list(found[name].profile_kinds)) for name, libraries in parts.items()}


def section_entries(game: Game, actions: Any, source: str, known: str = "") -> list[tuple[Action, int, dict[str, Any]]]:
    """The entries of one game's section (``actions``: the table under ``[game]``), in file order;
    ``known`` lists the entry kinds an unknown action's error names (default: this game's)."""
    if not isinstance(actions, Mapping):
        raise ProfileFileError(source, f"{game.name}: expected [[{game.name}.<action>]] tables")
    entries = []
    for action_name, items in actions.items():
        action = next((a for a in game.actions if a.scenario and a.name == action_name), None)
        if action is None:
            known = known or ", ".join(f"[[{game.name}.{a.name}]]" for a in game.actions if a.scenario)
            raise ProfileFileError(source, f"unknown action [[{game.name}.{label(action_name)}]]; actions: {known}")
        if isinstance(items, Mapping):
            items = [items]
        if not isinstance(items, list):
            raise ProfileFileError(source, f"{game.name}.{action_name}: expected [[{game.name}.{action_name}]] tables")
        for index, item in enumerate(items):
            if not isinstance(item, Mapping):
                raise ProfileFileError(source, f"{game.name}.{action_name}[{index}]: expected a table of keywords")
            entries.append((action, index, dict(item)))
    return entries


@dataclasses.dataclass(frozen=True)
class Entry:
    """One scenario entry ready to run: its game and action, its place in the file (``where``, e.g.
    ``killteam.shoot[0]``), its label, its keywords with every profile built, and those keywords as
    plain values (``inputs``)."""

    game: str
    action: Action
    where: str
    name: str
    kwargs: dict[str, Any]
    inputs: dict[str, Any]
    source: str = "scenario"

    def call(self, progress: Any = None, **overrides: Any) -> Any:
        """Call the action's function; ``overrides`` replace keywords (not echoed in ``inputs``)."""
        kwargs = {**self.kwargs, **overrides}
        if progress is not None:
            kwargs["progress"] = progress
        try:
            return self.action.function(**kwargs)
        except (InputError, TypeError) as error:
            raise ProfileFileError(self.source, f"{self.where} ({self.name}): {error}") from None


def switched(game: Game, kwargs: dict[str, Any], library: Library) -> Library:
    """The library with the switches an entry names under ``with`` on (the key taken out of
    ``kwargs``); the library itself when it names none."""
    if SWITCH_KEY not in kwargs:
        return library
    if game.switches is None:
        raise InputError(SWITCH_KEY, f"{game.name} profiles have no switches")
    return game.with_switches(library, kwargs.pop(SWITCH_KEY), SWITCH_KEY)


def prepare(game: Game, action: Action, kwargs: dict[str, Any], library: Library) -> dict[str, Any]:
    """An entry's keywords checked against the function's and its profiles built (from the library
    with the switches it names under ``with`` on)."""
    allowed = action.keys()
    if allowed is not None:
        check_keys(kwargs, (*allowed, SWITCH_KEY) if game.switches is not None else allowed)
    library = switched(game, kwargs, library)
    for alias, target in action.aliases.items():
        if alias in kwargs:
            if target in kwargs:
                raise InputError(alias, f"give {alias} or {target}, not both")
            kwargs[target] = kwargs.pop(alias)
    required = action.required()
    missing = [key for key in required if key not in kwargs]
    if missing:
        raise InputError(missing[0], f"missing; [[{game.name}.{action.name}]] needs {', '.join(required)}")
    return resolve_keywords(game, action, kwargs, library)


def resolve_keywords(game: Game, action: Action, kwargs: dict[str, Any], library: Library) -> dict[str, Any]:
    """An entry's keywords with its profiles built and names resolved (no key checks): what
    :func:`prepare` does to an entry after checking it, and a [[sweep]] to each grid value."""
    for argument, kind in action.profiles.items():
        if argument in kwargs:
            kwargs[argument] = game.resolve_profile(kind, kwargs[argument], library, argument)
    for argument, kind in action.profile_tables.items():
        if isinstance(kwargs.get(argument), Mapping):
            kwargs[argument] = {
                name: game.resolve_profile(kind, value, library, f"{argument}.{name}")
                for name, value in kwargs[argument].items()
            }
    for argument, kind in action.profile_lists.items():
        value = kwargs.get(argument)
        if isinstance(value, Mapping):
            kwargs[argument] = {label: game.resolve_profile(kind, one, library, f"{argument}.{label}")
                                for label, one in value.items()}
        elif isinstance(value, (list, tuple)):
            kwargs[argument] = [game.resolve_profile(kind, one, library, f"{argument}[{i}]")
                                for i, one in enumerate(value)]
    if action.prepare is not None:
        kwargs = action.prepare(kwargs, library)
    return kwargs


E = TypeVar("E", bound=Entry)


def entry(game: Game, action: Action, index: int, kwargs: dict[str, Any], library: Library, source: str,
          overrides: Mapping[str, Any] | None = None, where: str = "", make: type[E] = Entry) -> E:  # type: ignore[assignment]
    """One entry of a scenario prepared (see :func:`prepare`) as a ``make`` (an :class:`Entry`);
    errors name the source and the entry."""
    where = where or f"{game.name}.{action.name}[{index}]"
    name = str(kwargs.pop("name", f"{game.name} {action.name} {index + 1}"))
    kwargs.update(overrides or {})
    switches = kwargs.get(SWITCH_KEY)
    try:
        kwargs = prepare(game, action, kwargs, library)
    except (InputError, TypeError) as error:
        raise ProfileFileError(source, f"{where} ({name}): {error}") from None
    inputs = plain(kwargs) if switches is None else {**plain(kwargs), SWITCH_KEY: plain(switches)}
    return make(game.name, action, where, name, kwargs, inputs, source)


def game_library(game: Game, scenario: Mapping[str, Any], base: Path | None = None, source: str = "scenario",
                 allow_outside: bool = False) -> Library:
    """The profiles of ``game`` in the libraries a scenario names (those of other games are not read)."""
    def find(data: Any, library_source: str) -> Game | None:
        if not isinstance(data, Mapping) or not isinstance(data.get("game"), str):
            raise ProfileFileError(library_source, f"a profile library needs game = {excerpt(game.name)} (or another game's name)")
        return game if data["game"] == game.name else None

    files = library_files(scenario, base or Path("."), source, allow_outside is True)
    return load_libraries(files, find).get(game.name, {})


def game_entries(game: Game, scenario: Mapping[str, Any], base: Path | None = None, source: str = "scenario",
                 overrides: Mapping[str, Any] | None = None, allow_outside: bool = False) -> list[Entry]:
    """The entries of ``game``'s section of a scenario (as loaded from its file), checked and with
    their profiles built from the libraries it names (see :func:`game_library`)."""
    if not isinstance(scenario, Mapping):
        raise ProfileFileError(source, "a scenario holds a table")
    library = game_library(game, scenario, base, source, allow_outside)
    return [entry(game, action, index, kwargs, library, source, overrides)
            for action, index, kwargs in section_entries(game, scenario.get(game.name, {}), source)]


def check_inputs(field: str, inputs: Any) -> dict[str, Any]:
    """An outcome payload's ``inputs``: a table of JSON values."""
    if not isinstance(inputs, Mapping):
        raise InputTypeError(field, f"expected a table, got {excerpt(inputs)}")
    check_plain(field, inputs)
    return dict(inputs)
