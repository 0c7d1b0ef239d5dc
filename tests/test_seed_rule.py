"""One seed rule for every batch form and every comparison of every game (docs/results.md, "Batches"
and "Comparisons"): one seed gives item i the seed ``cell_seed(seed, i)``, a sequence of seeds gives
each item its own, and ``batch[i].seed`` records it. Two equal Monte Carlo items are two independent
runs, and the one seed repeats the whole call. The forms are read from the game descriptors, so a new
batch form or comparison fails here until it is listed."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

import pytest

from mathhammer import deathburgh as db
from mathhammer import force_melee as fm
from mathhammer import games
from mathhammer import killteam as kt
from mathhammer import starcraft as sc
from mathhammer.core.sampling import cell_seed

MC = {"method": "monte_carlo", "samples": 2_000, "threads": 1}
SEED = 20_240_601

GUN = kt.Weapon(4, 3, (3, 4), "Lethal 5+")
TARGET = kt.Operative(3, 12)
FIGHTER = kt.Fighter(4, 3, (3, 4), wounds=10)
OPPONENT = kt.Fighter(4, 4, (3, 4), wounds=9)
RIFLE = sc.catalog.weapon("c14_rifle")
ZEALOTS = sc.catalog.unit("zealot")
LEADER, BRUTE = db.example("Old Fellas Leader"), db.example("Bandit Brute")
TROOPERS, MILITIA = fm.example("line_troopers"), fm.example("militia")

#: "game.action" -> (the batch form of two equal items with these options, the single call of the
#: first item with these options)
BATCHES: dict[str, tuple[Callable[..., Any], Callable[..., Any]]] = {
    "killteam.shoot": (lambda **o: kt.shoot_batch([GUN, GUN], TARGET, **o), lambda **o: kt.shoot(GUN, TARGET, **o)),
    "killteam.fight": (lambda **o: kt.fight_batch([FIGHTER, FIGHTER], OPPONENT, **o),
                       lambda **o: kt.fight(FIGHTER, OPPONENT, **o)),
    "starcraft.attack": (lambda **o: sc.attack_batch([RIFLE, RIFLE], ZEALOTS, firing_models=3, **o),
                         lambda **o: sc.attack(RIFLE, ZEALOTS, firing_models=3, **o)),
    "deathburgh.combat": (lambda **o: db.combat_batch([LEADER, LEADER], BRUTE, **o),
                          lambda **o: db.combat(LEADER, BRUTE, **o)),
    "force_melee.melee": (lambda **o: fm.melee_batch([TROOPERS, TROOPERS], MILITIA, **o),
                          lambda **o: fm.melee(TROOPERS, MILITIA, **o)),
}

#: "game.action" -> (the comparison of two equal rows against two columns with these options, the
#: single call of its first cell with these options)
COMPARISONS: dict[str, tuple[Callable[..., Any], Callable[..., Any]]] = {
    "killteam.compare": (lambda **o: kt.compare([GUN, GUN], saves=[3, 5], **o),
                         lambda **o: kt.shoot(GUN, kt.Operative(3, 12), **o)),
    "killteam.compare_fights": (lambda **o: kt.compare_fights([FIGHTER, FIGHTER], [OPPONENT, FIGHTER], **o),
                                lambda **o: kt.fight(FIGHTER, OPPONENT, **o)),
    "starcraft.compare": (lambda **o: sc.compare([RIFLE, RIFLE], [ZEALOTS, sc.catalog.unit("roach")], firing_models=3,
                                                 **o),
                          lambda **o: sc.attack(RIFLE, ZEALOTS, firing_models=3, **o)),
}


def _is_comparison(result_type: type) -> bool:
    return dataclasses.is_dataclass(result_type) and "results" in {f.name for f in dataclasses.fields(result_type)}


def test_every_batch_form_and_comparison_is_listed() -> None:
    assert set(BATCHES) == {f"{g.name}.{a.name}" for g, a in games.actions() if a.batch is not None}
    assert set(COMPARISONS) == {f"{g.name}.{a.name}" for g, a in games.actions() if _is_comparison(a.result)}


@pytest.mark.parametrize("name", BATCHES)
def test_one_seed_gives_item_i_cell_seed(name: str) -> None:
    batch_of, single = BATCHES[name]
    batch = batch_of(**MC, seed=SEED)
    assert [batch[i].seed for i in range(2)] == [cell_seed(SEED, 0), cell_seed(SEED, 1)]
    # two equal items, two independent runs: not the same numbers
    assert batch[0].summary() != batch[1].summary()
    for i in range(2):  # each item is the single call with its own seed
        assert batch[i].to_json() == single(**MC, seed=batch[i].seed).to_json()
    # the one seed repeats the whole batch
    assert [item.to_json() for item in batch_of(**MC, seed=SEED)] == [item.to_json() for item in batch]


@pytest.mark.parametrize("name", BATCHES)
def test_a_sequence_of_seeds_gives_each_item_its_own(name: str) -> None:
    batch_of, single = BATCHES[name]
    batch = batch_of(**MC, seed=[5, 5])
    assert [batch[0].seed, batch[1].seed] == [5, 5]
    assert batch[0].to_json() == batch[1].to_json() == single(**MC, seed=5).to_json()


@pytest.mark.parametrize("name", BATCHES)
def test_no_seed_draws_one_for_the_batch_and_exact_items_have_none(name: str) -> None:
    batch_of, _ = BATCHES[name]
    drawn = batch_of(**MC)
    assert drawn[0].seed is not None and drawn[1].seed is not None and drawn[0].seed != drawn[1].seed
    exact = batch_of(method="exact", seed=SEED)
    assert [item.seed for item in exact] == [None, None] and exact[0].to_json() == exact[1].to_json()


@pytest.mark.parametrize("name", COMPARISONS)
def test_a_comparison_gives_cell_k_cell_seed(name: str) -> None:
    compare, single = COMPARISONS[name]
    comparison = compare(**MC, seed=SEED)
    cells = [cell for row in comparison.results for cell in row]
    assert comparison.method == "monte_carlo" and comparison.seed == SEED and comparison.samples == MC["samples"]
    assert [cell.seed for cell in cells] == [cell_seed(SEED, k) for k in range(len(cells))]
    # the two equal rows are independent runs
    assert [c.summary() for c in comparison.results[0]] != [c.summary() for c in comparison.results[1]]
    assert cells[0].to_json() == single(**MC, seed=cells[0].seed).to_json()
    assert compare(**MC, seed=SEED).to_json() == comparison.to_json()
    drawn = compare(**MC)
    assert drawn.seed is not None and [c.seed for row in drawn.results for c in row] == [
        cell_seed(drawn.seed, k) for k in range(len(cells))]
    exact = compare(method="exact", seed=SEED)
    assert exact.method == "exact" and exact.seed is None and exact.samples is None


def test_a_situation_s_own_seed_seeds_its_row() -> None:
    comparison = kt.compare([{"weapon": GUN, "seed": 9}, GUN], saves=[3, 5], **MC, seed=SEED)
    assert [c.seed for c in comparison.results[0]] == [cell_seed(9, 0), cell_seed(9, 1)]
    assert [c.seed for c in comparison.results[1]] == [cell_seed(SEED, 2), cell_seed(SEED, 3)]
