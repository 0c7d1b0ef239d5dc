"""Team libraries at the table: several --profiles and folders of them, names resolved by exact name,
then by a unique last part or loose spelling, ambiguity errors listing the candidates qualified by
their team; the same in scenario files and in the API; `killteam profiles --profiles` listing them.
The teams are invented for the tests."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cli_cases import assert_one_line_error, run

from mathhammer.errors import ProfileFileError
from mathhammer import killteam as kt
from mathhammer.files import scenario
from mathhammer.files.library import load_game_libraries
from mathhammer.files.teams import save_team
from mathhammer.killteam.data import Team, TeamOperative, TeamWeapon

SCORCHER = kt.Weapon(4, 4, (6, 3), "Devastating 3, Piercing 2")
KNIFE = kt.Weapon(3, 3, (3, 4))


def _team(name: str, operatives: list[tuple[str, kt.Operative, list[tuple[str, str, kt.Weapon, str]]]]) -> Team:
    ops = tuple(TeamOperative(op, target, 2, 6, tuple(TeamWeapon.read(w, kind, gun, wr) for w, kind, gun, wr in guns))
                for op, target, guns in operatives)
    return Team(name, f"{name}.cat", 1, "0" * 64, ops)


ASH = _team("Ash Rangers", [
    ("Ranger", kt.Operative(4, 8), [("Knife", "melee", KNIFE, "-"), ("Carbine", "ranged", kt.Weapon(4, 3, (3, 4)), "-")]),
    ("Gunner with scorcher", kt.Operative(4, 8), [("Scorcher", "ranged", SCORCHER, 'Range 6", Devastating 3, Piercing 2'),
                                                  ("Knife", "melee", KNIFE, "-")]),
])
DUNE = _team("Dune Stalkers", [
    ("Ranger", kt.Operative(5, 7), [("Claws", "melee", kt.Weapon(4, 3, (4, 5)), "Rending")]),
    ("Stalker", kt.Operative(3, 12), [("Long rifle", "ranged", kt.Weapon(4, 2, (3, 3)), "Heavy, Devastating 1")]),
])


@pytest.fixture()
def folder(tmp_path: Path) -> Path:
    where = tmp_path / "teams"
    save_team(ASH, where)
    save_team(DUNE, where)
    return where


def test_a_unique_last_part_or_loose_spelling_names_the_profile(folder: Path) -> None:
    library = load_game_libraries([folder / "Ash Rangers.toml"], "killteam")
    for name in ("Scorcher", "scorcher", "Gunner with scorcher/Scorcher", "gunner_with_scorcher/SCORCHER"):
        found = kt.GAME.resolve_profile("weapon", name, library)
        assert found == SCORCHER and found.name == "Gunner with scorcher/Scorcher"


def test_the_command_takes_a_weapon_by_its_own_name(capsys: pytest.CaptureFixture[str], folder: Path) -> None:
    code, out, err = run(capsys, ["killteam", "shoot", "--profiles", str(folder / "Ash Rangers.toml"), "--weapon",
                                  "Scorcher", "--target", "ranger", "--format", "json"])
    assert code == 0, err
    payload = json.loads(out)
    assert payload["weapon"] == "Gunner with scorcher/Scorcher (4A 4+ 6/3 Piercing 2, Devastating 3)"
    assert payload["target"] == "Ranger (4+ save; 8W)"


def test_two_libraries_and_a_folder_at_once(capsys: pytest.CaptureFixture[str], folder: Path) -> None:
    # my Scorcher at their Stalker: two libraries, no scenario file
    for given in (["--profiles", str(folder / "Ash Rangers.toml"), "--profiles", str(folder / "Dune Stalkers.toml")],
                  ["--profiles", str(folder)]):
        code, out, err = run(capsys, ["killteam", "shoot", *given, "--weapon", "Scorcher", "--target", "Stalker",
                                      "--format", "json"])
        assert code == 0, err
        expected = kt.shoot(SCORCHER, kt.Operative(3, 12))
        assert json.loads(out)["result"]["damage"]["pmf"] == expected.damage.pmf.tolist()


def test_a_name_two_teams_share_is_an_error_listing_both_qualified(capsys: pytest.CaptureFixture[str],
                                                                   folder: Path) -> None:
    code, out, err = run(capsys, ["killteam", "shoot", "--profiles", str(folder), "--weapon", "Scorcher",
                                  "--target", "Ranger"])
    assert_one_line_error(code, err, "target: 'Ranger' names 2 operative profiles: 'Ash Rangers/Ranger', "
                                     "'Dune Stalkers/Ranger'")
    assert out == ""
    code, out, err = run(capsys, ["killteam", "shoot", "--profiles", str(folder), "--weapon", "Scorcher",
                                  "--target", "Dune Stalkers/Ranger", "--format", "json"])
    assert code == 0, err
    assert json.loads(out)["target"] == "Dune Stalkers/Ranger (5+ save; 7W)"


def test_a_name_two_entries_of_one_team_end_in_is_an_error(capsys: pytest.CaptureFixture[str], folder: Path) -> None:
    code, _, err = run(capsys, ["killteam", "fight", "--profiles", str(folder / "Ash Rangers.toml"),
                                "--a-profile", "Knife"])
    assert_one_line_error(code, err, "a.profile: 'Knife' names 2 fighter profiles: 'Ranger/Knife', "
                                     "'Gunner with scorcher/Knife'")
    code, _, err = run(capsys, ["killteam", "shoot", "--profiles", str(folder), "--weapon", "Scorchr"])
    assert_one_line_error(code, err, "weapon: unknown weapon 'Scorchr' (did you mean 'Scorcher'?)")


def test_candidates_of_several_libraries_are_listed_by_team(capsys: pytest.CaptureFixture[str], folder: Path) -> None:
    # 'Knife' ends two entries of one team; with both teams given, each candidate says its team
    code, out, err = run(capsys, ["killteam", "fight", "--profiles", str(folder), "--a-profile", "Knife"])
    assert_one_line_error(code, err, "a.profile: 'Knife' names 2 fighter profiles: 'Ash Rangers/Ranger/Knife', "
                                     "'Ash Rangers/Gunner with scorcher/Knife'; give one of these names")
    assert out == ""
    # a candidate as listed names its entry, and so does the team's name written loosely
    for given in ("Ash Rangers/Ranger/Knife", "ash rangers/ranger/knife"):
        code, out, err = run(capsys, ["killteam", "fight", "--profiles", str(folder), "--a-profile", given,
                                      "--b-profile", "Claws", "--format", "json"])
        assert code == 0, err
        assert json.loads(out)["result"]["fighters"][0] == "Ranger/Knife (3A 3+ 3/4; 8W; max_damage)"


def test_bad_libraries_and_folders_are_one_line(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                                folder: Path) -> None:
    empty = tmp_path / "empty"
    empty.mkdir()
    code, _, err = run(capsys, ["killteam", "shoot", "--profiles", str(empty)])
    assert_one_line_error(code, err, "--profiles: no profile libraries (.toml, .json) in the folder")
    code, _, err = run(capsys, ["killteam", "profiles", "--profiles", str(tmp_path / "missing.toml")])
    assert_one_line_error(code, err, "--profiles", "no such file or folder")
    other = tmp_path / "other.toml"
    other.write_text('game = "starcraft"\n', encoding="utf-8")
    code, _, err = run(capsys, ["killteam", "profiles", "--profiles", str(other)])
    assert_one_line_error(code, err, "other.toml", "this is a starcraft library")
    broken = tmp_path / "broken.toml"
    broken.write_text('game = "killteam"\n[team]\nname = "x"\n', encoding="utf-8")
    code, _, err = run(capsys, ["killteam", "profiles", "--profiles", str(broken)])
    assert_one_line_error(code, err, "broken.toml", "team:")


def test_profiles_lists_each_team_by_the_names_the_commands_take(capsys: pytest.CaptureFixture[str],
                                                                folder: Path) -> None:
    code, out, err = run(capsys, ["killteam", "profiles", "--profiles", str(folder), "--format", "json"])
    assert code == 0, err
    ash, dune = json.loads(out)["libraries"]
    assert ash["file"] == "Ash Rangers.toml" and ash["team"]["name"] == "Ash Rangers"
    assert [o["name"] for o in ash["team"]["operatives"]] == ["Ash Rangers/Ranger", "Gunner with scorcher"]
    assert ash["team"]["operatives"][0]["profile"]["save"] == 4 and ash["team"]["operatives"][0]["apl"] == 2
    scorcher = next(w for w in ash["team"]["weapons"] if w["name"] == "Gunner with scorcher/Scorcher")
    assert scorcher["kind"] == "ranged" and scorcher["wr"] == 'Range 6", Devastating 3, Piercing 2'
    assert scorcher["profile"]["rules"] == "Piercing 2, Devastating 3"
    assert [w["name"] for w in dune["team"]["weapons"]] == ["Ranger/Claws", "Stalker/Long rifle"]
    code, out, err = run(capsys, ["killteam", "profiles", "--profiles", str(folder / "Dune Stalkers.toml")])
    assert code == 0, err
    assert "Operatives: Dune Stalkers" in out and "Stalker/Long rifle" in out and "Heavy, Devastating 1" in out
    code, out, _ = run(capsys, ["killteam", "profiles"])  # without --profiles: what mathhammer ships
    assert "killteam profiles: --profiles killteam-examples, the default" in out


def test_scenario_files_resolve_the_same_way(folder: Path) -> None:
    text = ('profiles = ["teams/Ash Rangers.toml", "teams/Dune Stalkers.toml"]\n'
            '[[killteam.shoot]]\nweapon = "Scorcher"\ntarget = "{target}"\n')
    path = folder.parent / "s.toml"
    path.write_text(text.format(target="Stalker"), encoding="utf-8")
    (outcome,) = scenario.run_scenario_file(path)
    assert outcome.result == kt.shoot(kt.Weapon(4, 4, (6, 3), "Devastating 3, Piercing 2",
                                                name="Gunner with scorcher/Scorcher"),
                                      kt.Operative(3, 12, name="Stalker"))
    path.write_text(text.format(target="Ranger"), encoding="utf-8")
    with pytest.raises(ProfileFileError, match="'Ranger' names 2 operative profiles: 'Ash Rangers/Ranger'"):
        scenario.run_scenario_file(path)
    fight = 'profiles = ["teams/Ash Rangers.toml", "teams/Dune Stalkers.toml"]\n[[killteam.fight]]\na = "{a}"\nb = "Claws"\n'
    path.write_text(fight.format(a="Knife"), encoding="utf-8")
    with pytest.raises(ProfileFileError, match="'Knife' names 2 fighter profiles: 'Ash Rangers/Ranger/Knife', "
                                               "'Ash Rangers/Gunner with scorcher/Knife'"):
        scenario.run_scenario_file(path)
    path.write_text(fight.format(a="Ash Rangers/Gunner with scorcher/Knife"), encoding="utf-8")
    (outcome,) = scenario.run_scenario_file(path)
    assert outcome.result.fighters[0] == "Gunner with scorcher/Knife (3A 3+ 3/4; 8W; max_damage)"


def test_the_api_answers_an_ambiguous_name_422(folder: Path) -> None:
    pytest.importorskip("fastapi")
    from fastapi.testclient import TestClient

    from mathhammer.web import create_app

    client = TestClient(create_app(profiles=[folder]))
    response = client.post("/api/v1/killteam/shoot", json={"weapon": "Scorcher", "target": "Ranger"})
    assert response.status_code == 422 and response.json()["field"] == "target"
    assert "Dune Stalkers/Ranger" in response.json()["message"]
    response = client.post("/api/v1/killteam/fight", json={"a": "Knife", "b": "Claws"})
    assert response.status_code == 422 and "'Ash Rangers/Gunner with scorcher/Knife'" in response.json()["message"]
    response = client.post("/api/v1/killteam/shoot", json={"weapon": "scorcher", "target": "Stalker"})
    assert response.status_code == 200
