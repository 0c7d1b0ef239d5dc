"""Kill Team shooting: the seed cases, hand calculations, the public API, errors that name the field."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest
from casedata import load_cases
from hypothesis import given, settings
from hypothesis import strategies as st

from mathhammer import killteam as kt
from mathhammer.errors import InputError, InputTypeError
from mathhammer.core.distributions import Distribution, JointDistribution

CASES = load_cases("killteam")
TOL = 1e-12


def pmf_of(values: dict[int, Fraction | float]) -> np.ndarray:
    out = np.zeros(max(values) + 1)
    for k, p in values.items():
        out[k] = float(p)
    return out


def assert_pmf(dist: Distribution, expected: dict[int, Fraction | float]) -> None:
    want = pmf_of(expected)
    got = dist.pmf
    size = max(want.size, got.size)
    assert np.abs(np.pad(got, (0, size - got.size)) - np.pad(want, (0, size - want.size))).max() < TOL


@pytest.mark.parametrize("case_id", [c for c in CASES if c.startswith("KS")])
def test_shoot_cases(case_id):
    case = CASES[case_id]
    w, t = case["inputs"]["weapon"], case["inputs"]["target"]
    weapon = kt.Weapon(w["attacks"], w["hit"], tuple(w["damage"]), w.get("rules", ""))
    target = kt.Operative(t["save"], t["wounds"], t.get("abilities", ""))
    r = kt.shoot(weapon, target, cover=case["inputs"].get("cover", 0))
    expected = {int(k): Fraction(v) for k, v in case["expected"]["damage_pmf"].items()}
    assert_pmf(r.damage, expected)
    assert abs(r.damage.mean - float(Fraction(case["expected"]["mean"]))) < case["tolerance"]
    assert r.method == "exact" and r.samples is None


def test_there_are_shoot_cases():
    assert len([c for c in CASES if c.startswith("KS")]) >= 3


# Hand calculations: one attack die at 2+ (a crit 1/6, a norm 4/6), Piercing 3 unless said otherwise.
def one_die(damage=(3, 4), rules="", hit=2) -> kt.Weapon:
    return kt.Weapon(1, hit, damage, ", ".join(x for x in ("Piercing 3", rules) if x))


@pytest.mark.parametrize(
    "weapon, abilities, cover, obscured, expected",
    [
        # Durable: a 4-damage crit deals 3; a norm deals 3.
        (one_die(), "Durable", 0, False, {0: Fraction(1, 6), 3: Fraction(5, 6)}),
        # Durable leaves a crit of 3 unchanged.
        (one_die((2, 3)), "Durable", 0, False, {0: Fraction(1, 6), 2: Fraction(4, 6), 3: Fraction(1, 6)}),
        # Just a Scratch cancels the only die; Devastating already dealt stays.
        (one_die(rules="Devastating 2"), "Just a Scratch", 0, False, {0: Fraction(5, 6), 2: Fraction(1, 6)}),
        # Just a Scratch (normals) cannot touch a crit.
        (one_die(), "Just a Scratch (normals)", 0, False, {0: Fraction(5, 6), 4: Fraction(1, 6)}),
        # Feel No Pain 4+: one roll per damaging hit.
        (one_die((2, 2)), "Feel No Pain 4+", 0, False, {0: Fraction(1, 6), 1: Fraction(5, 12), 2: Fraction(5, 12)}),
        # Feel No Pain on a crit with Devastating: two instances (4 and 2), each may lose 1.
        (one_die((3, 4), "Devastating 2"), "Feel No Pain 4+", 0, False,
         {0: Fraction(1, 6), 2: Fraction(4, 6) / 2, 3: Fraction(4, 6) / 2,
          4: Fraction(1, 6) / 4, 5: Fraction(1, 6) / 2, 6: Fraction(1, 6) / 4}),
        # Saintly Relics 1D6 / 2D6: a hit is ignored on any 6.
        (one_die((3, 3)), "Saintly Relics", 0, False, {0: Fraction(1, 6) + Fraction(5, 36), 3: Fraction(25, 36)}),
        (one_die((3, 3)), "Saintly Relics (2D6)", 0, False,
         {0: Fraction(1, 6) + Fraction(5, 6) * Fraction(11, 36), 3: Fraction(5, 6) * Fraction(25, 36)}),
        # Relics never ignore Devastating damage.
        (one_die((0, 0), "Devastating 3"), "Saintly Relics (2D6)", 0, False, {0: Fraction(5, 6), 3: Fraction(1, 6)}),
        # Obscured: the crit becomes a norm, then the only success is discarded.
        (one_die(), "", 0, True, {0: Fraction(1)}),
    ],
)
def test_hand_calculations(weapon, abilities, cover, obscured, expected):
    r = kt.shoot(weapon, kt.Operative(3, 12, abilities), cover=cover, obscured=obscured)
    assert_pmf(r.damage, expected)


def test_fight_only_rules_and_abilities_change_nothing():
    plain = kt.shoot(kt.Weapon(5, 3, (3, 5), "Lethal 5+"), kt.Operative(3, 12, "Feel No Pain 5+"), cover=1)
    fancy = kt.shoot(
        kt.Weapon(5, 3, (3, 5), "Lethal 5+, Brutal, Shock"),
        kt.Operative(3, 12, "Feel No Pain 5+, Storm Shield, Dueller, Duelist, Hammerhand, Half Damage First Strike, "
                            "Murderous Entrance"),
        cover=1,
    )
    assert np.array_equal(plain.damage.pmf, fancy.damage.pmf)


def test_cover_save_comes_from_the_dice_left_after_piercing():
    # Piercing 2 leaves one defence die, which is the cover save: a norm, never enough for a crit.
    r = kt.shoot(kt.Weapon(1, 2, (3, 4), "Piercing 2"), kt.Operative(2, 12), cover=1)
    assert_pmf(r.damage, {0: Fraction(5, 6), 4: Fraction(1, 6)})
    # Saturate: no cover save, the die is rolled (save 4+): as case KS3.
    r = kt.shoot(kt.Weapon(1, 2, (3, 4), "Piercing 2, Saturate"), kt.Operative(4, 12), cover=1)
    assert_pmf(r.damage, {0: Fraction(19, 36), 3: Fraction(1, 3), 4: Fraction(5, 36)})
    # Piercing 3: cover has nothing to come from.
    r = kt.shoot(kt.Weapon(1, 2, (3, 4), "Piercing 3"), kt.Operative(2, 12), cover=3)
    assert_pmf(r.damage, {0: Fraction(1, 6), 3: Fraction(4, 6), 4: Fraction(1, 6)})


def test_cover_save_is_taken_even_when_rolling_would_be_better():
    # docs/rules/killteam.md §2 retains the cover save without rolling. Against a sure crit with one defence die
    # left, the rolled die blocks on a 6 (1/6), the cover save (a norm) never does.
    weapon = kt.Weapon(1, 2, (3, 4), "Lethal 2+, Piercing 2")
    assert kt.shoot(weapon, kt.Operative(2, 12)).damage.mean == pytest.approx(4 * 5 / 6 * 5 / 6, abs=TOL)
    assert kt.shoot(weapon, kt.Operative(2, 12), cover=1).damage.mean == pytest.approx(4 * 5 / 6, abs=TOL)


def test_piercing_crits_only_with_a_crit():
    # A crit: no defence dice (4 damage). A norm: three 2+ dice must all fail to let it through.
    r = kt.shoot(kt.Weapon(1, 2, (3, 4), "Piercing Crits 3"), kt.Operative(2, 12))
    fail3 = Fraction(1, 216)
    assert_pmf(r.damage, {0: 1 - Fraction(1, 6) - Fraction(4, 6) * fail3, 3: Fraction(4, 6) * fail3, 4: Fraction(1, 6)})
    # Piercing 1 and Piercing Crits 1 never add up: 2 defence dice either way.
    a = kt.shoot(kt.Weapon(3, 3, (3, 4), "Piercing 1, Piercing Crits 1"), kt.Operative(3, 12))
    b = kt.shoot(kt.Weapon(3, 3, (3, 4), "Piercing 1"), kt.Operative(3, 12))
    assert np.abs(a.damage.pmf - b.damage.pmf).max() < TOL


def test_relic_cap_spans_rounds():
    # Per round: miss 1/6, hit ignored 5/36, hit lands 25/36. Zero damage over 3 rounds needs every
    # round to be a miss or an ignore, with at most two ignores in the battle.
    r = kt.shoot(one_die((2, 2)), kt.Operative(3, 12, "Saintly Relics"), rounds=3)
    m, i = Fraction(1, 6), Fraction(5, 36)
    assert abs(r.damage.pmf[0] - float(m**3 + 3 * m**2 * i + 3 * m * i**2)) < TOL


def test_rounds_without_relics_convolve():
    one = kt.shoot(kt.Weapon(3, 4, (3, 4), "Lethal 5+"), kt.Operative(4, 12, "Feel No Pain 6+"))
    three = kt.shoot(kt.Weapon(3, 4, (3, 4), "Lethal 5+"), kt.Operative(4, 12, "Feel No Pain 6+"), rounds=3)
    expected = np.convolve(np.convolve(one.damage.pmf, one.damage.pmf), one.damage.pmf)
    assert np.abs(three.damage.pmf - expected[: three.damage.pmf.size]).max() < TOL
    assert abs(three.damage.mean - 3 * one.damage.mean) < 1e-10


def test_result_fields():
    gun = kt.Weapon(attacks=4, hit=3, damage=(3, 4), rules="Piercing 1, Lethal 5+")
    target = kt.Operative(save=3, wounds=12, abilities="Feel No Pain 5+, Just a Scratch")
    r = kt.shoot(gun, target, cover=1, obscured=False, rounds=2, method="exact")
    assert isinstance(r.damage, Distribution) and r.damage.is_exact
    assert abs(r.damage.pmf.sum() - 1) < TOL and r.damage.pmf.min() >= 0
    assert r.damage.max <= 2 * 4 * 4
    assert r.kill_chance == pytest.approx(r.damage.at_least(12), abs=TOL)
    assert r.mean == r.damage.mean
    assert r.wounds_left.pmf.size == 13 and r.wounds_left.prob(0) == pytest.approx(r.kill_chance, abs=TOL)
    assert r.wounds_left.prob(12) == pytest.approx(r.damage.prob(0), abs=TOL)
    assert abs(r.wounds_left.mean - (12 - np.minimum(12, r.damage.values) @ r.damage.pmf)) < 1e-10
    assert isinstance(r.retained_attack, JointDistribution) and r.retained_attack.pmf.shape == (5, 5)
    assert np.abs(r.retained_attack.pmf - kt.attack_dice(gun).pmf).max() < TOL
    assert r.retained_saves.pmf.shape == (4, 4) and abs(r.retained_saves.pmf.sum() - 1) < TOL
    assert r.retained_saves.names == ("crit_saves", "norm_saves")
    # With Piercing 1 and cover 1 the defender has one cover save and one rolled die.
    saves = r.retained_saves.pmf
    assert saves[0, 1] == pytest.approx(2 / 6) and saves[0, 2] == pytest.approx(3 / 6) and saves[1, 1] == pytest.approx(1 / 6)
    assert (r.weapon, r.target, r.wounds, r.cover, r.obscured, r.rounds) == (
        "4A 3+ 3/4 Lethal 5+, Piercing 1", "3+ save; 12W; Just a Scratch, Feel No Pain 5+", 12, 1, False, 2)
    assert r.kill_stderr is None


def test_retained_saves_follow_piercing_crits():
    gun = kt.Weapon(2, 3, (3, 4), "Piercing Crits 2")
    r = kt.shoot(gun, kt.Operative(4, 10))
    attack = kt.attack_dice(gun).pmf
    no_crit = attack[0].sum()
    # P(three saves) only when no crit was retained: (1/2)^3 of the no-crit mass.
    assert r.retained_saves.prob(lambda c, n: c + n == 3) == pytest.approx(no_crit / 8, abs=TOL)


def test_round_trip_and_frame():
    r = kt.shoot(kt.Weapon(4, 3, (3, 4), "Devastating 1"), kt.Operative(3, 9, "Saintly Relics"), cover=1, rounds=2)
    back = kt.ShootResult.from_json(r.to_json())
    assert back == r
    frame = r.to_frame()
    assert list(frame.columns[:3]) == ["damage", "p", "p_at_least"]
    assert frame["p"].sum() == pytest.approx(1)
    assert (frame.loc[frame["kills"], "damage"] >= 9).all() and (frame["wounds_left"] == np.maximum(0, 9 - frame["damage"])).all()
    mc = kt.shoot(kt.Weapon(4, 3), kt.Operative(3), method="monte_carlo", samples=20_000, seed=3, threads=1)
    assert kt.ShootResult.from_json(mc.to_json()) == mc
    assert "stderr" in mc.to_frame().columns and mc.kill_stderr is not None


def test_auto_is_exact():
    r = kt.shoot(kt.Weapon(12, 2, (6, 9), "Ceaseless Balanced, Devastating 9"), kt.Operative(2, 40, "Saintly Relics"),
                 rounds=9, method="auto")
    assert r.method == "exact" and abs(r.damage.pmf.sum() - 1) < 1e-9


def test_largest_shot_is_bounded_and_normalised():
    r = kt.shoot(kt.Weapon(12, 2, (12, 12), "Relentless (crit-fishing), Devastating 9, Lethal 2+"),
                 kt.Operative(6, 40, "Saintly Relics (2D6), Feel No Pain 2+"), rounds=9)
    assert abs(r.damage.pmf.sum() - 1) < 1e-9 and r.damage.max <= 9 * 12 * 21


@pytest.mark.parametrize("save_a, save_b", [(2, 3), (3, 4), (4, 5), (5, 6)])
@pytest.mark.parametrize(
    "weapon, abilities, cover",
    [
        (kt.Weapon(4, 3, (3, 4)), "", 0),
        (kt.Weapon(6, 3, (4, 5), "Lethal 5+, Piercing Crits 1"), "Durable", 1),
        (kt.Weapon(5, 4, (3, 7), "Balanced, Devastating 2"), "Just a Scratch, Punishing", 0),
        (kt.Weapon(4, 2, (5, 5), "Severe, Rending"), "Just a Scratch (normals), Durable", 2),
    ],
)
def test_better_save_never_takes_more_damage(weapon, abilities, cover, save_a, save_b):
    # Without chance steps the blocks are optimal, so a better save is stochastically no worse.
    better = kt.shoot(weapon, kt.Operative(save_a, 12, abilities), cover=cover).damage
    worse = kt.shoot(weapon, kt.Operative(save_b, 12, abilities), cover=cover).damage
    size = max(better.pmf.size, worse.pmf.size)
    sf_better = 1 - np.cumsum(np.pad(better.pmf, (0, size - better.pmf.size)))
    sf_worse = 1 - np.cumsum(np.pad(worse.pmf, (0, size - worse.pmf.size)))
    assert np.all(sf_better <= sf_worse + 1e-12)


def test_feel_no_pain_and_relics_lower_the_mean():
    weapon = kt.Weapon(6, 3, (3, 4), "Lethal 5+, Devastating 1")
    base = kt.shoot(weapon, kt.Operative(4, 12)).damage.mean
    for abilities in ("Feel No Pain 6+", "Feel No Pain 4+", "Saintly Relics", "Saintly Relics (2D6)"):
        assert kt.shoot(weapon, kt.Operative(4, 12, abilities)).damage.mean < base


# ---- errors ------------------------------------------------------------------------------------
GUN = kt.Weapon(4, 3)
TARGET = kt.Operative(3)


@pytest.mark.parametrize(
    "kwargs, error, field",
    [
        ({"cover": 4}, InputError, "cover"),
        ({"cover": -1}, InputError, "cover"),
        ({"cover": "1"}, InputTypeError, "cover"),
        ({"cover": True}, InputTypeError, "cover"),
        ({"rounds": 0}, InputError, "rounds"),
        ({"rounds": 10}, InputError, "rounds"),
        ({"rounds": 2.0}, InputTypeError, "rounds"),
        ({"obscured": "yes"}, InputTypeError, "obscured"),
        ({"method": "fast"}, InputError, "method"),
        ({"method": 1}, InputTypeError, "method"),
        ({"samples": 0}, InputError, "samples"),
        ({"samples": 10**12}, InputError, "samples"),
        ({"method": "monte_carlo", "seed": -1}, InputError, "seed"),
        ({"method": "monte_carlo", "threads": 0}, InputError, "threads"),
        ({"progress": 3}, InputTypeError, "progress"),
    ],
)
def test_bad_arguments_name_the_field(kwargs, error, field):
    with pytest.raises(error) as raised:
        kt.shoot(GUN, TARGET, **kwargs)
    assert raised.value.field == field and str(raised.value).startswith(f"{field}: ")


def test_bad_profiles_name_the_field():
    with pytest.raises(InputTypeError, match="^weapon: "):
        kt.shoot(kt.Fighter(4, 3), TARGET)
    with pytest.raises(InputTypeError, match="^target: "):
        kt.shoot(GUN, kt.Fighter(4, 3))
    with pytest.raises(InputError, match="^method: .*exact, monte_carlo, auto"):
        kt.shoot(GUN, TARGET, method="quick")
    with pytest.raises(InputError, match="^abilities: unknown ability"):
        kt.Operative(3, 12, "Feel No Pain 5+, Invulnerable 4+")


@settings(max_examples=150, deadline=None)
@given(
    cover=st.one_of(st.integers(-5, 8), st.booleans(), st.floats(), st.text(max_size=3), st.none()),
    rounds=st.one_of(st.integers(-3, 12), st.floats(), st.text(max_size=3), st.none()),
    obscured=st.one_of(st.booleans(), st.integers(-1, 2), st.none(), st.text(max_size=2)),
    method=st.one_of(st.sampled_from(["exact", "auto", "monte_carlo", "Exact", "mc", ""]), st.integers(), st.none()),
)
def test_fuzzed_arguments_raise_only_input_errors(cover, rounds, obscured, method):
    try:
        r = kt.shoot(GUN, TARGET, cover=cover, rounds=rounds, obscured=obscured, method=method, samples=1000, seed=1,
                     threads=1)
    except (InputError, InputTypeError):
        return
    assert abs(r.damage.pmf.sum() - 1) < 1e-9


def test_repeated_calls_and_equal_profiles_give_the_same_result() -> None:
    # kt.shoot finds a repeated shot by the identity of its profiles, then by their value: the
    # results of the same objects, of equal new objects and after the caches are cleared agree
    from mathhammer.killteam import plan
    gun = kt.Weapon(5, 3, (3, 5), "Lethal 5+, Piercing Crits 1")
    target = kt.Operative(4, 9, "Feel No Pain 6+")
    first = kt.shoot(gun, target, cover=1, rounds=2).to_json()
    assert kt.shoot(gun, target, cover=1, rounds=2).to_json() == first
    assert kt.shoot(kt.Weapon(5, 3, (3, 5), "Lethal 5+, Piercing Crits 1"), kt.Operative(4, 9, "Feel No Pain 6+"),
                    cover=1, rounds=2).to_json() == first
    plan.clear_shot_caches()
    assert kt.shoot(gun, target, cover=1, rounds=2).to_json() == first
    # a bool is never taken for the int of a cached shot
    with pytest.raises(InputTypeError):
        kt.shoot(gun, target, cover=True, rounds=2)
    assert kt.shoot(gun, target, cover=0, obscured=True).obscured is True
    assert kt.shoot(gun, target, cover=0, obscured=False).obscured is False


def test_a_shot_found_by_identity_is_never_another_objects() -> None:
    # profiles made and dropped one after the other may reuse an id; an equal older profile's cached
    # shot must not be found for a new, different one
    results = []
    for hit in (2, 3, 4, 5, 6) * 4:
        gun = kt.Weapon(4, hit, (3, 4), "Lethal 5+")
        results.append((hit, kt.shoot(gun, kt.Operative(3, 12)).damage.mean))
        del gun
    for hit, mean in results:
        assert mean == kt.shoot(kt.Weapon(4, hit, (3, 4), "Lethal 5+"), kt.Operative(3, 12)).damage.mean
