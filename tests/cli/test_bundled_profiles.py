"""The example profile libraries ship inside the package: ``--profiles <game>-examples`` or no
``--profiles`` at all finds their names, and the packaged copies are the files in examples/."""

from __future__ import annotations

from importlib import resources

import pytest
from cli_cases import EXAMPLES, KT_LIBRARY, SC_LIBRARY, assert_one_line_error, run, run_json

from mathhammer import games
from mathhammer.files.library import bundled_library_name, default_library, load_game_library

BUNDLED_LIBRARIES = {game.name: game.bundled_library for game in games.all_games() if game.bundled_library}


@pytest.mark.parametrize("game", sorted(BUNDLED_LIBRARIES))
def test_packaged_copy_equals_the_example(game):
    packaged = resources.files("mathhammer").joinpath(BUNDLED_LIBRARIES[game]).read_bytes()
    assert packaged == (EXAMPLES / game / "profiles.toml").read_bytes()


@pytest.mark.parametrize("game", sorted(BUNDLED_LIBRARIES))
def test_bundled_name_loads_the_example_library(game):
    by_name = load_game_library(bundled_library_name(game), game)
    by_file = load_game_library(EXAMPLES / game / "profiles.toml", game)
    assert by_name == by_file and by_name


def test_default_library_keeps_builtin_names_builtin():
    # the StarCraft catalog already ships a marine: the bundled copy must not shadow it
    from mathhammer.starcraft.catalog import UNITS

    units = default_library("starcraft").get("unit", {})
    assert "marine" in UNITS and "marine" not in units


def test_killteam_examples_by_name_match_the_file(capsys):
    args = ["killteam", "shoot", "--weapon", "meltagun", "--target", "plague_marine"]
    from_file = run_json(capsys, [*args, "--profiles", str(KT_LIBRARY)])
    assert run_json(capsys, [*args, "--profiles", "killteam-examples"]) == from_file
    assert run_json(capsys, args) == from_file  # no --profiles: the bundled library


def test_starcraft_examples_without_profiles(capsys):
    args = ["starcraft", "attack", "--weapon", "quad_k12", "--unit", "zealot"]
    assert run_json(capsys, args)["result"] == run_json(capsys, [*args, "--profiles", str(SC_LIBRARY)])["result"]


def test_force_melee_examples_by_name(capsys):
    args = ["force-melee", "--a-profile", "veterans", "--b-profile", "line_troopers"]
    assert run_json(capsys, [*args, "--profiles", "force-melee-examples"]) == run_json(capsys, args)


def test_other_games_library_is_refused(capsys):
    code, _, err = run(capsys, ["killteam", "shoot", "--profiles", "starcraft-examples"])
    assert_one_line_error(code, err, "starcraft library", "killteam")


def test_unknown_profile_lists_the_bundled_names(capsys):
    code, _, err = run(capsys, ["killteam", "shoot", "--weapon", "no_such_gun"])
    assert_one_line_error(code, err, "meltagun", "bolt_rifle")
    assert "none" not in err
