"""Kill Team shooting: the Monte Carlo engine against the exact engine on many random valid shots,
and reproducibility (same seed, same counts, whatever the thread count)."""

from __future__ import annotations

import numpy as np
import pytest
from mathhammer import _core
from mathhammer import killteam as kt
from mathhammer.killteam.profiles import REROLLS
from mathhammer.killteam.plan import shoot_config
from stats import assert_pmf_close, compare_pmf, expected_total_variation

SAMPLES = 100_000
N_SHOTS = 320
FIGHT_ONLY = ("Storm Shield", "Dueller", "Duelist", "Hammerhand", "Half Damage First Strike", "Murderous Entrance")
DEFENCES = ("Ignore Piercing", "Worsen Piercing", "Ignore Lethal", "Ignore Rending", "Ignore Severe", "Ignore Saturate",
            "Crits as Normal Dmg")


def random_shot(rng: np.random.Generator) -> tuple[kt.Weapon, kt.Operative, dict]:
    """A random valid shot touching every weapon rule and defender ability."""
    attacks = int(rng.choice([1, 2, 3, 4, 4, 5, 6, 8, 10, 12]))
    rules: list[str] = []
    reroll = str(rng.choice(REROLLS))
    if reroll != "none":
        rules.append(reroll.replace("_", " ").replace("crit fishing", "(crit-fishing)"))
    if rng.random() < 0.4:
        rules.append(f"Lethal {rng.integers(2, 7)}+")
    for name, p in (("Punishing", 0.2), ("Severe", 0.2), ("Rending", 0.3), ("Saturate", 0.2), ("Brutal", 0.1),
                    ("Shock", 0.1)):
        if rng.random() < p:
            rules.append(name)
    for name, top, p in (("Accurate", 3, 0.2), ("Fails to Norms", 2, 0.15), ("Norms to Crits", 2, 0.15),
                         ("Piercing", 3, 0.3), ("Piercing Crits", 3, 0.3), ("Devastating", 4, 0.35)):
        if rng.random() < p:
            rules.append(f"{name} {rng.integers(1, top + 1)}")
    normal = int(rng.integers(1, 8)) if rng.random() < 0.9 else 0
    critical = int(rng.integers(normal, 10)) if rng.random() < 0.85 else int(rng.integers(0, normal + 1))
    weapon = kt.Weapon(attacks, int(rng.integers(2, 7)), (normal, critical), ", ".join(rules))

    abilities: list[str] = []
    if rng.random() < 0.4:
        abilities.append(f"Feel No Pain {rng.integers(2, 7)}+")
    relics = rng.random()
    if relics < 0.15:
        abilities.append("Saintly Relics")
    elif relics < 0.3:
        abilities.append("Saintly Relics (2D6)")
    for name, p in (("Just a Scratch", 0.2), ("Just a Scratch (normals)", 0.15), ("Durable", 0.3), ("Punishing", 0.2)):
        if rng.random() < p:
            abilities.append(name)
    if rng.random() < 0.2:
        abilities.append(str(rng.choice(FIGHT_ONLY)))
    save, wounds = int(rng.integers(2, 7)), int(rng.integers(1, 41))
    rounds = 1 if rng.random() < 0.55 else int(rng.integers(2, 10))
    if attacks * rounds > 30:
        rounds = max(1, 30 // attacks)
    options = {"cover": int(rng.choice([0, 0, 1, 1, 2, 3])), "obscured": bool(rng.random() < 0.2), "rounds": rounds}
    # the target's defences (docs/rules/killteam.md §2.3), drawn last so the shots above stay as they were
    for name in DEFENCES:
        if rng.random() < 0.1:
            abilities.append(name)
    for name in ("Reduce Normal Dmg", "Reduce Dmg"):
        if rng.random() < 0.1:
            abilities.append(f"{name} {rng.integers(2, 7)}+")
    target = kt.Operative(save, wounds, ", ".join(abilities))
    return weapon, target, options


SHOTS = [random_shot(np.random.default_rng(1000 + i)) for i in range(N_SHOTS)]


def test_random_shots_cover_every_rule_and_ability():
    rules = [w.rules for w, _, _ in SHOTS]
    abilities = [t.abilities for _, t, _ in SHOTS]
    for name in ("punishing", "severe", "rending", "saturate", "brutal", "shock", "accurate", "fails_to_norms",
                 "norms_to_crits", "piercing", "piercing_crits", "devastating", "lethal"):
        assert any(getattr(r, name) for r in rules), name
    assert {r.reroll for r in rules} == set(REROLLS)
    for name in ("feel_no_pain", "just_a_scratch", "just_a_scratch_normals", "durable", "punishing", "storm_shield"):
        assert any(getattr(a, name) for a in abilities), name
    assert {a.saintly_relics for a in abilities} == {0, 1, 2}
    # every row of the target's defences (§2.3), by its field in the abilities table
    defences = {name for name, row in kt.Abilities.TABLE.rows() if row.section.startswith("§2.3")}
    assert {name for name in defences if any(getattr(a, name) for a in abilities)} == defences
    assert {o["cover"] for _, _, o in SHOTS} == {0, 1, 2, 3}
    assert any(o["obscured"] for _, _, o in SHOTS)
    assert {o["rounds"] for _, _, o in SHOTS} == set(range(1, 10))
    assert len(SHOTS) >= 300


@pytest.mark.parametrize("batch", range(8))
def test_monte_carlo_matches_exact_on_random_shots(batch):
    per_batch = N_SHOTS // 8
    for index in range(batch * per_batch, (batch + 1) * per_batch):
        weapon, target, options = SHOTS[index]
        exact = kt.shoot(weapon, target, **options)
        mc = kt.shoot(weapon, target, **options, method="monte_carlo", samples=SAMPLES, seed=index, threads=1)
        assert mc.method == "monte_carlo" and mc.samples == SAMPLES and mc.damage.samples == SAMPLES
        where = f"shot {index}: {weapon} / {target} / {options}"
        assert_pmf_close(exact.damage.pmf, mc.damage.pmf, SAMPLES, f"{where} damage")
        assert abs(mc.damage.mean - exact.damage.mean) <= 5 * exact.damage.std / np.sqrt(SAMPLES) + 1e-9, where
        assert abs(mc.kill_chance - exact.kill_chance) <= 5 * np.sqrt(
            exact.kill_chance * (1 - exact.kill_chance) / SAMPLES) + 3 / SAMPLES, where
        # The intermediate dice are counted every round.
        rolls = SAMPLES * options["rounds"]
        assert mc.retained_attack.samples == rolls
        assert_pmf_close(exact.retained_attack.pmf, mc.retained_attack.pmf, rolls, f"{where} retained attack")
        assert_pmf_close(exact.retained_saves.pmf, mc.retained_saves.pmf, rolls, f"{where} retained saves")


def test_total_variation_is_small_on_a_big_run():
    weapon = kt.Weapon(6, 3, (3, 4), "Ceaseless Balanced, Lethal 5+, Piercing Crits 1, Devastating 2")
    target = kt.Operative(3, 14, "Feel No Pain 5+, Saintly Relics (2D6), Durable, Just a Scratch")
    exact = kt.shoot(weapon, target, cover=1, rounds=3)
    mc = kt.shoot(weapon, target, cover=1, rounds=3, method="monte_carlo", samples=2_000_000, seed=5, threads=2)
    tv = compare_pmf(exact.damage.pmf, mc.damage.pmf, 2_000_000).total_variation
    # Four times the bound on its expectation.
    assert tv < 4 * expected_total_variation(exact.damage.pmf, 2_000_000)


def test_same_seed_same_counts_for_any_thread_count():
    weapon = kt.Weapon(5, 3, (3, 5), "Balanced, Devastating 1")
    target = kt.Operative(4, 12, "Feel No Pain 5+, Saintly Relics (2D6)")
    config = shoot_config(weapon, target, cover=1, rounds=2)
    total = 5 * 65_536 + 123
    counts = [_core.killteam.shoot_counts(config, 99, total, 0, 10**6, threads) for threads in (1, 2, 8)]
    assert np.array_equal(counts[0], counts[1]) and np.array_equal(counts[0], counts[2])
    assert int(counts[0][: counts[0].size - 169 - 16].sum()) == total
    split = _core.killteam.shoot_counts(config, 99, total, 0, 2, 1) + _core.killteam.shoot_counts(config, 99, total, 2, 6, 1)
    assert np.array_equal(split, counts[0])
    other = _core.killteam.shoot_counts(config, 100, total, 0, 10**6, 1)
    assert not np.array_equal(other, counts[0])


def test_results_reproduce_and_progress_is_reported():
    weapon = kt.Weapon(4, 3, (3, 4), "Lethal 5+")
    target = kt.Operative(3, 12, "Saintly Relics")
    calls: list[tuple[int, int]] = []
    a = kt.shoot(weapon, target, rounds=2, method="monte_carlo", samples=300_000, seed=42, threads=2,
                 progress=lambda done, total: calls.append((done, total)))
    b = kt.shoot(weapon, target, rounds=2, method="monte_carlo", samples=300_000, seed=42, threads=1)
    assert a == b
    assert calls and calls[-1] == (300_000, 300_000)
