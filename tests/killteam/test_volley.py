"""kt.volley: each target shot on its own (separate kt.shoot calls), the count of targets
incapacitated and the wounds lost in all against brute force over every combination of outcomes."""

from __future__ import annotations

import itertools

import pytest

from mathhammer import InputError, InputTypeError
from mathhammer import killteam as kt
from mathhammer.core.sampling import cell_seed

BLAST = kt.Weapon(4, 3, (3, 4), "Lethal 5+, Piercing 1")
TARGETS = [kt.Operative(3, 8), kt.Operative(4, 7, "Feel No Pain 5+"), kt.Operative(5, 6), kt.Operative(3, 9)]
COVER = [1, 0, 1, 0]
OBSCURED = [False, True, False, False]


def test_every_shot_is_the_separate_call() -> None:
    v = kt.volley(BLAST, TARGETS, cover=COVER, obscured=OBSCURED)
    assert len(v.shots) == len(TARGETS) and v.method == "exact"
    for shot, target, cover, obscured in zip(v.shots, TARGETS, COVER, OBSCURED):
        assert shot.to_json() == kt.shoot(BLAST, target, cover, obscured).to_json()


def test_counts_and_total_damage_are_the_brute_force_sums() -> None:
    v = kt.volley(BLAST, TARGETS, cover=COVER, obscured=OBSCURED)
    separate = [kt.shoot(BLAST, t, c, o) for t, c, o in zip(TARGETS, COVER, OBSCURED)]
    # every subset of targets incapacitated: the product of its shots' chances
    count = [0.0] * (len(TARGETS) + 1)
    for down in itertools.product((False, True), repeat=len(TARGETS)):
        p = 1.0
        for is_down, shot in zip(down, separate):
            p *= shot.kill_chance if is_down else 1.0 - shot.kill_chance
        count[sum(down)] += p
    assert v.incapacitated.pmf.tolist() == pytest.approx(count, abs=1e-12)
    # every combination of damage values, each capped at its target's wounds
    total: dict[int, float] = {}
    supports = [[(d, shot.damage.prob(d)) for d in range(shot.damage.max + 1) if shot.damage.prob(d) > 0]
                for shot in separate]
    for combo in itertools.product(*supports):
        lost = sum(min(d, t.wounds) for (d, _), t in zip(combo, TARGETS))
        p = 1.0
        for _, q in combo:
            p *= q
        total[lost] = total.get(lost, 0.0) + p
    expected = [total.get(k, 0.0) for k in range(max(total) + 1)]
    assert v.total_damage.pmf.tolist() == pytest.approx(expected, abs=1e-12)
    assert v.summary()["mean_incapacitated"] == pytest.approx(sum(s.kill_chance for s in separate))


def test_two_targets_by_hand() -> None:
    # A 1-attack 2+ gun dealing 6 with Piercing 3 (no defence dice left against 3 of them) hits 5/6 of
    # the time: a 6-wound target is incapacitated with chance 5/6, a 7-wound one never. So
    # P(0 incapacitated) = 1/6, P(1) = 5/6, P(2) = 0; each target loses 6 wounds with chance 5/6.
    gun = kt.Weapon(1, 2, (6, 6), "Piercing 3")
    v = kt.volley(gun, [kt.Operative(3, 6), kt.Operative(3, 7)])
    assert v.incapacitated.pmf.tolist() == pytest.approx([1 / 6, 5 / 6, 0.0])
    assert v.total_damage.pmf.tolist() == pytest.approx([1 / 36, 0, 0, 0, 0, 0, 10 / 36, 0, 0, 0, 0, 0, 25 / 36])


def test_monte_carlo_shots_take_derived_seeds() -> None:
    v = kt.volley(BLAST, TARGETS[:2], method="monte_carlo", samples=4_000, seed=8)
    assert v.seed == 8 and v.samples == 4_000 and v.incapacitated.estimated
    for i, shot in enumerate(v.shots):
        assert shot.to_json() == kt.shoot(BLAST, TARGETS[i], method="monte_carlo", samples=4_000,
                                          seed=cell_seed(8, i)).to_json()
    assert all(e is not None for e in v.stderr.values())


def test_team_profiles_and_errors() -> None:
    from mathhammer.killteam.data import TeamOperative, TeamWeapon

    weapon = TeamWeapon("Frag", "ranged", BLAST, "Blast 2\"", blast=2)
    ops = [TeamOperative("A", TARGETS[0], 2, 6), TeamOperative("B", TARGETS[2], 2, 6)]
    v = kt.volley(weapon, ops, cover=[1, 0])
    # a team's operative is named: the result says it
    assert v.shots[1].to_json() == kt.shoot(BLAST, ops[1].operative).to_json() and v.shots[1].target.startswith("B (")
    with pytest.raises(InputError, match=r"^cover\[1\]: "):
        kt.volley(BLAST, TARGETS[:2], cover=[0, 7])
    with pytest.raises(InputError, match=r"^cover: has 3 items but targets has 2"):
        kt.volley(BLAST, TARGETS[:2], cover=[0, 1, 1])
    with pytest.raises(InputTypeError, match=r"^targets: "):
        kt.volley(BLAST, TARGETS[0])
    with pytest.raises(InputError, match=r"^targets: no targets"):
        kt.volley(BLAST, [])
    assert "Targets incapacitated" in v.to_markdown()
    assert kt.VolleyResult.from_json(v.to_json()).summary() == v.summary()


@pytest.mark.parametrize(("weapon", "error", "field"), [
    ({"attacks": 4, "hit": 9}, InputError, "weapon.hit"),
    ({"attacks": 4, "hit": 3, "rules": "Lethal 7+"}, InputError, "weapon.rules.lethal"),
    ("4A 3+", InputTypeError, "weapon"),
])
def test_a_weapon_error_names_volleys_own_argument(weapon: object, error: type[InputError], field: str) -> None:
    # volley's argument is `weapon`; the batch it shoots through calls its list `weapons`
    with pytest.raises(error) as raised:
        kt.volley(weapon, TARGETS[:2])
    assert raised.value.field == field and str(raised.value).startswith(field + ": ")
