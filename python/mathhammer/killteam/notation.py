"""Kill Team's rules tables: each weapon rule and ability declared once, as a row.

A row is the ``rule(...)`` metadata of one field of ``WeaponRules`` or ``Abilities``
(killteam/profiles.py): its datacard notation (``x`` stands for the parameter), the parameter's
range, other spellings, the C++ config fields it sets, its section of docs/rules/killteam.md, and
whether 2024 datacards write it (the importer accepts those). A field holding one of several named
values (the rerolls, Saintly Relics) names each value's notation. From the rows come the parsing
and printing of the notation, the range checks, the names an unknown rule's error offers, the
copying into the C++ configs (killteam/plan.py), the rules table of docs/rules/killteam.md §9 and
the tests' lists of rules.

The datacard tokens the engine reads and that change nothing in one shot or one fight (Range x",
Heavy, Silent, ...) are rows of ``WeaponRules.KEPT`` (:class:`Kept`), with the reason the importer
gives.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from mathhammer.core.checks import check_bool, check_int
from mathhammer.core.guard import check_notation, excerpt
from mathhammer.errors import InputError, InputTypeError

__all__ = ["Kept", "Named", "Rule", "RuleTable", "normalise", "rule", "rules_page_tables"]

#: The parameter in a notation ("Lethal x+", "Blast x\"").
PARAMETER = "x"


@dataclass(frozen=True)
class Named:
    """One value of a field with several named values: its notation, other spellings, and whether
    datacards write it."""

    text: str
    aliases: tuple[str, ...] = ()
    datacard: bool = False


@dataclass(frozen=True)
class Rule:
    """One row of a rules table (the metadata of one field of WeaponRules or Abilities).

    ``notation``: as printed, ``x`` for the parameter ("Lethal x+": the ``+`` may be left out when
    written); empty for a field of ``values``. ``low`` / ``high``: the parameter's range.
    ``engine``: the C++ config fields it sets ("AttackProfile.severe"). ``copied``: the plan copies
    the value into them as it is (a flag, a number, a named value as the enum of the same name, an
    absent parameter as 0); else the plan works the fields out (Lethal's crit threshold, Accurate
    clipped to the dice). ``combine``: two values given together that make a third (rerolls).
    ``weapon_kind``: "ranged" or "melee" when only weapons of that kind have the rule (the importer
    tells a weapon without a ⌖/⚔ glyph by it, docs/data.md); empty when both kinds may.
    """

    notation: str
    section: str
    engine: tuple[str, ...]
    low: int = 0
    high: int = 0
    aliases: tuple[str, ...] = ()
    datacard: bool = False
    values: Mapping[Any, Named] = field(default_factory=dict)
    combine: Mapping[tuple[str, str], str] = field(default_factory=dict)
    copied: bool = True
    weapon_kind: str = ""

    kind: str = field(init=False)  # "flag", "parameter" (a number) or "named" (one of ``values``)

    def __post_init__(self) -> None:
        kind = "named" if self.values else "parameter" if _has_parameter(self.notation) else "flag"
        object.__setattr__(self, "kind", kind)

    def names(self) -> tuple[str, ...]:
        """The notations it prints, one per named value."""
        return tuple(v.text for v in self.values.values()) if self.values else (self.notation,)


def rule(notation: str, section: str, engine: tuple[str, ...] | str, *, default: Any = False, low: int = 0,
         high: int = 0, aliases: tuple[str, ...] = (), datacard: bool = False,
         values: Mapping[Any, Named] | None = None, combine: Mapping[tuple[str, str], str] | None = None,
         copied: bool = True, weapon_kind: str = "") -> Any:
    """A field of a rules table: its default and its row (:class:`Rule`)."""
    row = Rule(notation, section, (engine,) if isinstance(engine, str) else engine, low, high, aliases, datacard,
               dict(values or {}), dict(combine or {}), copied, weapon_kind)
    return field(default=default, metadata={"rule": row})


@dataclass(frozen=True)
class Kept:
    """A datacard token the engine reads and does not model, as it changes nothing in one shot or
    one fight (a datacard rule pasted as written may hold it), and why (the importer's report).

    ``weapon_kind``: as :class:`Rule`'s, "ranged" when only ranged weapons have it. ``advice``:
    what the note on it adds where mathhammer answers the question the token raises (Blast:
    ``kt.volley``); a datacard rule pasted as written may hold any of them (set aside with a note,
    :meth:`RuleTable.read`).
    """

    notation: str
    reason: str
    weapon_kind: str = ""
    advice: str = ""

    def pattern(self) -> str:
        """The regular expression of the normalised token, each parameter a group."""
        return _pattern(self.notation.lower())

    def form(self) -> str:
        """The canonical form, ``{0}`` for the parameter."""
        return re.sub(rf"\b{PARAMETER}\b", "{0}", self.notation)

    def written(self) -> re.Pattern[str]:
        """The token as a datacard rule pasted into mathhammer writes it, after :func:`normalise`:
        brackets as spaces, the inch mark optional ("Range 8")."""
        pattern = _pattern(normalise(self.notation))
        return re.compile(pattern + "?" if pattern.endswith('"') else pattern)

    def note(self, groups: tuple[str, ...]) -> str:
        """What a note says of the token set aside: the token (its parameter filled in), then why."""
        note = f"{self.form().format(*groups)}: {self.reason.format(*groups)}"
        return f"{note}; {self.advice}" if self.advice else note


_NAME_AND_NUMBER = re.compile(r"(.+?) (\d+)(\+?)")


def normalise(text: str) -> str:
    """A written rule as the tables look it up: lower case; hyphens, underscores and brackets as
    spaces; one space between words; every inch mark written ``"``."""
    text = re.sub(r"[\u201c\u201d\u2033]|''", '"', text)
    return " ".join(re.sub(r"[-_()]", " ", text.lower()).split())


def _has_parameter(notation: str) -> bool:
    return re.search(rf"\b{PARAMETER}\b", notation) is not None


def _pattern(notation: str) -> str:
    # a notation as a regular expression, the parameter a group of digits
    return re.sub(rf"\b{PARAMETER}\b", r"(\\d+)", re.escape(notation))


def _split(field_name: str, text: Any) -> list[str]:
    if text is None:
        return []
    if not isinstance(text, str):
        raise InputTypeError(field_name,
                             f"expected datacard notation such as 'Lethal 5+, Piercing 1', got {excerpt(text)}")
    check_notation(field_name, text)  # bounded length, no number of more than 6 digits
    return [part.strip() for part in text.split(",") if part.strip()]


@dataclass(frozen=True)
class _Column:
    # one field of a table, with what parsing, printing and checking need
    name: str
    row: Rule
    default: Any


class RuleTable:
    """What a rules table (a dataclass whose fields carry :func:`rule`) reads and writes.

    ``kind``: the profile field errors name ("rules", "abilities"); ``unknown``: the error for a
    name no row knows, given the part as written and the known names.
    """

    def __init__(self, cls: type, kind: str, unknown: Callable[[str, tuple[str, ...]], str]) -> None:
        self.kind = kind
        self._unknown = unknown
        columns = [_Column(f.name, f.metadata["rule"], f.default) for f in dataclasses.fields(cls)
                   if "rule" in f.metadata]
        self.columns: tuple[_Column, ...] = tuple(columns)
        self.known: tuple[str, ...] = tuple(name for c in columns for name in c.row.names())
        self._rows = {c.name: c.row for c in columns}
        # (field, name in errors, kind, low, high, None allowed, named values allowed) per column
        self._checks = tuple((c.name, f"{kind}.{c.name}", c.row.kind, c.row.low, c.row.high, c.default is None,
                              (c.default, *c.row.values)) for c in columns)
        # (field, default, what it prints: {value: notation}, or a format of the parameter)
        self._prints = tuple((c.name, c.default, {v: n.text for v, n in c.row.values.items()} if c.row.values
                              else re.sub(rf"\b{PARAMETER}\b", "{0}", c.row.notation.replace("{", "{{").replace("}", "}}")))
                             for c in columns)
        self._render = self._renderer()
        self._names: dict[str, tuple[str, Any]] = {}  # normalised name -> (field, value)
        self._parameters: dict[str, tuple[str, bool]] = {}  # normalised name -> (field, "+" allowed)
        for c in columns:
            if c.row.kind == "named":
                for value, named in c.row.values.items():
                    for text in (named.text, *named.aliases):
                        self._add(self._names, normalise(text), (c.name, value))
            elif c.row.kind == "flag":
                for text in (c.row.notation, *c.row.aliases):
                    self._add(self._names, normalise(text), (c.name, True))
            else:
                for text in (c.row.notation, *c.row.aliases):
                    head, plus = _parameter_name(text)
                    self._add(self._parameters, head, (c.name, plus))

    @staticmethod
    def _add(names: dict[str, Any], key: str, found: Any) -> None:
        # two rows (or spellings) that read the same would make one of them unreachable
        if key in names:
            raise ValueError(f"the rules table spells {key!r} twice: {names[key]} and {found}")
        names[key] = found

    def default(self, name: str) -> Any:
        """The default of field ``name`` (its value when the rule is not given)."""
        return next(c.default for c in self.columns if c.name == name)

    def rows(self) -> Iterator[tuple[str, Rule]]:
        """(field, row) in print order."""
        for c in self.columns:
            yield c.name, c.row

    def parse(self, text: Any, field_name: str) -> dict[str, Any]:
        """The field values a datacard text sets; a name given twice, two values of a field that do
        not combine, or an unknown name raise InputError under ``field_name``."""
        return self.read(text, field_name)[0]

    def read(self, text: Any, field_name: str, kept: tuple[Kept, ...] = ()) -> tuple[dict[str, Any], tuple[str, ...]]:
        """:meth:`parse`, with the tokens of ``kept`` (they change nothing in one shot or one fight)
        set aside: the field values, and a note on each token set aside (in the order written)."""
        values: dict[str, Any] = {}
        combined: dict[str, list[Any]] = {}
        notes: list[str] = []
        for part in _split(field_name, text):
            key = normalise(part)
            found = self._names.get(key)
            if found is None:
                match = _NAME_AND_NUMBER.fullmatch(key)
                parameter = self._parameters.get(match.group(1)) if match else None
                if match is None or parameter is None or (match.group(3) and not parameter[1]):
                    notes.append(self._set_aside(part, key, field_name, kept))
                    continue
                found = (parameter[0], int(match.group(2)))
            name, value = found
            if self._rows[name].combine:
                combined.setdefault(name, []).append(value)
                continue
            if name in values:
                raise InputError(field_name, f"{excerpt(part)} is given twice (or conflicts with another rule)")
            values[name] = value
        for name, given in combined.items():
            values[name] = self._combined(field_name, self._rows[name], given)
        return values, tuple(notes)

    def _set_aside(self, part: str, key: str, field_name: str, kept: tuple[Kept, ...]) -> str:
        """The note on a token no row reads: a token of ``kept``; anything else (an unknown word) an
        InputError."""
        for token in kept:
            match = token.written().fullmatch(key)
            if match is not None:
                return token.note(match.groups())
        raise InputError(field_name, self._unknown(part, self.known + tuple(t.notation for t in kept)))

    @staticmethod
    def _combined(field_name: str, row: Rule, given: list[Any]) -> Any:
        if len(given) == 1:
            return given[0]
        combos = {frozenset(pair): value for pair, value in row.combine.items()}
        combo = combos.get(frozenset(given)) if len(given) == 2 else None
        if combo is None:
            names = ", ".join(row.values[v].text for v in given)
            pairs = " and ".join(f"'{', '.join(row.values[v].text for v in pair)}'" for pair in row.combine)
            raise InputError(field_name, f"at most one reroll rule is allowed, got {names}; the only combinations are "
                                         f"{pairs}")
        return combo

    def render(self, profile: Any) -> str:
        """The profile's rules in datacard notation, in the table's order."""
        return self._render(profile)

    def _renderer(self) -> Callable[[Any], str]:
        # str() of a profile, compiled from the rows (as dataclasses compiles __init__): every
        # result's label prints its profiles, and attribute reads cost a third of getattr() calls
        lines: list[str] = []
        namespace: dict[str, Any] = {}
        for name, default, printed in self._prints:
            if isinstance(printed, dict):
                namespace[f"_{name}"] = printed
                lines.append(f"if p.{name} != {default!r}: parts.append(_{name}[p.{name}])")
            elif default is None:
                lines.append(f"if p.{name} is not None: parts.append({printed!r}.format(p.{name}))")
            else:
                lines.append(f"if p.{name} != {default!r}: parts.append({printed!r}.format(p.{name}))")
        source = "def render(p):\n    parts = []\n" + "".join(f"    {line}\n" for line in lines)
        source += "    return ', '.join(parts)\n"
        exec(compile(source, f"<render {self.kind}>", "exec"), namespace)  # noqa: S102 (field names only)
        render: Callable[[Any], str] = namespace["render"]
        return render

    def check(self, profile: Any) -> None:
        """Every field's type and range (docs/rules/killteam.md §5), InputError naming it."""
        for name, label, kind, low, high, optional, allowed in self._checks:
            value = getattr(profile, name)
            if kind == "flag":
                if type(value) is not bool:
                    check_bool(label, value)
            elif kind == "parameter" or type(allowed[0]) is int:
                if type(value) is int and low <= value <= high or value is None and optional:
                    continue
                check_int(label, value, low, high)
            elif not isinstance(value, str) or value not in allowed:  # an array has no truth value
                raise InputError(label, f"unknown {name.replace('_', ' ')} {excerpt(value)}; "
                                        f"allowed: {', '.join(allowed)}")

    def markdown(self, title: str) -> str:
        """The table as a Markdown table (docs/rules/killteam.md §9 holds it); the weapon rules' table
        says which rules only one kind of weapon has (how the importer tells an unmarked weapon)."""
        weapons = self.kind == "rules"
        lines = [f"| {title} | parameter | C++ config fields | section | on datacards |{' only on |' if weapons else ''}",
                 f"|---|---|---|---|---|{'---|' if weapons else ''}"]
        for c in self.columns:
            row = c.row
            only = f" {row.weapon_kind + ' weapons' if row.weapon_kind else ''} |" if weapons else ""
            if row.kind == "named":
                for named in row.values.values():
                    spelled = f" (also {', '.join(named.aliases)})" if named.aliases else ""
                    lines.append(f"| {named.text}{spelled} |  | {', '.join(row.engine)} | {row.section} | "
                                 f"{'yes' if named.datacard else ''} |{only}")
                continue
            spelled = f" (also {', '.join(row.aliases)})" if row.aliases else ""
            parameter = f"{row.low}..{row.high}" if row.kind == "parameter" else ""
            lines.append(f"| {row.notation}{spelled} | {parameter} | {', '.join(row.engine)} | {row.section} | "
                         f"{'yes' if row.datacard else ''} |{only}")
        return "\n".join(lines)

    def kind_cues(self) -> Iterator[tuple[str, str, str]]:
        """(pattern of the normalised token, the kind of weapon, the rule's name) of each rule only
        one kind of weapon has (``Rule.weapon_kind``)."""
        for c in self.columns:
            if c.row.weapon_kind and c.row.kind != "named":
                yield _pattern(c.row.notation.lower()), c.row.weapon_kind, _parameter_name(c.row.notation)[0].title()

    def datacard_forms(self) -> Iterator[tuple[str, str]]:
        """(pattern of the normalised token, canonical form with ``{0}`` for the parameter) of each
        rule 2024 datacards write, as the importer matches them (the ``+`` written)."""
        for c in self.columns:
            if c.row.kind == "named":
                for named in c.row.values.values():
                    if named.datacard:
                        yield re.escape(named.text.lower()), named.text
            elif c.row.datacard:
                form = re.sub(rf"\b{PARAMETER}\b", "{0}", c.row.notation)
                yield _pattern(c.row.notation.lower()), form


def rules_page_tables(weapon_rules: RuleTable, abilities: RuleTable, kept: tuple[Kept, ...]) -> str:
    """The tables of docs/rules/killteam.md §9, as tools/rules_table.py writes them there."""
    kept_lines = ["| token (no effect on one shot or fight) | why the engine leaves it out | only on |",
                  "|---|---|---|"]
    for token in kept:
        only = f"{token.weapon_kind} weapons" if token.weapon_kind else ""
        kept_lines.append(f"| {token.notation} | {token.reason.replace('{0}', PARAMETER)} | {only} |")
    return "\n\n".join((weapon_rules.markdown("weapon rule"), abilities.markdown("ability"), "\n".join(kept_lines)))


def _parameter_name(notation: str) -> tuple[str, bool]:
    # "Lethal x+" -> ("lethal", True): the name before the parameter, and whether "+" may follow it
    head = re.sub(rf"\s*\b{PARAMETER}\b\+?$", "", notation)
    return normalise(head), notation.rstrip().endswith("+")

