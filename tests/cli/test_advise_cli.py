"""`mathhammer killteam advise`: the legal moves from fixed dice, their values, the best marked, and
what each heuristic would play; ``kt.Advice`` prints the same table."""

from __future__ import annotations

import re

import pytest
from cli_cases import assert_one_line_error, run, run_json

import mathhammer.killteam as kt
from mathhammer.killteam.advice import MOVES
from mathhammer.cli.killteam import parse_dice


def _row(out: str, move: str) -> list[str]:
    line = next(line for line in out.splitlines() if re.match(rf"^│\s*{move}\s+│", line))
    return [cell.strip() for cell in line.strip("│").split("│")]


def test_advise_table_by_hand(capsys):
    # A: 1 crit + 2 norms of 3/4 damage, B: 2 norms; A strikes first. If A strikes with everything
    # and B strikes back, B takes 4 + 3 + 3 = 10 (12 -> 2) and A takes 3 + 3 = 6 (12 -> 6), nobody dies.
    code, out, err = run(capsys, ["killteam", "advise", "--dice-a", "1c2n", "--dice-b", "0c2n"])
    assert code == 0, err
    assert _row(out, "crit_strike")[2:] == ["6.000", "2.000", "0%", "0%", "*"]  # one format a column
    assert {m for m in ("crit_strike", "norm_strike", "crit_parry", "norm_parry") if _row(out, m)} == set(MOVES)
    assert "What each strategy would play" in out and "best: crit_strike" in out
    assert max(len(line) for line in out.splitlines()) <= 80 and "…" not in out


def test_advise_json_matches_the_engine(capsys):
    a = kt.Fighter(4, 3, (3, 4), 12, strategy="optimal", objective="kill")
    b = kt.Fighter(4, 3, (3, 4), 4, strategy="max_damage")
    out = run_json(capsys, ["killteam", "advise", "--dice-a", "1c1n", "--dice-b", "1c1n", "--a-strategy", "optimal",
                            "--a-objective", "kill", "--b-wounds", "4"])
    expected = kt.advise(a, b, (1, 1), (1, 1))
    assert out["best"] == expected.best and out["heuristic"] == expected.heuristic and out["mover"] == "a"


def test_advice_prints_the_same_table(capsys):
    advice = kt.advise(kt.Fighter(4, 3, (3, 4), 12), kt.Fighter(4, 3, (3, 4), 12), (1, 2), (0, 2))
    code, out, _ = run(capsys, ["killteam", "advise", "--dice-a", "1c2n", "--dice-b", "0c2n", "--format", "markdown"])
    assert code == 0 and advice.to_markdown() in out
    code, table, _ = run(capsys, ["killteam", "advise", "--dice-a", "1c2n", "--dice-b", "0c2n"])
    text = str(advice)  # the same tables as plain text (the terminal draws them with Rich)
    assert code == 0 and text.splitlines()[0] == table.splitlines()[0]
    drawn = {tuple(cell.strip() for cell in line.strip("│").split("│") if cell.strip())
             for line in table.splitlines() if line.startswith("│")}
    blocks = [block.splitlines() for block in text.split("\n\n")]
    rows = [tuple(re.split(r"\s{2,}", line.strip())) for block in blocks if len(block) > 2 for line in block[2:]]
    assert rows and all(row in drawn for row in rows)


@pytest.mark.parametrize("text, dice", [("1c2n", (1, 2)), ("2n", (0, 2)), ("1c", (1, 0)), ("1,2", (1, 2)),
                                        (" 0C 3N ", (0, 3))])
def test_parse_dice(text, dice):
    assert parse_dice("--dice-a", text) == dice


@pytest.mark.parametrize("text", ["", "c", "1x2", "n2"])
def test_bad_dice_are_refused(capsys, text):
    code, _, err = run(capsys, ["killteam", "advise", "--dice-a", text, "--dice-b", "0c2n"])
    assert_one_line_error(code, err, "--dice-a")
