"""``mathhammer killteam import`` and ``mathhammer killteam teams``."""

from __future__ import annotations

import json
import re
import shlex
import shutil
from pathlib import Path

import pytest

from casedata import KILLTEAM_DATA, KILLTEAM_TEAMS
from mathhammer.cli import main

ROOT = Path(__file__).resolve().parents[3]
DATA = KILLTEAM_DATA


def run(capsys: pytest.CaptureFixture[str], args: list[str]) -> tuple[int, str, str]:
    code = main(args)
    out, err = capsys.readouterr()
    return code, out, err


def test_import_writes_a_library_and_a_report_per_team(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, out, err = run(capsys, ["killteam", "import", str(DATA), "--out", str(tmp_path / "teams")])
    assert code == 0, err
    assert sorted(p.name for p in (tmp_path / "teams").iterdir()) == [
        "Ember Wardens.import.json", "Ember Wardens.toml", "Gloam Pact.import.json", "Gloam Pact.toml"]
    assert "2 teams, 10 operatives, 30 weapons" in " ".join(out.split())
    assert "skipped 2021 - Ember Wardens.cat" in " ".join(out.split())
    code, out, err = run(capsys, ["killteam", "shoot", "--profiles", str(tmp_path / "teams" / "Gloam Pact.toml"),
                                  "--weapon", "Brånd Seer/Gloam staff (focused)", "--target", "Warden Envoy",
                                  "--format", "json"])
    assert code == 0, err
    assert json.loads(out)["weapon"] == "Brånd Seer/Gloam staff (focused) (4A 3+ 3/3 Devastating 1)"


def test_the_example_teams_are_what_the_import_writes(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """examples/killteam/teams (docs/matchup.md, docs/meta.md) is the import of examples/killteam/data:
    after a change to the catalogues, write it again with
    `mathhammer killteam import examples/killteam/data --out examples/killteam/teams`."""
    code, _, err = run(capsys, ["killteam", "import", str(KILLTEAM_DATA), "--out", str(tmp_path)])
    assert code == 0, err
    written = sorted(p.name for p in tmp_path.iterdir())
    assert written == sorted(p.name for p in KILLTEAM_TEAMS.iterdir())
    for name in written:
        assert (tmp_path / name).read_bytes() == (KILLTEAM_TEAMS / name).read_bytes(), name


def test_import_one_team_as_json(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, _, err = run(capsys, ["killteam", "import", str(DATA), "--team", "gloam pact", "--out", str(tmp_path),
                                "--format", "json"])
    assert code == 0, err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["Gloam Pact.import.json", "Gloam Pact.json"]
    code, _, err = run(capsys, ["killteam", "fight", "--profiles", str(tmp_path / "Gloam Pact.json"),
                                "--a-profile", "Warden Envoy/Ember maul", "--b-profile", "Brånd Seer/Fists"])
    assert code == 0, err


def test_unknown_tokens_exit_0_unless_strict(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    folder = tmp_path / "data"
    folder.mkdir()
    shutil.copy(DATA / "2024 - Test Game System.gst", folder)
    text = (DATA / "2024 - Ember Wardens.cat").read_text(encoding="utf-8").replace(">Shock<", ">Shock, Frobnicate 2<")
    (folder / "2024 - Ember Wardens.cat").write_text(text, encoding="utf-8")
    code, out, _ = run(capsys, ["killteam", "import", str(folder), "--out", str(tmp_path / "a")])
    assert code == 0 and "Frobnicate 2" in out
    code, _, err = run(capsys, ["killteam", "import", str(folder), "--out", str(tmp_path / "b"), "--strict"])
    assert code == 2 and err.count("\n") == 1
    # the Captain's maul and the Sergeant's (the Envoy's is in Gloam Pact, not imported here)
    assert err.startswith("error: --strict: 2 unknown weapon-rule tokens ('Frobnicate 2')")
    report = json.loads((tmp_path / "b" / "Ember Wardens.import.json").read_text(encoding="utf-8"))
    assert report["counts"]["unknown_tokens"] == {"Frobnicate 2": 2}


def test_import_a_roster(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, _, err = run(capsys, ["killteam", "import", str(DATA / "Ember patrol.ros"), "--out", str(tmp_path), "--strict"])
    assert code == 0, err
    assert (tmp_path / "Ember Wardens.toml").is_file()
    code, _, err = run(capsys, ["killteam", "import", str(DATA / "Ember patrol.ros"), "--team", "Other",
                                "--out", str(tmp_path)])
    assert code == 2 and "no team 'Other' among the rosters" in err


@pytest.mark.parametrize(("args", "message"), [
    (["--team", "Nobody"], "error: team: no team 'Nobody' among the catalogues"),
    (["--format", "yaml"], "error: --format"),
])
def test_import_errors_are_one_line(capsys: pytest.CaptureFixture[str], tmp_path: Path, args: list[str],
                                    message: str) -> None:
    code, _, err = run(capsys, ["killteam", "import", str(DATA), "--out", str(tmp_path), *args])
    assert code == 2 and err.startswith(message) and err.count("\n") == 1


def test_a_missing_game_system_is_one_line(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, _, err = run(capsys, ["killteam", "import", str(DATA / "2024 - Ember Wardens.cat"), "--out", str(tmp_path)])
    assert code == 2
    assert err == f"error: {DATA / '2024 - Ember Wardens.cat'}: no game system (.gst) c521-ad27-44df-f959 " \
                  "among the files\n"


def test_teams_lists_a_folder(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, out, err = run(capsys, ["killteam", "teams", str(DATA), "--format", "json"])
    assert code == 0, err
    files = {row["file"]: row["kind"] for row in json.loads(out)["files"]}
    assert files == {"2021 - Ember Wardens.cat": "catalogue", "2024 - Ember Wardens.cat": "catalogue",
                     "2024 - Gloam Pact.cat": "catalogue", "2024 - Test Game System.gst": "game system",
                     "Ember patrol.ros": "roster"}
    run(capsys, ["killteam", "import", str(DATA), "--out", str(tmp_path)])
    (tmp_path / "broken.cat").write_text("<catalogue", encoding="utf-8")
    code, out, _ = run(capsys, ["killteam", "teams", str(tmp_path), "--format", "json"])
    rows = json.loads(out)["files"]
    assert [(r["file"], r["kind"], r["name"]) for r in rows] == [
        ("Ember Wardens.toml", "team library", "Ember Wardens"), ("Gloam Pact.toml", "team library", "Gloam Pact"),
        ("broken.cat", "unreadable", "")]
    assert rows[0]["detail"] == "8 operatives, 25 weapons, from 2024 - Ember Wardens.cat revision 4"
    code, _, err = run(capsys, ["killteam", "teams", str(tmp_path / "Gloam Pact.toml")])
    assert code == 2 and "not a folder" in err


def test_help_has_examples(capsys: pytest.CaptureFixture[str]) -> None:
    for command in ("import", "teams"):
        code, out, _ = run(capsys, ["killteam", command, "--help"])
        assert code == 0 and "Example" in out and "mathhammer killteam " + command in out


def test_the_worked_example_runs_in_order(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """docs/data.md's example chains commands with &&; each runs after the one before, in one folder
    (an empty one, after `mathhammer examples --copy examples`, as tests/test_doc_commands.py runs
    every documented command)."""
    page = (ROOT / "docs" / "data.md").read_text(encoding="utf-8")
    block = re.search(r"## A worked example.*?```bash\n(.*?)```", page, re.DOTALL)
    assert block is not None
    monkeypatch.chdir(tmp_path)
    assert run(capsys, ["examples", "--copy", "examples"])[0] == 0
    lines = block.group(1).replace("\\\n", " ").splitlines()
    commands = [shlex.split(part) for line in lines for part in line.split("&&")]
    assert len(commands) == 4
    outputs = []
    for words in commands:
        code, out, err = run(capsys, words[words.index("mathhammer") + 1:])
        assert code == 0, (words, err)
        outputs.append(out)
    # the overcharged pistol's own profile (5/6), by its name and notation as the result records them
    assert ("Damage: Warden Captain/Flame pistol (overcharge) (4A 3+ 5/6 Lethal 5+, Piercing 1, Hot) against Warden "
            "Sergeant (3+ save; 14W), cover 1") in " ".join(outputs[2].split())


def test_import_says_per_team_what_its_abilities_became(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, out, err = run(capsys, ["killteam", "import", str(DATA), "--out", str(tmp_path / "a")])
    assert code == 0, err
    lines = out.splitlines()
    assert "Ember Wardens (revision 4): 8 operatives, 25 weapons" in lines
    assert "  switches     2  Ember Ward: Just a Scratch (normals), Cinder Oath: Severe" in lines
    assert "  flagged      1  Warden Recruit/Grapnel (both kinds)" in lines
    assert max(len(line) for line in lines) <= 80
    # --report: every line, each with why; --strict: a weapon imported as both kinds exits 2
    code, full, err = run(capsys, ["killteam", "import", str(DATA), "--out", str(tmp_path / "b"), "--report",
                                   "--strict"])
    assert code == 2 and err == ("error: --strict: 1 weapons imported as both kinds ('Warden Recruit/Grapnel'); the "
                                 "reports beside the libraries list them\n")
    assert "    Cinder Oath: 'each friendly operative can perform the dash action for 1 less" in full.splitlines()
    assert len(full.splitlines()) > len(lines) and max(len(line) for line in full.splitlines()) <= 80


def test_with_turns_a_switch_on(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    assert run(capsys, ["killteam", "import", str(DATA), "--out", str(tmp_path)])[0] == 0
    ember = str(tmp_path / "Ember Wardens.toml")
    shot = ["killteam", "shoot", "--profiles", ember, "--weapon", "Warden Captain/Flame pistol (standard)",
            "--target", "Warden Sergeant", "--format", "json"]
    code, out, err = run(capsys, [*shot, "--with", "Ember Ward", "--with", "cinder oath"])
    assert code == 0, err
    payload = json.loads(out)
    assert payload["weapon"] == "Warden Captain/Flame pistol (standard) (4A 3+ 3/5 Severe, Piercing 1)"
    assert payload["target"] == "Warden Sergeant (3+ save; 14W; Just a Scratch (normals))"
    assert payload["with"] == ["Ember Ward", "cinder oath"]
    off_by_default = json.loads(run(capsys, shot)[1])["weapon"]
    assert off_by_default == "Warden Captain/Flame pistol (standard) (4A 3+ 3/5 Piercing 1)"
    code, _, err = run(capsys, [*shot, "--with", "Ember Wart"])
    assert code == 2 and err.startswith("error: --with: no switch 'Ember Wart' (did you mean 'Ember Ward'?)")
    # compare: the library's weapon with the switch on is the weapon written with its rule
    compared = ["killteam", "compare", "--profiles", ember, "--weapon", "Warden Captain/Flame pistol (standard)",
                "--saves", "3", "--at-least", "4", "--format", "json"]
    code, out, err = run(capsys, [*compared, "--weapon", "4A 3+ 3/5 Severe, Piercing 1", "--with", "Cinder Oath"])
    assert code == 0, err
    rows = json.loads(out)["rows"]
    assert json.loads(out)["with"] == ["Cinder Oath"] and rows[0]["situation"] != rows[1]["situation"]
    assert rows[0]["mean_damage"] == rows[1]["mean_damage"] and rows[2]["mean_damage"] == 0
    code, out, err = run(capsys, [*compared, "--weapon", "4A 3+ 3/5 Severe, Piercing 1"])
    off = json.loads(out)["rows"]
    assert code == 0 and off[0]["mean_damage"] < off[1]["mean_damage"]  # off by default: no Severe
    code, out, err = run(capsys, ["killteam", "fight", "--profiles", ember, "--a-profile", "Warden Sergeant/Ember maul",
                                  "--b-profile", "Warden Captain/Ember maul", "--with", "Ember Ward", "--format", "json"])
    assert code == 0, err
    assert json.loads(out)["a"] == "4A 4+ 4/6 Shock; 14W; max_damage; Just a Scratch (normals)"
    code, out, err = run(capsys, ["killteam", "matchup", "--profiles", ember, "--against", ember, "--with", "Ember Ward",
                                  "--no-fight", "--cover", "0", "--format", "json"])
    assert code == 0 and json.loads(out)["with"] == ["Ember Ward"], err
    code, _, err = run(capsys, ["killteam", "matchup", "--profiles", ember, "--against", ember, "--with", "Nope"])
    assert code == 2 and err.startswith("error: --with: no switch 'Nope' in Ember Wardens")
