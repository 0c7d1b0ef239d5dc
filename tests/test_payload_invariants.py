"""A loaded result keeps what a computed one does (docs/results.md "Pickling and JSON"): payloads
whose fields each have the right type but together describe no possible computation are refused,
and oversized or overly deep JSON is refused before it is decoded."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest

from mathhammer import deathburgh as db
from mathhammer import force_melee as fm
from mathhammer import killteam as kt
from mathhammer import starcraft as sc
from mathhammer.errors import InputError
from timing import cpu_at_most

SHOT = kt.shoot(kt.Weapon(4, 3, (3, 4)), kt.Operative(3, 12))
SHOT_MC = kt.shoot(kt.Weapon(4, 3, (3, 4)), kt.Operative(3, 5), rounds=2, cover=1, method="monte_carlo",
                   samples=2_000, seed=4)
FIGHT = kt.fight(kt.Fighter(4, 3, (3, 4), 10), kt.Fighter(3, 4, (4, 5), 9))
EVERY_KIND = [SHOT, SHOT_MC, FIGHT, kt.attack_dice(kt.Weapon(4, 3)),
              sc.attack(sc.Weapon(roa=2, hit=3, damage=1), sc.Unit(models=2, hp=1, armour=6)),
              db.combat("A 2/4+ D 2/4+ W 2", "A 3/3+ D 1/5+ W 3"),
              fm.melee(fm.example("line_troopers"), fm.example("militia"))]


def _edited(result: Any, edit: Callable[[dict[str, Any]], None]) -> dict[str, Any]:
    payload = json.loads(result.to_json())
    edit(payload)
    return payload


@pytest.mark.parametrize("result", EVERY_KIND, ids=lambda r: type(r).__name__)
def test_every_result_refuses_an_unknown_method_and_an_exact_one_with_samples(result: Any) -> None:
    cls = type(result)
    assert cls.from_json(result.to_json()) == result
    with pytest.raises(InputError, match="^method: "):
        cls.from_dict(_edited(result, lambda p: p.update(method="bogus")))
    if result.method == "exact":
        for key, value in (("samples", 7), ("seed", 5)):
            with pytest.raises(InputError, match=f"^{key}: an exact result has none"):
                cls.from_dict(_edited(result, lambda p: p.update({key: value})))


@pytest.mark.parametrize(("key", "value", "message"), [
    ("samples", None, "^samples: a Monte Carlo result has"), ("samples", 0, "^samples: "),
    ("seed", -5, "^seed: "), ("seed", None, "^seed: "), ("seed", 2**64, "^seed: "),
])
def test_a_monte_carlo_result_has_its_samples_and_seed(key: str, value: Any, message: str) -> None:
    with pytest.raises(InputError, match=message):
        kt.ShootResult.from_dict(_edited(SHOT_MC, lambda p: p.update({key: value})))


@pytest.mark.parametrize(("edit", "message"), [
    (lambda p: p.update(wounds=-3), "^wounds: "),
    (lambda p: p.update(wounds=13), "^kill_chance: .* does not follow"),
    (lambda p: p.update(cover=99), "^cover: "),
    (lambda p: p.update(rounds=0), "^rounds: "),
    (lambda p: p.update(kill_chance=0.5), "^kill_chance: "),
    (lambda p: p.update(injury_chance=0.0), "^injury_chance: "),
    (lambda p: p["damage"].update(start=-10**9), r"^damage\.start: "),
    (lambda p: p["damage"].update(start=1), r"^damage\.start: "),
    (lambda p: p["wounds_left"]["pmf"].reverse(), "^wounds_left: "),
    (lambda p: p["damage"].update(samples=7), r"^damage\.samples: "),
])
def test_a_loaded_shot_follows_from_its_damage(edit: Callable[[dict[str, Any]], None], message: str) -> None:
    with pytest.raises(InputError, match=message):
        kt.ShootResult.from_dict(_edited(SHOT, edit))


@pytest.mark.parametrize(("edit", "message"), [
    (lambda p: p.update(start_wounds=[10, 10]), r"^joint\.pmf: "),
    (lambda p: p.update(start_wounds=[0, 9]), r"^start_wounds\[0\]: "),
    (lambda p: p.update(rounds=9), "^rounds: "),
    (lambda p: p.update(first="c"), "^first: "),
    (lambda p: p["wounds_a"]["pmf"].reverse(), "^wounds_a: "),
])
def test_a_loaded_fight_follows_from_its_joint_table(edit: Callable[[dict[str, Any]], None], message: str) -> None:
    with pytest.raises(InputError, match=message):
        kt.FightResult.from_dict(_edited(FIGHT, edit))


def test_json_over_sixteen_mebibytes_is_refused_before_decoding() -> None:
    with cpu_at_most(0.01):  # the size is checked first: about 8 ms of CPU, the first time
        with pytest.raises(InputError, match="^json: .* at most 16,777,216"):
            kt.ShootResult.from_json(" " * (16 * 2**20 + 1))
        with pytest.raises(InputError, match="^json: "):
            kt.ShootResult.from_json(b"[" * (16 * 2**20 + 1))


def test_deep_json_is_refused_without_building_its_tree() -> None:
    deep = "[" * 5_000_000 + "]" * 5_000_000  # 10 MB, under the size cap: only the depth refuses it
    # one scan of the text: about 0.2 s of CPU, the first time
    with cpu_at_most(0.2), pytest.raises(InputError, match="^json: nested too deeply"):
        kt.ShootResult.from_json(deep)
    # brackets inside strings are text, not nesting
    text = json.dumps({"weapon": "[" * 1000, "x": 1})
    with pytest.raises(InputError, match="unknown key"):
        kt.ShootResult.from_json(text)
