"""The contract every engine function keeps (docs/results.md): one options path, the same figures.

Each engine function is called on a small scenario (and a second, different one, to show that the
summary keys do not depend on the inputs) with every engine option, good and bad.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest

from mathhammer import deathburgh as db
from mathhammer import force_melee as fm
from mathhammer import killteam as kt
from mathhammer import starcraft as sc
from mathhammer.errors import InputError, InputTypeError
from mathhammer.core.variants import Variants

GUN = kt.Weapon(attacks=2, hit=3, damage=(3, 4))
BIG_GUN = kt.Weapon(attacks=5, hit=2, damage=(2, 5), rules="Lethal 5+")
TARGET = kt.Operative(save=3, wounds=12)
FIGHTER = kt.Fighter(attacks=2, hit=3, damage=(3, 4), wounds=6)
BRUTE = kt.Fighter(attacks=3, hit=4, damage=(4, 5), wounds=9, rules="Brutal")
RIFLE = sc.Weapon(roa=2, hit=3, damage=1)
UNIT = sc.Unit(models=2, hp=1, armour=6)
TANK = sc.Unit(models=1, hp=6, armour=3, shield=2)
DB_A, DB_B = "A 2/4+ D 2/4+ W 2", "A 3/3+ D 1/5+ W 3"

# name -> (engine function, [scenario calls taking the options as keywords], its Variants class)
Call = Callable[..., Any]
ENGINES: dict[str, tuple[Call, list[Call], type[Variants]]] = {
    "kt.fight": (kt.fight, [lambda **o: kt.fight(FIGHTER, FIGHTER, **o), lambda **o: kt.fight(BRUTE, FIGHTER, **o)],
                 kt.Variants),
    "kt.shoot": (kt.shoot, [lambda **o: kt.shoot(GUN, TARGET, **o), lambda **o: kt.shoot(BIG_GUN, TARGET, cover=1, **o)],
                 kt.Variants),
    "kt.attack_dice": (kt.attack_dice, [lambda **o: kt.attack_dice(GUN, **o), lambda **o: kt.attack_dice(BIG_GUN, **o)],
                       kt.Variants),
    "sc.attack": (sc.attack, [lambda **o: sc.attack(RIFLE, UNIT, **o), lambda **o: sc.attack(RIFLE, TANK, **o)],
                  sc.Variants),
    "sc.sequence": (sc.sequence, [lambda **o: sc.sequence(UNIT, [sc.Batch(RIFLE)], **o),
                                  lambda **o: sc.sequence(TANK, [sc.Batch(RIFLE)] * 2, **o)], sc.Variants),
    "db.combat": (db.combat, [lambda **o: db.combat(DB_A, DB_B, **o),
                              lambda **o: db.combat(DB_B, DB_A, reaction="dodge", **o)], db.Variants),
    "db.round": (db.round, [lambda **o: db.round({"x": DB_A, "y": DB_B}, [{"attacker": "x", "defender": "y"}], **o),
                            lambda **o: db.round({"p": DB_B, "q": DB_A, "r": DB_A},
                                                 [{"attacker": "p", "defender": "q"},
                                                  {"attacker": "r", "defender": "p"}], **o)], db.Variants),
    "fm.melee": (fm.melee, [lambda **o: fm.melee(fm.example("line_troopers"), fm.example("militia"), **o),
                            lambda **o: fm.melee(fm.example("militia"), fm.example("walker"), **o)], fm.Variants),
    "fm.melee_many": (fm.melee_many, [
        lambda **o: fm.melee_many({"a": fm.example("line_troopers"), "b": fm.example("militia")}, [("a", "b")], **o),
        lambda **o: fm.melee_many({"u": fm.example("militia"), "v": fm.example("walker"), "w": fm.example("militia")},
                                  [("u", "v"), ("w", "v")], assignment={"v": {"u": 2, "w": 1}}, **o)], fm.Variants),
}
OPTIONS = ("method", "samples", "seed", "threads", "progress", "executor", "variants")
BAD_VALUES: list[tuple[str, Any, type[Exception]]] = [
    ("method", "nope", InputError), ("method", 3, InputTypeError),
    ("samples", 0, InputError), ("samples", 10**10 + 1, InputError), ("samples", 2.5, InputTypeError),
    ("seed", -1, InputError), ("seed", 2**64, InputError), ("seed", "1", InputTypeError),
    ("threads", 0, InputError), ("threads", -1, InputError), ("threads", 257, InputError),
    ("threads", 1.5, InputTypeError), ("progress", 3, InputTypeError), ("executor", 1, InputTypeError),
    ("variants", 3, InputTypeError), ("variants", "nope", InputError), ("variants", {"zzz": 1}, InputError),
]


@pytest.mark.parametrize("name", ENGINES)
def test_options_are_keyword_only(name: str) -> None:
    function = ENGINES[name][0]
    parameters = inspect.signature(function).parameters
    for option in OPTIONS:
        assert parameters[option].kind is inspect.Parameter.KEYWORD_ONLY, (name, option)


@pytest.mark.parametrize("method", ["exact", "monte_carlo"])
@pytest.mark.parametrize(("option", "value", "error"), BAD_VALUES)
@pytest.mark.parametrize("name", ENGINES)
def test_bad_option_is_refused_naming_the_field(name: str, option: str, value: Any, error: type[Exception],
                                                method: str) -> None:
    call = ENGINES[name][1][0]
    options: dict[str, Any] = {"method": method, "samples": 1000, option: value}
    with pytest.raises(error) as info:
        call(**options)
    assert type(info.value) is error
    assert info.value.field.split(".")[0] == option  # type: ignore[attr-defined]


@pytest.mark.parametrize("name", ENGINES)
def test_summary_keys_are_fixed_and_stderr_matches(name: str) -> None:
    _, calls, variants_cls = ENGINES[name]
    exact = [call(method="exact") for call in calls]
    keys = list(exact[0].summary())
    assert keys and all(list(r.summary()) == keys for r in exact)
    for r in exact:
        assert r.method == "exact" and r.samples is None and r.seed is None and r.stderr is None
        assert isinstance(r.variants, variants_cls) and r.variants == variants_cls()
        assert all(isinstance(v, float) for v in r.summary().values())
    mc = calls[1](method="monte_carlo", samples=20_000, seed=3)
    assert list(mc.summary()) == keys and set(mc.stderr) == set(keys)
    assert mc.method == "monte_carlo" and mc.samples == 20_000 and mc.seed == 3


@pytest.mark.parametrize("name", ENGINES)
def test_recorded_seed_repeats_the_run_for_any_threads_and_executor(name: str) -> None:
    call = ENGINES[name][1][1]
    first = call(method="monte_carlo", samples=70_000, threads=2, progress=lambda done, total: None)
    assert isinstance(first.seed, int)
    again = call(method="monte_carlo", samples=70_000, seed=first.seed, threads=1)
    assert again.to_json() == first.to_json()
    with ThreadPoolExecutor(2) as executor:
        pooled = call(method="monte_carlo", samples=70_000, seed=first.seed, executor=executor)
    assert pooled.to_json() == first.to_json()
    # an exact run ignores the executor (and the Monte Carlo options)
    with ThreadPoolExecutor(1) as executor:
        assert call(method="exact", executor=executor, seed=5, threads=3).to_json() == call(method="exact").to_json()


@pytest.mark.parametrize("name", ENGINES)
def test_results_record_variants_and_round_trip(name: str) -> None:
    _, calls, variants_cls = ENGINES[name]
    result = calls[0](method="exact", variants={})
    assert result.to_dict()["variants"] == variants_cls().to_dict()
    back = type(result).from_json(result.to_json())
    assert back.variants == result.variants and back.to_json() == result.to_json()


def test_variants_forms() -> None:
    natural = sc.Variants(critical_hit="natural")
    assert sc.Variants.resolve("critical_hit=natural") == natural
    assert sc.Variants.resolve({"critical_hit": "natural"}) == natural
    assert sc.Variants.resolve(natural) is natural and sc.Rules is sc.Variants and db.Rules is db.Variants
    assert db.Variants.resolve("edition=alpha, draw_in_dodge=yes, souls_limit=2") == db.Variants(
        edition="alpha", draw_in_dodge=True, souls_limit=2)
    assert fm.Variants.resolve("bonus_always=false") == fm.Variants()
    with pytest.raises(InputTypeError, match="^variants: expected Variants of this game"):
        fm.Variants.resolve(sc.Variants())
    with pytest.raises(InputError, match=r"^variants\.leftover: unknown value 'kept'"):
        sc.Variants.resolve("leftover=kept")
    with pytest.raises(InputError, match=r"^variants\.draw_in_dodge: 'maybe' is not true or false"):
        db.Variants.resolve("draw_in_dodge=maybe")
    with pytest.raises(InputError, match=r"^variants\.colour: unknown rule variant; allowed: critical_hit"):
        sc.Variants.resolve("colour=red")


def test_switch_keywords_and_variants_together_are_refused() -> None:
    r = sc.attack(RIFLE, UNIT, rules={"leftover": "lost"})
    assert r.variants == sc.Variants(leftover="lost")
    with pytest.raises(InputError, match="^rules: give the switches either"):
        sc.attack(RIFLE, UNIT, rules={}, variants={})
    assert db.combat(DB_A, DB_B, edition="alpha").variants == db.Variants(edition="alpha")
    with pytest.raises(InputError, match="^edition: give the switch either"):
        db.combat(DB_A, DB_B, edition="alpha", variants="edition=alpha")
    with pytest.raises(InputError, match="^souls: give the switch either"):
        db.pool(2, 4, souls="add", variants={})
    assert db.pool(2, 4, souls="add") == db.pool(2, 4, variants={"souls": "add"})
    with pytest.raises(InputError, match="^winner_damage: give the switch either"):
        fm.melee(fm.example("line_troopers"), fm.example("militia"), winner_damage="excess", variants={})
    excess = fm.melee(fm.example("line_troopers"), fm.example("militia"), variants="winner_damage=excess")
    assert excess.joint == fm.melee(fm.example("line_troopers"), fm.example("militia"), winner_damage="excess").joint


@pytest.mark.parametrize("name", ENGINES)
def test_results_and_variants_pickle(name: str) -> None:
    import pickle

    _, calls, variants_cls = ENGINES[name]
    for result in (calls[0](method="exact"), calls[1](method="monte_carlo", samples=10_000, seed=1)):
        back = pickle.loads(pickle.dumps(result))
        assert back.to_json() == result.to_json() and type(back) is type(result)
        assert not back.summary() or back.summary() == result.summary()
    assert pickle.loads(pickle.dumps(variants_cls())) == variants_cls()


def test_cpp_configs_pickle_and_run_the_same() -> None:
    """The structs the engines hand to C++ travel to another process like profiles do."""
    import pickle

    import numpy as np

    from mathhammer import _core
    from mathhammer.deathburgh.engine import as_side
    from mathhammer.deathburgh.variants import Variants as DbVariants
    from mathhammer.deathburgh.plan import plan_combat
    from mathhammer.killteam.plan import shoot_config
    from mathhammer.starcraft.plan import plan_batch

    def again(config: Any) -> Any:
        return pickle.loads(pickle.dumps(config))

    shot = shoot_config(BIG_GUN, kt.Operative(save=4, wounds=10, abilities="Feel No Pain 5+"), 1, False, 2)
    for mine, theirs in zip(_core.killteam.shoot_exact(shot), _core.killteam.shoot_exact(again(shot))):
        assert np.array_equal(mine, theirs)
    batch = plan_batch(RIFLE, TANK, sc.Variants(), firing_models=3).config
    assert np.array_equal(_core.starcraft.exact_attack(batch), _core.starcraft.exact_attack(again(batch)))
    combat = plan_combat(as_side("a", DB_A), as_side("d", DB_B), "dodge", DbVariants(), False).spec()
    for mine, theirs in zip(_core.deathburgh.combat_exact(combat), _core.deathburgh.combat_exact(again(combat))):
        assert np.array_equal(mine, theirs)
    exchange = fm.engine._fm.ExchangeConfig(
        fm.plan.side_config(fm.example("militia"), 3), fm.plan.side_config(fm.example("walker"), 2),
        fm.Variants(winner_damage="excess").rules())
    assert np.array_equal(_core.force_melee.exchange_exact(exchange), _core.force_melee.exchange_exact(again(exchange)))
