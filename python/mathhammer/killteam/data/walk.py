"""Walking one catalogue: its operatives, every weapon profile below each, and its equipment
(docs/data.md, "The data model").

An operative is a ``selectionEntry`` of type ``model`` at the catalogue's root or reached from it
through links. Everything below it is its own: profiles, nested entries and groups, and the
entries its ``entryLink`` s lead to (a link can carry profiles of its own), and shared profiles
named by ``infoLink`` s. Each weapon profile is read with its modifiers decided for the chain of
entries that leads to it. Weapon profiles under no operative — below the catalogue's other root
entries, or in the catalogue or the game system with no operative reaching them — are the team's
equipment. A link leading back into its own chain is a cycle: an error naming it. Links that
lead to one group again and again below one another (no cycle, yet twice as many chains at each
level) are bounded by the steps a walk may take: an error within seconds, whatever the graph.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from xml.etree.ElementTree import Element

from mathhammer.errors import InputError, ProfileFileError
from mathhammer.killteam.data.catalogue import Catalogues, Source, describe
from mathhammer.killteam.data.modifiers import Chain, Conditions, Node, apply_modifiers
from mathhammer.killteam.data.reading import children, text_of
from mathhammer.killteam.data.report import Change
from mathhammer.killteam.data.tokens import normalise

__all__ = ["MAX_IMPORT_STEPS", "MAX_NESTING", "MAX_STEPS", "RawOperative", "RawProfile", "Steps", "Walk",
           "profile_values", "rule_texts"]

#: Deepest chain of entries and links followed below a root entry (and deepest nesting of modifier
#: and condition groups, and of a roster's forces and selections).
MAX_NESTING = 64
#: The most steps one catalogue's walk takes: an entry or a profile visited is one step per entry on
#: the chain above it (its cost: the chain is copied and read). The test files take hundreds, a
#: published catalogue tens of thousands; the bound is about two seconds of work.
MAX_STEPS = 500_000
#: The most steps the walks of one import take in all.
MAX_IMPORT_STEPS = 2_000_000
#: The most characters of a trail an error quotes (its end: where the walk was).
MAX_TRAIL = 200


def _short(trail: str) -> str:
    return trail if len(trail) <= MAX_TRAIL else "…" + trail[1 - MAX_TRAIL:]


class Steps:
    """The steps the walks of one import may still take (:data:`MAX_IMPORT_STEPS`)."""

    def __init__(self, total: int | None = None) -> None:
        self.total = MAX_IMPORT_STEPS if total is None else total
        self.left = self.total


@dataclass
class RawProfile:
    """A profile as read: its name as written, its characteristics (after the modifiers that
    apply), the changes the modifiers made or would make, and the ids on the way to it."""

    name: str
    values: dict[str, str]
    changes: list[Change] = field(default_factory=list)
    ids: tuple[str, ...] = ()


@dataclass
class RawOperative:
    """An operative as read: its name, its ids, its Operative profile and its weapon profiles."""

    name: str
    ids: tuple[str, ...]
    profile: RawProfile | None = None
    weapons: list[RawProfile] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


def profile_values(profile: Element) -> tuple[dict[str, str], dict[str, str]]:
    """A profile's characteristics {name: value} and their type ids {type id: name}."""
    values: dict[str, str] = {}
    names: dict[str, str] = {}
    for char in children(profile, "characteristics", "characteristic"):
        name = char.get("name", "")
        values.setdefault(name, text_of(char).strip())
        if char.get("typeId"):
            names[char.get("typeId", "")] = name
    return values, names


def rule_texts(roots: Iterable[Element]) -> dict[str, str]:
    """The text of every rule and ability of the files, by normalised name (a team rule named in a
    WR text, "Poison*", finds its text here)."""
    texts: dict[str, str] = {}
    for root in roots:
        for element in root.iter():
            if element.tag == "rule" and element.get("name"):
                description = element.find("description")
                text = (description.text or "") if description is not None else ""
            elif element.tag == "profile" and element.get("typeName") == "Abilities" and element.get("name"):
                text = "\n".join(text_of(c) for c in children(element, "characteristics", "characteristic"))
            else:
                continue
            texts.setdefault(normalise(element.get("name", "").rstrip("*'")), text.strip())
    return texts


def _loose_weapons(root: Element) -> Iterator[Element]:
    """The weapon profiles of a file that are not inside an operative's entry."""
    stack = [root]
    while stack:
        element = stack.pop()
        if element.tag == "selectionEntry" and element.get("type") == "model":
            continue
        if element.tag == "profile" and element.get("typeName") == "Weapons":
            yield element
        stack.extend(reversed(element))


def _categories(*elements: Element) -> frozenset[str]:
    return frozenset(link.get("targetId", "") for element in elements
                     for link in children(element, "categoryLinks", "categoryLink"))


class Walk:
    """One catalogue walked: ``operatives`` and ``equipment`` as read, ``notes`` on what could
    not be followed."""

    def __init__(self, cats: Catalogues, cat: Source, steps: Steps | None = None) -> None:
        self.cats = cats
        self.cat = cat
        self.steps = steps if steps is not None else Steps()
        self._taken = 0
        self.scope = cats.scope(cat)
        self.operatives: list[RawOperative] = []
        self.equipment: list[RawProfile] = []
        self.notes: list[str] = []
        self._models: set[int] = set()
        self._reached: set[int] = set()
        for where in (cat, *cats.imported_roots(cat)):
            self._root(where)
        for where in (cat, cats.system):  # weapons on no operative, reached by none: the team's equipment
            for profile in _loose_weapons(where.root):
                if id(profile) not in self._reached:
                    self._record(profile, [profile], (), None)

    def _root(self, where: Source) -> None:
        trail = f"{where.file.name}: {where.root.tag}"
        for entry in children(where.root, "selectionEntries", "selectionEntry"):
            self._visit([entry], (self._node([entry]),), f"{trail}/selectionEntries/{describe(entry)}", None,
                        frozenset())
        for link in children(where.root, "entryLinks", "entryLink"):
            self._link(link, (), f"{trail}/entryLinks", None, frozenset())

    def _node(self, owners: list[Element]) -> Node:
        return Node(frozenset(e.get("id", "") for e in owners), _categories(*owners), owners[0].tag == "selectionEntry")

    def _link(self, link: Element, chain: Chain, trail: str, op: RawOperative | None, active: frozenset[str]) -> None:
        here = f"{trail}/{describe(link)}"
        target_id = link.get("targetId", "")
        found = self.cats.find(self.scope, target_id)
        if found is None or found[0].tag not in ("selectionEntry", "selectionEntryGroup"):
            self.notes.append(f"{here}: no entry {target_id} among the files; the link is not followed")
            return
        target = found[0]
        if target_id in active:
            raise ProfileFileError(str(self.cat.file.path), f"{_short(here)}: a cycle of links (it leads back to "
                                   f"{describe(target)} above it); expected links to end at an entry")
        owners = [target, link]
        self._visit(owners, (*chain, self._node(owners)), here, op, active | {target_id})

    def _step(self, trail: str, chain: Chain) -> None:
        """Count an entry or profile visited below ``chain``; past the walk's or the import's bound,
        an error."""
        cost = len(chain) + 1
        self._taken += cost
        self.steps.left -= cost
        if self._taken > MAX_STEPS:
            raise ProfileFileError(str(self.cat.file.path), f"{_short(trail)}: the walk takes more than {MAX_STEPS} "
                                   "steps (links that lead to the same groups again and again?); a published "
                                   "catalogue takes tens of thousands")
        if self.steps.left < 0:
            raise ProfileFileError(str(self.cat.file.path), f"the walks of the catalogues of one import take more than "
                                   f"{self.steps.total} steps in all; import fewer teams at once")

    def _visit(self, owners: list[Element], chain: Chain, trail: str, op: RawOperative | None,
               active: frozenset[str]) -> None:
        self._step(trail, chain)
        if len(chain) > MAX_NESTING:
            raise ProfileFileError(str(self.cat.file.path), f"{_short(trail)}: entries nested more than {MAX_NESTING} "
                                   "deep")
        main = owners[0]
        if op is None and main.tag == "selectionEntry" and main.get("type") == "model":
            if id(main) in self._models:
                return  # reached twice from the root: one operative
            self._models.add(id(main))
            op = RawOperative(main.get("name", ""), tuple(e.get("id", "") for e in owners))
            self._stats(op, owners, chain)
            self.operatives.append(op)
        for owner in owners:  # in document order
            for box in owner:
                for item in box:
                    if box.tag == "profiles" and item.tag == "profile" and item.get("typeName") == "Weapons":
                        self._record(item, [item], chain, op)
                    elif box.tag == "infoLinks" and item.tag == "infoLink":
                        target = self._profile_link(item)
                        if target is not None and target.get("typeName") == "Weapons":
                            self._record(target, [target, item], chain, op)
                    elif (box.tag, item.tag) in (("selectionEntries", "selectionEntry"),
                                                 ("selectionEntryGroups", "selectionEntryGroup")):
                        self._visit([item], (*chain, self._node([item])), f"{trail}/{describe(item)}", op, active)
                    elif box.tag == "entryLinks" and item.tag == "entryLink":
                        self._link(item, chain, trail, op, active)

    def _profile_link(self, info: Element) -> Element | None:
        if info.get("type") != "profile":
            return None
        found = self.cats.find(self.scope, info.get("targetId", ""))
        return found[0] if found is not None and found[0].tag == "profile" else None

    def _stats(self, op: RawOperative, owners: list[Element], chain: Chain) -> None:
        """The operative's own Operative profile (on the entry, or named by an infoLink)."""
        found: list[tuple[Element, list[Element]]] = []
        for owner in owners:
            found += [(p, [p]) for p in children(owner, "profiles", "profile")]
            found += [(t, [t, info]) for info in children(owner, "infoLinks", "infoLink")
                      for t in [self._profile_link(info)] if t is not None]
        stats = [(p, mods) for p, mods in found if p.get("typeName") == "Operative"
                 and " ".join(p.get("name", "").split()).lower() != "shape reference"]
        if stats:
            op.profile = self._read(stats[0][0], stats[0][1], chain)
        if len(stats) > 1:
            op.notes.append(f"{len(stats)} Operative profiles; the first ({stats[0][0].get('name', '')!r}) is used")

    def _read(self, profile: Element, owners: list[Element], chain: Chain) -> RawProfile:
        values, names = profile_values(profile)
        names = {**self.cats.characteristics, **names}
        conditions = Conditions(chain, self._known, self._name)
        try:
            changes = apply_modifiers(values, owners, names, conditions)
        except InputError as error:  # groups nested past the bound
            raise ProfileFileError(str(self.cat.file.path), f"{describe(profile)}: {error}") from None
        ids = (*(i for node in chain for i in sorted(node.ids)), profile.get("id", ""))
        return RawProfile(profile.get("name", ""), values, changes, ids)

    def _record(self, profile: Element, owners: list[Element], chain: Chain, op: RawOperative | None) -> None:
        self._step(describe(profile), chain)
        raw = self._read(profile, owners, chain)
        if op is not None:
            self._reached.add(id(profile))
            op.weapons.append(raw)
        elif id(profile) not in self._reached:
            self._reached.add(id(profile))
            self.equipment.append(raw)

    def _known(self, ident: str) -> bool:
        found = self.cats.find(self.scope, ident)
        return found is not None and found[0].tag in ("selectionEntry", "selectionEntryGroup", "categoryEntry")

    def _name(self, ident: str) -> str:
        found = self.cats.find(self.scope, ident) if ident else None
        return f"{found[0].get('name', '')} ({ident})" if found is not None and found[0].get("name") else ident
