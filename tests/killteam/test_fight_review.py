"""An independent review of the fight engine against docs/rules/killteam.md §3/§4 and the
worked fight scenarios (docs/rules/killteam.md §3.8): fixed-dice positions worked out by hand from the spec text, chosen
for the points the original tests leave open (the awesome-parry candidate, what Dueller / Storm
Shield parries cancel in it, the lethal test's real damage, Shock's strike order per strategy,
Min Dmg's strike-order goal, ties, Durable spent by a zeroed crit, rounds, Feel No Pain kept out of
the lookaheads).

Defaults: 4 attacks at 3+ (the dice are fixed, so they play no part), damage 3/4, 20 wounds, fighter
A resolves first. Logs are (side, kind, value): a strike's value is the damage it inflicts, a
parry's the successes it cancels.
"""

from __future__ import annotations

import pytest

from mathhammer import killteam as kt


def F(strategy="strike", damage=(3, 4), wounds=20, rules="", abilities=""):  # noqa: N802 - reads like a card
    return kt.Fighter(attacks=4, hit=3, damage=damage, wounds=wounds, rules=rules, abilities=abilities,
                      strategy=strategy)


CASES = [
    # --- rule 4, the awesome parry's candidate ---------------------------------------------------
    # B (Brutal) holds one norm. A (Max Dmg) holds {1 crit, 2 norms}; B on 6.
    # Rule 2: crit 4 < 6, not lethal; no Brutal clause (A has a crit). Rule 3: no Shock.
    # Rule 4: "against norms only, a norm parry if this fighter has a norm and the enemy is not
    # Brutal, else a crit parry" -> the candidate is a CRIT parry; it takes the norm, then A strikes
    # 3 + 3 = 6 -> B on 0, so A crit-parries. Then B passes and A strikes its norms.
    ("awesome parry against brutal uses the crit", F("max_damage"), (1, 2), F(wounds=6, rules="Brutal"), (0, 1), "a",
     [("a", "crit_parry", 1), ("b", "pass", 0), ("a", "norm_strike", 3), ("b", "pass", 0), ("a", "norm_strike", 3)],
     (20, 0)),
    # Dueller: "a crit parry if this fighter has Dueller and a crit and the enemy has at most one
    # crit and at most two successes". B {0 crits, 2 norms} on 8, A (Strike, Dueller) {3 crits}.
    # Rule 2: 4 < 8. Rule 4: Dueller crit parry cancels two norms, then 4 + 4 = 8 -> B on 0: parry.
    ("awesome parry, dueller takes two norms", F(abilities="Dueller"), (3, 0), F(wounds=8), (0, 2), "a",
     [("a", "crit_parry", 2), ("b", "pass", 0), ("a", "crit_strike", 4), ("b", "pass", 0), ("a", "crit_strike", 4)],
     (20, 0)),
    # The same without Dueller: B's 2 successes > the 1 a parry cancels -> no candidate; A strikes
    # crit-first (4), B strikes 3, A's crit 4 -> B on 0.
    ("no awesome parry against two successes", F(), (3, 0), F(wounds=8), (0, 2), "a",
     [("a", "crit_strike", 4), ("b", "norm_strike", 3), ("a", "crit_strike", 4)], (17, 0)),
    # Storm Shield against {2 crits}: 2 <= 2, "against an enemy crit, a crit parry"; a Storm Shield
    # crit parry takes crits first, both; then 4 + 4 kills B on 8.
    ("awesome parry, storm shield takes two crits", F(abilities="Storm Shield"), (3, 0), F(wounds=8), (2, 0), "a",
     [("a", "crit_parry", 2), ("b", "pass", 0), ("a", "crit_strike", 4), ("b", "pass", 0), ("a", "crit_strike", 4)],
     (20, 0)),
    # --- rule 3 (Shock) and the strike order ------------------------------------------------------
    # Rule 3 comes before rule 4. A (Strike, Shock) {1 crit, 2 norms}, B {1 norm} on 6. Rule 2: 4 < 6.
    # Rule 3 applies (Shock, no crit strike yet, a crit, B no crits) -> strike, even though rule 4's
    # norm parry then 4 + 3 = 7 would kill. Order (Strike): crit-first: 4, Shock discards B's norm,
    # then 3 + 3 -> B dead; norm-first: 3, B strikes 3, crit 4 -> B dead. Tie -> crit-first.
    ("shock comes before the awesome parry", F(rules="Shock"), (1, 2), F(wounds=6), (0, 1), "a",
     [("a", "crit_strike", 4), ("a", "shock_discard_norm", 1), ("b", "pass", 0), ("a", "norm_strike", 3)], (20, 0)),
    # The Parry strategy's forced strikes are crit-first, Shock's too: A (Parry, Shock) {1, 1} vs B
    # (Strike) {0, 2}: crit 4 + discard a norm; B {1 norm} vs A {1 norm}: rule 4's norm parry kills
    # nothing, so B strikes 3; A strikes its norm 3.
    ("shock under the parry strategy is crit-first", F("parry", rules="Shock"), (1, 1), F(), (0, 2), "a",
     [("a", "crit_strike", 4), ("a", "shock_discard_norm", 1), ("b", "norm_strike", 3), ("a", "norm_strike", 3)],
     (17, 13)),
    # The seed: "for a mixed crit+norm hand under Strike / Max Dmg / Min Dmg, preferredStrikeChoice
    # may still strike norm-first". A (Max Dmg, Shock) {1, 1} vs B (Parry) {0, 2}.
    # crit-first: 4 + discard; B (Parry) norm-parries A's norm -> B loses 4.
    # norm-first: 3; B cannot parry the crit and strikes 3; crit 4 + discard B's last norm -> B loses 7.
    # 13 < 16: norm-first.
    ("shock under max damage may go norm-first", F("max_damage", rules="Shock"), (1, 1), F("parry"), (0, 2), "a",
     [("a", "norm_strike", 3), ("b", "norm_strike", 3), ("a", "crit_strike", 4), ("a", "shock_discard_norm", 1)],
     (17, 13)),
    # Same position under Min Dmg: the goal is own wounds: crit-first leaves A on 20, norm-first on
    # 17 -> crit-first (then B (Parry) norm-parries A's last norm).
    ("shock under min damage stays crit-first", F("min_damage", rules="Shock"), (1, 1), F("parry"), (0, 2), "a",
     [("a", "crit_strike", 4), ("a", "shock_discard_norm", 1), ("b", "norm_parry", 1)], (20, 16)),
    # Rule 1 against Just a Scratch: Max Dmg feeds the 0 the norm (B loses 4 rather than 3) ...
    ("max damage feeds just a scratch the norm", F("max_damage"), (1, 1), F(abilities="Just a Scratch"), (0, 0), "a",
     [("a", "norm_strike", 0), ("b", "pass", 0), ("a", "crit_strike", 4)], (20, 16)),
    # ... Min Dmg's goal is its own wounds, 20 either way: a tie, crit-first.
    ("min damage ties crit-first", F("min_damage"), (1, 1), F(abilities="Just a Scratch"), (0, 0), "a",
     [("a", "crit_strike", 0), ("b", "pass", 0), ("a", "norm_strike", 3)], (20, 17)),
    # The enemy holds a crit: no norm-first, even when it would be better. A (Strike) {1, 1} vs B
    # (Strike, Just a Scratch) {1 crit}. Rule 4: candidate crit parry, then A's norm deals 0 (JaS):
    # no. Crit-first: crit 0 (JaS); B: its crit parry would leave it nothing to kill with -> strikes
    # 4; A's norm 3. (Norm-first would have dealt 4.)
    ("enemy crit keeps crit-first", F(), (1, 1), F(abilities="Just a Scratch"), (1, 0), "a",
     [("a", "crit_strike", 0), ("b", "crit_strike", 4), ("a", "norm_strike", 3)], (16, 17)),
    # --- rule 5 ties -------------------------------------------------------------------------------
    # Max Dmg {1 crit} vs B (Just a Scratch) {1 norm}: (a) strike deals 0 (JaS), B on 20; (b) the
    # crit parry, B on 20. "Ties strike." Rule 4's crit parry leaves A nothing to kill with.
    ("max damage tie strikes", F("max_damage"), (1, 0), F(abilities="Just a Scratch"), (0, 1), "a",
     [("a", "crit_strike", 0), ("b", "norm_strike", 3)], (17, 20)),
    # Min Dmg (Just a Scratch) {1 crit} vs B {1 norm}: (a) strike, B's norm deals 0 -> A on 20; (b)
    # parry -> A on 20. Tie -> strike.
    ("min damage tie strikes", F("min_damage", abilities="Just a Scratch"), (1, 0), F(), (0, 1), "a",
     [("a", "crit_strike", 4), ("b", "norm_strike", 0)], (20, 16)),
    # --- rule 2, the lethal strike with real deterministic damage ----------------------------------
    # Half Damage: the crit 4 halves to 2 < 3: not lethal. Rule 4: norm parry, then crit 2 -> B on 1:
    # no. Parry: norm-parry; B passes; A's crit deals 2.
    ("lethal sees half damage", F("parry"), (1, 1), F(wounds=3, abilities="Half Damage First Strike"), (0, 1), "a",
     [("a", "norm_parry", 1), ("b", "pass", 0), ("a", "crit_strike", 2)], (20, 1)),
    # Half Damage's literal minimum 2 makes a 1-damage norm lethal on 2 wounds: strike at once
    # (the Parry strategy would otherwise norm-parry).
    ("half damage's minimum 2 is lethal", F("parry", damage=(1, 4)), (0, 1),
     F(wounds=2, abilities="Half Damage First Strike"), (0, 1), "a", [("a", "norm_strike", 2)], (20, 0)),
    # Durable: crit 4 -> 3 < 4 wounds, not lethal (a norm of 4 would be, but rule 2 tests only the
    # crit-first strike). Rule 4: norm parry, then crit 3 -> B on 1: no. Parry: norm-parry; crit 3.
    ("lethal tests only the crit-first strike, after durable", F("parry", damage=(4, 4)), (1, 1),
     F(wounds=4, abilities="Durable"), (0, 1), "a",
     [("a", "norm_parry", 1), ("b", "pass", 0), ("a", "crit_strike", 3)], (20, 1)),
    # Just a Scratch (normals): A holds norms only; its strike deals 0 -> not lethal on 3. Rule 4:
    # norm parry, then a norm of 0 -> no. Parry: norm-parry; the last norm deals 0.
    ("lethal sees just a scratch (normals)", F("parry"), (0, 2), F(wounds=3, abilities="Just a Scratch (normals)"),
     (0, 1), "a", [("a", "norm_parry", 1), ("b", "pass", 0), ("a", "norm_strike", 0)], (20, 3)),
    # Murderous Entrance through Just a Scratch: crit 0 + bonus crit 4 = 4 >= 4: lethal, strike.
    ("lethal counts a bonus strike after a zeroed crit", F("parry", abilities="Murderous Entrance"), (2, 0),
     F(wounds=4, abilities="Just a Scratch"), (0, 1), "a",
     [("a", "crit_strike", 0), ("a", "murderous_entrance_strike", 4)], (20, 0)),
    # A lone crit has no success left for the bonus: 4 < 7, not lethal (only a bonus "that can
    # actually happen" counts). Rule 4: crit parry, then nothing to strike with. Parry: crit-parry.
    ("no bonus strike without a second success", F("parry", abilities="Murderous Entrance"), (1, 0),
     F(wounds=7), (0, 1), "a", [("a", "crit_parry", 1)], (20, 7)),
    # --- Durable and Duelist ----------------------------------------------------------------------
    # Durable softens the FIRST crit strike; Just a Scratch zeroed that one, so the second crit of 5
    # lands whole.
    ("durable is spent by a zeroed first crit", F(damage=(3, 5)), (2, 0),
     F(abilities="Just a Scratch, Durable"), (0, 0), "a",
     [("a", "crit_strike", 0), ("b", "pass", 0), ("a", "crit_strike", 5)], (20, 15)),
    # Duelist with only norms against Brutal: a norm cannot parry Brutal, so no up-front parry; then
    # rule 2 (Brutal, no crits) strikes; B's norm parry kills nothing, so it strikes.
    ("duelist never parries brutal with a norm", F(abilities="Duelist"), (0, 2), F(rules="Brutal"), (0, 1), "a",
     [("a", "norm_strike", 3), ("b", "norm_strike", 3), ("a", "norm_strike", 3)], (17, 14)),
    # Duelist + Dueller: the up-front crit parry takes a crit and a norm; nothing is left.
    ("duelist with dueller", F(abilities="Duelist, Dueller"), (1, 0), F(), (1, 1), "a",
     [("a", "duelist_crit_parry", 2)], (20, 20)),
    # Duelist parries before the alternation even when the other fighter resolves first.
    ("duelist parries before b resolves first", F(abilities="Duelist"), (1, 1), F(), (0, 2), "b",
     [("a", "duelist_norm_parry", 1), ("b", "norm_strike", 3), ("a", "crit_strike", 4)], (17, 16)),
]


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_reviewed_round(case):
    _, a, dice_a, b, dice_b, first, actions, wounds = case
    log = kt.resolve_fight(a, b, dice_a=dice_a, dice_b=dice_b, first=first)
    assert list(log.actions) == actions
    assert (log.wounds_a, log.wounds_b) == wounds


@pytest.mark.parametrize("seed", range(6))
def test_lethal_test_ignores_feel_no_pain(seed):
    # A (Parry) {1 crit, 1 norm} vs B {1 norm} on 4 with Feel No Pain 2+. The lethal test is
    # deterministic ("as if they never trigger"): crit 4 >= 4, so A strikes the crit whatever the
    # Feel No Pain roll then does.
    log = kt.resolve_fight(F("parry"), F(wounds=4, abilities="Feel No Pain 2+"), dice_a=(1, 1), dice_b=(0, 1),
                           seed=seed)
    assert log.actions[0][:2] == ("a", "crit_strike")


def fixed(crits: int, norms: int, damage=(3, 4), wounds=20, abilities="", strategy="strike") -> kt.Fighter:
    """A fighter whose retained dice are always (crits, norms): Accurate keeps them all as norms,
    Norms to Crits turns some into crits."""
    rules = f"Accurate {crits + norms}" + (f", Norms to Crits {crits}" if crits else "")
    return kt.Fighter(attacks=crits + norms, hit=2, damage=damage, wounds=wounds, rules=rules, abilities=abilities,
                      strategy=strategy)


@pytest.mark.parametrize("wounds_b, end_a, end_b", [(30, 21, 6), (20, 24, 0), (12, 27, 0)])
def test_rounds_reset_flags_and_carry_wounds(wounds_b, end_a, end_b):
    # A (Strike, Hammerhand) {1 crit of 5, 1 norm of 3} on 30 vs B (Strike, Durable) {1 norm} on
    # wounds_b, three rounds. Each round, with flags reset: crit-first: 5 + 1 (Hammerhand) = 6 -> 5
    # (Durable); B strikes 3 (its norm parry would kill nothing); A's norm 3: B loses 8, A 3.
    # Norm-first: 3 + 1 = 4; B 3; crit 5 -> 4 (first crit): also 8 -> tie, crit-first.
    # (Without the reset, rounds 2-3 would take 7.)
    # B on 30: 30 - 24 = 6, A 30 - 9 = 21.
    # B on 20: 12, 4; round 3: the crit's 5 >= 4 is lethal at once: B 0, A hit twice: 24.
    # B on 12: 4 after round 1; round 2 the crit kills at once; round 3: B stays at 0 and never
    # strikes: A 27.
    r = kt.fight(fixed(1, 1, damage=(3, 5), wounds=30, abilities="Hammerhand"),
                 fixed(0, 1, wounds=wounds_b, abilities="Durable"), rounds=3, method="exact")
    assert r.wounds_a.prob(end_a) == pytest.approx(1.0, abs=1e-12)
    assert r.wounds_b.prob(end_b) == pytest.approx(1.0, abs=1e-12)
