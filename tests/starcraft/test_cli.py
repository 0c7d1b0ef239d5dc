"""`mathhammer starcraft attack`: defaults, options reaching the engine, formats and bad input."""

from __future__ import annotations

import re

import json
from pathlib import Path

import numpy as np
import pytest

from mathhammer import starcraft as sc
from mathhammer.cli import main

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "starcraft" / "profiles.toml"


def _json(capsys: pytest.CaptureFixture[str], *args: str) -> dict:
    assert main(["starcraft", "attack", *args, "--format", "json"]) == 0
    return json.loads(capsys.readouterr().out)


def test_default_is_one_marine_into_twelve_zerglings(capsys: pytest.CaptureFixture[str]) -> None:
    # One model fires, as sc.attack's firing_models=1 does: the CLI and Python defaults agree.
    out = _json(capsys)
    expected = sc.attack(sc.catalog.weapon("c14_rifle"), sc.catalog.unit("zergling"))
    assert np.allclose(out["result"]["damage"]["pmf"], expected.damage.pmf, atol=1e-15)
    assert out["result"]["stages"]["dice"] == 2 and out["result"]["method"] == "exact"
    assert out["weapon"]["name"] == "C-14 Rifle" and out["unit"]["name"] == "Zergling"
    assert out["options"]["firing_models"] == 1 and out["attacker"] is None
    # 2 dice at 3+: 2 x 2/3 hits on average.
    assert out["result"]["stages"]["hits"]["mean"] == pytest.approx(4 / 3, abs=1e-12)


def test_a_named_attacker_brings_its_weapon_and_all_its_models(capsys: pytest.CaptureFixture[str]) -> None:
    out = _json(capsys, "--attacker", "marine")
    expected = sc.attack(sc.catalog.weapon("c14_rifle"), sc.catalog.unit("zergling"), firing_models=6)
    assert np.allclose(out["result"]["damage"]["pmf"], expected.damage.pmf, atol=1e-15)
    assert np.allclose(out["result"]["casualties"]["pmf"], expected.casualties.pmf, atol=1e-15)
    assert out["result"]["stages"]["dice"] == 12
    assert out["weapon"]["name"] == "C-14 Rifle" and out["attacker"]["name"] == "Marine"
    assert out["options"]["firing_models"] == 6
    # 12 dice at 3+: 8 hits on average; HP 1, so every damage is a casualty.
    assert out["result"]["stages"]["hits"]["mean"] == pytest.approx(8.0, abs=1e-12)
    assert out["result"]["damage"]["pmf"] == out["result"]["casualties"]["pmf"][: len(out["result"]["damage"]["pmf"])]
    # Marauders bring the Quad K12 (3 dice each): 2 models, 6 dice.
    out = _json(capsys, "--attacker", "Marauder", "--unit", "roach")
    assert out["weapon"]["name"] == "Quad K12" and out["options"]["firing_models"] == 2
    assert out["result"]["stages"]["dice"] == 6


def test_a_named_attacker_may_fire_fewer_models_or_another_weapon(capsys: pytest.CaptureFixture[str]) -> None:
    out = _json(capsys, "--attacker", "marine", "--firing-models", "4")
    assert out["options"]["firing_models"] == 4 and out["result"]["stages"]["dice"] == 8
    out = _json(capsys, "--attacker", "stalker", "--weapon", "kerrigan_blades")
    assert out["weapon"]["name"] == "Blades (Kerrigan)" and out["options"]["firing_models"] == 1


@pytest.mark.parametrize(("args", "fragments"), [
    (["--attacker", "marine", "--firing-models", "7"], ["--firing-models", "has 6", "at most 6"]),
    (["--attacker", "zergling"], ["--attacker", "'zergling'", "--weapon", "marine (c14_rifle)"]),
    (["--attacker", "ultralisk"], ["unknown unit 'ultralisk'"]),
])
def test_a_named_attacker_refuses_what_it_cannot_do(capsys: pytest.CaptureFixture[str], args: list[str],
                                                   fragments: list[str]) -> None:
    assert main(["starcraft", "attack", *args]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and err.count("\n") == 1
    for fragment in fragments:
        assert fragment in err, (fragment, err)


def test_table_csv_and_markdown(capsys: pytest.CaptureFixture[str]) -> None:
    for fmt in ("table", "csv", "markdown"):
        assert main(["starcraft", "attack", "--format", fmt]) == 0
        text = capsys.readouterr().out
        assert "Damage" in text and "Casualties" in text and "P(destroyed)" in text or fmt == "csv"
    assert main(["starcraft", "attack", "--format", "csv", "--table", "stages"]) == 0
    assert capsys.readouterr().out.startswith("value,hits,surge,bypass,armour fails,damage pool,inflicting\n")


def test_every_option_reaches_the_engine(capsys: pytest.CaptureFixture[str]) -> None:
    out = _json(
        capsys, "--weapon", "quad_k12", "--firing-models", "2", "--unit", "roach", "--dodge", "1", "--marker", "1",
        "--bonus-tough", "1", "--hit-mod", "1", "--reaction", "td_reduction=1", "--stacking", "max",
        "--critical-hit", "1", "--visible-models", "2",
    )
    weapon = sc.Weapon(3, 3, 1, surge_tags=("Armoured",), surge_dice="D3", keywords="PIERCE Armoured (2)",
                       critical_hit=1, name="Quad K12")
    unit = sc.Unit(3, 4, 3, 5, tags=("Armoured", "Biological", "Ground"), marker=1, name="Roach")
    expected = sc.attack(weapon, unit, firing_models=2, dodge=1, tough=1, hit_mod=1, reaction={"td_reduction": 1},
                         visible_models=2, rules={"stacking": "max"})
    assert out["result"]["damage_per_die"] == 2
    assert np.allclose(out["result"]["casualties"]["pmf"], expected.casualties.pmf, atol=1e-15)
    assert np.allclose(out["result"]["marker"]["pmf"], expected.marker.pmf, atol=1e-15)
    assert out["rules"] == {"critical_hit": "count", "leftover": "marker", "stacking": "max"}


def test_weapon_and_unit_fields_and_keywords(capsys: pytest.CaptureFixture[str]) -> None:
    out = _json(capsys, "--roa", "3", "--hit", "4+", "--damage", "2", "--surge-tags", "-", "--keywords",
                "CRITICAL HIT (1), ANTI-EVADE (1)", "--models", "4", "--hp", "3", "--armour", "4", "--evade", "-",
                "--shield", "2", "--tags", "Armoured", "--firing-models", "1")
    weapon = sc.Weapon(3, 4, 2, keywords="CRITICAL HIT (1), ANTI-EVADE (1)", name="C-14 Rifle")
    unit = sc.Unit(4, 3, 4, None, shield=2, tags=("Armoured",), name="Zergling")
    expected = sc.attack(weapon, unit)
    assert out["weapon"]["critical_hit"] == 1 and out["unit"]["shielded"] is True
    assert np.allclose(out["result"]["damage"]["pmf"], expected.damage.pmf, atol=1e-15)
    assert out["result"]["shield_lost"] == pytest.approx(expected.shield_lost, abs=1e-15)


def test_template_hits_and_profiles_file(capsys: pytest.CaptureFixture[str]) -> None:
    out = _json(capsys, "--weapon", "shock_cannon", "--unit", "marine", "--affected-models", "3", "--size", "1",
                "--damage-set", "size")
    assert out["result"]["stages"]["dice"] == 7 and "firing_models" not in out["options"]
    assert out["result"]["surge_applied"] is True
    out = _json(capsys, "--mode", "hits", "--hits", "2,1", "--unit", "marine", "--armour", "4", "--no-evade-eligible")
    assert out["weapon"] is None
    assert out["result"]["damage"]["pmf"] == pytest.approx([0.25, 0.5, 0.25], abs=1e-15)
    out = _json(capsys, "--profiles", str(EXAMPLES), "--weapon", "particle_disruptors", "--unit", "stalker",
                "--firing-models", "1")
    assert out["weapon"]["name"] == "Particle Disruptors" and out["result"]["damage_per_die"] == 2


def test_monte_carlo_from_the_command_line(capsys: pytest.CaptureFixture[str]) -> None:
    out = _json(capsys, "--method", "monte_carlo", "--samples", "20000", "--seed", "3", "--threads", "1")
    assert out["result"]["method"] == "monte_carlo" and out["result"]["samples"] == 20000
    assert out["result"]["seed"] == 3 and "stderr" in out["result"]["damage"]


@pytest.mark.parametrize(
    "args,message",
    [
        (["--hit", "7"], "error: hit: 7 is out of range; allowed 2..6"),
        (["--tags", "Zerg"], "error: tags: unknown Combat Tag 'Zerg'"),
        (["--keywords", "FLAMING (1)"], "error: keywords: unknown keyword 'FLAMING (1)'"),
        (["--firing-models", "-1"], "error: firing_models: -1 is out of range; allowed 0..60"),
        (["--mode", "melee"], "error: mode: unknown value 'melee'"),
        (["--reaction", "parry=1"], "error: reaction.parry: not a reaction grant"),
        (["--reaction", "dodge"], "error: reaction: 'dodge': write key=value pairs"),
        (["--hits", "2"], "error: hits: '2': write X,Y"),
        (["--unit", "hydralisk"], "error: unit: unknown unit 'hydralisk'"),
        (["--leftover", "kept"], "error: --leftover: unknown value 'kept'"),
        (["--firing-models", "60", "--roa", "3"], "error: dice: the batch has 180 dice; allowed at most 120"),
    ],
)
def test_bad_input_exits_2_with_one_line(capsys: pytest.CaptureFixture[str], args: list[str], message: str) -> None:
    assert main(["starcraft", "attack", *args]) == 2
    err = capsys.readouterr().err
    assert err.startswith(message) and err.count("\n") == 1


def test_help_has_an_example(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["starcraft", "attack", "--help"]) == 0
    text = capsys.readouterr().out
    assert re.search(r"Examples?:\s+mathhammer starcraft attack", text) and "--critical-hit-rule" in text


def test_a_sequence_batch_may_name_the_unit_that_fires(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["starcraft", "sequence", "--unit", "zealot", "--batch", "marine", "--batch", "marauder firing_models=1",
                 "--format", "json"]) == 0
    out = json.loads(capsys.readouterr().out)
    expected = sc.sequence(sc.catalog.unit("zealot"), [sc.Batch(sc.catalog.weapon("c14_rifle"), firing_models=6),
                                                        sc.Batch(sc.catalog.weapon("quad_k12"), firing_models=1)])
    assert [b["firing_models"] for b in out["batches"]] == [6, 1]
    assert np.allclose(out["result"]["total_damage"]["pmf"], expected.total_damage.pmf, atol=1e-15)


def test_sequence_table_names_each_batch_by_its_weapon(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["starcraft", "sequence", "--table", "total-damage"]) == 0
    assert capsys.readouterr().out.startswith("Total damage: 2 batches at Zealot, exact\n")
    assert main(["starcraft", "sequence", "--format", "csv", "--table", "batches"]) == 0
    batches = capsys.readouterr().out.splitlines()
    assert batches[1].startswith("1: C-14 Rifle x6,") and batches[2].startswith("2: Quad K12 x2,")


def test_a_result_heading_names_who_fired_from_the_result_alone() -> None:
    """``mathhammer run`` and to_markdown() print a StarCraft attack from its result alone: the heading
    names the models that fired; a result saved without them names the dice they rolled (6 Marines'
    C-14 rifles, RoA 2: 12 dice)."""
    import dataclasses

    from mathhammer import starcraft as sc
    from mathhammer.starcraft.report import attack_heading

    result = sc.attack(sc.catalog.weapon("c14_rifle"), sc.catalog.unit("zergling"), firing_models=6, dodge=1)
    assert attack_heading(result) == "6 models firing C-14 Rifle at Zergling, dodge 1, exact"
    older = sc.AttackResult.from_dict({key: value for key, value in result.to_dict().items()
                                       if key not in ("fired", "options", "inputs")})
    assert attack_heading(older) == "C-14 Rifle (12 dice) at Zergling, exact"
    assert dataclasses.replace(result, fired="").to_markdown().startswith("### Damage: C-14 Rifle (12 dice)")
