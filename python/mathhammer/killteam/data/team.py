"""A team as imported: its operatives, their weapons, its equipment, and the library document it
is written as (docs/data.md, "Team libraries").

A team library is a Kill Team profile library: ``[operative."<op>"]`` for each operative (its save
and wounds), ``[weapon."<op>/<weapon>"]`` for each ranged profile, ``[fighter."<op>/<weapon>"]``
for each melee profile (with the operative's wounds), ``[weapon."<weapon>"]`` for the team's
equipment, and a ``[team]`` table recording the source (file, revision, SHA-256, a credit line) and
what the profiles cannot hold (APL, Move, each weapon's WR text), so that :func:`team_from_library`
reads the same team back.
"""

from __future__ import annotations

import dataclasses
import difflib
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from mathhammer.core.guard import closest, excerpt
from mathhammer.errors import InputError, InputTypeError, ProfileFileError
from mathhammer.killteam.data.report import ImportReport
from mathhammer.killteam.data.tokens import translate
from mathhammer.killteam.profiles import Fighter, Operative, Weapon

__all__ = ["KINDS", "Team", "TeamOperative", "TeamWeapon", "credit", "did_you_mean", "renamed", "team_from_library"]

KINDS = ("ranged", "melee")


@dataclass(frozen=True)
class TeamWeapon:
    """One weapon profile: its name (no ⌖/⚔ glyph, the variant kept: "Plasma pistol
    (supercharge)"), ``kind`` "ranged" or "melee", the engine's ``weapon``, the WR text ``wr`` as the
    data has it, the tokens kept out of the weapon (``ignored``) or not understood (``unknown``), and
    the distances of its Blast and Torrent rules in inches (None without one)."""

    name: str
    kind: str
    weapon: Weapon
    wr: str = ""
    ignored: tuple[str, ...] = ()
    unknown: tuple[str, ...] = ()
    blast: int | None = None
    torrent: int | None = None

    def __post_init__(self) -> None:
        _typed(self, "name", str)
        if _typed(self, "kind", str) not in KINDS:
            raise InputError("kind", f"{excerpt(self.kind)}: expected ranged or melee")
        _typed(self, "weapon", Weapon)
        _typed(self, "wr", str)
        _items(self, "ignored", str)
        _items(self, "unknown", str)
        _optional_int(self, "blast")
        _optional_int(self, "torrent")

    @classmethod
    def read(cls, name: str, kind: str, weapon: Weapon, wr: str) -> TeamWeapon:
        """The weapon with its tokens sorted from its WR text (see :mod:`.tokens`)."""
        if not isinstance(wr, str):
            raise InputTypeError("wr", f"expected the weapon's WR text, got {excerpt(wr)}")
        words = translate(wr)
        return cls(name, kind, weapon, wr, tuple(k.token for k in words.ignored), tuple(k.token for k in words.unknown),
                   words.blast, words.torrent)


@dataclass(frozen=True)
class TeamOperative:
    """An operative: its name, ``operative`` (save and wounds, a shooting target), APL and Move
    (inches; None when the data's value is not a number) and its weapons."""

    name: str
    operative: Operative
    apl: int | None
    move: int | None
    weapons: tuple[TeamWeapon, ...] = ()

    def __post_init__(self) -> None:
        _typed(self, "name", str)
        _typed(self, "operative", Operative)
        _optional_int(self, "apl")
        _optional_int(self, "move")
        _items(self, "weapons", TeamWeapon)
        # the profiles named as the team library names them ("<operative>/<weapon>"), so that results
        # say whose they are
        if self.operative.name != self.name:
            object.__setattr__(self, "operative", dataclasses.replace(self.operative, name=self.name))
        named = tuple(w if w.weapon.name == f"{self.name}/{w.name}" else
                      dataclasses.replace(w, weapon=dataclasses.replace(w.weapon, name=f"{self.name}/{w.name}"))
                      for w in self.weapons)
        object.__setattr__(self, "weapons", named)

    def weapon(self, name: str) -> TeamWeapon:
        """A weapon by name, case-insensitive; a miss names the closest ones."""
        found: TeamWeapon = _find(name, self.weapons, f"{self.name} has no weapon", "weapon")
        return found

    def fighter(self, weapon_name: str, **fields: Any) -> Fighter:
        """A kt.Fighter fighting with one of this operative's melee weapons, with its wounds;
        ``fields`` set the others (strategy, abilities, ...)."""
        if not isinstance(weapon_name, str):
            raise InputTypeError("weapon_name", f"expected the weapon's name, got {excerpt(weapon_name)}")
        weapon = self.weapon(weapon_name)
        if weapon.kind != "melee":
            melee = ", ".join(w.name for w in self.weapons if w.kind == "melee") or "none"
            raise InputError("weapon", f"{weapon.name!r} is a ranged weapon; {self.name}'s melee weapons: {melee}")
        gun = weapon.weapon
        return Fighter(gun.attacks, gun.hit, gun.damage, **{"wounds": self.operative.wounds, "rules": gun.rules,
                                                            "name": f"{self.name}/{weapon.name}", **fields})


@dataclass(frozen=True)
class Team:
    """A kill team as imported: ``name`` (the catalogue's), the source ``file`` (its name),
    ``revision`` and ``sha256``, its operatives, its ``equipment`` (weapons on no operative) and the
    import ``report`` (None for a team read back from a library: its report is the ``.import.json``
    beside it). ``team["Sergeant"]`` finds an operative, case-insensitive."""

    name: str
    file: str
    revision: int | None
    sha256: str
    operatives: tuple[TeamOperative, ...] = ()
    equipment: tuple[TeamWeapon, ...] = ()
    report: ImportReport | None = field(default=None, compare=False, repr=False)

    def __post_init__(self) -> None:
        _typed(self, "name", str)
        _typed(self, "file", str)
        _optional_int(self, "revision")
        _typed(self, "sha256", str)
        _items(self, "operatives", TeamOperative)
        _items(self, "equipment", TeamWeapon)
        named = tuple(w if w.weapon.name == w.name else dataclasses.replace(w, weapon=dataclasses.replace(w.weapon, name=w.name))
                      for w in self.equipment)
        object.__setattr__(self, "equipment", named)  # as the team library names them
        if self.report is not None:
            _typed(self, "report", ImportReport)

    def __getitem__(self, name: str) -> TeamOperative:
        found: TeamOperative = _find(name, self.operatives, f"{self.name} has no operative", "operative")
        return found

    def __contains__(self, name: object) -> bool:
        return isinstance(name, str) and any(op.name.lower() == name.strip().lower() for op in self.operatives)

    def __iter__(self) -> Iterator[TeamOperative]:
        return iter(self.operatives)

    def __len__(self) -> int:
        return len(self.operatives)

    def weapon_count(self) -> int:
        return sum(len(op.weapons) for op in self.operatives) + len(self.equipment)

    def to_library(self) -> dict[str, Any]:
        """The team as a profile library document (plain TOML/JSON values)."""
        operatives: dict[str, Any] = {}
        weapons: dict[str, Any] = {}
        fighters: dict[str, Any] = {}
        info: dict[str, Any] = {}
        table: dict[str, Any] = {"name": self.name, "source": self.file, "revision": self.revision,
                                 "sha256": self.sha256, "credit": credit(self.file, self.revision)}
        if self.revision is None:
            del table["revision"]
        for op in self.operatives:
            operatives[op.name] = {"save": op.operative.save, "wounds": op.operative.wounds}
            keys = []
            for gun in op.weapons:
                key = f"{op.name}/{gun.name}"
                keys.append(key)
                if gun.kind == "ranged":
                    weapons[key] = {"card": str(gun.weapon)}
                else:
                    fighters[key] = _fighter_fields(gun.weapon, op.operative.wounds)
                info[key] = {"name": gun.name, "kind": gun.kind, "wr": gun.wr}
            entry: dict[str, Any] = {"weapons": keys}
            entry.update({k: v for k, v in (("apl", op.apl), ("move", op.move)) if v is not None})
            table.setdefault("operative", {})[op.name] = entry
        for gun in self.equipment:
            weapons[gun.name] = {"card": str(gun.weapon)}
            info[gun.name] = {"name": gun.name, "kind": gun.kind, "wr": gun.wr}
        table["equipment"] = [gun.name for gun in self.equipment]
        table["weapon"] = info
        document: dict[str, Any] = {"game": "killteam", "team": table, "operative": operatives}
        for kind, entries in (("weapon", weapons), ("fighter", fighters)):
            if entries:
                document[kind] = entries
        return document


def _typed(item: Any, name: str, kind: type) -> Any:
    """A field of ``item`` of type ``kind``, else an InputTypeError naming it."""
    value = getattr(item, name)
    if not isinstance(value, kind) or isinstance(value, bool) and kind is not bool:
        raise InputTypeError(name, f"expected {kind.__name__}, got {excerpt(value)}")
    return value


def _optional_int(item: Any, name: str) -> None:
    value = getattr(item, name)
    if value is not None and (isinstance(value, bool) or not isinstance(value, int)):
        raise InputTypeError(name, f"expected a whole number or None, got {excerpt(value)}")


def _items(item: Any, name: str, kind: type) -> None:
    """A field holding a tuple of ``kind`` (a list is taken as one)."""
    value = getattr(item, name)
    if not isinstance(value, (tuple, list)):
        raise InputTypeError(name, f"expected a tuple of {kind.__name__}, got {excerpt(value)}")
    for i, one in enumerate(value):
        if not isinstance(one, kind):
            raise InputTypeError(f"{name}[{i}]", f"expected {kind.__name__}, got {excerpt(one)}")
    if isinstance(value, list):
        object.__setattr__(item, name, tuple(value))


def credit(file: str, revision: int | None) -> str:
    """The line every team library carries: where its numbers come from."""
    of = f" (revision {revision})" if revision is not None else ""
    return (f"Imported by mathhammer from {file}{of}, BattleScribe data kept by the BSData community; the game's "
            "rules and stats belong to their publisher. For your own use: do not redistribute.")


def _fighter_fields(weapon: Weapon, wounds: int) -> dict[str, Any]:
    out: dict[str, Any] = {"attacks": weapon.attacks, "hit": weapon.hit, "damage": list(weapon.damage),
                           "wounds": wounds}
    if str(weapon.rules):
        out["rules"] = str(weapon.rules)
    return out


def _find(name: str, items: tuple[Any, ...], missing: str, field: str) -> Any:
    if not isinstance(name, str):
        raise InputTypeError("name", f"expected the {field}'s name, got {excerpt(name)}")
    key = " ".join(name.split()).lower()
    for item in items:
        if item.name.lower() == key:
            return item
    raise InputError(field, f"{missing} {excerpt(name)}; {did_you_mean(name, [item.name for item in items])}")


def did_you_mean(name: str, names: list[str]) -> str:
    """"did you mean: X?" naming the closest names (case-insensitive), else the names there are."""
    lowered = {n.lower(): n for n in names}
    close = difflib.get_close_matches(name.strip().lower()[:60], list(lowered), n=3, cutoff=0.6)
    if close:
        return f"did you mean: {', '.join(lowered[c] for c in close)}?"
    return f"known: {closest(name, names)}"


# --- reading a team library back ------------------------------------------------------------------

def team_from_library(document: Mapping[str, Any], profiles: Mapping[str, Mapping[str, Any]], source: str) -> Team:
    """The team a library document holds: ``profiles`` are its entries as the library reader built
    them ({kind: {name: profile}}); the ``[team]`` table joins them up."""
    table = document.get("team")
    if not isinstance(table, Mapping):
        raise ProfileFileError(source, "no [team] table: not a team library written by mathhammer killteam import")
    try:
        info = dict(table.get("weapon", {}))
        operatives = tuple(_operative(name, entry, info, profiles) for name, entry in dict(table.get("operative", {})).items())
        equipment = tuple(_weapon(key, info, profiles) for key in list(table.get("equipment", [])))
        revision = table.get("revision")
        return Team(str(table["name"]), str(table["source"]), None if revision is None else int(revision),
                    str(table["sha256"]), operatives, equipment)
    except (KeyError, TypeError, ValueError, AttributeError) as error:
        if isinstance(error, InputError):
            raise ProfileFileError(source, f"team: {error}") from None
        raise ProfileFileError(source, f"team: {excerpt(str(error), 60)} is missing or malformed; expected the "
                               "[team] table mathhammer killteam import writes") from None


def _operative(name: str, entry: Mapping[str, Any], info: Mapping[str, Any],
               profiles: Mapping[str, Mapping[str, Any]]) -> TeamOperative:
    target = profiles["operative"][name]
    weapons = tuple(_weapon(key, info, profiles) for key in list(entry["weapons"]))
    apl, move = entry.get("apl"), entry.get("move")
    return TeamOperative(name, target, None if apl is None else int(apl), None if move is None else int(move), weapons)


def _weapon(key: str, info: Mapping[str, Any], profiles: Mapping[str, Mapping[str, Any]]) -> TeamWeapon:
    about = info[key]
    kind = str(about["kind"])
    if kind not in KINDS:
        raise InputError(f"weapon.{key}.kind", f"{excerpt(kind)}; expected ranged or melee")
    profile = profiles.get("weapon", {}).get(key) or profiles.get("fighter", {})[key]
    weapon = profile.weapon if isinstance(profile, Fighter) else profile
    return TeamWeapon.read(str(about["name"]), kind, weapon, str(about.get("wr", "")))


def renamed(items: list[Any], notes: list[str], what: str) -> list[Any]:
    """The items with a second one of a name called "<name> 2" (a third "<name> 3"), each renaming
    noted. Linear in the items: each name's count goes on from where it stopped (the numbers below
    it are all taken, and stay taken)."""
    taken: set[str] = set()
    next_count: dict[str, int] = {}
    out = []
    for item in items:
        name, key = item.name, item.name.lower()
        count = next_count.get(key, 1)
        while name.lower() in taken:
            count += 1
            name = f"{item.name} {count}"
        next_count[key] = count
        taken.add(name.lower())
        if name != item.name:
            notes.append(f"a second {what} named {item.name!r} is called {name!r}")
            item = dataclasses.replace(item, name=name)
        out.append(item)
    return out
