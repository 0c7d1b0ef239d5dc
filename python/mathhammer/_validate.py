"""Input checks shared by every game: each failure names the field, the value and what is allowed.

Validation happens in Python before any C++ runs, so the core never sees an invalid config.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any


class InputError(ValueError):
    """A value outside what the rules allow. ``field`` names the offending input."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(f"{field}: {message}")
        self.field = field


class InputTypeError(TypeError):
    """A value of the wrong type. ``field`` names the offending input."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(f"{field}: {message}")
        self.field = field


def check_int(field: str, value: Any, lo: int, hi: int | None = None) -> int:
    """An integer in lo..hi (hi None: no upper bound). Bools and floats are refused."""
    from mathhammer._guard import excerpt

    if isinstance(value, bool) or not isinstance(value, (int,)) and not _is_numpy_int(value):
        raise InputTypeError(field, f"expected an integer, got {excerpt(value)} ({type(value).__name__})")
    number = int(value)
    if number < lo or (hi is not None and number > hi):
        allowed = f"{lo}..{hi}" if hi is not None else f">= {lo}"
        raise InputError(field, f"{excerpt(number)} is out of range; allowed {allowed}")
    return number


def check_stat(field: str, value: Any, lo: int = 2, hi: int = 6) -> int:
    """A target number written 3 or "3+"; stored as the integer."""
    if isinstance(value, str):
        from mathhammer._guard import check_notation, excerpt

        text = check_notation(field, value).strip().removesuffix("+").strip()  # one "+": "3++" is a typo
        if not text.isdecimal():  # int() accepts exactly these (not "²")
            raise InputError(field, f"{excerpt(value)} is not a target number; write it as 3 or '3+' ({lo}..{hi})")
        value = int(text)
    return check_int(field, value, lo, hi)


def check_choice(field: str, value: Any, choices: Iterable[str]) -> str:
    """One of a fixed set of names (case-insensitive; '-' and ' ' read as '_')."""
    options = list(choices)
    if not isinstance(value, str):
        raise InputTypeError(field, f"expected one of {', '.join(options)}, got {_short(value)}")
    key = value.strip().lower().replace("-", "_").replace(" ", "_")
    for option in options:
        if key == option.lower():
            return option
    raise InputError(field, f"unknown value {_short(value)}; allowed: {', '.join(options)}")


def check_bool(field: str, value: Any) -> bool:
    if not isinstance(value, bool) and not _is_numpy_bool(value):
        raise InputTypeError(field, f"expected True or False, got {_short(value)}")
    return bool(value)


def _short(value: Any) -> str:
    from mathhammer._guard import excerpt

    return excerpt(value)


def _is_numpy_int(value: Any) -> bool:
    try:
        import numpy as np
    except ImportError:  # pragma: no cover - numpy is a dependency
        return False
    return isinstance(value, np.integer)


def _is_numpy_bool(value: Any) -> bool:
    import numpy as np

    return isinstance(value, np.bool_)
