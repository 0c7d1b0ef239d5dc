"""Documented properties of the rules: the non-monotonic "once" reading, monotonic per_hit / pairing,
symmetry, normalisation, bonus riding on base damage, allocation."""

from __future__ import annotations

import itertools
import random

import numpy as np
import pytest

import fm_reference as ref
from mathhammer import force_melee as fm

STRONG = fm.Side(fm.Unit(5), fm.Weapon(hit=4, force=5), dice=4)
WEAK = fm.Side(fm.Unit(5), fm.Weapon(hit=4, force=1), dice=4)


# --- "once" is not monotonic, on purpose (docs/rules/force_melee.md §2.2) ------------------------------------------


def test_once_a_tie_can_deal_more_than_a_win():
    """Force 5 vs 1: a 3-3 tie deals (5 - 1) x 3 = 12, a 4-3 win deals the winner's Force, 5.
    This is the seed read literally; do not "fix" it without changing the spec."""
    tie = fm.resolve(STRONG, WEAK, 3, 3, winner_damage="once")
    win = fm.resolve(STRONG, WEAK, 4, 3, winner_damage="once")
    assert (tie.damage_to_b, tie.damage_to_a) == (12, 0)
    assert (win.damage_to_b, win.damage_to_a) == (5, 0)
    assert tie.damage_to_b > win.damage_to_b


def test_excess_is_not_monotonic_either():
    tie = fm.resolve(STRONG, WEAK, 3, 3, winner_damage="excess")
    win = fm.resolve(STRONG, WEAK, 4, 3, winner_damage="excess")
    assert tie.damage_to_b == 12 and win.damage_to_b == 5


def test_once_non_monotonic_in_the_whole_distribution():
    # 3 dice each at 4+: damage 12 to B happens exactly on a 3-3 tie, (1/8)^2.
    a = STRONG.replace(dice=3)
    b = WEAK.replace(dice=3)
    r = fm.melee(a, b)
    assert r.damage_b.prob(12) == pytest.approx(1 / 64, abs=1e-15)
    assert r.damage_b.max == 12  # more than any win ever deals (5)


@pytest.mark.parametrize("winner_damage", ["per_hit", "pairing"])
@pytest.mark.parametrize("forces", [(5, 1), (1, 5), (3, 3), (0, 4), (7, 2)])
def test_per_hit_and_pairing_are_monotonic(winner_damage, forces):
    """One more hit for A never lowers the damage A deals nor raises the damage A takes."""
    a = fm.Side(fm.Unit(5), fm.Weapon(hit=4, force=forces[0]), dice=8)
    b = fm.Side(fm.Unit(5), fm.Weapon(hit=4, force=forces[1]), dice=8)
    for hb in range(9):
        previous = None
        for ha in range(9):
            out = fm.resolve(a, b, ha, hb, winner_damage=winner_damage)
            if previous is not None:
                assert out.damage_to_b >= previous.damage_to_b, (ha, hb)
                assert out.damage_to_a <= previous.damage_to_a, (ha, hb)
            previous = out


def test_pairing_lets_a_stronger_loser_deal_damage():
    # A wins 4-2 with Force 1; B has Force 5: the two pairs hurt A by 4 each; two unpaired A hits deal 1 each.
    out = fm.resolve(WEAK, STRONG, 4, 2, winner_damage="pairing")
    assert (out.damage_to_a, out.damage_to_b) == (8, 2)


# --- ties, Force 0, bonus ---------------------------------------------------------------------------


def test_ties_and_zero_zero():
    assert fm.resolve(STRONG, WEAK, 0, 0) == (0, 0, 0, 0)  # FM-4
    same = fm.Side(fm.Unit(5), fm.Weapon(hit=4, force=5), dice=4)
    assert fm.resolve(STRONG, same, 2, 2)[:2] == (0, 0)  # equal Force: no damage
    assert fm.resolve(WEAK, STRONG, 2, 2)[:2] == (8, 0)  # the lower-Force side takes the difference


def test_force_zero_winner_deals_nothing_and_no_bonus():
    zero = fm.Side(fm.Unit(5), fm.Weapon(hit=4, force=0, sustained=2, bonus_flat=3), dice=4)
    assert fm.resolve(zero, WEAK, 3, 1)[:2] == (0, 0)


def test_bonus_rides_on_base_damage_only():
    bonus = fm.Side(fm.Unit(5), fm.Weapon(hit=4, force=2, sustained=1, critical_damage=2, bonus_flat=3), dice=4)
    # win 3-1 with 1 crit: Force 2 + flat 3 + sustained 1 x 3 hits + critical 2 x 1 crit = 10
    assert fm.resolve(bonus, WEAK, 3, 1, crits_a=1).damage_to_b == 10
    # loses 1-3: no base damage, no bonus
    assert fm.resolve(bonus, WEAK, 1, 3, crits_a=1).damage_to_b == 0
    # bonus_always: the flat bonus still lands, the per-hit and per-crit parts do not
    assert fm.resolve(bonus, WEAK, 1, 3, crits_a=1, bonus_always=True).damage_to_b == 3
    # extra_hits: 1 hit + 1 crit x sustained 1 = 2 hits compared; ties WEAK's 2 -> (2 - 1) x 2, + flat + crit
    out = fm.resolve(bonus, WEAK, 1, 2, crits_a=1, sustained_mode="extra_hits")
    assert out.hits_a == 2 and out.damage_to_b == 2 + 3 + 2


def test_side_without_dice_cannot_strike_back():
    a = fm.example("line_troopers")
    b = fm.example("militia").replace(dice=0)
    r = fm.melee(a, b, bonus_always=True)
    assert r.damage_a.max == 0 and abs(r.damage_a.prob(0) - 1) < 1e-15 and r.p_b_more == 0.0


# --- whole distributions ---------------------------------------------------------------------------------


def test_swapping_sides_swaps_results():
    rng = random.Random("swap")
    for _ in range(30):
        a, b = ref.random_side(rng, 8), ref.random_side(rng, 8)
        sw = ref.random_switches(rng)
        ab, ba = fm.melee(a, b, **sw), fm.melee(b, a, **sw)
        assert np.allclose(ab.joint.pmf, ba.joint.pmf.T, atol=1e-14, rtol=0)
        assert np.allclose(ab.casualties_joint.pmf, ba.casualties_joint.pmf.T, atol=1e-14, rtol=0)
        assert abs(ab.p_a_more - ba.p_b_more) < 1e-14 and abs(ab.wiped("a") - ba.wiped("b")) < 1e-14


def test_probabilities_are_normalised_and_damage_bounded():
    rng = random.Random("norm")
    for _ in range(30):
        a, b = ref.random_side(rng, 20, 30, 30), ref.random_side(rng, 20, 30, 30)
        sw = ref.random_switches(rng)
        r = fm.melee(a, b, **sw)
        for dist in (r.damage_a, r.damage_b, r.hits_a, r.hits_b, r.casualties_a, r.casualties_b, *r.remaining_a):
            assert abs(dist.pmf.sum() - 1) < 1e-12 and dist.pmf.min() >= 0
        assert r.hits_a.max <= a.dice * (1 + (a.weapon.sustained if sw["sustained_mode"] == "extra_hits" else 0))
        assert abs(r.p_a_more + r.p_tie + r.p_b_more - 1) < 1e-12
        # no side loses more models than it has, nor more HP than it has
        assert r.casualties_a.max <= a.unit.models
        for k, dist in enumerate(r.remaining_a):
            assert dist.max <= a.unit.hp


def test_vehicle_flag_changes_nothing():
    walker = fm.example("walker")
    plain = walker.replace(unit={"vehicle": False})
    assert fm.melee(walker, fm.example("line_troopers")).to_dict()["joint"] == \
        fm.melee(plain, fm.example("line_troopers")).to_dict()["joint"]


def test_assault_ranged_weapon_fights_like_a_melee_weapon():
    carbines = fm.example("carbine_squad")
    as_melee = carbines.replace(weapon={"kind": "melee", "assault": False})
    militia = fm.example("militia")
    assert fm.melee(carbines, militia).joint == fm.melee(as_melee, militia).joint


# --- allocation --------------------------------------------------------------------------------------


def test_allocation_wounded_first_then_owner_order():
    unit = fm.Unit(models=4, hp=3, current=[3, 2, 3, 1])
    assert fm.allocate(unit, 2) == fm.AllocationResult(1, (1, 3, 3), 0)  # the 2-HP model, first wounded
    assert fm.allocate(unit, 3) == fm.AllocationResult(2, (3, 3), 0)  # then the 1-HP model
    assert fm.allocate(unit, 4) == fm.AllocationResult(2, (2, 3), 0)  # then the first unwounded
    assert fm.allocate(unit, 20) == fm.AllocationResult(4, (), 11)
    assert fm.allocate(unit, 5, "no_spill") == fm.AllocationResult(1, (1, 3, 3), 3)


def test_allocation_of_several_lumps_in_order():
    unit = fm.Unit(models=3, hp=4)
    # no_spill: each lump stays in one model
    assert fm.allocate(unit, [6, 1, 6], "no_spill") == fm.AllocationResult(2, (4,), 5)
    # spill: the lumps add up
    assert fm.allocate(unit, [6, 1, 2], "spill") == fm.allocate(unit, 9, "spill")


def test_allocation_agrees_with_the_plain_reference():
    rng = random.Random("alloc")
    for _ in range(300):
        models, hp = rng.randint(1, 8), rng.randint(1, 6)
        current = [rng.randint(1, hp) for _ in range(models)] if rng.random() < 0.6 else None
        unit = fm.Unit(models, hp, current)
        lumps = [rng.randint(0, 12) for _ in range(rng.randint(1, 4))]
        allocation = rng.choice(fm.ALLOCATIONS)
        hp_now, lost = list(unit.hp_now), 0
        for lump in lumps:
            hp_now, more = ref.allocate(unit, hp_now, lump, allocation)
            lost += more
        order = ref.allocation_order(unit)
        survivors = [hp_now[i] for i in order if hp_now[i] > 0]
        # survivors listed wounded first
        survivors = [h for h in survivors if h < hp] + [h for h in survivors if h == hp]
        got = fm.allocate(unit, lumps, allocation)
        assert got == fm.AllocationResult(hp_now.count(0), tuple(survivors), lost), (unit, lumps, allocation)


def test_every_switch_combination_runs():
    a, b = fm.example("walker"), fm.example("line_troopers")
    for wd, al, sm, ba in itertools.product(fm.WINNER_DAMAGE, fm.ALLOCATIONS, fm.SUSTAINED_MODES, (False, True)):
        r = fm.melee(a, b, winner_damage=wd, allocation=al, sustained_mode=sm, bonus_always=ba)
        assert abs(r.joint.pmf.sum() - 1) < 1e-12
