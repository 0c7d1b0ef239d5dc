"""An independent review of the StarCraft TMG engine against docs/rules/starcraft.md and the
damage-calculator description (docs/rules/starcraft.md §9.1): small cases whose result is worked out by hand from the spec
(the derivation is in the comment above each assertion), aimed at misreadings a test written by
the engine's author would share."""

from __future__ import annotations

from fractions import Fraction

import pytest

from mathhammer import starcraft as sc

LIGHT = ("Biological", "Light", "Ground")
MARINES = sc.Unit(6, 2, 5, 5, tags=LIGHT)  # HP 2, Armour 5+, Evade 5+
NATURAL = {"critical_hit": "natural"}


def _approx(value: Fraction | int) -> object:
    return pytest.approx(float(Fraction(value)), abs=1e-14)


def test_step_functions_clamp_and_natural_faces() -> None:
    # §2.1: clamp(base - roll_mod + penalty, 2, 6).
    assert sc.rules.final_target(6, -3) == 6  # 9 -> 6: a natural 6 still succeeds
    assert sc.rules.final_target(2, 3) == 2  # -1 -> 2: a natural 1 still fails
    assert sc.rules.final_target(4, 1, 2) == 5  # 4 - 1 + 2
    # p_success = (7 - clamp(target, 2, 6)) / 6 for ANY integer target.
    assert sc.rules.p_success(7) == _approx(Fraction(1, 6))
    assert sc.rules.p_success(12) == _approx(Fraction(1, 6))
    assert sc.rules.p_success(1) == _approx(Fraction(5, 6))
    assert sc.rules.p_success(-3) == _approx(Fraction(5, 6))
    assert sc.rules.p_success(4) == _approx(Fraction(1, 2))
    # §2.2: D3 = ceil(face / 2); D3+1 = D3 + 1; D6 = face.
    assert [sc.rules.surge_value("D3", f) for f in range(1, 7)] == [1, 1, 2, 2, 3, 3]
    assert [sc.rules.surge_value("D3+1", f) for f in range(1, 7)] == [2, 2, 3, 3, 4, 4]
    assert [sc.rules.surge_value("D6", f) for f in range(1, 7)] == [1, 2, 3, 4, 5, 6]
    # §2.3: hits + min(x, dice - hits): 3 + min(4, 2) = 5; 3 + min(1, 2) = 4.
    assert sc.rules.precision_hits(5, 3, 4) == 5
    assert sc.rules.precision_hits(5, 3, 1) == 4
    # §2.4: max(0, min(hits, surge + crit) - dodge): cap first, then Dodge.
    assert sc.rules.bypass(2, 3, 1, 1) == 1  # min(2, 4) - 1 (Dodge first would give min(2, 3) = 2)
    assert sc.rules.bypass(3, 1, 1, 5) == 0
    assert sc.rules.bypass(4, 0, 0, 0) == 0
    # §2.5: max(0, fails - x).
    assert sc.rules.tough(2, 3) == 0
    assert sc.rules.tough(5, 2) == 3


def test_weapon_pool_clamps_per_model_then_adds_dice_mod() -> None:
    # §3.0: each model adds max(0, 1 - 3) = 0; dice_mod +2 is added last: 2 dice.
    gun = sc.Weapon(1, 4, 1)
    assert sc.resolve(gun, MARINES, 1, firing_models=2, roa_mod=-3, dice_mod=2).dice == 2


def test_burst_models_default_to_all_normal_range_models() -> None:
    # §3.0: burst_models defaults to all normal-range models. 3 firing, 1 at long range:
    # 2 normal models x (2 + 1 Burst Fire) = 6 dice at 4+, 1 long-range model x 2 = 2 dice at 5+.
    gun = sc.Weapon(2, 4, 1, keywords='BURST FIRE 6" (1), LONG RANGE (24")')
    trace = sc.resolve(gun, MARINES, 4, firing_models=3, long_range_models=1)
    # Every die shows 4: the 6 normal-range dice hit, the 2 long-range dice (5+) miss.
    assert (trace.dice, trace.hits) == (8, 6)


def test_positive_dice_mod_joins_the_normal_range_group() -> None:
    # 1 model at long range (1 die at 5+); dice_mod +1 adds a normal-range die (4+), rolled first.
    # Faces 4, 4: the normal-range die hits, the long-range die misses -> 1 hit.
    gun = sc.Weapon(1, 4, 1, long_range=True)
    trace = sc.resolve(gun, MARINES, [4, 4, 1, 1], long_range_models=1, dice_mod=1)
    assert (trace.dice, trace.hits) == (2, 1)


def test_long_range_at_hit_six_still_hits_on_a_natural_six() -> None:
    # Hit 6 at long range: final_target(6, 0, 1) = clamp(7) = 6, so P(hit) = 1/6, not 0.
    gun = sc.Weapon(1, 6, 1, long_range=True)
    far = sc.attack(gun, sc.Unit(5, 1, 6), long_range_models=1)
    assert far.stages.hits.prob(1) == _approx(Fraction(1, 6))


def test_armour_and_evade_clamps_keep_natural_sixes() -> None:
    # One die at 2+ (5/6). Armour 6+ with armour_mod -2 -> clamp(8) = 6: fails 5/6.
    # Evade 5+ with ANTI-EVADE (3) -> clamp(8) = 6: evades 1/6, so it fails to evade 5/6.
    # P(damage 1) = 5/6 * 5/6 * 5/6 = 125/216 (an Evade made impossible would give 25/36).
    gun = sc.Weapon(1, 2, 1, keywords="ANTI-EVADE (3)")
    target = sc.Unit(5, 1, 6, 5)
    result = sc.attack(gun, target, armour_mod=-2)
    assert result.damage.prob(1) == _approx(Fraction(125, 216))
    # Evade 4+ with a +3 Evade modifier -> clamp(1) = 2: evades 5/6 (a natural 1 fails).
    # P(damage 1) = 5/6 (hit) * 5/6 (Armour 6+ fails) * 1/6 (Evade fails) = 25/216.
    easy = sc.attack(sc.Weapon(1, 2, 1), sc.Unit(5, 1, 6, 4), evade_mod=3)
    assert easy.damage.prob(1) == _approx(Fraction(25, 216))


def test_natural_critical_hit_needs_the_die_to_hit_in_its_range_group() -> None:
    # critical_hit="natural": only Armour Pool dice showing exactly C bypass.
    # A long-range die hits on 4+ (3+ then -1): a natural 3 misses, so CRITICAL HIT (3) never fires.
    gun3 = sc.Weapon(1, 3, 1, long_range=True, critical_hit=3)
    far3 = sc.attack(gun3, sc.Unit(5, 1, 6), long_range_models=1, rules=NATURAL)
    assert far3.stages.bypass.prob(0) == _approx(1)
    # At normal range the natural 3 hits and bypasses: 1/6.
    near3 = sc.attack(gun3, sc.Unit(5, 1, 6), rules=NATURAL)
    assert near3.stages.bypass.prob(1) == _approx(Fraction(1, 6))
    # CRITICAL HIT (4) at long range: a natural 4 hits (4+) and bypasses: 1/6.
    gun4 = sc.Weapon(1, 3, 1, long_range=True, critical_hit=4)
    far4 = sc.attack(gun4, sc.Unit(5, 1, 6), long_range_models=1, rules=NATURAL)
    assert far4.stages.bypass.prob(1) == _approx(Fraction(1, 6))
    # A +1 to hit turns Hit 4+ into 3+: a natural 3 now hits and bypasses with CRITICAL HIT (3).
    gun = sc.Weapon(1, 4, 1, critical_hit=3)
    assert sc.attack(gun, sc.Unit(5, 1, 6), hit_mod=1, rules=NATURAL).stages.bypass.prob(1) == _approx(Fraction(1, 6))
    assert sc.attack(gun, sc.Unit(5, 1, 6), rules=NATURAL).stages.bypass.prob(0) == _approx(1)


def test_natural_critical_hit_one_only_through_precision() -> None:
    # Hit 4+, PRECISION (1), CRITICAL HIT (1) natural, one die; target Armour 6+, no Evade.
    # Face 1: a miss, promoted (it shows C first), a critical hit: bypasses -> 1 damage.   1/6
    # Faces 2, 3: a miss, promoted, rolls Armour (fails 5/6).                              2/6
    # Faces 4, 5, 6: a hit, not showing 1, rolls Armour (fails 5/6).                       3/6
    # P(bypass 1) = 1/6; P(damage 1) = 1/6 + 5/6 * 5/6 = 31/36; the die always reaches the pool.
    gun = sc.Weapon(1, 4, 1, precision=1, critical_hit=1)
    result = sc.attack(gun, sc.Unit(5, 1, 6), rules=NATURAL)
    assert result.stages.hits.prob(1) == _approx(1)
    assert result.stages.bypass.prob(1) == _approx(Fraction(1, 6))
    assert result.damage.prob(1) == _approx(Fraction(31, 36))


def test_template_main_target_surge_is_affected_models_without_a_die() -> None:
    # BT+1 against Marines (Light) with 2 models under the template: 2 + 1 = 3 dice at 4+.
    # Hit faces 6 5 1: 2 hits. Surge = 2 affected models (no die consumed); CRITICAL HIT (1) counted:
    # min(2, 2 + 1) = 2, one Dodge -> 1 bypasses. Armour: 1 die shows 4, fails at 5+.
    # Damage pool 1 + 1 = 2; Evade 1 1: none evade; 2 damage removes one Marine (HP 2).
    cannon = sc.Weapon("BT+1", 4, 1, surge_tags=("Light", "Armoured"), critical_hit=1)
    trace = sc.resolve(cannon, MARINES, [6, 5, 1, 4, 1, 1], affected_models=2, dodge=1)
    assert (trace.dice, trace.hits, trace.surge, trace.bypass, trace.armour_fails) == (3, 2, 2, 1, 1)
    assert (trace.damage_pool, trace.evaded, trace.inflicting, trace.damage) == (2, 0, 2, 2)
    assert (trace.casualties, trace.marker, trace.faces_used) == (1, 0, 6)


def test_surge_tag_matching_and_critical_hit_without_surge() -> None:
    # Surge needs one of the tags; "Armored" is accepted for Armoured. D3+1 on face 1 = 2.
    # 3 dice at 2+ all hit (2 2 2); Surge die 1 -> 2 bypass; 1 Armour die (4 at 3+: saves).
    armoured = sc.Unit(3, 4, 3, tags=("Armoured", "Ground"))
    gun = sc.Weapon(3, 2, 1, surge_tags=("Armored",), surge_dice="D3+1")
    trace = sc.resolve(gun, armoured, [2, 2, 2, 1, 4])
    assert (trace.surge, trace.bypass, trace.armour_fails, trace.damage, trace.faces_used) == (2, 2, 0, 2, 5)
    # No matching tag: no Surge die is consumed, but CRITICAL HIT (1) (count) still moves one die.
    # 3 hits; Crit 1 bypasses; Armour 2 2 at 3+: both fail -> 3 dice, 3 damage, 0 casualties (HP 4).
    light_only = sc.Weapon(3, 2, 1, surge_tags=("Light",), surge_dice="D6", critical_hit=1)
    trace = sc.resolve(light_only, armoured, [2, 2, 2, 2, 2])
    assert (trace.surge, trace.bypass, trace.armour_fails, trace.damage) == (0, 1, 2, 3)
    assert (trace.casualties, trace.marker, trace.faces_used) == (0, 3, 5)


def test_dodge_is_one_budget_after_the_cap() -> None:
    # One hit (face 3 at 2+); Surge D6 face 6 = 6, CRITICAL HIT (2): min(1, 6 + 2) = 1; Dodge 2 -> 0.
    # (Dodge on the uncapped total would leave max(0, 8 - 2) = 6 -> 1 bypass.)
    # The die stays in the Armour Pool: face 5 saves at 5+. Nothing gets through.
    gun = sc.Weapon(1, 2, 1, surge_tags=("Light",), surge_dice="D6", critical_hit=2)
    trace = sc.resolve(gun, MARINES, [3, 6, 5], dodge=2)
    assert (trace.hits, trace.surge, trace.bypass, trace.armour_fails, trace.damage) == (1, 6, 0, 0, 0)
    assert trace.faces_used == 3


def test_exact_surge_with_dodge_one_die() -> None:
    # C-14-like rifle (2 -> 1 die, 3+) into Marines with Dodge 1: the die hits 4/6; Surge D3 >= 1
    # always matches but min(1, s) - 1 = 0, so it rolls Armour 5+ (fails 4/6) and Evade 5+ (fails 4/6).
    # P(damage 1) = (4/6)^3 = 8/27. Without Dodge: it bypasses, so P = 4/6 * 4/6 = 4/9.
    rifle = sc.Weapon(1, 3, 1, surge_tags=("Light",), surge_dice="D3")
    assert sc.attack(rifle, MARINES, dodge=1).damage.prob(1) == _approx(Fraction(8, 27))
    assert sc.attack(rifle, MARINES).damage.prob(1) == _approx(Fraction(4, 9))


def test_unit_tough_and_granted_tough_stack() -> None:
    # 3 dice at 2+ (2 2 2), Armour 6+: 1 1 1 -> 3 fails. Unit Tough 1 + granted 1:
    # sum -> 2 saved, 1 fail; max -> 1 saved, 2 fails.
    target = sc.Unit(10, 1, 6, tough=1)
    gun = sc.Weapon(3, 2, 1)
    assert sc.resolve(gun, target, [2, 2, 2, 1, 1, 1], tough=1).armour_fails == 1
    assert sc.resolve(gun, target, [2, 2, 2, 1, 1, 1], tough=1, rules={"stacking": "max"}).armour_fails == 2


def test_damage_setters_replace_the_weapon_damage() -> None:
    # §3.5: setters replace the weapon's damage; several -> the largest; then caps.
    armoured = sc.Unit(3, 4, 3, tags=("Armoured",))
    gun = sc.Weapon(1, 2, 3, keywords="PIERCE Armored (1)")
    assert sc.attack(gun, armoured).damage_per_die == 1  # Pierce 1 replaces Damage 3
    assert sc.attack(gun, armoured, damage_set=2).damage_per_die == 2  # largest setter 2, not Damage 3
    assert sc.attack(gun, armoured, damage_set=2, damage_cap=5).damage_per_die == 2  # a cap never raises
    assert sc.attack(gun, sc.Unit(3, 4, 3, tags=("Light",))).damage_per_die == 3  # no tag: no Pierce
    # A reaction cap and an option cap: the smallest.
    assert sc.attack(sc.Weapon(1, 2, 4), armoured, damage_cap=3, reaction={"damage_cap": 2}).damage_per_die == 2


def test_first_model_needs_hp_plus_shield_even_after_shielded_is_lost() -> None:
    # §4.5: need = hp + shield for the first model while first_model_alive (not while Shielded);
    # the seed: "Losing Shielded Status does not remove remaining Hit Points."
    unit = sc.Unit(2, 2, 5, shield=3, shielded=False)
    four = sc.rules.allocate(unit, 4)  # 4 < 2 + 3: no casualty, 4 on the marker
    assert (four.casualties, four.marker, four.first_model_alive) == (0, 4, True)
    five = sc.rules.allocate(unit, 5)  # 5 = 2 + 3: the first model goes, nothing left
    assert (five.casualties, five.marker, five.first_model_alive) == (1, 0, False)


def test_shielded_is_lost_on_total_damage_including_the_marker() -> None:
    # §4.2/4.3: TD = damage + marker - reduction; Shielded lost when TD > shield.
    marked = sc.Unit(2, 2, 5, shield=3, marker=2)
    kept = sc.rules.allocate(marked, 1)  # TD 3, not > 3
    assert (kept.shielded, kept.shield_lost, kept.marker) == (True, False, 3)
    lost = sc.rules.allocate(marked, 2)  # TD 4 > 3 though this attack did only 2; need 5: no casualty
    assert (lost.shielded, lost.shield_lost, lost.casualties, lost.marker) == (False, True, 0, 4)
    # A reduction applies before the comparison: 4 - 2 = 2, kept.
    reduced = sc.rules.allocate(sc.Unit(2, 2, 5, shield=3), 4, td_reduction=2)
    assert (reduced.shielded, reduced.marker) == (True, 2)
    # leftover="lost": Shielded still goes (TD 4 > 3), the marker is discarded.
    seed = sc.rules.allocate(sc.Unit(2, 2, 5, shield=3), 4, rules={"leftover": "lost"})
    assert (seed.shielded, seed.casualties, seed.marker) == (False, 0, 0)


def test_total_damage_floor_and_zero_damage() -> None:
    unit = sc.Unit(3, 2, 5)
    # §4.1: attack_damage 0 -> nothing changes, the floor included.
    assert sc.rules.allocate(unit, 0, td_floor=1).marker == 0
    # §4.2: max(1, 1 - 3) = 1.
    assert sc.rules.allocate(unit, 1, td_reduction=3, td_floor=1).marker == 1
    # No floor: max(0, 1 + 1 - 5) = 0; the old marker is eaten.
    assert sc.rules.allocate(sc.Unit(3, 2, 5, marker=1), 1, td_reduction=5).marker == 0
    # Through an attack: HITS 1 (1) into Armour 2+ fails 1/6. With reduction 1 and floor 1 a fail
    # leaves TD 1 on the marker; no fail -> damage 0 -> nothing (the floor does not apply).
    result = sc.attack(None, sc.Unit(3, 2, 2), mode="hits", hits=(1, 1), td_reduction=1, td_floor=1)
    assert result.marker.prob(1) == _approx(Fraction(1, 6))
    assert result.marker.prob(0) == _approx(Fraction(5, 6))


def test_casualty_caps_discard_leftover_only_when_reached() -> None:
    # CONCENTRATED FIRE (1): marker 1 + 2 = 3, remove one (HP 2), cap reached -> leftover 1 discarded.
    marked = sc.Unit(3, 2, 5, marker=1)
    cf = sc.rules.allocate(marked, 2, concentrated_fire=1)
    assert (cf.casualties, cf.marker) == (1, 0)
    # Cap not reached: 1 damage stays on the marker.
    assert sc.rules.allocate(sc.Unit(3, 2, 5), 1, concentrated_fire=1).marker == 1
    # Visible 2: 5 damage removes 2, cap reached -> the last 1 is discarded.
    vis = sc.rules.allocate(sc.Unit(3, 2, 5), 5, visible_models=2)
    assert (vis.casualties, vis.marker) == (2, 0)
    # Engaged ignores visibility: cap 3 not reached, 1 stays.
    eng = sc.rules.allocate(sc.Unit(3, 2, 5), 5, visible_models=2, engaged=True)
    assert (eng.casualties, eng.marker) == (2, 1)
    # The weapon's CONCENTRATED FIRE through an attack: HITS 3 (2) into Armour 6+ HP 1 models, every
    # die fails: 6 damage, but one casualty and nothing on the marker.
    gun = sc.Weapon(1, 2, 1, keywords="CONCENTRATED FIRE (1)")
    trace = sc.resolve(gun, sc.Unit(5, 1, 6), [1, 1, 1], mode="hits", hits=(3, 2))
    assert (trace.damage, trace.casualties, trace.marker) == (6, 1, 0)


def test_instant_ignores_reaction_grants_but_not_the_options() -> None:
    # HITS 2 (1) into Armour 6+ Tough 0, faces 1 1: 2 fails, 2 damage, HP 1 models.
    # INSTANT: reaction td_reduction 1 and tough 1 ignored, the option td_reduction 1 applies:
    # TD 2 - 1 = 1 -> 1 casualty. Not INSTANT: Tough 1 leaves 1 fail, 1 damage, TD 1 - 2 = 0.
    target = sc.Unit(5, 1, 6)
    reaction = {"td_reduction": 1, "tough": 1}
    instant = sc.Weapon(1, 2, 1, keywords="INSTANT")
    plain = sc.Weapon(1, 2, 1)
    fast = sc.resolve(instant, target, [1, 1], mode="hits", hits=(2, 1), td_reduction=1, reaction=reaction)
    assert (fast.armour_fails, fast.damage, fast.casualties) == (2, 2, 1)
    slow = sc.resolve(plain, target, [1, 1], mode="hits", hits=(2, 1), td_reduction=1, reaction=reaction)
    assert (slow.armour_fails, slow.damage, slow.casualties, slow.marker) == (1, 1, 0, 0)


def test_spillover_ignores_granted_precision_and_critical_hit() -> None:
    # Spillover: affected 3 + dice_mod 0 = 3 dice at 4+; faces 1 1 4 -> 1 hit; Precision (2) and
    # Critical Hit (1) granted as options do nothing; Armour 1 fails; Evade 1 fails -> 1 damage.
    cannon = sc.Weapon("BT+2", 4, 1, surge_tags=("Light",))
    trace = sc.resolve(cannon, MARINES, [1, 1, 4, 1, 1], mode="spillover", affected_models=3,
                       precision=2, critical_hit=1)
    assert (trace.dice, trace.hits, trace.surge, trace.bypass, trace.damage) == (3, 1, 0, 0, 1)
    assert trace.faces_used == 5


def test_sequence_shield_hp_stays_after_shielded_is_lost() -> None:
    # One model, HP 2, Shield 2 (needs 4), Armour 2+ (a die fails 1/6).
    # Batch 1 HITS 1 (3): a fail gives TD 3 > 2 -> Shielded lost, no casualty (3 < 4), marker 3.
    # Batch 2 HITS 1 (1): a fail adds 1 -> TD 4 removes the model. (Reading "need = HP once Shielded
    # is lost" would destroy it in batch 1 with probability 1/6.)
    target = sc.Unit(1, 2, 2, shield=2)
    result = sc.sequence(target, [sc.Batch(None, mode="hits", hits=(1, 3)), sc.Batch(None, mode="hits", hits=(1, 1))])
    assert result.batches[0].destroyed == 0.0
    assert result.batches[0].shield_lost == _approx(Fraction(1, 6))
    assert result.destroyed == _approx(Fraction(1, 36))
    # Final marker: 3 when batch 1 fails and batch 2 does not (5/36); 1 when only batch 2 fails
    # (TD 1, Shielded kept) (5/36); 0 otherwise (25/36 nothing + 1/36 destroyed).
    assert result.marker.prob(3) == _approx(Fraction(5, 36))
    assert result.marker.prob(1) == _approx(Fraction(5, 36))
    assert result.marker.prob(0) == _approx(Fraction(26, 36))
    assert result.shield_lost == _approx(Fraction(1, 6))


def test_pierce_and_evade_apply_to_bypass_dice_exactly() -> None:
    # One die at 2+ (5/6), PIERCE Light (3), Surge D6 vs Light: it always bypasses Armour,
    # then rolls Evade 5+ (fails 4/6): P(damage 3) = 5/6 * 4/6 = 5/9; P(damage 0) = 4/9.
    gun = sc.Weapon(1, 2, 1, surge_tags=("Light",), surge_dice="D6", keywords="PIERCE Light (3)")
    result = sc.attack(gun, MARINES)
    assert result.damage.prob(3) == _approx(Fraction(5, 9))
    assert result.damage.prob(0) == _approx(Fraction(4, 9))
    assert result.casualties.prob(1) == _approx(Fraction(5, 9))  # 3 damage: one Marine, marker 1
    assert result.marker.prob(1) == _approx(Fraction(5, 9))


def test_dodge_from_option_and_reaction_stacks() -> None:
    # 3 hits at 2+ (2 2 2); Surge D6 face 6: min(3, 6) = 3. Dodge 1 (option) + 1 (reaction):
    # sum 2 -> 1 bypasses, 2 roll Armour (1 1 fail at 5+); max 1 -> 2 bypass, 1 rolls Armour (1 fails).
    gun = sc.Weapon(3, 2, 1, surge_tags=("Light",), surge_dice="D6")
    summed = sc.resolve(gun, MARINES, [2, 2, 2, 6, 1, 1], dodge=1, reaction={"dodge": 1}, evade_eligible=False)
    assert (summed.bypass, summed.armour_fails, summed.damage_pool, summed.faces_used) == (1, 2, 3, 6)
    maxed = sc.resolve(gun, MARINES, [2, 2, 2, 6, 1], dodge=1, reaction={"dodge": 1}, evade_eligible=False,
                       rules={"stacking": "max"})
    assert (maxed.bypass, maxed.armour_fails, maxed.damage_pool, maxed.faces_used) == (2, 1, 3, 5)


def test_natural_critical_hit_on_a_template_main_target() -> None:
    # BT+1, 2 affected -> 3 dice at 4+: 6 6 4 all hit; no Surge tags; CRITICAL HIT (6) natural:
    # the two 6s bypass, the 4 rolls Armour (1 fails at 5+); Evade 1 1 1: 3 damage into Marines:
    # one casualty (HP 2), 1 on the marker.
    cannon = sc.Weapon("BT+1", 4, 1, critical_hit=6)
    trace = sc.resolve(cannon, MARINES, [6, 6, 4, 1, 1, 1, 1], affected_models=2, rules=NATURAL)
    assert (trace.dice, trace.hits, trace.surge, trace.bypass, trace.armour_fails) == (3, 3, 0, 2, 1)
    assert (trace.damage, trace.casualties, trace.marker, trace.faces_used) == (3, 1, 1, 7)


def test_exact_natural_critical_hit_with_precision_two_dice() -> None:
    # 2 dice at 4+, PRECISION (1), CRITICAL HIT (2) natural. A 2 always misses; Precision promotes one
    # miss, a miss showing 2 first. So one die bypasses iff at least one die shows 2: 1 - (5/6)^2 = 11/36;
    # two never (only one promotion). H' = hits + min(1, misses): 2 unless both miss: P(H'=1) = 1/4.
    gun = sc.Weapon(2, 4, 1, precision=1, critical_hit=2)
    result = sc.attack(gun, sc.Unit(5, 1, 6), rules=NATURAL)
    assert result.stages.bypass.prob(1) == _approx(Fraction(11, 36))
    assert result.stages.bypass.prob(2) == _approx(0)
    assert result.stages.hits.prob(1) == _approx(Fraction(1, 4))
    assert result.stages.hits.prob(2) == _approx(Fraction(3, 4))


def test_surge_die_is_rolled_even_with_no_hits() -> None:
    # §3.2: one Surge roll per batch when a tag matches. 2 dice at 3+ show 1 1: no hits;
    # the Surge die (6 -> D3 3) is still consumed and shown, bypass min(0, 3) = 0.
    rifle = sc.Weapon(2, 3, 1, surge_tags=("Light",), surge_dice="D3")
    trace = sc.resolve(rifle, MARINES, [1, 1, 6])
    assert (trace.hits, trace.surge, trace.bypass, trace.damage, trace.faces_used) == (0, 3, 0, 0, 3)
    # HITS mode: the stage `hits` is X, no hit roll, no Surge.
    hits = sc.attack(rifle, MARINES, mode="hits", hits=(3, 1))
    assert hits.stages.hits.prob(3) == _approx(1) and not hits.surge_applied


def test_sequence_concentrated_fire_discards_leftover_between_batches() -> None:
    # Three models HP 2, Armour 2+ (a die fails 1/6); two HITS 1 (3) batches.
    # CONCENTRATED FIRE (1): a fail does 3, removes one model, the cap is reached so the 1 left over
    # is discarded: marker always 0, casualties ~ Bin(2, 1/6), never destroyed.
    target = sc.Unit(3, 2, 2)
    cf = sc.Weapon(1, 2, 1, keywords="CONCENTRATED FIRE (1)")
    capped = sc.sequence(target, [sc.Batch(cf, mode="hits", hits=(1, 3))] * 2)
    assert capped.marker.prob(0) == _approx(1)
    assert capped.casualties.prob(2) == _approx(Fraction(1, 36))
    assert capped.casualties.prob(1) == _approx(Fraction(10, 36))
    assert capped.destroyed == 0.0
    # Without it the 1 stays on the marker: two fails make 3 then 1 + 3 = 4 -> all three models go.
    free = sc.sequence(target, [sc.Batch(None, mode="hits", hits=(1, 3))] * 2)
    assert free.destroyed == _approx(Fraction(1, 36))
    assert free.marker.prob(1) == _approx(Fraction(10, 36))


def test_template_pool_floors_only_the_total():
    # docs/rules/starcraft.md §3.0: "Template main target: affected_models + roa + roa_mod + dice_mod" (total >= 0).
    # BT+1 on 0 affected models with roa_mod -3 and dice_mod +3: 0 + 1 - 3 + 3 = 1 die, not 3
    # (the partial sum -2 is not floored before dice_mod); 1 + 1 - 3 + 2 = 1 die; 0 + 1 - 3 + 1 < 0 -> 0.
    w = sc.Weapon("BT+1", 4, 1, surge_tags=("Light",))
    unit = sc.Unit(6, 2, 5, 5, tags=("Light",))
    assert sc.attack(w, unit, affected_models=0, roa_mod=-3, dice_mod=3).stages.dice == 1
    assert sc.attack(w, unit, affected_models=1, roa_mod=-3, dice_mod=2).stages.dice == 1
    assert sc.attack(w, unit, affected_models=0, roa_mod=-3, dice_mod=1).stages.dice == 0
