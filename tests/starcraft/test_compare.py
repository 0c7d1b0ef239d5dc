"""sc.compare: every cell equals the separate sc.attack; the CLI prints the same numbers."""

from __future__ import annotations

import json

import pytest

from mathhammer import starcraft as sc
from mathhammer.errors import InputError
from mathhammer.cli import main

RIFLE, K12 = sc.catalog.weapon("c14_rifle"), sc.catalog.weapon("quad_k12")
UNITS = [sc.catalog.unit("zergling"), sc.catalog.unit("roach"), sc.catalog.unit("zealot")]


def test_each_cell_is_the_separate_attack() -> None:
    c = sc.compare([RIFLE, K12], UNITS, firing_models=4, hit_mod=1)
    assert c.weapons == ("C-14 Rifle", "Quad K12") and len(c.units) == 3
    for i, weapon in enumerate([RIFLE, K12]):
        for j, unit in enumerate(UNITS):
            direct = sc.attack(weapon, unit, firing_models=4, hit_mod=1)
            assert c.damage[i, j] == direct.damage.mean
            assert c.casualties[i, j] == direct.casualties.mean
            assert c.destroyed[i, j] == direct.destroyed


def test_a_mapping_labels_the_rows_and_the_frame_has_a_row_per_cell() -> None:
    c = sc.compare({"rifles": RIFLE}, UNITS[:2], firing_models=6)
    frame = c.to_frame()
    assert frame["weapon"].tolist() == ["rifles", "rifles"]
    assert frame["destroyed_chance"].tolist() == c.destroyed.ravel().tolist()
    assert "Destroyed chance" in str(c) and "| rifles |" in c.to_markdown()


def test_bad_profiles_name_the_field() -> None:
    with pytest.raises(TypeError) as caught:
        sc.compare([RIFLE, "c14_rifle"], UNITS)  # type: ignore[list-item]
    assert getattr(caught.value, "field", None) == "weapons[1]"
    with pytest.raises(InputError):
        sc.compare([RIFLE], [])


def test_cli_compare(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["starcraft", "compare", "--weapon", "c14_rifle", "--weapon", "quad_k12", "--unit", "zergling",
            "--unit", "roach", "--firing-models", "3", "--format", "json"]
    assert main(args) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["rows"] == sc.compare([RIFLE, K12], UNITS[:2], firing_models=3).to_frame().to_dict(orient="records")
    assert main([*args[:-1], "csv"]) == 0 and "Quad K12" in capsys.readouterr().out


def test_a_comparison_is_a_result_printed_by_its_printer() -> None:
    from mathhammer.core.results import EngineResult, Presented

    c = sc.compare([RIFLE, K12], UNITS[:2], firing_models=4)
    assert isinstance(c, EngineResult) and (c.method, c.samples, c.seed) == ("exact", None, None)
    assert type(c).to_markdown is Presented.to_markdown  # no renderer of its own
    damage = [sc.attack(w, u, firing_models=4).damage.mean for w in (RIFLE, K12) for u in UNITS[:2]]
    assert c.summary()["max_mean_damage"] == max(damage) and c.summary()["min_mean_damage"] == min(damage)
    mc = sc.compare([RIFLE], UNITS[:2], firing_models=4, method="monte_carlo", samples=4_000, seed=3, threads=1)
    best = max(mc.results[0], key=lambda cell: cell.damage.mean)
    assert mc.stderr is not None and mc.stderr["max_mean_damage"] == best.stderr["mean_damage"]  # type: ignore[index]
    assert "4 firing models per weapon, exact" in c.to_markdown().splitlines()[0]
