"""One CLI shape, `mathhammer <game> <action>`, and one scenario loader for every kind of entry:
force-melee's actions (and its old action-less form), Deathburgh rounds and Force melee melee_many
through `mathhammer run`, and the one-line error for a key an entry's function does not take."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cli_cases import EXAMPLES, FM_LIBRARY, ROUND, assert_one_line_error, run, run_json

from mathhammer import deathburgh as db
from mathhammer import force_melee as fm
from mathhammer.files import library
from mathhammer.files import scenario
from mathhammer import starcraft as sc

WALKER = EXAMPLES / "force_melee" / "scenario_walker.toml"


def _write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


# --- force-melee melee / melee-many -------------------------------------------------------------------


def test_melee_action_and_the_old_form_are_the_same_command(capsys):
    options = ["--b-profile", "walker", "--a-dice", "6", "--winner-damage", "excess"]
    new = run_json(capsys, ["force-melee", "melee", *options])
    old = run_json(capsys, ["force-melee", *options])
    assert new == old
    side_a = fm.example("line_troopers").replace(dice=6)
    assert fm.MeleeResult.from_dict(new["result"]) == fm.melee(side_a, fm.example("walker"), winner_damage="excess")


def test_scenario_option_works_with_and_without_the_action(capsys):
    new = run_json(capsys, ["force-melee", "melee", "--scenario", str(WALKER)])
    old = run_json(capsys, ["force-melee", "--scenario", str(WALKER)])
    assert new == old and [e["action"] for e in new["entries"]] == ["melee", "melee_many"]


def test_melee_many_bare_is_two_squads_charging_a_walker(capsys):
    payload = run_json(capsys, ["force-melee", "melee-many"])
    assert payload["engaged"] == [["troopers", "walker"], ["militia", "walker"]]
    assert payload["assignment"] == {"walker": {"troopers": 3, "militia": 1}}
    direct = fm.melee_many(
        {"troopers": fm.example("line_troopers"), "militia": fm.example("militia"), "walker": fm.example("walker")},
        engaged=[("troopers", "walker"), ("militia", "walker")],
        assignment={"walker": {"troopers": 3, "militia": 1}},
    )
    assert fm.MeleeManyResult.from_dict(payload["result"]) == direct
    assert payload["summary"]["walker"]["p_destroyed"] == direct.units["walker"].wiped


def test_melee_many_takes_library_sides_engagements_and_a_split(capsys):
    payload = run_json(capsys, [
        "force-melee", "melee-many", "--profiles", str(FM_LIBRARY), "--side", "vets=veterans", "--side", "walker",
        "--side", "militia", "--engaged", "vets:walker", "--engaged", "militia:walker",
        "--assign", "walker=vets:2,militia:2", "--winner-damage", "excess",
    ])
    sides = library.load_library(FM_LIBRARY)["side"]
    direct = fm.melee_many({"vets": sides["veterans"], "walker": fm.example("walker"), "militia": fm.example("militia")},
                           [("vets", "walker"), ("militia", "walker")], {"walker": {"vets": 2, "militia": 2}},
                           winner_damage="excess")
    assert fm.MeleeManyResult.from_dict(payload["result"]) == direct
    assert payload["switches"]["winner_damage"] == "excess"
    assert fm.Side.from_dict(payload["sides"]["vets"]) == sides["veterans"]


def test_melee_many_with_one_enemy_each_needs_no_split(capsys):
    payload = run_json(capsys, ["force-melee", "melee-many", "--side", "troopers=line_troopers", "--side", "walker",
                                "--engaged", "troopers:walker"])
    assert payload["assignment"] == {}
    direct = fm.melee_many({"troopers": fm.example("line_troopers"), "walker": fm.example("walker")},
                           [("troopers", "walker")])
    assert fm.MeleeManyResult.from_dict(payload["result"]) == direct


@pytest.mark.parametrize(
    "args, fragments",
    [
        (["--side", "walker"], ["--engaged", "A:B"]),
        (["--engaged", "a:b"], ["--side"]),
        (["--side", "walker", "--side", "walker", "--engaged", "walker:walker"], ["--side", "two sides named 'walker'"]),
        (["--side", "orks", "--engaged", "orks:walker"], ["sides.orks", "unknown side 'orks'"]),
        (["--side", "walker", "--side", "militia", "--engaged", "walker-militia"], ["--engaged", "':'"]),
        (["--side", "walker", "--side", "militia", "--engaged", "walker:militia", "--assign", "walker=militia:x"],
         ["--assign", "whole number"]),
        (["--side", "walker", "--side", "militia", "--engaged", "walker:ghost"], ["engaged[0]", "unknown unit 'ghost'"]),
    ],
)
def test_melee_many_bad_input_is_one_line(capsys, args, fragments):
    code, _, err = run(capsys, ["force-melee", "melee-many", *args])
    assert_one_line_error(code, err, *fragments)


def test_force_melee_help_names_both_actions(capsys):
    code, out, _ = run(capsys, ["force-melee", "--help"])
    assert code == 0 and "force-melee melee" in out and "melee-many" in out
    code, out, _ = run(capsys, ["force-melee", "melee-many", "--help"])
    assert code == 0 and "--assign" in out and "Example" in out


# --- starcraft sequence ---------------------------------------------------------------------------------


def test_sequence_bare_is_marines_then_marauders_into_zealots(capsys):
    payload = run_json(capsys, ["starcraft", "sequence"])
    direct = sc.sequence(sc.catalog.unit("zealot"), [sc.Batch(sc.catalog.weapon("c14_rifle"), firing_models=6),
                                                      sc.Batch(sc.catalog.weapon("quad_k12"), firing_models=2)])
    assert sc.SequenceResult.from_dict(payload["result"]) == direct
    assert [b["firing_models"] for b in payload["batches"]] == [6, 2]


def test_sequence_batches_take_options_and_hits_mode(capsys):
    payload = run_json(capsys, ["starcraft", "sequence", "--unit", "roach", "--batch", "c14_rifle firing_models=6",
                                "--batch", "quad_k12 firing_models=2 dodge=1", "--batch", "- mode=hits hits=4,1",
                                "--leftover", "lost"])
    direct = sc.sequence(sc.catalog.unit("roach"), [
        sc.Batch(sc.catalog.weapon("c14_rifle"), firing_models=6),
        sc.Batch(sc.catalog.weapon("quad_k12"), firing_models=2, dodge=1),
        sc.Batch(None, mode="hits", hits=(4, 1)),
    ], rules=sc.Rules(leftover="lost"))
    assert sc.SequenceResult.from_dict(payload["result"]) == direct
    assert payload["batches"][2] == {"weapon": None, "mode": "hits", "hits": [4, 1]}


def test_sequence_is_the_scenario_entry(capsys):
    payload = run_json(capsys, ["starcraft", "sequence", "--unit", "zealot", "--batch", "c14_rifle firing_models=6",
                                "--batch", "quad_k12 firing_models=2"])
    outcomes = {o.name: o for o in scenario.run_scenario_file(EXAMPLES / "scenario.toml")}
    entry = outcomes["Marines, then Marauders, into one squad of Zealots"]
    assert sc.SequenceResult.from_dict(payload["result"]) == entry.result


@pytest.mark.parametrize(
    "batch, fragments",
    [
        ("c14_rifle firing_model=6", ["--batch[0].firing_model", "not a batch option", "firing_models"]),
        ("c14_rifle firing_models", ["--batch[0]", "key=value"]),
        ("ray_gun", ["--batch[0].weapon", "unknown weapon 'ray_gun'"]),
        ("", ["--batch[0]", "empty"]),
        ("c14_rifle firing_models=99", ["firing_models", "out of range"]),
    ],
)
def test_sequence_bad_batches_are_one_line(capsys, batch, fragments):
    code, _, err = run(capsys, ["starcraft", "sequence", "--batch", batch])
    assert_one_line_error(code, err, *fragments)


# --- every kind of entry through `mathhammer run` -------------------------------------------------------


def test_run_a_deathburgh_round_file(capsys):
    payload = run_json(capsys, ["run", str(ROUND)])
    (outcome,) = [scenario.Outcome.from_dict(o) for o in payload["outcomes"]]
    assert (outcome.game, outcome.action) == ("deathburgh", "round")
    assert outcome.result == db.round(**db.load_round(ROUND))
    assert outcome.inputs["wounds"] == {"Bandit Brute": 4}
    code, out, _ = run(capsys, ["run", str(ROUND), "--format", "markdown"])
    assert code == 0 and "Miniatures after the round" in out


def test_a_round_entry_equals_the_round_file(tmp_path):
    # The example round file written as a [[deathburgh.round]] entry with [[deathburgh.round.combat]] tables.
    text = """
[[deathburgh.round]]
name = "the example round"
edition = "web"

[deathburgh.round.miniatures]
"Old Fellas Leader" = { example = "Old Fellas Leader" }
"Old Fellas Brute" = "Old Fellas Brute"
"Bandit Leader" = { example = "Bandit Leader" }
"Bandit Brute" = { card = "A 3/3+ D 6/4+ W 5", wounds = 4 }
"Bandit Erudite" = { A = 3, A_plus = 3, D = 3, D_plus = 4, W = 2 }

[[deathburgh.round.combat]]
attacker = "Old Fellas Leader"
defender = "Bandit Leader"
attacker_options = { charge = true }

[[deathburgh.round.combat]]
attacker = "Bandit Erudite"
defender = "Old Fellas Brute"
reaction = "dodge"
attacker_options = { auto_hits = 3 }

[[deathburgh.round.combat]]
attacker = "Bandit Brute"
defender = "Old Fellas Leader"
attacker_options = { support = 1 }

[[deathburgh.round.combat]]
attacker = "Old Fellas Brute"
defender = "Bandit Brute"
reaction = "dodge"
"""
    (outcome,) = scenario.run_scenario_file(_write(tmp_path, "round_entry.toml", text))
    assert outcome.name == "the example round"
    assert outcome.result == db.round(**db.load_round(ROUND))


def test_run_a_force_melee_melee_many(capsys):
    payload = run_json(capsys, ["run", str(WALKER)])
    outcomes = [scenario.Outcome.from_dict(o) for o in payload["outcomes"]]
    assert [o.action for o in outcomes] == ["melee", "melee_many"]
    sides = {name: fm.Side.from_dict(side) for name, side in outcomes[1].inputs["sides"].items()}
    direct = fm.melee_many(sides, [("troopers", "walker"), ("carbines", "walker"), ("carbines", "militia")],
                           {"walker": {"troopers": 2, "carbines": 2}, "carbines": {"walker": 3, "militia": 1}})
    assert outcomes[1].result == direct
    assert [result for _, result in fm.run_scenario(WALKER)] == [o.result for o in outcomes]


def test_round_file_settings_and_command_line_options(capsys, tmp_path):
    path = _write(tmp_path, "mc_round.toml", 'method = "monte_carlo"\nsamples = 2000\nseed = 5\nthreads = 1\n'
                  '[miniatures]\nx = "Bandit Brute"\ny = "Bandit Leader"\n[[combat]]\nattacker = "x"\ndefender = "y"\n')
    from_file = run_json(capsys, ["deathburgh", "round", str(path)])["result"]
    assert (from_file["method"], from_file["samples"], from_file["seed"]) == ("monte_carlo", 2000, 5)
    exact = run_json(capsys, ["deathburgh", "round", str(path), "--method", "exact"])["result"]
    assert exact["method"] == "exact"
    via_run = run_json(capsys, ["run", str(path)])["outcomes"][0]["result"]
    assert via_run == from_file


# --- keys an entry's function does not take --------------------------------------------------------------


def test_a_typo_names_file_entry_and_key_and_lists_the_allowed_keys(capsys, tmp_path):
    path = _write(tmp_path, "typo.toml", '[[killteam.shoot]]\nname = "Gun"\nweapon = "4A 3+ 3/4"\n'
                  'target = { save = 3 }\ncovr = 1\n')
    code, _, err = run(capsys, ["run", str(path)])
    assert_one_line_error(code, err, "typo.toml", "killteam.shoot[0] (Gun)", "covr: unknown keyword",
                          "did you mean 'cover'?", "allowed: name, weapon, target, cover, obscured")
    assert "unexpected keyword argument" not in err


@pytest.mark.parametrize(
    "entry, fragments, absent",
    [
        ('[[killteam.fight]]\na = "4A 3+ 3/4"\nb = "4A 3+ 3/4"\nfrist = "b"\n',
         ["killteam.fight[0]", "frist", "did you mean 'first'?", "rounds"], []),
        ('[[starcraft.attack]]\nweapon = "c14_rifle"\nunit = "zergling"\nfiring_model = 2\n',
         ["starcraft.attack[0]", "firing_model", "did you mean 'firing_models'?", "dodge", "rules"], []),
        ('[[starcraft.sequence]]\nunit = "zealot"\nbatches = [{ weapon = "c14_rifle", dodgy = 1 }]\n',
         ["starcraft.sequence[0]", "batches[0].dodgy", "did you mean 'dodge'?", "firing_models"], []),
        ('[[deathburgh.combat]]\nattacker = "Bandit Brute"\ndefender = "Bandit Leader"\nreacton = "dodge"\n',
         ["deathburgh.combat[0]", "reacton", "did you mean 'reaction'?", "souls_limit"], []),
        ('[[deathburgh.round]]\nminiatures = { x = "Bandit Brute" }\ncombats = []\nsoul_limit = 2\n',
         ["deathburgh.round[0]", "soul_limit", "did you mean 'souls_limit'?", "combat, ", "wounds"], []),
        ('[[force_melee.melee]]\na = "walker"\nb = "militia"\nwinner = "excess"\n',
         ["force_melee.melee[0]", "winner: unknown keyword;", "winner_damage"], ["did you mean"]),
        ('[[force_melee.melee_many]]\nsides = { w = "walker" }\nengaged = []\nprogress = 1\n',
         ["force_melee.melee_many[0]", "progress: unknown keyword", "engaged, assignment"], ["executor"]),
    ],
)
def test_every_action_refuses_unknown_keys(capsys, tmp_path, entry, fragments, absent):
    code, _, err = run(capsys, ["run", str(_write(tmp_path, "s.toml", entry))])
    assert_one_line_error(code, err, "s.toml", *fragments)
    for fragment in absent:
        assert fragment not in err


def test_a_round_file_key_typo(capsys, tmp_path):
    path = _write(tmp_path, "round.toml", 'edtion = "alpha"\n[miniatures]\nx = "Bandit Brute"\n[[combat]]\n'
                  'attacker = "x"\ndefender = "x"\n')
    for args in (["run", str(path)], ["deathburgh", "round", str(path)]):
        code, _, err = run(capsys, args)
        assert_one_line_error(code, err, "round.toml", "edtion: unknown keyword", "did you mean 'edition'?")


def test_a_missing_profile_key_is_named(capsys, tmp_path):
    path = _write(tmp_path, "half.toml", '[[killteam.fight]]\nname = "alone"\na = "4A 3+ 3/4"\n')
    code, _, err = run(capsys, ["run", str(path)])
    assert_one_line_error(code, err, "half.toml", "killteam.fight[0] (alone)", "b: missing", "needs a, b")


def test_force_melee_wrappers_share_the_key_check(tmp_path):
    path = _write(tmp_path, "fm.toml", '[[force_melee.melee]]\na = "walker"\nb = "militia"\nallocaton = "spill"\n')
    for call in (fm.load_scenario, fm.run_scenario):
        with pytest.raises(ValueError, match=r"fm\.toml: force_melee\.melee\[0\].*allocaton: unknown keyword "
                                             r"\(did you mean 'allocation'\?\)"):
            call(path)


def test_the_json_of_a_round_outcome_reads_back(capsys):
    payload = run_json(capsys, ["run", str(ROUND)])
    again = scenario.Outcome.from_json(json.dumps(payload["outcomes"][0]))
    assert again.result == db.round(**db.load_round(ROUND))
