"""kt.fight / kt.resolve_fight: results, method choice, input errors, and the `killteam fight` command."""

from __future__ import annotations

import importlib
import json

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mathhammer import killteam as kt
from mathhammer.errors import InputError, InputTypeError
from mathhammer.cli import main

fight_module = importlib.import_module("mathhammer.killteam.fighting")  # the name `fight` is the function
from mathhammer.killteam import plan as plan_module  # noqa: E402

DEFAULT = kt.Fighter(attacks=4, hit=3, damage=(3, 4), wounds=12)


def test_default_fight_result():
    r = kt.fight(DEFAULT, DEFAULT)
    assert r.method == "exact" and r.samples is None and r.stderr is None
    assert r.wounds_a.pmf.shape == (13,) and r.joint.pmf.shape == (13, 13)
    assert r.joint.names == ("wounds_a", "wounds_b")
    np.testing.assert_allclose(r.wounds_a.pmf, r.joint.pmf.sum(axis=1))
    assert r.death_chance("a") == pytest.approx(r.wounds_a.pmf[0])
    assert r.death_chance_b == r.death_chance("b")
    assert r.mean_damage_taken("a") == pytest.approx(12 - r.wounds_a.mean)
    assert r.mean_damage_taken_b == pytest.approx(12 - r.wounds_b.mean)
    # the one resolving first has the edge in a mirror match
    assert r.death_chance("b") > r.death_chance("a")


def test_monte_carlo_result_carries_samples_and_errors():
    r = kt.fight(DEFAULT, DEFAULT, method="monte_carlo", samples=200_000, seed=1, threads=1)
    assert r.method == "monte_carlo" and r.samples == 200_000
    assert r.wounds_a.samples == 200_000 and r.joint.samples == 200_000
    p = r.death_chance("a")
    assert r.stderr["death_chance_a"] == pytest.approx(np.sqrt(p * (1 - p) / 200_000))
    assert set(r.stderr) >= {"death_chance_a", "death_chance_b", "mean_wounds_a", "mean_damage_taken_b"}


def test_auto_goes_monte_carlo_when_exact_is_dear():
    big = kt.Fighter(attacks=12, hit=2, damage=(5, 6), wounds=40)
    r = kt.fight(big, big, rounds=3, samples=50_000, seed=3, threads=2)
    assert r.method == "monte_carlo" and r.samples == 50_000


def test_auto_stays_exact_for_the_heavy_three_round_fight():
    a = kt.Fighter(attacks=5, hit=3, damage=(4, 5), rules="Brutal, Shock, Severe")
    b = kt.Fighter(attacks=4, hit=3, abilities="Storm Shield, Dueller", strategy="min_damage")
    assert kt.fight(a, b, rounds=3).method == "exact"


def test_round_trips_and_frames():
    r = kt.fight(DEFAULT, DEFAULT, rounds=2)
    back = kt.FightResult.from_json(r.to_json())
    assert back == r
    frame = r.to_frame()
    assert isinstance(frame, pd.DataFrame) and list(frame.columns) == ["wounds", "p_a", "p_b"]
    assert frame["p_a"].sum() == pytest.approx(1.0)
    mc = kt.fight(DEFAULT, DEFAULT, method="monte_carlo", samples=10_000, seed=2)
    assert kt.FightResult.from_dict(mc.to_dict()) == mc
    log = kt.resolve_fight(DEFAULT, DEFAULT, (1, 1), (0, 2))
    assert kt.FightLog.from_json(log.to_json()) == log
    assert list(log.to_frame().columns) == ["side", "kind", "value"]


def test_resolve_fight_wound_overrides():
    log = kt.resolve_fight(DEFAULT, DEFAULT, (1, 1), (0, 2), wounds_a=5, wounds_b=4)
    # A's crit (4) kills B on 4 at once
    assert log.actions == (("a", "crit_strike", 4),)
    assert (log.wounds_a, log.wounds_b) == (5, 0)


def test_resolve_fight_with_feel_no_pain_is_reproducible():
    b = kt.Fighter(attacks=4, hit=3, wounds=12, abilities="Feel No Pain 4+")
    logs = {kt.resolve_fight(DEFAULT, b, (2, 2), (0, 0), seed=s).wounds_b for s in range(40)}
    assert logs <= set(range(12 - 14, 12 - 6 + 1)) and len(logs) > 1
    assert kt.resolve_fight(DEFAULT, b, (2, 2), (0, 0), seed=7) == kt.resolve_fight(DEFAULT, b, (2, 2), (0, 0), seed=7)


@pytest.mark.parametrize(
    "kwargs, error, field",
    [
        ({"a": "4A 3+"}, InputError, "a"),  # text is fighter notation, and this is not
        ({"a": 4}, InputTypeError, "a"),
        ({"b": None}, InputTypeError, "b"),
        ({"first": "c"}, InputError, "first"),
        ({"first": 1}, InputTypeError, "first"),
        ({"rounds": 0}, InputError, "rounds"),
        ({"rounds": 4}, InputError, "rounds"),
        ({"rounds": 1.5}, InputTypeError, "rounds"),
        ({"method": "fast"}, InputError, "method"),
        ({"samples": 0}, InputError, "samples"),
        ({"samples": 10**11}, InputError, "samples"),
        ({"seed": -1}, InputError, "seed"),
        ({"threads": 0}, InputError, "threads"),
        ({"progress": 3}, InputTypeError, "progress"),
    ],
)
def test_fight_input_errors_name_the_field(kwargs, error, field):
    args = {"a": DEFAULT, "b": DEFAULT, **kwargs}
    with pytest.raises(error) as raised:
        kt.fight(**args)
    assert raised.value.field == field
    assert str(raised.value).startswith(f"{field}:")


@pytest.mark.parametrize(
    "dice_a, dice_b, error, field",
    [
        ((1, 1, 1), (0, 0), InputTypeError, "dice_a"),
        ("1,1", (0, 0), InputTypeError, "dice_a"),
        ((5, 0), (0, 0), InputError, "dice_a.crits"),
        ((-1, 0), (0, 0), InputError, "dice_a.crits"),
        ((0, 0), (0, 13), InputError, "dice_b.norms"),
        ((2, 3), (0, 0), InputError, "dice_a"),
        ((1, 1), (1.0, 0), InputTypeError, "dice_b.crits"),
    ],
)
def test_resolve_fight_dice_errors(dice_a, dice_b, error, field):
    with pytest.raises(error) as raised:
        kt.resolve_fight(DEFAULT, DEFAULT, dice_a, dice_b)
    assert raised.value.field == field


def test_resolve_fight_other_errors():
    with pytest.raises(InputError, match="^wounds_a:"):
        kt.resolve_fight(DEFAULT, DEFAULT, (1, 1), (0, 2), wounds_a=41)
    with pytest.raises(InputError, match="^first:"):
        kt.resolve_fight(DEFAULT, DEFAULT, (1, 1), (0, 2), first="x")
    with pytest.raises(InputError, match="^b: 'b' is not fighter notation"):
        kt.resolve_fight(DEFAULT, "b", (1, 1), (0, 2))
    with pytest.raises(InputTypeError, match="^b:"):
        kt.resolve_fight(DEFAULT, None, (1, 1), (0, 2))


def test_exact_refuses_absurd_work(monkeypatch):
    monkeypatch.setattr(fight_module, "EXACT_WORK_MAX", 1000)
    big = kt.Fighter(attacks=8, hit=3, wounds=30)
    with pytest.raises(InputError, match="^method:"):
        kt.fight(big, big, rounds=3, method="exact")


def test_exact_work_estimate_grows_with_rounds_and_chance():
    fnp = kt.Fighter(attacks=4, hit=3, abilities="Feel No Pain 5+")
    one = plan_module.exact_work(DEFAULT, DEFAULT, 1)
    assert one == 15 * 15
    assert plan_module.exact_work(DEFAULT, DEFAULT, 3) > one
    assert plan_module.exact_work(fnp, DEFAULT, 1) == one * 5


# --- the command ------------------------------------------------------------------------------

def run_json(capsys, *args: str) -> dict:
    assert main(["killteam", "fight", *args, "--format", "json"]) == 0
    return json.loads(capsys.readouterr().out)


def test_cli_default_fight(capsys):
    out = run_json(capsys)
    exact = kt.fight(DEFAULT, DEFAULT)
    assert out["method"] == "exact"
    assert out["death_chance"]["a"] == pytest.approx(exact.death_chance("a"))
    assert out["mean_wounds"]["b"] == pytest.approx(exact.wounds_b.mean)
    assert out["result"]["wounds_a"]["pmf"] == pytest.approx(list(exact.wounds_a.pmf))


def test_cli_sets_every_field(capsys):
    out = run_json(
        capsys, "--a-attacks", "5", "--a-hit", "3+", "--a-damage", "4/5", "--a-wounds", "14", "--a-rules",
        "Brutal, Shock", "--a-abilities", "Hammerhand", "--a-strategy", "strike", "--b-attacks", "3", "--b-hit", "4",
        "--b-damage", "3/5", "--b-wounds", "10", "--b-rules", "Lethal 5+", "--b-abilities", "Storm Shield, Dueller",
        "--b-strategy", "min_damage", "--first", "b", "--rounds", "2", "--method", "monte_carlo", "--samples",
        "20000", "--seed", "4", "--threads", "1",
    )
    a = kt.Fighter(5, 3, (4, 5), 14, rules="Brutal, Shock", abilities="Hammerhand", strategy="strike")
    b = kt.Fighter(3, 4, (3, 5), 10, rules="Lethal 5+", abilities="Storm Shield, Dueller", strategy="min_damage")
    expected = kt.fight(a, b, first="b", rounds=2, method="monte_carlo", samples=20_000, seed=4, threads=1)
    assert out["a"] == str(a) and out["b"] == str(b)
    assert out["samples"] == 20_000 and out["method"] == "monte_carlo"
    assert out["result"]["joint"]["pmf"] == expected.joint.pmf.tolist()


@pytest.mark.parametrize("fmt", ["table", "csv", "markdown"])
def test_cli_formats(capsys, fmt):
    assert main(["killteam", "fight", "--format", fmt]) == 0
    out = capsys.readouterr().out
    # the death chance 0.165...: the tables people read print it as a percentage; CSV every digit
    expected = repr(kt.fight(kt.Fighter(4, 3, (3, 4), 12), kt.Fighter(4, 3, (3, 4), 12)).death_chance("a"))
    assert "wounds" in out and (expected if fmt == "csv" else "16.53%") in out


@pytest.mark.parametrize(
    "args, field",
    [
        (["--a-attacks", "13"], "a.attacks"),
        (["--b-hit", "7"], "b.hit"),
        (["--a-damage", "3-4"], "a.damage"),
        (["--b-abilities", "Foo"], "b.abilities"),
        (["--a-strategy", "run"], "a.strategy"),
        (["--rounds", "5"], "rounds"),
        (["--first", "c"], "first"),
    ],
)
def test_cli_bad_input_exits_2_naming_the_field(capsys, args, field):
    assert main(["killteam", "fight", *args]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"error: {field}:") and err.count("\n") == 1


def test_cli_help_has_an_example(capsys):
    assert main(["killteam", "fight", "--help"]) == 0
    assert "mathhammer killteam fight --a-attacks" in capsys.readouterr().out


# --- fuzzing the checks: only InputError / InputTypeError (or a result) ever comes out -----------
JUNK = st.one_of(
    st.none(), st.booleans(), st.integers(-5, 2**65), st.floats(allow_nan=True), st.text(max_size=6),
    st.tuples(st.integers(-2, 14), st.integers(-2, 14)), st.lists(st.integers(-2, 14), max_size=3),
    st.sampled_from(["a", "b", "exact", "monte_carlo", "auto", "A", "3"]),
)
CHEAP = {"method": "exact", "samples": 1000, "seed": 1, "threads": 1}


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(name=st.sampled_from(["a", "b", "first", "rounds", "method", "samples", "seed", "threads", "progress"]),
       value=JUNK)
def test_fight_rejects_junk_cleanly(name, value):
    args = {"a": DEFAULT, "b": DEFAULT, **CHEAP, name: value}
    try:
        result = kt.fight(**args)
    except (InputError, InputTypeError) as error:
        assert str(error).startswith(f"{error.field}:")
    else:
        assert isinstance(result, kt.FightResult)


@settings(max_examples=150, deadline=None)
@given(name=st.sampled_from(["dice_a", "dice_b", "first", "wounds_a", "wounds_b", "seed"]), value=JUNK)
def test_resolve_fight_rejects_junk_cleanly(name, value):
    args = {"a": DEFAULT, "b": DEFAULT, "dice_a": (1, 1), "dice_b": (0, 2), name: value}
    try:
        log = kt.resolve_fight(**args)
    except (InputError, InputTypeError) as error:
        assert str(error).startswith(f"{error.field}:")
    else:
        assert isinstance(log, kt.FightLog)
