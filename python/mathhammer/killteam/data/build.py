"""From profiles as read to the engine's: stats checked, the WR text translated, names cleaned,
kinds told, everything reported (docs/data.md, "What is imported").

A profile whose stats cannot be read (ATK "3+", DMG "-") is reported with the reason and skipped;
the rest of its team imports. Names lose the ⌖/⚔ glyph and doubled spaces and keep their variant;
a weapon without a glyph takes its kind from a weapon of the same name that has one, else from a
Range rule (ranged), else it is reported and skipped.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass

from mathhammer.core.guard import excerpt
from mathhammer.errors import InputError
from mathhammer.killteam.data.report import Entry, ImportReport
from mathhammer.killteam.data.team import Team, TeamOperative, TeamWeapon, renamed
from mathhammer.killteam.data.tokens import translate
from mathhammer.killteam.data.walk import RawOperative, RawProfile
from mathhammer.killteam.profiles import MAX_ATTACKS, MAX_DAMAGE, MAX_WOUNDS, Operative, Weapon

__all__ = ["Source", "build_team", "clean_name", "weapon_kinds"]

GLYPHS = {"\u2316": "ranged", "\u2694": "melee"}


@dataclass(frozen=True)
class Source:
    """Where a team comes from, as its library and report record it."""

    name: str
    file: str
    revision: int | None
    sha256: str


def clean_name(text: str) -> tuple[str, str | None]:
    """A profile name without its glyph and with one space between words, and the kind the glyph
    says (None without one): "⌖  Bolt pistol" -> ("Bolt pistol", "ranged")."""
    name = " ".join(text.split())
    kind = GLYPHS.get(name[:1])
    if kind is not None:
        name = " ".join(name[1:].split())
        while name[:1] in GLYPHS:  # a doubled glyph
            name = " ".join(name[1:].split())
    return name, kind


def weapon_kinds(profiles: list[RawProfile]) -> dict[str, str]:
    """Weapon name (lower case) -> kind, from the profiles whose glyph says it; a name the glyphs
    give both kinds is left out."""
    seen: dict[str, set[str]] = {}
    for raw in profiles:
        name, kind = clean_name(raw.name)
        if kind is not None:
            seen.setdefault(name.lower(), set()).add(kind)
    return {name: next(iter(kinds)) for name, kinds in seen.items() if len(kinds) == 1}


def _number(text: str, what: str, lo: int, hi: int, pattern: str = r"(\d{1,6})") -> int:
    found = re.fullmatch(pattern, text.strip())
    if found is None:
        raise InputError(what, f"{excerpt(text)} is not a number")
    value = int(found.group(1))
    if not lo <= value <= hi:
        raise InputError(what, f"{value} is out of range; allowed {lo}..{hi}")
    return value


def _stat(values: Mapping[str, str], name: str) -> str:
    for key, value in values.items():
        if key.strip().lower() == name.lower():
            return value
    raise InputError(name, "missing")


def _weapon(raw: RawProfile, owner: str, kinds: Mapping[str, str],
            texts: Mapping[str, str]) -> tuple[TeamWeapon | None, Entry]:
    name, kind = clean_name(raw.name)
    notes: list[str] = []
    written = raw.name.strip()
    if name not in (written, written[1:].strip()):
        notes.append(f"name {raw.name!r} read as {name!r}")
    wr = next((v for k, v in raw.values.items() if k.strip().upper() == "WR"), "")
    words = translate(wr, texts)
    if kind is None:
        kind = kinds.get(name.lower())
        if kind is not None:
            notes.append(f"no \u2316/\u2694 glyph: {kind}, as a weapon of the same name with one")
        elif any(k.token.lower().startswith("range ") for k in words.ignored):
            kind = "ranged"
            notes.append("no \u2316/\u2694 glyph: ranged, from its Range rule")
    entry = Entry(owner, name, raw.ids, wr, words.accepted, words.rewritten, words.ignored, words.unknown,
                  tuple(raw.changes), "", tuple(notes))
    try:
        if kind is None:
            raise InputError("kind", "no \u2316/\u2694 glyph, no weapon of the same name with one and no Range rule: "
                             "ranged or melee cannot be told")
        attacks = _number(_stat(raw.values, "ATK"), "ATK", 1, MAX_ATTACKS)
        hit = _number(_stat(raw.values, "HIT"), "HIT", 2, 6, r"(\d)\+?")
        damage = _stat(raw.values, "DMG")
        found = re.fullmatch(r"\s*(\d{1,3})\s*/\s*(\d{1,3})\s*", damage)
        if found is None:
            raise InputError("DMG", f"{excerpt(damage)} is not normal/critical damage (a weapon that inflicts no dice damage?)")
        dn, dc = int(found.group(1)), int(found.group(2))
        if max(dn, dc) > MAX_DAMAGE:
            raise InputError("DMG", f"{excerpt(damage)} is out of range; allowed 0..{MAX_DAMAGE} each")
        weapon = Weapon(attacks, hit, (dn, dc), words.rules)
    except InputError as error:
        return None, _skipped(entry, str(error))
    return TeamWeapon(name, kind, weapon, wr, tuple(k.token for k in words.ignored),
                      tuple(k.token for k in words.unknown), words.blast, words.torrent), entry


def _skipped(entry: Entry, reason: str) -> Entry:
    return Entry(entry.operative, entry.weapon, entry.ids, entry.wr, entry.accepted, entry.rewritten, entry.ignored,
                 entry.unknown, entry.changes, reason, entry.notes)


def _operative(raw: RawOperative, kinds: Mapping[str, str], texts: Mapping[str, str],
               entries: list[Entry]) -> TeamOperative | None:
    name, _ = clean_name(raw.name)
    notes = list(raw.notes)
    if name != raw.name:
        notes.append(f"name {raw.name!r} read as {name!r}")
    profile = raw.profile
    entry = Entry(name, "", raw.ids, changes=tuple(profile.changes) if profile else (), notes=tuple(notes))
    try:
        if profile is None:
            raise InputError("profile", "no Operative profile (APL, Move, Save, Wounds)")
        target = Operative(_number(_stat(profile.values, "Save"), "Save", 2, 6, r"(\d)\+?"),
                           _number(_stat(profile.values, "Wounds"), "Wounds", 1, MAX_WOUNDS))
    except InputError as error:
        entries.append(_skipped(entry, f"{error}; its weapons are not imported"))
        return None
    apl = move = None
    try:
        apl = _number(_stat(profile.values, "APL"), "APL", 0, 99)
    except InputError as error:
        notes.append(f"{error}; APL left unset")
    try:
        move = _number(_stat(profile.values, "Move"), "Move", 0, 99, r"(\d{1,2})\s*(?:\"|''|\u201d|\u2033)?")
    except InputError as error:
        notes.append(f"{error}; Move left unset")
    entries.append(Entry(name, "", raw.ids, changes=entry.changes, notes=tuple(notes)))
    weapons: list[TeamWeapon] = []
    seen: set[TeamWeapon] = set()  # by hash: linear in the profiles
    for weapon_raw in raw.weapons:
        weapon, weapon_entry = _weapon(weapon_raw, name, kinds, texts)
        if weapon is not None and weapon in seen:
            continue  # the same profile reached twice
        entries.append(weapon_entry)
        if weapon is not None:
            weapons.append(weapon)
            seen.add(weapon)
    team_notes: list[str] = []
    weapons = renamed(weapons, team_notes, f"weapon of {name}")
    if team_notes:
        entries.append(Entry(name, "", raw.ids, notes=tuple(team_notes)))
    return TeamOperative(name, target, apl, move, tuple(weapons))


def build_team(source: Source, operatives: list[RawOperative], equipment: list[RawProfile],
               kinds: Mapping[str, str], texts: Mapping[str, str], notes: list[str]) -> Team:
    """The team from its operatives and equipment as read, with its report."""
    entries: list[Entry] = []
    built = [op for op in (_operative(raw, kinds, texts, entries) for raw in operatives) if op is not None]
    notes = list(notes)
    built = renamed(built, notes, "operative")
    gear: list[TeamWeapon] = []
    seen: set[TeamWeapon] = set()
    for raw in equipment:
        weapon, entry = _weapon(raw, "", kinds, texts)
        if weapon is not None and weapon in seen:
            continue
        entries.append(entry)
        if weapon is not None:
            gear.append(weapon)
            seen.add(weapon)
    gear = renamed(gear, notes, "equipment weapon")
    report = ImportReport(source.name, source.file, source.revision, source.sha256, tuple(entries), tuple(notes))
    return Team(source.name, source.file, source.revision, source.sha256, tuple(built), tuple(gear), report)
