"""Every hand-checked case of tests/data/deathburgh.json (copied from the project's shared cases), exactly."""

from __future__ import annotations

import re
from fractions import Fraction
from typing import Any

import pytest
from casedata import frac, load_cases

from mathhammer import deathburgh as db

CASES = load_cases("deathburgh")
TOLERANCE = 1e-12


def _side(data: dict[str, Any]) -> db.Side:
    data = dict(data)
    mini = db.Miniature(**data.pop("mini"))
    return db.Side(mini, **data)


def _run(case: dict[str, Any]) -> Any:
    inputs = case["inputs"]
    if case["call"] == "deathburgh.combat":
        return db.combat(_side(inputs["attacker"]), _side(inputs["defender"]), **inputs.get("kwargs", {}))
    if case["call"] == "deathburgh.pool":
        return db.pool(**inputs)
    raise AssertionError(f"unknown call {case['call']}")


def _lookup(result: Any, path: str) -> Any:
    """'wounds_defender.at_least(1)', 'wasted(defender)', 'joint.pmf', 'p_tie' on a result."""
    value = result
    for part in path.split("."):
        call = re.fullmatch(r"(\w+)\((.*)\)", part)
        if call:
            name, argument = call.groups()
            value = getattr(value, name)(int(argument) if argument.lstrip("-").isdigit() else argument)
        else:
            value = getattr(value, part)
    return value


def _close(actual: float, expected: dict[str, Any]) -> bool:
    return abs(float(actual) - float(Fraction(expected["fraction"]))) <= TOLERANCE


@pytest.mark.parametrize("case_id", sorted(CASES))
def test_case(case_id: str) -> None:
    case = CASES[case_id]
    result = _run(case)
    assert result.samples is None  # every case is an exact result
    for path, expected in case["expected"].items():
        actual = _lookup(result, path)
        if path.endswith("pmf"):
            listed = {tuple(int(v) for v in key.split(",")): pair for key, pair in expected.items()}
            for index, p in _cells(actual):
                pair = listed.pop(index, {"fraction": "0"})
                assert _close(p, pair), f"{case_id} {path}[{index}]: {p} != {pair['fraction']}"
            assert not listed, f"{case_id} {path}: values outside the result's support: {sorted(listed)}"
        else:
            assert _close(actual, expected), f"{case_id} {path}: {actual} != {expected['fraction']}"


def _cells(pmf: Any) -> list[tuple[tuple[int, ...], float]]:
    import numpy as np

    return [(tuple(int(i) for i in index), float(p)) for index, p in np.ndenumerate(pmf)]


def test_case_file_is_the_games() -> None:
    assert {c for c in CASES} >= {"T1", "T1b", "T3", "T3b", "T4", "T4b", "T5", "T5b"}
    assert frac("535/864") == Fraction(535, 864)
