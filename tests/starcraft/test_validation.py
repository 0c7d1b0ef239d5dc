"""Bad input fails early with a ValueError (or TypeError) whose message starts with the field name and
says what is allowed; fuzzed input never raises anything else."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mathhammer import starcraft as sc
from mathhammer.errors import InputError, InputTypeError
from mathhammer.starcraft import engine
from mathhammer.starcraft.profiles import ATTACK_KWARGS

RIFLE = sc.Weapon(2, 3, 1, surge_tags=("Light",), surge_dice="D3")
MARINES = sc.Unit(6, 2, 5, 5, tags=("Biological", "Light", "Ground"))


@pytest.mark.parametrize(
    "make,pattern",
    [
        (lambda: sc.Unit(6, 2, 5, tags=("Zerg",)), r"^tags: unknown Combat Tag 'Zerg'; allowed: Armoured, Biological, Light"),
        (lambda: sc.Weapon(2, 3, 1, keywords="RAPID FIRE (2)"), r"^keywords: unknown keyword 'RAPID FIRE \(2\)'; known: PIERCE"),
        (lambda: sc.Weapon(2, 7, 1), r"^hit: 7 is out of range; allowed 2\.\.6"),
        (lambda: sc.Weapon(2, 1, 1), r"^hit: 1 is out of range; allowed 2\.\.6"),
        (lambda: sc.Weapon(2, "x+", 1), r"^hit: 'x\+' is not a target number; write it as 3 or '3\+' \(2\.\.6\)"),
        (lambda: sc.Unit(6, 2, 1), r"^armour: 1 is out of range; allowed 2\.\.6"),
        (lambda: sc.Unit(6, 2, 5, evade=7), r"^evade: 7 is out of range; allowed 2\.\.6"),
        (lambda: sc.Weapon(-1, 3, 1), r"^roa: -1 is out of range; allowed 0\.\.30"),
        (lambda: sc.Weapon("BT+x", 3, 1), r"^roa: 'BT\+x' is not a Rate of Attack"),
        (lambda: sc.Weapon(2, 3, -1), r"^damage: -1 is out of range; allowed 0\.\.20"),
        (lambda: sc.Weapon(2, 3, 1, precision=-1), r"^precision: -1 is out of range; allowed 0\.\.20"),
        (lambda: sc.Weapon(2, 3, 1, concentrated_fire=0), r"^concentrated_fire: 0 is out of range; allowed 1\.\.40"),
        (lambda: sc.Weapon(2, 3, 1, pierce=("Zerg", 2)), r"^pierce: unknown Combat Tag 'Zerg'"),
        (lambda: sc.Weapon(2, 3, 1, pierce=("Light", 21)), r"^pierce: 21 is out of range; allowed 0\.\.20"),
        (lambda: sc.Unit(0, 2, 5), r"^models: 0 is out of range; allowed 1\.\.40"),
        (lambda: sc.Unit(-3, 2, 5), r"^models: -3 is out of range; allowed 1\.\.40"),
        (lambda: sc.Unit(6, 31, 5), r"^hp: 31 is out of range; allowed 1\.\.30"),
        (lambda: sc.Unit(6, 2, 5, shield=-1), r"^shield: -1 is out of range; allowed 0\.\.20"),
        (lambda: sc.Unit(6, 2, 5, tough=-1), r"^tough: -1 is out of range; allowed 0\.\.20"),
        (lambda: sc.Unit(6, 2, 5, marker=-1), r"^marker: -1 is out of range; allowed 0\.\.12"),
    ],
)
def test_bad_profiles(make: Any, pattern: str) -> None:
    with pytest.raises(ValueError, match=pattern):
        make()


@pytest.mark.parametrize(
    "kwargs,pattern",
    [
        ({"firing_models": -1}, r"^firing_models: -1 is out of range; allowed 0\.\.60"),
        ({"firing_models": 61}, r"^firing_models: 61 is out of range; allowed 0\.\.60"),
        ({"firing_models": 60, "roa_mod": 1}, r"^dice: the batch has 180 dice; allowed at most 120"),
        ({"hit_mod": 6}, r"^hit_mod: 6 is out of range; allowed -5\.\.5"),
        ({"armour_mod": -6}, r"^armour_mod: -6 is out of range; allowed -5\.\.5"),
        ({"dodge": -1}, r"^dodge: -1 is out of range; allowed 0\.\.20"),
        ({"dodge": [1, -1]}, r"^dodge\[1\]: -1 is out of range; allowed 0\.\.20"),
        ({"tough": 21}, r"^tough: 21 is out of range; allowed 0\.\.20"),
        ({"mode": "melee"}, r"^mode: unknown value 'melee'; allowed: weapon, spillover, hits"),
        ({"mode": "hits"}, r"^hits: mode 'hits' needs hits=\(X, Y\)"),
        ({"mode": "hits", "hits": (121, 1)}, r"^hits\[0\]: 121 is out of range; allowed 0\.\.120"),
        ({"mode": "hits", "hits": (2, 21)}, r"^hits\[1\]: 21 is out of range; allowed 0\.\.20"),
        ({"hits": (2, 1)}, r"^hits: only for mode 'hits'"),
        ({"mode": "spillover", "affected_models": 3}, r"^mode: 'spillover' is the template's batch"),
        ({"affected_models": 3}, r"^affected_models: only for a template weapon or mode 'spillover'"),
        ({"long_range_models": 1}, r"^long_range_models: the weapon has no LONG RANGE; allowed 0"),
        ({"firing_models": 2, "long_range_models": 3}, r"^long_range_models: 3 is out of range; allowed 0\.\.2"),
        ({"firing_models": 2, "burst_models": 3}, r"^burst_models: 3 is out of range; allowed 0\.\.2"),
        ({"visible_models": 7}, r"^visible_models: 7 is out of range; allowed 0\.\.6"),
        ({"reaction": {"parry": 1}}, r"^reaction\.parry: not a reaction grant; allowed: dodge, tough, damage_cap"),
        ({"reaction": {"dodge": -1}}, r"^reaction\.dodge: -1 is out of range"),
        ({"damage_set": "size"}, r"^damage_set: 'size' needs the unit's size"),
        ({"damage_cap": 21}, r"^damage_cap: 21 is out of range; allowed 0\.\.20"),
        ({"td_reduction": -2}, r"^td_reduction: -2 is out of range; allowed 0\.\.50"),
        ({"colour": "red"}, r"^colour: unknown option; allowed: mode, firing_models"),
        ({"rules": {"critical_hit": "sometimes"}}, r"^rules\.critical_hit: unknown value 'sometimes'; allowed: count, natural"),
        ({"rules": {"critical_hit": "natural"}, "critical_hit": 7}, r"^critical_hit: under rules\.critical_hit='natural'.*allowed 1\.\.6"),
        ({"method": "guess"}, r"^method: unknown value 'guess'; allowed: auto, exact, monte_carlo"),
        ({"method": "monte_carlo", "samples": 0}, r"^samples: 0 is out of range"),
        ({"method": "monte_carlo", "threads": 0}, r"^threads: 0 is out of range"),
        ({"method": "monte_carlo", "seed": -1}, r"^seed: -1 is out of range"),
    ],
)
def test_bad_attack_options(kwargs: dict[str, Any], pattern: str) -> None:
    with pytest.raises(ValueError, match=pattern):
        sc.attack(RIFLE, MARINES, **kwargs)


def test_bad_types_are_type_errors_naming_the_field() -> None:
    with pytest.raises(TypeError, match=r"^firing_models: expected an integer"):
        sc.attack(RIFLE, MARINES, firing_models=2.5)
    with pytest.raises(TypeError, match=r"^evade_eligible: expected True or False"):
        sc.attack(RIFLE, MARINES, evade_eligible="yes")
    with pytest.raises(TypeError, match=r"^unit: expected sc\.Unit"):
        sc.attack(RIFLE, 6)
    # a table of the unit's fields is a unit (as in sc.attack_batch); a missing field is named
    with pytest.raises(ValueError, match=r"^unit\.hp: missing"):
        sc.attack(RIFLE, {"models": 6})
    with pytest.raises(TypeError, match=r"^weapon: expected sc\.Weapon"):
        sc.attack("C-14", MARINES)
    with pytest.raises(TypeError, match=r"^rules: expected None, a preset name"):
        sc.attack(RIFLE, MARINES, rules=3)
    # A text is a preset name or 'field=value' switches (the --variants form).
    with pytest.raises(ValueError, match=r"^rules: unknown preset 'natural'"):
        sc.attack(RIFLE, MARINES, rules="natural")
    with pytest.raises(ValueError, match=r"^weapon: mode 'weapon' needs a weapon"):
        sc.attack(None, MARINES)


def test_template_needs_affected_models_and_rejects_other_pools() -> None:
    cannon = sc.Weapon("BT+4", 4, 1, surge_tags=("Light",))
    with pytest.raises(ValueError, match=r"^affected_models: a template attack needs the number of models"):
        sc.attack(cannon, MARINES)
    with pytest.raises(ValueError, match=r"^long_range_models: only for a non-template weapon"):
        sc.attack(cannon, MARINES, affected_models=2, firing_models=1, long_range_models=1)
    with pytest.raises(ValueError, match=r"^dice_mod: HITS X \(Y\) places dice without an Attack Pool"):
        sc.attack(None, MARINES, mode="hits", hits=(2, 1), dice_mod=-1)


def test_sequence_errors_name_the_batch() -> None:
    with pytest.raises(ValueError, match=r"^batches\[1\]\.dodge: -1 is out of range"):
        sc.sequence(MARINES, [sc.Batch(RIFLE), sc.Batch(RIFLE, dodge=-1)])
    with pytest.raises(ValueError, match=r"^batches: 51 batches; allowed 1\.\.50"):
        sc.sequence(MARINES, [sc.Batch(RIFLE)] * 51)
    with pytest.raises(ValueError, match=r"^batches: 0 batches; allowed 1\.\.50"):
        sc.sequence(MARINES, [])
    with pytest.raises(ValueError, match=r"^colour: not a batch option"):
        sc.Batch(RIFLE, colour="red")
    with pytest.raises(TypeError, match=r"^batches\[0\]: expected sc\.Batch"):
        sc.sequence(MARINES, [RIFLE])


def test_resolve_faces_errors() -> None:
    with pytest.raises(ValueError, match=r"^faces: ran out after 3 dice"):
        sc.resolve(RIFLE, MARINES, [6, 6, 6], firing_models=2)
    with pytest.raises(ValueError, match=r"^faces\[1\]: 7 is out of range; allowed 1\.\.6"):
        sc.resolve(RIFLE, MARINES, [6, 7])
    with pytest.raises(ValueError, match=r"^faces: 0 is out of range; allowed 1\.\.6"):
        sc.resolve(RIFLE, MARINES, 0)


def test_step_function_errors() -> None:
    with pytest.raises(ValueError, match=r"^kind: unknown value 'D4'; allowed: D3, D3\+1, D6"):
        sc.rules.surge_value("D4", 1)
    with pytest.raises(ValueError, match=r"^face: 7 is out of range; allowed 1\.\.6"):
        sc.rules.surge_value("D3", 7)
    with pytest.raises(ValueError, match=r"^hits: 5 is out of range; allowed 0\.\.4"):
        sc.rules.precision_hits(4, 5, 1)
    with pytest.raises(ValueError, match=r"^damage: -1 is out of range"):
        sc.rules.allocate(MARINES, -1)
    with pytest.raises(ValueError, match=r"^visible_models: 9 is out of range; allowed 0\.\.6"):
        sc.rules.allocate(MARINES, 3, visible_models=9)


def test_exact_sequence_too_large_falls_back_or_says_so(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(engine, "MAX_EXACT_WORK", 5.0)
    batches = [sc.Batch(RIFLE, firing_models=6)] * 3
    with pytest.raises(ValueError, match=r"^method: the exact propagation .* is too large"):
        sc.sequence(MARINES, batches, method="exact")
    result = sc.sequence(MARINES, batches, samples=50_000, seed=1, threads=1)
    assert result.method == "monte_carlo" and result.samples == 50_000


# ---- fuzzing: anything may be rejected, but only with InputError / InputTypeError ------------------------

_values = st.one_of(
    st.integers(-200, 200), st.none(), st.booleans(), st.floats(allow_nan=True), st.text(max_size=8),
    st.sampled_from(["3+", "-", "BT+2", "D3", "Light", "size", "PRECISION (1)"]),
    st.lists(st.integers(-3, 30), max_size=3),
)
WEAPON_FIELDS = ["roa", "hit", "damage", "surge_tags", "surge_dice", "template", "keywords", "pierce", "precision",
                 "critical_hit", "anti_evade", "burst_fire", "locked_in", "long_range", "concentrated_fire", "instant"]
UNIT_FIELDS = ["models", "hp", "armour", "evade", "shield", "tags", "size", "tough", "marker", "shielded", "first_model_alive"]


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    weapon_changes=st.dictionaries(st.sampled_from(WEAPON_FIELDS), _values, max_size=3),
    unit_changes=st.dictionaries(st.sampled_from(UNIT_FIELDS), _values, max_size=3),
    options=st.dictionaries(st.sampled_from(ATTACK_KWARGS), _values, max_size=4),
)
def test_fuzzed_input_only_raises_input_errors(weapon_changes, unit_changes, options) -> None:
    weapon_fields = {"roa": 2, "hit": 3, "damage": 1, "surge_tags": ("Light",), "surge_dice": "D3"} | weapon_changes
    unit_fields = {"models": 6, "hp": 2, "armour": 5, "evade": 5, "tags": ("Light",)} | unit_changes
    try:
        weapon = sc.Weapon(**weapon_fields)
        unit = sc.Unit(**unit_fields)
        result = sc.attack(weapon, unit, **options)
    except (InputError, InputTypeError):
        return
    assert abs(result.damage.pmf.sum() - 1.0) < 1e-9
