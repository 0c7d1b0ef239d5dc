"""Deathburgh miniatures and combat sides (docs/rules/deathburgh.md §1 and §3) and their notation; a
miniature may also be named by one of the example profiles (:data:`EXAMPLES`)."""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from mathhammer.core.guard import check_notation, excerpt, squeeze
from mathhammer.deathburgh.catalog import CARDS
from mathhammer.core.checks import check_bool, check_choice, check_int, check_stat
from mathhammer.errors import InputError, InputTypeError

__all__ = [
    "EXAMPLES",
    "MAX_DICE",
    "MAX_WOUNDS",
    "MODES",
    "REROLLS",
    "ROLES",
    "Miniature",
    "Side",
    "as_miniature",
    "example",
]

MAX_DICE = 20
MAX_WOUNDS = 20
MAX_BONUS = 20
ROLES = ("melee", "ranged")
MODES = ("aggressive", "defensive")
REROLLS = ("none", "all_fails", "one_fail")

# "A 4/4+ D 5/3+ W 5" (the rules site) and "P 4 A +4 V 4 D +4 W 3" (the alpha PDFs).
_WEB_NOTATION = re.compile(
    r"^\s*A\s*(\d+)\s*/\s*\+?(\d+)\+?\s*,?\s*D\s*(\d+)\s*/\s*\+?(\d+)\+?\s*,?\s*W\s*(\d+)\s*$", re.IGNORECASE
)
_ALPHA_NOTATION = re.compile(
    r"^\s*P\s*(\d+)\s*,?\s*A\s*\+?(\d+)\+?\s*,?\s*V\s*(\d+)\s*,?\s*D\s*\+?(\d+)\+?\s*,?\s*W\s*(\d+)\s*$", re.IGNORECASE
)


@dataclass(frozen=True)
class Miniature:
    """A miniature's profile: A / D dice in Aggressive / Defensive mode, their target numbers, wounds.

    ``A_plus`` and ``D_plus`` are target numbers 2..6 (``4`` or ``"4+"``); ``role`` is ``"melee"`` or
    ``"ranged"`` (ranged only with a ranged weapon). ``Miniature.parse("A 4/4+ D 5/3+ W 5")`` reads the
    rules site's notation and the alpha PDFs' ``"P 4 A +4 V 4 D +4 W 3"``.
    """

    A: int
    A_plus: int
    D: int
    D_plus: int
    W: int
    role: str = "melee"
    name: str = ""

    def __post_init__(self) -> None:
        set_field = object.__setattr__
        set_field(self, "A", check_int("A", self.A, 0, MAX_DICE))
        set_field(self, "A_plus", check_stat("A_plus", self.A_plus))
        set_field(self, "D", check_int("D", self.D, 0, MAX_DICE))
        set_field(self, "D_plus", check_stat("D_plus", self.D_plus))
        set_field(self, "W", check_int("W", self.W, 1, MAX_WOUNDS))
        set_field(self, "role", check_choice("role", self.role, ROLES))
        if not isinstance(self.name, str):
            raise InputTypeError("name", f"expected a string, got {excerpt(self.name)}")

    @classmethod
    def parse(cls, text: str, role: str = "melee", name: str = "") -> Miniature:
        """Read ``"A 4/4+ D 5/3+ W 5"`` or the alpha ``"P 4 A +4 V 4 D +4 W 3"`` (P→A, A→A+, V→D, D→D+)."""
        if not isinstance(text, str):
            raise InputTypeError("profile", f"expected a string like 'A 4/4+ D 5/3+ W 5', got {excerpt(text)}")
        # squeezed first: the patterns' runs of \s* then match in linear time
        squeezed = squeeze(check_notation("profile", text))
        match = _WEB_NOTATION.match(squeezed) or _ALPHA_NOTATION.match(squeezed)
        if match is None:
            raise InputError(
                "profile",
                f"cannot read {excerpt(text)}; write 'A 4/4+ D 5/3+ W 5' (rules site) or 'P 4 A +4 V 4 D +4 W 3' (alpha)",
            )
        a, a_plus, d, d_plus, w = (int(g) for g in match.groups())
        return cls(A=a, A_plus=a_plus, D=d, D_plus=d_plus, W=w, role=role, name=name)

    @property
    def notation(self) -> str:
        """The rules site's notation, e.g. ``"A 4/4+ D 5/3+ W 5"``."""
        return f"A {self.A}/{self.A_plus}+ D {self.D}/{self.D_plus}+ W {self.W}"

    def dice(self, mode: str) -> tuple[int, int]:
        """(dice, target) for a mode: ``"aggressive"`` → (A, A_plus), ``"defensive"`` → (D, D_plus)."""
        mode = check_choice("mode", mode, MODES)
        return (self.A, self.A_plus) if mode == "aggressive" else (self.D, self.D_plus)

    def to_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Miniature:
        """From the fields above; or ``card = "A 4/4+ D 4/4+ W 3"`` (notation) or ``example = "Bandit
        Brute"``, either with optional ``role`` and ``name``."""
        if not isinstance(data, Mapping):
            raise InputTypeError("miniature", f"expected a table of fields, got {excerpt(data)}")
        known = {f.name for f in dataclasses.fields(cls)} | {"card", "example"}
        _check_keys("miniature", data, known)
        for source in ("card", "example"):
            if source in data:
                extra = set(data) - {source, "role", "name"}
                if extra:
                    raise InputError("miniature", f"give '{source}' or the fields A..W, not both (got {sorted(extra)})")
                base = cls.parse(data[source]) if source == "card" else example(data[source])
                return cls(**{**base.to_dict(), **{k: v for k, v in data.items() if k != source}})
        missing = [k for k in ("A", "A_plus", "D", "D_plus", "W") if k not in data]
        if missing:
            raise InputError("miniature", f"missing {', '.join(missing)} (or give 'card' or 'example')")
        return cls(**data)

    def __str__(self) -> str:
        label = f"{self.name}: " if self.name else ""
        return f"{label}{self.notation} ({self.role})"


@dataclass(frozen=True)
class Side:
    """One side of a combat: a miniature, its mode and what it brings (docs/rules/deathburgh.md §3).

    Each bonus is one instant 6!: ``charge`` (attacker, target more than 2" away when declared),
    ``support`` (one per supporting ally, melee only), ``full_visibility`` / ``steady_aim`` (a ranged
    attack), ``take_cover`` / ``get_down`` (dodging a ranged attack), ``zig_zag`` (alpha: dodging a
    ranged attack in Defensive mode), ``instant6`` / ``instant1`` (any other 6! / 1!).
    ``souls_dice`` turns dice into 6! (up to the combat's ``souls_limit``), ``extra_dice`` adds
    rolled dice, ``reroll`` is ``"none"``, ``"all_fails"`` or ``"one_fail"``. ``wounds`` is the
    current wounds (default W). ``auto_hits`` (attacker only) replaces the roll by that many successes.
    """

    mini: Miniature
    mode: str = "aggressive"
    charge: bool = False
    support: int = 0
    full_visibility: bool = False
    steady_aim: bool = False
    take_cover: bool = False
    get_down: bool = False
    zig_zag: bool = False
    instant6: int = 0
    instant1: int = 0
    souls_dice: int = 0
    extra_dice: int = 0
    reroll: str = "none"
    wounds: int | None = None
    auto_hits: int | None = None

    def __post_init__(self) -> None:
        set_field = object.__setattr__
        set_field(self, "mini", as_miniature("mini", self.mini))
        set_field(self, "mode", check_choice("mode", self.mode, MODES))
        for flag in ("charge", "full_visibility", "steady_aim", "take_cover", "get_down", "zig_zag"):
            set_field(self, flag, check_bool(flag, getattr(self, flag)))
        for count in ("support", "instant6", "instant1", "souls_dice", "extra_dice"):
            set_field(self, count, check_int(count, getattr(self, count), 0, MAX_BONUS))
        set_field(self, "reroll", check_choice("reroll", self.reroll, REROLLS))
        if self.wounds is not None:
            set_field(self, "wounds", check_int("wounds", self.wounds, 0, self.mini.W))
        if self.auto_hits is not None:
            set_field(self, "auto_hits", check_int("auto_hits", self.auto_hits, 0, MAX_DICE))

    @property
    def current_wounds(self) -> int:
        """Wounds the miniature has now: ``wounds``, or W when not given."""
        return self.mini.W if self.wounds is None else self.wounds

    def replace(self, **changes: Any) -> Side:
        """A copy with some fields changed (validated again)."""
        _check_keys("side", changes, SIDE_FIELDS)
        return dataclasses.replace(self, **changes)

    def to_dict(self) -> dict[str, Any]:
        out = {f.name: getattr(self, f.name) for f in dataclasses.fields(self)}
        out["mini"] = self.mini.to_dict()
        return out

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Side:
        if not isinstance(data, Mapping):
            raise InputTypeError("side", f"expected a table of fields, got {excerpt(data)}")
        _check_keys("side", data, SIDE_FIELDS)
        if "mini" not in data:
            raise InputError("side", "missing 'mini'")
        return cls(**data)


SIDE_FIELDS: tuple[str, ...] = tuple(f.name for f in dataclasses.fields(Side))
#: The options a side brings to a combat, beyond its miniature (also the keys of a round's per-combat options).
SIDE_OPTIONS: tuple[str, ...] = tuple(name for name in SIDE_FIELDS if name not in ("mini", "wounds"))


def _check_keys(field: str, data: Mapping[str, Any], known: Iterable[str]) -> None:
    known = list(known)
    unknown = [k for k in data if k not in known]
    if unknown:
        raise InputError(field, f"unknown key(s) {', '.join(map(repr, unknown))}; known: {', '.join(known)}")


# --- the example profiles (catalog.py's cards as miniatures) -------------------------------------------
#: The sample warbands' profiles by name (docs/rules/deathburgh.md §9; see :mod:`mathhammer.deathburgh.catalog`).
EXAMPLES: dict[str, Miniature] = {name: Miniature.parse(card, role=role, name=name) for name, (card, role) in CARDS.items()}


def example(name: str) -> Miniature:
    """One of :data:`EXAMPLES` by name (case-insensitive)."""
    if isinstance(name, str):
        for key, mini in EXAMPLES.items():
            if key.lower() == name.strip().lower():
                return mini
    raise InputError("name", f"unknown example {excerpt(name)}; known: {', '.join(EXAMPLES)}")


# --- a miniature from whatever names one ---------------------------------------------------------------
def as_miniature(field: str, value: Any) -> Miniature:
    """A Miniature from a Miniature, an example name, notation (``"A 4/4+ D 4/4+ W 3"``) or a table
    of fields (see :meth:`Miniature.from_dict`)."""
    if isinstance(value, Miniature):
        return value
    if isinstance(value, str):
        for name, mini in EXAMPLES.items():
            if name.lower() == value.strip().lower():
                return mini
        try:
            return Miniature.parse(value)
        except InputError:
            raise InputError(field, f"{excerpt(value)} is neither an example ({', '.join(EXAMPLES)}) nor a profile like "
                             "'A 4/4+ D 4/4+ W 3'") from None
    if isinstance(value, Mapping):
        try:
            return Miniature.from_dict(value)
        except InputError as error:
            raise type(error)(f"{field}.{error.field}", str(error).split(": ", 1)[1]) from error
    raise InputTypeError(field, f"expected a Miniature, an example name or a profile like 'A 4/4+ D 4/4+ W 3', got {excerpt(value)}")
