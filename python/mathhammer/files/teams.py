"""Team libraries on disk: one profile library per imported team, and its import report beside it
(docs/data.md, "Team libraries").

``<folder>/<team>.toml`` (or ``.json``) is the document :meth:`Team.to_library` gives, a profile
library every command reads with ``--profiles``; ``<folder>/<team>.import.json`` is the team's
:class:`~mathhammer.killteam.data.ImportReport`.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from pathlib import Path

from mathhammer.core.guard import as_path, write_data
from mathhammer.errors import InputError, ProfileFileError
from mathhammer.killteam.data import Team

__all__ = ["FORMATS", "file_stem", "save_team", "save_teams"]

FORMATS = ("toml", "json")


def file_stem(name: str) -> str:
    """A team's name as a file name: letters, digits, spaces and ``-_.&'`` kept, anything else
    (``/``, ``:``, control characters) an underscore; never empty, never starting with a dot."""
    stem = re.sub(r"[^\w \-.&']", "_", " ".join(name.split())).strip(" .")
    return stem[:100] or "team"


def save_team(team: Team, folder: str | Path, fmt: str = "toml", stem: str | None = None) -> tuple[Path, Path]:
    """Write the team's library and its report into ``folder`` (made if missing); returns both paths."""
    if fmt not in FORMATS:
        raise InputError("format", f"{fmt!r}: expected toml or json")
    where = as_path(folder, "out")
    stem = stem or file_stem(team.name)
    library, report = where / f"{stem}.{fmt}", where / f"{stem}.import.json"
    try:
        where.mkdir(parents=True, exist_ok=True)
        write_data(library, team.to_library())
        data = team.report.to_dict() if team.report is not None else {"team": team.name, "entries": []}
        report.write_text(json.dumps(data, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    except OSError as error:
        raise ProfileFileError(str(where), f"cannot write the team's files: {error.strerror or error}") from None
    return library, report


def save_teams(teams: Sequence[Team], folder: str | Path, fmt: str = "toml") -> list[tuple[Team, Path, Path]]:
    """Write each team's library and report; two teams of one name get "<name> 2" files."""
    taken: set[str] = set()
    written = []
    for team in teams:
        stem, count = file_stem(team.name), 1
        while stem.lower() in taken:
            count += 1
            stem = f"{file_stem(team.name)} {count}"
        taken.add(stem.lower())
        written.append((team, *save_team(team, folder, fmt, stem)))
    return written
