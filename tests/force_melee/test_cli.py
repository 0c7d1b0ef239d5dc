"""The ``mathhammer force-melee`` command: defaults, every field settable, formats, errors, scenarios."""

from __future__ import annotations

import re

import json
from pathlib import Path

import pytest

from mathhammer import force_melee as fm
from mathhammer.cli import main

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "force_melee"


def run_json(capsys, *args: str) -> dict:
    code = main(["force-melee", *args, "--format", "json"])
    out = capsys.readouterr().out
    assert code == 0, out
    return json.loads(out)


def test_bare_command_prints_the_spec_example(capsys):
    assert main(["force-melee"]) == 0
    out = capsys.readouterr().out
    assert "Line Trooper squad" in out and "Militia squad" in out and "P(destroyed)" in out


def test_json_default_is_case_f1(capsys):
    data = run_json(capsys)
    assert data["summary"]["a_p_more_hits"] == pytest.approx(5 / 8, abs=1e-12)
    assert data["summary"]["b_mean_damage"] == pytest.approx(3.0, abs=1e-12)
    assert data["stderr"] is None
    assert data["summary"]["p_tie"] == pytest.approx(19 / 72, abs=1e-12)
    assert data["switches"] == {"winner_damage": "once", "allocation": "spill", "sustained_mode": "bonus",
                                "bonus_always": False}
    assert data["result"]["method"] == "exact" and data["a"]["dice"] == 3


def test_every_field_is_settable(capsys):
    data = run_json(
        capsys,
        "--a-name", "Raiders", "--a-dice", "5", "--a-hit-mod", "1", "--a-hit", "5+", "--a-force", "3", "--a-crit", "5",
        "--a-kind", "ranged", "--a-assault", "--a-sustained", "1", "--a-critical-damage", "2", "--a-bonus-flat", "1",
        "--a-reroll", "ones", "--a-weapon", "Carbine", "--a-models", "3", "--a-hp", "2", "--a-current", "2,1,2",
        "--a-vehicle",
        "--b-profile", "walker", "--b-dice", "3", "--b-hit", "4", "--b-force", "7", "--b-hp", "10", "--b-models", "2",
        "--b-no-vehicle", "--b-reroll", "fails", "--b-hit-mod", "-1", "--b-crit", "6", "--b-kind", "melee",
        "--b-no-assault", "--b-sustained", "0", "--b-critical-damage", "0", "--b-bonus-flat", "2", "--b-weapon", "Fists",
        "--b-name", "Twin walkers", "--b-current", "10,4",
        "--winner-damage", "pairing", "--allocation", "no_spill", "--sustained-mode", "extra_hits", "--bonus-always",
    )
    a = fm.Side(fm.Unit(3, 2, current=(2, 1, 2), vehicle=True, name="Raiders"),
                fm.Weapon(hit=5, force=3, crit=5, kind="ranged", assault=True, sustained=1, critical_damage=2,
                          bonus_flat=1, reroll="ones", name="Carbine"), dice=5, hit_mod=1)
    b = fm.Side(fm.Unit(2, 10, current=(10, 4), vehicle=False, name="Twin walkers"),
                fm.Weapon(hit=4, force=7, reroll="fails", bonus_flat=2, name="Fists"), dice=3, hit_mod=-1)
    assert fm.Side.from_dict(data["a"]) == a and fm.Side.from_dict(data["b"]) == b
    expected = fm.melee(a, b, winner_damage="pairing", allocation="no_spill", sustained_mode="extra_hits",
                        bonus_always=True)
    assert fm.MeleeResult.from_dict(data["result"]).joint == expected.joint


def test_monte_carlo_options(capsys):
    data = run_json(capsys, "--method", "monte_carlo", "--samples", "100000", "--seed", "5", "--threads", "2")
    assert data["result"]["samples"] == 100_000 and data["result"]["seed"] == 5
    assert set(data["stderr"]) == set(data["summary"])
    assert data["stderr"]["a_p_more_hits"] > 0
    again = run_json(capsys, "--method", "monte_carlo", "--samples", "100000", "--seed", "5", "--threads", "1")
    assert again["result"]["joint"] == data["result"]["joint"]


@pytest.mark.parametrize("fmt", ["csv", "markdown", "table"])
def test_other_formats(capsys, fmt):
    assert main(["force-melee", "--b-profile", "walker", "--format", fmt]) == 0
    out = capsys.readouterr().out
    assert "Walker" in out and "damage" in out


@pytest.mark.parametrize(
    "args, message",
    [
        (["--a-dice", "41"], "a.dice: 41 is out of range"),
        (["--b-hit", "7"], "b.weapon.hit: 7 is out of range"),
        (["--a-kind", "ranged"], "a.weapon.kind: a ranged weapon"),
        (["--a-current", "1,x"], "a.unit.current"),
        (["--a-models", "2", "--a-current", "1,1,1"], "a.unit.current: has 3 entries"),
        (["--a-profile", "orks"], "profile: unknown value 'orks'"),
        (["--winner-damage", "most"], "--winner-damage: unknown value 'most'"),
        (["--allocation", "x"], "allocation: unknown value"),
        (["--scenario", "missing.toml"], "missing.toml: no such file"),
    ],
)
def test_bad_input_exits_2_with_one_line(capsys, args, message):
    assert main(["force-melee", *args]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and message in err and len(err.strip().splitlines()) == 1, err


def test_scenario_file(capsys):
    data = run_json(capsys, "--scenario", str(EXAMPLES / "scenario_walker.toml"))
    assert [e["action"] for e in data["entries"]] == ["melee", "melee_many"]
    many = fm.MeleeManyResult.from_dict(data["entries"][1]["result"])
    assert set(many.units) == {"troopers", "carbines", "walker", "militia"}
    mc = run_json(capsys, "--scenario", str(EXAMPLES / "scenario_walker.toml"), "--method", "monte_carlo",
                  "--samples", "50000", "--seed", "1", "--winner-damage", "excess")
    assert all(e["result"]["samples"] == 50_000 for e in mc["entries"])
    assert main(["force-melee", "--scenario", str(EXAMPLES / "scenario_squads.toml")]) == 0
    assert "Carbine squad" in capsys.readouterr().out


def test_help_has_an_example(capsys):
    assert main(["force-melee", "--help"]) == 0
    out = capsys.readouterr().out
    assert re.search(r"Examples?:\s+mathhammer force-melee", out) and "--b-critical-damage" in out
