"""Injured fighters (docs/rules/killteam.md §3.9) against a brute force of two-round fights with at
most two dice a side: every face of every die and reroll die (dice_brute.py), rolled at the Hit the
fighter has when the round starts (one worse below half its starting wounds), and every round
resolved by the plain transcription of the fight (fight_reference.py), Feel No Pain and relic rolls
as chance branches. Then the optimal solver against a plain two-round minimax over the same dice.

Nothing here reads the engine's dice tables or its injured profile: the worse Hit, and Lethal's
threshold under it, are worked out below from the rule.
"""

from __future__ import annotations

import copy
import dataclasses
import random
from functools import lru_cache
from typing import Any

import numpy as np
import pytest

import fight_reference as ref
from dice_brute import brute_dice
from mathhammer import killteam as kt

TOL = 1e-12
ROUNDS = 2
REROLLS = ("none", "none", "balanced", "relentless", "ceaseless")
FIGHT_ABILITIES = {"storm_shield": "Storm Shield", "dueller": "Dueller", "duelist": "Duelist", "hammerhand": "Hammerhand",
                   "jas": "Just a Scratch", "half_damage": "Half Damage First Strike", "durable": "Durable",
                   "crits_as_normal": "Crits as Normal Dmg"}


@dataclasses.dataclass(frozen=True)
class Side:
    """A fighter as the brute force reads it, and the kt.Fighter made of the same numbers."""

    attacks: int
    hit: int
    lethal: int | None
    reroll: str
    dice_rules: tuple[str, ...]  # punishing, severe, rending
    damage: tuple[int, int]
    wounds: int
    strategy: str
    names: frozenset  # fight_reference's ability and rule names
    fnp: int
    relics: int

    def fighter(self) -> kt.Fighter:
        rules = [f"Lethal {self.lethal}+"] if self.lethal else []
        rules += {"none": [], "balanced": ["Balanced"], "relentless": ["Relentless"], "ceaseless": ["Ceaseless"]}[
            self.reroll]
        rules += [name.capitalize() for name in self.dice_rules]
        rules += [name.capitalize() for name in ("brutal", "shock") if name in self.names]
        abilities = [FIGHT_ABILITIES[n] for n in sorted(self.names) if n in FIGHT_ABILITIES]
        abilities += [f"Feel No Pain {self.fnp}+"] if self.fnp else []
        abilities += [["", "Saintly Relics", "Saintly Relics (2D6)"][self.relics]] if self.relics else []
        return kt.Fighter(self.attacks, self.hit, self.damage, self.wounds, ", ".join(rules), ", ".join(abilities),
                          self.strategy)


def random_side(rng: random.Random, chance: bool) -> Side:
    names = {n for n in FIGHT_ABILITIES if rng.random() < 0.15} | {n for n in ("brutal", "shock") if rng.random() < 0.2}
    dn = rng.randint(1, 4)
    fnp = rng.choice((0, 4, 5, 6)) if chance else 0
    return Side(attacks=rng.randint(1, 2), hit=rng.randint(2, 6), lethal=rng.choice((None, None, 4, 5)),
                reroll=rng.choice(REROLLS), dice_rules=tuple(r for r in ("punishing", "severe", "rending")
                                                              if rng.random() < 0.2),
                damage=(dn, rng.randint(dn, 5)), wounds=rng.randint(2, 8), strategy=rng.choice(kt.STRATEGIES),
                names=frozenset(names), fnp=fnp, relics=rng.choice((0, 0, 1, 2)) if chance else 0)


@lru_cache(maxsize=None)
def rolls(side: Side, wounds: int) -> tuple[tuple[int, int, float], ...]:
    """The retained dice of a round `side` starts on `wounds`, face by face: below half its starting
    wounds its Hit is one worse (never past 6+), and Lethal never makes a crit below that Hit."""
    hit = min(6, side.hit + 1) if 2 * wounds < side.wounds else side.hit
    crit = 6 if side.lethal is None else max(side.lethal, hit)
    rules = {name: True for name in side.dice_rules}
    table = brute_dice(side.attacks, hit, crit, 0, 0, side.reroll, rules)
    return tuple((c, n, p) for (c, n), p in sorted(table.items()) if p > 0)


def guy(side: Side, dice: tuple[int, int], wounds: int, relic_uses: int) -> ref.Guy:
    return ref.Guy(crits=dice[0], norms=dice[1], wounds=wounds, dn=side.damage[0], dc=side.damage[1],
                   strategy=side.strategy, abilities=side.names, feel_no_pain=side.fnp, relics=side.relics,
                   relic_uses=relic_uses)


def brute_fight(a: Side, b: Side, first: str) -> np.ndarray:
    """The joint wounds after two rounds: each round start rolls every face at its Hit, then plays
    every chance branch of the transcription."""
    dist = {(a.wounds, b.wounds, 0, 0): 1.0}
    for _ in range(ROUNDS):
        after: dict[tuple[int, int, int, int], float] = {}
        for (wa, wb, ua, ub), p in dist.items():
            if wa == 0 or wb == 0:
                after[(wa, wb, ua, ub)] = after.get((wa, wb, ua, ub), 0.0) + p
                continue
            for ca, na, pa in rolls(a, wa):
                for cb, nb, pb in rolls(b, wb):
                    ends = ref.round_outcomes(guy(a, (ca, na), wa, ua), guy(b, (cb, nb), wb, ub), first)
                    for key, q in ends.items():
                        after[key] = after.get(key, 0.0) + p * pa * pb * q
        dist = after
    joint = np.zeros((a.wounds + 1, b.wounds + 1))
    for (wa, wb, _, _), p in dist.items():
        joint[wa, wb] += p
    return joint


SEEDS = range(40)


def sides(seed: int) -> tuple[Side, Side, str]:
    rng = random.Random(31_000 + seed)
    chance = seed % 4 == 3  # a quarter of the fights roll Feel No Pain and relics too
    return random_side(rng, chance), random_side(rng, chance and rng.random() < 0.5), "ab"[seed % 2]


@pytest.mark.parametrize("seed", SEEDS)
def test_two_round_fights_roll_injured_dice_as_the_brute_force_does(seed: int) -> None:
    a, b, first = sides(seed)
    got = kt.fight(a.fighter(), b.fighter(), first, ROUNDS, method="exact")
    assert got.method == "exact"
    np.testing.assert_allclose(got.joint.pmf, brute_fight(a, b, first), atol=TOL, rtol=0)


def test_the_brute_force_fights_reach_injury_and_change_by_it() -> None:
    changed = worse = lethal = chance = 0
    for seed in SEEDS:
        a, b, first = sides(seed)
        with_injury = kt.fight(a.fighter(), b.fighter(), first, ROUNDS, method="exact").joint.pmf
        without = kt.fight(a.fighter(), b.fighter(), first, ROUNDS, method="exact", variants={"injured": False}).joint.pmf
        changed += not np.allclose(with_injury, without, atol=1e-12)
        worse += any(s.hit < 6 for s in (a, b))
        lethal += any(s.lethal is not None and s.lethal <= s.hit + 1 for s in (a, b))
        chance += any(s.fnp or s.relics for s in (a, b))
    assert changed >= 20 and worse >= 30 and lethal >= 5 and chance >= 8, (changed, worse, lethal, chance)


# --- the optimal solver: both fighters optimal ("trade"), two rounds, a plain minimax -----------------

MOVES = ("crit_strike", "norm_strike", "crit_parry", "norm_parry")
Outlook = tuple[float, float, float, float]  # P(A dies), P(B dies), E[A lost], E[B lost]


def legal(me: ref.Guy, enemy: ref.Guy) -> list[str]:
    """The moves in tie-break order; a parry that would cancel nothing is none (no Brutal here)."""
    out = [m for m, ok in (("crit_strike", me.crits), ("norm_strike", me.norms),
                           ("crit_parry", me.crits and enemy.successes()), ("norm_parry", me.norms and enemy.norms))
           if ok]
    return out


def trade(outlook: Outlook, side: int) -> tuple[float, float]:
    return outlook[1 - side] - outlook[side], outlook[3 - side] - outlook[2 + side]


def better(x: tuple[float, float], y: tuple[float, float]) -> bool:
    for u, v in zip(x, y):
        if abs(u - v) > 1e-9:
            return u > v
    return False


class Minimax:
    """Two optimal fighters, "trade", over two rounds by backward induction: the end of round 1 is
    worth the expectation of round 2 from its wounds, over the dice each fighter rolls there."""

    def __init__(self, a: Side, b: Side) -> None:
        self.sides = (a, b)
        self.start = (a.wounds, b.wounds)
        self.memo: dict[Any, tuple[Outlook, str | None]] = {}
        self.starts: dict[tuple[int, int], Outlook] = {}

    def terminal(self, wa: int, wb: int) -> Outlook:
        return float(wa == 0), float(wb == 0), float(self.start[0] - wa), float(self.start[1] - wb)

    def round_start(self, wa: int, wb: int) -> Outlook:
        """Round 2 from these wounds: each fighter's dice at the Hit it then has."""
        if wa == 0 or wb == 0:
            return self.terminal(wa, wb)
        if (wa, wb) not in self.starts:
            total = [0.0, 0.0, 0.0, 0.0]
            for ca, na, pa in rolls(self.sides[0], wa):
                for cb, nb, pb in rolls(self.sides[1], wb):
                    guys = (guy(self.sides[0], (ca, na), wa, 0), guy(self.sides[1], (cb, nb), wb, 0))
                    value, _ = self.solve(guys, 0 if guys[0].successes() else 1, 1)
                    total = [t + pa * pb * v for t, v in zip(total, value)]
            self.starts[(wa, wb)] = (total[0], total[1], total[2], total[3])
        return self.starts[(wa, wb)]

    def solve(self, guys: tuple[ref.Guy, ref.Guy], mover: int, round_: int) -> tuple[Outlook, str | None]:
        a, b = guys
        if a.wounds == 0 or b.wounds == 0 or a.successes() + b.successes() == 0:
            end = self.terminal(a.wounds, b.wounds) if round_ == ROUNDS - 1 else self.round_start(a.wounds, b.wounds)
            return end, None
        key = (a.crits, a.norms, a.wounds, b.crits, b.norms, b.wounds, mover, round_)
        if key not in self.memo:
            best: tuple[Outlook, str] | None = None
            for move in legal(guys[mover], guys[1 - mover]):
                nxt = copy.deepcopy(guys)
                ref.do(move, nxt[mover], nxt[1 - mover])
                after = mover if nxt[1 - mover].successes() == 0 else 1 - mover
                value, _ = self.solve(nxt, after, round_)
                if best is None or better(trade(value, mover), trade(best[0], mover)):
                    best = (value, move)
            assert best is not None
            self.memo[key] = best
        return self.memo[key]

    def play(self, guys: tuple[ref.Guy, ref.Guy], round_: int) -> tuple[int, int]:
        """The wounds a round ends on when both play the minimax moves."""
        guys = copy.deepcopy(guys)
        mover = 0 if guys[0].successes() else 1
        while True:
            _, move = self.solve(guys, mover, round_)
            if move is None:
                return guys[0].wounds, guys[1].wounds
            ref.do(move, guys[mover], guys[1 - mover])
            mover = mover if guys[1 - mover].successes() == 0 else 1 - mover

    def joint(self) -> np.ndarray:
        out = np.zeros((self.start[0] + 1, self.start[1] + 1))
        a, b = self.sides
        for ca, na, pa in rolls(a, a.wounds):
            for cb, nb, pb in rolls(b, b.wounds):
                wa, wb = self.play((guy(a, (ca, na), a.wounds, 0), guy(b, (cb, nb), b.wounds, 0)), 0)
                if wa == 0 or wb == 0:
                    out[wa, wb] += pa * pb
                    continue
                for ca2, na2, qa in rolls(a, wa):
                    for cb2, nb2, qb in rolls(b, wb):
                        ea, eb = self.play((guy(a, (ca2, na2), wa, 0), guy(b, (cb2, nb2), wb, 0)), 1)
                        out[ea, eb] += pa * pb * qa * qb
        return out


def plain(attacks: int, hit: int, damage: tuple[int, int], wounds: int) -> Side:
    return Side(attacks, hit, None, "none", (), damage, wounds, "optimal", frozenset(), 0, 0)


@pytest.mark.parametrize(("a", "b"), [
    (plain(2, 3, (3, 4), 6), plain(2, 3, (3, 4), 5)),
    (plain(2, 4, (2, 3), 7), plain(2, 2, (2, 4), 6)),
    (plain(1, 3, (3, 4), 4), plain(2, 5, (2, 3), 5)),
])
def test_the_optimal_solver_values_round_starts_with_the_dice_they_roll(a: Side, b: Side) -> None:
    fighter_a = dataclasses.replace(a.fighter(), strategy="optimal", objective="trade")
    fighter_b = dataclasses.replace(b.fighter(), strategy="optimal", objective="trade")
    got = kt.fight(fighter_a, fighter_b, "a", ROUNDS, method="exact").joint.pmf
    np.testing.assert_allclose(got, Minimax(a, b).joint(), atol=TOL, rtol=0)
    without = kt.fight(fighter_a, fighter_b, "a", ROUNDS, method="exact", variants={"injured": False}).joint.pmf
    assert not np.allclose(got, without, atol=1e-9)  # an injury is reached, and changes the play
