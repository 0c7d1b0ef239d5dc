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
the CLI commands and scenario files use it.
"""

from __future__ import annotations

import dataclasses
import importlib
import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any, ClassVar, TypeVar

import tomli_w

from mathhammer._guard import as_path, closest, excerpt, label, read_data
from mathhammer._guard import tomllib as tomllib  # re-exported: tests and tools read TOML through it
from mathhammer._validate import InputError, InputTypeError

# (game, kind) -> "module:Class"; kinds are the tables a library file may hold.
PROFILE_KINDS: dict[str, dict[str, str]] = {
    "killteam": {
        "weapon": "mathhammer.killteam:Weapon",
        "fighter": "mathhammer.killteam:Fighter",
        "operative": "mathhammer.killteam:Operative",
    },
    "starcraft": {"weapon": "mathhammer.starcraft:Weapon", "unit": "mathhammer.starcraft:Unit"},
    "deathburgh": {"miniature": "mathhammer.deathburgh:Miniature"},
    "force_melee": {
        "weapon": "mathhammer.force_melee:Weapon",
        "unit": "mathhammer.force_melee:Unit",
        "side": "mathhammer.force_melee:Side",
    },
}


# Fields of a profile that may name another entry of the same library: (game, kind) -> {field: kind}.
REFERENCES: dict[tuple[str, str], dict[str, str]] = {
    ("force_melee", "side"): {"unit": "unit", "weapon": "weapon"},
}

# Profiles a game ships by name, usable wherever a library name is: (game, kind) -> "module:DICT".
BUILTIN_PROFILES: dict[tuple[str, str], str] = {
    ("starcraft", "weapon"): "mathhammer.starcraft.catalog:WEAPONS",
    ("starcraft", "unit"): "mathhammer.starcraft.catalog:UNITS",
    ("deathburgh", "miniature"): "mathhammer.deathburgh.profiles:EXAMPLES",
    ("force_melee", "side"): "mathhammer.force_melee.profiles:EXAMPLES",
}

P = TypeVar("P")

#: {kind: {name: profile}}, as :func:`load_library` returns it.
Library = dict[str, dict[str, Any]]


class ProfileFileError(InputError):
    """A profile file that cannot be read or holds an invalid entry."""


def profile_class(game: str, kind: str) -> type:
    """The class behind a (game, kind) pair, e.g. ("killteam", "fighter") -> kt.Fighter."""
    if not isinstance(game, str) or game not in PROFILE_KINDS:
        raise InputError("game", f"unknown game {excerpt(game)}; allowed: {', '.join(PROFILE_KINDS)}")
    kinds = PROFILE_KINDS[game]
    if not isinstance(kind, str) or kind not in kinds:
        raise InputError("kind", f"unknown {game} profile kind {excerpt(kind)}; allowed: {', '.join(kinds)}")
    module, name = kinds[kind].split(":")
    cls: type = getattr(importlib.import_module(module), name)
    return cls


def profile_to_dict(profile: Any) -> dict[str, Any]:
    """The fields of a profile as plain TOML/JSON values (rules and abilities in datacard notation)."""
    if not dataclasses.is_dataclass(profile) or isinstance(profile, type):
        raise InputTypeError("profile", f"expected a profile object, got {type(profile).__name__}")
    out: dict[str, Any] = {}
    for f in dataclasses.fields(profile):
        value = _plain(getattr(profile, f.name))
        if value is not None:
            out[f.name] = value
    return out


def _plain(value: Any) -> Any:
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    if isinstance(value, (tuple, list)):
        return [_plain(v) for v in value]
    if isinstance(value, Mapping):
        return {str(k): _plain(v) for k, v in value.items()}
    if hasattr(value, "value") and isinstance(getattr(value, "value"), (str, int)):  # enums
        return value.value
    if dataclasses.is_dataclass(value) and hasattr(type(value), "parse"):  # rules, abilities
        return str(value)
    if dataclasses.is_dataclass(value):
        return profile_to_dict(value)
    return str(value)


def profile_from_dict(
    game: str, kind: str, data: Mapping[str, Any], named: Mapping[str, Mapping[str, Any]] | None = None
) -> Any:
    """Build and validate one profile from its fields (or from ``card = "..."`` datacard notation).

    ``named`` ({kind: {name: profile}}) resolves fields that name another profile (see REFERENCES).
    """
    cls = profile_class(game, kind)
    if not isinstance(data, Mapping):
        raise InputTypeError(kind, f"expected a table of fields, got {type(data).__name__}")
    data = dict(data)
    if "card" in data:
        card = data.pop("card")
        if not hasattr(cls, "parse"):
            raise InputError("card", f"{game} {kind} profiles have no datacard notation; give the fields")
        base = profile_to_dict(cls.parse(card))
        base.update(data)
        data = base
    check_fields(cls, data, kind)
    for name, other in REFERENCES.get((game, kind), {}).items():
        if isinstance(data.get(name), str):
            data[name] = _named(game, other, data[name], named or {}, name)
    return build_from_fields(cls, data, kind)


def check_fields(cls: type, data: Mapping[str, Any], kind: str) -> None:
    """Refuse a field the profile class does not have, listing the ones it has."""
    known = {f.name for f in dataclasses.fields(cls)}
    unknown = sorted((str(k) for k in data if k not in known))
    if unknown:
        raise InputError(unknown[0], f"unknown field; {kind} fields are: {', '.join(sorted(known))}")


def build_from_fields(cls: type[P], data: Mapping[str, Any], kind: str) -> P:
    """A profile from its fields as plain TOML/JSON values (lists become tuples where it holds tuples)."""
    check_fields(cls, data, kind)
    required = [f.name for f in dataclasses.fields(cls)  # type: ignore[arg-type]
                if f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING]
    missing = [name for name in required if name not in data]
    if missing:
        raise InputError(missing[0], f"missing; a {kind} needs {', '.join(required)}")
    values = dict(data)
    hints = {f.name: f.default for f in dataclasses.fields(cls)}  # type: ignore[arg-type]
    for name, value in values.items():
        if isinstance(value, list) and (isinstance(hints.get(name), tuple) or name == "damage"):
            values[name] = tuple(tuple(v) if isinstance(v, list) else v for v in value)
    return cls(**values)


class FieldsProfile:
    """``to_dict`` / ``from_dict`` for a profile dataclass through its fields as plain TOML/JSON
    values (nested rules and abilities as datacard notation), the form profile libraries use."""

    #: The name errors use for this kind of profile.
    KIND: ClassVar[str] = "profile"

    def to_dict(self) -> dict[str, Any]:
        return profile_to_dict(self)

    @classmethod
    def from_dict(cls: type[P], data: Mapping[str, Any]) -> P:
        kind = getattr(cls, "KIND", "profile")
        if not isinstance(data, Mapping):
            raise InputTypeError(kind, f"expected a table of fields, got {type(data).__name__}")
        return build_from_fields(cls, data, kind)


def _named(game: str, kind: str, name: str, named: Mapping[str, Mapping[str, Any]], field: str) -> Any:
    entries = named.get(kind, {})
    if name in entries:
        return entries[name]
    raise InputError(field, f"no {kind} {excerpt(name)} in the library; its {kind} entries: {closest(name, list(entries))}")


def builtin_profiles(game: str, kind: str) -> dict[str, Any]:
    """The profiles a game ships by name for a kind (sc.catalog, the Deathburgh and Force melee
    examples); empty when it has none."""
    path = BUILTIN_PROFILES.get((game, kind))
    if path is None:
        return {}
    module, name = path.split(":")
    return dict(getattr(importlib.import_module(module), name))


def _key(name: str) -> str:
    return "".join(ch if ch.isalnum() else "_" for ch in name.strip().lower()).strip("_")


def _find(name: str, entries: Mapping[str, Any]) -> Any:
    """An entry by its key, or by its key or ``name`` attribute written loosely ("Bandit brute", "bandit_brute")."""
    if name in entries:
        return entries[name]
    key = _key(name)
    for entry_key, profile in entries.items():
        label = getattr(profile, "name", "")
        if key in (_key(entry_key), _key(label) if isinstance(label, str) and label else None):
            return profile
    return None


def resolve_profile(
    game: str, kind: str, value: Any, library: Mapping[str, Mapping[str, Any]] | None = None, field: str | None = None
) -> Any:
    """A profile from whatever names one: a profile object, a name from ``library`` ({kind: {name:
    profile}}), a built-in profile of the game, datacard notation (where the game has one) or a table
    of fields. Errors name ``field`` (default: the kind) and list the names known."""
    cls = profile_class(game, kind)
    field = field or kind
    library = library or {}
    if not isinstance(library, Mapping) or not all(isinstance(v, Mapping) for v in library.values()):
        raise InputTypeError("library", f"expected {{kind: {{name: profile}}}} as load_library returns, got {excerpt(library)}")
    if isinstance(value, cls):
        return value
    if isinstance(value, Mapping):
        try:
            return profile_from_dict(game, kind, value, library)
        except (InputError, InputTypeError) as error:
            raise type(error)(f"{field}.{error.field}", str(error).split(": ", 1)[1]) from None
        except TypeError as error:  # a required field is missing
            raise InputTypeError(field, str(error)) from None
    if not isinstance(value, str):
        raise InputTypeError(field, f"expected a {kind} name, notation or a table of fields, got {excerpt(value)}")
    builtin = builtin_profiles(game, kind)
    for entries in (library.get(kind, {}), builtin):
        found = _find(value, entries)
        if found is not None:
            return found
    names = list(dict.fromkeys([str(name) for name in (*library.get(kind, {}), *builtin)]))
    known = closest(value, names)
    if hasattr(cls, "parse"):
        try:
            return cls.parse(value)
        except (InputError, InputTypeError) as error:
            reason = str(error)
        if not names:
            raise InputError(field, f"{excerpt(value)} is not valid {game} notation ({reason}), and no {kind} "
                             "profile has that name")
        raise InputError(field, f"{excerpt(value)} is neither a known {kind} ({known}) nor valid {game} notation "
                         f"({reason})")
    if not names:
        raise InputError(field, f"unknown {kind} {excerpt(value)}; no {kind} profiles are loaded (give --profiles FILE)")
    raise InputError(field, f"unknown {kind} {excerpt(value)}; known: {known}")


def _read(path: Path) -> dict[str, Any]:
    """The content of a TOML or JSON file; every failure is a ProfileFileError naming the file (a
    regular file of at most 16 MiB, nested at most 64 deep: see mathhammer._guard)."""
    try:
        return read_data(path)  # type: ignore[no-any-return]
    except InputError as error:
        raise ProfileFileError(error.field, str(error).split(": ", 1)[1]) from None


def load_library(path: str | Path) -> Library:
    """Load a profile library: {kind: {name: profile}}; the game is in ``library_game(path)``."""
    return parse_library(_read(as_path(path)), str(path))[1]


#: The example libraries shipped inside the package (copies of examples/<game>/profiles.toml), by game.
BUNDLED_LIBRARIES: dict[str, str] = {
    "killteam": "data/killteam/profiles.toml",
    "starcraft": "data/starcraft/profiles.toml",
    "force_melee": "data/force_melee/profiles.toml",
}


def bundled_library_name(game: str) -> str:
    """What names a game's bundled example library on the command line: "killteam-examples"."""
    return game.replace("_", "-") + "-examples"


def _bundled(path: str | Path) -> str | None:
    """The game whose bundled library ``path`` names ("force-melee-examples"), unless it is a file."""
    text = str(path)
    for game in BUNDLED_LIBRARIES:
        if text in (bundled_library_name(game), game + "-examples") and not Path(text).exists():
            return game
    return None


def _read_bundled(game: str) -> dict[str, Any]:
    from importlib import resources

    text = resources.files("mathhammer").joinpath(BUNDLED_LIBRARIES[game]).read_text(encoding="utf-8")
    data: dict[str, Any] = tomllib.loads(text)
    return data


def default_library(game: str) -> Library:
    """The library a command uses without ``--profiles``: the game's bundled examples, less the
    entries a built-in profile of the game already answers to (the built-in one keeps its name)."""
    if game not in BUNDLED_LIBRARIES:
        return {}
    library = parse_library(_read_bundled(game), bundled_library_name(game))[1]
    for kind, entries in library.items():
        builtin = builtin_profiles(game, kind)
        library[kind] = {key: profile for key, profile in entries.items()
                         if _find(key, builtin) is None and _find(str(getattr(profile, "name", "") or key), builtin) is None}
    return library


def load_game_library(path: str | Path, game: str) -> Library:
    """Load a profile library that must be of ``game`` (a library of another game is an error); a
    bundled library's name ("killteam-examples") loads that library."""
    bundled = _bundled(path)
    data = _read_bundled(bundled) if bundled is not None else _read(as_path(path))
    found, library = parse_library(data, str(path))
    if found != game:
        raise ProfileFileError(str(path), f"game: this is a {found} library; expected game = {game!r}")
    return library


def parse_library(data: Mapping[str, Any], source: str) -> tuple[str, Library]:
    """Validate the content of a library file; errors name the source, the entry and the field."""
    if not isinstance(data, Mapping) or "game" not in data:
        raise ProfileFileError(source, f"a profile library needs game = one of {', '.join(PROFILE_KINDS)}")
    game = data["game"]
    if not isinstance(game, str) or game not in PROFILE_KINDS:
        raise ProfileFileError(source, f"game: unknown game {excerpt(game)}; allowed: {', '.join(PROFILE_KINDS)}")
    for kind, entries in data.items():
        if kind == "game":
            continue
        if kind not in PROFILE_KINDS[game]:
            raise ProfileFileError(source, f"unknown table [{excerpt(kind)[1:-1]}]; {game} tables are: {', '.join(PROFILE_KINDS[game])}")
        if not isinstance(entries, Mapping):
            raise ProfileFileError(source, f"[{kind}] must hold named entries such as [{kind}.name]")
    library: Library = {}
    for kind in PROFILE_KINDS[game]:  # in this order, so that a side may name the units and weapons before it
        if kind not in data:
            continue
        library[kind] = {}
        for name, fields in data[kind].items():
            try:
                profile = profile_from_dict(game, kind, fields, library)
                if getattr(profile, "name", None) == "":  # an entry without a name takes its table's
                    profile = dataclasses.replace(profile, name=str(name))
                library[kind][name] = profile
            except (InputError, InputTypeError) as error:
                raise ProfileFileError(source, f"{kind}.{label(name)}: {error}") from None
            except TypeError as error:  # a required field is missing
                raise ProfileFileError(source, f"{kind}.{label(name)}: {error}") from None
    return game, library


def library_game(path: str | Path) -> str:
    """The game a library file is for."""
    return parse_library(_read(as_path(path)), str(path))[0]


def save_library(path: str | Path, game: str, library: Mapping[str, Mapping[str, Any]]) -> None:
    """Write a profile library as TOML or JSON (by the file's suffix)."""
    path = as_path(path)
    data: dict[str, Any] = {"game": game}
    for kind, entries in library.items():
        profile_class(game, kind)  # validates the kind
        data[kind] = {name: profile_to_dict(profile) for name, profile in entries.items()}
    if path.suffix.lower() == ".json":
        path.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
    elif path.suffix.lower() == ".toml":
        path.write_text(tomli_w.dumps(data), encoding="utf-8")
    else:
        raise ProfileFileError(str(path), "unknown file type; use .toml or .json")
