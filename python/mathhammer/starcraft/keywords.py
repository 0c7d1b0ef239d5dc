"""Combat Tags and weapon keywords in card notation (docs/rules/starcraft.md §1).

``parse_keywords('PIERCE Armoured (2), CRITICAL HIT (2), LONG RANGE (18")')`` gives the Weapon fields
they set plus the keywords kept for the record (INDIRECT FIRE, PINPOINT, ...: they decide who may
shoot, not the dice).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from mathhammer._guard import check_notation, excerpt, squeeze
from mathhammer._validate import InputError, InputTypeError, check_int

__all__ = ["KEYWORDS", "TAGS", "ParsedKeywords", "format_keywords", "normalize_tag", "normalize_tags", "parse_keywords"]

TAGS: tuple[str, ...] = ("Armoured", "Biological", "Light", "Mechanical", "Psionic", "Flying", "Ground")
_TAG_ALIASES = {tag.lower(): tag for tag in TAGS} | {"armored": "Armoured"}

MAX_KEYWORD_VALUE = 20

# Keywords that set a Weapon field from "(X)".
_VALUE_KEYWORDS: dict[str, str] = {
    "PRECISION": "precision",
    "CRITICAL HIT": "critical_hit",
    "ANTI-EVADE": "anti_evade",
    "LOCKED IN": "locked_in",
    "CONCENTRATED FIRE": "concentrated_fire",
}
# Keywords accepted and kept that change no maths (they decide who may shoot).
KEPT_KEYWORDS: tuple[str, ...] = ("INDIRECT FIRE", "PINPOINT", "SIDEARM", "SPECIALIST", "BULKY")
KEYWORDS: tuple[str, ...] = (
    "PIERCE",
    "PRECISION",
    "CRITICAL HIT",
    "ANTI-EVADE",
    "BURST FIRE",
    "LOCKED IN",
    "LONG RANGE",
    "CONCENTRATED FIRE",
    "INSTANT",
    *KEPT_KEYWORDS,
)
_KNOWN = ", ".join(KEYWORDS)
_INCHES = r"(\d+)\s*(?:\"|”|“|''|in\b|inches\b)?"


def normalize_tag(field_name: str, value: Any) -> str:
    """A Combat Tag by any capitalisation ('Armored' accepted); unknown tags list the known ones."""
    if not isinstance(value, str):
        raise InputTypeError(field_name, f"expected a Combat Tag name, got {excerpt(value)}")
    tag = _TAG_ALIASES.get(value.strip().lower())
    if tag is None:
        raise InputError(field_name, f"unknown Combat Tag {excerpt(value)}; allowed: {', '.join(TAGS)}")
    return tag


def normalize_tags(field_name: str, value: Any) -> tuple[str, ...]:
    """Tags from a tuple/list or a string such as 'Biological, Light, Ground' (sorted in TAGS order, no repeats)."""
    if value is None:
        return ()
    if isinstance(value, str):
        check_notation(field_name, value)
        items: Iterable[Any] = [part for part in re.split(r"[,;/]|\s+", value) if part.strip()]
    elif isinstance(value, (tuple, list, set, frozenset)):
        items = value
    else:
        raise InputTypeError(field_name, f"expected Combat Tags as a list or 'Light, Ground', got {excerpt(value)}")
    tags = {normalize_tag(field_name, item) for item in items}
    return tuple(tag for tag in TAGS if tag in tags)


@dataclass(frozen=True)
class ParsedKeywords:
    """What a keyword string sets: Weapon field values, and the kept keywords as written (upper case)."""

    fields: dict[str, Any] = field(default_factory=dict)
    kept: tuple[str, ...] = ()


def _split(text: str) -> list[str]:
    # Commas separate keywords; none of them holds a comma inside.
    return [squeeze(part) for part in re.split(r"[,;\n]", text) if part.strip()]


def _value(keyword: str, argument: str, item: str) -> int:
    match = re.fullmatch(r"\(?\s*(\d+)\s*\)?", argument)
    if not match:
        raise InputError("keywords", f"{excerpt(item)}: {keyword} takes a number, written {keyword} (X)")
    field_name = _VALUE_KEYWORDS.get(keyword, keyword.lower().replace(" ", "_"))
    lo = 1 if keyword == "CONCENTRATED FIRE" else 0
    hi = 40 if keyword == "CONCENTRATED FIRE" else MAX_KEYWORD_VALUE
    return check_int(f"keywords ({field_name})", int(match.group(1)), lo, hi)


def parse_keywords(text: str | Iterable[str] | None) -> ParsedKeywords:
    """Parse card notation such as 'PIERCE Armoured (2), BURST FIRE 8" (1), INSTANT' (any capitalisation)."""
    if text is None:
        return ParsedKeywords()
    if not isinstance(text, str):
        if isinstance(text, (list, tuple)) and all(isinstance(t, str) for t in text):
            text = ", ".join(text)
        else:
            raise InputTypeError("keywords", f"expected card notation such as 'PRECISION (1), INSTANT', got {excerpt(text)}")
    # Bounded, and every item's whitespace squeezed (in _split): each pattern below then matches in
    # time linear in the item's length.
    check_notation("keywords", text)
    fields: dict[str, Any] = {}
    kept: list[str] = []
    seen: set[str] = set()
    for item in _split(text):
        normalized = re.sub(r"\s+", " ", item.upper().replace("ANTI EVADE", "ANTI-EVADE"))
        keyword = next((k for k in sorted(KEYWORDS, key=len, reverse=True) if re.match(rf"{re.escape(k)}\b", normalized)), None)
        if keyword is None:
            raise InputError("keywords", f"unknown keyword {excerpt(item)}; known: {_KNOWN}")
        if keyword in seen:
            raise InputError("keywords", f"{keyword} is given twice")
        seen.add(keyword)
        # The argument as written (tags keep their case in messages).
        head = re.match(r"[\s-]*".join(re.escape(w) for w in re.split(r"[\s-]+", keyword)), item.strip(), re.IGNORECASE)
        argument = item.strip()[head.end():].strip() if head else normalized[len(keyword):].strip()
        if keyword == "PIERCE":
            match = re.fullmatch(r"[\[(]?\s*([A-Za-z]+)\s*[\])]?\s*\(?\s*(\d+)\s*\)?", argument)
            if not match:
                raise InputError("keywords", f"{excerpt(item)}: write PIERCE [Tag] (X), e.g. PIERCE Armoured (2)")
            fields["pierce"] = (
                normalize_tag("keywords (pierce tag)", match.group(1)),
                check_int("keywords (pierce)", int(match.group(2)), 0, MAX_KEYWORD_VALUE),
            )
        elif keyword in _VALUE_KEYWORDS:
            fields[_VALUE_KEYWORDS[keyword]] = _value(keyword, argument, item)
        elif keyword == "BURST FIRE":
            match = re.fullmatch(rf"(?:\(?\s*{_INCHES}\s*\)?)?\s*\(\s*(\d+)\s*\)", argument)
            if not match:
                raise InputError("keywords", f"{excerpt(item)}: write BURST FIRE Y\" (X), e.g. BURST FIRE 8\" (1)")
            fields["burst_fire"] = check_int("keywords (burst_fire)", int(match.group(2)), 0, MAX_KEYWORD_VALUE)
        elif keyword == "LONG RANGE":
            if argument and not re.fullmatch(rf"\(?\s*{_INCHES}\s*\)?", argument):
                raise InputError("keywords", f"{excerpt(item)}: write LONG RANGE (X\"), e.g. LONG RANGE (18\")")
            fields["long_range"] = True
        elif keyword == "INSTANT":
            if argument:
                raise InputError("keywords", f"{excerpt(item)}: INSTANT takes no value")
            fields["instant"] = True
        else:  # kept as written
            kept.append(f"{keyword} {argument}".strip())
    return ParsedKeywords(fields, tuple(kept))


def format_keywords(weapon: Any) -> str:
    """Card notation of every keyword a Weapon carries (ranges of BURST FIRE / LONG RANGE are not stored)."""
    parts: list[str] = []
    if weapon.pierce is not None:
        parts.append(f"PIERCE {weapon.pierce[0]} ({weapon.pierce[1]})")
    for keyword, name in (("PRECISION", "precision"), ("CRITICAL HIT", "critical_hit"), ("ANTI-EVADE", "anti_evade")):
        if getattr(weapon, name):
            parts.append(f"{keyword} ({getattr(weapon, name)})")
    if weapon.burst_fire:
        parts.append(f"BURST FIRE ({weapon.burst_fire})")
    if weapon.locked_in:
        parts.append(f"LOCKED IN ({weapon.locked_in})")
    if weapon.long_range:
        parts.append("LONG RANGE")
    if weapon.concentrated_fire is not None:
        parts.append(f"CONCENTRATED FIRE ({weapon.concentrated_fire})")
    if weapon.instant:
        parts.append("INSTANT")
    parts.extend(weapon.kept_keywords)
    return ", ".join(parts)
