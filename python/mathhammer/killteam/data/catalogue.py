"""The catalogue files as one set: each file's ids, the links between files, and the lookup of a
link's target (docs/data.md, "The data model").

A target is looked for in the catalogue itself, then in the catalogues it links to (and theirs),
then in the game system. Every file gets one index of the elements a link can name.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from xml.etree.ElementTree import Element

from mathhammer.core.guard import excerpt
from mathhammer.errors import InputError, ProfileFileError
from mathhammer.killteam.data.reading import XmlFile, children

__all__ = ["KILL_TEAM_2024", "Catalogues", "Source", "describe", "source"]

#: The id of the Kill Team 2024 game system; catalogues of other editions name another one.
KILL_TEAM_2024 = "c521-ad27-44df-f959"
#: What a link may name.
LINKABLE = frozenset({"selectionEntry", "selectionEntryGroup", "profile", "rule", "categoryEntry", "infoGroup"})


def describe(element: Element) -> str:
    """An element as an error or the report names it: ``selectionEntry[@id='1a2b']``."""
    for key in ("id", "name"):
        value = element.get(key)
        if value:
            return f"{element.tag}[@{key}={excerpt(value)}]"
    return element.tag


@dataclass(eq=False)
class Source:
    """One file of the set: a game system or a catalogue."""

    file: XmlFile
    id: str
    name: str
    revision: int | None
    game_system: str
    links: tuple[tuple[str, str, bool], ...] = ()  # (target catalogue id, its name, import root entries)
    index: dict[str, Element] = field(default_factory=dict)

    @property
    def root(self) -> Element:
        return self.file.root


def _revision(value: str) -> int | None:
    return int(value) if value.strip().isdigit() and len(value.strip()) <= 9 else None


def source(file: XmlFile) -> Source:
    """A game system or catalogue file read into a Source; a file missing the root attributes
    every such file has is an error naming it."""
    root = file.root
    if root.tag not in ("gameSystem", "catalogue"):
        raise ProfileFileError(str(file.path), f"<{root.tag}>: a roster, not a catalogue; read it with load_roster")
    ident = root.get("id", "").strip()
    if not ident:
        raise ProfileFileError(str(file.path), f"{root.tag}: no id attribute; expected <{root.tag} id=... name=...>")
    system = ident if root.tag == "gameSystem" else root.get("gameSystemId", "").strip()
    if not system:
        raise ProfileFileError(str(file.path), "catalogue: no gameSystemId attribute; expected the id of the game "
                               "system the catalogue is for")
    links = tuple((link.get("targetId", ""), link.get("name", ""), link.get("importRootEntries", "") == "true")
                  for link in children(root, "catalogueLinks", "catalogueLink"))
    index: dict[str, Element] = {}
    for element in root.iter():
        if element.tag in LINKABLE:
            key = element.get("id")
            if key and key not in index:
                index[key] = element
    return Source(file, ident, " ".join(root.get("name", "").split()) or file.name, _revision(root.get("revision", "")),
                  system, links, index)


class Catalogues:
    """The game system and the catalogues of one edition, by id."""

    def __init__(self, system: Source, catalogues: Iterable[Source]) -> None:
        self.system = system
        self.catalogues: dict[str, Source] = {}
        for cat in catalogues:
            other = self.catalogues.get(cat.id)
            if other is not None:
                raise ProfileFileError(str(cat.file.path), f"catalogue id {cat.id} is also the id of {other.file.name}; "
                                       "expected one file per catalogue")
            self.catalogues[cat.id] = cat
        self._scopes: dict[str, tuple[Source, ...]] = {}
        self.characteristics = _characteristic_names([system, *self.catalogues.values()])

    def check_links(self) -> None:
        """Every catalogue a catalogue links to must be among the files."""
        for cat in self.catalogues.values():
            for target, name, _ in cat.links:
                if target not in self.catalogues:
                    named = f" ({name})" if name else ""
                    raise InputError(str(cat.file.path), f"catalogueLinks/catalogueLink[@targetId={excerpt(target)}]: "
                                     f"no catalogue {excerpt(target)}{named} among the files; add it")

    def scope(self, cat: Source) -> tuple[Source, ...]:
        """Where a target named in ``cat`` is looked for, in order: itself, the catalogues it links
        to (breadth first, each once), the game system."""
        found = self._scopes.get(cat.id)
        if found is None:
            order = [cat]
            at = 0
            while at < len(order):
                for target, _, _ in order[at].links:
                    linked = self.catalogues.get(target)
                    if linked is not None and linked not in order:
                        order.append(linked)
                at += 1
            found = (*order, self.system)
            self._scopes[cat.id] = found
        return found

    def imported_roots(self, cat: Source) -> list[Source]:
        """The catalogues whose root entries ``cat`` takes as its own (``importRootEntries``)."""
        return [self.catalogues[target] for target, _, imports in cat.links if imports and target in self.catalogues]

    def find(self, scope: tuple[Source, ...], target: str) -> tuple[Element, Source] | None:
        for where in scope:
            element = where.index.get(target)
            if element is not None:
                return element, where
        return None


def _characteristic_names(sources: list[Source]) -> dict[str, str]:
    """Characteristic type ids -> names ("8044-…" -> "HIT"), from every file's profile types."""
    names: dict[str, str] = {}
    for where in sources:
        for kind in children(where.root, "profileTypes", "profileType"):
            for char in children(kind, "characteristicTypes", "characteristicType"):
                if char.get("id") and char.get("name"):
                    names.setdefault(char.get("id", ""), char.get("name", ""))
    return names
