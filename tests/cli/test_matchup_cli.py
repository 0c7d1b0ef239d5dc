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


@pytest.fixture()
def teams(tmp_path: Path) -> tuple[Path, Path]:
    a, _ = save_team(synthetic_team(31, operatives=3), tmp_path, stem="A")
    b, _ = save_team(synthetic_team(32, operatives=3), tmp_path, stem="B")
    return a, b


def test_tables_fit_80_columns(capsys: pytest.CaptureFixture[str], teams: tuple[Path, Path]) -> None:
    code, out, err = run(capsys, ["killteam", "matchup", "--profiles", str(teams[0]), "--against", str(teams[1])])
    assert code == 0, err
    assert "Shooting: Synthetic 31 at Synthetic 32" in out and "Fighting: Synthetic 31 against Synthetic 32" in out
    assert max(len(line) for line in out.splitlines()) <= 80
    assert "…" not in out


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
                             (["--output", str(tmp_path / "m.txt")], "--output")):
        code, _, err = run(capsys, ["killteam", "matchup", "--profiles", str(a), "--against", str(b), *options])
        assert code == 2 and message in err, err
