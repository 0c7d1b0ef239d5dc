"""Exact against Monte Carlo with the rules of docs/rules/killteam.md §8: 200 random shots and 100 random fights
using the new attack-dice rules, defence dice and shot options, in both readings (variants None and "ktcalc",
and random single switches)."""

from __future__ import annotations

import random

import numpy as np
import pytest

from mathhammer import killteam as kt
from mathhammer.killteam.profiles import REROLLS
from mathhammer.killteam.variants import CHOICES

from stats import assert_pmf_close

SAMPLES = 40_000
N_SHOTS = 200
N_FIGHTS = 100
# the weapon rules of docs/rules/killteam.md §8.1 that are flags, and the rerolls, from the tables
NEW_WEAPON_RULES = tuple(row.notation for _, row in kt.WeaponRules.TABLE.rows() if row.kind == "flag"
                         and row.section == "§8.1")
REROLL_TEXT = {value: named.text for value, named in dict(kt.WeaponRules.TABLE.rows())["reroll"].values.items()}


def random_variants(rng: random.Random) -> object:
    roll = rng.random()
    if roll < 0.35:
        return None
    if roll < 0.7:
        return "ktcalc"
    return {name: rng.choice(readings) for name, readings in CHOICES.items()}


def dice_rules(rng: random.Random, attacks: int) -> list[str]:
    rules = [r for r in NEW_WEAPON_RULES if rng.random() < 0.35]
    if rng.random() < 0.35:
        rules.append(f"Auto Crits {rng.randint(1, min(attacks, 3))}")
    if rng.random() < 0.3:
        rules.append(f"Accurate {rng.randint(1, 2)}")
    reroll = rng.choice(REROLLS)
    if reroll != "none":
        rules.append(REROLL_TEXT[reroll])
    for name, p in (("Rending", 0.3), ("Severe", 0.2), ("Punishing", 0.25), ("Lethal 5+", 0.3)):
        if rng.random() < p:
            rules.append(name)
    for name, top, p in (("Fails to Norms", 2, 0.15), ("Norms to Crits", 2, 0.15)):
        if rng.random() < p:
            rules.append(f"{name} {rng.randint(1, top)}")
    return rules


def random_shot(seed: int) -> tuple[kt.Weapon, kt.Operative, dict]:
    rng = random.Random(seed)
    attacks = rng.choice([1, 2, 3, 4, 5, 6, 8])
    rules = dice_rules(rng, attacks)
    for name, top, p in (("Piercing", 2, 0.2), ("Piercing Crits", 2, 0.25), ("Devastating", 3, 0.3)):
        if rng.random() < p:
            rules.append(f"{name} {rng.randint(1, top)}")
    if rng.random() < 0.1:
        rules.append("Saturate")
    dn = rng.randint(0, 6)
    weapon = kt.Weapon(attacks, rng.randint(2, 6), (dn, rng.randint(max(0, dn - 2), 9)), ", ".join(rules))
    abilities: list[str] = []
    if rng.random() < 0.4:
        abilities.append(f"Hardy {rng.randint(2, 6)}+")
    save_reroll = rng.choice(REROLLS)
    if save_reroll != "none":
        abilities.append(f"{REROLL_TEXT[save_reroll].replace(' (crit-fishing)', '')} Saves"
                         + (" (crit-fishing)" if save_reroll == "relentless_crit_fishing" else ""))
    for name, p in (("Indomitus", 0.35), ("Punishing", 0.2), ("Durable", 0.25), ("Just a Scratch", 0.15),
                    ("Just a Scratch (normals)", 0.1)):
        if rng.random() < p:
            abilities.append(name)
    for name, p in (("Save Fails to Norms", 0.2), ("Save Norms to Crits", 0.2)):
        if rng.random() < p:
            abilities.append(f"{name} {rng.randint(1, 2)}")
    if rng.random() < 0.35:
        abilities.append(f"Feel No Pain {rng.randint(3, 6)}+")
    if rng.random() < 0.25:
        abilities.append(rng.choice(["Saintly Relics", "Saintly Relics (2D6)"]))
    target = kt.Operative(rng.randint(2, 6), rng.randint(2, 30), ", ".join(abilities))
    cover_crits = rng.choice([0, 0, 1, 2])
    options = {"cover": rng.choice([0, 1, 1, 2]), "cover_crits": cover_crits, "obscured": rng.random() < 0.15,
               "rounds": rng.choice([1, 1, 2, 3]), "variants": random_variants(rng)}
    return weapon, target, options


SHOTS = [random_shot(5000 + i) for i in range(N_SHOTS)]


def test_random_shots_cover_the_new_rules_and_switches():
    rules = [w.rules for w, _, _ in SHOTS]
    abilities = [t.abilities for _, t, _ in SHOTS]
    for name in ("purity_seal", "close_assault", "waaagh", "mystic_scry", "auto_crits"):
        assert sum(bool(getattr(r, name)) for r in rules) >= 20, name
    for name in ("hardy", "indomitus", "save_fails_to_norms", "save_norms_to_crits"):
        assert sum(bool(getattr(a, name)) for a in abilities) >= 10, name
    assert {a.save_reroll for a in abilities} == set(REROLLS)
    assert {o["cover_crits"] for _, _, o in SHOTS} == {0, 1, 2}
    assert sum(o["variants"] == "ktcalc" for _, _, o in SHOTS) >= 40
    assert sum(o["variants"] is None for _, _, o in SHOTS) >= 40


@pytest.mark.parametrize("batch", range(4))
def test_monte_carlo_matches_exact_on_random_shots(batch):
    per = N_SHOTS // 4
    for index in range(batch * per, (batch + 1) * per):
        weapon, target, options = SHOTS[index]
        exact = kt.shoot(weapon, target, **options)
        mc = kt.shoot(weapon, target, **options, method="monte_carlo", samples=SAMPLES, seed=index, threads=1)
        where = f"shot {index}: {weapon} / {target} / {options}"
        assert_pmf_close(exact.damage.pmf, mc.damage.pmf, SAMPLES, f"{where} damage")
        rolls = SAMPLES * options["rounds"]
        assert_pmf_close(exact.retained_attack.pmf, mc.retained_attack.pmf, rolls, f"{where} attack")
        assert_pmf_close(exact.retained_saves.pmf, mc.retained_saves.pmf, rolls, f"{where} saves")
        p = exact.injury_chance
        assert abs(mc.injury_chance - p) <= 5 * np.sqrt(p * (1 - p) / SAMPLES) + 3 / SAMPLES, where
        assert mc.stderr is not None and mc.stderr["injury_chance"] == pytest.approx(
            np.sqrt(mc.injury_chance * (1 - mc.injury_chance) / SAMPLES))


# every fight ability that is a flag, from the abilities table: a new one joins the random mix
FIGHT_ABILITIES = tuple(row.notation for _, row in kt.Abilities.TABLE.rows()
                        if row.kind == "flag" and any(field.startswith("FighterSpec.") for field in row.engine))


def random_fighter(rng: random.Random) -> kt.Fighter:
    attacks = rng.randint(1, 4)
    rules = dice_rules(rng, attacks) + [r for r in ("Brutal", "Shock") if rng.random() < 0.2]
    abilities = [a for a in FIGHT_ABILITIES if rng.random() < 0.15]
    if rng.random() < 0.2:
        abilities.append(f"Feel No Pain {rng.randint(4, 6)}+")
    dn = rng.randint(1, 5)
    return kt.Fighter(attacks, rng.randint(2, 5), (dn, rng.randint(dn, 7)), rng.randint(3, 14), ", ".join(rules),
                      ", ".join(abilities), rng.choice(kt.STRATEGIES))


@pytest.mark.parametrize("block", range(4))
def test_monte_carlo_matches_exact_on_random_fights(block):
    per = N_FIGHTS // 4
    for seed in range(20_000 + block * per, 20_000 + (block + 1) * per):
        rng = random.Random(seed)
        a, b = random_fighter(rng), random_fighter(rng)
        first, rounds, variants = rng.choice("ab"), rng.randint(1, 2), random_variants(rng)
        exact = kt.fight(a, b, first, rounds, method="exact", variants=variants)
        mc = kt.fight(a, b, first, rounds, method="monte_carlo", samples=SAMPLES, seed=seed, threads=1,
                      variants=variants)
        assert_pmf_close(exact.joint.pmf, mc.joint.pmf, SAMPLES, f"{a} | {b} | {first} {rounds} {variants}")


def test_random_fights_use_the_new_rules():
    fighters = []
    for seed in range(20_000, 20_000 + N_FIGHTS):
        rng = random.Random(seed)
        fighters += [random_fighter(rng), random_fighter(rng)]
    for name in ("purity_seal", "close_assault", "waaagh", "mystic_scry", "auto_crits"):
        assert sum(bool(getattr(f.rules, name)) for f in fighters) >= 20, name
