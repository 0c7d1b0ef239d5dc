"""The attack and defence dice of docs/rules/killteam.md §8.1 / §8.2 against a brute force over every face and
every reroll face (dice_brute.py), 1..3 dice a pool, every new rule and reroll, both readings of the upgrades
and of Purity Seal / Indomitus, to 1e-12.
"""

from __future__ import annotations

import numpy as np
import pytest

from mathhammer import killteam as kt

from dice_brute import brute_dice

TOL = 1e-12
REROLLS = ("none", "balanced", "double_balanced", "ceaseless", "ceaseless_balanced", "relentless",
           "relentless_crit_fishing", "reroll_ones", "reroll_ones_balanced")
READINGS = (
    ("accurate_first", "unmodified_ones"),
    ("rolled_first", "any_two_fails"),
    ("rolled_first", "unmodified_ones"),
    ("accurate_first", "any_two_fails"),
)

# Weapon rules (as kt.WeaponRules fields); each mix exercises a new rule, most next to the rules it interacts with.
MIXES: list[dict] = [
    {"purity_seal": True},
    {"purity_seal": True, "punishing": True, "rending": True},
    {"auto_crits": 1, "punishing": True, "rending": True},
    {"auto_crits": 2, "accurate": 1, "close_assault": True},
    {"close_assault": True, "lethal": 5, "severe": True},
    {"waaagh": True, "accurate": 1, "rending": True},
    {"waaagh": True, "norms_to_crits": 1, "fails_to_norms": 1},
    {"mystic_scry": True, "accurate": 1, "rending": True},
    {"mystic_scry": True, "devastating": 2, "lethal": 4, "severe": True},
    {"mystic_scry": True, "purity_seal": True, "close_assault": True},
    {"purity_seal": True, "waaagh": True, "accurate": 1, "rending": True, "norms_to_crits": 1},
    {"auto_crits": 1, "purity_seal": True, "close_assault": True, "waaagh": True, "mystic_scry": True,
     "rending": True},
]
DAMAGES = ((3, 4), (2, 5), (4, 4), (5, 3))


def attack_case_list() -> list[tuple[int, int, str, int, bool]]:
    cases = []
    for dice in (1, 2, 3):
        for r, reroll in enumerate(REROLLS):
            for m in range(len(MIXES)):
                hit = (2, 3, 4, 5, 6)[(dice + r + m) % 5]
                cases.append((dice, hit, reroll, m, (dice + r + m) % 7 == 0))
    return cases


ATTACK_CASES = attack_case_list()


def weapon(dice: int, hit: int, reroll: str, mix: dict, index: int) -> kt.Weapon:
    return kt.Weapon(dice, hit, DAMAGES[index % len(DAMAGES)], kt.WeaponRules(reroll=reroll, **mix))


def scry_values(w: kt.Weapon) -> tuple[int, int]:
    return (w.critical_damage + w.rules.devastating, w.normal_damage)


@pytest.mark.parametrize("reading", READINGS, ids=["default", "ktcalc", "rolled_first", "any_two_fails"])
@pytest.mark.parametrize("dice, hit, reroll, m, obscured", ATTACK_CASES)
def test_attack_dice_match_brute_force(dice, hit, reroll, m, obscured, reading):
    upgrades, ones = reading
    w = weapon(dice, hit, reroll, MIXES[m], m)
    rules = dict(MIXES[m], scry_values=scry_values(w))
    expected = brute_dice(dice, hit, w.crit_threshold, rules.get("auto_crits", 0), rules.get("accurate", 0), reroll,
                          rules, obscured, upgrades, ones)
    got = kt.attack_dice(w, obscured, variants={"upgrades": upgrades, "ones": ones}).pmf
    want = np.zeros_like(got)
    for (c, n), p in expected.items():
        want[c, n] += p
    assert np.abs(got - want).max() < TOL


def test_attack_cases_cover_every_rule_reroll_and_reading():
    assert {r for _, _, r, _, _ in ATTACK_CASES} == set(REROLLS)
    assert {d for d, *_ in ATTACK_CASES} == {1, 2, 3}
    assert {h for _, h, *_ in ATTACK_CASES} == {2, 3, 4, 5, 6}
    assert any(o for *_, o in ATTACK_CASES)
    used = {key for mix in MIXES for key in mix}
    assert {"auto_crits", "purity_seal", "close_assault", "waaagh", "mystic_scry"} <= used
    # every reroll meets Purity Seal with 3 dice and a stat above 2+ (where 1s and other fails differ)
    for reroll in REROLLS:
        assert any(r == reroll and d == 3 and h > 2 and MIXES[m].get("purity_seal")
                   for d, h, r, m, _ in ATTACK_CASES), reroll


def test_the_readings_differ_somewhere():
    """The brute force itself separates the readings (else the comparisons above prove little)."""
    rules = {"purity_seal": True}
    assert brute_dice(2, 4, 6, 0, 0, "none", rules) != brute_dice(2, 4, 6, 0, 0, "none", rules, ones="any_two_fails")
    rules = {"waaagh": True, "rending": True}
    # 1 rolled norm + 1 Accurate norm, plus a rolled crit: Waaagh then Rending
    assert brute_dice(3, 4, 6, 0, 1, "none", rules) != brute_dice(3, 4, 6, 0, 1, "none", rules,
                                                                   upgrades="rolled_first")


# ----------------------------------------------------------------------------------------------
# Defence dice (§8.2), read back from a shot's retained saves (the weapon has no Piercing Crits, so
# the saves do not depend on the attack).

SAVE_MIXES: list[dict] = [
    {},
    {"hardy": 5},
    {"hardy": 3, "punishing": True},
    {"indomitus": True},
    {"indomitus": True, "punishing": True},
    {"save_fails_to_norms": 1, "hardy": 4},
    {"save_norms_to_crits": 1},
    {"save_norms_to_crits": 2, "save_fails_to_norms": 1, "indomitus": True},
]
COVERS = ((0, 0), (1, 0), (0, 1), (1, 1), (0, 2))


def defence_case_list() -> list[tuple[int, int, str, int, int, int]]:
    cases = []
    for r, reroll in enumerate(REROLLS):
        for m in range(len(SAVE_MIXES)):
            for piercing in (0, 1, 2):
                k = r + m + piercing
                cases.append((piercing, (2, 3, 4, 5, 6)[k % 5], reroll, m, *COVERS[k % len(COVERS)]))
    return cases


DEFENCE_CASES = defence_case_list()


@pytest.mark.parametrize("ones", ("unmodified_ones", "any_two_fails"))
@pytest.mark.parametrize("piercing, save, reroll, m, cover, cover_crits", DEFENCE_CASES)
def test_defence_dice_match_brute_force(piercing, save, reroll, m, cover, cover_crits, ones):
    mix = SAVE_MIXES[m]
    target = kt.Operative(save, 12, kt.Abilities(save_reroll=reroll, **mix))
    gun = kt.Weapon(1, 3, (3, 4), kt.WeaponRules(piercing=piercing))
    got = kt.shoot(gun, target, cover, rounds=1, cover_crits=cover_crits, variants={"ones": ones}).retained_saves.pmf
    dice = 3 - piercing
    hardy = mix.get("hardy")
    crit = 6 if hardy is None else max(hardy, save)
    rules = {"punishing": mix.get("punishing", False), "purity_seal": mix.get("indomitus", False),
             "fails_to_norms": mix.get("save_fails_to_norms", 0), "norms_to_crits": mix.get("save_norms_to_crits", 0)}
    expected = brute_dice(dice, save, crit, cover_crits, cover, reroll, rules, ones=ones)
    want = np.zeros((4, 4))
    for (c, n), p in expected.items():
        want[c, n] += p
    assert np.abs(got - want).max() < TOL


def test_defence_cases_cover_every_save_rule():
    assert {r for _, _, r, *_ in DEFENCE_CASES} == set(REROLLS)
    assert {c for *_, c in DEFENCE_CASES} >= {0, 1}
    assert {p for p, *_ in DEFENCE_CASES} == {0, 1, 2}
    used = {key for mix in SAVE_MIXES for key in mix}
    assert {"hardy", "indomitus", "save_fails_to_norms", "save_norms_to_crits", "punishing"} <= used
