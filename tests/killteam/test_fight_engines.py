"""Exact against Monte Carlo on random fights; symmetry, normalisation and determinism."""

from __future__ import annotations

import random

import numpy as np
import pytest
from mathhammer import killteam as kt
from stats import assert_pmf_close

# every fight ability that is a flag, from the abilities table: a new one joins the random mix
FIGHT_ABILITIES = [row.notation for _, row in kt.Abilities.TABLE.rows()
                   if row.kind == "flag" and any(field.startswith("FighterSpec.") for field in row.engine)]
DICE_RULES = ["Lethal 5+", "Balanced", "Relentless", "Severe", "Rending", "Punishing", "Accurate 1", "Ceaseless"]


def random_fighter(rng: random.Random, chance: bool = False, max_attacks: int = 5, max_wounds: int = 16) -> kt.Fighter:
    rules = [r for r in ("Brutal", "Shock") if rng.random() < 0.25]
    if rng.random() < 0.4:
        rules.append(rng.choice(DICE_RULES))
    abilities = [a for a in FIGHT_ABILITIES if rng.random() < 0.15]
    if chance:
        if rng.random() < 0.7:
            abilities.append(f"Feel No Pain {rng.randint(3, 6)}+")
        if rng.random() < 0.5 or not abilities:
            abilities.append(rng.choice(["Saintly Relics", "Saintly Relics (2D6)"]))
    dn = rng.randint(1, 5)
    return kt.Fighter(
        attacks=rng.randint(1, max_attacks),
        hit=rng.randint(2, 5),
        damage=(dn, rng.randint(dn, 6)),
        wounds=rng.randint(2, max_wounds),
        rules=", ".join(rules),
        abilities=", ".join(abilities),
        strategy=rng.choice(kt.STRATEGIES),
    )


def assert_agrees(exact: kt.FightResult, mc: kt.FightResult, context: str) -> None:
    """The joint of both fighters' wounds (tests/stats.py: every cell, impossible cells, chi-square)."""
    assert mc.samples is not None
    assert_pmf_close(exact.joint.pmf, mc.joint.pmf, mc.samples, context)


def _compare(seed: int, chance: bool, samples: int) -> None:
    rng = random.Random(seed)
    a = random_fighter(rng, chance=chance)
    b = random_fighter(rng, chance=chance and rng.random() < 0.5)
    rounds = rng.randint(1, 3)
    first = rng.choice("ab")
    exact = kt.fight(a, b, first=first, rounds=rounds, method="exact")
    mc = kt.fight(a, b, first=first, rounds=rounds, method="monte_carlo", samples=samples, seed=seed, threads=2)
    assert exact.method == "exact" and mc.method == "monte_carlo"
    assert abs(exact.joint.pmf.sum() - 1) < 1e-9
    assert_agrees(exact, mc, f"{a} | {b} | first {first} | rounds {rounds}")


@pytest.mark.parametrize("block", range(10))
def test_exact_agrees_with_monte_carlo(block):
    for seed in range(block * 20, block * 20 + 20):  # 200 random fights
        _compare(seed, chance=False, samples=100_000)


@pytest.mark.parametrize("block", range(5))
def test_exact_agrees_with_monte_carlo_with_feel_no_pain_and_relics(block):
    for seed in range(10_000 + block * 20, 10_000 + block * 20 + 20):  # 100 random fights
        _compare(seed, chance=True, samples=100_000)


@pytest.mark.parametrize("seed", range(12))
def test_swapping_the_labels_swaps_the_results(seed):
    rng = random.Random(300 + seed)
    a = random_fighter(rng, chance=seed % 3 == 0)
    b = random_fighter(rng, chance=seed % 4 == 0)
    rounds = 1 + seed % 3
    ab = kt.fight(a, b, first="a", rounds=rounds, method="exact")
    ba = kt.fight(b, a, first="b", rounds=rounds, method="exact")
    np.testing.assert_allclose(ab.joint.pmf, ba.joint.pmf.T, atol=1e-12)
    assert ab.death_chance("a") == pytest.approx(ba.death_chance("b"), abs=1e-12)
    assert ab.mean_damage_taken("b") == pytest.approx(ba.mean_damage_taken("a"), abs=1e-12)


def test_swapping_labels_in_a_fixed_round():
    rng = random.Random(9)
    for _ in range(100):
        a, b = random_fighter(rng), random_fighter(rng)
        da = (rng.randint(0, a.attacks), 0)
        da = (da[0], rng.randint(0, a.attacks - da[0]))
        db = (rng.randint(0, b.attacks), 0)
        db = (db[0], rng.randint(0, b.attacks - db[0]))
        ab = kt.resolve_fight(a, b, da, db, first="a")
        ba = kt.resolve_fight(b, a, db, da, first="b")
        assert (ab.wounds_a, ab.wounds_b) == (ba.wounds_b, ba.wounds_a)
        swap = {"a": "b", "b": "a"}
        assert [(swap[s], k, v) for s, k, v in ab.actions] == list(ba.actions)


@pytest.mark.parametrize("seed", range(10))
def test_probabilities_are_a_distribution(seed):
    rng = random.Random(700 + seed)
    a, b = random_fighter(rng, chance=seed % 2 == 1), random_fighter(rng)
    r = kt.fight(a, b, rounds=1 + seed % 3, method="exact")
    assert np.all(r.joint.pmf >= -1e-15)
    assert r.joint.pmf.sum() == pytest.approx(1.0, abs=1e-12)
    assert r.wounds_a.pmf.sum() == pytest.approx(1.0, abs=1e-12)
    assert r.wounds_b.pmf.sum() == pytest.approx(1.0, abs=1e-12)
    assert r.joint.pmf.shape == (a.wounds + 1, b.wounds + 1)
    # nobody both dies: a fight stops at the first incapacitation
    assert r.joint.pmf[0, 0] == 0.0
    assert r.death_chance("a") + r.death_chance("b") <= 1.0 + 1e-12


@pytest.mark.parametrize("abilities", ["", "Feel No Pain 5+, Saintly Relics"])
def test_same_seed_same_result_on_1_2_and_8_threads(abilities):
    a = kt.Fighter(attacks=5, hit=3, damage=(4, 5), wounds=14, rules="Brutal, Shock", abilities=abilities)
    b = kt.Fighter(attacks=4, hit=3, wounds=12, abilities="Storm Shield, Dueller", strategy="min_damage")
    runs = [
        kt.fight(a, b, rounds=3, method="monte_carlo", samples=300_000, seed=42, threads=t).joint.pmf for t in (1, 2, 8)
    ]
    assert np.array_equal(runs[0], runs[1]) and np.array_equal(runs[0], runs[2])
    other = kt.fight(a, b, rounds=3, method="monte_carlo", samples=300_000, seed=43, threads=2).joint.pmf
    assert not np.array_equal(runs[0], other)


def test_progress_batches_give_the_same_counts():
    a = kt.Fighter(attacks=4, hit=3, abilities="Feel No Pain 5+")
    seen = []
    whole = kt.fight(a, a, method="monte_carlo", samples=2_000_000, seed=5, threads=2)
    parts = kt.fight(a, a, method="monte_carlo", samples=2_000_000, seed=5, threads=2,
                     progress=lambda done, total: seen.append((done, total)))
    assert np.array_equal(whole.joint.pmf, parts.joint.pmf)
    assert len(seen) > 1 and seen[-1] == (2_000_000, 2_000_000)


# The Monte Carlo engine's rounds with chance effects: the Feel No Pain and relic dice are rolled in
# blocks before the round, and a round start seen often enough is looked up in a table of what the
# round loses by those dice (worked out by the walk of the chance graph), other starts walk the
# graph. Fights that take each path: small words (tables), a Duelist parry before the round (a
# graph step reached from other dice than its table's), Murderous Entrance (two strikes in one
# action), relics and Feel No Pain on both over 3 rounds (words too wide for a table: walks), the
# rolled lookahead (choices drawn as the round goes: walks), optimal play (round-numbered starts),
# injured rounds with B first. 400,000 samples each; k = 6 and z = 5.5 keep a false alarm of the
# whole family below about 1e-6.
def _chance_fighter(abilities: str, **kwargs) -> kt.Fighter:
    return kt.Fighter(**{"attacks": 4, "hit": 3, "damage": (3, 4), "wounds": 10, "abilities": abilities, **kwargs})


CHANCE_PATHS = {
    "fnp_both_one_round": (_chance_fighter("Feel No Pain 5+"), _chance_fighter("Feel No Pain 4+"), 1, "a", {}),
    "duelist_murderous_relics_2d6": (
        _chance_fighter("Duelist, Feel No Pain 6+", attacks=5, strategy="parry"),
        _chance_fighter("Murderous Entrance, Saintly Relics (2D6)", damage=(2, 5)), 2, "a", {}),
    "relics_and_fnp_both_3_rounds": (
        _chance_fighter("Feel No Pain 5+, Saintly Relics"),
        _chance_fighter("Feel No Pain 4+, Saintly Relics (2D6)", attacks=5, strategy="min_damage"), 3, "b", {}),
    "rolled_lookahead": (
        _chance_fighter("Feel No Pain 5+, Saintly Relics"), _chance_fighter("Feel No Pain 5+", strategy="min_damage"),
        2, "a", {"lookahead": "rolled"}),
    "optimal_against_relics": (
        _chance_fighter("", strategy="optimal", wounds=8), _chance_fighter("Feel No Pain 5+, Saintly Relics", wounds=8),
        2, "a", {}),
    "injured_b_first": (
        _chance_fighter("Hammerhand, Feel No Pain 5+", wounds=14, rules="Lethal 5+"),
        _chance_fighter("Durable, Just a Scratch, Saintly Relics", wounds=14, strategy="strike"), 3, "b", {}),
}


@pytest.mark.parametrize("name", list(CHANCE_PATHS))
def test_monte_carlo_chance_rounds_agree_with_the_exact_engine(name):
    a, b, rounds, first, variants = CHANCE_PATHS[name]
    exact = kt.fight(a, b, first=first, rounds=rounds, method="exact", variants=variants)
    mc = kt.fight(a, b, first=first, rounds=rounds, method="monte_carlo", samples=400_000, seed=11, threads=2,
                  variants=variants)
    assert mc.samples is not None
    assert_pmf_close(exact.joint.pmf, mc.joint.pmf, mc.samples, f"{name}: {a} | {b}", k=6.0, z=5.5)
