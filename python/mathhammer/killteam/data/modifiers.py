"""Modifiers on a profile and the conditions they hold under (docs/data.md, "Modifiers").

A profile's characteristics change by ``set``, ``increment`` and ``decrement`` modifiers, alone or
in modifier groups, when their conditions hold. A condition is decided from where the profile sits
in the catalogue — the chain of entries from the operative down to the profile, with their ids and
categories — when it asks whether that chain holds an entry or a category (``instanceOf`` /
``notInstanceOf`` with scope ``self``, ``parent``, ``ancestor``, ``root-entry``, or an entry or
category id). Anything else (the force, the roster, counts of other selections, the wargear chosen)
depends on a list the catalogue does not have: such a modifier is *undecided*, left unapplied, and
reported with both values. Conditions combine with three values: true, false and undecided.
Groups nest at most :data:`MAX_GROUPS` deep, checked before each level is read.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from xml.etree.ElementTree import Element

from mathhammer.errors import InputError
from mathhammer.killteam.data.reading import children
from mathhammer.killteam.data.report import Change

__all__ = ["MAX_GROUPS", "Chain", "Conditions", "Node", "apply_modifiers", "modifiers_of"]

#: Scopes that name the list being built, which a catalogue does not have.
LIST_SCOPES = frozenset({"force", "roster", "primary-catalogue", "primary-category", "unit"})


@dataclass(frozen=True)
class Node:
    """One entry on the way from an operative to a profile: its ids (an entry's, and the link's
    when it was reached through one), its categories, and whether it is an entry (a group is not
    a selection of its own)."""

    ids: frozenset[str]
    categories: frozenset[str]
    entry: bool = True


Chain = tuple[Node, ...]


#: Deepest nesting of modifier groups, and of condition groups, read.
MAX_GROUPS = 64


def modifiers_of(element: Element, groups: tuple[Element, ...] = (),
                 limit: int = MAX_GROUPS) -> Iterator[tuple[Element, tuple[Element, ...]]]:
    """Every modifier of an element, with the modifier groups it sits in (outermost first); groups
    nested more than ``limit`` deep are an InputError (checked before going deeper)."""
    for modifier in children(element, "modifiers", "modifier"):
        yield modifier, groups
    for group in children(element, "modifierGroups", "modifierGroup"):
        if len(groups) >= limit:
            raise InputError("modifierGroups", f"nested more than {limit} deep")
        yield from modifiers_of(group, (*groups, group), limit)


class Conditions:
    """Decides conditions for one profile: ``chain`` is where it sits, ``known(id)`` says whether
    an id names an entry or a category of the catalogues, ``name(id)`` names it for the report."""

    def __init__(self, chain: Chain, known: Callable[[str], bool], name: Callable[[str], str]) -> None:
        self.chain = chain
        self.known = known
        self.name = name

    def _nodes(self, scope: str) -> list[Node] | None:
        chain = self.chain
        if scope == "self":
            return list(chain[-1:])
        if scope == "parent":
            return [node for node in reversed(chain[:-1]) if node.entry][:1]
        if scope == "ancestor":
            return list(chain[:-1])
        if scope == "root-entry":
            return list(chain[:1])
        if scope in LIST_SCOPES or not self.known(scope):
            return None
        for at, node in enumerate(chain):  # an entry or category id: the chain below it
            if scope in node.ids or scope in node.categories:
                return list(chain[at:])
        return []

    def decide(self, condition: Element) -> tuple[bool | None, str]:
        kind, scope, child = condition.get("type", ""), condition.get("scope", ""), condition.get("childId", "")
        said = f"{kind} {self.name(child)} in {self.name(scope)}"
        if kind not in ("instanceOf", "notInstanceOf"):
            return None, f"{said} (counts {condition.get('field', 'selections')}, value {condition.get('value', '')})"
        nodes = self._nodes(scope)
        if nodes is None:
            return None, said
        found = bool(nodes) if child == "any" else any(child in n.ids or child in n.categories for n in nodes)
        return found if kind == "instanceOf" else not found, said

    def holds(self, element: Element, combine: str = "and", depth: int = 0,
              limit: int = MAX_GROUPS) -> tuple[bool | None, list[str]]:
        """Whether an element's conditions and condition groups hold, and what they ask; groups
        nested more than ``limit`` deep are an InputError (checked before going deeper)."""
        results: list[bool | None] = []
        said: list[str] = []
        for condition in children(element, "conditions", "condition"):
            value, text = self.decide(condition)
            results.append(value)
            said.append(text)
        for group in children(element, "conditionGroups", "conditionGroup"):
            if depth >= limit:
                raise InputError("conditionGroups", f"nested more than {limit} deep")
            how = group.get("type", "and")
            value, texts = self.holds(group, how, depth + 1, limit)
            results.append(value)
            said.append("(" + f" {how} ".join(texts) + ")")
        if element.find("repeats") is not None:
            results.append(None)
            said.append("repeats for each of some selections")
        return _combine(results, combine), said


def _combine(values: list[bool | None], how: str) -> bool | None:
    if how == "or" and values:
        return True if True in values else (None if None in values else False)
    return False if False in values else (None if None in values else True)


_NUMBER = re.compile(r"\s*(-?\d{1,6})(\+|\"|\u201d)?\s*")


def _step(before: str, kind: str, amount: str) -> str | None:
    """``before`` incremented or decremented by ``amount``, keeping what follows the number
    ("3+" + 1 = "4+"); None when either is not a number."""
    number, by = _NUMBER.fullmatch(before), _NUMBER.fullmatch(amount)
    if number is None or by is None or by.group(2):
        return None
    step = int(by.group(1)) if kind == "increment" else -int(by.group(1))
    return f"{int(number.group(1)) + step}{number.group(2) or ''}"


def apply_modifiers(values: dict[str, str], owners: list[Element], names: dict[str, str],
                    conditions: Conditions, limit: int = MAX_GROUPS) -> list[Change]:
    """Apply the modifiers of ``owners`` (a profile, and the link that reached it) to ``values``
    ({characteristic name: value}) in place; ``names`` maps characteristic type ids to names.
    Returns every change to a characteristic: applied, undecided or not applied."""
    changes: list[Change] = []
    for owner in owners:
        for modifier, groups in modifiers_of(owner, (), limit):
            characteristic = names.get(modifier.get("field", ""))
            if characteristic is None or characteristic not in values:
                continue  # not a characteristic of this profile (hidden, name, a constraint...)
            kind, amount = modifier.get("type", ""), modifier.get("value", "")
            results: list[bool | None] = []
            said: list[str] = []
            for holder in (*groups, modifier):
                value, texts = conditions.holds(holder, "and", 0, limit)
                results.append(value)
                said.extend(texts)
            holds = _combine(results, "and")
            if holds is False:
                continue
            before = values[characteristic]
            after = amount if kind == "set" else _step(before, kind, amount) if kind in ("increment", "decrement") else None
            condition = " and ".join(said) or "always"
            if after is None:
                changes.append(Change(characteristic, kind, amount, before, before, "not applied", condition))
            elif holds is None:
                changes.append(Change(characteristic, kind, amount, before, after, "undecided", condition))
            else:
                values[characteristic] = after
                changes.append(Change(characteristic, kind, amount, before, after, "applied", condition))
    return changes
