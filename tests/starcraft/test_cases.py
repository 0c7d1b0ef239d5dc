"""Every hand-checked case of tests/data/starcraft.json: exactly (exact engine, step functions) and
within 4 standard errors (Monte Carlo, 1M samples)."""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

import pytest
from casedata import frac, load_cases

from mathhammer import starcraft as sc

CASES = load_cases("starcraft")
MC_SAMPLES = 1_000_000


def _weapon(data: dict[str, Any] | None) -> sc.Weapon | None:
    return None if data is None else sc.Weapon(**data)


def _call(case: dict[str, Any], inputs: dict[str, Any], method: str | None = None) -> Any:
    call = case["call"]
    if call == "starcraft.attack":
        kwargs = dict(inputs.get("kwargs", {}))
        if method is not None:
            kwargs.update(method=method, samples=MC_SAMPLES, seed=20240601, threads=2)
        return sc.attack(_weapon(inputs["weapon"]), sc.Unit(**inputs["unit"]), **kwargs)
    if call == "starcraft.sequence":
        batches = [sc.Batch(_weapon(b["weapon"]), **b.get("kwargs", {})) for b in inputs["batches"]]
        extra = {} if method is None else {"method": method, "samples": MC_SAMPLES, "seed": 7, "threads": 2}
        return sc.sequence(sc.Unit(**inputs["unit"]), batches, rules=inputs.get("rules"), **extra)
    if call == "starcraft.rules.allocate":
        return sc.rules.allocate(sc.Unit(**inputs["unit"]), inputs["damage"], **inputs.get("kwargs", {}))
    name = call.removeprefix("starcraft.rules.")
    return getattr(sc.rules, name)(**{k: v for k, v in inputs.items() if k != "vary"})


def _get(result: Any, path: str) -> Any:
    if path == "result":
        return result
    if path == "p_success(result)":
        return sc.rules.p_success(result)
    value = result
    for part in path.split("."):
        value = getattr(value, part)
    return value


def _results(case: dict[str, Any], method: str | None = None) -> list[Any]:
    inputs = case["inputs"]
    if "vary" in inputs:
        name = inputs["vary"]
        return [_call(case, {**inputs, name: value}, method) for value in inputs[name]]
    return [_call(case, inputs, method)]


def _exact_equal(actual: Any, expected: Any) -> None:
    if isinstance(expected, dict) and "fraction" in expected:
        assert float(actual) == pytest.approx(float(frac(expected["fraction"])), abs=1e-12)
        assert float(expected["decimal"]) == pytest.approx(float(Fraction(expected["fraction"])), abs=1e-15)
    else:
        assert actual == expected and type(actual) is type(expected)


def _check_exact(result: Any, key: str, expected: Any) -> None:
    value = _get(result, key)
    if key.endswith(".pmf"):
        listed = {int(k): float(frac(v["fraction"])) for k, v in expected.items()}
        for i, p in enumerate(value):
            assert p == pytest.approx(listed.get(i, 0.0), abs=1e-12), (key, i)
        assert all(0 <= k < len(value) for k in listed)
    else:
        _exact_equal(value, expected)


@pytest.mark.parametrize("case_id", sorted(CASES))
def test_case_exact(case_id: str) -> None:
    case = CASES[case_id]
    results = _results(case)
    for key, expected in case["expected"].items():
        if "vary" in case["inputs"]:
            assert len(expected) == len(results)
            for result, item in zip(results, expected):
                _check_exact(result, key, item)
        else:
            _check_exact(results[0], key, expected)
    if case["call"] in ("starcraft.attack", "starcraft.sequence"):
        assert results[0].method == "exact" and results[0].samples is None


MC_CASES = sorted(i for i, c in CASES.items() if c["call"] in ("starcraft.attack", "starcraft.sequence"))


@pytest.mark.parametrize("case_id", MC_CASES)
def test_case_monte_carlo_within_4_standard_errors(case_id: str) -> None:
    case = CASES[case_id]
    result = _results(case, method="monte_carlo")[0]
    assert result.method == "monte_carlo" and result.samples == MC_SAMPLES
    n = result.samples
    for key, expected in case["expected"].items():
        value = _get(result, key)
        if key.endswith(".pmf"):
            listed = {int(k): float(frac(v["fraction"])) for k, v in expected.items()}
            for i, p_mc in enumerate(value):
                p = listed.get(i, 0.0)
                assert abs(p_mc - p) <= 4 * math.sqrt(p * (1 - p) / n) + 1e-12, (key, i, p_mc, p)
        elif key.endswith(".mean"):
            dist = _get(result, key.rsplit(".", 1)[0])
            target = float(frac(expected["fraction"]))
            assert abs(value - target) <= 4 * dist.std / math.sqrt(n) + 1e-12, (key, value, target)
        else:
            raise AssertionError(f"unhandled key {key}")
