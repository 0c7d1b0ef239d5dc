"""The exact engine against the plain reference (fm_reference.py): every face of every die and every
reroll face, for up to 3 dice a side, every output to 1e-12."""

from __future__ import annotations

import random

import numpy as np
import pytest

import fm_reference as ref
from mathhammer import force_melee as fm


def _assert_table(actual: np.ndarray, expected: dict, what: str) -> None:
    """actual[index] == expected.get(index, 0) everywhere (expected keys may lie outside actual)."""
    for index, p in expected.items():
        index = index if isinstance(index, tuple) else (index,)
        inside = all(i < n for i, n in zip(index, actual.shape))
        got = float(actual[index]) if inside else 0.0
        assert abs(got - float(p)) < 1e-12, f"{what}{list(index)}: engine {got}, reference {p}"
    assert abs(float(actual.sum()) - float(sum(expected.values()))) < 1e-12, f"{what}: mass outside the reference"


def check_against_reference(a: fm.Side, b: fm.Side, sw: dict) -> None:
    result = fm.melee(a, b, method="exact", **sw)
    expected = ref.melee(a, b, sw)
    _assert_table(result.joint.pmf, expected["joint"], "joint")
    _assert_table(result.hits_joint.pmf, expected["hits"], "hits")
    _assert_table(result.casualties_joint.pmf, expected["casualties"], "casualties")
    for side, remaining in (("a", result.remaining_a), ("b", result.remaining_b)):
        table = np.array([_padded(d.pmf, 31) for d in remaining])
        _assert_table(table, expected[f"remaining_{side}"], f"remaining_{side}")
    more = sum(p for (ha, hb), p in expected["hits"].items() if ha > hb)
    tie = sum(p for (ha, hb), p in expected["hits"].items() if ha == hb)
    assert abs(result.p_a_more - float(more)) < 1e-12 and abs(result.p_tie - float(tie)) < 1e-12


def _padded(pmf: np.ndarray, n: int) -> np.ndarray:
    out = np.zeros(n)
    out[: pmf.size] = pmf
    return out


@pytest.mark.parametrize("winner_damage", fm.WINNER_DAMAGE)
@pytest.mark.parametrize("block", range(4))
def test_random_small_exchanges_match_every_face(winner_damage, block):
    rng = random.Random(f"brute-{winner_damage}-{block}")
    for _ in range(15):
        a = ref.random_side(rng, max_dice=3)
        b = ref.random_side(rng, max_dice=3)
        check_against_reference(a, b, ref.random_switches(rng, winner_damage))


@pytest.mark.parametrize("reroll", fm.REROLLS)
@pytest.mark.parametrize("sustained_mode", fm.SUSTAINED_MODES)
def test_rerolls_crits_and_bonus_every_face(reroll, sustained_mode):
    a = fm.Side(
        unit=fm.Unit(models=3, hp=3, current=[3, 1, 2]),
        weapon=fm.Weapon(hit=4, force=3, crit=5, sustained=2, critical_damage=1, bonus_flat=1, reroll=reroll),
        dice=3,
        hit_mod=1,
    )
    b = fm.Side(
        unit=fm.Unit(models=4, hp=2),
        weapon=fm.Weapon(hit=3, force=5, crit=3, sustained=1, critical_damage=2, reroll=reroll, kind="ranged", assault=True),
        dice=3,
        hit_mod=-2,
    )
    for winner_damage in fm.WINNER_DAMAGE:
        for allocation in fm.ALLOCATIONS:
            for bonus_always in (False, True):
                sw = dict(winner_damage=winner_damage, allocation=allocation, sustained_mode=sustained_mode,
                          bonus_always=bonus_always)
                check_against_reference(a, b, sw)


def test_reference_hit_roll_by_hand():
    # 4+ rerolling fails: P(hit) = 1/2 + 1/2 * 1/2 = 3/4; crits on 6: 1/6 + 1/2 * 1/6 = 1/4.
    side = fm.Side(fm.Unit(1), fm.Weapon(hit=4, force=1, reroll="fails"), dice=1)
    law = ref.roll_law(side, 1)
    assert law[(1, 1)] == ref.Fraction(1, 4) and law[(1, 0)] == ref.Fraction(1, 2) and law[(0, 0)] == ref.Fraction(1, 4)
    # 2+ at hit_mod -5 is clamped to 6+; rerolling ones: miss 5/6 - 1/6 + 1/6 * 5/6 = 29/36.
    side = fm.Side(fm.Unit(1), fm.Weapon(hit=2, force=1, reroll="ones"), dice=1, hit_mod=-5)
    assert ref.roll_law(side, 1)[(0, 0)] == ref.Fraction(29, 36)
