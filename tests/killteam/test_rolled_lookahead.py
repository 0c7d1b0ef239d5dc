"""The rolled lookahead (docs/rules/killteam.md §3.6, variants lookahead="rolled", set by "ktcalc"): a Max Dmg /
Min Dmg fighter's rule 5 plays its two lines with Feel No Pain and relic dice rolled, so its decision is a chance.

The exact engine against ktcalc_reference.py's transcription brute-forced over every attack-die face and every
Feel No Pain, relic and lookahead roll (each line and every decision nested in it enumerated, the two lines paired
independently), at most 2 dice a side; the Monte Carlo engine, the logged round and kt.advise against the same.
"""

from __future__ import annotations

import dataclasses
import itertools
import math
import random

import numpy as np
import pytest

from mathhammer import killteam as kt

import ktcalc_reference as ref
from dice_brute import brute_dice

TOL = 1e-12
KTCALC = dict(kt.Variants.PRESETS["ktcalc"])
# the brute force transcribes the reference, which rolls every round at the fighter's own Hit:
# injured fighters (docs/rules/killteam.md §3.9) are off in both presets it is held to
ROLLED = {"lookahead": "rolled", "injured": False}

# the transcription's ability names, as a fighter's rules or abilities text writes them
NAMES = {
    "brutal": ("rules", "Brutal"), "shock": ("rules", "Shock"), "storm_shield": ("abilities", "Storm Shield"),
    "dueller": ("abilities", "Dueller"), "duelist": ("abilities", "Duelist"), "hammerhand": ("abilities", "Hammerhand"),
    "jas": ("abilities", "Just a Scratch"), "jas_normals": ("abilities", "Just a Scratch (normals)"),
    "half_damage": ("abilities", "Half Damage First Strike"), "durable": ("abilities", "Durable"),
    "murderous_entrance": ("abilities", "Murderous Entrance"),
}


@dataclasses.dataclass(frozen=True)
class Side:
    """One fighter of a small fight: what kt.Fighter and the transcription's FighterState both read."""

    attacks: int
    hit: int
    damage: tuple[int, int]
    wounds: int
    strategy: str
    names: frozenset[str] = frozenset()
    feel_no_pain: int = 0
    relics: int = 0

    def fighter(self) -> kt.Fighter:
        rules = ", ".join(NAMES[n][1] for n in sorted(self.names) if NAMES[n][0] == "rules")
        abilities = [NAMES[n][1] for n in sorted(self.names) if NAMES[n][0] == "abilities"]
        if self.feel_no_pain:
            abilities.append(f"Feel No Pain {self.feel_no_pain}+")
        if self.relics:
            abilities.append("Saintly Relics (2D6)" if self.relics == 2 else "Saintly Relics")
        return kt.Fighter(self.attacks, self.hit, self.damage, self.wounds, rules, ", ".join(abilities), self.strategy)

    def state(self, dice: tuple[int, int], wounds: int, relic_uses: int) -> ref.FighterState:
        return ref.FighterState(dice[0], dice[1], wounds, self.damage[0], self.damage[1], self.strategy, self.names,
                                feel_no_pain=self.feel_no_pain, relics=self.relics, relic_uses=relic_uses)


def brute_fight(a: Side, b: Side, first: str, rounds: int, variants: dict[str, str]) -> np.ndarray:
    """The joint wounds pmf: every face of both fighters' dice each round, every chance die and lookahead roll."""
    fight = ref.Fight(variants)
    dice = [brute_dice(s.attacks, s.hit, 6, 0, 0, "none", {}) for s in (a, b)]
    starts = {(a.wounds, b.wounds, 0, 0): 1.0}
    for _ in range(rounds):
        ends: dict[tuple[int, int, int, int], float] = {}
        for (wa, wb, ua, ub), p in starts.items():
            if wa == 0 or wb == 0:
                ends[(wa, wb, ua, ub)] = ends.get((wa, wb, ua, ub), 0.0) + p
                continue
            for (da, pa), (db, pb) in itertools.product(dice[0].items(), dice[1].items()):
                for end, q in fight.round_outcomes(a.state(da, wa, ua), b.state(db, wb, ub), first).items():
                    ends[end] = ends.get(end, 0.0) + p * pa * pb * q
        starts = ends
    out = np.zeros((a.wounds + 1, b.wounds + 1))
    for (wa, wb, _, _), p in starts.items():
        out[wa, wb] += p
    return out


def random_side(rng: random.Random, strategy: str) -> Side:
    dn = rng.randint(1, 4)
    return Side(attacks=2 if rng.random() < 0.75 else 1, hit=rng.randint(2, 4), damage=(dn, rng.randint(dn, 5)),
                wounds=rng.randint(2, 7), strategy=strategy,
                names=frozenset(n for n in NAMES if rng.random() < 0.15),
                feel_no_pain=rng.choice((0, 3, 4, 5)), relics=rng.choice((0, 0, 1, 2)))


def small_fights() -> list[tuple[Side, Side, str, int]]:
    """Random small fights in which a rule 5 can roll: a Max Dmg or Min Dmg fighter, a chance die somewhere."""
    rng = random.Random(37)
    fights = []
    while len(fights) < 18:
        a = random_side(rng, rng.choice(("max_damage", "min_damage")))
        b = random_side(rng, rng.choice(kt.STRATEGIES[:4]))
        if not (a.feel_no_pain or a.relics or b.feel_no_pain or b.relics):
            continue
        fights.append((a, b, rng.choice("ab"), 1 + (len(fights) % 6 == 5)))
    return fights


SMALL_FIGHTS = small_fights()
# Hand-picked too: FNP on a Max Dmg fighter; relics (2D6) against Min Dmg over two rounds (the relic caps carried
# into the second round's lines); Murderous Entrance and Hammerhand with Feel No Pain on both.
SMALL_FIGHTS += [
    (Side(2, 3, (3, 4), 6, "max_damage", feel_no_pain=4), Side(2, 3, (3, 4), 6, "max_damage"), "b", 1),
    (Side(2, 3, (3, 4), 5, "min_damage", feel_no_pain=5), Side(2, 3, (2, 5), 7, "max_damage", relics=2), "a", 2),
    (Side(2, 2, (3, 4), 8, "min_damage", frozenset({"murderous_entrance", "hammerhand"}), feel_no_pain=5),
     Side(2, 3, (3, 4), 5, "parry", feel_no_pain=4), "a", 1),
]


@pytest.mark.parametrize("variants", [KTCALC, ROLLED], ids=["ktcalc", "rolled"])
@pytest.mark.parametrize("n", range(len(SMALL_FIGHTS)))
def test_exact_fight_matches_the_brute_force(n, variants):
    a, b, first, rounds = SMALL_FIGHTS[n]
    got = kt.fight(a.fighter(), b.fighter(), first, rounds, method="exact", variants=variants).joint.pmf
    assert np.abs(got - brute_fight(a, b, first, rounds, variants)).max() < TOL


def test_the_rolled_lookahead_changes_these_fights():
    """Rolled and fixed differ by brute force on many of them (else the test above proves little), and the
    reference preset rolls."""
    assert kt.Variants.resolve("ktcalc").lookahead == "rolled" and kt.Variants().lookahead == "fixed"
    gaps = []
    for a, b, first, rounds in SMALL_FIGHTS:
        if rounds == 1:
            rolled = brute_fight(a, b, first, 1, ROLLED)
            gaps.append(np.abs(rolled - brute_fight(a, b, first, 1, {})).max())
    assert sum(gap > 1e-3 for gap in gaps) >= 8, gaps


def test_without_chance_dice_rolled_is_fixed():
    """With no Feel No Pain or relics the lines roll nothing: the same numbers as the fixed lookahead."""
    a = kt.Fighter(4, 3, (3, 4), 9, "Shock", "Murderous Entrance", "max_damage")
    b = kt.Fighter(4, 3, (2, 5), 8, "", "Hammerhand", "min_damage")
    fixed = kt.fight(a, b, "a", 2, method="exact", variants=dict(ROLLED, lookahead="fixed")).joint.pmf
    assert np.array_equal(kt.fight(a, b, "a", 2, method="exact", variants=ROLLED).joint.pmf, fixed)


def test_monte_carlo_rolls_the_lines_as_the_exact_engine_weighs_them():
    """A fight where the reference's rolled lookahead matters: B's death chance is 0.4036 rolled, 0.5217 fixed."""
    a = kt.Fighter(4, 3, (3, 4), 9, "", "Feel No Pain 4+", "min_damage")
    b = kt.Fighter(4, 3, (3, 4), 6, "", "Feel No Pain 4+", "max_damage")
    rolled = kt.fight(a, b, "a", 1, method="exact", variants="ktcalc")
    fixed = kt.fight(a, b, "a", 1, method="exact", variants=dict(KTCALC, lookahead="fixed"))
    n = 200_000
    mc = kt.fight(a, b, "a", 1, method="monte_carlo", samples=n, seed=35, threads=1, variants="ktcalc")
    for side in "ab":
        p = rolled.death_chance(side)
        assert abs(mc.death_chance(side) - p) < 5 * math.sqrt(p * (1 - p) / n), side
    p = rolled.death_chance("b")
    assert abs(fixed.death_chance("b") - p) > 20 * math.sqrt(p * (1 - p) / n)  # the two lookaheads told apart
    # the same counts on two threads (the chance graph and the rounds drawn outside it draw alike)
    two = kt.fight(a, b, "a", 1, method="monte_carlo", samples=n, seed=35, threads=2, variants="ktcalc")
    assert np.array_equal(two.joint.pmf, mc.joint.pmf)


def test_the_logged_round_draws_each_decision_with_its_chance():
    """A (Min Dmg, 1 norm, 3/4, 3 wounds, Feel No Pain 4+) to move against B (Strike, 2 norms, 4 wounds). By hand
    (docs/rules/killteam.md §3.6): line (a), strike, takes both of B's 3-damage strikes and leaves A on 0 whatever
    its rolls; line (b), parry one norm, takes one strike and leaves A on 0, or on 1 when the roll saves one
    (1/2). Fixed, both lines end on 0: a tie, strike. Rolled, (a) is played when its 0 is no fewer than (b)'s
    wounds: 1/2 strike, 1/2 parry. The logged round's first action over many seeds follows that."""
    a = Side(1, 3, (3, 4), 3, "min_damage", feel_no_pain=4)
    b = Side(2, 3, (3, 4), 4, "strike")
    outcomes = ref.Fight(ROLLED).choose_outcomes(a.state((0, 1), 3, 0), b.state((0, 2), 4, 0))
    assert sorted(outcomes) == [(0.5, "norm_parry"), (0.5, "norm_strike")]
    fixed = kt.resolve_fight(a.fighter(), b.fighter(), (0, 1), (0, 2), "a", seed=0)
    assert fixed.actions[0] == ("a", "norm_strike", 3) and fixed.wounds_a == 0
    runs = 4000
    seen: dict[str, int] = {}
    for seed in range(runs):
        log = kt.resolve_fight(a.fighter(), b.fighter(), (0, 1), (0, 2), "a", seed=seed, variants=ROLLED)
        seen[log.actions[0][1]] = seen.get(log.actions[0][1], 0) + 1
    assert set(seen) == {"norm_strike", "norm_parry"}
    assert abs(seen["norm_parry"] / runs - 0.5) < 5 * math.sqrt(0.25 / runs), seen


def test_advise_values_the_moves_against_the_rolled_heuristic():
    """The mover (optimal for advise) holds one norm: after its move the enemy plays alone, rolling its rule 5
    lines; each move's expected wounds are the brute force's."""
    a = Side(1, 3, (3, 4), 6, "max_damage", feel_no_pain=4)
    b = Side(2, 3, (3, 4), 7, "max_damage", feel_no_pain=5)
    fight = ref.Fight(ROLLED)
    advice = kt.advise(a.fighter(), b.fighter(), (0, 1), (1, 1), "a", variants=ROLLED)
    checked = 0
    for move in advice.moves:
        wounds = [0.0, 0.0]
        for p, ma, mb in fight.do_outcomes(move.move, a.state((0, 1), 6, 0), b.state((1, 1), 7, 0)):
            for (wb, wa, _, _), q in fight.play_outcomes(mb, ma).items():
                wounds[0] += p * q * wa
                wounds[1] += p * q * wb
        assert move.wounds_a == pytest.approx(wounds[0], abs=TOL) and move.wounds_b == pytest.approx(wounds[1], abs=TOL)
        checked += 1
    assert checked == 2  # the norm strike and the norm parry


def test_optimal_against_a_rolled_heuristic_agrees_between_engines():
    a = kt.Fighter(3, 3, (3, 4), 8, "", "Feel No Pain 4+", "optimal")
    b = kt.Fighter(3, 3, (3, 4), 9, "", "Feel No Pain 5+", "max_damage")
    exact = kt.fight(a, b, "a", 2, method="exact", variants=ROLLED)
    fixed = kt.fight(a, b, "a", 2, method="exact")
    n = 200_000
    mc = kt.fight(a, b, "a", 2, method="monte_carlo", samples=n, seed=5, threads=1, variants=ROLLED)
    for side in "ab":
        p = exact.death_chance(side)
        assert abs(mc.death_chance(side) - p) < 5 * math.sqrt(p * (1 - p) / n), side
    assert abs(exact.death_chance("b") - fixed.death_chance("b")) > 1e-4
