"""sc.attack_batch: every item is the separate sc.attack call; broadcasting; errors naming the item."""

from __future__ import annotations

from typing import Any

import pytest
import sc_scenarios

from mathhammer import _core
from mathhammer import starcraft as sc
from mathhammer.errors import InputError, InputTypeError
from mathhammer.core.batches import ResultBatch

RIFLE = sc.catalog.weapon("c14_rifle")
WEAPONS = [RIFLE, sc.catalog.weapon("quad_k12"), sc.catalog.weapon("particle_disruptors"),
           sc.catalog.weapon("kerrigan_blades")]
UNITS = [sc.catalog.unit("zergling"), sc.catalog.unit("marine"), sc.catalog.unit("zealot"), sc.catalog.unit("stalker")]


def test_every_item_is_the_separate_call() -> None:
    batch = sc.attack_batch(WEAPONS, UNITS, firing_models=[6, 2, 3, 1], hit_mod=[0, 1, -1, 0],
                            precision=[0, [1, 1], 0, 2], reaction=[None, {"dodge": 1}, None, None],
                            rules=[None, "stacking=max", {"leftover": "lost"}, None])
    assert isinstance(batch, ResultBatch) and len(batch) == 4
    separate = [
        sc.attack(WEAPONS[0], UNITS[0], firing_models=6, hit_mod=0, precision=0, reaction=None),
        sc.attack(WEAPONS[1], UNITS[1], firing_models=2, hit_mod=1, precision=[1, 1], reaction={"dodge": 1},
                  rules="stacking=max"),
        sc.attack(WEAPONS[2], UNITS[2], firing_models=3, hit_mod=-1, precision=0, reaction=None,
                  rules={"leftover": "lost"}),
        sc.attack(WEAPONS[3], UNITS[3], firing_models=1, hit_mod=0, precision=2, reaction=None),
    ]
    for item, alone in zip(batch, separate):
        assert item.to_json() == alone.to_json()
        assert item == alone
    assert batch[-1].to_json() == separate[-1].to_json()


def test_random_scenarios_match_the_separate_calls() -> None:
    cases = sc_scenarios.scenarios(80, 17, 18, True)
    weapons = [None if w is None else sc.Weapon(**w) for w, _, _, _ in cases]
    units = [sc.Unit(**u) for _, u, _, _ in cases]
    names = sorted({name for _, _, kw, _ in cases for name in kw})
    # an option left out of an item is given its default: the separate call without it is the same
    defaults = {"mode": "weapon", "firing_models": 1, "long_range_models": 0, "burst_models": None,
                "target_stationary": False, "affected_models": None, "hits": None, "roa_mod": 0, "dice_mod": 0,
                "hit_mod": 0, "armour_mod": 0, "evade_mod": 0, "anti_evade": 0, "precision": 0, "critical_hit": 0,
                "dodge": 0, "tough": 0, "evade_eligible": None, "damage_set": None, "damage_cap": None,
                "td_reduction": 0, "td_floor": 0, "visible_models": None, "engaged": False, "reaction": None}
    options = {name: [kw.get(name, defaults[name]) for _, _, kw, _ in cases] for name in names}
    batch = sc.attack_batch(weapons, units, rules=[r for _, _, _, r in cases], **options)
    for i, (_, _, kw, rules) in enumerate(cases):
        assert batch[i].to_json() == sc.attack(weapons[i], units[i], rules=rules, **kw).to_json()


def test_single_values_broadcast() -> None:
    batch = sc.attack_batch(RIFLE, UNITS, firing_models=6)
    assert len(batch) == 4
    for unit, item in zip(UNITS, batch):
        assert item.to_json() == sc.attack(RIFLE, unit, firing_models=6).to_json()
    single = sc.attack_batch(RIFLE, UNITS[0])
    assert len(single) == 1 and single[0].to_json() == sc.attack(RIFLE, UNITS[0]).to_json()
    hits = sc.attack_batch(None, UNITS[2], mode="hits", hits=[(4, 1), (6, 2)])
    assert hits[1].to_json() == sc.attack(None, UNITS[2], mode="hits", hits=(6, 2)).to_json()


def test_profiles_as_tables_and_ranges() -> None:
    batch = sc.attack_batch(RIFLE.to_dict(), UNITS[0].to_dict(), firing_models=range(1, 4))
    for n in range(1, 4):
        assert batch[n - 1].damage == sc.attack(RIFLE, UNITS[0], firing_models=n).damage


def test_monte_carlo_items_and_per_item_options() -> None:
    batch = sc.attack_batch(RIFLE, UNITS[:2], firing_models=3, method=["exact", "monte_carlo"], samples=20_000,
                            seed=[None, 7], threads=1)
    assert batch[0].method == "exact"
    assert batch[1].to_json() == sc.attack(RIFLE, UNITS[1], firing_models=3, method="monte_carlo", samples=20_000,
                                           seed=7, threads=1).to_json()


def test_a_repeated_configuration_is_computed_once(monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[list[Any]] = []
    resolve = _core.starcraft.exact_attack_tables_batch

    def spy(cases: list[Any]) -> Any:
        seen.append(cases)
        return resolve(cases)

    monkeypatch.setattr(_core.starcraft, "exact_attack_tables_batch", spy)
    # equal values given as distinct objects, and one value repeated by broadcasting
    batch = sc.attack_batch([sc.Weapon(2, 3, 1), sc.Weapon(2, 3, 1), RIFLE, RIFLE], UNITS[0],
                            firing_models=[4, 4, 2, 2])
    (cases,) = seen
    assert len(cases) == 4 and len({id(case) for case in cases}) == 2
    assert batch[0].to_json() == batch[1].to_json() == sc.attack(sc.Weapon(2, 3, 1), UNITS[0], firing_models=4).to_json()
    assert batch[2].to_json() == sc.attack(RIFLE, UNITS[0], firing_models=2).to_json()
    # each item owns its result
    assert batch[0] is not batch[1] and batch[0].damage.pmf is not batch[1].damage.pmf


def test_to_frame_has_one_summary_row_per_item() -> None:
    batch = sc.attack_batch(WEAPONS, UNITS[0], firing_models=2)
    frame = batch.to_frame()
    assert len(frame) == 4
    assert frame.to_dict("records") == [sc.attack(w, UNITS[0], firing_models=2).summary() for w in WEAPONS]


def test_errors_name_the_item() -> None:
    with pytest.raises(InputError, match=r"^units: has 3 items but weapons has 4"):
        sc.attack_batch(WEAPONS, UNITS[:3])
    with pytest.raises(InputError, match=r"^firing_models: an empty sequence"):
        sc.attack_batch(RIFLE, UNITS[0], firing_models=[])
    with pytest.raises(InputError, match=r"^weapons\[1\]\.roa: "):
        sc.attack_batch([RIFLE, {"roa": -1, "hit": 3, "damage": 1}], UNITS[0])
    with pytest.raises(InputTypeError, match=r"^units\[2\]: expected sc.Unit"):
        sc.attack_batch(RIFLE, [UNITS[0], UNITS[1], 3])
    with pytest.raises(InputError, match=r"^weapons\[0\]: mode 'weapon' needs a weapon"):
        sc.attack_batch([None, RIFLE], UNITS[0])
    with pytest.raises(InputError, match=r"^firing_models\[3\]: 99 is out of range"):
        sc.attack_batch(RIFLE, UNITS[0], firing_models=[1, 2, 3, 99])
    with pytest.raises(InputError, match=r"^armour_mod: 9 is out of range"):
        sc.attack_batch(WEAPONS, UNITS[0], armour_mod=9)
    with pytest.raises(InputTypeError, match=r"^precision\[1\]\[1\]: expected an integer"):
        sc.attack_batch(RIFLE, UNITS[0], precision=[0, [1, "x"]])
    with pytest.raises(InputError, match=r"^reaction\[1\]\.tough: "):
        sc.attack_batch(RIFLE, UNITS[0], reaction=[None, {"tough": -1}])
    with pytest.raises(InputError, match=r"^rules\[1\]\.critical_hit: "):
        sc.attack_batch(RIFLE, UNITS[0], rules=[None, "critical_hit=bogus"])
    with pytest.raises(InputError, match=r"^method\[1\]: "):
        sc.attack_batch(RIFLE, UNITS[0], method=["exact", "guess"])
    with pytest.raises(InputError, match=r"^items\[1\]\.dice: the batch has 150 dice"):
        sc.attack_batch(sc.Weapon(5, 3, 1), UNITS[0], firing_models=[1, 30])
    with pytest.raises(InputError, match=r"^zzz: unknown option"):
        sc.attack_batch(RIFLE, UNITS[0], zzz=[1, 2])


def test_concurrent_batches_give_the_serial_results() -> None:
    from concurrent.futures import ThreadPoolExecutor

    from mathhammer.starcraft import plan

    def run(k: int) -> list[str]:
        if k % 3 == 0:
            plan._cases.clear()  # other threads meanwhile read and fill the cache
        batch = sc.attack_batch(WEAPONS, UNITS, firing_models=[1 + k % 4, 2, 3, 4])
        return [item.to_json() for item in batch]

    expected = [run(k) for k in range(8)]
    with ThreadPoolExecutor(4) as pool:
        assert list(pool.map(run, range(8))) == expected


def test_sc_attack_takes_tables_of_fields_like_the_batch() -> None:
    """A sweep of sc.attack runs its chunks through sc.attack_batch, which takes profiles as tables of
    their fields; sc.attack takes them too, so a one-cell chunk and a batched one agree."""
    rifle, zerglings = sc.catalog.weapon("c14_rifle"), sc.catalog.unit("zergling")
    assert sc.attack(rifle.to_dict(), zerglings.to_dict(), firing_models=3).to_json() == \
        sc.attack(rifle, zerglings, firing_models=3).to_json()
    with pytest.raises(InputError) as caught:
        sc.attack(rifle, {"models": 2})
    assert caught.value.field == "unit.hp"
    with pytest.raises(InputTypeError) as caught_type:
        sc.attack(3, zerglings)  # type: ignore[arg-type]
    assert caught_type.value.field == "weapon"
