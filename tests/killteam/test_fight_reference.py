"""The C++ resolution against a plain Python transcription of docs/rules/killteam.md §3 (fight_reference.py).

Random fixed-dice rounds with every fight ability and strategy: the whole action log and the final
wounds must agree. Then the exact engine against a sum written here over the exact attack-dice
table and the Python resolution.
"""

from __future__ import annotations

import dataclasses
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
    "crits_as_normal": "Crits as Normal Dmg",
}
RULES = {"brutal": "Brutal", "shock": "Shock"}
# the damage reductions (docs/rules/killteam.md §2.3), each drawn with its x
REDUCTIONS = {"reduce_normal": "Reduce Normal Dmg", "reduce_all": "Reduce Dmg"}


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
    reductions = [f"{REDUCTIONS[n]} {rng.randint(1, 6)}+" for n in REDUCTIONS if rng.random() < 0.12]
    fighter = kt.Fighter(
        attacks=attacks,
        hit=3,
        damage=(dn, dc),
        wounds=rng.randint(1, max_wounds),
        rules=", ".join(RULES[n] for n in sorted(names) if n in RULES),
        abilities=", ".join([ABILITIES[n] for n in sorted(names) if n in ABILITIES] + reductions),
        strategy=rng.choice(kt.STRATEGIES),
    )
    return fighter, frozenset(names)


def guy(fighter: kt.Fighter, names: frozenset, dice: tuple[int, int], wounds: int | None = None) -> ref.Guy:
    # the reductions' x as written in the fighter's text (read back through the profile's fields)
    abilities = fighter.abilities
    return ref.Guy(
        crits=dice[0], norms=dice[1], wounds=fighter.wounds if wounds is None else wounds,
        dn=fighter.damage[0], dc=fighter.damage[1], strategy=fighter.strategy, abilities=names,
        reduce_normal=abilities.reduce_normal_damage or 0, reduce_all=abilities.reduce_damage or 0,
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


def rolls(fighter: kt.Fighter, wounds: int) -> list[tuple[int, int, float]]:
    """The retained dice a fighter rolls in a round it starts on ``wounds``: injured below half its
    starting wounds (docs/rules/killteam.md §3.9), its Hit one worse (never past 6+)."""
    if 2 * wounds < fighter.wounds:
        fighter = dataclasses.replace(fighter, hit=min(6, fighter.hit + 1))
    table = kt.attack_distribution(fighter)
    return [(c, n, table[c, n]) for c, n in itertools.product(range(13), range(13)) if table[c, n] > 0]


def _python_exact(a, names_a, b, names_b, first, rounds):
    """Sum over the exact attack-dice tables of the Python resolution, rounds recursing on wounds."""
    dist = {(a.wounds, b.wounds): 1.0}
    for _ in range(rounds):
        nxt: dict[tuple[int, int], float] = {}
        for (wa, wb), p in dist.items():
            if wa == 0 or wb == 0:
                nxt[(wa, wb)] = nxt.get((wa, wb), 0.0) + p
                continue
            for ca, na, pa in rolls(a, wa):
                for cb, nb, pb in rolls(b, wb):
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


# ----------------------------------------------------------------------------------------------
# Feel No Pain and Saintly Relics: the transcription's exact chance expansion against the engine.


def chance_fighter(rng: random.Random, attacks: int, max_wounds: int) -> tuple[kt.Fighter, frozenset, int, int]:
    """A random fighter with Feel No Pain and/or Saintly Relics (and the other fight abilities)."""
    fighter, names = random_fighter(rng, attacks=attacks, max_wounds=max_wounds)
    fnp = rng.randint(2, 6) if rng.random() < 0.6 else 0
    relics = rng.choice([0, 1, 2]) if fnp else rng.choice([1, 2])
    extra = ([f"Feel No Pain {fnp}+"] if fnp else []) + [["", "Saintly Relics", "Saintly Relics (2D6)"][relics]]
    abilities = [x for x in [str(fighter.abilities), *extra] if x]
    return dataclasses.replace(fighter, abilities=", ".join(abilities)), names, fnp, relics


def chance_guy(fighter: kt.Fighter, names: frozenset, fnp: int, relics: int, dice: tuple[int, int],
               wounds: int | None = None, relic_uses: int = 0) -> ref.Guy:
    g = guy(fighter, names, dice, wounds)
    g.feel_no_pain, g.relics, g.relic_uses = fnp, relics, relic_uses
    return g


def one_hot(dice: tuple[int, int]) -> np.ndarray:
    table = np.zeros((13, 13))
    table[dice] = 1.0
    return table


def test_chance_fighters_cover_both_abilities():
    rng = random.Random(2024)
    drawn = [chance_fighter(rng, 4, 12) for _ in range(60)]
    assert {f for *_, f, _ in drawn} == {0, 2, 3, 4, 5, 6} and {r for *_, r in drawn} == {0, 1, 2}
    assert any(f and r for *_, f, r in drawn)
    assert kt.Fighter(3, 3, abilities="Feel No Pain 5+, Saintly Relics (2D6)").abilities.saintly_relics == 2


@pytest.mark.parametrize("seed", range(6))
def test_fixed_dice_with_feel_no_pain_and_relics_match_the_transcription(seed):
    from mathhammer import _core
    from mathhammer.killteam.plan import fight_spec

    rng = random.Random(3000 + seed)
    for _ in range(40):
        a, names_a, fnp_a, relics_a = chance_fighter(rng, 4, 12)
        if rng.random() < 0.5:
            b, names_b, fnp_b, relics_b = chance_fighter(rng, 4, 12)
        else:
            b, names_b = random_fighter(rng, attacks=4, max_wounds=12)
            fnp_b = relics_b = 0
        da, db = random_dice(rng, 4), random_dice(rng, 4)
        first = rng.choice("ab")
        expected = np.zeros((a.wounds + 1, b.wounds + 1))
        outcomes = ref.round_outcomes(chance_guy(a, names_a, fnp_a, relics_a, da),
                                      chance_guy(b, names_b, fnp_b, relics_b, db), first)
        for (wa, wb, _, _), p in outcomes.items():
            expected[wa, wb] += p
        got, _ = _core.killteam.fight_exact(fight_spec(a, b, first), one_hot(da), one_hot(db), 1)
        assert np.abs(np.asarray(got) - expected).max() < 1e-12, (str(a), str(b), da, db, first)


def _python_exact_with_chance(a, names_a, fnp_a, relics_a, b, names_b, fnp_b, relics_b, first, rounds):
    """As _python_exact, the state carrying each side's relic ignores spent this fight."""
    dist = {(a.wounds, b.wounds, 0, 0): 1.0}
    for _ in range(rounds):
        nxt: dict[tuple[int, int, int, int], float] = {}
        for (wa, wb, ua, ub), p in dist.items():
            if wa == 0 or wb == 0:
                nxt[(wa, wb, ua, ub)] = nxt.get((wa, wb, ua, ub), 0.0) + p
                continue
            for ca, na, pa in rolls(a, wa):
                for cb, nb, pb in rolls(b, wb):
                    ga = chance_guy(a, names_a, fnp_a, relics_a, (ca, na), wa, ua)
                    gb = chance_guy(b, names_b, fnp_b, relics_b, (cb, nb), wb, ub)
                    for key, q in ref.round_outcomes(ga, gb, first).items():
                        nxt[key] = nxt.get(key, 0.0) + p * pa * pb * q
        dist = nxt
    joint = np.zeros((a.wounds + 1, b.wounds + 1))
    for (wa, wb, _, _), p in dist.items():
        joint[wa, wb] += p
    return joint


@pytest.mark.parametrize("seed", range(8))
def test_exact_engine_with_feel_no_pain_and_relics_is_the_sum_over_dice_and_rolls(seed):
    rng = random.Random(800 + seed)
    rounds = 1 + seed % 3
    most = 3 if rounds < 3 else 2  # keeps the plain Python expansion to a second or so
    a, names_a, fnp_a, relics_a = chance_fighter(rng, rng.randint(1, most), 10)
    b, names_b, fnp_b, relics_b = chance_fighter(rng, rng.randint(1, most), 10)
    if seed % 2:  # half the fights: only one side rolls
        b, names_b = random_fighter(rng, attacks=rng.randint(1, most), max_wounds=10)
        fnp_b = relics_b = 0
    first = "ab"[seed // 2 % 2]
    result = kt.fight(a, b, first=first, rounds=rounds, method="exact")
    assert result.method == "exact"
    want = _python_exact_with_chance(a, names_a, fnp_a, relics_a, b, names_b, fnp_b, relics_b, first, rounds)
    np.testing.assert_allclose(result.joint.pmf, want, atol=1e-12, rtol=0)


def test_the_defences_against_shooting_rules_leave_a_fight_as_it_was():
    # docs/rules/killteam.md §2.3: Piercing and Saturate act in shots only, and the texts of the other
    # ignored rules name shooting attacks
    shot_only = ", ".join(row.notation for _, row in kt.Abilities.TABLE.rows()
                          if row.section == "§2.3" and row.kind == "flag")
    assert shot_only.count(",") == 5
    a = kt.Fighter(4, 3, (3, 4), 10, "Lethal 4+, Rending, Severe")
    b = kt.Fighter(4, 4, (4, 5), 9, strategy="parry")
    plain = kt.fight(a, b, rounds=2, method="exact").joint.pmf
    guarded = kt.fight(a, dataclasses.replace(b, abilities=shot_only), rounds=2, method="exact").joint.pmf
    assert np.array_equal(plain, guarded)
