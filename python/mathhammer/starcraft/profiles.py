"""StarCraft TMG profiles and their card notation: Weapon, Unit, the Combat Tags and weapon keywords,
and a Batch of a sequence with its options.

``parse_keywords('PIERCE Armoured (2), CRITICAL HIT (2), LONG RANGE (18")')`` gives the Weapon fields
keywords set plus the keywords kept for the record (INDIRECT FIRE, PINPOINT, ...: they decide who may
shoot, not the dice; docs/rules/starcraft.md §1). Ranges follow docs/rules/starcraft.md §10. Every
check raises ``InputError`` / ``InputTypeError`` whose message starts with the field name and says
what is allowed.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from mathhammer.core.checks import check_bool, check_int, check_stat
from mathhammer.core.guard import check_notation, excerpt, squeeze
from mathhammer.core.profiles import FieldsProfile, profile_to_dict
from mathhammer.errors import InputError, InputTypeError

__all__ = [
    "ATTACK_KWARGS", "KEYWORDS", "MAX_DAMAGE", "MAX_KEYWORD", "MAX_MODELS", "SURGE_DICE", "TAGS", "Batch",
    "BatchOptions", "ParsedKeywords", "Unit", "Weapon", "format_keywords", "normalize_tag", "normalize_tags",
    "parse_keywords",
]

# --- Combat Tags and weapon keywords (docs/rules/starcraft.md §1) -----------------------------------

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


# --- profiles -----------------------------------------------------------------------------------

SURGE_DICE: tuple[str, ...] = ("D3", "D3+1", "D6")
MAX_ROA = 30
MAX_DAMAGE = 20
MAX_KEYWORD = 20
MAX_MODELS = 40
MAX_HP = 30
MAX_SHIELD = 20
MAX_SIZE = 20

_NULL_VALUES = ("-", "–", "—", "none", "null", "")


def _optional_int(name: str, value: Any, lo: int, hi: int) -> int | None:
    return None if value is None else check_int(name, value, lo, hi)


def _roa(value: Any) -> tuple[int, bool]:
    """RoA as an int, or card notation 'BT+4' / 'BT' for a template weapon (returns roa, template)."""
    if isinstance(value, str):
        text = check_notation("roa", value).strip().upper().replace(" ", "")
        match = re.fullmatch(r"BT(?:\+(\d+))?", text)
        if match:
            return check_int("roa", int(match.group(1) or 0), 0, MAX_ROA), True
        if text.isdecimal():  # int() accepts exactly these (not "²")
            return check_int("roa", int(text), 0, MAX_ROA), False
        raise InputError("roa", f"{excerpt(value)} is not a Rate of Attack; write 2, or 'BT+4' for a template weapon (0..{MAX_ROA})")
    return check_int("roa", value, 0, MAX_ROA), False


def _surge_dice(value: Any) -> str | None:
    """None, 'D3', 'D3+1', 'D6'; 'BT' (a template's Surge) reads as None."""
    if value is None:
        return None
    if not isinstance(value, str):
        raise InputTypeError("surge_dice", f"expected one of None, {', '.join(SURGE_DICE)}, got {excerpt(value)}")
    text = check_notation("surge_dice", value).strip().upper().replace(" ", "")
    if text in ("BT", *(_NULL_VALUES)):
        return None
    if text not in SURGE_DICE:
        raise InputError("surge_dice", f"unknown Surge die {excerpt(value)}; allowed: None, {', '.join(SURGE_DICE)}")
    return text


def _pierce(value: Any) -> tuple[str, int] | None:
    if value is None:
        return None
    if isinstance(value, str):
        # squeezed first: the pattern's runs of \s* then match in linear time
        match = re.fullmatch(r"([A-Za-z]+) ?[:(]? ?(\d+) ?\)?", squeeze(check_notation("pierce", value)))
        if not match:
            raise InputError("pierce", f"{excerpt(value)}: write (tag, X) or 'Armoured 2'")
        value = (match.group(1), int(match.group(2)))
    if isinstance(value, dict):
        value = (value.get("tag"), value.get("x", value.get("damage")))
    if not isinstance(value, (tuple, list)) or len(value) != 2:
        raise InputTypeError("pierce", f"expected (tag, X) such as ('Armoured', 2), got {excerpt(value)}")
    return normalize_tag("pierce", value[0]), check_int("pierce", value[1], 0, MAX_DAMAGE)


@dataclass(frozen=True)
class Weapon(FieldsProfile):
    """A weapon profile (docs/rules/starcraft.md §1).

    roa: Rate of Attack per model (0..30); 'BT+4' reads as a template weapon with roa 4.
    hit: target number 2..6 ('3+' accepted). damage: per die 0..20.
    surge_tags / surge_dice: the Surge line, e.g. ('Light',) and 'D3'. A template weapon
    (template=True) has surge_dice None: its Surge result is the number of affected models.
    keywords: card notation ('PIERCE Armoured (2), CRITICAL HIT (2), LONG RANGE (18")'); it sets the
    same fields as the arguments below, and a field given both ways must agree.
    """

    KIND = "weapon"

    roa: int
    hit: int
    damage: int
    surge_tags: tuple[str, ...] = ()
    # (the constructor also takes roa as 'BT+4', hit as '3+', tags as 'Light, Armoured' text)
    surge_dice: str | None = None
    template: bool = False
    keywords: str = ""
    pierce: tuple[str, int] | None = None
    precision: int = 0
    critical_hit: int = 0
    anti_evade: int = 0
    burst_fire: int = 0
    locked_in: int = 0
    long_range: bool = False
    concentrated_fire: int | None = None
    instant: bool = False
    name: str = ""

    def __post_init__(self) -> None:
        def put(name: str, value: Any) -> None:  # a frozen dataclass sets its fields this way
            object.__setattr__(self, name, value)

        roa, bt = _roa(self.roa)
        put("roa", roa)
        put("template", check_bool("template", self.template) or bt)
        put("hit", check_stat("hit", self.hit))
        put("damage", check_int("damage", self.damage, 0, MAX_DAMAGE))
        put("surge_tags", normalize_tags("surge_tags", self.surge_tags))
        put("surge_dice", _surge_dice(self.surge_dice))
        put("pierce", _pierce(self.pierce))
        for name in ("precision", "critical_hit", "anti_evade", "burst_fire", "locked_in"):
            put(name, check_int(name, getattr(self, name), 0, MAX_KEYWORD))
        put("long_range", check_bool("long_range", self.long_range))
        put("concentrated_fire", _optional_int("concentrated_fire", self.concentrated_fire, 1, MAX_MODELS))
        put("instant", check_bool("instant", self.instant))
        if not isinstance(self.name, str):
            raise InputTypeError("name", f"expected a string, got {excerpt(self.name)}")

        keywords = self.keywords
        if isinstance(keywords, (list, tuple)):
            if not all(isinstance(k, str) for k in keywords):
                raise InputTypeError("keywords", f"expected keyword texts such as 'PIERCE Armoured (1)', got "
                                                 f"{excerpt(keywords)}")
            keywords = ", ".join(keywords)
        parsed = parse_keywords(keywords)
        put("keywords", "" if keywords is None else keywords.strip())
        defaults = {"pierce": None, "long_range": False, "instant": False, "concentrated_fire": None}
        for name, value in parsed.fields.items():
            direct = getattr(self, name)
            if direct == defaults.get(name, 0):
                put(name, value)
            elif direct != value:
                raise InputError(name, f"{excerpt(direct)} given directly but the keywords say {excerpt(value)}; give it once")
        object.__setattr__(self, "_kept", parsed.kept)

        if self.template and self.surge_dice is not None:
            raise InputError("surge_dice", "a template weapon rolls no Surge die (its Surge is the affected models); allowed: None")
        if not self.template and self.surge_tags and self.surge_dice is None:
            raise InputError("surge_dice", f"Surge tags {', '.join(self.surge_tags)} need a Surge die; allowed: {', '.join(SURGE_DICE)}")
        # A Surge die with no Combat Tags is allowed (surge_tags=() by default, the reference
        # calculator's default weapon): its Surge never matches a target, so it never rolls.

    @property
    def kept_keywords(self) -> tuple[str, ...]:
        """Keywords kept for the record that change no maths (INDIRECT FIRE, PINPOINT, SIDEARM, ...)."""
        return getattr(self, "_kept", ())

    @property
    def card_keywords(self) -> str:
        """Every keyword of the weapon in card notation."""
        return format_keywords(self)

    def __str__(self) -> str:
        roa = f"BT+{self.roa}" if self.template else str(self.roa)
        surge = "BT" if self.template else (self.surge_dice or "-")
        tags = ", ".join(self.surge_tags) or "-"
        text = f"{self.name + ': ' if self.name else ''}RoA {roa}, Hit {self.hit}+, Surge {tags} {surge}, Dmg {self.damage}"
        keywords = self.card_keywords
        return f"{text}, {keywords}" if keywords else text


def _evade(value: Any) -> int | None:
    if value is None or (isinstance(value, str) and value.strip().lower() in _NULL_VALUES):
        return None
    return check_stat("evade", value)


@dataclass(frozen=True)
class Unit(FieldsProfile):
    """A target unit and its state before the attack (docs/rules/starcraft.md §1).

    models 1..40 (models left), hp 1..30, armour 2..6, evade 2..6 or None (the Null value '-': never
    evades), shield 0..20 (added to the first model's HP), tags (Combat Tags), size (for Aftershock),
    tough 0..20. State: marker (Damage Marker, 0..total HP), shielded (None: shield > 0),
    first_model_alive (the model that carries the Shield).
    """

    KIND = "unit"

    models: int
    hp: int
    armour: int
    evade: int | None = None
    shield: int = 0
    tags: tuple[str, ...] = ()
    size: int | None = None
    tough: int = 0
    marker: int = 0
    shielded: bool | None = None
    first_model_alive: bool = True
    name: str = ""

    def __post_init__(self) -> None:
        def put(name: str, value: Any) -> None:  # a frozen dataclass sets its fields this way
            object.__setattr__(self, name, value)

        put("models", check_int("models", self.models, 1, MAX_MODELS))
        put("hp", check_int("hp", self.hp, 1, MAX_HP))
        put("armour", check_stat("armour", self.armour))
        put("evade", _evade(self.evade))
        put("shield", check_int("shield", self.shield, 0, MAX_SHIELD))
        put("tags", normalize_tags("tags", self.tags))
        put("size", _optional_int("size", self.size, 1, MAX_SIZE))
        put("tough", check_int("tough", self.tough, 0, MAX_KEYWORD))
        put("first_model_alive", check_bool("first_model_alive", self.first_model_alive))
        put("marker", check_int("marker", self.marker, 0, self.total_hp))
        if self.shielded is None:
            put("shielded", self.shield > 0 and self.first_model_alive)
        else:
            put("shielded", check_bool("shielded", self.shielded))
            if self.shielded and self.shield == 0:
                raise InputError("shielded", "a unit without a Shield value cannot be Shielded; allowed: False")
            if self.shielded and not self.first_model_alive:
                raise InputError("shielded", "Shielded is lost with the first model; allowed: False when first_model_alive is False")
        if not isinstance(self.name, str):
            raise InputTypeError("name", f"expected a string, got {excerpt(self.name)}")

    @property
    def total_hp(self) -> int:
        """HP left in the unit before the marker: models x HP, plus the Shield while the first model lives."""
        return self.models * self.hp + (self.shield if self.first_model_alive else 0)

    def __str__(self) -> str:
        evade = "-" if self.evade is None else f"{self.evade}+"
        text = f"{self.name + ': ' if self.name else ''}{self.models} models, HP {self.hp}"
        if self.shield:
            text += f", Shield {self.shield}"
        text += f", Armour {self.armour}+, Evade {evade}"
        if self.tags:
            text += f", {', '.join(self.tags)}"
        if self.tough:
            text += f", TOUGH ({self.tough})"
        return text


@dataclass(frozen=True)
class BatchOptions:
    """The options of one batch besides its weapon and target (docs/rules/starcraft.md §3, §10):
    ``sc.attack`` and ``sc.Batch`` take them as keywords, checked when the batch is planned.

    mode ("weapon" | "spillover" | "hits"), firing_models, long_range_models, burst_models,
    target_stationary, affected_models (a template's models under it), hits=(X, Y) (HITS X (Y)),
    roa_mod, dice_mod, hit_mod, armour_mod, evade_mod; the X-keyword grants anti_evade, precision,
    critical_hit, dodge, tough (an int, or a list of grants from several sources combined by
    ``rules.stacking``); evade_eligible; damage_set (an int or "size"), damage_cap, td_reduction,
    td_floor; visible_models, engaged; reaction={dodge, tough, damage_cap, td_reduction, td_floor}.
    """

    mode: str = "weapon"
    firing_models: int = 1
    long_range_models: int = 0
    burst_models: int | None = None
    target_stationary: bool = False
    affected_models: int | None = None
    hits: Any = None
    roa_mod: int = 0
    dice_mod: int = 0
    hit_mod: int = 0
    armour_mod: int = 0
    evade_mod: int = 0
    anti_evade: Any = 0
    precision: Any = 0
    critical_hit: Any = 0
    dodge: Any = 0
    tough: Any = 0
    evade_eligible: bool | None = None
    damage_set: Any = None
    damage_cap: Any = None
    td_reduction: Any = 0
    td_floor: Any = 0
    visible_models: int | None = None
    engaged: bool = False
    reaction: Any = None


#: Keyword arguments of sc.attack that describe the batch (sc.Batch takes the same): BatchOptions' fields.
ATTACK_KWARGS: tuple[str, ...] = tuple(f.name for f in dataclasses.fields(BatchOptions))


class Batch:
    """One batch of a sequence: a weapon (None in HITS mode) and the keyword arguments of sc.attack."""

    __slots__ = ("weapon", "kwargs")

    def __init__(self, weapon: Weapon | None, **kwargs: Any) -> None:
        unknown = sorted(str(key) for key in kwargs if key not in ATTACK_KWARGS)
        if unknown:
            raise InputError(unknown[0], f"not a batch option; allowed: {', '.join(ATTACK_KWARGS)}")
        if weapon is not None and not isinstance(weapon, Weapon):
            raise InputTypeError("weapon", f"expected sc.Weapon or None, got {type(weapon).__name__}")
        self.weapon = weapon
        self.kwargs = dict(kwargs)

    def to_dict(self) -> dict[str, Any]:
        """The weapon's fields (None in HITS mode) and the batch's sc.attack options, as plain values."""
        return {"weapon": None if self.weapon is None else profile_to_dict(self.weapon), **self.kwargs}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Batch:
        """The inverse of :meth:`to_dict`: ``weapon`` as a table of fields (or None), then the options."""
        if not isinstance(data, Mapping):
            raise InputTypeError("batch", f"expected a table with weapon and sc.attack options, got {type(data).__name__}")
        options = dict(data)
        weapon = options.pop("weapon", None)
        if weapon is not None and not isinstance(weapon, Weapon):
            weapon = Weapon.from_dict(weapon)
        return cls(weapon, **options)

    def __repr__(self) -> str:
        options = ", ".join(f"{k}={v!r}" for k, v in self.kwargs.items())
        return f"Batch({self.weapon!r}{', ' + options if options else ''})"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Batch):
            return NotImplemented
        return self.weapon == other.weapon and self.kwargs == other.kwargs

    __hash__ = None  # type: ignore[assignment]
