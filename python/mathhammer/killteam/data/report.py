"""The import report: for every operative and weapon profile read, where it came from and what
became of it (docs/data.md, "The report").

An entry names its source ids (the operative's entry, the links followed, the profile), the WR text
as written, the tokens accepted, rewritten, ignored with their reason and unknown, the modifiers
applied or left undecided (with both values), and why a profile was skipped when it was. The report
is written beside a team library as ``<team>.import.json``.
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from dataclasses import dataclass
from typing import Any

from mathhammer.killteam.data.tokens import Kept, Rewrite

__all__ = ["Change", "Entry", "ImportReport"]


@dataclass(frozen=True)
class Change:
    """A modifier on a characteristic: ``status`` "applied" (the value is ``after``) or "undecided"
    (it depends on choices a catalogue does not make: the value stays ``before``, ``after`` is what
    the modifier would make it); ``condition`` says what it depends on."""

    characteristic: str
    type: str
    value: str
    before: str
    after: str
    status: str
    condition: str


@dataclass(frozen=True)
class Entry:
    """One operative (``weapon`` empty) or one weapon profile of an operative (``operative`` empty
    for the team's equipment), as read."""

    operative: str
    weapon: str = ""
    ids: tuple[str, ...] = ()
    wr: str = ""
    accepted: tuple[str, ...] = ()
    rewritten: tuple[Rewrite, ...] = ()
    ignored: tuple[Kept, ...] = ()
    unknown: tuple[Kept, ...] = ()
    changes: tuple[Change, ...] = ()
    skipped: str = ""
    notes: tuple[str, ...] = ()


@dataclass(frozen=True)
class ImportReport:
    """What one team's import read: its source and an entry per operative and weapon profile;
    ``notes`` are the team's own (links that lead nowhere, renamed duplicates, files skipped)."""

    team: str
    file: str
    revision: int | None
    sha256: str
    entries: tuple[Entry, ...] = ()
    notes: tuple[str, ...] = ()

    def unknown_tokens(self) -> Counter[str]:
        """Every unknown weapon-rule token, with how many profiles have it."""
        return Counter(kept.token for entry in self.entries for kept in entry.unknown)

    def skipped(self) -> list[Entry]:
        """The entries that were not imported, each with its reason."""
        return [entry for entry in self.entries if entry.skipped]

    def undecided(self) -> list[Entry]:
        """The entries with a modifier the catalogue alone cannot decide."""
        return [entry for entry in self.entries if any(c.status == "undecided" for c in entry.changes)]

    def to_dict(self) -> dict[str, Any]:
        """The report as plain JSON values (empty fields left out of each entry)."""
        entries = []
        for entry in self.entries:
            row = {key: value for key, value in dataclasses.asdict(entry).items() if value not in ("", (), [])}
            entries.append(row)
        return {
            "team": self.team, "file": self.file, "revision": self.revision, "sha256": self.sha256,
            "counts": {"entries": len(self.entries), "skipped": len(self.skipped()),
                       "undecided": len(self.undecided()), "unknown_tokens": dict(self.unknown_tokens())},
            "notes": list(self.notes), "entries": entries,
        }
