"""Every public result type of every game: to_dict / to_json / from_json round-trip to equal numbers,
and to_frame gives a non-empty pandas DataFrame. The list of factories must cover every result type
the games export, so a new result type without an export fails here."""

from __future__ import annotations

import json
from collections.abc import Callable
from importlib import resources
from typing import Any

import numpy as np
import pandas as pd
import pytest

from casedata import KILLTEAM_TEAMS
from mathhammer import deathburgh as db
from mathhammer import force_melee as fm
from mathhammer import killteam as kt
from mathhammer.files import scenario
from mathhammer import starcraft as sc
from mathhammer.core.results import ResultMixin
from mathhammer.killteam.meta import meta_ranking

MC = {"method": "monte_carlo", "samples": 20_000, "seed": 11, "threads": 1}

FIGHTER_A = kt.Fighter(4, 3, (3, 4), 10, rules="Brutal", abilities="Feel No Pain 5+")
FIGHTER_B = kt.Fighter(3, 4, (4, 5), 9, abilities="Storm Shield", strategy="parry")
GUN = kt.Weapon(4, 3, (3, 4), "Lethal 5+, Piercing 1")
TARGET = kt.Operative(4, 9, "Saintly Relics")
RIFLE = sc.catalog.weapon("c14_rifle")
ZEALOTS = sc.catalog.unit("zealot")


def _round() -> Any:
    minis = {"leader": db.example("Old Fellas Leader"), "brute": db.example("Bandit Brute")}
    return [{"attacker": "leader", "defender": "brute", "reaction": "dodge"},
            {"attacker": "brute", "defender": "leader"}], minis


def _scenario_outcomes(**overrides: Any) -> list[scenario.Outcome]:
    text = resources.files("mathhammer").joinpath("examples/default_scenario.toml").read_text()
    return scenario.run_scenario(scenario.parse_scenario_text(text), overrides=overrides)


_TEAMS = KILLTEAM_TEAMS

MANY = dict(
    sides={"troopers": "line_troopers", "militia": "militia", "walker": "walker"},
    engaged=[("troopers", "walker"), ("militia", "walker")],
    assignment={"walker": {"troopers": 3, "militia": 1}},
)


def _many(**options: Any) -> fm.MeleeManyResult:
    sides = {name: fm.example(value) for name, value in MANY["sides"].items()}
    return fm.melee_many(sides, MANY["engaged"], MANY["assignment"], **options)


# result type -> factories of instances (exact and Monte Carlo where the type has both)
FACTORIES: dict[type, list[Callable[[], Any]]] = {
    kt.FightResult: [lambda: kt.fight(FIGHTER_A, FIGHTER_B, rounds=2), lambda: kt.fight(FIGHTER_A, FIGHTER_B, **MC)],
    kt.ShootResult: [lambda: kt.shoot(GUN, TARGET, cover=1, rounds=2), lambda: kt.shoot(GUN, TARGET, **MC)],
    kt.VolleyResult: [lambda: kt.volley(GUN, [TARGET, TARGET], cover=[1, 0]), lambda: kt.volley(GUN, [TARGET], **MC)],
    kt.Matchup: [lambda: kt.matchup(_TEAMS / "Ember Wardens.toml", _TEAMS / "Gloam Pact.toml")],
    kt.MatchupSummary: [lambda: kt.matchup(_TEAMS / "Ember Wardens.toml", _TEAMS / "Gloam Pact.toml").summary(cover=0)],
    kt.MetaRanking: [lambda: meta_ranking(_TEAMS)],
    kt.AttackDiceResult: [lambda: kt.attack_dice(GUN), lambda: kt.attack_dice(GUN, **MC)],
    kt.FightLog: [lambda: kt.resolve_fight(FIGHTER_A, FIGHTER_B, (1, 2), (0, 2), seed=3)],
    kt.Advice: [lambda: kt.advise(FIGHTER_A, FIGHTER_B, (1, 2), (0, 2))],
    kt.MoveValue: [lambda: kt.advise(FIGHTER_A, FIGHTER_B, (1, 2), (0, 2)).moves[0]],
    kt.Comparison: [lambda: kt.compare([GUN, kt.Weapon(4, 3, (3, 4))], saves=[3, 5], at_least=[2, 6]),
                    lambda: kt.compare([GUN], saves=[4], **MC)],
    kt.FightComparison: [lambda: kt.compare_fights([FIGHTER_A], [FIGHTER_B, FIGHTER_A]),
                         lambda: kt.compare_fights([FIGHTER_A, FIGHTER_B], [FIGHTER_B], **MC)],
    sc.AttackResult: [lambda: sc.attack(RIFLE, ZEALOTS, firing_models=4), lambda: sc.attack(RIFLE, ZEALOTS, **MC)],
    sc.SequenceResult: [
        lambda: sc.sequence(ZEALOTS, [sc.Batch(RIFLE, firing_models=3), sc.Batch(None, mode="hits", hits=(2, 1))]),
        lambda: sc.sequence(ZEALOTS, [sc.Batch(RIFLE, firing_models=3)], **MC),
    ],
    sc.Stages: [lambda: sc.attack(RIFLE, ZEALOTS).stages],
    sc.StateDistribution: [lambda: sc.attack(RIFLE, ZEALOTS).state],
    sc.BatchSummary: [lambda: sc.sequence(ZEALOTS, [sc.Batch(RIFLE, firing_models=3)]).batches[0]],
    sc.Allocation: [lambda: sc.rules.allocate(ZEALOTS, 5)],
    sc.Comparison: [lambda: sc.compare([RIFLE], [ZEALOTS, sc.catalog.unit("roach")], firing_models=3),
                    lambda: sc.compare([RIFLE], [ZEALOTS], **MC)],
    sc.Resolution: [lambda: sc.resolve(RIFLE, ZEALOTS, [6, 5, 1, 2, 3, 4, 5, 6, 1, 2, 3, 4, 5, 6, 1, 2])],
    db.CombatResult: [
        lambda: db.combat("Old Fellas Leader", "Bandit Brute", "dodge"),
        lambda: db.combat("Old Fellas Leader", "Bandit Brute", **MC),
    ],
    db.RoundResult: [
        lambda: db.round(_round()[1], _round()[0]),
        lambda: db.round(_round()[1], _round()[0], **MC),
    ],
    fm.MeleeResult: [
        lambda: fm.melee(fm.example("line_troopers"), fm.example("walker")),
        lambda: fm.melee(fm.example("line_troopers"), fm.example("walker"), **MC),
    ],
    fm.MeleeManyResult: [_many, lambda: _many(**MC)],
    fm.UnitResult: [lambda: _many().units["walker"]],
    fm.PairResult: [lambda: _many().pairs[0]],
    fm.AllocationResult: [lambda: fm.allocate(fm.Unit(models=3, hp=2), [3, 1])],
    scenario.Outcome: [lambda k=k: _scenario_outcomes()[k] for k in range(5)]
    + [lambda: _scenario_outcomes(method="monte_carlo", samples=20_000, seed=5, threads=1)[0]],
}

CASES = [(cls, k) for cls, factories in FACTORIES.items() for k in range(len(factories))]


def _exported_result_types() -> set[type]:
    found = {scenario.Outcome}
    for game in (kt, sc, db, fm):
        for name in game.__all__:
            value = getattr(game, name)
            if isinstance(value, type) and issubclass(value, ResultMixin):
                found.add(value)
    return found


def test_every_exported_result_type_is_covered():
    assert set(FACTORIES) == _exported_result_types()


def _numbers_equal(a: Any, b: Any) -> bool:
    """Equal JSON trees, floats compared exactly (JSON keeps every bit of a double)."""
    if isinstance(a, dict):
        return isinstance(b, dict) and a.keys() == b.keys() and all(_numbers_equal(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return isinstance(b, list) and len(a) == len(b) and all(_numbers_equal(x, y) for x, y in zip(a, b))
    return a == b and type(a) is type(b)


@pytest.mark.parametrize("cls, index", CASES, ids=lambda v: v.__name__ if isinstance(v, type) else str(v))
def test_round_trip_and_frame(cls: type, index: int):
    result = FACTORIES[cls][index]()
    assert isinstance(result, cls)
    text = result.to_json()
    again = cls.from_json(text)
    assert type(again) is cls
    assert again == result
    assert _numbers_equal(again.to_dict(), result.to_dict())
    assert _numbers_equal(json.loads(again.to_json()), json.loads(text))
    frame = result.to_frame()
    assert isinstance(frame, pd.DataFrame) and len(frame) > 0 and len(frame.columns) > 0


def test_monte_carlo_results_keep_their_samples_and_errors():
    r = kt.FightResult.from_json(kt.fight(FIGHTER_A, FIGHTER_B, **MC).to_json())
    assert r.samples == 20_000 and r.wounds_a.samples == 20_000
    assert np.all(r.wounds_a.stderr >= 0) and r.stderr["death_chance_a"] > 0


def test_outcome_frame_names_the_entry():
    outcome = _scenario_outcomes()[2]
    frame = outcome.to_frame()
    assert list(frame.columns[:3]) == ["game", "action", "name"]
    assert set(frame["game"]) == {"starcraft"} and set(frame["name"]) == {outcome.name}
