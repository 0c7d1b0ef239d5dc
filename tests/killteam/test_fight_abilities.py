"""Hand-worked fixed-dice rounds, one ability or rule at a time (docs/rules/killteam.md §3).

Every expected log below was worked out by hand from the spec; the comment above each case says
how. Defaults: damage 3/4, 20 wounds, fighter A resolves first. Logs are (side, kind, value): the
damage a strike inflicts, the successes a parry cancels.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

from mathhammer import killteam as kt


def F(strategy="strike", damage=(3, 4), wounds=20, rules="", abilities=""):  # noqa: N802 - reads like a card
    return kt.Fighter(attacks=4, hit=3, damage=damage, wounds=wounds, rules=rules, abilities=abilities,
                      strategy=strategy)


CASES = [
    # --- what a parry cancels -------------------------------------------------------------------
    # A crit-parries B's crit (wiseParry); B's norm strikes A.
    ("plain crit parry takes a crit", F("parry"), (1, 0), F(), (1, 1), "a",
     [("a", "crit_parry", 1), ("b", "norm_strike", 3)], (17, 20)),
    # Storm Shield: the crit parry takes the crit, then the norm.
    ("storm shield crit parry takes two", F("parry", abilities="Storm Shield"), (1, 0), F(), (1, 1), "a",
     [("a", "crit_parry", 2)], (20, 20)),
    ("storm shield norm parry takes two norms", F("parry", abilities="Storm Shield"), (0, 1), F(), (0, 2), "a",
     [("a", "norm_parry", 2)], (20, 20)),
    # A norm parry never touches a crit, Storm Shield or not.
    ("storm shield norm parry leaves the crit", F("parry", abilities="Storm Shield"), (0, 1), F(), (1, 1), "a",
     [("a", "norm_parry", 1), ("b", "crit_strike", 4)], (16, 20)),
    # Dueller: a crit parry cancels a crit and a norm ...
    ("dueller crit parry: crit and norm", F("parry", abilities="Dueller"), (1, 0), F(), (1, 2), "a",
     [("a", "crit_parry", 2), ("b", "norm_strike", 3)], (17, 20)),
    # ... or two norms.
    ("dueller crit parry: two norms", F("parry", abilities="Dueller"), (1, 0), F(), (0, 3), "a",
     [("a", "crit_parry", 2), ("b", "norm_strike", 3)], (17, 20)),
    # Dueller + Storm Shield: Dueller decides the crit parry (one crit, no second crit) ...
    ("dueller decides the crit parry", F("parry", abilities="Dueller, Storm Shield"), (1, 0), F(), (2, 0), "a",
     [("a", "crit_parry", 1), ("b", "crit_strike", 4)], (16, 20)),
    # ... and Storm Shield the norm parry.
    ("storm shield decides the norm parry", F("parry", abilities="Dueller, Storm Shield"), (0, 1), F(), (0, 2), "a",
     [("a", "norm_parry", 2)], (20, 20)),
    # Brutal: only norms against Brutal, so A strikes (rule 2); A passes once it is out of dice.
    ("brutal forces a strike", F("parry"), (0, 1), F(rules="Brutal"), (0, 2), "a",
     [("a", "norm_strike", 3), ("b", "norm_strike", 3), ("a", "pass", 0), ("b", "norm_strike", 3)], (14, 17)),
    # Brutal: a crit may still parry a norm.
    ("brutal: a crit parries", F("parry"), (1, 0), F(rules="Brutal"), (0, 2), "a",
     [("a", "crit_parry", 1), ("b", "norm_strike", 3)], (17, 20)),
    # --- Shock ----------------------------------------------------------------------------------
    # Rule 3: A's first crit strike discards one of B's norms.
    ("shock discards a norm", F(rules="Shock"), (1, 0), F("parry"), (0, 2), "a",
     [("a", "crit_strike", 4), ("a", "shock_discard_norm", 1), ("b", "norm_strike", 3)], (17, 16)),
    # Departure: with no norms to discard, Shock discards a crit.
    ("shock discards a crit", F(rules="Shock"), (1, 0), F(), (2, 0), "a",
     [("a", "crit_strike", 4), ("a", "shock_discard_crit", 1), ("b", "crit_strike", 4)], (16, 16)),
    # --- Murderous Entrance ---------------------------------------------------------------------
    # crit 4 and at once a bonus crit 4 (one action); B passes; the norm 3.
    ("murderous entrance: bonus crit", F(abilities="Murderous Entrance"), (2, 1), F(), (0, 0), "a",
     [("a", "crit_strike", 4), ("a", "murderous_entrance_strike", 4), ("b", "pass", 0), ("a", "norm_strike", 3)],
     (20, 9)),
    ("murderous entrance: bonus norm", F(abilities="Murderous Entrance"), (1, 1), F(), (0, 0), "a",
     [("a", "crit_strike", 4), ("a", "murderous_entrance_strike", 3)], (20, 13)),
    # No bonus strike once the enemy is at 0.
    ("murderous entrance: not at 0", F(abilities="Murderous Entrance"), (2, 0), F(wounds=4), (0, 0), "a",
     [("a", "crit_strike", 4)], (20, 0)),
    # The bonus crit is the second crit strike: Durable does not soften it (5 -> 4, then 5).
    ("murderous entrance and durable", F(damage=(3, 5), abilities="Murderous Entrance"), (2, 0),
     F(abilities="Durable"), (0, 0), "a",
     [("a", "crit_strike", 4), ("a", "murderous_entrance_strike", 5)], (20, 11)),
    # --- Duelist --------------------------------------------------------------------------------
    # Duelist spends its norm to parry one of B's norms before the alternation; then A's crit and
    # B's last norm.
    ("duelist parries first", F(abilities="Duelist"), (1, 1), F(), (0, 2), "a",
     [("a", "duelist_norm_parry", 1), ("a", "crit_strike", 4), ("b", "norm_strike", 3)], (17, 16)),
    # Departure: only norms against only crits: Duelist does not waste a norm on nothing.
    ("duelist never parries nothing", F(abilities="Duelist"), (0, 2), F(), (2, 0), "a",
     [("a", "norm_strike", 3), ("b", "crit_strike", 4), ("a", "norm_strike", 3), ("b", "crit_strike", 4)],
     (12, 14)),
    # Both Duelist: the fighter resolving first parries first, crit for crit; nothing is left, so
    # A's Duelist has nothing to parry.
    ("both duelists, b first", F(abilities="Duelist"), (1, 0), F(abilities="Duelist"), (1, 0), "b",
     [("b", "duelist_crit_parry", 1)], (20, 20)),
    # ... and with more dice both parry: B's crit takes A's crit, then A's norm takes B's norm.
    ("both duelists parry in turn", F(abilities="Duelist"), (1, 1), F(abilities="Duelist"), (1, 1), "b",
     [("b", "duelist_crit_parry", 1), ("a", "duelist_norm_parry", 1)], (20, 20)),
    # --- first-strike abilities -----------------------------------------------------------------
    ("hammerhand +1 on the first strike", F(abilities="Hammerhand"), (0, 2), F(), (0, 0), "a",
     [("a", "norm_strike", 4), ("b", "pass", 0), ("a", "norm_strike", 3)], (20, 13)),
    # Just a Scratch zeroes the first strike: feeding it the norm leaves B on 16, the crit on 17.
    ("just a scratch is fed the norm", F(), (1, 1), F(abilities="Just a Scratch"), (0, 0), "a",
     [("a", "norm_strike", 0), ("b", "pass", 0), ("a", "crit_strike", 4)], (20, 16)),
    # The Parry strategy's forced strikes are crit-first.
    ("parry strategy strikes crit-first", F("parry"), (1, 1), F(abilities="Just a Scratch"), (0, 0), "a",
     [("a", "crit_strike", 0), ("b", "pass", 0), ("a", "norm_strike", 3)], (20, 17)),
    # Just a Scratch (normals): the first normal strike deals 0; both orders deal 4, crit-first.
    ("just a scratch (normals)", F(), (1, 1), F(abilities="Just a Scratch (normals)"), (0, 0), "a",
     [("a", "crit_strike", 4), ("b", "pass", 0), ("a", "norm_strike", 0)], (20, 16)),
    ("just a scratch (normals), two norms", F(), (0, 2), F(abilities="Just a Scratch (normals)"), (0, 0), "a",
     [("a", "norm_strike", 0), ("b", "pass", 0), ("a", "norm_strike", 3)], (20, 17)),
    # Both scratches: Just a Scratch takes the first norm; the normals one is spent only by a
    # normal strike that would deal damage, so it takes the second.
    ("both scratches", F(), (0, 2), F(abilities="Just a Scratch, Just a Scratch (normals)"), (0, 0), "a",
     [("a", "norm_strike", 0), ("b", "pass", 0), ("a", "norm_strike", 0)], (20, 20)),
    # Half Damage: half, rounded up, "minimum 2" taken literally: a 1-damage strike deals 2.
    ("half damage minimum 2", F(damage=(1, 4)), (0, 1), F(abilities="Half Damage First Strike"), (0, 0), "a",
     [("a", "norm_strike", 2)], (20, 18)),
    ("half damage of the hammerhand'ed strike", F(abilities="Hammerhand"), (0, 1),
     F(abilities="Half Damage First Strike"), (0, 0), "a", [("a", "norm_strike", 2)], (20, 18)),
    ("half damage rounds up", F(damage=(3, 5)), (1, 0), F(abilities="Half Damage First Strike"), (0, 0), "a",
     [("a", "crit_strike", 3)], (20, 17)),
    # Feeding Half Damage the norm: 2 + 4 = 6 beats 2 + 3 = 5.
    ("half damage is fed the norm", F(), (1, 1), F(abilities="Half Damage First Strike"), (0, 0), "a",
     [("a", "norm_strike", 2), ("b", "pass", 0), ("a", "crit_strike", 4)], (20, 14)),
    # Just a Scratch's 0 stands: Half Damage does not raise it to 2.
    ("just a scratch beats half damage", F(), (0, 1), F(abilities="Just a Scratch, Half Damage First Strike"), (0, 0),
     "a", [("a", "norm_strike", 0)], (20, 20)),
    # Durable: the first crit strike deals 1 less; a crit of 3 or less is unchanged.
    ("durable dc 5", F(damage=(3, 5)), (2, 0), F(abilities="Durable"), (0, 0), "a",
     [("a", "crit_strike", 4), ("b", "pass", 0), ("a", "crit_strike", 5)], (20, 11)),
    ("durable dc 4", F(), (2, 0), F(abilities="Durable"), (0, 0), "a",
     [("a", "crit_strike", 3), ("b", "pass", 0), ("a", "crit_strike", 4)], (20, 13)),
    ("durable dc 3", F(damage=(3, 3)), (2, 0), F(abilities="Durable"), (0, 0), "a",
     [("a", "crit_strike", 3), ("b", "pass", 0), ("a", "crit_strike", 3)], (20, 14)),
    # Durable after Half Damage: 8 -> 4 -> 3 (Durable first would give 8 -> 7 -> 4).
    ("durable after half damage", F(damage=(3, 8)), (1, 0), F(abilities="Half Damage First Strike, Durable"), (0, 0),
     "a", [("a", "crit_strike", 3)], (20, 17)),
    # Durable acts after Hammerhand: a crit of 3 + 1 = 4 loses 1.
    ("durable after hammerhand", F(damage=(3, 3), abilities="Hammerhand"), (1, 0), F(abilities="Durable"), (0, 0),
     "a", [("a", "crit_strike", 3)], (20, 17)),
    # Hammerhand, Half Damage, Durable: 5 + 1 = 6 -> 3 -> 3 (a crit of 3 is unchanged).
    ("hammerhand, half damage, durable", F(damage=(3, 5), abilities="Hammerhand"), (1, 0),
     F(abilities="Half Damage First Strike, Durable"), (0, 0), "a", [("a", "crit_strike", 3)], (20, 17)),
    # --- the lethal-strike rule -----------------------------------------------------------------
    # Departure: the crit would deal 0 (Just a Scratch), so it is not lethal on 4 wounds; the
    # Parry strategy norm-parries instead, B strikes, and A's crit deals 0.
    ("lethal uses real damage", F("parry"), (1, 1), F(wounds=4, abilities="Just a Scratch"), (0, 2), "a",
     [("a", "norm_parry", 1), ("b", "norm_strike", 3), ("a", "crit_strike", 0)], (17, 4)),
    # Crit 4 + Murderous Entrance bonus norm 3 = 7 kills B on 7: strike at once.
    ("lethal counts murderous entrance", F("parry", abilities="Murderous Entrance"), (1, 1), F(wounds=7), (0, 2), "a",
     [("a", "crit_strike", 4), ("a", "murderous_entrance_strike", 3)], (20, 0)),
    ("lethal counts hammerhand", F("parry", abilities="Hammerhand"), (0, 1), F(wounds=4), (0, 1), "a",
     [("a", "norm_strike", 4)], (20, 0)),
    # --- awesome parry --------------------------------------------------------------------------
    # Parry B's last norm, then crit 4 + crit 4 kills B on 8.
    ("awesome parry", F("max_damage"), (2, 1), F(wounds=8), (0, 1), "a",
     [("a", "norm_parry", 1), ("b", "pass", 0), ("a", "crit_strike", 4), ("b", "pass", 0), ("a", "crit_strike", 4)],
     (20, 0)),
    # Storm Shield: one crit parry takes both of B's dice; then 4 + 3 kills B on 7.
    ("awesome parry with storm shield", F("max_damage", abilities="Storm Shield"), (2, 1), F(wounds=7), (1, 1), "a",
     [("a", "crit_parry", 2), ("b", "pass", 0), ("a", "crit_strike", 4), ("b", "pass", 0), ("a", "norm_strike", 3)],
     (20, 0)),
    ("awesome parry with dueller", F("max_damage", abilities="Dueller"), (3, 0), F(wounds=8), (1, 1), "a",
     [("a", "crit_parry", 2), ("b", "pass", 0), ("a", "crit_strike", 4), ("b", "pass", 0), ("a", "crit_strike", 4)],
     (20, 0)),
    # --- the strategies' lookahead --------------------------------------------------------------
    # Min Dmg: striking (4) lets B's norm through (A on 17); parrying it leaves A on 20.
    ("min damage parries", F("min_damage"), (1, 0), F(), (0, 1), "a", [("a", "crit_parry", 1)], (20, 20)),
    # Max Dmg: striking leaves B on 16, parrying on 20.
    ("max damage strikes", F("max_damage"), (1, 0), F(), (0, 1), "a",
     [("a", "crit_strike", 4), ("b", "norm_strike", 3)], (17, 16)),
    # Max Dmg on 3 wounds: B's norm kills it (a lethal strike), so striking deals only 4 (B 16);
    # parrying B's norm lets A land 4 + 3 (B 13).
    ("max damage parries to survive", F("max_damage", wounds=3), (1, 2), F(), (0, 1), "a",
     [("a", "norm_parry", 1), ("b", "pass", 0), ("a", "crit_strike", 4), ("b", "pass", 0), ("a", "norm_strike", 3)],
     (3, 13)),
]


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_hand_worked_round(case):
    _, a, dice_a, b, dice_b, first, actions, wounds = case
    log = kt.resolve_fight(a, b, dice_a=dice_a, dice_b=dice_b, first=first)
    assert list(log.actions) == actions
    assert (log.wounds_a, log.wounds_b) == wounds


# --- Feel No Pain and Saintly Relics: exact chance nodes, by hand ---------------------------------
# Fixed dice without rolling: Accurate retains norms, Norms to Crits turns one into a crit.
def fixed(crits: int, norms: int, damage=(3, 4), wounds=20, abilities="", strategy="strike") -> kt.Fighter:
    rules = f"Accurate {crits + norms}" + (f", Norms to Crits {crits}" if crits else "")
    return kt.Fighter(attacks=crits + norms, hit=2, damage=damage, wounds=wounds, rules=rules, abilities=abilities,
                      strategy=strategy)


def exact_wounds(result: kt.FightResult, side: str) -> dict[int, float]:
    dist = result.wounds(side)
    return {int(w): float(p) for w, p in zip(dist.values, dist.pmf) if p > 0}


def assert_dist(actual: dict[int, float], expected: dict[int, Fraction]) -> None:
    assert set(actual) == set(expected)
    for w, p in expected.items():
        assert actual[w] == pytest.approx(float(p), abs=1e-12)


def test_fixed_dice_helper_is_fixed():
    assert kt.attack_distribution(fixed(1, 1))[1, 1] == pytest.approx(1.0)


def test_feel_no_pain_per_strike():
    # Two norm strikes of 3 at Feel No Pain 4+: each loses 1 with probability 1/2.
    r = kt.fight(fixed(0, 2), fixed(0, 1, abilities="Feel No Pain 4+"), method="exact")
    assert_dist(exact_wounds(r, "b"), {14: Fraction(1, 4), 15: Fraction(1, 2), 16: Fraction(1, 4)})
    assert_dist(exact_wounds(r, "a"), {17: Fraction(1)})


def test_feel_no_pain_with_rolled_dice():
    # A: 1 die at 2+ (crit 1/6, norm 4/6, fail 1/6); B: 1 die at 6+ (crit 1/6), Feel No Pain 5+.
    a = kt.Fighter(attacks=1, hit=2, wounds=20, strategy="strike")
    b = kt.Fighter(attacks=1, hit=6, wounds=20, abilities="Feel No Pain 5+", strategy="strike")
    r = kt.fight(a, b, method="exact")
    third = Fraction(1, 3)
    expected_b = {
        20: Fraction(1, 6),
        18: Fraction(4, 6) * third,                                # norm 3, saved 1
        17: Fraction(4, 6) * (1 - third) + Fraction(1, 6) * third,  # norm 3, or crit 4 saved 1
        16: Fraction(1, 6) * (1 - third),
    }
    assert_dist(exact_wounds(r, "b"), expected_b)
    assert_dist(exact_wounds(r, "a"), {20: Fraction(5, 6), 16: Fraction(1, 6)})
    # the two are independent here
    pa = np.array([float(Fraction(5, 6)) if w == 20 else float(Fraction(1, 6)) if w == 16 else 0 for w in range(21)])
    pb = np.array([float(expected_b.get(w, 0)) for w in range(21)])
    np.testing.assert_allclose(r.joint.pmf, np.outer(pa, pb), atol=1e-12)


@pytest.mark.parametrize("dice, p_ignore", [(1, Fraction(1, 6)), (2, Fraction(11, 36))])
def test_saintly_relics_one_strike(dice, p_ignore):
    a = kt.Fighter(attacks=1, hit=2, wounds=20, strategy="strike")
    relics = "Saintly Relics" if dice == 1 else "Saintly Relics (2D6)"
    b = kt.Fighter(attacks=1, hit=6, wounds=20, abilities=relics, strategy="strike")
    r = kt.fight(a, b, method="exact")
    expected = {
        20: Fraction(1, 6) + Fraction(5, 6) * p_ignore,
        17: Fraction(4, 6) * (1 - p_ignore),
        16: Fraction(1, 6) * (1 - p_ignore),
    }
    assert_dist(exact_wounds(r, "b"), expected)


def test_saintly_relics_wait_for_the_largest_pending_strike():
    # A {1 crit of 4, 1 norm of 5}: the crit goes first (a tie), with the bigger norm still pending,
    # so the relic is tried on the norm only. B ends on 11 or, ignoring the norm, on 16.
    r = kt.fight(fixed(1, 1, damage=(5, 4)), fixed(0, 1, abilities="Saintly Relics"), method="exact")
    assert_dist(exact_wounds(r, "b"), {11: Fraction(5, 6), 16: Fraction(1, 6)})
    log = kt.resolve_fight(fixed(1, 1, damage=(5, 4)), fixed(0, 1, abilities="Saintly Relics"), (1, 1), (0, 1), seed=1)
    assert [kind for _, kind, _ in log.actions][:3] == ["crit_strike", "norm_strike", "norm_strike"]


def test_saintly_relics_one_strike_per_round():
    # Two norm strikes of 3, both worth trying; once one is ignored the other is not tried.
    r = kt.fight(fixed(0, 2), fixed(0, 1, abilities="Saintly Relics"), method="exact")
    p = Fraction(1, 6)
    assert_dist(exact_wounds(r, "b"), {14: (1 - p) ** 2, 17: 1 - (1 - p) ** 2})


def test_saintly_relics_two_per_fight():
    # Three rounds, one relic-worthy norm of 5 a round (the crit of 4 goes first with the norm
    # pending): a round loses 9, or 4 when the norm is ignored; at most two ignores in the fight.
    r = kt.fight(fixed(1, 1, damage=(5, 4)), fixed(0, 1, wounds=30, abilities="Saintly Relics"), rounds=3,
                 method="exact")
    p = Fraction(1, 6)
    none, one = (1 - p) ** 3, 3 * p * (1 - p) ** 2
    assert_dist(exact_wounds(r, "b"), {3: none, 8: one, 13: 1 - none - one})
    assert_dist(exact_wounds(r, "a"), {11: Fraction(1)})


def test_feel_no_pain_after_the_relic():
    # A single norm of 3 against relics and Feel No Pain 4+: ignored (1/6), else 3 or 2.
    r = kt.fight(fixed(0, 1), fixed(0, 1, abilities="Saintly Relics, Feel No Pain 4+"), method="exact")
    p = Fraction(1, 6)
    assert_dist(exact_wounds(r, "b"), {20: p, 17: (1 - p) / 2, 18: (1 - p) / 2})
