"""The fight decision cache starting over when full (it holds a bounded number of states): results
are bit-for-bit those of a cache that never fills, only more states are worked out again."""

from __future__ import annotations

import numpy as np
import pytest
from mathhammer import _core
from mathhammer import killteam as kt
from mathhammer.killteam.plan import fight_plan

FIGHTS = [
    (kt.Fighter(attacks=5, hit=3, damage=(3, 5), wounds=12, rules="Shock", abilities="Storm Shield, Hammerhand"),
     kt.Fighter(attacks=5, hit=3, damage=(4, 5), wounds=11, rules="Brutal", abilities="Dueller, Durable",
                strategy="min_damage"), 2),
    (kt.Fighter(attacks=4, hit=3, damage=(3, 4), wounds=10, abilities="Feel No Pain 5+, Murderous Entrance"),
     kt.Fighter(attacks=4, hit=4, damage=(2, 6), wounds=9, abilities="Saintly Relics, Just a Scratch",
                strategy="parry"), 3),
]


@pytest.mark.parametrize("index", range(len(FIGHTS)))
def test_a_tiny_decision_cache_changes_nothing_but_the_work(index):
    a, b, rounds = FIGHTS[index]
    plan = fight_plan(a, b, "a", rounds, kt.Variants())
    dice = plan.dice_a, plan.dice_b
    injured = {"injured_a": plan.injured_a, "injured_b": plan.injured_b}
    reference, work = _core.killteam.fight_exact(plan.spec, *dice, rounds, **injured)
    assert np.array_equal(reference, kt.fight(a, b, rounds=rounds, method="exact").joint.pmf)
    decisions = work["decisions"]
    for entries in (64, 8, 1):
        pmf, small = _core.killteam.fight_exact(plan.spec, *dice, rounds, cache_entries=entries, **injured)
        assert np.array_equal(pmf, reference), entries
        # More states worked out than the default cache needs: this one filled and started over.
        assert small["decisions"] > decisions, (entries, small, work)
        assert small["resolutions"] == work["resolutions"] and small["chance_states"] == work["chance_states"]
    assert decisions > 64  # the fight is large enough for the small caches to fill
