"""The import report: for every operative and weapon profile read, where it came from and what
became of it (docs/data.md, "The report").

An entry names its source ids (the operative's entry, the links followed, the profile), the WR text
as written, the tokens accepted, rewritten, ignored with their reason (and a team rule's text) and
unknown, the modifiers applied, left undecided (with both values) or made an option's variant, what
told an unmarked weapon's kind, and why a profile was skipped or flagged. An ability entry says what
each clause of an ability text became: applied, a switch, or set aside with the reason. The report
is written beside a team library as ``<team>.import.json``; :func:`summary_lines` says it in a few
lines for the terminal.
"""

from __future__ import annotations

import dataclasses
import textwrap
from collections import Counter
from dataclasses import dataclass
from typing import Any

from mathhammer.killteam.data.tokens import Kept, Rewrite

__all__ = ["OUTCOMES", "AbilityEntry", "Change", "Entry", "ImportReport", "Reading", "summary_lines"]

#: What a clause of an ability's text becomes.
OUTCOMES = ("applied", "switch", "set aside")
#: The terminal's width the summary keeps to.
WIDTH = 80


@dataclass(frozen=True)
class Change:
    """A modifier on a characteristic: ``status`` "applied" (the value is ``after``), "undecided"
    (it depends on choices a catalogue does not make: the value stays ``before``, ``after`` is what
    the modifier would make it), "option" (it holds when the operative has the option whose id is
    ``option``: applied to the operative's variant of that option) or "not applied" (it cannot be
    applied as written); ``condition`` says what it depends on."""

    characteristic: str
    type: str
    value: str
    before: str
    after: str
    status: str
    condition: str
    option: str = ""


@dataclass(frozen=True)
class Entry:
    """One operative (``weapon`` empty) or one weapon profile of an operative (``operative`` empty
    for the team's equipment), as read. ``kind_from``: what told a weapon without a ⌖/⚔ glyph
    ranged or melee ("a weapon of the same name", "its Range rule", ... "nothing: both");
    ``flagged``: why the entry needs a look (a weapon imported as both kinds); ``variant_of``: the
    operative an option's variant was made from."""

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
    kind_from: str = ""
    flagged: str = ""
    variant_of: str = ""


@dataclass(frozen=True)
class Reading:
    """What one clause of an ability's text became: ``outcome`` "applied", "switch" or "set aside";
    the engine option (``what``: "abilities", "rules" or "stats", and its ``notation``), the
    operatives or weapons it reaches (``targets``, as the library names them), the ``condition``
    in words (a switch's), the switch's ``switch`` name, and why a clause was set aside
    (``reason``, with the clause as written in ``clause``)."""

    outcome: str
    what: str = ""
    notation: str = ""
    targets: tuple[str, ...] = ()
    condition: str = ""
    switch: str = ""
    reason: str = ""
    clause: str = ""


@dataclass(frozen=True)
class AbilityEntry:
    """One ability text read: its ``name`` as the data writes it, ``source`` ("operative" with the
    operatives that have it, "faction rule", "weapon rule" with the weapons whose WR names it),
    the ``text`` and a :class:`Reading` per clause."""

    name: str
    source: str
    holders: tuple[str, ...]
    text: str
    readings: tuple[Reading, ...] = ()

    @property
    def outcome(self) -> str:
        """"applied", "switch", "set aside", or "partly" when its clauses went different ways."""
        found = {reading.outcome for reading in self.readings}
        return found.pop() if len(found) == 1 else "partly" if found else "set aside"


@dataclass(frozen=True)
class ImportReport:
    """What one team's import read: its source, an entry per operative and weapon profile, and an
    entry per ability text (operative abilities, faction rules, the team's weapon rules); ``notes``
    are the team's own (links that lead nowhere, renamed duplicates, files skipped)."""

    team: str
    file: str
    revision: int | None
    sha256: str
    entries: tuple[Entry, ...] = ()
    notes: tuple[str, ...] = ()
    abilities: tuple[AbilityEntry, ...] = ()

    def unknown_tokens(self) -> Counter[str]:
        """Every unknown weapon-rule token, with how many profiles have it."""
        return Counter(kept.token for entry in self.entries for kept in entry.unknown)

    def skipped(self) -> list[Entry]:
        """The entries that were not imported, each with its reason."""
        return [entry for entry in self.entries if entry.skipped]

    def undecided(self) -> list[Entry]:
        """The entries with a modifier the catalogue alone cannot decide."""
        return [entry for entry in self.entries if any(c.status == "undecided" for c in entry.changes)]

    def flagged(self) -> list[Entry]:
        """The entries flagged for a look (a weapon imported as both kinds), each with why."""
        return [entry for entry in self.entries if entry.flagged]

    def variants(self) -> list[Entry]:
        """The operatives made from an option of another (a save an option changes)."""
        return [entry for entry in self.entries if entry.variant_of]

    def readings(self, outcome: str) -> list[tuple[AbilityEntry, Reading]]:
        """Every clause of the ability texts with this outcome ("applied", "switch", "set aside")."""
        return [(ability, reading) for ability in self.abilities for reading in ability.readings
                if reading.outcome == outcome]

    def ability_counts(self) -> dict[str, int]:
        """How many ability texts had a clause applied, made a switch, set aside (a text whose
        clauses went different ways counts under each), and the texts read in all."""
        counts = {outcome: sum(1 for a in self.abilities if any(r.outcome == outcome for r in a.readings))
                  for outcome in OUTCOMES}
        return {**counts, "texts": len(self.abilities)}

    def to_dict(self) -> dict[str, Any]:
        """The report as plain JSON values (empty fields left out of each entry)."""
        entries = [_plain(entry) for entry in self.entries]
        abilities = [{**_plain(ability), "outcome": ability.outcome} for ability in self.abilities]
        return {
            "team": self.team, "file": self.file, "revision": self.revision, "sha256": self.sha256,
            "counts": {"entries": len(self.entries), "skipped": len(self.skipped()),
                       "undecided": len(self.undecided()), "flagged": len(self.flagged()),
                       "variants": len(self.variants()), "unknown_tokens": dict(self.unknown_tokens()),
                       "abilities": {k.replace(" ", "_"): v for k, v in self.ability_counts().items()}},
            "notes": list(self.notes), "entries": entries, "abilities": abilities,
        }


def _plain(item: Any) -> dict[str, Any]:
    """A report record as JSON values, its empty fields left out (nested records too)."""
    def strip(value: Any) -> Any:
        if isinstance(value, dict):
            return {key: strip(inner) for key, inner in value.items() if inner not in ("", (), [], None)
                    or key == "text"}
        if isinstance(value, (list, tuple)):
            return [strip(inner) for inner in value]
        return value

    plain: dict[str, Any] = strip(dataclasses.asdict(item))
    return plain


def _cut(text: str, room: int) -> str:
    return text if len(text) <= room else text[: max(room - 1, 0)] + "\u2026"


def _items(report: ImportReport, full: bool) -> dict[str, list[str]]:
    """Each kind of line's items: short (a name and a word of why) or full (everything)."""
    out: dict[str, list[str]] = {kind: [] for kind in ("applied", "switches", "set aside", "skipped", "flagged",
                                                       "variants", "unknown")}
    for ability in report.abilities:
        for reading in ability.readings:
            reach = f" on {len(reading.targets)} {'entry' if len(reading.targets) == 1 else 'entries'}"
            if reading.outcome == "applied":
                out["applied"].append(f"{ability.name}: {reading.notation}{reach if full else ''}")
            elif reading.outcome == "switch":
                when = f"; {reading.condition}" if full else ""
                out["switches"].append(f"{reading.switch}: {reading.notation}{reach if full else ''}{when}")
            elif full:
                said = f"{reading.clause!r}: " if reading.clause else ""
                out["set aside"].append(f"{ability.name}: {said}{reading.reason}")
        if not full and any(r.outcome == "set aside" for r in ability.readings):
            why = next(r.reason for r in ability.readings if r.outcome == "set aside")
            out["set aside"].append(f"{ability.name} ({why})")
    for entry in report.entries:
        where = "/".join(part for part in (entry.operative, entry.weapon) if part)
        if entry.skipped:
            out["skipped"].append(f"{where}: {entry.skipped}" if full else where)
        if entry.flagged:
            out["flagged"].append(f"{where}: {entry.flagged}" if full else f"{where} (both kinds)")
        if entry.variant_of:
            out["variants"].append(f"{where}: {'; '.join(entry.notes)}" if full else where)
    out["unknown"] = [f"{token} ({count} profiles)" if full else token
                      for token, count in report.unknown_tokens().most_common()]
    return out


def summary_lines(report: ImportReport, operatives: int, weapons: int, full: bool = False,
                  width: int = WIDTH) -> list[str]:
    """A team's import in a few lines of at most ``width`` characters: its name, then one line per
    kind (applied, switches, set aside, skipped, flagged, variants, unknown tokens) with how many
    and the first names; ``full``: every item on a line of its own, with its reason."""
    revision = f" (revision {report.revision})" if report.revision is not None else ""
    lines = [_cut(f"{report.team}{revision}: {operatives} operatives, {weapons} weapons", width)]
    counts = {**report.ability_counts(), "switches": len({r.switch for _, r in report.readings("switch")})}
    for kind, items in _items(report, full).items():
        count = counts.get(kind, len(items))
        head = f"  {kind:<10}{count:>4}"
        if not items:
            lines.append(head)
        elif full:
            lines.append(head)
            for item in items:
                lines += textwrap.wrap(item, width, initial_indent="    ", subsequent_indent="      ",
                                       break_long_words=True, break_on_hyphens=False)
        else:
            lines.append(_first(head + "  ", items, width))
    return lines


def _first(head: str, items: list[str], width: int) -> str:
    """``head`` and as many of ``items`` as fit in ``width``, then how many more there are."""
    shown: list[str] = []
    for i, item in enumerate(items):
        more = len(items) - i - 1
        tail = f", +{more} more" if more else ""
        text = head + ", ".join([*shown, item]) + tail
        if len(text) > width:
            rest = len(items) - len(shown)
            if not shown:  # the first alone is too long: cut it
                return _cut(head + item, width - len(f", +{rest - 1} more") if rest > 1 else width) + \
                    (f", +{rest - 1} more" if rest > 1 else "")
            return head + ", ".join(shown) + f", +{rest} more"
        shown.append(item)
    return head + ", ".join(shown)
