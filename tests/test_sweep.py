"""mh.sweep: axes and their order, dotted profile keys, per-cell seeds, executors, progress,
interruption and error reports. Expected tables are built here cell by cell with itertools.product
and separate engine calls."""

from __future__ import annotations

import dataclasses

import functools
import importlib
import itertools
import multiprocessing
import time
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
from typing import Any

import pandas as pd
import pytest

import mathhammer as mh
from mathhammer.core.game import Action
from mathhammer import killteam as kt
from mathhammer import starcraft as sc
from mathhammer.errors import InputError
from mathhammer.sweeps import cell_seed

GUN = kt.Weapon(4, 3, (3, 4), "Lethal 5+")
TARGET = kt.Operative(3, wounds=12)
SUMMARY = ["mean_damage", "std_damage", "kill_chance", "injury_chance", "mean_self_damage"]


def fields(values: dict[str, Any]) -> dict[str, Any]:
    """Dotted keys as keywords (``**fields({"target.save": ...})``), typed as any sweep argument."""
    return values


def add(x: int, y: int, scale: float = 1.0) -> dict[str, float]:
    return {"total": scale * (x + y), "product": float(x * y)}


def seeded(x: int, seed: int | None = None) -> dict[str, float]:
    return {"seed": float(seed if seed is not None else -1), "value": float(x)}


def test_axes_are_the_product_first_axis_slowest() -> None:
    df = mh.sweep(add, x=[1, 2, 3], y=range(10, 13), scale=2.0)
    expected = [(x, y, 2.0 * (x + y), float(x * y)) for x, y in itertools.product([1, 2, 3], range(10, 13))]
    assert list(df.columns) == ["x", "y", "total", "product"]
    assert [tuple(row) for row in df.itertuples(index=False)] == expected


def test_tuples_are_axes_and_other_values_pass_unchanged() -> None:
    df = mh.sweep(add, x=(5,), y=(1, 2), scale=0.5)
    assert df["total"].tolist() == [3.0, 3.5]
    assert "scale" not in df.columns


def test_a_kill_team_shot_sweep_reproduces_separate_calls() -> None:
    df = mh.sweep(kt.shoot, weapon=GUN, target=TARGET, cover=[0, 1],
                  **fields({"weapon.hit": [3, 4], "target.save": range(2, 7)}))
    assert list(df.columns) == ["cover", "weapon.hit", "target.save", *SUMMARY]
    assert len(df) == 2 * 2 * 5
    rows = list(df.itertuples(index=False))
    for row, (cover, hit, save) in zip(rows, itertools.product([0, 1], [3, 4], range(2, 7))):
        gun = kt.Weapon(4, hit, (3, 4), "Lethal 5+")
        expected = kt.shoot(gun, kt.Operative(save, wounds=12), cover=cover).summary()
        assert (row[0], row[1], row[2]) == (cover, hit, save)
        assert list(row[3:]) == [expected[key] for key in SUMMARY]


def test_a_profile_axis_and_a_fixed_dotted_key() -> None:
    guns = [GUN, kt.Weapon(5, 4, (2, 5), "Piercing 1")]
    df = mh.sweep(kt.shoot, weapon=guns, target=TARGET, **fields({"target.wounds": 8}))
    for row, gun in zip(df.itertuples(index=False), guns):
        assert row.weapon is gun
        assert row.kill_chance == kt.shoot(gun, kt.Operative(3, wounds=8)).kill_chance


def test_a_starcraft_sweep_passes_keyword_options() -> None:
    rifle, zealot = sc.catalog.weapon("c14_rifle"), sc.catalog.unit("zealot")
    df = mh.sweep(sc.attack, weapon=rifle, unit=zealot, firing_models=range(1, 4), hit_mod=[0, 1])
    for row, (models, mod) in zip(df.itertuples(index=False), itertools.product(range(1, 4), [0, 1])):
        expected = sc.attack(rifle, zealot, firing_models=models, hit_mod=mod).summary()
        assert row.mean_damage == expected["mean_damage"] and row.destroyed_chance == expected["destroyed_chance"]


def _splitmix64(state: int, count: int) -> list[int]:
    """The reference generator, written out step by step: advance the state, then mix it."""
    out, mask = [], 2**64 - 1
    for _ in range(count):
        state = (state + 0x9E3779B97F4A7C15) % 2**64
        z = state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & mask
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & mask
        out.append(z ^ (z >> 31))
    return out


def test_cell_seeds_are_the_splitmix64_stream_of_the_sweep_seed() -> None:
    # the published first output of splitmix64 seeded with 0
    assert cell_seed(0, 0) == 0xE220A8397B1DCDAF
    for seed in (0, 7, 2**64 - 1):
        assert [cell_seed(seed, i) for i in range(50)] == _splitmix64(seed, 50)


def test_a_function_taking_seed_gets_the_cell_seed_whatever_the_chunking() -> None:
    frames = [mh.sweep(seeded, x=range(23), seed=99, chunk=chunk) for chunk in (None, 1, 5, 23, 100)]
    assert frames[0]["seed"].tolist() == [float(cell_seed(99, i)) for i in range(23)]
    for other in frames[1:]:
        pd.testing.assert_frame_equal(frames[0], other)
    assert all(f.attrs["seed"] == 99 for f in frames)


def test_a_sweep_without_a_seed_draws_one_and_records_it() -> None:
    options: dict[str, Any] = dict(weapon=GUN, target=TARGET, method="monte_carlo", samples=2_000, threads=1,
                                  cover=[0, 1])
    first = mh.sweep(kt.shoot, **options)
    again = mh.sweep(kt.shoot, seed=first.attrs["seed"], **options)
    pd.testing.assert_frame_equal(first, again)
    # each cell really ran with its derived seed
    for index, cover in enumerate([0, 1]):
        direct = kt.shoot(GUN, TARGET, cover=cover, method="monte_carlo", samples=2_000, threads=1,
                          seed=cell_seed(first.attrs["seed"], index))
        assert first["mean_damage"][index] == direct.summary()["mean_damage"]


def test_a_function_without_seed_is_not_given_one() -> None:
    df = mh.sweep(add, x=[1], y=[2], seed=5)
    assert df.attrs["seed"] == 5 and list(df.columns) == ["x", "y", "total", "product"]


def test_progress_counts_cells() -> None:
    calls: list[tuple[int, int]] = []
    mh.sweep(add, x=range(10), y=range(10), chunk=30, progress=lambda done, total: calls.append((done, total)))
    assert calls == [(30, 100), (60, 100), (90, 100), (100, 100)]


def test_a_bad_axis_value_is_refused_before_any_cell_runs_naming_its_axis() -> None:
    with pytest.raises(InputError) as caught:
        mh.sweep(kt.shoot, weapon=GUN, target=TARGET, cover=[0, 7])
    assert not isinstance(caught.value, mh.SweepError)
    assert caught.value.field == "cover" and "7 is out of range; allowed 0..3" in str(caught.value)


def test_a_bad_dotted_value_is_refused_naming_the_dotted_key() -> None:
    with pytest.raises(InputError) as caught:
        mh.sweep(kt.shoot, weapon=GUN, target=TARGET, **fields({"target.save": [3, 4, 7]}))
    assert caught.value.field == "target.save" and "allowed 2..6" in str(caught.value)


def test_unchecked_a_cell_that_raises_is_reported_with_its_parameters() -> None:
    with pytest.raises(mh.SweepError) as caught:
        mh.sweep(kt.shoot, weapon=GUN, target=TARGET, cover=[0, 7], check=False)
    error = caught.value
    assert error.index == 1 and error.parameters == {"cover": "7"} and error.error_type == "InputError"
    assert "cell 1 (cover=7)" in str(error) and "cover" in error.message
    with pytest.raises(mh.SweepError, match=r"cell 2 \(weapon.hit=7\)") as dotted:
        mh.sweep(kt.shoot, weapon=GUN, target=TARGET, check=False, **fields({"weapon.hit": [3, 4, 7]}))
    assert dotted.value.message == "weapon.hit: 7 is out of range; allowed 2..6"


@pytest.mark.parametrize("arguments, field", [
    ({"weapon": GUN, "target": TARGET, "armour": [1, 2]}, "armour"),
    ({"weapon": GUN, "target": TARGET, "target.armour": [1, 2]}, "target.armour"),
    ({"weapon": GUN, "target.save": [2, 3]}, "target.save"),
    ({"weapon": GUN, "target": TARGET, "cover": []}, "cover"),
    ({"weapon": [GUN, GUN], "target": TARGET, "weapon.hit": [2, 3]}, "weapon.hit"),
])
def test_bad_arguments_are_refused_before_any_cell_runs(arguments: dict[str, Any], field: str) -> None:
    with pytest.raises((InputError, TypeError)) as caught:
        mh.sweep(kt.shoot, **arguments)
    assert getattr(caught.value, "field", None) == field


def test_a_function_returning_no_figures_is_refused() -> None:
    with pytest.raises(mh.SweepError, match="no summary"):
        mh.sweep(lambda x: x, x=[1])


def test_ctrl_c_stops_the_sweep_serially() -> None:
    ran: list[int] = []

    def stop_at_three(x: int) -> dict[str, float]:
        if x == 3:
            raise KeyboardInterrupt
        ran.append(x)
        return {"value": float(x)}

    with pytest.raises(KeyboardInterrupt):
        mh.sweep(stop_at_three, x=range(100), chunk=1)
    assert ran == [0, 1, 2]


def test_ctrl_c_cancels_the_chunks_not_started() -> None:
    ran: list[int] = []

    def slow(x: int) -> dict[str, float]:
        time.sleep(0.01)  # 200 cells take 2 s: the interrupt comes long before the last
        ran.append(x)
        return {"value": float(x)}

    def interrupt(done: int, total: int) -> None:
        raise KeyboardInterrupt

    with ThreadPoolExecutor(1) as pool:
        with pytest.raises(KeyboardInterrupt):
            mh.sweep(slow, x=range(200), chunk=1, executor=pool, progress=interrupt)
    assert 1 <= len(ran) < 200


SHOT_SWEEP: dict[str, Any] = dict(weapon=GUN, target=TARGET, cover=[0, 1], method="monte_carlo", samples=3_000,
                                  threads=1, seed=2024, chunk=3,
                                  **fields({"weapon.rules": ["Lethal 5+", "Piercing 1"], "target.save": range(2, 7)}))


def test_a_process_pool_gives_the_serial_table() -> None:
    serial = mh.sweep(kt.shoot, **SHOT_SWEEP)
    with ProcessPoolExecutor(2, mp_context=multiprocessing.get_context("spawn")) as pool:
        pooled = mh.sweep(kt.shoot, executor=pool, **SHOT_SWEEP)
        with pytest.raises(mh.SweepError) as caught:  # a failed cell comes back from the worker intact
            mh.sweep(kt.shoot, weapon=GUN, target=TARGET, cover=[0, 1, 9], chunk=1, executor=pool, check=False)
    pd.testing.assert_frame_equal(serial, pooled)
    assert caught.value.index == 2 and caught.value.parameters == {"cover": "9"}
    assert pooled.attrs["seed"] == serial.attrs["seed"] == 2024


@pytest.mark.dask_cluster
def test_a_dask_local_cluster_gives_the_serial_table() -> None:
    distributed = pytest.importorskip("dask.distributed")
    serial = mh.sweep(kt.shoot, **SHOT_SWEEP)
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster:
        with distributed.Client(cluster) as client:
            on_dask = mh.sweep(kt.shoot, executor=client.get_executor(), **SHOT_SWEEP)
    pd.testing.assert_frame_equal(serial, on_dask)


def test_dotted_and_plain_axes_keep_the_order_given() -> None:
    df = mh.sweep(kt.shoot, target=TARGET, **fields({"target.save": [3, 4]}), weapon=GUN, cover=[0, 1],
                  **fields({"weapon.hit": [2, 5]}))
    assert list(df.columns[:3]) == ["target.save", "cover", "weapon.hit"]
    cells = list(itertools.product([3, 4], [0, 1], [2, 5]))
    assert [tuple(int(v) for v in row[:3]) for row in df.itertuples(index=False)] == cells
    for row, (save, cover, hit) in zip(df.itertuples(index=False), cells):
        assert row.mean_damage == kt.shoot(kt.Weapon(4, hit, (3, 4), "Lethal 5+"), kt.Operative(save, 12),
                                           cover=cover).summary()["mean_damage"]


def test_a_batched_sweep_is_the_cell_by_cell_sweep(monkeypatch: pytest.MonkeyPatch) -> None:
    # kt.shoot runs chunk by chunk through kt.shoot_batch; without the registry entry every cell is
    # its own kt.shoot call: the tables are the same, exact and Monte Carlo (same cell seeds)
    sweep_module = importlib.import_module("mathhammer.sweeps")  # mh.sweep is the function

    grid = fields({"weapon.hit": [2, 3, 4], "target.save": range(2, 7), "cover": range(0, 3),
                   "target.wounds": [7, 12]})
    exact = mh.sweep(kt.shoot, weapon=GUN, target=TARGET, chunk=7, **grid)
    sampled = mh.sweep(kt.shoot, weapon=GUN, target=TARGET, method="monte_carlo", samples=2_000, seed=11,
                       cover=[0, 1], **fields({"weapon.hit": [3, 4]}))
    monkeypatch.setattr(sweep_module, "batch_form", lambda fn: None)  # every function cell by cell
    pd.testing.assert_frame_equal(exact, mh.sweep(kt.shoot, weapon=GUN, target=TARGET, chunk=7, **grid),
                                  check_exact=True)
    pd.testing.assert_frame_equal(sampled, mh.sweep(kt.shoot, weapon=GUN, target=TARGET, method="monte_carlo",
                                                    samples=2_000, seed=11, cover=[0, 1],
                                                    **fields({"weapon.hit": [3, 4]})), check_exact=True)


def test_chunks_in_columns_and_in_rows_make_one_table(monkeypatch: pytest.MonkeyPatch) -> None:
    # a batch form's chunk comes back as columns (ResultBatch.summary_arrays()); a chunk whose batch
    # call fails runs cell by cell and comes back as rows: the table joins both, in cell order, with the
    # numbers of a sweep that made every chunk in columns
    grid = fields({"weapon.hit": [2, 3, 4], "target.save": range(2, 7), "cover": range(0, 3)})
    columns_only = mh.sweep(kt.shoot, weapon=GUN, target=TARGET, chunk=8, **grid)
    calls = []

    def failing_every_other_call(*args: Any, **kwargs: Any) -> Any:
        calls.append(len(calls))
        if len(calls) % 2 == 0:
            raise RuntimeError("this chunk runs cell by cell")
        return kt.shoot_batch(*args, **kwargs)

    sweep_module = importlib.import_module("mathhammer.sweeps")
    names = sweep_module.batch_form(kt.shoot)[1]
    monkeypatch.setattr(sweep_module, "batch_form", lambda fn: (failing_every_other_call, names))
    mixed = mh.sweep(kt.shoot, weapon=GUN, target=TARGET, chunk=8, **grid)
    assert len(calls) == 6  # 45 cells in chunks of 8, every other one failed
    pd.testing.assert_frame_equal(mixed, columns_only, check_exact=True)
    for row in mixed.itertuples(index=False):
        weapon = dataclasses.replace(GUN, hit=int(row[0]))
        target = dataclasses.replace(TARGET, save=int(row[1]))
        assert row.kill_chance == kt.shoot(weapon, target, cover=int(row[2])).kill_chance


def plus(x: int, y: int = 0) -> dict[str, float]:
    if x < 0:
        raise ValueError("negative")
    return {"sum": float(x + y)}


BATCH_CALLS: list[dict[str, Any]] = []


def plus_batch(xs: list[int], y: int | list[int] = 0) -> list[dict[str, float]]:
    BATCH_CALLS.append({"xs": xs, "y": y})
    ys = y if isinstance(y, list) else [y] * len(xs)
    if any(x < 0 for x in xs):
        raise ValueError("negative")
    return [{"sum": float(x + b)} for x, b in zip(xs, ys)]


def test_the_batch_registry_renames_positional_arguments_and_falls_back_cell_by_cell(
        monkeypatch: pytest.MonkeyPatch) -> None:
    sweep_module = importlib.import_module("mathhammer.sweeps")  # mh.sweep is the function

    assert sweep_module.batch_form(kt.shoot) == (
        kt.shoot_batch, {"weapon": "weapons", "target": "targets", "cover": "cover", "obscured": "obscured",
                         "rounds": "rounds", "cover_crits": "cover_crits", "shooter_wounds": "shooter_wounds",
                         "method": "method", "samples": "samples",
                         "seed": "seed", "threads": "threads", "progress": "progress", "executor": "executor",
                         "variants": "variants"})
    assert sweep_module.batch_form(add) is None
    # a game action with a batch form (here a toy one, added to Kill Team's descriptor) sweeps through it
    toy = Action("plus", plus, dict, "a toy action", batch=plus_batch, scenario=False)
    monkeypatch.setattr(kt, "GAME", dataclasses.replace(kt.GAME, actions=(*kt.GAME.actions, toy)))
    BATCH_CALLS.clear()
    df = mh.sweep(plus, x=range(6), y=[10, 20], chunk=4)
    assert df["sum"].tolist() == [float(x + y) for x in range(6) for y in (10, 20)]
    assert [call["xs"] for call in BATCH_CALLS] == [[0, 0, 1, 1], [2, 2, 3, 3], [4, 4, 5, 5]]
    # a failing batch: its chunk runs cell by cell, and the bad cell is reported as itself (check=False:
    # else the check of every axis value before the sweep finds it first)
    with pytest.raises(mh.SweepError) as caught:
        mh.sweep(plus, x=[1, -1], y=5, chunk=2, check=False)
    assert caught.value.index == 1 and caught.value.parameters == {"x": "-1"}
    assert caught.value.error_type == "ValueError" and len(BATCH_CALLS) == 4


def test_other_games_sweep_through_their_batch_functions(monkeypatch: pytest.MonkeyPatch) -> None:
    """sc.attack, db.combat and fm.melee run chunk by chunk through sc.attack_batch, db.combat_batch
    and fm.melee_batch; the tables equal the cell-by-cell ones, exact and Monte Carlo."""
    from mathhammer import deathburgh as db
    from mathhammer import force_melee as fm
    from mathhammer import starcraft as sc

    sweep_module = importlib.import_module("mathhammer.sweeps")
    rifle, zerglings = sc.catalog.weapon("c14_rifle"), sc.catalog.unit("zergling")
    sweeps = [
        lambda: mh.sweep(sc.attack, weapon=rifle, unit=zerglings, firing_models=range(1, 7), dodge=[0, 1], chunk=5),
        lambda: mh.sweep(sc.attack, weapon=rifle, unit=zerglings, firing_models=[2, 4], method="monte_carlo",
                         samples=3_000, seed=5),
        lambda: mh.sweep(db.combat, attacker=["Old Fellas Brute", "Bandit Leader"], defender="Bandit Brute",
                         reaction=["attack", "dodge", "none"], chunk=4),
        lambda: mh.sweep(fm.melee, a=fm.example("line_troopers"), b=[fm.example("militia"), fm.example("walker")],
                         winner_damage=["once", "excess", "per_hit"], chunk=4),
    ]
    batched = [run() for run in sweeps]
    calls: list[str] = []
    for name in ("attack_batch", "combat_batch", "melee_batch"):
        module = {"attack_batch": sc, "combat_batch": db, "melee_batch": fm}[name]
        real = getattr(module.engine, name)

        def recorded(*args: Any, _real: Any = real, _name: str = name, **kwargs: Any) -> Any:
            result = _real(*args, **kwargs)
            calls.append(_name)  # after it returned: a failing batch (then run cell by cell) is not counted
            return result

        # the sweep reads the batch function's parameter names, so the wrapper keeps its signature; the
        # descriptor (module.GAME) names the batch form a sweep runs
        wrapped = functools.wraps(real)(recorded)
        actions = tuple(dataclasses.replace(a, batch=wrapped) if a.batch is real else a for a in module.GAME.actions)
        monkeypatch.setattr(module, "GAME", dataclasses.replace(module.GAME, actions=actions))
    # each batch call returned (recorded after it did), so no chunk fell back to cell-by-cell
    assert [run() for run in sweeps] and set(calls) == {"attack_batch", "combat_batch", "melee_batch"}
    monkeypatch.setattr(sweep_module, "batch_form", lambda fn: None)  # every function cell by cell
    for frame, run in zip(batched, sweeps):
        pd.testing.assert_frame_equal(frame, run(), check_exact=True)
