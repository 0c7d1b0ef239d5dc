"""Team libraries: the document a team is written as, read back by load_library (and --profiles)
and by kt.data.load_team, giving the same shots and fights."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import mathhammer as mh
from casedata import KILLTEAM_DATA
from mathhammer import killteam as kt
from mathhammer.errors import ProfileFileError
from mathhammer.files import library, scenario
from mathhammer.files.teams import file_stem, save_team, save_teams

DATA = KILLTEAM_DATA


@pytest.fixture(scope="module")
def ember() -> kt.data.Team:
    (team,) = kt.data.load_catalogues(DATA, teams=["Ember Wardens"])
    return team


def test_the_document(ember: kt.data.Team) -> None:
    doc = ember.to_library()
    assert doc["game"] == "killteam"
    assert {k: doc["team"][k] for k in ("name", "source", "revision", "sha256")} == {
        "name": "Ember Wardens", "source": "2024 - Ember Wardens.cat", "revision": 4, "sha256": ember.sha256}
    assert "2024 - Ember Wardens.cat" in doc["team"]["credit"] and "BSData" in doc["team"]["credit"]
    assert doc["operative"]["Warden Captain"] == {"save": 3, "wounds": 15, "abilities": "Hardy 5+"}
    assert doc["weapon"]["Warden Captain/Flame pistol (overcharge)"] == {"card": "4A 3+ 5/6 Lethal 5+, Piercing 1, Hot"}
    assert doc["fighter"]["Warden Captain/Ember maul"] == {"attacks": 5, "hit": 3, "damage": [4, 6], "wounds": 15,
                                                           "rules": "Shock", "abilities": "Hardy 5+"}
    assert doc["fighter"]["Warden Sergeant/Knife & Fork"] == {"attacks": 3, "hit": 4, "damage": [2, 3], "wounds": 14}
    assert doc["weapon"]["Spark grenade"] == {"card": "4A 4+ 2/3"}  # equipment: by its name alone
    assert doc["team"]["operative"]["Kindler Gunnér"]["weapons"][0] == "Kindler Gunnér/Blaze cannon"
    assert doc["team"]["weapon"]["Kindler Gunnér/Blaze cannon"] == {
        "name": "Blaze cannon", "kind": "ranged", "wr": 'Torrent 2", Piercing1'}


@pytest.mark.parametrize("fmt", ["toml", "json"])
def test_a_library_round_trips(ember: kt.data.Team, tmp_path: Path, fmt: str) -> None:
    path, report = save_team(ember, tmp_path / "teams", fmt)
    assert path == tmp_path / "teams" / f"Ember Wardens.{fmt}" and report.name == "Ember Wardens.import.json"
    loaded = mh.load_library(path)
    assert loaded["team"]["name"] == "Ember Wardens"  # the [team] table is kept
    target = loaded["operative"]["Warden Sergeant"]
    for op in ember:
        assert loaded["operative"][op.name] == op.operative
        for gun in op.weapons:
            key = f"{op.name}/{gun.name}"
            if gun.kind == "ranged":
                assert kt.shoot(loaded["weapon"][key], target) == kt.shoot(gun.weapon, target)
            else:
                fighter = loaded["fighter"][key]
                assert fighter == op.fighter(gun.name)
                assert kt.fight(fighter, fighter).wounds_a == kt.fight(op.fighter(gun.name), op.fighter(gun.name)).wounds_a
    again = kt.data.load_team(path)
    assert again == ember and again.report is None
    assert again["Kindler Gunnér"].weapon("Blaze cannon").torrent == 2
    written = json.loads(report.read_text(encoding="utf-8"))
    assert written["team"] == "Ember Wardens" and written["counts"]["skipped"] == 2
    # saving what was loaded writes the same library
    library.save_library(tmp_path / f"again.{fmt}", "killteam", loaded)
    assert mh.load_library(tmp_path / f"again.{fmt}") == loaded


def test_profiles_resolve_by_key(ember: kt.data.Team, tmp_path: Path) -> None:
    path, _ = save_team(ember, tmp_path)
    loaded = library.load_game_library(path, "killteam")
    gun = library.resolve_profile("killteam", "weapon", "Warden Captain/Flame pistol (standard)", loaded)
    assert gun == kt.Weapon(4, 3, (3, 5), "Piercing 1")


def test_a_scenario_names_a_team_library(ember: kt.data.Team, tmp_path: Path) -> None:
    save_team(ember, tmp_path)
    (tmp_path / "s.toml").write_text('profiles = ["Ember Wardens.toml"]\n[[killteam.shoot]]\n'
                                     'weapon = "Warden Recruit/Lasher"\ntarget = "Drifter"\n', encoding="utf-8")
    (outcome,) = scenario.run_scenario_file(tmp_path / "s.toml")
    # the library's entries are named by their keys
    assert outcome.result == kt.shoot(kt.Weapon(4, 4, (2, 3), name="Warden Recruit/Lasher"),
                                      kt.Operative(5, 7, name="Drifter"))


def test_two_teams_of_one_name_get_two_files(ember: kt.data.Team, tmp_path: Path) -> None:
    written = save_teams([ember, ember], tmp_path)
    assert [lib.name for _, lib, _ in written] == ["Ember Wardens.toml", "Ember Wardens 2.toml"]
    assert file_stem("T'au / Kroot: 2") == "T'au _ Kroot_ 2" and file_stem("...") == "team"


def test_load_team_refuses_what_is_no_team_library(tmp_path: Path) -> None:
    plain = tmp_path / "plain.toml"
    plain.write_text('game = "killteam"\n[weapon.gun]\ncard = "4A 3+ 3/4"\n', encoding="utf-8")
    with pytest.raises(ProfileFileError, match="no \\[team\\] table"):
        kt.data.load_team(plain)
    broken = tmp_path / "broken.toml"
    broken.write_text('game = "killteam"\n[team]\nname = "x"\n', encoding="utf-8")
    with pytest.raises(ProfileFileError, match="broken.toml: team: .* is missing or malformed"):
        kt.data.load_team(broken)
    other = tmp_path / "other.toml"
    other.write_text('game = "starcraft"\n', encoding="utf-8")
    with pytest.raises(ProfileFileError, match="not a Kill Team library"):
        kt.data.load_team(other)
