"""The public readers: catalogues (a folder or a list of files), rosters and team libraries, and
what a folder holds (docs/data.md).
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Union

from mathhammer.core.game import Game
from mathhammer.core.guard import as_path, excerpt, read_data
from mathhammer.errors import InputError, InputTypeError, ProfileFileError
from mathhammer.killteam.data.build import Source as TeamSource
from mathhammer.killteam.data.build import build_team, weapon_kinds
from mathhammer.killteam.data.catalogue import KILL_TEAM_2024, Catalogues, Source, source
from mathhammer.killteam.data.reading import read_xml
from mathhammer.killteam.data.roster import read_roster
from mathhammer.killteam.data.team import Team, did_you_mean, team_from_library
from mathhammer.killteam.data.walk import Steps, Walk, faction_rules, rule_texts
from mathhammer.killteam.profiles import INFO_TABLES, PROFILE_KINDS
from mathhammer.killteam.switches import SWITCHES
from mathhammer.killteam.variants import Variants

__all__ = ["CATALOGUE_SUFFIXES", "Import", "ROSTER_SUFFIXES", "folder_contents", "load_catalogues", "load_roster",
           "load_team", "read_catalogues"]

PathLike = Union[str, "os.PathLike[str]"]
#: What reads a team library: Kill Team's profile kinds and its [team] table, without the game's
#: descriptor (killteam._game), whose actions reach this module (kt.matchup reads a team by its path)
_LIBRARY = Game("killteam", "Kill Team 2024", (), PROFILE_KINDS, Variants, info_tables=INFO_TABLES, switches=SWITCHES)
CATALOGUE_SUFFIXES = (".gst", ".cat")
ROSTER_SUFFIXES = (".ros", ".rosz")
LIBRARY_SUFFIXES = (".toml", ".json")
#: The most files one import reads.
MAX_FILES = 1000
#: The most bytes the catalogues of one import hold in all (each file at most 16 MiB): parsed, they
#: take about seven times as much memory, all at once (a catalogue's links reach the others).
MAX_IMPORT_BYTES = 64 * 1024 * 1024


@dataclass(frozen=True)
class Import:
    """What an import of catalogues read: the teams, and the files it skipped with the reason."""

    teams: list[Team]
    skipped: list[tuple[str, str]] = field(default_factory=list)


def _items(path: Any) -> list[Path]:
    """The paths an argument names: one path, or a list of them (each checked)."""
    if isinstance(path, (list, tuple)):
        if not path:
            raise InputError("path", "no files; give a folder or a list of files")
        return [as_path(item, f"path[{i}]") for i, item in enumerate(path)]
    return [as_path(path, "path")]


def _files(path: PathLike | Sequence[PathLike], suffixes: tuple[str, ...]) -> list[Path]:
    """The files a path names: itself, or a folder's files with one of ``suffixes`` (not its
    sub-folders), in name order; a list of paths gives each one's."""
    found: list[Path] = []
    for where in _items(path):
        if where.is_dir():
            found += sorted(p for p in where.iterdir() if p.suffix.lower() in suffixes and p.is_file())
        else:
            found.append(where)
        if len(found) > MAX_FILES:
            raise InputError("path", f"more than {MAX_FILES} files; import fewer at once")
    unique: dict[str, Path] = {}
    for file in found:  # a file named twice (a folder and one of its files) is read once
        unique.setdefault(os.path.abspath(file), file)
    return list(unique.values())


def _too_many_bytes(total: int) -> InputError:
    return InputError("path", f"the catalogues hold {total} bytes in all; at most {MAX_IMPORT_BYTES} in one import "
                      "(import fewer teams at once)")


def _read_all(files: list[Path]) -> list[Source]:
    """Every file read and parsed, within :data:`MAX_IMPORT_BYTES` in all: their sizes are added up
    before any is read, and the bytes read as they are (a file may grow)."""
    total = 0
    for file in files:
        with contextlib.suppress(OSError):  # a file that cannot be read says so when it is read
            total += file.stat().st_size
    if total > MAX_IMPORT_BYTES:
        raise _too_many_bytes(total)
    sources, total = [], 0
    for file in files:
        parsed = read_xml(file)
        total += parsed.size
        if total > MAX_IMPORT_BYTES:
            raise _too_many_bytes(total)
        sources.append(source(parsed))
    return sources


def read_catalogues(path: PathLike | Sequence[PathLike], teams: Sequence[str] | None = None) -> Import:
    """Every Kill Team 2024 catalogue among the files as a Team (``teams``: only those named,
    case-insensitive), and the files skipped (another edition's catalogues and game systems)."""
    items = _items(path)
    _teams_given(teams)
    files = _files(items, CATALOGUE_SUFFIXES)
    where = str(items[0]) if len(items) == 1 else f"{items[0]} and {len(items) - 1} more"
    if not files:
        raise InputError(where, "no .gst or .cat files; give the folder of the BattleScribe Kill Team data")
    sources = _read_all(files)
    skipped = [(s.file.name, f"game system {s.game_system}, not Kill Team 2024") for s in sources
               if s.game_system != KILL_TEAM_2024]
    cats = [s for s in sources if s.game_system == KILL_TEAM_2024 and s.root.tag == "catalogue"]
    systems = [s for s in sources if s.game_system == KILL_TEAM_2024 and s.root.tag == "gameSystem"]
    if not cats:
        raise InputError(where, f"no Kill Team 2024 catalogue (.cat of game system {KILL_TEAM_2024}) among the files")
    if not systems:
        raise InputError(where, f"no game system (.gst) {KILL_TEAM_2024} among the files")
    if len(systems) > 1:
        raise InputError(where, f"two game systems {KILL_TEAM_2024}: {systems[0].file.name} and "
                         f"{systems[1].file.name}; give one")
    catalogues = Catalogues(systems[0], cats)
    catalogues.check_links()
    chosen = _chosen(cats, teams)
    steps = Steps()  # one bound for the walks of all the catalogues
    walks = [Walk(catalogues, cat, steps) for cat in cats]
    kinds = weapon_kinds([raw for w in walks for raw in (*w.equipment, *(p for op in w.operatives for p in op.weapons))])
    out = []
    for cat, walk in zip(cats, walks):
        if cat in chosen:
            texts = rule_texts(s.root for s in catalogues.scope(cat))
            team = TeamSource(cat.name, cat.file.name, cat.revision, cat.file.sha256)
            out.append(build_team(team, walk.operatives, walk.equipment, kinds, texts, walk.notes,
                                  faction_rules(catalogues, cat), steps))
    return Import(out, skipped)


def _teams_given(teams: Any) -> list[str] | None:
    """The team names asked for: None (every team), one name, or a list of names."""
    if teams is None:
        return None
    if isinstance(teams, str):
        return [teams]
    if not isinstance(teams, (list, tuple)):
        raise InputTypeError("teams", f"expected a team's name or a list of names, got {excerpt(teams)}")
    for i, name in enumerate(teams):
        if not isinstance(name, str):
            raise InputTypeError(f"teams[{i}]", f"expected a team's name, got {excerpt(name)}")
    return list(teams)


def _chosen(cats: list[Source], given: Sequence[str] | None) -> list[Source]:
    teams = _teams_given(given)
    if teams is None:
        return cats
    chosen = []
    for name in teams:
        match = [cat for cat in cats if cat.name.lower() == " ".join(name.split()).lower()]
        if not match:
            raise InputError("team", f"no team {excerpt(name)} among the catalogues; "
                             f"{did_you_mean(name, [c.name for c in cats])}")
        chosen += [cat for cat in match if cat not in chosen]
    return chosen


def load_catalogues(path: PathLike | Sequence[PathLike], teams: Sequence[str] | None = None) -> list[Team]:
    """The Kill Team 2024 teams of a folder of BattleScribe data (or a list of files): one Team per
    catalogue. The game system (``.gst``) and every catalogue a catalogue links to must be among the
    files; other editions' files are skipped. ``teams``: only those named."""
    return read_catalogues(path, teams).teams


def load_roster(path: PathLike) -> Team:
    """The team a roster (``.ros``, or zipped ``.rosz``) fields, with the stats the roster holds."""
    return read_roster(read_xml(as_path(path, "path")))


def load_team(path: PathLike) -> Team:
    """A team library written by ``mathhammer killteam import`` (or ``Team.to_library()`` saved),
    read back as the same Team (its report is the ``.import.json`` beside it: ``report`` is None)."""
    where = as_path(path, "path")
    try:
        document = read_data(where)
    except ProfileFileError:
        raise
    except InputError as error:
        raise ProfileFileError(str(where), str(error).split(": ", 1)[1]) from None
    if not isinstance(document, dict) or document.get("game") != "killteam":
        raise ProfileFileError(str(where), "not a Kill Team library; expected game = \"killteam\" and a [team] table")
    return team_from_library(document, _LIBRARY.parse_library(document, str(where)), str(where))


def folder_contents(path: PathLike) -> list[dict[str, Any]]:
    """What a folder holds, one row per file: game systems, catalogues, rosters and team libraries
    (a file that cannot be read says why)."""
    folder = as_path(path, "path")
    if not folder.is_dir():
        raise InputError(str(folder), "not a folder")
    rows = []
    for file in _files(folder, (*CATALOGUE_SUFFIXES, *ROSTER_SUFFIXES, *LIBRARY_SUFFIXES)):
        if file.name.endswith(".import.json"):
            continue
        try:
            rows.append(_describe(file))
        except InputError as error:
            rows.append({"file": file.name, "kind": "unreadable", "name": "", "detail": str(error).split(": ", 1)[-1]})
    return [row for row in rows if row]


def _describe(file: Path) -> dict[str, Any]:
    if file.suffix.lower() in LIBRARY_SUFFIXES:
        document = read_data(file)
        if not isinstance(document, dict) or "team" not in document:
            return {}
        team = load_team(file)
        return {"file": file.name, "kind": "team library", "name": team.name,
                "detail": f"{len(team.operatives)} operatives, {team.weapon_count()} weapons, from {team.file}"
                          + (f" revision {team.revision}" if team.revision is not None else "")}
    parsed = read_xml(file)
    if parsed.kind == "roster":
        forces = [f.get("catalogueName", "") for f in parsed.root.iter("force")]
        return {"file": file.name, "kind": "roster", "name": parsed.attribute("name"),
                "detail": ", ".join(f for f in forces if f)}
    found = source(parsed)
    edition = "Kill Team 2024" if found.game_system == KILL_TEAM_2024 else f"another game system ({found.game_system})"
    kind = "game system" if parsed.kind == "gameSystem" else "catalogue"
    revision = f"revision {found.revision}, " if found.revision is not None else ""
    return {"file": file.name, "kind": kind, "name": found.name, "detail": f"{revision}{edition}"}
