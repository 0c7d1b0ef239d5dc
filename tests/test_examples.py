"""Every file in examples/ loads and does what it says: libraries load and round-trip, scenarios run
(and their results equal the games' own functions called directly), the Deathburgh round runs, by
db.load_round and by the scenario loader alike."""

from __future__ import annotations

from importlib import resources
from pathlib import Path

import numpy as np
import pytest

from mathhammer import deathburgh as db
from mathhammer import force_melee as fm
from mathhammer import killteam as kt
from mathhammer import games as mathhammer_games
from mathhammer.cli.examples import EXAMPLE_SUFFIXES
from mathhammer.files import library
from mathhammer.files import scenario
from mathhammer import starcraft as sc
from mathhammer.files.library import tomllib
from timing import cpu_at_most

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"
EVERY_FILE = sorted(p for p in EXAMPLES.rglob("*") if p.is_file())
#: The libraries and scenarios (Kill Team's BattleScribe files and import reports have tests of
#: their own: tests/killteam/data/)
FILES = [p for p in EVERY_FILE if p.suffix == ".toml"]


def _kind(path: Path) -> str:
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    if "game" in data:
        return "library"
    if "miniatures" in data and "combat" in data:
        return "deathburgh round"
    return "scenario"


def test_examples_are_toml_and_cover_every_game():
    # besides TOML, only the invented BattleScribe files and what the import writes of them
    others = [p.relative_to(EXAMPLES).as_posix() for p in EVERY_FILE if p.suffix != ".toml"]
    assert FILES and others and all(
        name.startswith("killteam/data/") and name.endswith((".cat", ".gst", ".ros"))
        or name.startswith("killteam/teams/") and name.endswith(".import.json") for name in others)
    assert all(p.suffix in EXAMPLE_SUFFIXES for p in EVERY_FILE)  # what `mathhammer examples` copies
    games = {library.library_game(p) for p in FILES if _kind(p) == "library"}
    assert games == set(mathhammer_games.names())


@pytest.mark.parametrize("path", FILES, ids=lambda p: str(p.relative_to(EXAMPLES)))
def test_every_example_file_loads(path, tmp_path):
    kind = _kind(path)
    if kind == "library":
        game = library.library_game(path)
        loaded = library.load_library(path)
        assert loaded and all(loaded.values())
        for suffix in (".toml", ".json"):
            copy = tmp_path / f"copy{suffix}"
            library.save_library(copy, game, loaded)
            assert library.load_library(copy) == loaded
    elif kind == "deathburgh round":
        result = db.round(**db.load_round(path))
        assert result.method == "exact" and len(result.p_fought) == len(db.load_round(path)["combats"])
        # the scenario loader reads a round file as one [[deathburgh.round]] entry
        (outcome,) = scenario.run_scenario_file(path)
        assert (outcome.game, outcome.action) == ("deathburgh", "round") and outcome.result == result
    else:
        outcomes = scenario.run_scenario_file(path)
        assert outcomes and all(o.result.method == "exact" for o in outcomes)
        data = scenario.load_scenario(path)
        expected = sum(len(v) if isinstance(v, list) else 1
                       for game, actions in data.items() if game not in scenario.META_KEYS
                       for v in actions.values())
        assert len(outcomes) == expected


def test_the_embedded_example_shows_every_game_and_is_quick():
    text = resources.files("mathhammer").joinpath("examples/default_scenario.toml").read_text(encoding="utf-8")
    with cpu_at_most(0.01):  # about 5 ms of CPU, the first time in a process
        outcomes = scenario.run_scenario(scenario.parse_scenario_text(text))
    assert [(o.game, o.action) for o in outcomes] == [
        ("killteam", "fight"), ("killteam", "shoot"), ("starcraft", "attack"), ("deathburgh", "combat"),
        ("force_melee", "melee"),
    ]
    assert all(o.result.method == "exact" for o in outcomes)


def test_scenario_entries_equal_direct_calls():
    outcomes = {o.name: o for o in scenario.run_scenario_file(EXAMPLES / "scenario.toml")}
    kt_lib = library.load_library(EXAMPLES / "killteam" / "profiles.toml")
    fm_lib = library.load_library(EXAMPLES / "force_melee" / "profiles.toml")

    fight = outcomes["Assault Intercessor Sergeant against an Ork Boy, three rounds"]
    direct = kt.fight(kt_lib["fighter"]["assault_intercessor_sergeant"], kt_lib["fighter"]["ork_boy"], rounds=3,
                      first="b")
    assert fight.result == direct
    assert fight.inputs["a"] == library.profile_to_dict(kt_lib["fighter"]["assault_intercessor_sergeant"])

    shot = outcomes["A weapon in datacard notation at a Kommando, two shots"]
    assert shot.result == kt.shoot(kt.Weapon.parse("4A 3+ 4/5 Lethal 5+, Piercing 1"),
                                   kt_lib["operative"]["kommando"], rounds=2)

    attack = outcomes["Two Marauders' Quad K12 into Roaches that dodge"]
    direct_sc = sc.attack(sc.catalog.weapon("quad_k12"), sc.catalog.unit("roach"), firing_models=2, dodge=1)
    assert np.array_equal(attack.result.casualties.pmf, direct_sc.casualties.pmf)

    combat = outcomes["The Old Fellas Leader charges the Bandit Brute, who dodges in Defensive mode"]
    old_fellas = db.load_profiles(EXAMPLES / "deathburgh" / "old_fellas.toml")
    bandits = db.load_profiles(EXAMPLES / "deathburgh" / "bandits.toml")
    direct_db = db.combat(db.Side(old_fellas["Old Fellas Leader"], charge=True),
                          db.Side(bandits["Bandit Brute"], "defensive"), "dodge")
    assert combat.result == direct_db

    melee = outcomes["Veterans against the Walker"]
    assert melee.result == fm.melee(fm_lib["side"]["veterans"], fm_lib["side"]["walker"])
    assert fm.Side.from_dict(melee.inputs["a"]) == fm_lib["side"]["veterans"]


def test_the_documented_scenarios_run():
    text = (ROOT / "docs" / "scenarios.md").read_text(encoding="utf-8")
    blocks = [b.split("```", 1)[0] for b in text.split("```toml\n")[1:]]
    scenarios = [b for b in blocks if "\n[[" in b]
    assert scenarios
    for block in scenarios:
        outcomes = scenario.run_scenario(scenario.parse_scenario_text(block, "docs"), base=EXAMPLES)
        assert len(outcomes) == sum(line.startswith("[[") for line in block.splitlines())
    libraries = [b for b in blocks if b.startswith("game = ")]
    assert libraries and all(library.parse_library(tomllib.loads(b), "docs")[1] for b in libraries)


def test_force_melee_scenarios_run_the_same_through_either_loader():
    for path in sorted((EXAMPLES / "force_melee").glob("scenario*.toml")):
        outcomes = scenario.run_scenario_file(path)
        assert outcomes and [(o.name, o.result) for o in outcomes] == fm.run_scenario(path)
        entries = scenario.read_scenario_file(path)
        assert [(e.action.name, e.name, e.kwargs) for e in entries] == [
            (e.action, e.name, e.kwargs) for e in fm.load_scenario(path)
        ]
        assert all(isinstance(e.kwargs.get("a", fm.example("walker")), fm.Side) for e in entries)
