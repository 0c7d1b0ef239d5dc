"""From profiles as read to the engine's: stats checked, the WR text translated, names cleaned,
kinds told, options made variants, abilities read, everything reported (docs/data.md, "What is
imported").

A profile whose stats cannot be read (ATK "3+", DMG "-") is reported with the reason and skipped;
the rest of its team imports. Names lose the ⌖/⚔ glyph and doubled spaces and keep their variant.
A weapon without a glyph takes its kind from a weapon of the same name that has one, else from
its rules that only one kind has (Range, Blast, Torrent, Heavy, Silent: ranged; Brutal, Shock:
melee: the rows' ``weapon_kind``); one still undecided is imported as both, "<name> (ranged)" and
"<name> (melee)", and flagged. An operative's stats an option changes (a shield's save) make a
variant of it named after the option, with the weapons it has with that option.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from mathhammer.core.guard import excerpt
from mathhammer.errors import InputError
from mathhammer.killteam.data.abilities import Sources, apply_abilities, weapon_rules
from mathhammer.killteam.data.modifiers import modified
from mathhammer.killteam.data.report import Change, Entry, ImportReport
from mathhammer.killteam.data.team import Team, TeamOperative, TeamWeapon, renamed
from mathhammer.killteam.data.tokens import Translation, normalise, translate
from mathhammer.killteam.data.walk import RawAbility, RawOperative, RawProfile, Steps
from mathhammer.killteam.profiles import MAX_ATTACKS, MAX_DAMAGE, MAX_WOUNDS, Operative, Weapon, WeaponRules

__all__ = ["KIND_CUES", "Source", "build_team", "clean_name", "weapon_kinds"]

GLYPHS = {"\u2316": "ranged", "\u2694": "melee"}
#: The rules only one kind of weapon has: (pattern of the normalised token, kind, rule's name), from
#: the rows of the rules tables (``weapon_kind``).
KIND_CUES: tuple[tuple[str, str, str], ...] = (
    *WeaponRules.TABLE.kind_cues(),
    *((kept.pattern(), kept.weapon_kind, re.sub(r"\s*\bx\b.*", "", kept.notation)) for kept in WeaponRules.KEPT
      if kept.weapon_kind),
)


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


def _cues(words: Translation) -> list[tuple[str, str]]:
    """(kind, rule's name) of each of a weapon's rules only one kind has, in the WR text's order."""
    found = []
    for token in (*words.accepted, *(k.token for k in words.ignored)):
        key = normalise(token)
        for pattern, kind, name in KIND_CUES:
            if re.fullmatch(pattern, key):
                found.append((kind, name))
    return found


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


def _kind(name: str, kind: str | None, kinds: Mapping[str, str], words: Translation,
          notes: list[str]) -> tuple[str | None, str, str]:
    """A weapon's kind, what told it (empty: its glyph) and why it is flagged (undecided: both)."""
    if kind is not None:
        return kind, "", ""
    kind = kinds.get(name.lower())
    if kind is not None:
        notes.append(f"no \u2316/\u2694 glyph: {kind}, as a weapon of the same name with one")
        return kind, "a weapon of the same name", ""
    cues = _cues(words)
    told = {k for k, _ in cues}
    if len(told) == 1:
        kind, rule = cues[0]
        notes.append(f"no \u2316/\u2694 glyph: {kind}, from its {rule} rule")
        return kind, f"its {rule} rule", ""
    both = f"imported as both, {name + ' (ranged)'!r} and {name + ' (melee)'!r}"
    if told:
        said = " and ".join(dict.fromkeys(rule for _, rule in cues))
        return None, "nothing: both", f"no \u2316/\u2694 glyph, and its rules say both kinds ({said}): {both}"
    return None, "nothing: both", (f"no \u2316/\u2694 glyph, no weapon of the same name with one and no rule only "
                                   f"one kind has: {both}")


def _weapon(raw: RawProfile, owner: str, kinds: Mapping[str, str],
            texts: Mapping[str, str]) -> tuple[list[TeamWeapon], Entry]:
    """A weapon profile as the engine's weapons (two when its kind cannot be told) and its entry."""
    name, kind = clean_name(raw.name)
    notes: list[str] = []
    written = raw.name.strip()
    if name not in (written, written[1:].strip()):
        notes.append(f"name {raw.name!r} read as {name!r}")
    wr = next((v for k, v in raw.values.items() if k.strip().upper() == "WR"), "")
    words = translate(wr, texts)
    kind, kind_from, flagged = _kind(name, kind, kinds, words, notes)
    entry = Entry(owner, name, raw.ids, wr, words.accepted, words.rewritten, words.ignored, words.unknown,
                  tuple(raw.changes), "", tuple(notes), kind_from)
    try:
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
        return [], _replaced(entry, skipped=str(error))
    made = [(name, kind)] if kind is not None else [(f"{name} ({k})", k) for k in ("ranged", "melee")]
    guns = [TeamWeapon(n, k, weapon, wr, tuple(t.token for t in words.ignored), tuple(t.token for t in words.unknown),
                       words.blast, words.torrent) for n, k in made]
    return guns, _replaced(entry, flagged=flagged) if flagged else entry


def _replaced(entry: Entry, skipped: str | None = None, flagged: str | None = None) -> Entry:
    """The entry skipped or flagged, with why."""
    return dataclasses.replace(entry, skipped=entry.skipped if skipped is None else skipped,
                               flagged=entry.flagged if flagged is None else flagged)


def _operative_stats(values: Mapping[str, str], notes: list[str]) -> tuple[Operative, int | None, int | None]:
    """An Operative profile's save and wounds (InputError when unreadable), APL and Move (None, and
    a note, when not a number)."""
    target = Operative(_number(_stat(values, "Save"), "Save", 2, 6, r"(\d)\+?"),
                       _number(_stat(values, "Wounds"), "Wounds", 1, MAX_WOUNDS))
    apl = move = None
    try:
        apl = _number(_stat(values, "APL"), "APL", 0, 99)
    except InputError as error:
        notes.append(f"{error}; APL left unset")
    try:
        move = _number(_stat(values, "Move"), "Move", 0, 99, r"(\d{1,2})\s*(?:\"|''|\u201d|\u2033)?")
    except InputError as error:
        notes.append(f"{error}; Move left unset")
    return target, apl, move


def _operative(raw: RawOperative, kinds: Mapping[str, str], texts: Mapping[str, str],
               entries: list[Entry]) -> list[TeamOperative]:
    """An operative as read, then a variant of it for each option that changes its stats."""
    name, _ = clean_name(raw.name)
    notes = list(raw.notes)
    if name != raw.name:
        notes.append(f"name {raw.name!r} read as {name!r}")
    profile = raw.profile
    entry = Entry(name, "", raw.ids, changes=tuple(profile.changes) if profile else (), notes=tuple(notes))
    try:
        if profile is None:
            raise InputError("profile", "no Operative profile (APL, Move, Save, Wounds)")
        target, apl, move = _operative_stats(profile.values, notes)
    except InputError as error:
        entries.append(_replaced(entry, skipped=f"{error}; its weapons are not imported"))
        return []
    entries.append(Entry(name, "", raw.ids, changes=entry.changes, notes=tuple(notes)))
    built: list[tuple[TeamWeapon, frozenset[str]]] = []
    seen: set[TeamWeapon] = set()  # by hash: linear in the profiles
    for weapon_raw in raw.weapons:
        guns, weapon_entry = _weapon(weapon_raw, name, kinds, texts)
        if guns and guns[0] in seen:
            continue  # the same profile reached twice
        entries.append(weapon_entry)
        for gun in guns:
            built.append((gun, frozenset(weapon_raw.ids)))
            seen.add(gun)
    team_notes: list[str] = []
    weapons = renamed([gun for gun, _ in built], team_notes, f"weapon of {name}")
    if team_notes:
        entries.append(Entry(name, "", raw.ids, notes=tuple(team_notes)))
    places = [ids for _, ids in built]
    options = _options(profile.changes)
    below = {known for ident in options for known in _option_ids(raw, ident)}
    base = TeamOperative(name, target, apl, move, tuple(w for w, ids in zip(weapons, places) if not ids & below))
    out = [base]
    for ident, changes in options.items():
        variant = _variant(raw, base, ident, changes, list(zip(weapons, places)), entries)
        if variant is not None:
            out.append(variant)
    return out


def _options(changes: Sequence[Change]) -> dict[str, list[Change]]:
    """The option changes of an Operative profile, by option, in the order read."""
    found: dict[str, list[Change]] = {}
    for change in changes:
        if change.status == "option":
            found.setdefault(change.option, []).append(change)
    return found


def _option_ids(raw: RawOperative, ident: str) -> set[str]:
    """Every id an option is known by below the operative (an entry's, and the link's to it)."""
    option = raw.options.get(ident)
    return {key for key, value in raw.options.items() if value == option} | {ident} if option else {ident}


def _variant(raw: RawOperative, base: TeamOperative, ident: str, changes: list[Change],
             weapons: list[tuple[TeamWeapon, frozenset[str]]], entries: list[Entry]) -> TeamOperative | None:
    """The operative with one option: its stats as the option's changes make them, and the weapons
    it has with that option (none of another entry of a group the option was chosen from)."""
    option = raw.options.get(ident)
    said = ", ".join(f"{c.characteristic} {c.before} -> {c.after}" for c in changes)
    if option is None:  # the condition names an entry the walk did not reach
        entries.append(Entry(base.name, "", raw.ids, notes=(f"an option {ident!r} ({said}) is below no entry read; "
                                                            "no variant made",)))
        return None
    assert raw.profile is not None
    values = dict(raw.profile.values)
    for change in changes:
        after = modified(values[change.characteristic], change.type, change.value)
        if after is not None:
            values[change.characteristic] = after
    name = f"{base.name} ({option.name})"
    notes: list[str] = []
    try:
        target, apl, move = _operative_stats(values, notes)
    except InputError as error:
        entries.append(Entry(name, "", raw.ids, changes=tuple(changes), skipped=str(error), variant_of=base.name))
        return None
    kept = tuple(w for w, ids in weapons if not ids & option.excluded)
    entries.append(Entry(name, "", (*raw.ids, ident), changes=tuple(changes),
                         notes=(f"{base.name} with {option.name}: {said}", *notes), variant_of=base.name))
    return TeamOperative(name, target, apl, move, kept, variant_of=base.name, option=option.name)


def build_team(source: Source, operatives: list[RawOperative], equipment: list[RawProfile],
               kinds: Mapping[str, str], texts: Mapping[str, str], notes: list[str],
               faction: Sequence[RawAbility] = (), steps: Steps | None = None) -> Team:
    """The team from its operatives and equipment as read, its abilities applied (within the
    import's ``steps``), with its report."""
    entries: list[Entry] = []
    made = [(op, raw) for raw in operatives for op in _operative(raw, kinds, texts, entries)]
    notes = list(notes)
    built = renamed([op for op, _ in made], notes, "operative")
    sources = Sources({op.name: tuple(raw.abilities) for op, (_, raw) in zip(built, made)},
                      {op.name: raw.categories for op, (_, raw) in zip(built, made)}, tuple(faction), dict(texts))
    built, switches, abilities = apply_abilities(built, sources, weapon_rules(built), steps, source.file)
    gear: list[TeamWeapon] = []
    seen: set[TeamWeapon] = set()
    for raw in equipment:
        guns, entry = _weapon(raw, "", kinds, texts)
        if guns and guns[0] in seen:
            continue
        entries.append(entry)
        gear += guns
        seen.update(guns)
    gear = renamed(gear, notes, "equipment weapon")
    report = ImportReport(source.name, source.file, source.revision, source.sha256, tuple(entries), tuple(notes),
                          tuple(abilities))
    return Team(source.name, source.file, source.revision, source.sha256, tuple(built), tuple(gear), report,
                tuple(switches))
