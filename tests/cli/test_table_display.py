"""How the terminal table shows results: 80 columns at the default settings, probabilities as
percentages (``--digits``, ``--probabilities``), and a non-zero chance never printed as 0."""

from __future__ import annotations

import re

import pytest
from cli_cases import run

from mathhammer._cli_common import Display, Probabilities, Table, probability_cells, probability_text

DEFAULT_COMMANDS = [
    ["run"],
    ["killteam", "shoot"],
    ["killteam", "shoot", "--saves", "2-6"],
    ["killteam", "fight"],
    ["starcraft", "attack"],
    ["deathburgh", "combat"],
    ["force-melee"],
]


@pytest.mark.parametrize("args", DEFAULT_COMMANDS, ids=" ".join)
def test_tables_fit_80_columns_without_cutting_a_cell(capsys, args):
    code, out, err = run(capsys, args)
    assert code == 0, err
    lines = out.splitlines()
    assert lines and max(len(line) for line in lines) <= 80
    assert "…" not in out  # Rich cuts a cell that does not fit with an ellipsis


@pytest.mark.parametrize("p, text", [
    (0.0, "0%"), (1.0, "100%"), (0.5, "50.00%"), (0.123456, "12.35%"),
    (1e-9, "<0.01%"), (0.00004, "<0.01%"), (0.00006, "0.01%"), (1 - 1e-9, ">99.99%"),
])
def test_probability_text_percent(p, text):
    assert probability_text(p, Display()) == text


def test_probability_text_digits_and_fraction():
    assert probability_text(1 / 3, Display(digits=4)) == "33.3333%"
    assert probability_text(1 / 3, Display(digits=0)) == "33%"
    assert probability_text(1 / 3, Display(2, Probabilities.fraction)) == "0.3333"
    assert probability_text(1e-7, Display(2, Probabilities.fraction)) == "<0.0001"


def test_nonzero_probability_never_prints_as_zero(capsys):
    # 12 damage needs all 12 attacks to hit on 6s (P <= 6**-12, far below 0.01%) and none saved
    code, out, _ = run(capsys, ["killteam", "shoot", "--attacks", "12", "--hit", "6", "--save", "6",
                                "--wounds", "40", "--damage", "1/1"])
    assert code == 0
    row = next(line for line in out.splitlines() if re.match(r"^│\s+12 │", line))
    assert "<0.01%" in row and " 0% " not in row and "0.00%" not in out


def test_digits_and_fraction_options(capsys):
    code, out, _ = run(capsys, ["killteam", "shoot", "--digits", "4"])
    assert code == 0 and "100%" in out and re.search(r"\d+\.\d{4}%", out)
    code, out, _ = run(capsys, ["killteam", "shoot", "--probabilities", "fraction"])
    assert code == 0 and "%" not in out.split("mean damage")[0]
    assert re.search(r"0\.\d{4} ", out)


def test_kill_chance_printed_like_the_table(capsys):
    import mathhammer.killteam as kt

    r = kt.shoot(kt.Weapon(4, 3, (3, 4)), kt.Operative(3, 12))
    code, out, _ = run(capsys, ["killteam", "shoot"])
    assert code == 0 and f"kill chance {100 * r.kill_chance:.2f}%" in out


def test_json_keeps_raw_floats(capsys):
    import json

    code, out, _ = run(capsys, ["killteam", "shoot", "--format", "json"])
    assert code == 0 and isinstance(json.loads(out)["kill_chance"], float)


def test_probability_cells_read_the_labels():
    table = Table("Outcome", ["quantity", "value"], [["P(win)", 0.5], ["mean damage", 2.5]])
    assert probability_cells(table) == [[False, True], [False, False]]
    table = Table("Fight", ["fighter", "death chance", "mean wounds left"], [["A", 0.1, 3.2]])
    assert probability_cells(table) == [[False, True, False]]
    table = Table("Damage", ["damage", "P(=)", "stderr"], [[0, 0.3, 0.001]])
    assert probability_cells(table) == [[False, True, True]]


def _heading(out: str) -> str:
    """The first table title (Rich wraps it at 80 columns: joined back into one line)."""
    return " ".join(out.split("┏", 1)[0].split())


def test_shot_heading_names_profiles_cover_and_obscured(capsys):
    code, out, _ = run(capsys, ["killteam", "shoot", "--weapon", "meltagun", "--target", "plague_marine",
                                "--cover", "1", "--cover-crits", "1", "--obscured", "--rounds", "2"])
    assert code == 0
    heading = _heading(out)
    for part in ("meltagun (4A 4+ 6/3", "plague_marine (3+ save; 14W", "cover crits 1", "cover 1", "obscured",
                 "2 rounds", "exact"):
        assert part in heading, (part, heading)


def test_shot_heading_names_method_samples_and_variants(capsys):
    code, out, _ = run(capsys, ["killteam", "shoot", "--method", "monte_carlo", "--samples", "20000", "--seed", "1",
                                "--threads", "1", "--variants", "ktcalc"])
    assert code == 0
    heading = _heading(out)
    assert "monte_carlo, 20,000 samples" in heading and "variants ktcalc" in heading
    assert "cover" not in heading and "obscured" not in heading  # only what was set


def test_fight_heading_names_profiles_strategies_and_rounds(capsys):
    code, out, _ = run(capsys, ["killteam", "fight", "--a-strategy", "parry", "--rounds", "2"])
    assert code == 0
    heading = _heading(out)
    assert "A 4A 3+ 3/4; 12W; parry" in heading and "B 4A 3+ 3/4; 12W; max_damage" in heading
    assert "exact" in heading and "2 rounds" in heading and "A first" in heading


def test_csv_ends_with_the_summary_figures(capsys):
    import csv
    import io

    import mathhammer.killteam as kt

    code, out, _ = run(capsys, ["killteam", "shoot", "--format", "csv"])
    assert code == 0
    distribution, figures = out.strip().split("\n\n")
    assert distribution.startswith("# Damage:")
    title, *lines = figures.splitlines()
    rows = list(csv.reader(io.StringIO("\n".join(lines))))
    assert title == "# Summary figures" and rows[0] == ["figure", "value"]
    expected = kt.shoot(kt.Weapon(4, 3, (3, 4)), kt.Operative(3, 12)).summary()
    assert {name: float(value) for name, value in rows[1:]} == pytest.approx(expected, rel=1e-5)
