"""Several units: the plain reference for small melees, one pair equals melee, the dice split, the
choice of engine and the errors."""

from __future__ import annotations

import random

import numpy as np
import pytest

import fm_reference as ref
from mathhammer import force_melee as fm
from mathhammer.errors import InputError


def _close(actual: np.ndarray, expected: dict, what: str) -> None:
    for key, p in expected.items():
        index = key if isinstance(key, tuple) else (key,)
        inside = all(i < n for i, n in zip(index, actual.shape))
        got = float(actual[index]) if inside else 0.0
        assert abs(got - float(p)) < 1e-12, f"{what}{list(index)}: {got} vs {p}"
    assert abs(actual.sum() - 1) < 1e-12


@pytest.mark.parametrize("seed", range(12))
def test_small_melees_match_the_reference(seed):
    rng = random.Random(f"many-ref-{seed}")
    names = ["x", "y", "z"]
    sides = {name: ref.random_side(rng, max_dice=3, max_models=4, max_hp=3) for name in names}
    engaged = [("x", "y"), ("z", "y")] if seed % 2 else [("y", "x"), ("x", "z"), ("y", "z")]
    dice = {}
    for name, side in sides.items():
        enemies = [v if u == name else u for u, v in engaged if name in (u, v)]
        left = side.dice
        for enemy in enemies:
            dice[(name, enemy)] = take = rng.randint(0, min(left, 2))
            left -= take
    sw = ref.random_switches(rng)
    result = fm.melee_many(sides, engaged, dice, method="exact", **sw)
    expected = ref.melee_many(sides, engaged, dice, sw)
    for name in names:
        unit = result.units[name]
        _close(unit.damage.pmf, expected[f"damage:{name}"], f"{name} damage")
        _close(unit.casualties.pmf, expected[f"casualties:{name}"], f"{name} casualties")
        table = np.zeros((unit.models, 31))
        for k, dist in enumerate(unit.remaining):
            table[k, : dist.pmf.size] = dist.pmf
        for (k, hp), p in expected[f"remaining:{name}"].items():
            assert abs(table[k, hp] - float(p)) < 1e-12
    for pair in result.pairs:
        _close(pair.casualties_joint.pmf, expected[f"pair:{pair.first}:{pair.second}"], "pair casualties")
        single = ref.exchange_law(sides[pair.first], pair.dice[0], sides[pair.second], pair.dice[1], sw)
        joint = {}
        for (d1, d2, _, _), p in single.items():
            joint[(d1, d2)] = joint.get((d1, d2), 0) + p
        _close(pair.joint.pmf, joint, "pair damage")


def test_one_pair_is_one_melee():
    a, b = fm.example("walker"), fm.example("line_troopers").replace(dice=5, weapon={"sustained": 1})
    for winner_damage in fm.WINNER_DAMAGE:
        single = fm.melee(a, b, winner_damage=winner_damage, allocation="no_spill")
        many = fm.melee_many({"w": a, "t": b}, [("w", "t")], winner_damage=winner_damage, allocation="no_spill")
        pair = many.pairs[0]
        assert np.allclose(pair.joint.pmf, single.joint.pmf, atol=1e-15)
        assert np.allclose(pair.casualties_joint.pmf, single.casualties_joint.pmf, atol=1e-15)
        assert np.allclose(many.units["t"].casualties.pmf, single.casualties_b.pmf, atol=1e-15)
        assert abs(pair.p_first_more - single.p_a_more) < 1e-15 and abs(pair.p_tie - single.p_tie) < 1e-15
        for m, s in zip(many.units["w"].remaining, single.remaining_a):
            assert np.allclose(m.pmf, s.pmf, atol=1e-15)


def _three():
    return {"troopers": fm.example("line_troopers"), "militia": fm.example("militia"), "walker": fm.example("walker")}


ENGAGED = [("troopers", "walker"), ("militia", "walker")]


def test_assignment_forms_agree_and_lone_enemies_get_every_die():
    by_tuple = fm.melee_many(_three(), ENGAGED, {("walker", "troopers"): 3, ("walker", "militia"): 1})
    by_nested = fm.melee_many(_three(), ENGAGED, {"walker": {"troopers": 3, "militia": 1}})
    assert by_tuple.to_dict() == by_nested.to_dict()
    assert by_tuple.pair("troopers", "walker").dice == (3, 3)
    assert by_tuple.pair("militia", "walker").dice == (2, 1)
    assert by_tuple.pair("walker", "militia").dice == (1, 2)


def test_focusing_and_holding_dice_back():
    focused = fm.melee_many(_three(), ENGAGED, {"walker": {"troopers": 4}})
    assert focused.pair("militia", "walker").dice == (2, 0)
    assert focused.units["militia"].damage.max == 0  # nothing rolled at the militia, and it deals bonus-free damage
    held = fm.melee_many(_three(), ENGAGED, {"walker": {"troopers": 1, "militia": 0}})
    assert held.pair("troopers", "walker").dice == (3, 1)


def test_pair_where_neither_assigned_dice_is_skipped():
    sides = _three()
    sides["militia"] = sides["militia"].replace(dice=0)
    r = fm.melee_many(sides, ENGAGED, {"walker": {"troopers": 4}}, bonus_always=True)
    pair = r.pair("militia", "walker")
    assert pair.skipped and pair.joint.pmf.shape == (1, 1)


def test_lumps_of_several_exchanges_are_allocated_in_pair_order():
    # Two attackers that always hit with Force 3 vs a 2 x 4 HP target that cannot hit back:
    # no_spill keeps each lump in one model -> the two lumps of 3 land on the same model (3, then 1 + 2 lost).
    hitter = fm.Side(fm.Unit(1), fm.Weapon(hit=2, force=3, crit=2), dice=1, hit_mod=5)  # 2+: a 1 still misses
    target = fm.Side(fm.Unit(2, 4), fm.Weapon(hit=6, force=0), dice=0)
    r = fm.melee_many({"p": hitter, "q": hitter, "t": target}, [("p", "t"), ("q", "t")], allocation="no_spill")
    # both hit: 25/36 -> first model takes 3, then 1 (2 lost): 1 casualty
    assert abs(r.units["t"].casualties.prob(1) - 25 / 36) < 1e-15
    assert abs(r.units["t"].damage.prob(6) - 25 / 36) < 1e-15


def test_auto_falls_back_to_monte_carlo_beyond_a_million_cells():
    big = fm.Side(fm.Unit(10, 3), fm.Weapon(hit=3, force=4, sustained=2, critical_damage=1), dice=12)
    other = fm.Side(fm.Unit(10, 3), fm.Weapon(hit=4, force=5, bonus_flat=2), dice=12)
    sides = {"a": big, "b": other, "c": big, "d": other}
    engaged = [("a", "b"), ("c", "d"), ("a", "d")]
    assignment = {"a": {"b": 6, "d": 6}, "d": {"c": 6, "a": 6}}
    # the product of the three exchanges' joint damage laws, counted from single melees
    cells = 1
    for (u, v) in engaged:
        dice_uv = assignment.get(u, {}).get(v, sides[u].dice)
        dice_vu = assignment.get(v, {}).get(u, sides[v].dice)
        single = fm.melee(sides[u].replace(dice=dice_uv), sides[v].replace(dice=dice_vu), winner_damage="pairing")
        cells *= int((single.joint.pmf > 0).sum())
    assert cells == 9_883_728
    r = fm.melee_many(sides, engaged, assignment, winner_damage="pairing", samples=100_000, seed=1, threads=2)
    assert r.method == "monte_carlo" and r.samples == 100_000 and r.seed == 1
    with pytest.raises(InputError, match=r"^method: .*9,883,728 cells"):
        fm.melee_many(sides, engaged, assignment, winner_damage="pairing", method="exact")
    # excess: fewer cells, exact
    assert fm.melee_many(sides, engaged, assignment, winner_damage="excess").method == "exact"


@pytest.mark.parametrize(
    "engaged, assignment, field, message",
    [
        ([("troopers", "walker"), ("militia", "walker")], None, "assignment", "split"),
        ([("troopers", "ghost")], None, "engaged[0]", "unknown unit 'ghost'"),
        ([("troopers", "troopers")], None, "engaged[0]", "itself"),
        ([("troopers", "walker"), ("walker", "troopers")], None, "engaged[1]", "twice"),
        ([("troopers", "walker")], None, "engaged", "'militia' is not in any engaged pair"),
        (ENGAGED, {"walker": {"troopers": 3, "militia": 2}}, "assignment['walker']", "assigns 5 dice"),
        (ENGAGED, {"troopers": {"militia": 1}, "walker": {"troopers": 4}}, "assignment['troopers', 'militia']",
         "not engaged with 'militia'"),
        (ENGAGED, {"walker": {"troopers": -1}}, "assignment['walker', 'troopers']", "out of range"),
        ([], None, "engaged", "allowed 1..16"),
        ("troopers-walker", None, "engaged", "list of"),
    ],
)
def test_bad_melees_name_the_field(engaged, assignment, field, message):
    with pytest.raises((ValueError, TypeError)) as error:
        fm.melee_many(_three(), engaged, assignment)
    text = str(error.value)
    assert text.startswith(f"{field}:") and message in text, text


def test_bad_sides_name_the_field():
    with pytest.raises(ValueError, match=r"^sides: has 1 units; allowed 2..8"):
        fm.melee_many({"a": fm.example("walker")}, [("a", "a")])
    with pytest.raises(ValueError, match=r"^sides\.w\.weapon\.force: 21 is out of range"):
        fm.melee_many({"w": {"unit": {"models": 1}, "weapon": {"hit": 3, "force": 21}, "dice": 1},
                       "t": fm.example("militia")}, [("w", "t")])
    with pytest.raises(ValueError, match=r"^sides: has 9 units"):
        fm.melee_many({str(i): fm.example("militia") for i in range(9)}, [("0", "1")])
    with pytest.raises(ValueError, match=r"^winner_damage: unknown value 'most'"):
        fm.melee_many(_three(), ENGAGED, {"walker": {"troopers": 4}}, winner_damage="most")


def test_result_round_trips_and_frames():
    r = fm.melee_many(_three(), ENGAGED, {"walker": {"troopers": 2, "militia": 2}})
    again = fm.MeleeManyResult.from_json(r.to_json())
    assert again.units["walker"].damage == r.units["walker"].damage and again.pairs[1].joint == r.pairs[1].joint
    frame = r.to_frame()
    assert set(frame["unit"]) == {"troopers", "militia", "walker"}
    assert abs(frame[(frame.unit == "walker") & (frame.quantity == "damage")]["p"].sum() - 1) < 1e-12
    assert r.wiped("troopers") == r.units["troopers"].wiped
    with pytest.raises(ValueError, match="^name: unknown unit"):
        r.unit("orks")
    with pytest.raises(ValueError, match="^pair: "):
        r.pair("troopers", "militia")
