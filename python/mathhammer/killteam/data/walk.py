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

The walk also keeps what the abilities need (docs/data.md, "Abilities"): each operative's
Abilities profiles, its categories by name, the entries below it (its options, each with the
alternatives a group leaves out when it is chosen), and the catalogue's faction rules.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from xml.etree.ElementTree import Element

from mathhammer.errors import InputError, ProfileFileError
from mathhammer.killteam.data.catalogue import Catalogues, Source, describe
from mathhammer.killteam.data.modifiers import Chain, Conditions, Node, apply_modifiers
from mathhammer.killteam.data.reading import children, text_of
from mathhammer.killteam.data.report import Change
from mathhammer.killteam.data.tokens import rule_name

__all__ = ["MAX_IMPORT_STEPS", "MAX_NESTING", "MAX_STEPS", "Option", "RawAbility", "RawOperative", "RawProfile",
           "Steps", "Walk", "ability_text", "faction_rules", "marked_rule", "profile_values", "rule_texts"]

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


@dataclass(frozen=True)
class RawAbility:
    """An ability's or a rule's name and text as the data has them, and the id of the element."""

    name: str
    text: str
    ident: str = ""


@dataclass(frozen=True)
class Option:
    """An entry below an operative (a piece of wargear it may take): its name, and the ids of the
    entries and links its choice leaves out (the other entries of each group on the way to it)."""

    name: str
    excluded: frozenset[str] = frozenset()


@dataclass
class RawOperative:
    """An operative as read: its name, its ids, its Operative profile and its weapon profiles; its
    categories (names), its Abilities profiles, and the entries below it by id (its options)."""

    name: str
    ids: tuple[str, ...]
    profile: RawProfile | None = None
    weapons: list[RawProfile] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    categories: tuple[str, ...] = ()
    abilities: list[RawAbility] = field(default_factory=list)
    options: dict[str, Option] = field(default_factory=dict)


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


def ability_text(element: Element) -> str:
    """The text of a rule (its description) or of an Abilities profile (its characteristics)."""
    if element.tag == "rule":
        description = element.find("description")
        return ((description.text or "") if description is not None else "").strip()
    return "\n".join(text_of(c) for c in children(element, "characteristics", "characteristic")).strip()


def rule_texts(roots: Iterable[Element]) -> dict[str, str]:
    """The text of every rule and ability of the files, by :func:`rule_name` (a team rule named in a
    WR text, "Poison*", finds its text here, whether the rule is named "Poison*" or "*Poison")."""
    texts: dict[str, str] = {}
    for root in roots:
        for element in root.iter():
            if element.get("name") and (element.tag == "rule" or element.tag == "profile"
                                        and element.get("typeName") == "Abilities"):
                texts.setdefault(rule_name(element.get("name", "")), ability_text(element))
    return texts


def marked_rule(name: str) -> bool:
    """A team weapon rule's name ("*Poison", "Poison*"): read with the weapons that name it."""
    name = name.strip()
    return name.startswith(("*", "'")) or name.endswith(("*", "'"))


def faction_rules(cats: Catalogues, cat: Source) -> list[RawAbility]:
    """A catalogue's own rules (its root ``rules``, and the rules its root ``infoLinks`` name), but
    the team weapon rules marked ``*``, which are read with the weapons that name them."""
    found: list[RawAbility] = []
    rules = list(children(cat.root, "rules", "rule"))
    for link in children(cat.root, "infoLinks", "infoLink"):
        target = cats.find(cats.scope(cat), link.get("targetId", "")) if link.get("type") == "rule" else None
        if target is not None and target[0].tag == "rule":
            rules.append(target[0])
    for rule in rules:
        name = " ".join(rule.get("name", "").split())
        if name and not marked_rule(name) and all(r.name != name for r in found):
            found.append(RawAbility(name, ability_text(rule), rule.get("id", "")))
    return found


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


def _choices(owners: list[Element]) -> frozenset[str]:
    """The ids of a group's own entries, groups and links: one of them is chosen."""
    return frozenset(item.get("id", "") for owner in owners for box in owner for item in box
                     if (box.tag, item.tag) in (("selectionEntries", "selectionEntry"),
                                                ("selectionEntryGroups", "selectionEntryGroup"),
                                                ("entryLinks", "entryLink")) and item.get("id"))


def _ids_below(owners: list[Element]) -> frozenset[str]:
    """The ids of the entries and links below an operative's own entry (and the targets of those
    links): what a count condition on its Operative profile may name as an option."""
    found: set[str] = set()
    for owner in owners:
        for element in owner.iter():
            if element is owner:
                continue
            if element.tag in ("selectionEntry", "selectionEntryGroup"):
                found.add(element.get("id", ""))
            elif element.tag == "entryLink":
                found.update((element.get("id", ""), element.get("targetId", "")))
    return frozenset(found - {""})


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

    def _node(self, owners: list[Element], alternatives: frozenset[str] = frozenset()) -> Node:
        return Node(frozenset(e.get("id", "") for e in owners), _categories(*owners), owners[0].tag == "selectionEntry",
                    alternatives)

    def _link(self, link: Element, chain: Chain, trail: str, op: RawOperative | None, active: frozenset[str],
              alternatives: frozenset[str] = frozenset()) -> None:
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
        self._visit(owners, (*chain, self._node(owners, alternatives)), here, op, active | {target_id})

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
            op = RawOperative(main.get("name", ""), tuple(e.get("id", "") for e in owners),
                              categories=self._category_names(owners))
            self._stats(op, owners, chain)
            self.operatives.append(op)
        elif op is not None and main.tag == "selectionEntry":  # an option of the operative
            option = Option(" ".join(main.get("name", "").split()),
                            frozenset(i for node in chain for i in node.alternatives))
            for ident in chain[-1].ids:
                op.options.setdefault(ident, option)
        # the entries and links of a group are alternatives of one another (one is chosen)
        group = _choices(owners) if main.tag == "selectionEntryGroup" else frozenset()
        for owner in owners:  # in document order
            for box in owner:
                for item in box:
                    if box.tag == "profiles" and item.tag == "profile" and item.get("typeName") == "Weapons":
                        self._record(item, [item], chain, op)
                    elif box.tag == "profiles" and item.tag == "profile" and item.get("typeName") == "Abilities":
                        self._ability(item, op, chain)
                    elif box.tag == "infoLinks" and item.tag == "infoLink":
                        target = self._profile_link(item)
                        if target is not None and target.get("typeName") == "Weapons":
                            self._record(target, [target, item], chain, op)
                        elif target is not None and target.get("typeName") == "Abilities":
                            self._ability(target, op, chain)
                    elif (box.tag, item.tag) in (("selectionEntries", "selectionEntry"),
                                                 ("selectionEntryGroups", "selectionEntryGroup")):
                        node = self._node([item], group - {item.get("id", "")})
                        self._visit([item], (*chain, node), f"{trail}/{describe(item)}", op, active)
                    elif box.tag == "entryLinks" and item.tag == "entryLink":
                        self._link(item, chain, trail, op, active, group - {item.get("id", "")})

    def _ability(self, profile: Element, op: RawOperative | None, chain: Chain) -> None:
        """An Abilities profile below an operative: one of its abilities (a step of the walk; the
        same name and text twice are one ability, when the team is built)."""
        if op is None:
            return
        self._step(describe(profile), chain)
        ability = RawAbility(" ".join(profile.get("name", "").split()), ability_text(profile), profile.get("id", ""))
        if ability.name:
            op.abilities.append(ability)

    def _category_names(self, owners: list[Element]) -> tuple[str, ...]:
        """The names of an operative's categories (its entry's and the link's that reached it)."""
        names: list[str] = []
        for owner in owners:
            for link in children(owner, "categoryLinks", "categoryLink"):
                found = self.cats.find(self.scope, link.get("targetId", ""))
                written = found[0].get("name", "") if found is not None else ""
                name = " ".join((written or link.get("name", "")).split())
                if name and name not in names:
                    names.append(name)
        return tuple(names)

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
            below: list[frozenset[str]] = []  # read when a count condition asks (few profiles have one)

            def option(ident: str) -> bool:
                if not below:
                    below.append(_ids_below(owners))
                return ident in below[0]

            op.profile = self._read(stats[0][0], stats[0][1], chain, option)
        if len(stats) > 1:
            op.notes.append(f"{len(stats)} Operative profiles; the first ({stats[0][0].get('name', '')!r}) is used")

    def _read(self, profile: Element, owners: list[Element], chain: Chain,
              option: Callable[[str], bool] | None = None) -> RawProfile:
        values, names = profile_values(profile)
        names = {**self.cats.characteristics, **names}
        conditions = Conditions(chain, self._known, self._name, option)
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
