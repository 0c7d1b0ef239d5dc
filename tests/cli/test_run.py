"""`mathhammer run`: each result printed by its game's own printer, JSON with the inputs and results,
overrides, and the printer registry's fallback."""

from __future__ import annotations

import dataclasses
import json
from importlib import resources

from cli_cases import SCENARIO, run, run_json

from mathhammer.cli import output as _cli_common  # result_tables
from mathhammer.files import scenario
from mathhammer.deathburgh.report import combat_tables
from mathhammer.force_melee.report import melee_tables
from mathhammer.killteam.report import fight_tables
from mathhammer.killteam.report import shoot_tables
from mathhammer.core.distributions import Distribution
from mathhammer.core.results import ResultMixin
from mathhammer.starcraft.report import attack_tables


def _embedded() -> list[scenario.Outcome]:
    text = resources.files("mathhammer").joinpath("examples/default_scenario.toml").read_text(encoding="utf-8")
    return scenario.run_scenario(scenario.parse_scenario_text(text))


def test_run_prints_each_result_like_its_game(capsys):
    code, out, _ = run(capsys, ["run", "--format", "markdown"])
    assert code == 0
    outcomes = _embedded()
    for outcome, printer in zip(outcomes, (fight_tables, shoot_tables, attack_tables, combat_tables, melee_tables)):
        tables, lines = printer(outcome.result)
        assert _cli_common.result_tables("", outcome.result) == (tables, lines)
        assert f"## {outcome.name}" in out
        for table in tables:
            assert f"### {table.title}" in out
        for line in lines:
            assert f"- {line}" in out
    assert "death chance" in out and "P(defender Wasted)" in out and "P(destroyed)" in out


def test_run_json_holds_inputs_and_results(capsys):
    payload = run_json(capsys, ["run"])
    assert payload["scenario"] == "example scenario" and payload["title"] == "A taste of every game"
    for got, expected in zip(payload["outcomes"], _embedded()):
        assert scenario.Outcome.from_dict(got) == expected
        assert got["inputs"] == json.loads(json.dumps(expected.inputs))
    fight = payload["outcomes"][0]["inputs"]
    assert fight["a"] == {"attacks": 4, "hit": 3, "damage": [3, 4], "wounds": 12, "rules": "", "abilities": "",
                          "strategy": "max_damage"}


def test_run_overrides_every_entry(capsys):
    payload = run_json(capsys, ["run", str(SCENARIO), "--method", "monte_carlo", "--samples", "5000", "--seed", "9",
                                "--threads", "1"])
    assert payload["overrides"] == {"method": "monte_carlo", "samples": 5000, "seed": 9, "threads": 1}
    assert all(o["result"]["samples"] == 5000 for o in payload["outcomes"])
    assert all(o["inputs"]["seed"] == 9 for o in payload["outcomes"])


@dataclasses.dataclass(frozen=True)
class _Unregistered(ResultMixin):
    damage: Distribution
    kill_chance: float
    method: str


def test_results_without_a_printer_get_the_generic_tables():
    result = _Unregistered(Distribution([0.25, 0.75]), 0.75, "exact")
    tables, lines = _cli_common.result_tables("X", result)
    assert [t.title for t in tables] == ["X: damage"]
    assert "X: kill_chance = 0.75" in lines and "X: method = exact" in lines


def test_starcraft_sequence_entry_equals_the_direct_call(capsys):
    from mathhammer import starcraft as sc

    text = """
[[starcraft.sequence]]
name = "rifles then cannons"
unit = { models = 4, hp = 2, armour = 4, tags = ["Light"] }
[[starcraft.sequence.batches]]
weapon = { roa = 2, hit = 4, damage = 1, surge_tags = ["Light"], surge_dice = "D3" }
firing_models = 2
[[starcraft.sequence.batches]]
weapon = { roa = 1, hit = 3, damage = 2 }
dodge = 1
"""
    (outcome,) = scenario.run_scenario(scenario.parse_scenario_text(text))
    unit = sc.Unit(models=4, hp=2, armour=4, tags=("Light",))
    batches = [sc.Batch(sc.Weapon(roa=2, hit=4, damage=1, surge_tags=("Light",), surge_dice="D3"), firing_models=2),
               sc.Batch(sc.Weapon(roa=1, hit=3, damage=2), dodge=1)]
    assert outcome.result == sc.sequence(unit, batches)
    assert outcome.inputs["batches"][1] == {"weapon": outcome.inputs["batches"][1]["weapon"], "dodge": 1}
    payload = json.loads(json.dumps(outcome.to_dict()))
    assert scenario.Outcome.from_dict(payload) == outcome


def test_starcraft_sequence_entry_errors_name_the_batch():
    import pytest

    from mathhammer.errors import ProfileFileError

    text = """
[[starcraft.sequence]]
unit = "zealot"
batches = [{ weapon = "no_such_gun" }]
"""
    with pytest.raises(ProfileFileError, match=r"starcraft\.sequence\[0\].*batches\[0\]\.weapon"):
        scenario.run_scenario(scenario.parse_scenario_text(text))
