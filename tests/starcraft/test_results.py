"""Result objects: JSON round trips, pandas frames, standard errors and progress reporting."""

from __future__ import annotations

import pytest

from mathhammer import starcraft as sc

RIFLE = sc.catalog.weapon("c14_rifle")
ZEALOTS = sc.catalog.unit("zealot")


def test_attack_result_round_trips_and_frames() -> None:
    for method in ("exact", "monte_carlo"):
        result = sc.attack(RIFLE, ZEALOTS, firing_models=6, method=method, samples=50_000, seed=4, threads=1)
        again = sc.AttackResult.from_json(result.to_json())
        assert again == result
        frame = result.to_frame()
        assert set(frame["quantity"]) == {"damage", "casualties", "marker", "hits", "surge", "bypass", "armour_fails",
                                          "damage_pool", "inflicting"}
        assert frame.groupby("quantity")["p"].sum().round(12).eq(1.0).all()
        assert ("stderr" in frame.columns) == (method == "monte_carlo")
        assert result.state.to_frame()["p"].sum() == pytest.approx(1.0)
        if method == "exact":
            assert result.destroyed_stderr is None and result.samples is None and result.seed is None
        else:
            assert result.destroyed_stderr == pytest.approx((result.destroyed * (1 - result.destroyed) / 50_000) ** 0.5)


def test_state_matches_the_marginals() -> None:
    result = sc.attack(RIFLE, ZEALOTS, firing_models=6)
    state = result.state
    for casualties in range(4):
        assert state.prob(models=3 - casualties) == pytest.approx(result.casualties.prob(casualties), abs=1e-15)
    assert state.prob(shielded=False) == pytest.approx(result.shield_lost, abs=1e-15)
    assert state.prob(models=0) == pytest.approx(result.destroyed, abs=1e-15)


def test_sequence_result_round_trips_and_frames() -> None:
    batches = [sc.Batch(RIFLE, firing_models=6), sc.Batch(None, mode="hits", hits=(2, 2))]
    for method in ("exact", "monte_carlo"):
        result = sc.sequence(ZEALOTS, batches, method=method, samples=50_000, seed=2, threads=1)
        assert sc.SequenceResult.from_json(result.to_json()) == result
        assert set(result.to_frame()["quantity"]) == {"total_damage", "casualties", "marker"}
        assert len(result.batches) == 2 and set(result.batches[1].to_frame()["quantity"]) == {"damage", "casualties", "marker"}


def test_resolution_and_allocation_records() -> None:
    trace = sc.resolve(RIFLE, ZEALOTS, 6, firing_models=1)
    assert trace.to_dict()["hits"] == 2 and len(trace.to_frame()) == 1
    assert sc.Resolution.from_dict(trace.to_dict()) == trace
    allocation = sc.rules.allocate(ZEALOTS, 7)
    assert sc.Allocation.from_json(allocation.to_json()) == allocation


def test_monte_carlo_reports_progress() -> None:
    seen: list[tuple[int, int]] = []
    sc.attack(RIFLE, ZEALOTS, method="monte_carlo", samples=300_000, seed=1, threads=1, progress=lambda d, t: seen.append((d, t)))
    assert seen and seen[-1] == (300_000, 300_000)
