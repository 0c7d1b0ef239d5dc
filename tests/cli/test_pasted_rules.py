"""A datacard's weapon rules pasted as written: the commands, scenario files and libraries take the
tokens that change nothing in one shot or one fight, compute the shot without them, and the commands
say on stderr what they set aside; Hot and unknown words stay one-line errors."""

from __future__ import annotations

import json

from pathlib import Path

import pytest
from cli_cases import assert_one_line_error, run

from mathhammer import killteam as kt
from mathhammer.files import scenario
from mathhammer.files.library import load_library

PASTED = 'Range 8", Piercing 1, Silent, Heavy (Dash only), Limited 1, Seek Light, PSYCHIC, Stun'


def test_shoot_prints_the_shot_without_them_and_notes_them_on_stderr(capsys: pytest.CaptureFixture[str]) -> None:
    code, pasted, err = run(capsys, ["killteam", "shoot", "--rules", PASTED, "--format", "markdown"])
    assert code == 0, err
    code, plain, _ = run(capsys, ["killteam", "shoot", "--rules", "Piercing 1", "--format", "markdown"])
    assert code == 0 and pasted == plain
    notes = err.splitlines()
    assert [line.split(": ", 2)[2].split(":")[0] for line in notes] == [
        'Range 8"', "Silent", "Heavy (Dash only)", "Limited 1", "Seek Light", "PSYCHIC", "Stun"]
    assert all(line.startswith("note: --rules: ") for line in notes)


def test_blast_in_shoot_points_to_volley(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, ["killteam", "shoot", "--weapon", '4A 3+ 3/4 Blast 2", Lethal 5+', "--format", "json"])
    assert code == 0, err
    assert err.startswith('note: --weapon: Blast 2": more targets') and "kt.volley" in err
    assert '"weapon": "4A 3+ 3/4 Lethal 5+"' in out


def test_fight_and_compare_note_what_they_set_aside(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, ["killteam", "fight", "--a-rules", "Brutal, Limited 1", "--b-profile",
                                "4A 3+ 3/4 Shock, Stun; 10W"])
    assert code == 0, err
    assert err == ("note: --a-rules: Limited 1: uses per battle, out of a shot's scope\n"
                   "note: --b-profile: Stun: after the attack: the target's APL, out of a shot's scope\n")
    code, _, err = run(capsys, ["killteam", "compare", "--weapon", '4A 3+ 3/4 Range 6"', "--weapon", "4A 3+ 3/4"])
    assert code == 0 and err.startswith('note: --weapon: Range 6": targeting'), err


def test_unknown_words_are_one_line_errors(capsys: pytest.CaptureFixture[str]) -> None:
    # Hot is a rule the engine models (docs/rules/killteam.md §2.2): pasted, it is read, not set aside
    code, out, err = run(capsys, ["killteam", "shoot", "--rules", "Piercing 1, Hot", "--format", "json"])
    assert code == 0 and "note:" not in err and json.loads(out)["weapon"].endswith("Piercing 1, Hot"), err
    code, _, err = run(capsys, ["killteam", "shoot", "--rules", 'Rnage 8", Piercing 1'])
    assert_one_line_error(code, err, "rules", "unknown weapon rule 'Rnage 8\"'", "did you mean 'Range x\"'")


def test_libraries_and_scenarios_store_and_shoot_only_the_rules(tmp_path: Path) -> None:
    (tmp_path / "lib.toml").write_text(f'game = "killteam"\n[weapon.pasted]\ncard = \'4A 3+ 3/4 {PASTED}\'\n'
                                       f'[weapon.by_fields]\nattacks = 4\nhit = 3\nrules = \'{PASTED}\'\n',
                                       encoding="utf-8")
    library = load_library(tmp_path / "lib.toml")
    assert library["weapon"]["pasted"] == library["weapon"]["by_fields"] == kt.Weapon(4, 3, (3, 4), "Piercing 1")
    assert library["weapon"]["pasted"].to_dict()["rules"] == "Piercing 1"
    (tmp_path / "s.toml").write_text(f'[[killteam.shoot]]\nweapon = \'4A 3+ 3/4 {PASTED}\'\ntarget = "3+ save"\n'
                                     .replace('target = "3+ save"', 'target = {save = 3}'), encoding="utf-8")
    (outcome,) = scenario.run_scenario_file(tmp_path / "s.toml")
    assert outcome.result == kt.shoot(kt.Weapon(4, 3, (3, 4), "Piercing 1"), kt.Operative(3))
