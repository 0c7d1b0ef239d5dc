"""Hand-checked cases (tests/data/<game>.json, copied from the project's shared cases), exact helpers,
and where the example files the tests read are."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path
from typing import Any

import mathhammer

DATA = Path(__file__).parent / "data"
#: The example files of the package under test (a checkout's examples/ is this folder), as
#: `mathhammer examples --copy` writes them out.
EXAMPLES = Path(mathhammer.__file__).resolve().parent / "examples"
#: The invented Kill Team catalogues and roster (BattleScribe files, docs/data.md)...
KILLTEAM_DATA = EXAMPLES / "killteam" / "data"
#: ...and the team libraries `mathhammer killteam import` writes from them.
KILLTEAM_TEAMS = EXAMPLES / "killteam" / "teams"


def load_cases(game: str) -> dict[str, dict[str, Any]]:
    """The cases of one game, keyed by id."""
    with open(DATA / f"{game}.json", encoding="utf-8") as handle:
        return {case["id"]: case for case in json.load(handle)["cases"]}


def frac(value: str | int | float) -> Fraction:
    """An exact value written as "3/8" (or an int)."""
    return Fraction(value)
