"""mathhammer killteam matchup: the tables at 80 columns, the long table written to a file, the heat
map, the JSON payload, and the rows those of kt.matchup."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pandas as pd
import pytest
from cli_cases import run

from mathhammer import killteam as kt
from mathhammer.files.teams import save_team

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "killteam"))
from synthetic_teams import synthetic_team  # noqa: E402

from mathhammer.killteam.data import Team, TeamOperative, TeamWeapon  # noqa: E402


@pytest.fixture()
def teams(tmp_path: Path) -> tuple[Path, Path]:
    a, _ = save_team(synthetic_team(31, operatives=3), tmp_path, stem="A")
    b, _ = save_team(synthetic_team(32, operatives=3), tmp_path, stem="B")
    return a, b


def test_tables_fit_80_columns(capsys: pytest.CaptureFixture[str], teams: tuple[Path, Path]) -> None:
    code, out, err = run(capsys, ["killteam", "matchup", "--profiles", str(teams[0]), "--against", str(teams[1]),
                                  "--all"])
    assert code == 0, err
    assert "Shooting: Synthetic 31 at Synthetic 32" in out and "Fighting: Synthetic 31 against Synthetic 32" in out
    assert max(len(line) for line in out.splitlines()) <= 80
    assert "…" not in out and "%" in out  # chances as percentages, like every other table


def _long_named(seed: int, operatives: int, suffix: str = " (hot)") -> Team:
    """A synthetic team whose operatives and weapons have names as long as real ones."""
    team = synthetic_team(seed, operatives=operatives)
    ops = tuple(TeamOperative(f"Pathfinder Vet {i + 1}", op.operative, op.apl, op.move,
                              tuple(TeamWeapon.read(f"{w.name}{suffix}", w.kind, w.weapon, w.wr) for w in op.weapons))
                for i, op in enumerate(team))
    return Team(f"Long Named {seed}", team.file, 1, team.sha256, ops)


@pytest.mark.parametrize("operatives", [10, 40])
def test_the_summary_is_a_screen_naming_each_operative_in_full(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                                               operatives: int) -> None:
    a, _ = save_team(_long_named(41, operatives), tmp_path, stem="A")
    b, _ = save_team(_long_named(42, operatives), tmp_path, stem="B")
    code, out, err = run(capsys, ["killteam", "matchup", "--profiles", str(a), "--against", str(b)])
    assert code == 0, err
    lines = out.splitlines()
    assert len(lines) <= 2 * operatives + 12 and max(len(line) for line in lines) <= 80
    for i in range(operatives):  # one line each in both tables, the name whole in the first column
        name = f"Pathfinder Vet {i + 1}"
        rows = [line for line in lines if line.startswith(name + " ")]
        assert len(rows) == 2 and all("/gun" in rows[0] and "/blade" in rows[1] and "(hot)" in row for row in rows)
    assert "…" not in out and "%" in out


def test_a_name_too_long_for_one_line_wraps_its_own_column_only(capsys: pytest.CaptureFixture[str],
                                                               tmp_path: Path) -> None:
    a, _ = save_team(_long_named(43, 3, " (the long-barrelled overcharged variant)"), tmp_path, stem="A")
    b, _ = save_team(_long_named(44, 3), tmp_path, stem="B")
    code, out, err = run(capsys, ["killteam", "matchup", "--profiles", str(a), "--against", str(b)])
    assert code == 0, err
    lines = out.splitlines()
    assert max(len(line) for line in lines) <= 80 and "…" not in out
    for i in range(3):
        assert sum(line.startswith(f"Pathfinder Vet {i + 1} ") for line in lines) == 2


def test_markdown_is_the_results_and_json_holds_the_summary(capsys: pytest.CaptureFixture[str],
                                                            teams: tuple[Path, Path]) -> None:
    a, b = teams
    code, out, err = run(capsys, ["killteam", "matchup", "--profiles", str(a), "--against", str(b), "--format", "json"])
    assert code == 0, err
    payload = json.loads(out)
    result = kt.Matchup.from_dict(payload["result"])
    assert payload["summary"] == result.summary().to_dict()
    code, out, err = run(capsys, ["killteam", "matchup", "--profiles", str(a), "--against", str(b),
                                  "--format", "markdown"])
    assert code == 0 and out == result.to_markdown() + "\n"
    code, out, err = run(capsys, ["killteam", "matchup", "--profiles", str(a), "--against", str(b), "--all",
                                  "--format", "markdown"])
    assert code == 0 and out.startswith("### Shooting: Synthetic 31 at Synthetic 32")


def test_teams_with_nothing_to_shoot_or_fight_say_so(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    ranged_only = synthetic_team(51, operatives=2, weapons=1)
    a, _ = save_team(ranged_only, tmp_path, stem="A")
    code, out, err = run(capsys, ["killteam", "matchup", "--profiles", str(a), "--against", str(a)])
    assert code == 0, err
    assert "Synthetic 51 has no melee weapons: no fights" in out and "Synthetic 51 shooting at Synthetic 51" in out


def test_output_files_plot_and_json(capsys: pytest.CaptureFixture[str], teams: tuple[Path, Path],
                                    tmp_path: Path) -> None:
    a, b = teams
    expected = kt.matchup(a, b, cover=[0], first=["b"], strategies=[("parry", "strike")]).to_frame()
    options = ["--cover", "0", "--first", "b", "--strategies", "parry/strike"]
    for name in ("m.csv", "m.parquet", "m.json"):
        code, _, err = run(capsys, ["killteam", "matchup", "--profiles", str(a), "--against", str(b), *options,
                                    "--output", str(tmp_path / name), "--format", "json"])
        assert code == 0, err
    csv = pd.read_csv(tmp_path / "m.csv")
    assert list(csv.columns) == list(expected.columns) and len(csv) == len(expected)
    assert csv["kill_chance"].tolist() == expected["kill_chance"].tolist()
    parquet = pd.read_parquet(tmp_path / "m.parquet")
    pd.testing.assert_frame_equal(parquet, expected, check_dtype=False)
    records = json.loads((tmp_path / "m.json").read_text())
    assert [r["kill_chance"] for r in records] == expected["kill_chance"].tolist()
    code, out, err = run(capsys, ["killteam", "matchup", "--profiles", str(a), "--against", str(b), "--no-fight",
                                  "--format", "json", "--plot", str(tmp_path / "m.png")])
    assert code == 0, err
    payload = json.loads(out)
    assert payload["result"]["fights"] == [] and len(payload["result"]["shots"]) > 0
    assert (tmp_path / "m.png").stat().st_size > 0


def test_bad_options_are_one_line(capsys: pytest.CaptureFixture[str], teams: tuple[Path, Path],
                                  tmp_path: Path) -> None:
    a, b = teams
    for options, message in ((["--cover", "0,x"], "--cover"), (["--strategies", "parry"], "--strategies"),
                             (["--output", str(tmp_path / "m.txt")], "--output"),
                             (["--cover", "1,4", "--output", str(tmp_path / "m.csv")], "--cover: 4 is out of range")):
        code, out, err = run(capsys, ["killteam", "matchup", "--profiles", str(a), "--against", str(b), *options])
        assert code == 2 and err.startswith("error: ") and err.count("\n") == 1 and message in err, err
        assert out == "" and not (tmp_path / "m.csv").exists()  # nothing written
    code, out, err = run(capsys, ["killteam", "matchup", "--profiles", str(a), "--against", str(tmp_path)])
    assert code == 2 and out == "" and err.count("\n") == 1, err
    assert err.startswith("error: --against: ") and "is a folder; a matchup takes one team library per side" in err
    not_a_team = tmp_path / "plain.toml"
    not_a_team.write_text('game = "killteam"\n[weapon.gun]\ncard = "4A 3+ 3/4"\n', encoding="utf-8")
    code, _, err = run(capsys, ["killteam", "matchup", "--profiles", str(a), "--against", str(not_a_team)])
    assert code == 2 and "plain.toml: no [team] table" in err and err.count("\n") == 1, err
