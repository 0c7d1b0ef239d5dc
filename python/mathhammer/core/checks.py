"""Input checks shared by every game: each failure names the field, the value and what is allowed.

Validation happens in Python before any C++ runs, so the core never sees an invalid config.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

import numpy as np

from mathhammer.core.guard import check_notation, did_you_mean, excerpt
from mathhammer.errors import InputError, InputTypeError

__all__ = ["check_bool", "check_choice", "check_int", "check_stat", "integer_span"]


def check_int(field: str, value: Any, lo: int, hi: int | None = None) -> int:
    """An integer in lo..hi (hi None: no upper bound). Bools and floats are refused."""
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise InputTypeError(field, f"expected an integer, got {excerpt(value)} ({type(value).__name__})")
    number = int(value)
    if number < lo or (hi is not None and number > hi):
        allowed = f"{lo}..{hi}" if hi is not None else f">= {lo}"
        raise InputError(field, f"{excerpt(number)} is out of range; allowed {allowed}")
    return number


def check_stat(field: str, value: Any, lo: int = 2, hi: int = 6) -> int:
    """A target number written 3 or "3+"; stored as the integer."""
    if isinstance(value, str):
        text = check_notation(field, value).strip().removesuffix("+").strip()  # one "+": "3++" is a typo
        if not text.isdecimal():  # int() accepts exactly these (not "²")
            raise InputError(field, f"{excerpt(value)} is not a target number; write it as 3 or '3+' ({lo}..{hi})")
        value = int(text)
    return check_int(field, value, lo, hi)


def check_choice(field: str, value: Any, choices: Iterable[str]) -> str:
    """One of a fixed set of names (case-insensitive; '-' and ' ' read as '_')."""
    options = list(choices)
    if not isinstance(value, str):
        raise InputTypeError(field, f"expected one of {', '.join(options)}, got {excerpt(value)}")
    key = value.strip().lower().replace("-", "_").replace(" ", "_")
    for option in options:
        if key == option.lower():
            return option
    raise InputError(field, f"unknown value {excerpt(value)}{did_you_mean(key, [o.lower() for o in options])}; "
                            f"allowed: {', '.join(options)}")


def integer_span(field: str, text: str) -> tuple[int, int] | None:
    """A grid's ``a..b`` (both ends included, at most 40 digits each) as (a, b); None for any other
    text. A span that runs backwards is an InputError naming ``field``."""
    match = re.fullmatch(r"\s*(-?\d{1,40})\s*\.\.\s*(-?\d{1,40})\s*", text)
    if match is None:
        return None
    lo, hi = int(match.group(1)), int(match.group(2))
    if lo > hi:
        raise InputError(field, f"{excerpt(text)} runs backwards; write it low..high")
    return lo, hi


def check_bool(field: str, value: Any) -> bool:
    if not isinstance(value, (bool, np.bool_)):
        raise InputTypeError(field, f"expected True or False, got {excerpt(value)}")
    return bool(value)
