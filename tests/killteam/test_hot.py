"""Hot (docs/rules/killteam.md §2.2): the shooter's own damage against an enumeration of its D6
rolls, the hand-checked cases, Monte Carlo, volleys, matchups, comparisons and payloads."""

from __future__ import annotations

import itertools
from collections import defaultdict
from fractions import Fraction

import numpy as np
import pytest
from casedata import load_cases
from stats import assert_pmf_close

from mathhammer import killteam as kt
from mathhammer.errors import InputError
from mathhammer.killteam.data.team import Team, TeamOperative, TeamWeapon

CASES = {k: v for k, v in load_cases("killteam").items() if k.startswith("KH")}
TOL = 1e-12


def enumerated(hit: int, rounds: int) -> dict[int, Fraction]:
    """P(the shooter takes d): every face of every round's D6; a face below the Hit inflicts twice itself."""
    out: dict[int, Fraction] = defaultdict(Fraction)
    for faces in itertools.product(range(1, 7), repeat=rounds):
        out[sum(2 * face for face in faces if face < hit)] += Fraction(1, 6 ** rounds)
    return dict(out)


def as_array(pmf: dict[int, Fraction], size: int) -> np.ndarray:
    out = np.zeros(size)
    for damage, p in pmf.items():
        out[damage] = float(p)
    return out


@pytest.mark.parametrize("rounds", [1, 2, 3])
@pytest.mark.parametrize("hit", [2, 3, 4, 5, 6])
def test_self_damage_is_the_enumeration_of_the_rolls(hit: int, rounds: int) -> None:
    weapon = kt.Weapon(3, hit, (3, 4), "Hot, Lethal 5+")
    want = enumerated(hit, rounds)
    r = kt.shoot(weapon, kt.Operative(4, 10), rounds=rounds, shooter_wounds=7)
    assert r.self_damage is not None and r.self_damage.start == 0
    size = max(want) + 1
    assert r.self_damage.pmf.size == size  # no trailing zeros
    assert np.abs(r.self_damage.pmf - as_array(want, size)).max() < TOL
    assert r.mean_self_damage == pytest.approx(float(sum(d * p for d, p in want.items())), abs=TOL)
    assert r.summary()["mean_self_damage"] == r.mean_self_damage
    assert r.shooter_death_chance == pytest.approx(float(sum(p for d, p in want.items() if d >= 7)), abs=TOL)
    # the target's damage is that of the same weapon without Hot
    plain = kt.shoot(kt.Weapon(3, hit, (3, 4), "Lethal 5+"), kt.Operative(4, 10), rounds=rounds)
    assert np.array_equal(r.damage.pmf, plain.damage.pmf)


@pytest.mark.parametrize("case_id", sorted(CASES))
def test_hot_cases(case_id: str) -> None:
    case = CASES[case_id]
    inputs, expected = case["inputs"], case["expected"]
    w, t = inputs["weapon"], inputs["target"]
    r = kt.shoot(kt.Weapon(w["attacks"], w["hit"], tuple(w["damage"]), w["rules"]), kt.Operative(t["save"], t["wounds"]),
                 rounds=inputs["rounds"], shooter_wounds=inputs["shooter_wounds"])
    want = {int(k): Fraction(v) for k, v in expected["self_damage_pmf"].items()}
    assert r.self_damage is not None
    assert np.abs(r.self_damage.pmf - as_array(want, max(want) + 1)).max() < case["tolerance"]
    assert r.mean_self_damage == pytest.approx(float(Fraction(expected["mean_self_damage"])), abs=case["tolerance"])
    assert r.shooter_death_chance == pytest.approx(float(Fraction(expected["shooter_death_chance"])),
                                                   abs=case["tolerance"])


def test_there_are_hot_cases() -> None:
    assert len(CASES) >= 2


def test_without_hot_there_is_no_self_damage_and_the_payload_is_as_before() -> None:
    r = kt.shoot(kt.Weapon(4, 3, (3, 4)), kt.Operative(3, 12), shooter_wounds=5)
    assert r.self_damage is None and r.mean_self_damage == 0.0 and r.shooter_death_chance == 0.0
    bare = kt.shoot(kt.Weapon(4, 3, (3, 4)), kt.Operative(3, 12))
    assert bare.shooter_death_chance is None
    assert "self_damage" not in bare.to_dict() and "shooter_wounds" not in bare.to_dict()
    assert list(bare.summary()) == ["mean_damage", "std_damage", "kill_chance", "injury_chance", "mean_self_damage"]


def test_a_hot_result_round_trips() -> None:
    r = kt.shoot(kt.Weapon(4, 4, (4, 6), "Hot"), kt.Operative(3, 12), rounds=2, shooter_wounds=8)
    again = kt.ShootResult.from_json(r.to_json())
    assert again.to_json() == r.to_json()
    assert again.shooter_death_chance == r.shooter_death_chance
    with pytest.raises(InputError, match="^shooter_wounds"):
        kt.ShootResult.from_dict({**r.to_dict(), "shooter_wounds": 0})


@pytest.mark.parametrize("value", [0, 41, -3])
def test_shooter_wounds_are_checked(value: int) -> None:
    with pytest.raises(InputError, match="^shooter_wounds: "):
        kt.shoot(kt.Weapon(4, 4, (4, 6), "Hot"), kt.Operative(3, 12), shooter_wounds=value)


def test_monte_carlo_rolls_the_hot_die_after_each_round() -> None:
    samples = 60_000
    weapon, target = kt.Weapon(2, 5, (4, 5), "Hot, Piercing 1"), kt.Operative(3, 12)
    exact = kt.shoot(weapon, target, rounds=2, shooter_wounds=10)
    mc = kt.shoot(weapon, target, rounds=2, shooter_wounds=10, method="monte_carlo", samples=samples, seed=7,
                  threads=1)
    assert mc.self_damage is not None and exact.self_damage is not None
    assert_pmf_close(exact.self_damage.pmf, mc.self_damage.pmf, samples, "Hot's damage")
    assert_pmf_close(exact.damage.pmf, mc.damage.pmf, samples, "the target's damage")
    assert mc.stderr is not None
    assert mc.stderr["mean_self_damage"] == pytest.approx(mc.self_damage.std / np.sqrt(samples))
    # without Hot no die is rolled for it: the stream, and so the numbers, are those of the plain weapon
    plain = kt.shoot(kt.Weapon(2, 5, (4, 5), "Piercing 1"), target, rounds=2, method="monte_carlo", samples=2_000,
                     seed=7, threads=1)
    assert plain.self_damage is None and plain.stderr is not None and plain.stderr["mean_self_damage"] == 0.0


def test_a_volley_rolls_once() -> None:
    weapon = kt.Weapon(4, 4, (4, 5), "Hot")
    v = kt.volley(weapon, [kt.Operative(3, 8), kt.Operative(4, 10), kt.Operative(5, 6)], shooter_wounds=4)
    want = enumerated(4, 1)
    assert v.self_damage is not None
    assert np.abs(v.self_damage.pmf - as_array(want, max(want) + 1)).max() < TOL
    assert v.shooter_death_chance == pytest.approx(float(sum(p for d, p in want.items() if d >= 4)), abs=TOL)
    assert v.summary()["mean_self_damage"] == pytest.approx(2.0, abs=TOL)
    plain = kt.volley(kt.Weapon(4, 4, (4, 5)), [kt.Operative(3, 8)])
    assert plain.self_damage is None and "self_damage" not in plain.to_dict()
    assert kt.VolleyResult.from_json(v.to_json()).to_json() == v.to_json()


def test_the_batch_summary_holds_the_self_damage() -> None:
    weapons = [kt.Weapon(4, 4, (4, 5), "Hot"), kt.Weapon(4, 4, (4, 5))]
    batch = kt.shoot_batch(weapons, kt.Operative(3, 12), shooter_wounds=[6, None], rounds=2)
    assert batch.summaries() == [batch[0].summary(), batch[1].summary()]
    assert batch[0].shooter_wounds == 6 and batch[1].shooter_wounds is None
    assert batch[0].mean_self_damage == pytest.approx(4.0, abs=TOL)


def test_compare_shows_the_self_damage_beside_the_damage_dealt() -> None:
    comparison = kt.compare([kt.Weapon(4, 4, (4, 6), "Hot"), kt.Weapon(4, 3, (3, 4))], saves=[3, 4],
                            shooter_wounds=6)
    assert comparison.self_damage == (pytest.approx(2.0), None)
    assert comparison.shooter_death_chance == (pytest.approx(1 / 6), None)
    text = comparison.to_markdown()
    assert "| Hot self damage | P(Hot kills self) |" in text
    assert comparison.to_json() and kt.Comparison.from_json(comparison.to_json()).self_damage == comparison.self_damage
    assert list(comparison.to_frame()["mean_self_damage"][:2]) == pytest.approx([2.0, 2.0])


def test_a_matchup_row_gives_the_attackers_risk() -> None:
    hot = TeamWeapon.read("plasma", "ranged", kt.Weapon(4, 4, (4, 6), "Hot, Piercing 1"), "Hot, Piercing 1")
    gun = TeamWeapon.read("rifle", "ranged", kt.Weapon(4, 3, (3, 4)), "")
    team_a = Team("A", "a.cat", 1, "0" * 64, (TeamOperative("gunner", kt.Operative(3, 6), 2, 6, (hot, gun)),))
    team_b = Team("B", "b.cat", 1, "0" * 64, (TeamOperative("target", kt.Operative(4, 9), 2, 6, (gun,)),))
    m = kt.matchup(team_a, team_b, fight=False, cover=[0])
    plasma, rifle = m.shots
    alone = kt.shoot(hot.weapon, kt.Operative(4, 9), shooter_wounds=6)
    assert plasma.self_damage == pytest.approx(alone.mean_self_damage)
    assert plasma.shooter_death_chance == pytest.approx(alone.shooter_death_chance)  # 6 on a 3: 1/6
    assert plasma.shooter_death_chance == pytest.approx(1 / 6)
    assert rifle.self_damage is None and rifle.shooter_death_chance is None
    # the summary names the best weapon's risk when it is Hot
    assert m.summary().shots[0].weapon == "plasma"
    assert "gunner's plasma at target is Hot: 16.7% to incapacitate itself" in m.to_markdown()
    # the long tables (killteam matchup --all) show the risk beside the damage dealt
    from mathhammer.killteam.report import matchup_all_tables

    shooting = matchup_all_tables(m)[0][0]
    risk = shooting.columns.index("P(Hot kills self)")
    assert [row[risk] for row in shooting.rows] == [pytest.approx(1 / 6), "-"]
