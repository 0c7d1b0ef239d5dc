"""fm.melee_batch: each item equals the separate fm.melee call (and the plain enumeration), arguments
broadcast, invalid items named; exact results built on first read equal eager ones."""

from __future__ import annotations

import copy
import pickle
import random
from typing import Any

import numpy as np
import pytest

import fm_reference as ref
from mathhammer import force_melee as fm
from mathhammer.errors import InputError, InputTypeError
from mathhammer.core.batches import ResultBatch
from mathhammer.force_melee import engine
from mathhammer.force_melee.results import MeleeResult

RNG = random.Random("melee-batch")
ITEMS = [(ref.random_side(RNG, max_dice=3), ref.random_side(RNG, max_dice=3), ref.random_switches(RNG))
         for _ in range(40)]
F1 = (fm.example("line_troopers"), fm.example("militia"))
SWITCHES = ("winner_damage", "allocation", "sustained_mode", "bonus_always")


def _columns(items: list[tuple[fm.Side, fm.Side, dict[str, Any]]]) -> dict[str, list[Any]]:
    columns: dict[str, list[Any]] = {"a": [a for a, _, _ in items], "b": [b for _, b, _ in items]}
    for name in SWITCHES:
        columns[name] = [sw[name] for _, _, sw in items]
    return columns


def test_every_item_equals_its_separate_call_and_the_enumeration() -> None:
    batch = fm.melee_batch(**_columns(ITEMS), method="exact")
    assert isinstance(batch, ResultBatch) and len(batch) == len(ITEMS)
    for i, (a, b, sw) in enumerate(ITEMS):
        assert batch[i].to_json() == fm.melee(a, b, method="exact", **sw).to_json()
        expected = ref.melee(a, b, sw)["joint"]
        table = np.zeros((max(k[0] for k in expected) + 1, max(k[1] for k in expected) + 1))
        for (to_a, to_b), p in expected.items():
            table[to_a, to_b] = float(p)
        assert batch[i].joint.pmf.shape == table.shape
        np.testing.assert_allclose(batch[i].joint.pmf, table, rtol=0, atol=1e-12)


def test_monte_carlo_items_equal_their_separate_calls() -> None:
    methods = ["monte_carlo", "exact", "monte_carlo", "auto"]
    seeds = [11, None, 12, None]
    columns = _columns(ITEMS[:4])
    batch = fm.melee_batch(**columns, method=methods, samples=3_000, seed=seeds)
    for i, (a, b, sw) in enumerate(ITEMS[:4]):
        separate = fm.melee(a, b, method=methods[i], samples=3_000, seed=seeds[i], **sw)
        assert batch[i].to_json() == separate.to_json()


def test_single_values_broadcast_to_the_sequences() -> None:
    walker = fm.example("walker")
    b_sides: list[Any] = [F1[1], walker, walker.to_dict()]
    batch = fm.melee_batch(F1[0], b_sides, winner_damage=("once", "per_hit", "excess"), allocation="no_spill")
    assert len(batch) == 3
    for i, wd in enumerate(("once", "per_hit", "excess")):
        assert batch[i].to_json() == fm.melee(F1[0], b_sides[i], winner_damage=wd, allocation="no_spill").to_json()
    one = fm.melee_batch(*F1, variants={"winner_damage": "pairing"})
    assert len(one) == 1 and one[0].to_json() == fm.melee(*F1, winner_damage="pairing").to_json()
    frame = one.to_frame()
    assert list(frame.columns) == list(fm.melee(*F1).summary()) and len(frame) == 1


@pytest.mark.parametrize(("kwargs", "field"), [
    ({"a": [F1[0], {"unit": {"models": 3}, "weapon": {"hit": 9, "force": 1}, "dice": 2}]}, "a[1].weapon.hit"),
    ({"b": [F1[1], "militia"]}, "b[1]"),
    ({"winner_damage": ["once", "most"]}, "winner_damage[1]"),
    ({"method": ["exact", "sometimes"]}, "method[1]"),
    ({"seed": [1, -1], "method": "monte_carlo"}, "seed[1]"),
    ({"variants": [None, "bonus_always=perhaps"]}, "variants[1].bonus_always"),
])
def test_an_invalid_item_is_named(kwargs: dict[str, Any], field: str) -> None:
    arguments = {"a": F1[0], "b": F1[1], **kwargs}
    with pytest.raises((InputError, InputTypeError)) as raised:
        fm.melee_batch(**arguments)
    assert raised.value.field == field


def test_an_exchange_too_large_to_tabulate_is_named_by_its_item() -> None:
    huge = fm.Side(fm.Unit(30, 30), fm.Weapon(hit=2, force=20, sustained=10, critical_damage=10, bonus_flat=10,
                                              crit=2), dice=40)
    with pytest.raises(InputError) as raised:
        fm.melee(huge, huge, winner_damage="per_hit", sustained_mode="extra_hits")
    assert raised.value.field == "dice"
    switches = {"winner_damage": "per_hit", "sustained_mode": "extra_hits"}
    with pytest.raises(InputError) as raised:
        fm.melee_batch([F1[0], huge], [F1[1], huge], **switches)
    assert raised.value.field == "a[1].dice"
    with pytest.raises(InputError) as raised:  # a single side is no item: the listed one names it
        fm.melee_batch(huge, [huge, F1[1]], **switches)
    assert raised.value.field == "b[0].dice"


def test_sequences_of_different_lengths_are_refused() -> None:
    with pytest.raises(InputError, match="b"):
        fm.melee_batch([F1[0]] * 2, [F1[1]] * 3)


# --- exact results built on first read -----------------------------------------------------------


def _eager(a: fm.Side, b: fm.Side) -> MeleeResult:
    """The result as it was built before results became lazy: every field computed up front."""
    from mathhammer.force_melee.report import side_heading

    switches = fm.Variants()
    exchange = engine.planned_exchange(a, b, switches)
    damage, hits = engine._exchange_parts(np.asarray(engine._fm.exchange_exact(exchange.config)), exchange.layout)
    return MeleeResult(**engine._ready_fields("exact", None, None, a, b, switches),
                       **engine._exchange_fields(damage, hits, exchange, None),
                       sides=(side_heading(a), side_heading(b)))


def test_a_lazy_result_equals_the_eager_one() -> None:
    lazy = fm.melee(*F1)
    eager = _eager(*F1)
    assert lazy.to_json() == eager.to_json() and repr(lazy) == repr(eager) and lazy == eager
    assert lazy.summary() == eager.summary() and lazy.to_markdown() == eager.to_markdown()


def test_a_lazy_result_pickles_and_copies_with_its_values() -> None:
    eager = _eager(*F1)
    assert pickle.loads(pickle.dumps(fm.melee(*F1))) == eager
    assert copy.deepcopy(fm.melee(*F1)) == eager and copy.copy(fm.melee(*F1)) == eager
