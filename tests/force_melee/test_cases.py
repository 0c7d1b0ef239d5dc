"""Every case of force_melee.json, exactly (exact engine) and statistically (Monte Carlo)."""

from __future__ import annotations

import re
from fractions import Fraction

import numpy as np
import pytest
from casedata import load_cases

from mathhammer import force_melee as fm

CASES = load_cases("force_melee")
MC_SAMPLES = 400_000


def _call(case: dict, **engine) -> object:
    inputs = case["inputs"]
    if case["call"] == "force_melee.melee":
        a = fm.Side(unit=fm.Unit(**inputs["a"]["unit"]), weapon=fm.Weapon(**inputs["a"]["weapon"]), dice=inputs["a"]["dice"])
        b = fm.Side(unit=fm.Unit(**inputs["b"]["unit"]), weapon=fm.Weapon(**inputs["b"]["weapon"]), dice=inputs["b"]["dice"])
        return fm.melee(a, b, **inputs.get("kwargs", {}), **engine)
    if case["call"] == "force_melee.allocate":
        return fm.allocate(fm.Unit(**inputs["unit"]), inputs["damage"], inputs["allocation"])
    raise AssertionError(f"unknown call {case['call']}")


def _lookup(result: object, path: str) -> object:
    """'damage_b.at_least(1)', 'wiped(b)', 'joint.pmf' -> the value on the result."""
    value = result
    for part in path.split("."):
        match = re.fullmatch(r"(\w+)\((\w*)\)", part)
        if match:
            name, arg = match.groups()
            value = getattr(value, name)(int(arg) if arg.lstrip("-").isdigit() else arg)
        else:
            value = getattr(value, part)
    return value


def _expected_pmf(expected: dict, shape_hint: tuple[int, ...]) -> np.ndarray:
    keys = [tuple(int(x) for x in key.split(",")) for key in expected]
    shape = tuple(max(max(k[d] for k in keys) + 1, shape_hint[d]) for d in range(len(shape_hint)))
    out = np.zeros(shape, dtype=object)
    out[...] = Fraction(0)
    for key, value in zip(keys, expected.values()):
        out[key] = Fraction(value["fraction"])
    return out


def _padded(actual: np.ndarray, shape: tuple[int, ...]) -> np.ndarray:
    out = np.zeros(shape)
    out[tuple(slice(0, n) for n in actual.shape)] = actual
    return out


def _check(actual: object, expected: object, key: str, tolerance: object, stderr_scale: float | None) -> None:
    """stderr_scale None: exact comparison to 1e-12; else Monte Carlo: 5 standard errors + 1e-9."""
    def bound(p: float) -> float:
        if stderr_scale is None:
            return 1e-12
        return 5 * np.sqrt(p * (1 - p)) * stderr_scale + 1e-9

    if key.endswith("pmf"):
        target = _expected_pmf(expected, np.shape(actual))
        got = _padded(np.asarray(actual), target.shape)
        for index in np.ndindex(target.shape):
            p = float(target[index])
            assert abs(got[index] - p) <= bound(p), f"{key}[{index}]: {got[index]} != {target[index]}"
    elif isinstance(expected, dict) and "fraction" in expected:
        p = Fraction(expected["fraction"])
        assert abs(float(p) - expected["decimal"]) < 1e-15  # the case file agrees with itself
        if stderr_scale is not None and key.endswith(".mean"):
            return  # means are checked through the pmf
        assert abs(float(actual) - float(p)) <= bound(min(float(p), 1.0)), f"{key}: {actual} != {p}"
    elif isinstance(expected, list):
        assert list(actual) == expected, key
    else:
        assert actual == expected, key


@pytest.mark.parametrize("case_id", sorted(CASES))
def test_case_exact(case_id):
    case = CASES[case_id]
    result = _call(case, method="exact") if case["call"] == "force_melee.melee" else _call(case)
    for key, expected in case["expected"].items():
        _check(_lookup(result, key), expected, key, case["tolerance"], None)


@pytest.mark.parametrize("case_id", sorted(c for c in CASES if CASES[c]["call"] == "force_melee.melee"))
def test_case_monte_carlo(case_id):
    case = CASES[case_id]
    result = _call(case, method="monte_carlo", samples=MC_SAMPLES, seed=2024, threads=2)
    assert result.method == "monte_carlo" and result.samples == MC_SAMPLES
    for key, expected in case["expected"].items():
        _check(_lookup(result, key), expected, key, case["tolerance"], 1 / np.sqrt(MC_SAMPLES))


def test_every_case_is_run():
    assert len(CASES) == 8
    assert {c["call"] for c in CASES.values()} == {"force_melee.melee", "force_melee.allocate"}


def test_f1_by_hand():
    # A: 3 dice at 4+ (p = 1/2), B: 2 dice at 5+ (p = 1/3); Force 4 vs 2, "once".
    pa = [Fraction(1, 8), Fraction(3, 8), Fraction(3, 8), Fraction(1, 8)]
    pb = [Fraction(4, 9), Fraction(4, 9), Fraction(1, 9)]
    a_more = sum(pa[i] * pb[j] for i in range(4) for j in range(3) if i > j)
    tie_1 = pa[1] * pb[1]  # B takes (4 - 2) x 1
    tie_2 = pa[2] * pb[2]  # B takes (4 - 2) x 2
    r = fm.melee(fm.example("line_troopers"), fm.example("militia"))
    assert r.damage_b.prob(4) == pytest.approx(float(a_more + tie_2), abs=1e-15)
    assert r.damage_b.prob(2) == pytest.approx(float(tie_1), abs=1e-15)
    assert r.p_a_more == pytest.approx(float(a_more), abs=1e-15)
