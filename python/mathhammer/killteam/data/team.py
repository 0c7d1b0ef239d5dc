"""A team as imported: its operatives, their weapons, its equipment, and the library document it
is written as (docs/data.md, "Team libraries").

A team library is a Kill Team profile library: ``[operative."<op>"]`` for each operative (its save,
wounds and abilities), ``[weapon."<op>/<weapon>"]`` for each ranged profile,
``[fighter."<op>/<weapon>"]`` for each melee profile (with the operative's wounds and abilities),
``[weapon."<weapon>"]`` for the team's equipment, and a ``[team]`` table recording the source (file,
revision, SHA-256, a credit line) and what the profiles cannot hold (APL, Move, each weapon's WR
text, which abilities were applied from which text, the option a variant has, the team's switches),
so that :func:`team_from_library` reads the same team back.
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
from mathhammer.killteam.profiles import Abilities, Fighter, Operative, Weapon, as_abilities
from mathhammer.killteam.switches import Switch, added, check_option, find_switch, missing_switch, with_option

__all__ = ["KINDS", "Applied", "Team", "TeamOperative", "TeamWeapon", "credit", "did_you_mean", "renamed",
           "team_from_library"]

KINDS = ("ranged", "melee")
#: A weapon's abilities when it has none (one object: most weapons have none).
NO_ABILITIES = Abilities()


@dataclass(frozen=True)
class Applied:
    """An option an ability's text gave a profile for good (docs/data.md, "Abilities"): the
    ability's or rule's name (``source``), ``what`` (abilities, rules or stats) and its notation."""

    source: str
    what: str
    notation: str

    def __post_init__(self) -> None:
        _typed(self, "source", str)
        _typed(self, "what", str)
        _typed(self, "notation", str)
        check_option(self.what, self.notation)

    def to_table(self) -> dict[str, str]:
        return {"source": self.source, "what": self.what, "notation": self.notation}


@dataclass(frozen=True)
class TeamWeapon:
    """One weapon profile: its name (no ⌖/⚔ glyph, the variant kept: "Plasma pistol
    (supercharge)"), ``kind`` "ranged" or "melee", the engine's ``weapon`` (its WR text's rules and
    those abilities gave it, ``applied``), the WR text ``wr`` as the data has it, the tokens kept out
    of the weapon (``ignored``) or not understood (``unknown``), the distances of its Blast and
    Torrent rules in inches (None without one), and the ``abilities`` its operative has while it
    fights with it (a team rule such as a shield's "each of your blocks ... two successes")."""

    name: str
    kind: str
    weapon: Weapon
    wr: str = ""
    ignored: tuple[str, ...] = ()
    unknown: tuple[str, ...] = ()
    blast: int | None = None
    torrent: int | None = None
    abilities: Abilities = NO_ABILITIES
    applied: tuple[Applied, ...] = ()

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
        object.__setattr__(self, "abilities", as_abilities(self.abilities))
        _items(self, "applied", Applied)

    @classmethod
    def read(cls, name: str, kind: str, weapon: Weapon, wr: str, abilities: Abilities | str | None = None,
             applied: tuple[Applied, ...] = ()) -> TeamWeapon:
        """The weapon with its tokens sorted from its WR text (see :mod:`.tokens`)."""
        if not isinstance(wr, str):
            raise InputTypeError("wr", f"expected the weapon's WR text, got {excerpt(wr)}")
        words = translate(wr)
        return cls(name, kind, weapon, wr, tuple(k.token for k in words.ignored), tuple(k.token for k in words.unknown),
                   words.blast, words.torrent, as_abilities(abilities), applied)


@dataclass(frozen=True)
class TeamOperative:
    """An operative: its name, ``operative`` (save, wounds and the abilities its texts gave it, a
    shooting target), APL and Move (inches; None when the data's value is not a number), its
    weapons, the options abilities gave it (``applied``), and for a variant made from an option
    (docs/data.md, "Options") the operative it was made from and the option's name."""

    name: str
    operative: Operative
    apl: int | None
    move: int | None
    weapons: tuple[TeamWeapon, ...] = ()
    applied: tuple[Applied, ...] = ()
    variant_of: str = ""
    option: str = ""

    def __post_init__(self) -> None:
        _typed(self, "name", str)
        _typed(self, "operative", Operative)
        _optional_int(self, "apl")
        _optional_int(self, "move")
        _items(self, "weapons", TeamWeapon)
        _items(self, "applied", Applied)
        _typed(self, "variant_of", str)
        _typed(self, "option", str)
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
        """A kt.Fighter fighting with one of this operative's melee weapons, with its wounds and
        abilities (the operative's and the weapon's own); ``fields`` set the others (strategy, ...)."""
        if not isinstance(weapon_name, str):
            raise InputTypeError("weapon_name", f"expected the weapon's name, got {excerpt(weapon_name)}")
        weapon = self.weapon(weapon_name)
        if weapon.kind != "melee":
            melee = ", ".join(w.name for w in self.weapons if w.kind == "melee") or "none"
            raise InputError("weapon", f"{weapon.name!r} is a ranged weapon; {self.name}'s melee weapons: {melee}")
        gun = weapon.weapon
        return Fighter(gun.attacks, gun.hit, gun.damage, **{"wounds": self.operative.wounds, "rules": gun.rules,
                                                            "name": f"{self.name}/{weapon.name}",
                                                            "abilities": self.fighter_abilities(weapon), **fields})

    def fighter_abilities(self, weapon: TeamWeapon) -> Abilities:
        """The abilities this operative fights with when it uses ``weapon``: its own and the weapon's."""
        if weapon.abilities == NO_ABILITIES:
            return self.operative.abilities
        merged: Abilities = added(self.operative.abilities, str(weapon.abilities), "abilities")
        return merged


@dataclass(frozen=True)
class Team:
    """A kill team as imported: ``name`` (the catalogue's), the source ``file`` (its name),
    ``revision`` and ``sha256``, its operatives, its ``equipment`` (weapons on no operative), its
    named ``switches`` (options under a condition the engine cannot decide, off until turned on with
    :meth:`with_switches`) and the import ``report`` (None for a team read back from a library: its
    report is the ``.import.json`` beside it). ``team["Sergeant"]`` finds an operative,
    case-insensitive."""

    name: str
    file: str
    revision: int | None
    sha256: str
    operatives: tuple[TeamOperative, ...] = ()
    equipment: tuple[TeamWeapon, ...] = ()
    report: ImportReport | None = field(default=None, compare=False, repr=False)
    switches: tuple[Switch, ...] = ()

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
        _items(self, "switches", Switch)

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

    def switch(self, name: str) -> Switch:
        """A switch by name, case-insensitive; a miss names the switches there are."""
        found = find_switch(name, self.switches, "name")
        if found is None:
            raise missing_switch(name, [s.name for s in self.switches], "name", self.name)
        return found

    def with_switches(self, names: Any, field: str = "names") -> Team:
        """The team with the named switches on: each operative and weapon a switch applies to gets
        its option (the abilities of an operative reach its fighters too). Unknown names raise."""
        if isinstance(names, str) or not isinstance(names, (list, tuple)):
            raise InputTypeError(field, f"expected a list of switch names, got {excerpt(names)}")
        team = self
        for i, name in enumerate(names):
            found = find_switch(name, self.switches, f"{field}[{i}]")
            if found is None:
                raise missing_switch(name, [s.name for s in self.switches], field, self.name)
            team = team._switched(found, field)
        return team

    def _switched(self, switch: Switch, field: str) -> Team:
        keys = {key.lower() for key in switch.applies_to}

        def weapon(gun: TeamWeapon, key: str, whole: bool) -> TeamWeapon:
            if key.lower() not in keys and not (whole and switch.what != "abilities"):
                return gun
            if switch.what == "abilities":  # the operative's, while it fights with this weapon
                return dataclasses.replace(gun, abilities=added(gun.abilities, switch.notation, field))
            return dataclasses.replace(gun, weapon=with_option(gun.weapon, switch.what, switch.notation, field))

        operatives = []
        for op in self.operatives:
            whole = op.name.lower() in keys
            guns = tuple(weapon(gun, f"{op.name}/{gun.name}", whole) for gun in op.weapons)
            target = with_option(op.operative, switch.what, switch.notation, field) if whole else op.operative
            operatives.append(dataclasses.replace(op, operative=target, weapons=guns))
        equipment = tuple(weapon(gun, gun.name, False) for gun in self.equipment)
        return dataclasses.replace(self, operatives=tuple(operatives), equipment=equipment)

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
            if str(op.operative.abilities):
                operatives[op.name]["abilities"] = str(op.operative.abilities)
            keys = []
            for gun in op.weapons:
                key = f"{op.name}/{gun.name}"
                keys.append(key)
                if gun.kind == "ranged":
                    weapons[key] = {"card": str(gun.weapon)}
                else:
                    fighters[key] = _fighter_fields(gun.weapon, op.operative.wounds, op.fighter_abilities(gun))
                info[key] = _weapon_info(gun)
            entry: dict[str, Any] = {"weapons": keys}
            entry.update({k: v for k, v in (("apl", op.apl), ("move", op.move), ("variant_of", op.variant_of),
                                            ("option", op.option)) if v})
            if op.applied:
                entry["applied"] = [applied.to_table() for applied in op.applied]
            table.setdefault("operative", {})[op.name] = entry
        for gun in self.equipment:
            weapons[gun.name] = {"card": str(gun.weapon)}
            info[gun.name] = _weapon_info(gun)
        table["equipment"] = [gun.name for gun in self.equipment]
        table["weapon"] = info
        if self.switches:
            table["switch"] = {switch.name: switch.to_table() for switch in self.switches}
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


def _fighter_fields(weapon: Weapon, wounds: int, abilities: Abilities) -> dict[str, Any]:
    out: dict[str, Any] = {"attacks": weapon.attacks, "hit": weapon.hit, "damage": list(weapon.damage),
                           "wounds": wounds}
    if str(weapon.rules):
        out["rules"] = str(weapon.rules)
    if str(abilities):
        out["abilities"] = str(abilities)
    return out


def _weapon_info(gun: TeamWeapon) -> dict[str, Any]:
    """What a weapon's profile cannot hold: its name, kind and WR text, the options abilities gave
    it, and the abilities its operative has while fighting with it."""
    info: dict[str, Any] = {"name": gun.name, "kind": gun.kind, "wr": gun.wr}
    if str(gun.abilities):
        info["abilities"] = str(gun.abilities)
    if gun.applied:
        info["applied"] = [applied.to_table() for applied in gun.applied]
    return info


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
        switches = tuple(Switch.from_table(name, entry, "switch") for name, entry in dict(table.get("switch", {})).items())
        revision = table.get("revision")
        return Team(str(table["name"]), str(table["source"]), None if revision is None else int(revision),
                    str(table["sha256"]), operatives, equipment, switches=switches)
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
    return TeamOperative(name, target, None if apl is None else int(apl), None if move is None else int(move), weapons,
                         _applied(entry.get("applied", [])), str(entry.get("variant_of", "")),
                         str(entry.get("option", "")))


def _applied(rows: Any) -> tuple[Applied, ...]:
    return tuple(Applied(str(row["source"]), str(row["what"]), str(row["notation"])) for row in list(rows))


def _weapon(key: str, info: Mapping[str, Any], profiles: Mapping[str, Mapping[str, Any]]) -> TeamWeapon:
    about = info[key]
    kind = str(about["kind"])
    if kind not in KINDS:
        raise InputError(f"weapon.{key}.kind", f"{excerpt(kind)}; expected ranged or melee")
    profile = profiles.get("weapon", {}).get(key) or profiles.get("fighter", {})[key]
    weapon = profile.weapon if isinstance(profile, Fighter) else profile
    return TeamWeapon.read(str(about["name"]), kind, weapon, str(about.get("wr", "")), about.get("abilities"),
                           _applied(about.get("applied", [])))


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
