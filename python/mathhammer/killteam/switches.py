"""Named switches of an imported team, and options added to profiles (docs/data.md, "Switches").

An ability the engine models under a condition it cannot decide (once per battle, a token, a range,
an enemy keyword, a chosen tactic) is written in the team's library as a switch, off by default:

    [team.switch."Toxic"]
    applies_to = ["Plague Marine Warrior/Boltgun"]     # library entries: an operative, or "<op>/<weapon>"
    what = "stats"                                     # abilities, rules or stats
    notation = "Dmg +1"
    condition = "whenever this operative is using this weapon against an enemy operative that has ..."
    source = "*Toxic"

``--with "Toxic"`` (``kt.matchup(..., switches=("Toxic",))``, ``with = ["Toxic"]`` in a scenario
entry or an API request) turns it on: every entry it applies to gets the option. An operative's
entry takes abilities for its Operative profile and for each of its fighters; a weapon's entry takes
weapon rules, abilities of its fighter (the operative's while it fights with it), or stat changes:
"Atk +1", "Hit +1", "Dmg +1" (both damages), "Save +1" (the operative's), +1 meaning one better.

:func:`with_option` adds an option to a profile the way the importer applies an unconditional
ability and a switch applies its own: a rule the profile lacks is added, one it has is kept, a
number takes the better of the two, two rerolls combine where the rules table lets them.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from mathhammer.core.game import Library, Switches
from mathhammer.core.guard import closest, did_you_mean, excerpt, label
from mathhammer.errors import InputError, InputTypeError, ProfileFileError
from mathhammer.killteam.profiles import MAX_ATTACKS, MAX_DAMAGE, Abilities, Fighter, Operative, Weapon, WeaponRules

__all__ = ["STATS", "SWITCHES", "WHATS", "Switch", "added", "apply_switch", "check_option", "find_switch", "missing_switch",
           "read_switches", "with_option"]

#: What a switch (or an applied ability) adds: abilities, weapon rules, or a stat change.
WHATS = ("abilities", "rules", "stats")
#: The stat changes, each one better: on weapons (and fighters), or on the operative.
STATS = {"Atk +1": "weapon", "Hit +1": "weapon", "Dmg +1": "weapon", "Save +1": "operative"}
#: Parameters a lower value of which is better (a crit on 5+ beats one on 6).
_LOWER_IS_BETTER = frozenset({"lethal", "hardy", "feel_no_pain"})
#: The reroll that includes every other: it wins over one it does not combine with.
_WIDEST_REROLL = "relentless"


@dataclass(frozen=True)
class Switch:
    """One named switch of a team: the library entries it ``applies_to`` ("<operative>" or
    "<operative>/<weapon>", as the team library names them), ``what`` it adds and its
    ``notation``, its ``condition`` in words and the ``source`` ability or rule it comes from."""

    name: str
    applies_to: tuple[str, ...]
    what: str
    notation: str
    condition: str = ""
    source: str = ""

    def __post_init__(self) -> None:
        for name in ("name", "what", "notation", "condition", "source"):
            if not isinstance(getattr(self, name), str):
                raise InputTypeError(name, f"expected text, got {excerpt(getattr(self, name))}")
        if not isinstance(self.applies_to, (tuple, list)) or not all(isinstance(k, str) for k in self.applies_to):
            raise InputTypeError("applies_to", f"expected a list of library entries, got {excerpt(self.applies_to)}")
        object.__setattr__(self, "applies_to", tuple(self.applies_to))
        check_option(self.what, self.notation, "notation")

    def to_table(self) -> dict[str, Any]:
        """The switch as its ``[team.switch."<name>"]`` table."""
        table: dict[str, Any] = {"applies_to": list(self.applies_to), "what": self.what, "notation": self.notation}
        table.update({k: v for k, v in (("condition", self.condition), ("source", self.source)) if v})
        return table

    @classmethod
    def from_table(cls, name: str, table: Any, field: str = "switch") -> Switch:
        """The switch a ``[team.switch."<name>"]`` table holds; errors name ``field``."""
        if not isinstance(table, Mapping):
            raise InputTypeError(f"{field}.{label(name)}", f"expected a table, got {excerpt(table)}")
        unknown = set(table) - {"applies_to", "what", "notation", "condition", "source"}
        if unknown:
            raise InputError(f"{field}.{label(name)}", f"unknown key {excerpt(sorted(unknown)[0])}; a switch holds "
                             "applies_to, what, notation, condition and source")
        try:
            return cls(str(name), table.get("applies_to", ()), table.get("what", ""), table.get("notation", ""),
                       table.get("condition", ""), table.get("source", ""))
        except InputError as error:
            raise type(error)(f"{field}.{label(name)}.{error.field}", str(error)[len(error.field) + 2:]) from None


def check_option(what: Any, notation: Any, field: str = "notation") -> None:
    """``what`` is one of :data:`WHATS` and ``notation`` an option of it (abilities or weapon rules
    in their notation, or one of :data:`STATS`)."""
    if what not in WHATS:
        raise InputError("what", f"{excerpt(what)}; expected one of {', '.join(WHATS)}")
    if not isinstance(notation, str) or not notation.strip():
        raise InputError(field, f"{excerpt(notation)}: expected the option's notation")
    if what == "abilities":
        Abilities.parse(notation, field)
    elif what == "rules":
        WeaponRules.parse(notation, field)
    elif notation not in STATS:
        raise InputError(field, f"{excerpt(notation)}: expected one of {', '.join(STATS)}")


def added(current: Any, notation: str, field: str = "notation") -> Any:
    """The weapon rules or abilities ``current`` with those of ``notation`` added (see the module)."""
    cls = type(current)
    given = cls.TABLE.parse(notation, field)
    values = {}
    for name, value in given.items():
        now, default = getattr(current, name), cls.TABLE.default(name)
        row = dict(cls.TABLE.rows())[name]
        if now == default or now == value:
            values[name] = value
        elif row.kind == "flag":
            values[name] = True
        elif row.kind == "parameter" or isinstance(value, int):
            values[name] = min(now, value) if name in _LOWER_IS_BETTER else max(now, value)
        else:  # two named values (rerolls): their combination, else the widest
            pair = {frozenset(k): v for k, v in row.combine.items()}.get(frozenset((now, value)))
            if pair is None and _WIDEST_REROLL not in (now, value):
                raise InputError(field, f"{row.values[now].text} and {row.values[value].text} do not combine")
            values[name] = pair or _WIDEST_REROLL
    return dataclasses.replace(current, **values)


def with_option(profile: Any, what: str, notation: str, field: str = "notation") -> Any:
    """``profile`` (an Operative, a Weapon or a Fighter) with an option added: abilities (an
    Operative's or a Fighter's), weapon rules (a Weapon's or a Fighter's) or a stat change. An
    option a profile cannot take (weapon rules for an Operative) leaves it as it is."""
    check_option(what, notation, field)
    if what == "abilities":
        if isinstance(profile, (Operative, Fighter)):
            return dataclasses.replace(profile, abilities=added(profile.abilities, notation, field))
        return profile
    if what == "rules":
        if isinstance(profile, (Weapon, Fighter)):
            return dataclasses.replace(profile, rules=added(profile.rules, notation, field))
        return profile
    if notation == "Save +1":
        return dataclasses.replace(profile, save=max(2, profile.save - 1)) if isinstance(profile, Operative) else profile
    if not isinstance(profile, (Weapon, Fighter)):
        return profile
    if notation == "Hit +1":  # a Hit stat is never better than 2+
        return dataclasses.replace(profile, hit=max(2, profile.hit - 1))
    if notation == "Atk +1":
        if profile.attacks >= MAX_ATTACKS:
            raise InputError(field, f"Atk +1 on {profile.attacks} attacks: at most {MAX_ATTACKS}")
        return dataclasses.replace(profile, attacks=profile.attacks + 1)
    normal, critical = profile.damage
    if max(normal, critical) >= MAX_DAMAGE:
        raise InputError(field, f"Dmg +1 on {normal}/{critical}: at most {MAX_DAMAGE} each")
    return dataclasses.replace(profile, damage=(normal + 1, critical + 1))


# --- switches of a team library (the Game hook: kt.GAME.switches) ---------------------------------

Part = tuple[str, str, str, str]  # (profile kind, library entry, what, notation)


def _parts(switch: Switch, document: Mapping[str, Any], source: str) -> tuple[Part, ...]:
    """The library entries a switch changes: an operative's entry is its Operative profile and its
    fighters (abilities, the save) or its weapons (rules, weapon stats); a weapon's entry itself."""
    team = document.get("team", {})
    operatives = team.get("operative", {}) if isinstance(team, Mapping) else {}
    parts: list[Part] = []
    for key in switch.applies_to:
        if key in document.get("operative", {}):
            keys = list(operatives.get(key, {}).get("weapons", [])) if isinstance(operatives, Mapping) else []
            if switch.what == "abilities":
                parts.append(("operative", key, switch.what, switch.notation))
                parts += [("fighter", k, switch.what, switch.notation) for k in keys if k in document.get("fighter", {})]
            elif STATS.get(switch.notation) == "operative":
                parts.append(("operative", key, switch.what, switch.notation))
            else:
                parts += [(kind, k, switch.what, switch.notation) for k in keys for kind in ("weapon", "fighter")
                          if k in document.get(kind, {})]
            continue
        kinds = [kind for kind in ("weapon", "fighter") if key in document.get(kind, {})]
        if not kinds:
            raise ProfileFileError(source, f"team.switch.{label(switch.name)}.applies_to: {excerpt(key)} is no "
                                   "operative, weapon or fighter of the library")
        parts += [(kind, key, switch.what, switch.notation) for kind in kinds]
    return tuple(parts)


def read_switches(document: Mapping[str, Any], source: str) -> dict[str, tuple[Part, ...]]:
    """The switches a library document declares (``[team.switch."<name>"]``), each as the entries
    it changes; errors name the source and the switch."""
    team = document.get("team")
    switches = team.get("switch", {}) if isinstance(team, Mapping) else {}
    if not isinstance(switches, Mapping):
        raise ProfileFileError(source, "team.switch: expected [team.switch.\"<name>\"] tables")
    found: dict[str, tuple[Part, ...]] = {}
    for name, table in switches.items():
        try:
            switch = Switch.from_table(str(name), table, "team.switch")
        except InputError as error:
            raise ProfileFileError(source, str(error)) from None
        found[switch.name] = _parts(switch, document, source)
    return found


def apply_switch(library: Library, parts: tuple[Part, ...], name: str, field: str) -> Library:
    """The library with one switch on: each entry it changes replaced (the library is not changed)."""
    out = {kind: dict(entries) for kind, entries in library.items()}
    for kind, key, what, notation in parts:
        profile = out.get(kind, {}).get(key)
        if profile is None:
            continue  # an entry a later library replaced with another kind's, or dropped
        try:
            out[kind][key] = with_option(profile, what, notation, field)
        except InputError as error:
            raise InputError(field, f"switch {excerpt(name)} on {key}: {str(error)[len(error.field) + 2:]}") from None
    return out


SWITCHES = Switches(read_switches, apply_switch)


def find_switch(name: Any, switches: Sequence[Switch], field: str) -> Switch | None:
    """The switch called ``name`` (case-insensitive), None when there is none."""
    if not isinstance(name, str):
        raise InputTypeError(field, f"expected a switch's name, got {excerpt(name)}")
    key = " ".join(name.split()).lower()
    return next((switch for switch in switches if switch.name.lower() == key), None)


def missing_switch(name: str, names: Sequence[str], field: str, where: str) -> InputError:
    """The error for a switch no team has, naming the ones there are."""
    if not names:
        return InputError(field, f"no switch {excerpt(name)}: {where} has no switches")
    hint = did_you_mean(name, list(names))
    return InputError(field, f"no switch {excerpt(name)} in {where}{hint}; switches: {closest(name, list(names))}")
