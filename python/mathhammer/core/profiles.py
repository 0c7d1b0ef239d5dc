"""Profiles as tables of fields: what every game's profile dataclasses share.

A profile (a Kill Team weapon, a StarCraft unit, a Deathburgh miniature, ...) is a frozen
dataclass. As plain TOML/JSON values it is a table of its fields, nested rules and abilities in
datacard notation (:func:`profile_to_dict`); :func:`build_from_fields` makes it back, and
:class:`FieldsProfile` gives a profile class ``to_dict`` / ``from_dict`` through them. Profile
libraries (:mod:`mathhammer.core.game`) and batch arguments given as tables
(:func:`profile_from_table`) are built on these.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any, ClassVar, TypeVar

from mathhammer.core.guard import closest, excerpt, label
from mathhammer.errors import InputError, InputTypeError

__all__ = [
    "FieldsProfile", "build_from_fields", "check_fields", "field_inside", "profile_from_fields",
    "profile_from_table", "profile_to_dict",
]

P = TypeVar("P")


def profile_to_dict(profile: Any) -> dict[str, Any]:
    """The fields of a profile as plain TOML/JSON values (rules and abilities in datacard notation)."""
    if not dataclasses.is_dataclass(profile) or isinstance(profile, type):
        raise InputTypeError("profile", f"expected a profile object, got {type(profile).__name__}")
    out: dict[str, Any] = {}
    for f in dataclasses.fields(profile):
        value = _plain(getattr(profile, f.name))
        if value is not None:
            out[f.name] = value
    return out


def _plain(value: Any) -> Any:
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    if isinstance(value, (tuple, list)):
        return [_plain(v) for v in value]
    if isinstance(value, Mapping):
        return {str(k): _plain(v) for k, v in value.items()}
    if hasattr(value, "value") and isinstance(getattr(value, "value"), (str, int)):  # enums
        return value.value
    if dataclasses.is_dataclass(value) and hasattr(type(value), "parse"):  # rules, abilities
        return str(value)
    if dataclasses.is_dataclass(value):
        return profile_to_dict(value)
    return str(value)


def check_fields(cls: type, data: Mapping[str, Any], kind: str) -> None:
    """Refuse a field the profile class does not have, listing the ones it has."""
    known = {f.name for f in dataclasses.fields(cls)}
    unknown = sorted(label(k) for k in data if k not in known)
    if unknown:
        raise InputError(unknown[0], f"unknown field; {kind} fields are: {', '.join(sorted(known))}")


def build_from_fields(cls: type[P], data: Mapping[str, Any], kind: str) -> P:
    """A profile from its fields as plain TOML/JSON values (lists become tuples where it holds tuples)."""
    check_fields(cls, data, kind)
    required = [f.name for f in dataclasses.fields(cls)  # type: ignore[arg-type]
                if f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING]
    missing = [name for name in required if name not in data]
    if missing:
        raise InputError(missing[0], f"missing; a {kind} needs {', '.join(required)}")
    values = dict(data)
    hints = {f.name: f.default for f in dataclasses.fields(cls)}  # type: ignore[arg-type]
    for name, value in values.items():
        if isinstance(value, list) and (isinstance(hints.get(name), tuple) or name == "damage"):
            values[name] = tuple(tuple(v) if isinstance(v, list) else v for v in value)
    return cls(**values)


def profile_from_fields(cls: type[P], kind: str, data: Mapping[str, Any], references: Mapping[str, str] | None = None,
                        named: Mapping[str, Mapping[str, Any]] | None = None, game: str = "") -> P:
    """Build and validate one profile from its fields (or from ``card = "..."`` datacard notation).

    ``references`` maps a field that may name another profile of the same library to that
    profile's kind; ``named`` ({kind: {name: profile}}) holds the profiles it may name.
    """
    if not isinstance(data, Mapping):
        raise InputTypeError(kind, f"expected a table of fields, got {type(data).__name__}")
    data = dict(data)
    if "card" in data:
        card = data.pop("card")
        parse = getattr(cls, "parse", None)
        if parse is None:
            raise InputError("card", f"{game} {kind} profiles have no datacard notation; give the fields")
        base = profile_to_dict(parse(card))
        base.update(data)
        data = base
    check_fields(cls, data, kind)
    for name, other in (references or {}).items():
        if isinstance(data.get(name), str):
            data[name] = _named(other, data[name], named or {}, name)
    return build_from_fields(cls, data, kind)


def _named(kind: str, name: str, named: Mapping[str, Mapping[str, Any]], field: str) -> Any:
    entries = named.get(kind, {})
    if name in entries:
        return entries[name]
    raise InputError(field, f"no {kind} {excerpt(name)} in the library; its {kind} entries: {closest(name, list(entries))}")


class FieldsProfile:
    """``to_dict`` / ``from_dict`` for a profile dataclass through its fields as plain TOML/JSON
    values (nested rules and abilities as datacard notation), the form profile libraries use."""

    #: The name errors use for this kind of profile.
    KIND: ClassVar[str] = "profile"

    def to_dict(self) -> dict[str, Any]:
        return profile_to_dict(self)

    @classmethod
    def from_dict(cls: type[P], data: Mapping[str, Any]) -> P:
        kind = getattr(cls, "KIND", "profile")
        if not isinstance(data, Mapping):
            raise InputTypeError(kind, f"expected a table of fields, got {type(data).__name__}")
        return build_from_fields(cls, data, kind)


def profile_from_table(cls: type[P], value: Any, what: str, module: str) -> P:
    """``value`` as a ``cls`` profile: the profile itself, or a table of its fields (``cls.from_dict``);
    anything else is InputTypeError naming ``what`` ("expected {module}{cls}", e.g. "a kt.")."""
    if isinstance(value, cls):
        return value
    if isinstance(value, Mapping):
        return cls.from_dict(value)  # type: ignore[attr-defined, no-any-return]
    raise InputTypeError(what, f"expected {module}{cls.__name__} or a table of its fields, got {type(value).__name__}")


def field_inside(what: str, error: InputError) -> InputError:
    """An error from building argument ``what`` (a profile given as a table of its fields) named inside
    it: ``unit.hp: ...`` for the table's ``hp: ...``."""
    if error.field == what:
        return error
    return type(error)(f"{what}.{error.field}", str(error)[len(error.field) + 2:])
