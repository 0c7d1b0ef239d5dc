"""`mathhammer deathburgh combat | round | profiles`: defaults, every option, formats, errors."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from mathhammer import deathburgh as db
from mathhammer.cli import main

EXAMPLES_DIR = Path(__file__).resolve().parents[2] / "examples" / "deathburgh"


def run_json(capsys: pytest.CaptureFixture[str], *args: str) -> dict[str, Any]:
    code = main(["deathburgh", *args, "--format", "json"])
    out = capsys.readouterr().out
    assert code == 0, out
    return json.loads(out)


def test_bare_command_runs_the_example_followers(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["deathburgh", "combat"]) == 0
    out = capsys.readouterr().out
    for title in ("Outcome", "Wounds to the defender", "Wounds to the attacker", "Joint", "Attacker successes"):
        assert title in out
    payload = run_json(capsys, "combat")
    expected = db.combat(db.example("Old Fellas Melee Warrior Follower"), db.example("Bandit Melee Follower"))
    assert payload["result"] == json.loads(expected.to_json())
    assert payload["attacker"]["mini"]["name"] == "Old Fellas Melee Warrior Follower"
    assert payload["reaction"] == "attack" and payload["switches"]["edition"] == "web"


def test_every_side_option_reaches_the_engine(capsys: pytest.CaptureFixture[str]) -> None:
    payload = run_json(
        capsys, "combat", "--attacker", "Bandit Ranged Follower", "--attacker-steady-aim", "--attacker-full-visibility",
        "--attacker-extra-dice", "1", "--attacker-reroll", "one_fail", "--attacker-souls-dice", "1",
        "--attacker-instant1", "1", "--attacker-wounds", "2", "--attacker-instant6", "1",
        "--defender", "A 3/4+ D 5/3+ W 5", "--defender-mode", "defensive", "--defender-take-cover",
        "--defender-get-down", "--defender-zig-zag", "--defender-role", "ranged", "--defender-w", "6",
        "--defender-wounds", "4", "--reaction", "dodge", "--edition", "alpha", "--draw", "scored",
        "--draw-in-dodge", "--cap-wounds-at-dice", "--bonus-dice", "add", "--souls", "add", "--souls-limit", "2",
    )
    attacker = db.Side(db.example("Bandit Ranged Follower"), steady_aim=True, full_visibility=True, extra_dice=1,
                       reroll="one_fail", souls_dice=1, instant1=1, wounds=2, instant6=1)
    defender = db.Side(db.Miniature(3, 4, 5, 3, 6, role="ranged"), "defensive", take_cover=True, get_down=True,
                       zig_zag=True, wounds=4)
    expected = db.combat(attacker, defender, "dodge", edition="alpha", draw="scored", draw_in_dodge=True,
                         cap_wounds_at_dice=True, bonus_dice="add", souls="add", souls_limit=2)
    assert payload["result"] == json.loads(expected.to_json())
    assert payload["defender"]["mini"]["W"] == 6 and payload["defender"]["wounds"] == 4


def test_melee_options_and_profile_fields(capsys: pytest.CaptureFixture[str]) -> None:
    payload = run_json(
        capsys, "combat", "--attacker-a", "6", "--attacker-a-plus", "3", "--attacker-d", "2", "--attacker-d-plus", "5",
        "--attacker-charge", "--attacker-support", "2", "--support-stacking", "once",
        "--defender", "bandit brute", "--defender-support", "1", "--defender-mode", "defensive",
    )
    attacker = db.Side(db.Miniature(6, 3, 2, 5, 3, name="Old Fellas Melee Warrior Follower"), charge=True, support=2)
    defender = db.Side(db.example("Bandit Brute"), "defensive", support=1)
    expected = db.combat(attacker, defender, support_stacking="once")
    assert payload["result"] == json.loads(expected.to_json())


def test_stand_and_shoot_and_auto_hits(capsys: pytest.CaptureFixture[str]) -> None:
    shoot = run_json(capsys, "combat", "--attacker-charge", "--defender", "Bandit Ranged Follower", "--stand-and-shoot")
    assert shoot["switches"]["stand_and_shoot"] is True
    shiny = run_json(capsys, "combat", "--attacker", "Bandit Erudite", "--attacker-auto-hits", "3",
                     "--reaction", "dodge", "--defender", "Old Fellas Brute")
    assert shiny["result"]["successes_attacker"]["pmf"] == [0.0, 0.0, 0.0, 1.0]


def test_monte_carlo_from_the_command_line(capsys: pytest.CaptureFixture[str]) -> None:
    args = ("combat", "--method", "monte_carlo", "--samples", "100000", "--seed", "5", "--threads", "1")
    first, second = run_json(capsys, *args), run_json(capsys, *args)
    assert first == second
    assert first["result"]["samples"] == 100_000 and first["result"]["method"] == "monte_carlo"
    assert main(["deathburgh", *args]) == 0
    assert "stderr" in capsys.readouterr().out


@pytest.mark.parametrize("fmt, marker", [("csv", "quantity,value\nP(defender Wasted),"), ("markdown", "### Outcome")])
def test_text_formats(capsys: pytest.CaptureFixture[str], fmt: str, marker: str) -> None:
    assert main(["deathburgh", "combat", "--format", fmt]) == 0
    assert marker in capsys.readouterr().out


@pytest.mark.parametrize(
    "args, field",
    [
        (["--reaction", "flee"], "reaction"),
        (["--attacker-a-plus", "9"], "--attacker-a-plus"),
        (["--attacker", "Old Fellas Wizard"], "--attacker"),
        (["--defender-support", "-1"], "--defender-support"),
        (["--defender-mode", "angry"], "--defender-mode"),
        (["--edition", "beta"], "--edition"),
        (["--draw", "scored"], "--draw"),
        (["--defender", "Bandit Ranged Follower"], "reaction"),
        (["--attacker-souls-dice", "2"], "attacker.souls_dice"),
        (["--profiles", "missing.toml"], "path"),
    ],
)
def test_bad_input_exits_2_naming_the_field(capsys: pytest.CaptureFixture[str], args: list[str], field: str) -> None:
    assert main(["deathburgh", "combat", *args]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith(f"error: {field}:"), err
    assert len(err.splitlines()) == 1


def test_profiles_file_names(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "mine.toml"
    db.save_profiles(path, [db.Miniature(7, 2, 7, 2, 9, name="Big Boss")])
    payload = run_json(capsys, "combat", "--profiles", str(path), "--attacker", "Big Boss")
    assert payload["attacker"]["mini"]["A"] == 7
    example = run_json(capsys, "combat", "--profiles", str(EXAMPLES_DIR / "old_fellas.toml"), "--defender", "Old Fellas Brute")
    assert example["defender"]["mini"]["D_plus"] == 3


def test_round_command(capsys: pytest.CaptureFixture[str]) -> None:
    scenario = EXAMPLES_DIR / "round_scenario.toml"
    payload = run_json(capsys, "round", str(scenario))
    expected = db.round(**db.load_round(scenario))
    assert payload["result"] == json.loads(expected.to_json())
    assert main(["deathburgh", "round", str(scenario)]) == 0
    assert "Miniatures after the round" in capsys.readouterr().out
    mc = run_json(capsys, "round", str(scenario), "--method", "monte_carlo", "--samples", "50000", "--seed", "1")
    got = mc["result"]["wounds_left"]["Bandit Brute"]["pmf"]
    want = expected.wounds_left["Bandit Brute"].pmf
    assert np.abs(np.array(got) - want).max() < 0.01


def test_round_command_errors(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    bad = tmp_path / "round_scenario.toml"
    bad.write_text('[miniatures]\nx = { example = "Bandit Brute" }\n[[combat]]\nattacker = "x"\ndefender = "y"\n')
    assert main(["deathburgh", "round", str(bad)]) == 2
    assert capsys.readouterr().err.startswith("error: combats[0].defender:")


def test_profiles_command(capsys: pytest.CaptureFixture[str]) -> None:
    payload = run_json(capsys, "profiles")
    assert [p["name"] for p in payload["profiles"]] == list(db.EXAMPLES)


def test_help_has_an_example(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["deathburgh", "combat", "--help"]) == 0
    out = capsys.readouterr().out
    assert "Example:" in out and "--attacker-charge" in out and "--stand-and-shoot" in out
