"""The exact engine against the Monte Carlo engine on random valid attacks and sequences covering
every keyword, mode and rule variant: every probability within 5 standard errors (+1e-9; the larger
of the exact and the sampled variance), a value the exact engine calls impossible never sampled, and
a chi-square bound on each whole distribution (tests/stats.py)."""

from __future__ import annotations

import math
import random
from collections import defaultdict

import numpy as np
import pytest
from mathhammer.core import sampling
from mathhammer import starcraft as sc
from mathhammer.starcraft import plan as plan_module
from sc_scenarios import (
    ALL_FEATURES,
    features,
    profiles,
    random_batch,
    random_rules,
    random_unit,
    scenarios,
)
from stats import assert_pmf_close

SAMPLES = 200_000
ATTACKS = scenarios(200, 4242, 24, big=True)


def _close(exact, mc, samples: int, label: str) -> None:
    # The larger of the exact and the sampled variance per cell (the Gaussian bound alone is too
    # tight when the expected count is far below 1), no count floor, values below 1e-15 impossible.
    assert_pmf_close(np.asarray(exact.pmf), np.asarray(mc.pmf), samples, label, floor=0.0, sampled_variance=True,
                     impossible_below=1e-15)


def _close_p(exact: float, mc: float, samples: int, label: str) -> None:
    variance = max(exact * (1 - exact), mc * (1 - mc), 0.0)
    assert abs(exact - mc) <= 5 * math.sqrt(variance / samples) + 1e-9, (label, exact, mc)
    assert exact > 1e-15 or mc == 0, (label, "sampled an impossible event")


def test_random_attacks_cover_every_feature() -> None:
    counts: dict[str, int] = defaultdict(int)
    for scenario in ATTACKS:
        for name in features(*scenario):
            counts[name] += 1
    assert ALL_FEATURES <= set(counts), ALL_FEATURES - set(counts)
    assert min(counts[name] for name in ALL_FEATURES) >= 5, dict(counts)
    assert max(sc.attack(*profiles(w, u), rules=r, **kw).stages.dice for w, u, kw, r in ATTACKS) >= 18


@pytest.mark.parametrize("chunk", range(4))
def test_exact_equals_monte_carlo_on_random_attacks(chunk: int) -> None:
    for index in range(chunk * 50, (chunk + 1) * 50):
        weapon, unit, kw, rules = ATTACKS[index]
        w, u = profiles(weapon, unit)
        exact = sc.attack(w, u, rules=rules, method="exact", **kw)
        mc = sc.attack(w, u, rules=rules, method="monte_carlo", samples=SAMPLES, seed=index, threads=2, **kw)
        label = f"attack {index}"
        for name in ("damage", "casualties", "marker"):
            _close(getattr(exact, name), getattr(mc, name), SAMPLES, f"{label} {name}")
        for name, dist in exact.stages.distributions().items():
            _close(dist, getattr(mc.stages, name), SAMPLES, f"{label} stage {name}")
        _close_p(exact.destroyed, mc.destroyed, SAMPLES, f"{label} destroyed")
        _close_p(exact.shield_lost, mc.shield_lost, SAMPLES, f"{label} shield_lost")
        assert exact.stages.dice == mc.stages.dice


def _random_sequences(count: int, seed: int) -> list[tuple]:
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        rules = random_rules(rng)
        unit = random_unit(rng, big=True)
        batches = [random_batch(rng, unit, rules, 10) for _ in range(rng.randint(2, 4))]
        out.append((unit, batches, rules))
    return out


SEQUENCES = _random_sequences(40, 515)


@pytest.mark.parametrize("index", range(len(SEQUENCES)))
def test_exact_equals_monte_carlo_on_random_sequences(index: int) -> None:
    unit, batches, rules = SEQUENCES[index]
    target = sc.Unit(**unit)
    plan = [sc.Batch(None if w is None else sc.Weapon(**w), **kw) for w, kw in batches]
    exact = sc.sequence(target, plan, rules=rules, method="exact")
    mc = sc.sequence(target, plan, rules=rules, method="monte_carlo", samples=SAMPLES, seed=index, threads=2)
    assert exact.method == "exact" and mc.method == "monte_carlo"
    for name in ("total_damage", "casualties", "marker"):
        _close(getattr(exact, name), getattr(mc, name), SAMPLES, f"sequence {index} {name}")
    _close_p(exact.destroyed, mc.destroyed, SAMPLES, "destroyed")
    _close_p(exact.shield_lost, mc.shield_lost, SAMPLES, "shield_lost")
    for b, (e_batch, m_batch) in enumerate(zip(exact.batches, mc.batches)):
        for name in ("damage", "casualties", "marker"):
            _close(getattr(e_batch, name), getattr(m_batch, name), SAMPLES, f"sequence {index} batch {b} {name}")
        _close_p(e_batch.destroyed, m_batch.destroyed, SAMPLES, f"batch {b} destroyed")
        _close_p(e_batch.shield_lost, m_batch.shield_lost, SAMPLES, f"batch {b} shield_lost")
    # The final state, row by row.
    e_state = {tuple(r): p for r, p in zip(zip(exact.state.models, exact.state.marker, exact.state.shielded,
                                                exact.state.first_model_alive), exact.state.p)}
    m_state = {tuple(r): p for r, p in zip(zip(mc.state.models, mc.state.marker, mc.state.shielded,
                                                mc.state.first_model_alive), mc.state.p)}
    for key in set(e_state) | set(m_state):
        _close_p(e_state.get(key, 0.0), m_state.get(key, 0.0), SAMPLES, f"state {key}")


def _same_pmf(a, b) -> bool:
    size = max(a.pmf.size, b.pmf.size)
    return np.allclose(np.pad(a.pmf, (0, size - a.pmf.size)), np.pad(b.pmf, (0, size - b.pmf.size)), atol=1e-12)


def test_one_batch_sequence_equals_attack() -> None:
    for weapon, unit, kw, rules in ATTACKS[:40]:
        w, u = profiles(weapon, unit)
        one = sc.attack(w, u, rules=rules, **kw)
        seq = sc.sequence(u, [sc.Batch(w, **kw)], rules=rules)
        assert _same_pmf(seq.total_damage, one.damage)
        assert _same_pmf(seq.casualties, one.casualties)
        assert _same_pmf(seq.marker, one.marker)
        assert _same_pmf(seq.batches[0].damage, one.damage)
        assert seq.destroyed == pytest.approx(one.destroyed, abs=1e-12)
        assert seq.shield_lost == pytest.approx(one.shield_lost, abs=1e-12)


@pytest.mark.parametrize("threads", [1, 2, 8])
def test_same_seed_same_counts_for_any_thread_count(threads: int) -> None:
    from mathhammer import _core

    weapon, unit, kw, rules = ATTACKS[3]
    w, u = profiles(weapon, unit)
    plan = plan_module.plan_batch(w, u, sc.Rules(**rules), **kw)
    kernel = lambda s, t, b, e, th: _core.starcraft.sample_attack(plan.config, s, t, b, e, th)  # noqa: E731
    reference = sampling.run_monte_carlo(kernel, 300_000, 11, 1)
    assert np.array_equal(reference, sampling.run_monte_carlo(kernel, 300_000, 11, threads))
    a = sc.attack(w, u, rules=rules, method="monte_carlo", samples=300_000, seed=5, threads=1, **kw)
    b = sc.attack(w, u, rules=rules, method="monte_carlo", samples=300_000, seed=5, threads=threads, **kw)
    assert a == b
    unit_, batches, rules_ = SEQUENCES[0]
    target = sc.Unit(**unit_)
    plan_ = [sc.Batch(None if w_ is None else sc.Weapon(**w_), **k) for w_, k in batches]
    s1 = sc.sequence(target, plan_, rules=rules_, method="monte_carlo", samples=300_000, seed=9, threads=1)
    s2 = sc.sequence(target, plan_, rules=rules_, method="monte_carlo", samples=300_000, seed=9, threads=threads)
    assert s1 == s2


def test_different_seeds_differ() -> None:
    w, u = sc.catalog.weapon("c14_rifle"), sc.catalog.unit("zergling")
    a = sc.attack(w, u, firing_models=6, method="monte_carlo", samples=100_000, seed=1, threads=1)
    b = sc.attack(w, u, firing_models=6, method="monte_carlo", samples=100_000, seed=2, threads=1)
    assert a.damage != b.damage
