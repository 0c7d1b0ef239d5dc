"""`mathhammer sweep <game> <action> --grid`: every grid form, bad grids refused in one line naming the
key, the numbers equal to the engine calls, every output format and --output, and --workers."""

from __future__ import annotations

import itertools
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pandas as pd
import pytest

import mathhammer

from mathhammer import killteam as kt
from mathhammer import starcraft as sc
from mathhammer.cli.options import Method
from mathhammer.errors import InputError
from mathhammer.cli import main
from mathhammer.cli.sweep import WHOLE, _keys, parse_grid, sweepable_commands
from mathhammer.sweeps import cell_seed
from timing import cpu_at_most

SHOOT_KEYS = _keys("killteam", "shoot")[0]
FIGHT_KEYS = _keys("killteam", "fight")[0]


def test_the_grid_forms_of_the_issue() -> None:
    axes = parse_grid('hit=3,4 save=2..6 cover=0,1 rules="Lethal 5+"|Balanced', SHOOT_KEYS)
    assert axes == {"hit": ["3", "4"], "save": ["2", "3", "4", "5", "6"], "cover": [0, 1],
                    "rules": ["Lethal 5+", "Balanced"]}


@pytest.mark.parametrize("grid, expected", [
    ("cover=*", {"cover": WHOLE}),
    ("hit=*", {"hit": WHOLE}),
    ("save=2..4", {"save": ["2", "3", "4"]}),  # a text option: listed
    ("cover=0..999999999999999999999999999999", {"cover": range(0, 10**30)}),  # an integer one: kept a range
    ("rules='Lethal 5+, Piercing 1'|Balanced,Rending", {"rules": ["Lethal 5+, Piercing 1", "Balanced", "Rending"]}),
    ("rules=\"a|b\"", {"rules": ["a|b"]}),
    ("  wounds=8..8   attacks=3,1..2 ", {"wounds": range(8, 9), "attacks": [3, 1, 2]}),
    ("obscured=true,0", {"obscured": [True, False]}),
    ("method=exact,monte_carlo", {"method": [Method.exact, Method.monte_carlo]}),
    ("rules='*'", {"rules": ["*"]}),
    ("rules='1..3'", {"rules": ["1..3"]}),
])
def test_grid_values(grid: str, expected: dict[str, list[object]]) -> None:
    assert parse_grid(grid, SHOOT_KEYS) == expected


def test_fight_keys_are_its_option_names_and_underscores_work() -> None:
    assert parse_grid("a-attacks=3,4 b_strategy=strike|parry", FIGHT_KEYS) == {
        "a_attacks": [3, 4], "b_strategy": ["strike", "parry"]}
    assert "a-objective" in FIGHT_KEYS and "first" in FIGHT_KEYS and "seed" not in FIGHT_KEYS


@pytest.mark.parametrize("grid, field", [
    ("armour=3", "--grid armour"),
    ("attacks=x", "--grid attacks"),
    ("save=6..2", "--grid save"),
    ("rules='Lethal 5+", "--grid rules"),
    ("cover=0,,1", "--grid cover"),
    ("cover=0, 1", "--grid cover"),
    ("cover=0 cover=1", "--grid cover"),
    ("cover=*,1", "--grid cover"),
    ("attacks=1,0..99999999", "--grid attacks"),  # a list of 10^8 values is refused before it is made
    ("obscured=maybe", "--grid obscured"),
    ("method=fast", "--grid method"),
    ("cover", "--grid"),
    ("", "--grid"),
])
def test_bad_grids_name_the_key(grid: str, field: str) -> None:
    with pytest.raises(InputError) as caught:
        parse_grid(grid, SHOOT_KEYS)
    assert caught.value.field == field


def test_a_bad_grid_on_the_command_line_is_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["sweep", "killteam", "shoot", "--grid", "save=2..6 hitt=3"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: --grid hitt: not an option") and err.count("\n") == 1
    assert main(["sweep", "killteam", "shoot", "--grid", "hit=5..7"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: --grid hit: ") and "7" in err and err.count("\n") == 1


@pytest.mark.parametrize("grid, column, values", [
    ("cover=*", "cover", [0, 1, 2, 3]),  # docs/rules/killteam.md: cover 0..3, attacks 1..12, hit 2..6
    ("attacks=*", "attacks", list(range(1, 13))),
    ("hit=*", "hit", [2, 3, 4, 5, 6]),  # numbers in the JSON, though --hit is text ("3+")
])
def test_a_star_is_every_value_the_action_accepts(capsys: pytest.CaptureFixture[str], grid: str, column: str,
                                                   values: list[object]) -> None:
    rows = _rows(capsys, "killteam", "shoot", "--grid", grid)["rows"]
    assert isinstance(rows, list) and [row[column] for row in rows] == values


@pytest.mark.parametrize("grid, message", [
    ("rules=*", "no integer in -1..64 is accepted"),
    ("samples=*", "no upper bound"),
])
def test_a_star_without_a_finite_range_is_refused(capsys: pytest.CaptureFixture[str], grid: str, message: str) -> None:
    assert main(["sweep", "killteam", "shoot", "--grid", grid]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"error: --grid {grid[:-2]}: ") and message in err and err.count("\n") == 1


def test_the_whole_grid_is_checked_before_the_first_cell(capsys: pytest.CaptureFixture[str]) -> None:
    with cpu_at_most(0.4):  # the three commands: about 0.4 s of CPU, the first time
        assert main(["sweep", "killteam", "shoot", "--grid", "save=2..6 hit=3..9"]) == 2
        err = capsys.readouterr().err
        assert err.startswith("error: --grid hit: 7") and err.count("\n") == 1
        assert main(["sweep", "killteam", "shoot", "--grid", "cover=0..999999999999999999999999999999"]) == 2
        err = capsys.readouterr().err
        assert err.startswith("error: --grid cover: ") and "allowed 0..3" in err
        assert main(["sweep", "killteam", "shoot", "--grid", "attacks=1..12 save=2..6 wounds=1..40 cover=0..3 "
                     "rounds=1..9 obscured=0,1 hit=2..6 rules=Balanced,Rending,Severe,Punishing,Brutal "
                     "cover-crits=0..3"]) == 2
        err = capsys.readouterr().err  # 12 * 5 * 40 * 4 * 9 * 2 * 5 * 5 * 4 cells
        assert err.startswith("error: grid: 17,280,000 cells; a sweep holds at most 10,000,000")


def test_an_option_also_in_the_grid_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["sweep", "killteam", "shoot", "--grid", "hit=3,4", "--hit", "5"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: --hit: is also a grid key") and err.count("\n") == 1


def _rows(capsys: pytest.CaptureFixture[str], *args: str) -> dict[str, object]:
    assert main(["sweep", *args, "--format", "json"]) == 0
    return json.loads(capsys.readouterr().out)  # type: ignore[no-any-return]


def test_a_shot_sweep_equals_the_shots(capsys: pytest.CaptureFixture[str]) -> None:
    out = _rows(capsys, "killteam", "shoot", "--wounds", "10", "--cover", "1",
                "--grid", 'hit=3,4 save=2..6 rules="Lethal 5+"|Balanced')
    rows = out["rows"]
    assert isinstance(rows, list) and len(rows) == 20 and out["cells"] == 20
    for row, (hit, save, rules) in zip(rows, itertools.product([3, 4], range(2, 7), ["Lethal 5+", "Balanced"])):
        expected = kt.shoot(kt.Weapon(4, hit, (3, 4), rules), kt.Operative(save, 10), cover=1).summary()
        assert row == {"hit": hit, "save": save, "rules": rules, **expected}


def test_a_fight_sweep_equals_the_fights(capsys: pytest.CaptureFixture[str]) -> None:
    rows = _rows(capsys, "killteam", "fight", "--b-wounds", "9", "--grid", "a-strategy=strike,parry first=a,b")["rows"]
    assert isinstance(rows, list)
    for row, (strategy, first) in zip(rows, itertools.product(["strike", "parry"], ["a", "b"])):
        a = kt.Fighter(4, 3, (3, 4), 12, strategy=strategy)
        expected = kt.fight(a, kt.Fighter(4, 3, (3, 4), 9), first=first).summary()
        assert row == {"a-strategy": strategy, "first": first, **expected}


def test_a_monte_carlo_sweep_uses_the_cell_seeds_and_workers_change_nothing(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["starcraft", "attack", "--method", "monte_carlo", "--samples", "2000", "--threads", "1", "--seed", "5",
            "--unit", "zealot", "--grid", "firing-models=1..3 hit-mod=0,1"]
    serial = _rows(capsys, *args)
    pooled = _rows(capsys, *args, "--workers", "2", "--chunk", "2")
    assert serial == pooled and serial["seed"] == 5
    rows = serial["rows"]
    assert isinstance(rows, list)
    rifle, zealot = sc.catalog.weapon("c14_rifle"), sc.catalog.unit("zealot")
    for index, (models, mod) in enumerate(itertools.product(range(1, 4), [0, 1])):
        direct = sc.attack(rifle, zealot, firing_models=models, hit_mod=mod, method="monte_carlo", samples=2000,
                           threads=1, seed=cell_seed(5, index))
        assert rows[index]["mean_damage"] == direct.summary()["mean_damage"]


@pytest.mark.parametrize("fmt", ["table", "csv", "markdown"])
def test_every_format(capsys: pytest.CaptureFixture[str], fmt: str) -> None:
    assert main(["sweep", "killteam", "shoot", "--grid", "save=3,4", "--format", fmt]) == 0
    out = capsys.readouterr().out
    assert "mean_damage" in out and "2 cells" in out or fmt == "csv"


def test_output_files(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for suffix in ("csv", "json"):
        path = tmp_path / f"sweep.{suffix}"
        assert main(["sweep", "killteam", "shoot", "--grid", "save=3,4 cover=0..1", "--output", str(path)]) == 0
        assert f"written to {path}" in capsys.readouterr().out
        frame = pd.read_csv(path) if suffix == "csv" else pd.read_json(path)
        assert list(frame.columns)[:2] == ["save", "cover"] and len(frame) == 4
        expected = kt.shoot(kt.Weapon(4, 3, (3, 4)), kt.Operative(4, 12), cover=1).summary()["mean_damage"]
        assert frame["mean_damage"].iloc[3] == pytest.approx(expected, rel=1e-12)
    assert main(["sweep", "killteam", "shoot", "--grid", "save=3", "--output", str(tmp_path / "x.txt")]) == 2
    assert capsys.readouterr().err.startswith("error: --output")


@pytest.mark.parametrize("game, action", sorted(sweepable_commands()))
def test_every_sweepable_action_runs_and_lists_its_keys(game: str, action: str,
                                                        capsys: pytest.CaptureFixture[str]) -> None:
    keys = _keys(game, action)[0]
    assert main(["sweep", game, action, "--help"]) == 0
    assert "Grid keys" in capsys.readouterr().out
    key = next(k for k in ("threads", "samples") if k in keys)
    out = _rows(capsys, game, action, "--method", "exact", "--grid", f"{key}=1,2")
    rows = out["rows"]
    assert isinstance(rows, list) and len(rows) == 2 and rows[0][key] == 1
    assert {k: v for k, v in rows[0].items() if k != key} == {k: v for k, v in rows[1].items() if k != key}


LAUNCH = ("import sys, mathhammer.cli as cli; sys.stderr.write('ready\\n'); sys.stderr.flush(); "
          "sys.exit(cli.main(sys.argv[1:]))")


def test_ctrl_c_stops_a_long_sweep() -> None:
    """A sweep of 1,584 exact fights (a minute or more) stops on SIGINT: exit 130, one line, no traceback."""
    here = str(Path(mathhammer.__file__).resolve().parent.parent)  # the mathhammer these tests import
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([here, os.environ.get("PYTHONPATH", "")]).rstrip(os.pathsep))
    args = ["sweep", "killteam", "fight", "--method", "exact", "--grid", "a-attacks=1..12 b-attacks=1..12 a-wounds=10..20"]
    process = subprocess.Popen([sys.executable, "-c", LAUNCH, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               text=True, env=env)
    try:
        assert process.stderr is not None and process.stderr.readline() == "ready\n"
        time.sleep(1.0)
        assert process.poll() is None
        process.send_signal(signal.SIGINT)
        sent = time.monotonic()
        out, err = process.communicate(timeout=20)
        stopped_after = time.monotonic() - sent
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    assert process.returncode == 130, err
    assert err == "interrupted\n" and out == ""
    assert stopped_after < 5.0
