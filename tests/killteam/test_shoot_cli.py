"""`mathhammer killteam shoot`: defaults, every option, --saves side by side, output formats, errors."""

from __future__ import annotations

import json

import numpy as np
import pytest

from mathhammer import killteam as kt
from mathhammer.cli import main
from mathhammer.cli.killteam import parse_saves
from mathhammer.errors import InputError


def run_json(capsys, *args: str) -> dict:
    assert main(["killteam", "shoot", *args, "--format", "json"]) == 0
    return json.loads(capsys.readouterr().out)


def test_defaults(capsys):
    out = run_json(capsys)
    r = kt.shoot(kt.Weapon(4, 3, (3, 4)), kt.Operative(3, 12))
    assert np.allclose(out["result"]["damage"]["pmf"], r.damage.pmf, atol=1e-15)
    assert out["mean"] == pytest.approx(r.damage.mean) and out["kill_chance"] == pytest.approx(r.kill_chance)
    assert out["method"] == "exact" and out["weapon"] == "4A 3+ 3/4" and out["target"] == "3+ save; 12W"


def test_every_option(capsys):
    out = run_json(
        capsys, "--attacks", "6", "--hit", "4+", "--damage", "4/5", "--rules", "Lethal 5+, Piercing Crits 1",
        "--save", "4+", "--wounds", "9", "--abilities", "Feel No Pain 5+, Saintly Relics (2D6), Durable",
        "--cover", "1", "--obscured", "--rounds", "2",
    )
    weapon = kt.Weapon(6, 4, (4, 5), "Lethal 5+, Piercing Crits 1")
    target = kt.Operative(4, 9, "Feel No Pain 5+, Saintly Relics (2D6), Durable")
    r = kt.shoot(weapon, target, cover=1, obscured=True, rounds=2)
    assert np.allclose(out["result"]["damage"]["pmf"], r.damage.pmf, atol=1e-15)
    assert (out["cover"], out["obscured"], out["rounds"], out["wounds"]) == (1, True, 2, 9)


def test_monte_carlo_options(capsys):
    out = run_json(capsys, "--method", "monte_carlo", "--samples", "50000", "--seed", "7", "--threads", "2")
    again = kt.shoot(kt.Weapon(4, 3), kt.Operative(3), method="monte_carlo", samples=50_000, seed=7, threads=1)
    assert out["samples"] == 50_000 and out["method"] == "monte_carlo"
    assert np.array_equal(np.array(out["result"]["damage"]["pmf"]), again.damage.pmf)


def test_saves_side_by_side(capsys):
    out = run_json(capsys, "--saves", "2-6", "--rules", "Devastating 1")
    assert [entry["save"] for entry in out["saves"]] == [2, 3, 4, 5, 6]
    for entry in out["saves"]:
        r = kt.shoot(kt.Weapon(4, 3, rules="Devastating 1"), kt.Operative(entry["save"], 12))
        assert entry["mean"] == pytest.approx(r.damage.mean)
    means = [entry["mean"] for entry in out["saves"]]
    assert means == sorted(means)  # worse saves take more damage
    assert main(["killteam", "shoot", "--saves", "3,5", "--format", "csv"]) == 0
    csv = capsys.readouterr().out
    assert csv.startswith("damage,3+,5+\n")  # one table, its header first
    assert main(["killteam", "shoot", "--saves", "3,5", "--format", "csv", "--table", "summary"]) == 0
    assert capsys.readouterr().out.startswith("save,mean,std,kill chance\n3+,")


@pytest.mark.parametrize("fmt", ["table", "markdown", "csv"])
def test_text_formats(capsys, fmt):
    assert main(["killteam", "shoot", "--rules", "Lethal 5+", "--format", fmt]) == 0
    out = capsys.readouterr().out
    r = kt.shoot(kt.Weapon(4, 3, rules="Lethal 5+"), kt.Operative(3, 12))
    if fmt != "csv":  # the tables people read print percentages with 2 decimals; CSV every digit
        assert f"{100 * r.damage.prob(0):.2f}%" in out and f"{100 * r.damage.at_least(3):.2f}%" in out
    else:
        assert repr(r.damage.prob(0)) in out and repr(r.damage.at_least(3)) in out
    if fmt != "csv":
        assert "kill chance" in out


def test_help_has_an_example(capsys):
    assert main(["killteam", "shoot", "--help"]) == 0
    out = capsys.readouterr().out
    assert "--saves" in out and "mathhammer killteam shoot --attacks" in out


@pytest.mark.parametrize(
    "args, field",
    [
        (["--cover", "4"], "cover"),
        (["--rounds", "10"], "rounds"),
        (["--attacks", "13"], "attacks"),
        (["--hit", "7"], "hit"),
        (["--damage", "3-4"], "damage"),
        (["--save", "1"], "save"),
        (["--wounds", "0"], "wounds"),
        (["--rules", "Explodes 2"], "rules"),
        (["--abilities", "Invulnerable 4+"], "abilities"),
        (["--saves", "1-6"], "saves"),
        (["--saves", "6-2"], "saves"),
        (["--saves", "3,3"], "saves"),
        (["--save", "3", "--saves", "2-6"], "--saves: --saves sweeps the save; drop --save"),
        (["--method", "monte_carlo", "--threads", "0"], "threads"),
    ],
)
def test_bad_input_exits_2_naming_the_field(capsys, args, field):
    assert main(["killteam", "shoot", *args]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"error: {field}") and len(err.strip().splitlines()) == 1


def test_parse_saves():
    assert parse_saves("2-6") == [2, 3, 4, 5, 6]
    assert parse_saves("3+, 5+") == [3, 5]
    assert parse_saves("4") == [4]
    assert parse_saves("2-3,5") == [2, 3, 5]
    with pytest.raises(InputError, match="^saves: "):
        parse_saves(",")
