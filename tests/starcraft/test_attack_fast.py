"""sc.attack's per-call path: result tables shaped in C++, results built on first use, validated
attacks cached by value. Every figure must be the one the step functions and numpy give."""

from __future__ import annotations

import copy
import dataclasses
import pickle
import random
from typing import Any

import numpy as np
import pytest
import sc_scenarios

from mathhammer import _core
from mathhammer.core import sampling
from mathhammer import starcraft as sc
from mathhammer.errors import InputError, InputTypeError
from mathhammer.core.distributions import Distribution
from mathhammer.starcraft import plan as plan_module

_sc = _core.starcraft
RIFLE = sc.catalog.weapon("c14_rifle")
ZERGLINGS = sc.catalog.unit("zergling")


def _reference(weapon: sc.Weapon | None, unit: sc.Unit, kw: dict[str, Any], rules: dict[str, str],
               probs: np.ndarray | None = None, samples: int | None = None) -> dict[str, Any]:
    """The result's figures from the step functions (exact_attack or given frequencies, then
    allocation_table) summed with numpy, independently of the C++ shaping."""
    plan = plan_module.plan_batch(weapon, unit, sc.Variants(**rules), **kw)
    layout = _sc.attack_layout(plan.config)
    if probs is None:
        probs = np.asarray(_sc.exact_attack(plan.config))
    n, per_die = layout.dice, plan.damage_per_die
    k = probs[layout.inflicting: layout.inflicting + n + 1]
    table = _sc.allocation_table(plan_module.unit_profile(unit), plan_module.unit_state(unit), plan.config.alloc, per_die, n)
    damage = np.zeros(n * per_die + 1)
    np.add.at(damage, np.arange(n + 1) * per_die, k)
    rows = np.stack([table.state.models, table.state.marker, table.state.shielded, table.state.first_model_alive], 1)

    def dist(start: int, size: int) -> dict[str, Any]:
        return Distribution(probs[start: start + size], samples=samples).to_dict()

    return {
        "damage": Distribution(damage, samples=samples).to_dict(),
        "casualties": Distribution(np.bincount(table.casualties, weights=k, minlength=unit.models + 1),
                                   samples=samples).to_dict(),
        "marker": Distribution(np.bincount(table.state.marker, weights=k, minlength=1), samples=samples).to_dict(),
        "destroyed": float(k[table.destroyed == 1].sum()),
        "shield_lost": float(k[table.shield_lost == 1].sum()),
        "state": sc.StateDistribution.from_rows(rows, k, samples).to_dict(),
        "stages": {"dice": n, "hits": dist(layout.hits, n + 1), "surge": dist(layout.surge, layout.surge_max + 1),
                   "bypass": dist(layout.bypass, n + 1), "armour_fails": dist(layout.armour_fails, n + 1),
                   "damage_pool": dist(layout.damage_pool, n + 1), "inflicting": dist(layout.inflicting, n + 1)},
    }


def _figures(result: sc.AttackResult) -> dict[str, Any]:
    payload = result.to_dict()
    return {name: payload[name] for name in ("damage", "casualties", "marker", "destroyed", "shield_lost", "state",
                                             "stages")}


@pytest.mark.parametrize(("count", "seed", "max_dice", "big"), [(300, 1, 12, False), (120, 2, 40, True),
                                                                 (60, 3, 36, True)])
def test_exact_tables_equal_the_step_functions_bit_for_bit(count: int, seed: int, max_dice: int, big: bool) -> None:
    for weapon_fields, unit_fields, kw, rules in sc_scenarios.scenarios(count, seed, max_dice, big):
        weapon, unit = sc_scenarios.profiles(weapon_fields, unit_fields)
        result = sc.attack(weapon, unit, rules=rules, **kw)
        assert _figures(result) == _reference(weapon, unit, kw, rules)


def test_a_120_dice_attack_equals_the_step_functions_bit_for_bit() -> None:
    # long sums: numpy adds more than 8 values in interleaved partial sums, which the C++ side follows
    weapon = sc.Weapon(4, 3, 1, surge_tags=("Light",), surge_dice="D6", keywords="CRITICAL HIT (2)")
    unit = sc.Unit(40, 3, 5, 5, shield=2, tags=("Light",), marker=1)
    for kw in ({"firing_models": 30}, {"firing_models": 30, "td_reduction": 2, "hit_mod": -1}):
        for rules in ({}, {"leftover": "lost", "critical_hit": "natural"}):
            assert _figures(sc.attack(weapon, unit, rules=rules, **kw)) == _reference(weapon, unit, kw, rules)


def test_monte_carlo_tables_equal_the_step_functions_bit_for_bit() -> None:
    for weapon_fields, unit_fields, kw, rules in sc_scenarios.scenarios(60, 4, 20, True):
        weapon, unit = sc_scenarios.profiles(weapon_fields, unit_fields)
        result = sc.attack(weapon, unit, rules=rules, method="monte_carlo", samples=4_000, seed=9, threads=1, **kw)
        plan = plan_module.plan_batch(weapon, unit, sc.Variants(**rules), **kw)
        counts = sampling.run_monte_carlo(
            lambda s, t, b, e, th: _sc.sample_attack(plan.config, s, t, b, e, th), 4_000, 9, 1)  # noqa: B023
        assert _figures(result) == _reference(weapon, unit, kw, rules, counts / 4_000, 4_000)


def test_a_result_built_on_first_use_behaves_as_a_built_one() -> None:
    for method in ("exact", "monte_carlo"):
        options: dict[str, Any] = {"method": method, "samples": 20_000, "seed": 3, "threads": 1}
        text = sc.attack(RIFLE, ZERGLINGS, firing_models=6, **options).to_json()
        loaded = sc.AttackResult.from_json(text)  # every field given to the constructor
        fresh = sc.attack(RIFLE, ZERGLINGS, firing_models=6, **options)
        assert repr(fresh) == repr(loaded)
        assert fresh == loaded and loaded == fresh
        assert sc.attack(RIFLE, ZERGLINGS, firing_models=6, **options).summary() == loaded.summary()
        assert sc.attack(RIFLE, ZERGLINGS, firing_models=6, **options).to_frame().equals(loaded.to_frame())
        # one field first, then the rest, in another order
        late = sc.attack(RIFLE, ZERGLINGS, firing_models=6, **options)
        assert late.stages == loaded.stages and late.state == loaded.state and late.marker == loaded.marker
        assert late.to_json() == text
        for other in (pickle.loads(pickle.dumps(fresh)), copy.deepcopy(sc.attack(RIFLE, ZERGLINGS, firing_models=6,
                                                                                 **options))):
            assert other == loaded and other.to_json() == text
        replaced = dataclasses.replace(sc.attack(RIFLE, ZERGLINGS, firing_models=6, **options), unit="Z")
        assert replaced.casualties == loaded.casualties and replaced.unit == "Z"


def test_a_result_stays_read_only() -> None:
    result = sc.attack(RIFLE, ZERGLINGS, firing_models=6)
    with pytest.raises(dataclasses.FrozenInstanceError):
        result.damage = result.casualties  # type: ignore[misc]
    with pytest.raises(ValueError):
        result.damage.pmf[0] = 1.0
    with pytest.raises(ValueError):
        result.stages.hits.pmf[0] = 1.0
    assert not hasattr(result, "no_such_field")
    with pytest.raises(AttributeError, match="no_such_field"):
        getattr(result, "no_such_field")


def test_a_cached_attack_checks_every_value_as_the_first_call_did() -> None:
    # the cache keys on value and type: an int in a cached call does not let a bool or float through
    sc.attack(RIFLE, ZERGLINGS, firing_models=1, precision=[1, 1], reaction={"dodge": 1})
    with pytest.raises(InputTypeError, match="firing_models"):
        sc.attack(RIFLE, ZERGLINGS, firing_models=True)
    with pytest.raises(InputTypeError, match="firing_models"):
        sc.attack(RIFLE, ZERGLINGS, firing_models=1.0)
    with pytest.raises(InputTypeError, match=r"precision\[1\]"):
        sc.attack(RIFLE, ZERGLINGS, firing_models=1, precision=[1, True])
    with pytest.raises(InputTypeError, match=r"reaction.dodge"):
        sc.attack(RIFLE, ZERGLINGS, firing_models=1, reaction={"dodge": True})
    with pytest.raises(InputError, match="zzz"):
        sc.attack(RIFLE, ZERGLINGS, firing_models=1, zzz=1)
    # numpy integers are accepted as before, and give the same result
    assert sc.attack(RIFLE, ZERGLINGS, firing_models=np.int64(3)) == sc.attack(RIFLE, ZERGLINGS, firing_models=3)


def test_profiles_equal_but_for_their_names_keep_their_own_labels() -> None:
    a = sc.Weapon(2, 3, 1, name="first")
    b = sc.Weapon(2, 3, 1, name="second")
    assert sc.attack(a, ZERGLINGS).weapon == "first"
    assert sc.attack(b, ZERGLINGS).weapon == "second"
    assert sc.attack(a, ZERGLINGS).damage == sc.attack(b, ZERGLINGS).damage


def test_random_calls_with_unhashable_options_match_the_reference() -> None:
    rng = random.Random(5)
    for weapon_fields, unit_fields, kw, rules in sc_scenarios.scenarios(40, 6, 12):
        weapon, unit = sc_scenarios.profiles(weapon_fields, unit_fields)
        grants = {name: [value, 0] for name, value in kw.items()
                  if name in ("dodge", "td_reduction") and isinstance(value, int)}
        kw = {**kw, **grants, "reaction": {"tough": [rng.randint(0, 1)]}} if weapon is not None else kw
        assert _figures(sc.attack(weapon, unit, rules=rules, **kw)) == _reference(weapon, unit, kw, rules)


def test_a_full_cache_starts_afresh(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(plan_module, "_CACHED_CASES", 2)
    monkeypatch.setattr(plan_module, "_cases", {})
    results = [sc.attack(RIFLE, ZERGLINGS, firing_models=n) for n in (1, 2, 3, 1, 2, 3)]
    assert len(plan_module._cases) <= 2
    for n, result in zip((1, 2, 3, 1, 2, 3), results):
        assert _figures(result) == _reference(RIFLE, ZERGLINGS, {"firing_models": n}, {})
