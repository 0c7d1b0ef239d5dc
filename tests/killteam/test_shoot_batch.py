"""kt.shoot_batch: every item is the separate kt.shoot call; broadcasting; errors naming the item."""

from __future__ import annotations

import random

import numpy as np
import pytest

from mathhammer import InputError, InputTypeError
from mathhammer import killteam as kt
from mathhammer.core.batches import ResultBatch

RULES = "Balanced, Lethal 5+, Rending, Piercing Crits 1, Devastating 1"
WEAPONS = [
    kt.Weapon(4, 3, (3, 4), RULES),
    kt.Weapon(8, 3, (3, 4), RULES),
    kt.Weapon(6, 4, (4, 5), "Ceaseless Balanced, Severe, Punishing, Piercing 1"),
    kt.Weapon(2, 2, (5, 6), "Saturate, Piercing 2"),
]
TARGETS = [
    kt.Operative(3, 12, "Feel No Pain 5+"),
    kt.Operative(3, 12, "Saintly Relics (2D6), Just a Scratch"),
    kt.Operative(5, 7),
    kt.Operative(2, 18, "Durable, Hardy 5+"),
]


def test_every_item_is_the_separate_call() -> None:
    covers = [0, 1, 2, 0]
    rounds = [1, 1, 3, 2]
    variants = [None, "ktcalc", {"blocks": "greedy"}, "fnp=per_hit"]
    batch = kt.shoot_batch(WEAPONS, TARGETS, covers, obscured=[False, True, False, True], rounds=rounds,
                           cover_crits=[0, 0, 1, 0], variants=variants)
    assert isinstance(batch, ResultBatch) and len(batch) == 4
    for i in range(4):
        alone = kt.shoot(WEAPONS[i], TARGETS[i], covers[i], [False, True, False, True][i], rounds[i],
                         cover_crits=[0, 0, 1, 0][i], variants=variants[i])
        assert batch[i].to_json() == alone.to_json()
        assert batch[i - 4] is batch[i]  # negative indices; an item is built once


def test_a_single_value_is_repeated_to_the_sequences_length() -> None:
    batch = kt.shoot_batch(WEAPONS[0], TARGETS, cover=1)
    assert len(batch) == len(TARGETS)
    for i, target in enumerate(TARGETS):
        assert batch[i].to_json() == kt.shoot(WEAPONS[0], target, cover=1).to_json()
    single = kt.shoot_batch(WEAPONS[1], TARGETS[0])
    assert len(single) == 1 and single[0].to_json() == kt.shoot(WEAPONS[1], TARGETS[0]).to_json()


def test_repeated_items_and_equal_profiles() -> None:
    # the same objects many times, and equal but distinct profiles, give the separate call's result
    twin = kt.Weapon(4, 3, (3, 4), RULES)
    batch = kt.shoot_batch([WEAPONS[0]] * 5 + [twin], TARGETS[0], cover=1)
    alone = kt.shoot(WEAPONS[0], TARGETS[0], cover=1).to_json()
    assert [item.to_json() for item in batch] == [alone] * 6


def test_profiles_as_tables_of_fields() -> None:
    batch = kt.shoot_batch(WEAPONS[2].to_dict(), TARGETS[1].to_dict())
    assert batch[0].to_json() == kt.shoot(WEAPONS[2], TARGETS[1]).to_json()


def test_monte_carlo_items_are_the_separate_call_with_their_seed() -> None:
    batch = kt.shoot_batch(WEAPONS[:2], TARGETS[0], method=["exact", "monte_carlo"], samples=20_000, seed=[None, 7])
    assert batch[0].to_json() == kt.shoot(WEAPONS[0], TARGETS[0]).to_json()
    sampled = kt.shoot(WEAPONS[1], TARGETS[0], method="monte_carlo", samples=20_000, seed=7)
    assert batch[1].method == "monte_carlo" and batch[1].to_json() == sampled.to_json()


def test_to_frame_is_one_summary_row_per_item() -> None:
    frame = kt.shoot_batch(WEAPONS, TARGETS[0], cover=1).to_frame()
    assert len(frame) == len(WEAPONS)
    for i, weapon in enumerate(WEAPONS):
        assert frame.iloc[i].to_dict() == kt.shoot(weapon, TARGETS[0], cover=1).summary()


def test_shoot_many_is_shoot_batch() -> None:
    assert kt.shoot_many is kt.shoot_batch


def test_sequences_of_different_lengths_are_refused() -> None:
    with pytest.raises(InputError, match=r"^targets: has 3 items but weapons has 4"):
        kt.shoot_batch(WEAPONS, TARGETS[:3])
    with pytest.raises(InputError, match=r"^cover: an empty sequence"):
        kt.shoot_batch(WEAPONS[0], TARGETS[0], cover=[])


def test_errors_name_the_item() -> None:
    bad = dict(WEAPONS[0].to_dict(), hit=9)
    with pytest.raises(InputError, match=r"^weapons\[3\]\.hit: "):
        kt.shoot_batch(WEAPONS[:3] + [bad], TARGETS[0])
    with pytest.raises(InputTypeError, match=r"^targets\[2\]: expected a kt\.Operative"):
        kt.shoot_batch(WEAPONS[0], [TARGETS[0], TARGETS[1], "3+ 12W"])
    with pytest.raises(InputError, match=r"^cover\[1\]: 5 is out of range"):
        kt.shoot_batch(WEAPONS[0], TARGETS[0], cover=[0, 5])
    with pytest.raises(InputTypeError, match=r"^rounds\[0\]: expected an integer"):
        kt.shoot_batch(WEAPONS[0], TARGETS[0], rounds=[True, 1])
    with pytest.raises(InputError, match=r"^cover: 5 is out of range"):
        kt.shoot_batch(WEAPONS, TARGETS, cover=5)
    with pytest.raises(InputError, match=r"^method\[1\]: unknown value"):
        kt.shoot_batch(WEAPONS[0], TARGETS[0], method=["exact", "guess"])
    with pytest.raises(InputError, match=r"^variants\[1\]\.blocks: unknown value"):
        kt.shoot_batch(WEAPONS[0], TARGETS[0], variants=[None, {"blocks": "random"}])


def test_indices_outside_the_batch() -> None:
    batch = kt.shoot_batch(WEAPONS[0], TARGETS[:2])
    with pytest.raises(IndexError):
        batch[2]
    with pytest.raises(IndexError):
        batch[-3]
    with pytest.raises(TypeError):
        batch["0"]  # type: ignore[index]


def test_summaries_without_the_results_are_their_summaries() -> None:
    # ResultBatch.summaries() reads the damage pmf alone for the items not built yet; it must give
    # the summary() of the built result, bit for bit, exact and Monte Carlo items alike
    weapons = WEAPONS * 3
    targets = [TARGETS[(i * 3) % 4] for i in range(len(weapons))]
    methods = ["exact"] * 11 + ["monte_carlo"]
    batch = kt.shoot_batch(weapons, targets, cover=[i % 4 for i in range(12)], rounds=[1 + i % 3 for i in range(12)],
                           method=methods, samples=5_000, seed=list(range(12)))
    lazy = batch.summaries()
    built = [kt.shoot(w, t, i % 4, rounds=1 + i % 3, method=methods[i], samples=5_000, seed=i).summary()
             for i, (w, t) in enumerate(zip(weapons, targets))]
    assert lazy == built
    assert [batch[i].summary() for i in range(12)] == built
    assert batch.summaries() == built  # the built items answer for themselves


def test_per_item_seeds_are_checked_on_exact_items() -> None:
    # an exact item does not use its seed, but a bad one is refused as the separate call refuses it
    seeds: list[object] = [1, 2, 3, -1]
    with pytest.raises(InputError, match=r"^seed\[3\]: -1 is out of range"):
        kt.shoot_batch(WEAPONS[0], TARGETS[0], seed=seeds)
    seeds[3] = True
    with pytest.raises(InputTypeError, match=r"^seed\[3\]: expected an integer"):
        kt.shoot_batch(WEAPONS[0], TARGETS[0], seed=seeds)
    batch = kt.shoot_batch(WEAPONS[0], TARGETS[0], seed=[None, 0, 2**64 - 1])
    assert [item.to_json() for item in batch] == [kt.shoot(WEAPONS[0], TARGETS[0]).to_json()] * 3


def test_exact_shots_arrays() -> None:
    from mathhammer import _core
    from mathhammer.killteam.plan import shoot_config

    configs = [shoot_config(w, t) for w, t in zip(WEAPONS, TARGETS)]
    shots = _core.killteam.shoot_exact_batch(configs + configs[:1])
    assert len(shots) == 5
    for i, config in enumerate(configs + configs[:1]):
        alone = _core.killteam.shoot_exact_tables(config)
        for table in ("damage", "attack", "saves", "self_damage"):
            got, expected = getattr(shots[i], table)(), getattr(alone, table)()
            assert got.shape == expected.shape and (got == expected).all()
        assert (shots.damage(i) == alone.damage()).all()
    with pytest.raises(IndexError):
        shots[5]
    with pytest.raises(IndexError):
        shots.damage(5)


def test_kt_shoot_takes_tables_of_fields_like_the_batch() -> None:
    """A sweep of kt.shoot runs its chunks through kt.shoot_batch, which takes profiles as tables of
    their fields; kt.shoot takes them too, so a one-cell chunk and a batched one agree."""
    gun, target = kt.Weapon(4, 3, (3, 4), "Lethal 5+"), kt.Operative(3, 12)
    assert kt.shoot(gun.to_dict(), target.to_dict(), cover=1).to_json() == kt.shoot(gun, target, cover=1).to_json()
    assert kt.shoot(gun.to_dict(), target).to_json() == kt.shoot_batch([gun.to_dict()], target)[0].to_json()
    with pytest.raises(InputError) as caught:
        kt.shoot({"attacks": 99, "hit": 3, "damage": [3, 4]}, target)
    assert caught.value.field == "weapon.attacks"
    with pytest.raises(InputError) as caught:
        kt.shoot(gun, {"save": 9})
    assert caught.value.field == "target.save"
    with pytest.raises(InputTypeError) as caught_type:
        kt.shoot(3, target)  # type: ignore[arg-type]
    assert caught_type.value.field == "weapon"


def _bits(values: object) -> list[int]:
    # each float's IEEE bits: "equal bit for bit", where == would let 0.0 pass for -0.0
    return np.asarray(values, dtype=np.float64).view(np.int64).tolist()


def test_summary_arrays_are_the_summaries_bit_for_bit() -> None:
    # summary_arrays() computes an exact batch's figures column by column; every number must be the
    # one the item's own kt.shoot(...).summary() gives. The family mixes pmf lengths, wounds (odd and
    # even, more than the largest damage), Hot weapons (the shooter's damage) and plain ones, rounds,
    # repeated shots and a Monte Carlo item.
    rng = random.Random(36)
    weapon_rules = ["", "Lethal 5+", "Hot", "Piercing 1, Hot", "Devastating 2", RULES, "Severe, Punishing"]
    target_abilities = ["", "Feel No Pain 5+", "Saintly Relics", "Durable", "Just a Scratch"]
    items = []
    for _ in range(150):
        weapon = kt.Weapon(rng.randint(1, 7), rng.randint(2, 6), (rng.randint(1, 5), rng.randint(5, 7)),
                           rng.choice(weapon_rules))
        target = kt.Operative(rng.randint(2, 6), rng.randint(1, 30), rng.choice(target_abilities))
        items.append((weapon, target, rng.randint(0, 2), rng.choice([1, 1, 2])))
    items += items[:5]  # the same shots again
    weapons, targets, covers, rounds = (list(column) for column in zip(*items))
    methods = ["exact"] * (len(items) - 1) + ["monte_carlo"]
    batch = kt.shoot_batch(weapons, targets, covers, rounds=rounds, method=methods, samples=2_000, seed=7)
    columns = batch.summary_arrays()
    own = [kt.shoot(w, t, c, rounds=r, method=m, samples=2_000, seed=batch[-1].seed if m == "monte_carlo" else None
                    ).summary() for (w, t, c, r), m in zip(items, methods)]
    assert list(columns) == list(own[0])
    for key, column in columns.items():
        assert column.dtype == np.float64 and column.shape == (len(items),)
        assert _bits(column) == _bits([summary[key] for summary in own]), key
    assert any(summary["mean_self_damage"] > 0 for summary in own)  # the family holds Hot shots
    assert len({summary["mean_damage"] for summary in own}) > 100


def test_summary_arrays_of_one_shot_repeated() -> None:
    batch = kt.shoot_batch(WEAPONS[1], [TARGETS[0]] * 50, cover=1)
    own = kt.shoot(WEAPONS[1], TARGETS[0], cover=1).summary()
    for key, column in batch.summary_arrays().items():
        assert _bits(column) == _bits([own[key]] * 50)


def test_to_frame_reads_the_summary_arrays() -> None:
    batch = kt.shoot_batch(WEAPONS, TARGETS, cover=[0, 1, 2, 3])
    frame = batch.to_frame()
    assert list(frame.columns) == list(batch.summaries()[0])
    assert frame.to_dict(orient="records") == batch.summaries()
