"""Hand-checked cases (tests/data/<game>.json, copied from the project's shared cases) and exact helpers."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path
from typing import Any

DATA = Path(__file__).parent / "data"


def load_cases(game: str) -> dict[str, dict[str, Any]]:
    """The cases of one game, keyed by id."""
    with open(DATA / f"{game}.json", encoding="utf-8") as handle:
        return {case["id"]: case for case in json.load(handle)["cases"]}


def frac(value: str | int | float) -> Fraction:
    """An exact value written as "3/8" (or an int)."""
    return Fraction(value)
