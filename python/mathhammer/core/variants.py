"""Rule variants: each game's switches where players read its rules differently.

Each game's rule switches are one frozen dataclass, ``<game>.Variants`` (a subclass of
:class:`Variants`), passed to every engine function as ``variants=``: a ``Variants``, a mapping of
its field names, a preset name, or the text ``"field=value,field=value"`` (what ``--variants`` on
the command line passes). Each game's rules page (docs/rules/) names its switches and defaults.
"""

from __future__ import annotations

import dataclasses
import typing
from collections.abc import Mapping
from typing import Any, ClassVar, TypeVar

from mathhammer.core.guard import check_notation, did_you_mean, excerpt, label
from mathhammer.errors import InputError, InputTypeError

__all__ = ["Variants", "check_switches"]

V = TypeVar("V", bound="Variants")


@dataclasses.dataclass(frozen=True)
class Variants:
    """Base of every game's rule switches (``kt.Variants``, ``sc.Variants``, ``db.Variants``,
    ``fm.Variants``): a frozen dataclass whose fields are the switches and whose defaults are the
    readings of the game's rules page. ``PRESETS`` maps a preset name to its switches."""

    PRESETS: ClassVar[Mapping[str, Mapping[str, Any]]] = {}
    GAME: ClassVar[str] = ""

    @classmethod
    def field_names(cls) -> tuple[str, ...]:
        return tuple(f.name for f in dataclasses.fields(cls))

    def to_dict(self) -> dict[str, Any]:
        return {name: getattr(self, name) for name in self.field_names()}

    @classmethod
    def from_dict(cls: type[V], data: Mapping[str, Any], field: str = "variants") -> V:
        if not isinstance(data, Mapping):
            raise InputTypeError(field or "variants", f"expected a mapping of switches, got {type(data).__name__}")
        names = cls.field_names()
        for key in data:
            if key not in names:
                allowed = ", ".join(names) if names else "none (this game has no switches yet)"
                raise InputError(_dotted(field, label(key)), f"unknown rule variant{did_you_mean(key, cls.field_names())}; "
                                                             f"allowed: {allowed}")
        try:
            return cls(**dict(data))
        except InputError as error:
            inner = error.field.split(".")[-1]
            message = str(error)[len(error.field) + 2:]
            raise type(error)(_dotted(field, inner), message) from None

    @classmethod
    def resolve(cls: type[V], value: Any, field: str = "variants") -> V:
        """A ``Variants`` from None (the defaults), itself, a mapping of switches, a preset name, or
        the text ``"field=value,field=value"``."""
        if value is None:
            # the defaults, built (and checked) once per class: frozen, so one instance serves every call
            default = _DEFAULT_VARIANTS.get(cls)
            if default is None:
                default = _DEFAULT_VARIANTS[cls] = cls()
            return default  # type: ignore[return-value]
        if isinstance(value, cls):
            return value
        if isinstance(value, Variants):
            raise InputTypeError(field, f"expected {cls.__qualname__} of this game, got {type(value).__qualname__}")
        if isinstance(value, Mapping):
            return cls.from_dict(value, field)
        if isinstance(value, str):
            return cls._from_text(value, field)
        raise InputTypeError(
            field, f"expected None, a preset name, a mapping of switches or {cls.__qualname__}(...), got {excerpt(value)}"
        )

    @classmethod
    def _from_text(cls: type[V], text: str, field: str) -> V:
        key = check_notation(field, text).strip().lower()  # bounded: no 5,000-digit switch value
        if key in cls.PRESETS:
            return cls.from_dict(cls.PRESETS[key], field)
        if "=" not in text:
            presets = ", ".join(cls.PRESETS) if cls.PRESETS else "none yet"
            raise InputError(
                field, f"unknown preset {excerpt(text)}; presets: {presets}; or write switches as 'field=value,field=value' "
                f"(fields: {', '.join(cls.field_names()) or 'none'})"
            )
        hints = typing.get_type_hints(cls)
        data: dict[str, Any] = {}
        for part in text.split(","):
            if not part.strip():
                continue
            name, sep, raw = part.partition("=")
            name = name.strip()
            if not sep or not name:
                raise InputError(field, f"{excerpt(part.strip())} is not 'field=value'")
            if name not in hints or name in ("PRESETS", "GAME"):
                cls.from_dict({name: None}, field)  # raises the unknown-switch error listing the fields
            if name in data:  # the last would win silently
                raise InputError(_dotted(field, name), "is given twice; give each switch once")
            data[name] = _parse_switch(f"{field}.{name}", raw.strip(), hints[name])
        return cls.from_dict(data, field)


_DEFAULT_VARIANTS: dict[type[Variants], Variants] = {}


def _dotted(field: str, name: str) -> str:
    return f"{field}.{name}" if field else name


def _parse_switch(field: str, raw: str, hint: Any) -> Any:
    """A switch value written as text: booleans as true/false (yes/no, on/off, 1/0), integers as digits."""
    if hint is bool:
        lowered = raw.lower()
        if lowered in ("true", "yes", "on", "1"):
            return True
        if lowered in ("false", "no", "off", "0"):
            return False
        raise InputError(field, f"{excerpt(raw)} is not true or false")
    if hint is int:
        if not raw.isdecimal() or len(raw) > 6:
            raise InputError(field, f"{excerpt(raw)} is not a whole number")
        return int(raw)
    return raw


def check_switches(variants_cls: type[V], variants: Any, switches: Mapping[str, Any]) -> V:
    """The variants of a function that also takes some switches as plain keywords (``rules=`` in
    StarCraft, ``edition=`` ... in Deathburgh, ``winner_damage=`` ... in Force melee).

    ``switches`` holds the keywords the caller gave (None = not given). Giving both a switch keyword
    and ``variants=`` is an error: one of them would be silently ignored.
    """
    given = {name: value for name, value in switches.items() if value is not None}
    if given and variants is not None:
        name = next(iter(given))
        raise InputError(name, f"give the switch either as {name}= or inside variants=, not both")
    if given:
        return variants_cls.from_dict(given, "")
    return variants_cls.resolve(variants)
