"""Modifiers on a profile and the conditions they hold under (docs/data.md, "Modifiers").

A profile's characteristics change by ``set``, ``increment`` and ``decrement`` modifiers, alone or
in modifier groups, when their conditions hold. A condition is decided from where the profile sits
in the catalogue — the chain of entries from the operative down to the profile, with their ids and
categories — when it asks whether that chain holds an entry or a category (``instanceOf`` /
``notInstanceOf`` with scope ``self``, ``parent``, ``ancestor``, ``root-entry``, or an entry or
category id). Anything else (the force, the roster, counts of other selections, the wargear chosen)
depends on a list the catalogue does not have: such a modifier is *undecided*, left unapplied, and
reported with both values. One case is decided another way: a modifier of an operative's own stats
that holds when the operative has one of its options (at least one selection of an entry below
it, "a slabshield") is an *option* change, left unapplied on the operative and applied to a
variant of it named after the option (docs/data.md, "Options"). Conditions combine with three
values, true, false and undecided, and an option's id (true when the operative has it). Groups
nest at most :data:`MAX_GROUPS` deep, checked before each level is read.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Union
from xml.etree.ElementTree import Element

from mathhammer.errors import InputError
from mathhammer.killteam.data.reading import children
from mathhammer.killteam.data.report import Change

__all__ = ["MAX_GROUPS", "Chain", "Conditions", "Node", "Value", "apply_modifiers", "modified", "modifiers_of"]

#: Scopes that name the list being built, which a catalogue does not have.
LIST_SCOPES = frozenset({"force", "roster", "primary-catalogue", "primary-category", "unit"})


@dataclass(frozen=True)
class Node:
    """One entry on the way from an operative to a profile: its ids (an entry's, and the link's
    when it was reached through one), its categories, whether it is an entry (a group is not a
    selection of its own), and the ids of the other entries and links of the group it was chosen
    from (its alternatives: an operative with this option has none of them)."""

    ids: frozenset[str]
    categories: frozenset[str]
    entry: bool = True
    alternatives: frozenset[str] = frozenset()


Chain = tuple[Node, ...]
#: What a condition comes to: true, false, undecided (None), or an option's id (true when the
#: operative has that option).
Value = Union[bool, None, str]
#: Condition types that count the selections of an entry: with a count that means "at least one",
#: an option of the operative.
_AT_LEAST_ONE = {"atLeast": 1, "greaterThan": 0}
#: Scopes that name the operative's own entry, seen from its Operative profile.
_OWN_SCOPES = frozenset({"self", "parent", "ancestor", "root-entry"})


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
    an id names an entry or a category of the catalogues, ``name(id)`` names it for the report;
    ``option(id)``, for an operative's own Operative profile, says whether an id is one of its
    options (an entry below it)."""

    def __init__(self, chain: Chain, known: Callable[[str], bool], name: Callable[[str], str],
                 option: Callable[[str], bool] | None = None) -> None:
        self.chain = chain
        self.known = known
        self.name = name
        self.option = option

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

    def decide(self, condition: Element) -> tuple[Value, str]:
        kind, scope, child = condition.get("type", ""), condition.get("scope", ""), condition.get("childId", "")
        said = f"{kind} {self.name(child)} in {self.name(scope)}"
        if kind not in ("instanceOf", "notInstanceOf"):
            said = f"{said} (counts {condition.get('field', 'selections')}, value {condition.get('value', '')})"
            if self._is_option(condition):
                return child, said
            return None, said
        nodes = self._nodes(scope)
        if nodes is None:
            return None, said
        found = bool(nodes) if child == "any" else any(child in n.ids or child in n.categories for n in nodes)
        return found if kind == "instanceOf" else not found, said

    def _is_option(self, condition: Element) -> bool:
        """A count of at least one selection of one of the operative's options, in its own entry."""
        kind, field, value = condition.get("type", ""), condition.get("field", ""), condition.get("value", "").strip()
        if self.option is None or kind not in _AT_LEAST_ONE or field != "selections":
            return False
        try:
            at_least_one = float(value) == _AT_LEAST_ONE[kind]
        except ValueError:
            return False
        return (at_least_one and condition.get("scope", "") in _OWN_SCOPES
                and self.option(condition.get("childId", "")))

    def holds(self, element: Element, combine: str = "and", depth: int = 0,
              limit: int = MAX_GROUPS) -> tuple[Value, list[str]]:
        """Whether an element's conditions and condition groups hold, and what they ask; groups
        nested more than ``limit`` deep are an InputError (checked before going deeper)."""
        results: list[Value] = []
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


def _combine(values: list[Value], how: str) -> Value:
    # an option counts as undecided in an "or" (another way may hold without it), and one option
    # in an "and" of what holds is that option; two different options are undecided
    options = {value for value in values if isinstance(value, str)}
    if how == "or" and values:
        return True if True in values else (None if None in values or options else False)
    if False in values:
        return False
    if None in values or len(options) > 1:
        return None
    return options.pop() if options else True


_NUMBER = re.compile(r"\s*(-?\d{1,6})(\+|\"|\u201d)?\s*")


def _step(before: str, kind: str, amount: str) -> str | None:
    """``before`` incremented or decremented by ``amount``, keeping what follows the number
    ("3+" + 1 = "4+"); None when either is not a number."""
    number, by = _NUMBER.fullmatch(before), _NUMBER.fullmatch(amount)
    if number is None or by is None or by.group(2):
        return None
    step = int(by.group(1)) if kind == "increment" else -int(by.group(1))
    return f"{int(number.group(1)) + step}{number.group(2) or ''}"


def modified(before: str, kind: str, amount: str) -> str | None:
    """A characteristic after one modifier (``set``, ``increment`` or ``decrement`` by ``amount``);
    None when it cannot be applied as written."""
    if kind == "set":
        return amount
    return _step(before, kind, amount) if kind in ("increment", "decrement") else None


def apply_modifiers(values: dict[str, str], owners: list[Element], names: dict[str, str],
                    conditions: Conditions, limit: int = MAX_GROUPS) -> list[Change]:
    """Apply the modifiers of ``owners`` (a profile, and the link that reached it) to ``values``
    ({characteristic name: value}) in place; ``names`` maps characteristic type ids to names.
    Returns every change to a characteristic: applied, undecided, option (applied to the variant
    of the option ``Change.option`` names, not here) or not applied."""
    changes: list[Change] = []
    for owner in owners:
        for modifier, groups in modifiers_of(owner, (), limit):
            characteristic = names.get(modifier.get("field", ""))
            if characteristic is None or characteristic not in values:
                continue  # not a characteristic of this profile (hidden, name, a constraint...)
            kind, amount = modifier.get("type", ""), modifier.get("value", "")
            results: list[Value] = []
            said: list[str] = []
            for holder in (*groups, modifier):
                value, texts = conditions.holds(holder, "and", 0, limit)
                results.append(value)
                said.extend(texts)
            holds = _combine(results, "and")
            if holds is False:
                continue
            before = values[characteristic]
            after = modified(before, kind, amount)
            condition = " and ".join(said) or "always"
            if after is None:
                changes.append(Change(characteristic, kind, amount, before, before, "not applied", condition))
            elif holds is None:
                changes.append(Change(characteristic, kind, amount, before, after, "undecided", condition))
            elif isinstance(holds, str):
                changes.append(Change(characteristic, kind, amount, before, after, "option", condition, holds))
            else:
                values[characteristic] = after
                changes.append(Change(characteristic, kind, amount, before, after, "applied", condition))
    return changes
