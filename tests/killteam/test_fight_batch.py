"""kt.fight_batch: every item is the separate kt.fight call; repeated fights solved once; seeds;
errors naming the item; sweeps of kt.fight through it."""

from __future__ import annotations

import importlib
import itertools
import random
from typing import Any

import pandas as pd
import pytest

import mathhammer as mh
from mathhammer import InputError, InputTypeError
from mathhammer import killteam as kt
from mathhammer.core.batches import ResultBatch
from mathhammer.core.sampling import cell_seed

fighting = importlib.import_module("mathhammer.killteam.fighting")  # kt.fight is the function

PLAIN = kt.Fighter(4, 3, (3, 4), 12)
FIGHTERS = [
    PLAIN,
    kt.Fighter(5, 3, (4, 5), 12, rules="Brutal, Shock", strategy="max_damage"),
    kt.Fighter(4, 3, (3, 4), 10, abilities="Storm Shield, Dueller", strategy="min_damage"),
    kt.Fighter(4, 4, (3, 4), 9, abilities="Feel No Pain 5+"),
    kt.Fighter(3, 3, (4, 5), 8, abilities="Saintly Relics, Just a Scratch", strategy="parry"),
    kt.Fighter(4, 3, (3, 5), 11, rules="Lethal 5+", strategy="optimal", objective="trade"),
]


def test_every_item_is_the_separate_call() -> None:
    pairs = list(itertools.product(FIGHTERS, FIGHTERS, "ab", (1, 2)))
    a, b, first, rounds = (list(column) for column in zip(*pairs))
    batch = kt.fight_batch(a, b, first, rounds)
    assert isinstance(batch, ResultBatch) and len(batch) == len(pairs)
    for i, (fa, fb, fi, r) in enumerate(pairs):
        assert batch[i].to_json() == kt.fight(fa, fb, fi, r).to_json(), i


def test_random_simple_fights_are_the_separate_calls() -> None:
    # the benchmark's kind of fight: 3-5 attacks, 3+/4+, 3/4 or 4/5, 8-14 wounds a side
    rng = random.Random(23)

    def fighter() -> kt.Fighter:
        return kt.Fighter(rng.randint(3, 5), rng.choice((3, 4)), rng.choice(((3, 4), (4, 5))), rng.randint(8, 14))

    pairs = [(fighter(), fighter(), rng.choice("ab")) for _ in range(400)]
    batch = kt.fight_batch(*(list(column) for column in zip(*pairs)))
    for i, (fa, fb, fi) in enumerate(pairs):
        assert batch[i].to_json() == kt.fight(fa, fb, fi).to_json()
    # the same figures whether the batch's items are read in full or only summarised
    again = kt.fight_batch(*(list(column) for column in zip(*pairs)))
    assert again.summaries() == [batch[i].summary() for i in range(len(pairs))]


def test_a_repeated_fight_is_solved_once(monkeypatch: pytest.MonkeyPatch) -> None:
    handed: list[list[Any]] = []
    real = fighting._kt

    class Spy:
        def __getattr__(self, name: str) -> Any:
            return getattr(real, name)

        def fight_exact_batch(self, items: list[Any]) -> Any:
            handed.append(items)
            return real.fight_exact_batch(items)

    monkeypatch.setattr(fighting, "_kt", Spy())
    # equal fighters made apart are the same fight
    batch = kt.fight_batch([PLAIN, kt.Fighter(4, 3, (3, 4), 12)] * 500, FIGHTERS[1])
    assert len(handed) == 1 and len(handed[0]) == 1000
    assert len({id(item) for item in handed[0]}) == 1
    assert batch[0].to_json() == batch[999].to_json() == kt.fight(PLAIN, FIGHTERS[1]).to_json()


def test_monte_carlo_items_take_seeds_derived_from_one() -> None:
    batch = kt.fight_batch(FIGHTERS[:3], FIGHTERS[3], method="monte_carlo", samples=3_000, seed=77)
    for i in range(3):
        assert batch[i].seed == cell_seed(77, i)
        assert batch[i].to_json() == kt.fight(FIGHTERS[i], FIGHTERS[3], method="monte_carlo", samples=3_000,
                                              seed=cell_seed(77, i)).to_json()
    own = kt.fight_batch(FIGHTERS[:2], PLAIN, method="monte_carlo", samples=2_000, seed=[5, 9])
    assert [own[0].seed, own[1].seed] == [5, 9]
    drawn = kt.fight_batch(FIGHTERS[:2], PLAIN, method="monte_carlo", samples=1_000)
    base = drawn[0].seed
    assert base is not None and drawn[1].to_json() == kt.fight(FIGHTERS[1], PLAIN, method="monte_carlo",
                                                              samples=1_000, seed=drawn[1].seed).to_json()
    # mixed methods: the exact items are exact, the others sampled
    mixed = kt.fight_batch(PLAIN, PLAIN, method=["exact", "monte_carlo", "auto"], samples=1_000, seed=3)
    assert [r.method for r in mixed] == ["exact", "monte_carlo", "exact"]


def test_tables_of_fields_and_broadcasting() -> None:
    batch = kt.fight_batch(PLAIN.to_dict(), [FIGHTERS[1], FIGHTERS[2].to_dict()], first="b", rounds=[1, 2])
    assert batch[0].to_json() == kt.fight(PLAIN, FIGHTERS[1], "b", 1).to_json()
    assert batch[1].to_json() == kt.fight(PLAIN, FIGHTERS[2], "b", 2).to_json()
    assert len(kt.fight_batch(PLAIN, PLAIN)) == 1


def test_errors_name_the_item() -> None:
    bad = dict(PLAIN.to_dict(), wounds=0)
    with pytest.raises(InputError, match=r"^fighters_b\[17\]\.wounds: "):
        kt.fight_batch(PLAIN, [PLAIN] * 17 + [bad])
    with pytest.raises(InputError, match=r"^fighters_a\[1\]: '4 attacks' is not fighter notation"):
        kt.fight_batch([PLAIN, "4 attacks"], PLAIN)
    with pytest.raises(InputTypeError, match=r"^fighters_a\[1\]: expected a kt\.Fighter"):
        kt.fight_batch([PLAIN, 4], PLAIN)
    with pytest.raises(InputError, match=r"^first\[1\]: "):
        kt.fight_batch(PLAIN, PLAIN, first=["a", "c"])
    with pytest.raises(InputError, match=r"^rounds: "):
        kt.fight_batch([PLAIN, PLAIN], PLAIN, rounds=4)
    with pytest.raises(InputError, match=r"^method\[2\]: "):
        kt.fight_batch(PLAIN, PLAIN, method=["auto", "exact", "guess"])
    with pytest.raises(InputError, match=r"^seed\[1\]: "):
        kt.fight_batch(PLAIN, PLAIN, seed=[1, -1])
    with pytest.raises(InputError, match=r"^variants\[1\]\.shock: "):
        kt.fight_batch(PLAIN, PLAIN, variants=[None, {"shock": "sometimes"}])
    duo = kt.Fighter(4, 3, (3, 4), 12, strategy="optimal", objective="kill")
    with pytest.raises(InputError, match=r"^fighters_b\[1\]\.objective: "):
        kt.fight_batch([PLAIN, duo], [PLAIN, duo])
    with pytest.raises(InputError, match=r"^sequences|fighters_b: has 3 items"):
        kt.fight_batch([PLAIN, PLAIN], [PLAIN] * 3)
    # the optimal solver's budget, named with the item whose game passes it
    with pytest.raises(InputError, match=r"^max_states\[1\]: the optimal solver needs more than 10 "):
        kt.fight_batch(FIGHTERS[5], PLAIN, max_states=[2_000_000, 10])


def test_sweeps_of_fights_go_through_the_batch(monkeypatch: pytest.MonkeyPatch) -> None:
    sweep_module = importlib.import_module("mathhammer.sweeps")  # mh.sweep is the function
    assert sweep_module.batch_form(kt.fight) == (
        kt.fight_batch, {"a": "fighters_a", "b": "fighters_b", "first": "first", "rounds": "rounds",
                         "method": "method", "samples": "samples", "seed": "seed", "threads": "threads",
                         "progress": "progress", "executor": "executor", "variants": "variants",
                         "max_states": "max_states", "max_memory": "max_memory"})
    grid: dict[str, Any] = {"a.wounds": range(8, 13), "b.attacks": [3, 5], "first": ["a", "b"]}
    exact = mh.sweep(kt.fight, a=PLAIN, b=PLAIN, chunk=7, **grid)
    sampled = mh.sweep(kt.fight, a=PLAIN, b=PLAIN, method="monte_carlo", samples=2_000, seed=4, **grid)
    monkeypatch.setattr(sweep_module, "batch_form", lambda fn: None)  # every cell its own kt.fight
    pd.testing.assert_frame_equal(exact, mh.sweep(kt.fight, a=PLAIN, b=PLAIN, chunk=7, **grid), check_exact=True)
    pd.testing.assert_frame_equal(sampled, mh.sweep(kt.fight, a=PLAIN, b=PLAIN, method="monte_carlo",
                                                    samples=2_000, seed=4, **grid), check_exact=True)


def test_auto_items_the_exact_engine_gives_up_on_are_sampled(monkeypatch: pytest.MonkeyPatch) -> None:
    # a work limit so small that "auto" gives up on every fight of a few dice, as kt.fight does
    monkeypatch.setattr(fighting, "EXACT_WORK_LIMIT", 10)
    fighters = FIGHTERS[:3]
    batch = kt.fight_batch(fighters, PLAIN, samples=2_000, seed=3)
    for i, fighter in enumerate(fighters):
        assert batch[i].method == "monte_carlo" and batch[i].seed == cell_seed(3, i)
        assert batch[i].to_json() == kt.fight(fighter, PLAIN, samples=2_000, seed=cell_seed(3, i)).to_json()
    # method="exact" is not bounded by it
    assert kt.fight_batch(fighters, PLAIN, method="exact")[0].method == "exact"
