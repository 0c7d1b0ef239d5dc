"""``mathhammer examples [--copy DIR]``: the example files that ship inside the package.

The README and docs/ run commands on ``examples/...`` files: the profile libraries and scenarios,
and Kill Team's invented BattleScribe catalogues and roster (``killteam/data``) with the team
libraries ``mathhammer killteam import`` makes of them (``killteam/teams``). In a checkout that
folder is there; after ``pip install`` it is inside the installed package, so this command lists
the files and writes them out (``mathhammer examples --copy examples`` makes the docs' paths work
from any folder).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Optional

import typer

from mathhammer.cli.commands import epilog
from mathhammer.cli.options import FormatOption, OutputFormat
from mathhammer.cli.output import emit
from mathhammer.core.guard import shown_path
from mathhammer.errors import InputError
from mathhammer.report.tables import Table

if TYPE_CHECKING:
    from importlib.resources.abc import Traversable

__all__ = ["EXAMPLE_SUFFIXES", "example_files", "register"]

#: The example files: profile libraries and scenarios, Kill Team's BattleScribe catalogues, game
#: system and roster, and the import's reports.
EXAMPLE_SUFFIXES = (".toml", ".json", ".cat", ".gst", ".ros")

def example_files() -> list[tuple[str, Traversable]]:
    """Every example file of the package, by its path inside the examples folder, sorted."""
    from importlib import resources  # here: the command line's start does not pay for it

    found: list[tuple[str, Traversable]] = []

    def walk(folder: Traversable, prefix: str) -> None:
        for entry in folder.iterdir():
            if entry.is_dir():
                walk(entry, f"{prefix}{entry.name}/")
            elif entry.name.endswith(EXAMPLE_SUFFIXES):
                found.append((f"{prefix}{entry.name}", entry))

    walk(resources.files("mathhammer").joinpath("examples"), "")
    return sorted(found, key=lambda item: (item[0].count("/"), item[0]))


def _about(name: str, text: str) -> str:
    """What a file holds: the first sentence of its opening comment (TOML's ``#`` lines, XML's
    ``<!-- -->``); for a file written by ``mathhammer killteam import``, which has none, what it is."""
    words: list[str] = []
    if name.endswith(".toml"):
        for line in text.splitlines():
            if not line.startswith("#") or not line.lstrip("#").strip():
                break
            words.append(line.lstrip("#").strip())
    else:
        comment = re.match(r"(?:<\?xml[^>]*\?>)?\s*<!--(.*?)-->", text, re.DOTALL)
        words = comment.group(1).split() if comment else []
    if words:
        return " ".join(words).split(". ")[0].rstrip(".:")
    team = _imported_team(name, text)
    if team is None:
        return ""
    kind = "team library" if name.endswith(".toml") else "import report"
    return f"{team}: the {kind} `mathhammer killteam import` writes"


def _imported_team(name: str, text: str) -> str | None:
    """The team a library or report written by the import is of, or None."""
    import json  # here: the command line's start does not pay for them

    from mathhammer.files.library import tomllib

    try:
        data = tomllib.loads(text) if name.endswith(".toml") else json.loads(text)
    except ValueError:
        return None
    team = data.get("team") if isinstance(data, dict) else None
    if isinstance(team, dict):  # a library: [team] name = ...
        team = team.get("name")
    return team if isinstance(team, str) else None


def register(app: typer.Typer) -> None:
    """Add ``examples`` to the root command."""

    @app.command("examples", epilog=epilog("examples"))
    def examples(
        copy: Annotated[Optional[Path], typer.Option(
            "--copy", metavar="DIR", help="Write the files into DIR (made if missing), keeping their folders.")] = None,
        force: Annotated[bool, typer.Option("--force", help="With --copy: replace files that are already there.")]
        = False,
        fmt: FormatOption = OutputFormat.table,
    ) -> None:
        """List the example profile libraries and scenarios that ship with mathhammer, or copy them out.

        The README and docs run their commands on these files as examples/...: in a checkout they are
        there; elsewhere write them with --copy examples first.
        """
        files = example_files()
        rows = [[name, _about(name, entry.read_text(encoding="utf-8"))] for name, entry in files]
        lines: list[str] = []
        if copy is None:
            lines.append("copy them out: mathhammer examples --copy DIR (then: mathhammer run DIR/scenario.toml)")
        else:
            if copy.exists() and not copy.is_dir():
                raise InputError("--copy", f"{shown_path(copy)} is a file; name a folder")
            targets = [(copy / name, entry) for name, entry in files]
            there = [path for path, entry in targets
                     if path.exists() and path.read_bytes() != entry.read_bytes()]
            if there and not force:
                raise InputError("--copy", f"{shown_path(there[0])} is already there and differs "
                                           f"({len(there)} such files); --force replaces them")
            try:
                for path, entry in targets:
                    content = entry.read_bytes()
                    if path.exists() and path.read_bytes() == content:
                        continue  # already there as it is
                    path.parent.mkdir(parents=True, exist_ok=True)
                    path.write_bytes(content)
            except OSError as error:
                raise InputError("--copy", f"cannot write into {shown_path(copy)}: {error.strerror or error}") from None
            lines.append(f"{len(targets)} files written to {copy}; run one: mathhammer run {copy / 'scenario.toml'}")
        payload = {"files": [{"file": name, "about": about} for name, about in rows],
                   "copied_to": None if copy is None else str(copy)}
        emit(fmt, [Table("Example files", ["file", "what it holds"], rows)], payload, lines)
