"""db.combat_batch: each item equals the separate db.combat call (and the plain enumeration),
arguments broadcast, invalid items named; exact results built on first read equal eager ones."""

from __future__ import annotations

import copy
import pickle
import random
import threading
from fractions import Fraction
from typing import Any

import numpy as np
import pytest

import db_reference as ref
from mathhammer import deathburgh as db
from mathhammer.errors import InputError, InputTypeError
from mathhammer.core.batches import ResultBatch
from mathhammer.deathburgh.results import CombatResult

SWITCHES = ("edition", "bonus_dice", "souls", "souls_limit", "draw", "draw_in_dodge", "cap_wounds_at_dice",
            "support_stacking", "stand_and_shoot")
SCENARIOS = [ref.random_scenario(random.Random(7000 + k), max_dice=3, max_pool=3) for k in range(60)]
FOLLOWERS = (db.Side(db.example("Old Fellas Melee Warrior Follower")), db.Side(db.example("Bandit Melee Follower")))


def _columns(scenarios: list[dict[str, Any]]) -> dict[str, list[Any]]:
    """The scenarios as batch arguments: one list per argument (a switch not drawn is None, its default)."""
    columns: dict[str, list[Any]] = {
        "attacker": [db.Side.from_dict(s["attacker"]) for s in scenarios],
        "defender": [db.Side.from_dict(s["defender"]) for s in scenarios],
        "reaction": [s["reaction"] for s in scenarios],
    }
    for name in SWITCHES:
        columns[name] = [s["switches"].get(name) for s in scenarios]
    columns["stand_and_shoot"] = [bool(v) for v in columns["stand_and_shoot"]]
    return columns


def _separate(columns: dict[str, list[Any]], i: int, **options: Any) -> CombatResult:
    kwargs = {name: values[i] for name, values in columns.items() if values[i] is not None}
    return db.combat(**kwargs, **options)


def _grid(law: dict[tuple[int, int], Fraction], shape: tuple[int, ...]) -> np.ndarray:
    grid = np.zeros(shape)
    for (i, j), p in law.items():
        grid[i, j] = float(p)
    return grid


def test_every_item_equals_its_separate_call_and_the_enumeration() -> None:
    columns = _columns(SCENARIOS)
    batch = db.combat_batch(**columns, method="exact")
    assert isinstance(batch, ResultBatch) and len(batch) == len(SCENARIOS)
    for i, scenario in enumerate(SCENARIOS):
        assert batch[i].to_json() == _separate(columns, i, method="exact").to_json()
        expected = ref.combat(scenario)["wounds"]
        np.testing.assert_allclose(batch[i].joint.pmf, _grid(expected, batch[i].joint.pmf.shape), rtol=0, atol=1e-12)


def test_monte_carlo_items_equal_their_separate_calls() -> None:
    columns = _columns(SCENARIOS[:6])
    methods = ["exact", "monte_carlo", "auto", "monte_carlo", "exact", "monte_carlo"]
    seeds = [None, 3, None, 4, None, 5]
    batch = db.combat_batch(**columns, method=methods, samples=2_000, seed=seeds)
    for i in range(6):
        separate = _separate(columns, i, method=methods[i], samples=2_000, seed=seeds[i])
        assert batch[i].method == ("monte_carlo" if methods[i] == "monte_carlo" else "exact")
        assert batch[i].to_json() == separate.to_json()


def test_single_values_broadcast_to_the_sequences() -> None:
    brute, leader = db.example("Bandit Brute"), db.example("Bandit Leader")
    batch = db.combat_batch(brute, [leader, brute, "A 2/3+ D 2/3+ W 2"], reaction=("attack", "dodge", "none"),
                            edition="alpha", variants=None)
    assert len(batch) == 3
    for i, (defender, reaction) in enumerate(zip([leader, brute, "A 2/3+ D 2/3+ W 2"], ["attack", "dodge", "none"])):
        assert batch[i].to_json() == db.combat(brute, defender, reaction, edition="alpha").to_json()
    one = db.combat_batch(*FOLLOWERS)
    assert len(one) == 1 and one[0].to_json() == db.combat(*FOLLOWERS).to_json()
    assert list(one.to_frame().columns) == list(db.combat(*FOLLOWERS).summary())


def test_repeated_combats_are_equal_results() -> None:
    batch = db.combat_batch([FOLLOWERS[0]] * 4, FOLLOWERS[1], reaction=["attack", "dodge", "attack", "dodge"])
    assert batch[0].to_json() == batch[2].to_json() and batch[1].to_json() == batch[3].to_json()
    assert batch[0] is not batch[2]  # each item its own result


@pytest.mark.parametrize(("kwargs", "field"), [
    ({"attacker": [FOLLOWERS[0], "nonsense"]}, "attacker[1]"),
    ({"attacker": [FOLLOWERS[0], FOLLOWERS[0].replace(wounds=0)]}, "attacker[1].wounds"),
    ({"defender": [{"mini": "Bandit Brute"}, {"mini": "Bandit Brute", "charge": 3}]}, "defender[1].charge"),
    ({"reaction": ["attack", "flee"]}, "reaction[1]"),
    ({"edition": ["web", "beta"]}, "edition[1]"),
    ({"draw": ["always", "scored"]}, "draw[1]"),
    ({"samples": [10, 0]}, "samples[1]"),
    ({"stand_and_shoot": [False, 1]}, "stand_and_shoot[1]"),
    ({"variants": [None, {"edition": "beta"}]}, "variants[1].edition"),
    ({"reaction": "flee", "edition": ["web", "alpha"]}, "reaction"),
])
def test_an_invalid_item_is_named(kwargs: dict[str, Any], field: str) -> None:
    arguments = {"attacker": FOLLOWERS[0], "defender": FOLLOWERS[1], **kwargs}
    with pytest.raises((InputError, InputTypeError)) as raised:
        db.combat_batch(**arguments)
    assert raised.value.field == field


def test_sequences_of_different_lengths_are_refused() -> None:
    with pytest.raises(InputError, match="reaction"):
        db.combat_batch(FOLLOWERS[0], [FOLLOWERS[1]] * 2, reaction=["attack"] * 3)
    with pytest.raises(InputError, match="empty"):
        db.combat_batch(FOLLOWERS[0], [])


# --- exact results built on first read -----------------------------------------------------------


def _eager(attacker: db.Side, defender: db.Side, reaction: str) -> CombatResult:
    """The result as it was built before results became lazy: every field computed up front."""
    from mathhammer.deathburgh.plan import plan_combat
    from mathhammer.deathburgh.report import side_heading, side_line
    from mathhammer.deathburgh.variants import Variants

    rules = Variants()
    successes, wounds, pa, pd = db.engine._cpp.combat_exact(plan_combat(attacker, defender, reaction, rules).spec())
    return CombatResult.build(successes, wounds, samples=None, defender_wounds=defender.current_wounds,
                              attacker_wounds=attacker.current_wounds, reaction=reaction, edition="web",
                              method="exact", marginals=(pa, pd), variants=rules,
                              sides=(side_heading(attacker), side_heading(defender)),
                              profiles=(side_line(attacker), side_line(defender)))


def test_a_lazy_result_equals_the_eager_one() -> None:
    lazy = db.combat(*FOLLOWERS, "dodge")
    eager = _eager(*FOLLOWERS, "dodge")
    assert lazy.to_json() == eager.to_json() and repr(lazy) == repr(eager) and lazy == eager
    assert lazy.summary() == eager.summary()


def test_a_lazy_result_pickles_and_copies_with_its_values() -> None:
    eager = _eager(*FOLLOWERS, "attack")
    for make in (pickle.loads, copy.deepcopy, copy.copy):
        lazy = db.combat(*FOLLOWERS)
        clone = make(pickle.dumps(lazy)) if make is pickle.loads else make(lazy)
        assert clone == eager and clone.to_json() == eager.to_json()


def test_concurrent_first_reads_agree() -> None:
    eager = _eager(*FOLLOWERS, "attack")
    for _ in range(20):
        lazy = db.combat(*FOLLOWERS)
        seen: list[float] = []
        threads = [threading.Thread(target=lambda: seen.append(lazy.p_wasted_both)) for _ in range(4)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert seen == [eager.p_wasted_both] * 4
