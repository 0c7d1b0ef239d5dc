"""The C++ resolution against a plain Python transcription of docs/rules/killteam.md §3 (fight_reference.py).

Random fixed-dice rounds with every fight ability and strategy: the whole action log and the final
wounds must agree. Then the exact engine against a sum written here over the exact attack-dice
table and the Python resolution.
"""

from __future__ import annotations

import itertools
import random
import sys
from pathlib import Path

import numpy as np
import pytest

from mathhammer import killteam as kt

sys.path.insert(0, str(Path(__file__).parent))
import fight_reference as ref  # noqa: E402

ABILITIES = {
    "storm_shield": "Storm Shield",
    "dueller": "Dueller",
    "duelist": "Duelist",
    "hammerhand": "Hammerhand",
    "jas": "Just a Scratch",
    "jas_normals": "Just a Scratch (normals)",
    "half_damage": "Half Damage First Strike",
    "durable": "Durable",
    "murderous_entrance": "Murderous Entrance",
}
RULES = {"brutal": "Brutal", "shock": "Shock"}


def random_fighter(rng: random.Random, attacks: int = 4, max_wounds: int = 14) -> tuple[kt.Fighter, frozenset]:
    names = set()
    for name in ABILITIES:
        if rng.random() < 0.18:
            names.add(name)
    for name in RULES:
        if rng.random() < 0.25:
            names.add(name)
    dn = rng.randint(0, 5)
    dc = rng.randint(dn, 7) if rng.random() < 0.85 else rng.randint(0, 7)
    fighter = kt.Fighter(
        attacks=attacks,
        hit=3,
        damage=(dn, dc),
        wounds=rng.randint(1, max_wounds),
        rules=", ".join(RULES[n] for n in sorted(names) if n in RULES),
        abilities=", ".join(ABILITIES[n] for n in sorted(names) if n in ABILITIES),
        strategy=rng.choice(kt.STRATEGIES),
    )
    return fighter, frozenset(names)


def guy(fighter: kt.Fighter, names: frozenset, dice: tuple[int, int], wounds: int | None = None) -> ref.Guy:
    return ref.Guy(
        crits=dice[0], norms=dice[1], wounds=fighter.wounds if wounds is None else wounds,
        dn=fighter.damage[0], dc=fighter.damage[1], strategy=fighter.strategy, abilities=names,
    )


def random_dice(rng: random.Random, attacks: int) -> tuple[int, int]:
    total = rng.randint(0, attacks)
    crits = rng.randint(0, total)
    return crits, total - crits


def comparable(log) -> list[tuple[str, str, int | None]]:
    """(side, kind, damage for strikes) without the effects the Python transcription does not log."""
    out = []
    for side, kind, value in log:
        if kind.startswith("shock_"):
            continue
        out.append((side, kind, value if kind.endswith("strike") else None))
    return out


@pytest.mark.parametrize("seed", range(8))
def test_random_rounds_match_the_transcription(seed):
    rng = random.Random(1000 + seed)
    for _ in range(150):
        a, names_a = random_fighter(rng)
        b, names_b = random_fighter(rng)
        da, db = random_dice(rng, 4), random_dice(rng, 4)
        first = rng.choice("ab")
        log = kt.resolve_fight(a, b, dice_a=da, dice_b=db, first=first)
        wa, wb, expected = ref.resolve_round(guy(a, names_a, da), guy(b, names_b, db), first)
        context = (str(a), str(b), da, db, first)
        assert (log.wounds_a, log.wounds_b) == (wa, wb), context
        assert comparable(log.actions) == expected, context


def test_bigger_pools_match_the_transcription():
    rng = random.Random(77)
    for _ in range(40):
        a, names_a = random_fighter(rng, attacks=6, max_wounds=25)
        b, names_b = random_fighter(rng, attacks=6, max_wounds=25)
        da, db = random_dice(rng, 6), random_dice(rng, 6)
        first = rng.choice("ab")
        log = kt.resolve_fight(a, b, dice_a=da, dice_b=db, first=first)
        wa, wb, expected = ref.resolve_round(guy(a, names_a, da), guy(b, names_b, db), first)
        assert (log.wounds_a, log.wounds_b) == (wa, wb), (str(a), str(b), da, db, first)
        assert comparable(log.actions) == expected


def _python_exact(a, names_a, b, names_b, first, rounds):
    """Sum over the exact attack-dice tables of the Python resolution, rounds recursing on wounds."""
    table_a = kt.attack_distribution(a)
    table_b = kt.attack_distribution(b)
    dice_a = [(c, n, table_a[c, n]) for c, n in itertools.product(range(13), range(13)) if table_a[c, n] > 0]
    dice_b = [(c, n, table_b[c, n]) for c, n in itertools.product(range(13), range(13)) if table_b[c, n] > 0]
    dist = {(a.wounds, b.wounds): 1.0}
    for _ in range(rounds):
        nxt: dict[tuple[int, int], float] = {}
        for (wa, wb), p in dist.items():
            if wa == 0 or wb == 0:
                nxt[(wa, wb)] = nxt.get((wa, wb), 0.0) + p
                continue
            for ca, na, pa in dice_a:
                for cb, nb, pb in dice_b:
                    ea, eb, _ = ref.resolve_round(guy(a, names_a, (ca, na), wa), guy(b, names_b, (cb, nb), wb), first)
                    nxt[(ea, eb)] = nxt.get((ea, eb), 0.0) + p * pa * pb
        dist = nxt
    joint = np.zeros((a.wounds + 1, b.wounds + 1))
    for (wa, wb), p in dist.items():
        joint[wa, wb] += p
    return joint


@pytest.mark.parametrize("seed", range(6))
def test_exact_engine_is_the_sum_over_dice_pairs(seed):
    rng = random.Random(500 + seed)
    a, names_a = random_fighter(rng, attacks=rng.randint(1, 3), max_wounds=12)
    b, names_b = random_fighter(rng, attacks=rng.randint(1, 3), max_wounds=12)
    rounds = 1 + seed % 3
    first = "ab"[seed % 2]
    result = kt.fight(a, b, first=first, rounds=rounds, method="exact")
    assert result.method == "exact"
    np.testing.assert_allclose(result.joint.pmf, _python_exact(a, names_a, b, names_b, first, rounds), atol=1e-12)
