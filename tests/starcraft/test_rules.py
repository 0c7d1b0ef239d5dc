"""Hand-worked checks of single rules: the Attack Pool, templates and spillover, Surge, Critical Hit,
Precision, damage overrides, grants and stacking, reactions, scripted traces, and sequences."""

from __future__ import annotations

from fractions import Fraction

import pytest

from mathhammer import starcraft as sc

LIGHT = ("Biological", "Light", "Ground")
MARINES = sc.Unit(6, 2, 5, 5, tags=LIGHT)


def _f(value: Fraction | int) -> float:
    return float(Fraction(value))


def test_attack_pool_burst_locked_in_long_range_and_dice_reduction() -> None:
    gun = sc.Weapon(2, 4, 1, keywords='BURST FIRE 6" (1), LOCKED IN (1), LONG RANGE (24")')
    options = dict(firing_models=3, long_range_models=1, burst_models=1, target_stationary=True)
    # Per model 2 + 1 (Locked In); the burst model +1: normal 4 + 3 = 7 dice, long range 3.
    trace = sc.resolve(gun, MARINES, 4, **options)
    assert trace.dice == 10
    assert trace.hits == 7  # every die shows 4: hits at 4+, the long-range dice need 5+
    # A reduction removes normal-range dice first: -8 leaves 2 long-range dice.
    reduced = sc.resolve(gun, MARINES, 4, dice_mod=-8, **options)
    assert reduced.dice == 2 and reduced.hits == 0
    assert sc.resolve(gun, MARINES, 4, dice_mod=-20, **options).dice == 0
    # Without Burst Fire range or a stationary target.
    assert sc.resolve(gun, MARINES, 1, firing_models=3, burst_models=0).dice == 6
    # A negative RoA modifier never takes a model below 0 dice.
    assert sc.resolve(gun, MARINES, 1, firing_models=3, burst_models=0, roa_mod=-5).dice == 0


def test_long_range_rolls_at_minus_one_to_hit() -> None:
    gun = sc.Weapon(1, 3, 1, long_range=True)
    target = sc.Unit(10, 1, 6)
    near = sc.attack(gun, target)
    far = sc.attack(gun, target, long_range_models=1)
    assert near.stages.hits.prob(1) == pytest.approx(_f(Fraction(4, 6)), abs=1e-15)
    assert far.stages.hits.prob(1) == pytest.approx(_f(Fraction(3, 6)), abs=1e-15)
    # A +1 to hit cancels it; the target never goes below 2+ (a natural 1 always misses).
    assert sc.attack(gun, target, long_range_models=1, hit_mod=1).stages.hits.prob(1) == pytest.approx(4 / 6)
    assert sc.attack(gun, target, hit_mod=5).stages.hits.prob(1) == pytest.approx(5 / 6)


def test_template_main_target_and_spillover() -> None:
    cannon = sc.Weapon("BT+4", 4, 1, surge_tags=("Light",), precision=1, critical_hit=1)
    main = sc.attack(cannon, MARINES, affected_models=3, roa_mod=-1, dice_mod=-1)
    assert main.stages.dice == 3 + 4 - 1 - 1
    assert main.surge_applied and main.stages.surge.prob(3) == 1.0  # Surge = affected models, no roll
    armoured = sc.attack(cannon, sc.Unit(2, 5, 4, 6, tags=("Armoured",)), affected_models=2)
    assert not armoured.surge_applied and armoured.stages.surge.prob(0) == 1.0
    # Spillover: affected models + dice_mod dice, no Surge, Precision or Critical Hit.
    # Hit dice 1 1 5 5 (4+): two hits, none moved; Armour 1 1: two fails; Evade 1 1: none evade.
    trace = sc.resolve(cannon, MARINES, [1, 1, 5, 5, 1, 1, 1, 1], mode="spillover", affected_models=4)
    assert (trace.dice, trace.hits, trace.surge, trace.bypass, trace.inflicting) == (4, 2, 0, 0, 2)
    spill = sc.attack(cannon, MARINES, mode="spillover", affected_models=4, dice_mod=-1)
    assert spill.stages.dice == 3 and spill.stages.surge.prob(0) == 1.0
    assert spill.stages.bypass.prob(0) == 1.0


def test_hits_mode_places_dice_without_a_roll() -> None:
    trace = sc.resolve(None, MARINES, [1, 6, 6, 1], mode="hits", hits=(2, 3), evade_eligible=True)
    # Armour 5+: 1 fails, 6 saves; Evade 5+: the 6 evades.
    assert (trace.dice, trace.hits, trace.armour_fails, trace.evaded, trace.damage) == (2, 2, 1, 1, 0)
    assert sc.resolve(None, MARINES, [1, 1, 1, 1], mode="hits", hits=(2, 3)).damage == 6
    # A weapon in HITS mode lends its keywords (PIERCE here) but not its Surge, Precision or Crit.
    pierce = sc.Weapon(1, 3, 1, surge_tags=("Light",), surge_dice="D6", keywords="PIERCE Light (4), CRITICAL HIT (2)")
    result = sc.attack(pierce, MARINES, mode="hits", hits=(2, 1))
    assert result.damage_per_die == 4 and not result.surge_applied and result.stages.bypass.prob(0) == 1.0


def test_scripted_trace_of_a_rifle_volley() -> None:
    rifle = sc.Weapon(2, 3, 1, surge_tags=("Light",), surge_dice="D3")
    # Hit dice 6 3 2 1: two hits; Surge die 5 -> D3 = 3, capped by the 2 hits; no Armour dice;
    # Evade dice 5 1: one evades. One damage: Marines (HP 2) keep it on the marker.
    trace = sc.resolve(rifle, MARINES, [6, 3, 2, 1, 5, 5, 1], firing_models=2)
    assert (trace.dice, trace.hits, trace.surge, trace.bypass, trace.armour_fails) == (4, 2, 3, 2, 0)
    assert (trace.damage_pool, trace.evaded, trace.inflicting, trace.damage) == (2, 1, 1, 1)
    assert (trace.casualties, trace.marker, trace.destroyed, trace.faces_used) == (0, 1, False, 7)
    # Dodge (1) stops one Surge die, which then rolls Armour (the 4 fails at 5+).
    dodged = sc.resolve(rifle, MARINES, [6, 3, 2, 1, 5, 4, 1, 1], firing_models=2, dodge=1)
    assert (dodged.bypass, dodged.armour_fails, dodged.damage_pool, dodged.inflicting) == (1, 1, 2, 2)


def test_natural_critical_hit_promotes_misses_showing_the_face_first() -> None:
    blades = sc.Weapon(3, 5, 1, precision=1, critical_hit=2)
    target = sc.Unit(10, 1, 6)
    natural = {"critical_hit": "natural"}
    # Hits: 6. Misses 1 and 2: Precision promotes the 2 (the Critical Hit face), which bypasses
    # Armour; the 6 rolls Armour (a 6 saves).
    trace = sc.resolve(blades, target, [1, 6, 2, 6], rules=natural)
    assert (trace.hits, trace.bypass, trace.armour_fails, trace.damage) == (2, 1, 0, 1)
    # Counted Critical Hit (default): CRITICAL HIT (2) moves two dice whatever they show.
    counted = sc.resolve(blades, target, [1, 6, 2], rules={"critical_hit": "count"})
    assert (counted.hits, counted.bypass, counted.damage) == (2, 2, 2)


def test_damage_per_die_setters_then_caps() -> None:
    armoured = sc.Unit(3, 4, 3, 5, tags=("Armoured", "Biological", "Ground"), size=2)
    quad = sc.Weapon(3, 3, 1, keywords="PIERCE Armoured (3)")
    assert sc.attack(quad, armoured).damage_per_die == 3
    assert sc.attack(quad, MARINES).damage_per_die == 1  # no Armoured tag: no Pierce
    assert sc.attack(quad, armoured, damage_set=2).damage_per_die == 3  # several setters: the largest
    assert sc.attack(quad, armoured, damage_set=[2, 5]).damage_per_die == 5
    assert sc.attack(quad, armoured, damage_set="size").damage_per_die == 3
    assert sc.attack(sc.Weapon(3, 3, 1), armoured, damage_set="size").damage_per_die == 2  # Aftershock
    assert sc.attack(quad, armoured, damage_cap=1).damage_per_die == 1  # caps after setters
    assert sc.attack(quad, armoured, damage_cap=[2, 1]).damage_per_die == 1
    assert sc.attack(quad, armoured, reaction={"damage_cap": 2}).damage_per_die == 2
    instant = sc.Weapon(3, 3, 1, keywords="PIERCE Armoured (3), INSTANT")
    ignored = sc.attack(instant, armoured, reaction={"damage_cap": 1, "dodge": 2})
    assert ignored.reaction_ignored and ignored.damage_per_die == 3
    assert not sc.attack(instant, armoured).reaction_ignored  # nothing to ignore


def test_grants_stack_by_sum_or_max() -> None:
    unit = sc.Unit(10, 1, 6, tough=1)
    gun = sc.Weapon(1, 2, 1)
    # One die, hits on 2+; Armour 6+ fails 5/6. Tough 1+1+2 = 4 (sum) or max 2: either way the one
    # fail is saved, so compare a dodge budget instead through Surge.
    assert sc.attack(gun, unit, tough=[1, 2]).damage.prob(0) == 1.0
    surge = sc.Weapon(1, 2, 1, surge_tags=("Light",), surge_dice="D6", critical_hit=1)
    light = sc.Unit(10, 1, 6, tags=("Light",))
    # Surge + Crit >= 1 always moves the die; Dodge [1, 1] sums to 2 (stops it) or max 1 (stops it).
    assert sc.attack(surge, light, dodge=[1, 1]).stages.bypass.prob(0) == pytest.approx(1.0, abs=1e-15)
    # Crit grants: weapon 1 + kwarg [1, 1] = 3 (sum) or 1 (max), against 3 hit dice at 2+.
    three = sc.Weapon(3, 2, 1, critical_hit=1)
    summed = sc.attack(three, light, critical_hit=[1, 1])
    maxed = sc.attack(three, light, critical_hit=[1, 1], rules={"stacking": "max"})
    assert summed.stages.bypass.prob(3) == pytest.approx((5 / 6) ** 3)
    assert maxed.stages.bypass.prob(3) == 0.0 and maxed.stages.bypass.prob(1) == pytest.approx(1 - (1 / 6) ** 3)
    # Tough: unit 1 + kwarg 2 = 3 (sum) or 2 (max); 3 dice at 2+, Armour 6+.
    three_plain = sc.Weapon(3, 2, 1)
    t_sum = sc.attack(three_plain, unit, tough=2)
    t_max = sc.attack(three_plain, unit, tough=2, rules={"stacking": "max"})
    assert t_sum.damage.prob(0) == 1.0
    # Max: Tough 2, so damage 1 needs all three dice to hit and fail: (5/6 * 5/6)^3.
    assert t_max.damage.prob(1) == pytest.approx((25 / 36) ** 3, abs=1e-15)


def test_evade_eligibility() -> None:
    gun = sc.Weapon(1, 2, 1)
    evasive = sc.Unit(10, 1, 6, 2)  # Evade 2+
    assert sc.attack(gun, evasive).evade_rolled
    assert not sc.attack(gun, evasive, evade_eligible=False).evade_rolled
    assert not sc.attack(gun, sc.Unit(10, 1, 6), evade_eligible=True).evade_rolled  # Null Evade never evades
    # Evade 2+ with ANTI-EVADE (3) -> 5+, and a +1 to the Evade roll -> 4+.
    one = sc.attack(gun, evasive, anti_evade=3, evade_mod=1)
    assert one.damage.prob(1) == pytest.approx(5 / 6 * 5 / 6 * 3 / 6, abs=1e-15)


def test_allocation_rules() -> None:
    stalker = sc.Unit(2, 6, 4, 6, shield=3, tags=("Armoured",))
    # Transfusion-style reduction after the marker: marker 2 + 5 - 3 = 4 (Shielded kept: 4 > 3 is lost).
    marked = sc.Unit(2, 6, 4, 6, shield=3, marker=2)
    after = sc.rules.allocate(marked, 5, td_reduction=3)
    assert (after.marker, after.shielded, after.shield_lost) == (4, False, True)
    # A floor keeps at least 1; a reduction can eat older marker damage.
    assert sc.rules.allocate(marked, 1, td_reduction=5, td_floor=1).marker == 1
    assert sc.rules.allocate(marked, 1, td_reduction=5).marker == 0
    # The first model needs HP + Shield, the next HP; engaged units ignore the visible cap.
    assert sc.rules.allocate(stalker, 15).casualties == 2
    assert sc.rules.allocate(stalker, 15, visible_models=1).casualties == 1
    assert sc.rules.allocate(stalker, 15, visible_models=1, engaged=True).casualties == 2
    # Nothing happens without damage; a removed first model takes Shielded with it.
    assert sc.rules.allocate(marked, 0).marker == 2 and sc.rules.allocate(marked, 0).shielded
    first = sc.rules.allocate(stalker, 9)
    assert (first.casualties, first.first_model_alive, first.shielded, first.marker) == (1, False, False, 0)
    # The second model then needs only its HP.
    second = sc.rules.allocate(sc.Unit(1, 6, 4, shield=3, first_model_alive=False, marker=5), 1)
    assert second.destroyed


def test_sequence_against_a_destroyed_unit_does_nothing() -> None:
    # One model (HP 2, Shield 1), Armour 2+: each HITS 1 (3) removes it with probability 1/6.
    target = sc.Unit(1, 2, 2, shield=1)
    batch = sc.Batch(None, mode="hits", hits=(1, 3))
    result = sc.sequence(target, [batch, batch])
    assert result.destroyed == pytest.approx(11 / 36, abs=1e-15)
    assert result.total_damage.prob(3) == pytest.approx(11 / 36, abs=1e-15)
    assert result.total_damage.prob(6) == 0.0
    assert result.batches[1].damage.prob(3) == pytest.approx(5 / 36, abs=1e-15)
    assert result.batches[0].destroyed == pytest.approx(1 / 6, abs=1e-15)
    assert result.batches[1].destroyed == pytest.approx(11 / 36, abs=1e-15)


def test_sequence_carries_the_marker_and_shielded() -> None:
    # One model, HP 3, Shield 2, Armour 2+; three HITS 1 (1): Shielded is lost only when all three
    # land (TD 3 > 2), and the model (needs 5) survives with 3 on the marker.
    target = sc.Unit(1, 3, 2, shield=2)
    batch = sc.Batch(None, mode="hits", hits=(1, 1))
    result = sc.sequence(target, [batch] * 3)
    assert result.shield_lost == pytest.approx(1 / 216, abs=1e-15)
    assert result.marker.prob(3) == pytest.approx(1 / 216, abs=1e-15)
    assert result.marker.prob(2) == pytest.approx(3 * 5 / 216, abs=1e-15)
    assert result.state.prob(models=1, marker=3, shielded=False) == pytest.approx(1 / 216, abs=1e-15)
    assert result.batches[2].shield_lost == pytest.approx(1 / 216, abs=1e-15)
    assert result.destroyed == 0.0
    lost = sc.sequence(target, [batch] * 3, rules={"leftover": "lost"})
    assert lost.marker.prob(0) == 1.0 and lost.shield_lost == 0.0


def test_sequence_visible_models_capped_by_models_left() -> None:
    # Three models (HP 1), Armour 2+, visible 2 for both batches; HITS 3 (1) each.
    target = sc.Unit(3, 1, 2)
    batch = sc.Batch(None, mode="hits", hits=(3, 1), visible_models=2)
    result = sc.sequence(target, [batch, batch])
    # Batch 1 removes at most 2 (the visible ones); batch 2 may remove every model left (at most 2).
    # Destroyed: batch 1 removes 2 and batch 2 at least 1, or batch 1 removes 1 and batch 2 two.
    p_fail = Fraction(1, 6)
    exactly_one = 3 * p_fail * (1 - p_fail) ** 2
    at_least_two = 3 * p_fail**2 * (1 - p_fail) + p_fail**3
    at_least_one = 1 - (1 - p_fail) ** 3
    assert result.destroyed == pytest.approx(_f(at_least_two * at_least_one + exactly_one * at_least_two), abs=1e-15)
    # Never more than 2 in one batch, though 3 dice can fail.
    assert result.batches[0].casualties.prob(3) == 0.0
