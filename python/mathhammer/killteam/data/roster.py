"""Reading a roster (``.ros``, or zipped ``.rosz``): the operatives a list fields, with the stats
the list builder already resolved (docs/data.md, "Rosters").

A roster needs no catalogue: each ``selection`` of type ``model`` carries its own Operative profile
and, in its nested selections, the weapon profiles chosen for it, modifiers already applied, its
Abilities profiles and its categories. Other selections holding weapon profiles are the team's
equipment; the forces' rules are the faction rules, and the rules the roster holds give the team
weapon rules their text (docs/data.md, "Abilities").
"""

from __future__ import annotations

from xml.etree.ElementTree import Element

from mathhammer.core.guard import excerpt
from mathhammer.errors import ProfileFileError
from mathhammer.killteam.data.build import Source, build_team, weapon_kinds
from mathhammer.killteam.data.catalogue import KILL_TEAM_2024, describe
from mathhammer.killteam.data.reading import XmlFile, children
from mathhammer.killteam.data.team import Team
from mathhammer.killteam.data.walk import (
    MAX_NESTING,
    RawAbility,
    RawOperative,
    RawProfile,
    ability_text,
    marked_rule,
    profile_values,
    rule_texts,
)

__all__ = ["MAX_COPIES", "read_roster"]

#: The most copies of one model a selection may ask for (``number``).
MAX_COPIES = 50


def _forces(file: XmlFile) -> list[Element]:
    """Every force of the roster, nested ones after their parent, at most :data:`MAX_NESTING` deep
    (checked before going deeper)."""
    found = []
    stack: list[tuple[Element, int]] = [(file.root, 0)]
    while stack:
        element, depth = stack.pop()
        inner = children(element, "forces", "force")
        if inner and depth >= MAX_NESTING:
            raise ProfileFileError(str(file.path), f"roster/forces: forces nested more than {MAX_NESTING} deep")
        if element is not file.root:
            found.append(element)
        stack.extend((force, depth + 1) for force in reversed(inner))
    return found


class _Reader:
    def __init__(self, file: XmlFile) -> None:
        self.file = file
        self.operatives: list[RawOperative] = []
        self.equipment: list[RawProfile] = []

    def error(self, where: str, message: str) -> ProfileFileError:
        return ProfileFileError(str(self.file.path), f"{where}: {message}")

    def visit(self, selection: Element, trail: str, op: RawOperative | None, depth: int) -> None:
        here = f"{trail}/{describe(selection)}"
        if depth > MAX_NESTING:
            raise self.error(here, f"selections nested more than {MAX_NESTING} deep")
        ids = (selection.get("id", ""), selection.get("entryId", ""))
        copies: list[RawOperative] = []
        if op is None and selection.get("type") == "model":
            number = selection.get("number", "1").strip()
            if not number.isdigit() or not 1 <= int(number) <= MAX_COPIES:
                raise self.error(here, f"number={excerpt(number)}: expected how many models, 1..{MAX_COPIES}")
            categories = tuple(dict.fromkeys(" ".join(c.get("name", "").split())
                                             for c in children(selection, "categories", "category") if c.get("name")))
            copies = [RawOperative(selection.get("name", ""), ids, categories=categories) for _ in range(int(number))]
            op = copies[0]
        for profile in children(selection, "profiles", "profile"):
            values, _ = profile_values(profile)
            raw = RawProfile(profile.get("name", ""), values, ids=(*ids, profile.get("id", "")))
            kind = profile.get("typeName")
            if kind == "Operative" and op is not None and copies and " ".join(raw.name.split()).lower() != "shape reference":
                if op.profile is None:
                    op.profile = raw
                else:
                    op.notes.append(f"another Operative profile ({raw.name!r}) is not used")
            elif kind == "Weapons":
                (op.weapons if op is not None else self.equipment).append(raw)
            elif kind == "Abilities" and op is not None and raw.name.strip():
                op.abilities.append(RawAbility(" ".join(raw.name.split()), ability_text(profile), profile.get("id", "")))
        for inner in children(selection, "selections", "selection"):
            self.visit(inner, here, op, depth + 1)
        if copies:
            first = copies[0]
            for copy in copies[1:]:
                copy.profile, copy.weapons, copy.notes = first.profile, list(first.weapons), list(first.notes)
                copy.abilities = list(first.abilities)
        self.operatives.extend(copies)


def read_roster(file: XmlFile) -> Team:
    """The team a roster file fields."""
    root = file.root
    if root.tag != "roster":
        raise ProfileFileError(str(file.path), f"<{root.tag}>: not a roster; expected <roster> (read catalogues "
                               "with load_catalogues)")
    system = root.get("gameSystemId", "")
    if system != KILL_TEAM_2024:
        edition = " ".join(root.get("gameSystemName", "").split())
        named = f"a roster of {excerpt(edition)} (gameSystemId {excerpt(system)})" if edition else \
            f"gameSystemId {excerpt(system)}"
        raise ProfileFileError(str(file.path), f"roster: {named}; expected a Kill Team 2024 roster ({KILL_TEAM_2024})")
    forces = _forces(file)
    if not forces:
        raise ProfileFileError(str(file.path), "roster: no forces/force; expected the list's force with its selections")
    reader = _Reader(file)
    for force in forces:
        for selection in children(force, "selections", "selection"):
            reader.visit(selection, f"roster/forces/{describe(force)}/selections", None, 0)
    names = {" ".join(f.get("catalogueName", "").split()) for f in forces} - {""}
    name = names.pop() if len(names) == 1 else " ".join(root.get("name", "").split()) or file.name
    revision = forces[0].get("catalogueRevision", "").strip()
    source = Source(name, file.name, int(revision) if revision.isdigit() and len(revision) < 10 else None, file.sha256)
    kinds = weapon_kinds([*reader.equipment, *(w for op in reader.operatives for w in op.weapons)])
    faction: list[RawAbility] = []
    for force in forces:
        for rule in children(force, "rules", "rule"):
            name = " ".join(rule.get("name", "").split())
            if name and not marked_rule(name) and all(r.name != name for r in faction):
                faction.append(RawAbility(name, ability_text(rule), rule.get("id", "")))
    return build_team(source, reader.operatives, reader.equipment, kinds, rule_texts([root]), [], faction)
