"""[[sweep]] entries of scenario files: the table equals the sweep (and the separate calls), profile
values of the grid resolve through the library, errors name the entry and the key, outcomes
round-trip, and `mathhammer run` prints them."""

from __future__ import annotations

import itertools
import json
import sys
from pathlib import Path
from typing import Any

import pytest

import mathhammer as mh
from mathhammer import killteam as kt
from mathhammer.files import scenario
from mathhammer.cli import main
from mathhammer.errors import ProfileFileError
from mathhammer.files.scenario import SweepTable

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

ROOT = Path(__file__).resolve().parent.parent
LIBRARY = ROOT / "examples" / "killteam" / "profiles.toml"


def fields(values: dict[str, Any]) -> dict[str, Any]:
    """Dotted keys as keywords (``**fields({"target.save": ...})``), typed as any sweep argument."""
    return values

TEXT = f"""
title = "sweeps"
profiles = ["{LIBRARY.as_posix()}"]

[[sweep]]
name = "rules by save"
action = "killteam.shoot"
weapon = "4A 3+ 3/4"
target = {{ save = 3, wounds = 10 }}
seed = 7
grid = {{ "weapon.rules" = ["Lethal 5+", "Piercing 1"], "target.save" = "2..4", cover = [0, 1] }}

[[sweep]]
name = "library weapons"
action = "killteam.shoot"
target = "intercessor"
grid = {{ weapon = ["bolt_rifle", "meltagun"] }}
"""


def _library_weapon(name: str) -> kt.Weapon:
    card = tomllib.loads(LIBRARY.read_text(encoding="utf-8"))["weapon"][name]["card"]
    return kt.Weapon.parse(card)


def test_a_sweep_entry_is_the_sweep() -> None:
    # the library is the repository's example, outside the (text) scenario's folder: allowed explicitly
    first, second = scenario.run_scenario(scenario.parse_scenario_text(TEXT), allow_outside=True)
    assert (first.game, first.action, first.name) == ("sweep", "killteam.shoot", "rules by save")
    table = first.result
    assert isinstance(table, SweepTable) and table.seed == 7
    assert table.columns[:3] == ("weapon.rules", "target.save", "cover")
    cells = list(itertools.product(["Lethal 5+", "Piercing 1"], range(2, 5), [0, 1]))
    assert [row[:3] for row in table.rows] == [tuple(c) for c in cells]
    for row, (rules, save, cover) in zip(table.rows, cells):
        direct = kt.shoot(kt.Weapon(4, 3, (3, 4), rules), kt.Operative(save, 10), cover=cover).summary()
        assert row[3:] == tuple(direct.values())
    frame = mh.sweep(kt.shoot, weapon=kt.Weapon(4, 3, (3, 4)), target=kt.Operative(3, 10), seed=7,
                     **fields({"weapon.rules": ["Lethal 5+", "Piercing 1"], "target.save": range(2, 5), "cover": [0, 1]}))
    assert list(table.rows) == list(frame.itertuples(index=False, name=None))
    assert table.to_frame().attrs["seed"] == 7 and list(table.to_frame().columns) == list(frame.columns)
    # grid values of a profile keyword are resolved like the entry's own
    intercessor = scenario.prepare_entries(scenario.parse_scenario_text(TEXT), allow_outside=True)[1].kwargs["fixed"]["target"]
    assert [row[0] for row in second.result.rows] == [str(_library_weapon("bolt_rifle")),
                                                      str(_library_weapon("meltagun"))]
    assert second.result.rows[1][1] == kt.shoot(_library_weapon("meltagun"), intercessor).summary()["mean_damage"]


def test_outcomes_round_trip() -> None:
    outcome = scenario.run_scenario(scenario.parse_scenario_text(TEXT), allow_outside=True)[0]
    again = scenario.Outcome.from_dict(json.loads(json.dumps(outcome.to_dict())))
    assert again.result == outcome.result and again.name == outcome.name


@pytest.mark.parametrize("entry, message", [
    ('action = "killteam.shot"\ngrid = { cover = [0, 1] }', "sweep[0]: action: expected the action to sweep"),
    ('action = "killteam.shoot"\nweapon = "4A 3+ 3/4"\ntarget = { save = 3 }\ngrid = { covr = [0, 1] }',
     "grid.covr: unknown keyword (did you mean 'cover'?)"),
    ('action = "killteam.shoot"\nweapon = "4A 3+ 3/4"\ntarget = { save = 3 }\ngrid = { cover = "3..1" }',
     "grid.cover: '3..1' runs backwards"),
    ('action = "killteam.shoot"\nweapon = "4A 3+ 3/4"\ngrid = { cover = [0, 1] }', "target: missing"),
    ('action = "killteam.shoot"\nweapon = "4A 3+ 3/4"\ntarget = { save = 3 }', "grid: expected a table"),
    ('action = "killteam.shoot"\ntarget = { save = 3 }\ngrid = { weapon = ["nothing"] }', "grid.weapon[0]"),
])
def test_bad_entries_name_the_entry_and_the_key(entry: str, message: str) -> None:
    with pytest.raises(ProfileFileError) as caught:
        scenario.run_scenario(scenario.parse_scenario_text(f"[[sweep]]\n{entry}\n"), source="duels.toml")
    assert str(caught.value).startswith("duels.toml: sweep") and message in str(caught.value)


def test_mathhammer_run_prints_the_table(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "sweeps.toml"
    path.write_text(TEXT, encoding="utf-8")
    assert main(["run", str(path), "--format", "json", "--allow-outside"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["outcomes"][0]["result"]["rows"][0][:3] == ["Lethal 5+", 2, 0]
    assert main(["run", str(path), "--format", "markdown", "--allow-outside"]) == 0
    text = capsys.readouterr().out
    assert "### rules by save: Sweep: killteam.shoot" in text or "Sweep: killteam.shoot" in text
    assert "12 cells; seed 7" in text


OTHER_GAMES = """
[[sweep]]
name = "a Deathburgh combat by reaction and attacker"
action = "deathburgh.combat"
defender = "Bandit Brute"
grid = { reaction = ["attack", "dodge"], attacker = ["Old Fellas Brute", "A 3/4+ D 2/4+ W 3"] }

[[sweep]]
name = "a StarCraft sequence by target"
action = "starcraft.sequence"
batches = [{ weapon = "c14_rifle", firing_models = 3 }, { weapon = "c14_rifle" }]
grid = { unit = ["zergling", "marine"] }

[[sweep]]
name = "a Deathburgh round by edition"
action = "deathburgh.round"
miniatures = { "Leader" = { example = "Old Fellas Leader" }, "Brute" = { card = "A 3/3+ D 6/4+ W 5", wounds = 4 } }
combat = [{ attacker = "Leader", defender = "Brute", reaction = "attack" }]
grid = { edition = ["web", "alpha"] }

[[sweep]]
name = "a Force melee melee_many by winner damage"
action = "force_melee.melee_many"
sides = { troopers = "line_troopers", militia = "militia" }
engaged = [["troopers", "militia"]]
grid = { winner_damage = ["once", "excess"] }
"""


def test_every_action_sweeps_and_each_cell_is_the_separate_call() -> None:
    from mathhammer import deathburgh as db
    from mathhammer import force_melee as fm
    from mathhammer import starcraft as sc

    combat, sequence, round_, many = scenario.run_scenario(scenario.parse_scenario_text(OTHER_GAMES))
    cells = list(itertools.product(["attack", "dodge"], ["Old Fellas Brute", "A 3/4+ D 2/4+ W 3"]))
    assert len(combat.result.rows) == 4
    for row, (reaction, attacker) in zip(combat.result.rows, cells):
        direct = db.combat(attacker, "Bandit Brute", reaction).summary()
        assert row[2:] == tuple(direct.values())
    rifle = sc.catalog.weapon("c14_rifle")
    for row, unit in zip(sequence.result.rows, ["zergling", "marine"]):
        direct = sc.sequence(sc.catalog.unit(unit), [sc.Batch(rifle, firing_models=3), sc.Batch(rifle)]).summary()
        assert row[1:] == tuple(direct.values())
    minis = {"Leader": db.example("Old Fellas Leader"), "Brute": db.Miniature.parse("A 3/3+ D 6/4+ W 5", name="Brute")}
    for row, edition in zip(round_.result.rows, ["web", "alpha"]):
        direct = db.round(minis, [{"attacker": "Leader", "defender": "Brute", "reaction": "attack"}],
                          wounds={"Brute": 4}, edition=edition).summary()
        assert row[0] == edition and row[1:] == tuple(direct.values())
    sides = {"troopers": fm.example("line_troopers"), "militia": fm.example("militia")}
    for row, damage in zip(many.result.rows, ["once", "excess"]):
        direct = fm.melee_many(sides, [("troopers", "militia")], winner_damage=damage).summary()
        assert row[1:] == tuple(direct.values())


def test_a_bad_grid_value_names_its_place_or_its_cell() -> None:
    entry = ('action = "deathburgh.combat"\ndefender = "Bandit Brute"\n'
             'grid = { attacker = ["Old Fellas Brute", "nobody at all"] }')
    with pytest.raises(ProfileFileError) as caught:
        scenario.run_scenario(scenario.parse_scenario_text(f"[[sweep]]\n{entry}\n"), source="duels.toml")
    assert str(caught.value).startswith("duels.toml: sweep.deathburgh.combat[0]")
    # refused before any cell runs, named by its grid key
    assert "grid.attacker: 'nobody at all' is neither" in str(caught.value)
    kt_entry = 'action = "killteam.shoot"\ntarget = { save = 3 }\ngrid = { weapon = ["4A 3+ 3/4", "nothing"] }'
    with pytest.raises(ProfileFileError, match=r"grid\.weapon\[1\]"):
        scenario.run_scenario(scenario.parse_scenario_text(f"[[sweep]]\n{kt_entry}\n"), source="duels.toml")


def test_a_wide_sweep_entry_splits_to_fit_80_columns(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A fight sweep has 8 figures: mathhammer run prints it in parts that repeat the axis column."""
    path = tmp_path / "fights.toml"
    fighter = "{ attacks = 4, hit = 3, damage = [3, 4], wounds = 12 }"
    path.write_text(f'[[sweep]]\nname = "fights"\naction = "killteam.fight"\na = {fighter}\nb = {fighter}\n'
                    'grid = { "a.wounds" = [10, 12] }\n', encoding="utf-8")
    assert main(["run", str(path)]) == 0
    out = capsys.readouterr().out
    assert max(len(line) for line in out.splitlines()) <= 80 and "…" not in out
    assert "Sweep: killteam.fight (1/" in out and "Sweep: killteam.fight (2/" in out
    parts = [line for line in out.splitlines() if line.startswith("Sweep: killteam.fight (")]
    assert len(parts) >= 2
    assert out.count("a.wounds") == len(parts)  # the axis column heads every part
