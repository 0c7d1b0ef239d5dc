"""Team libraries on disk: one profile library per imported team, and its import report beside it
(docs/data.md, "Team libraries").

``<folder>/<team>.toml`` (or ``.json``) is the document :meth:`Team.to_library` gives, a profile
library every command reads with ``--profiles``; ``<folder>/<team>.import.json`` is the team's
:class:`~mathhammer.killteam.data.ImportReport`. Every name is settled and checked before the first
file is written (two teams never share a file, nothing is written through a link), every file is
written whole (docs/files.md), and one import at a time writes into a folder.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from mathhammer.core.guard import excerpt, shown_path
from mathhammer.core.writing import OutputLock, check_output_folder, data_bytes, write_whole
from mathhammer.errors import InputError, InputTypeError
from mathhammer.killteam.data import Team

__all__ = ["FORMATS", "file_stem", "library_listing", "save_team", "save_teams", "team_file_names"]

FORMATS = ("toml", "json")
#: What a team's report adds to its file stem (the meta reads every other .json as a library).
REPORT_SUFFIX = ".import.json"


def file_stem(name: str) -> str:
    """A team's name as a file name: letters, digits, spaces and ``-_.&'`` kept, anything else
    (``/``, ``:``, control characters) an underscore; never empty, never starting with a dot, never
    ending in ``.import`` (a library "X.import.json" would be team X's report)."""
    if not isinstance(name, str):
        raise InputTypeError("name", f"expected a team's name, got {excerpt(name)}")
    stem = re.sub(r"[^\w \-.&']", "_", " ".join(name.split()))[:100].strip(" .")
    if stem.lower().endswith(".import"):
        stem = stem[: -len(".import")] + "_import"
    return stem or "team"


def _check_team(team: object, field: str) -> Team:
    if not isinstance(team, Team):
        raise InputTypeError(field, f"expected a kt.data.Team, got {excerpt(team)}")
    return team


def _check_format(fmt: object) -> str:
    if not isinstance(fmt, str):
        raise InputTypeError("fmt", f"expected toml or json, got {excerpt(fmt)}")
    if fmt not in FORMATS:
        raise InputError("fmt", f"{excerpt(fmt)}: expected toml or json")
    return fmt


def team_file_names(teams: Sequence[Team], fmt: str = "toml") -> list[str]:
    """The file stem of each team: its name as a file name, "<name> 2" for the second team whose
    files would have the same names (case aside: some file systems do not tell case apart)."""
    taken: set[str] = set()
    next_count: dict[str, int] = {}  # the next number to try for a stem: linear in the teams
    stems = []
    for team in teams:
        base = file_stem(team.name)
        stem, count = base, next_count.get(base.lower(), 1)
        while f"{stem}.{fmt}".lower() in taken or f"{stem}{REPORT_SUFFIX}".lower() in taken:
            count += 1
            stem = f"{base} {count}"
        next_count[base.lower()] = count
        taken.update((f"{stem}.{fmt}".lower(), f"{stem}{REPORT_SUFFIX}".lower()))
        stems.append(stem)
    return stems


def _targets(where: Path, stem: str, fmt: str, field: str) -> tuple[Path, Path]:
    """A team's two files, refused where a link or a folder is in the way (nothing is written
    through a link, which could lead out of the folder)."""
    files = where / f"{stem}.{fmt}", where / f"{stem}{REPORT_SUFFIX}"
    for path in files:
        if path.is_symlink():
            raise InputError(field, f"{shown_path(path)} is a symbolic link; delete it (no file is written through a "
                             "link)")
        if path.is_dir():
            raise InputError(field, f"{shown_path(path)} is a folder; move it away")
    return files


def _write(team: Team, library: Path, report: Path, field: str) -> None:
    data = team.report.to_dict() if team.report is not None else {"team": team.name, "entries": []}
    write_whole(library, data_bytes(library, team.to_library()), field)
    write_whole(report, (json.dumps(data, indent=2, ensure_ascii=False) + "\n").encode("utf-8"), field)


def _made(where: Path, field: str) -> None:
    try:
        where.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise InputError(field, f"cannot make the folder {shown_path(where)}: {error.strerror or error}") from None


def save_team(team: Team, folder: str | os.PathLike[str], fmt: str = "toml", stem: str | None = None) -> tuple[Path, Path]:
    """Write the team's library and its report into ``folder`` (made if missing); returns both paths."""
    team = _check_team(team, "team")
    fmt = _check_format(fmt)
    where = check_output_folder("folder", folder)
    if stem is not None and not isinstance(stem, str):
        raise InputTypeError("stem", f"expected a file name without its suffix, got {excerpt(stem)}")
    stem = file_stem(stem or team.name)
    library, report = _targets(where, stem, fmt, "folder")
    _made(where, "folder")
    with OutputLock("folder", where, folder=True):
        _write(team, library, report, "folder")
    return library, report


def save_teams(teams: Sequence[Team], folder: str | os.PathLike[str], fmt: str = "toml",
               field: str = "folder") -> list[tuple[Team, Path, Path]]:
    """Write each team's library and report into ``folder`` (made if missing); two teams whose files
    would share a name get "<name> 2" files. Every name is checked before the first file is written;
    ``field`` names the folder in errors."""
    if isinstance(teams, (str, bytes)) or not isinstance(teams, Sequence):
        raise InputTypeError("teams", f"expected a list of kt.data.Team, got {excerpt(teams)}")
    checked = [_check_team(team, f"teams[{i}]") for i, team in enumerate(teams)]
    fmt = _check_format(fmt)
    where = check_output_folder(field, folder)
    planned = [(team, *_targets(where, stem, fmt, field)) for team, stem in zip(checked, team_file_names(checked, fmt))]
    _made(where, field)
    with OutputLock(field, where, folder=True):
        for team, library, report in planned:
            _write(team, library, report, field)
    return planned


def library_listing(paths: Sequence[str | os.PathLike[str]], field: str = "profiles") -> list[dict[str, Any]]:
    """What Kill Team libraries hold (files, folders of them), by the names the commands take when
    they are given together (a name two libraries share is "<team>/<name>"), one dict per file:
    ``file``, ``profiles`` ({kind: {name: profile}}) and, for a team library, ``team``: its
    ``name``, ``source``, ``revision``, ``operatives`` (name, apl, move, the kt.Operative) and
    ``weapons`` (name, kind, the kt.Weapon, its WR text ``wr`` as the datacard writes it)."""
    from mathhammer.core.game import merged_names
    from mathhammer.files.library import library_files, load_game_library
    from mathhammer.killteam._game import GAME
    from mathhammer.killteam.data.load import load_team

    files = library_files([os.fspath(p) if isinstance(p, os.PathLike) else p for p in paths], field)
    libraries = [load_game_library(path, "killteam") for path in files]
    kinds = list(GAME.profile_kinds)
    names = merged_names([(GAME.library_label(library, str(path)), library) for path, library in zip(files, libraries)],
                         kinds)
    listed = []
    for path, library, named in zip(files, libraries, names):
        one: dict[str, Any] = {"file": path.name, "team": None,
                               "profiles": {kind: {named[kind][key]: profile for key, profile in library[kind].items()}
                                            for kind in kinds if library.get(kind)}}
        if "team" in library:
            team = load_team(path)
            weapons = []
            for op in team:
                for gun in op.weapons:
                    key = f"{op.name}/{gun.name}"
                    weapons.append({"name": named["fighter" if gun.kind == "melee" else "weapon"].get(key, key),
                                    "kind": gun.kind, "profile": gun.weapon, "wr": gun.wr})
            weapons += [{"name": named["weapon"].get(gun.name, gun.name), "kind": gun.kind, "profile": gun.weapon,
                         "wr": gun.wr} for gun in team.equipment]
            one["team"] = {"name": team.name, "source": team.file, "revision": team.revision,
                           "operatives": [{"name": named["operative"].get(op.name, op.name), "apl": op.apl,
                                           "move": op.move, "profile": op.operative} for op in team],
                           "weapons": weapons}
        listed.append(one)
    return listed
