"""Fuzzing the public surface: every public function and constructor of the four games, their
options, the profile and scenario loaders and every result's ``from_dict`` / ``from_json``.

Each call starts from a small valid call and replaces one or two of its arguments by arbitrary
values (wrong types, huge or negative numbers, NaN, long or odd text, nested tables and lists,
numpy arrays, unknown keys). Whatever the input, the call either succeeds or raises
``InputError`` / ``InputTypeError``: no other exception (KeyError, RecursionError, OverflowError,
ValueError without the field, ...) and no crash may escape. Example counts are bounded so the file
runs in seconds; CI derandomizes hypothesis (tests/conftest.py).
"""

from __future__ import annotations

import copy
import json
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from casedata import KILLTEAM_DATA, KILLTEAM_TEAMS
from mathhammer import deathburgh as db
from mathhammer import force_melee as fm
from mathhammer import killteam as kt
from mathhammer.files import library
from mathhammer.files import scenario
from mathhammer import starcraft as sc
from mathhammer.errors import InputError, InputTypeError
from mathhammer.core.distributions import Distribution, JointDistribution
from mathhammer.core.results import EngineResult
from mathhammer.killteam.results import TeamStanding

ALLOWED = (InputError, InputTypeError)
EXAMPLES = int(__import__("os").environ.get("FUZZ_EXAMPLES", "40"))  # per test (each test below is one callable): a few thousand calls in all
FUZZ = settings(max_examples=EXAMPLES, deadline=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])

# --- arbitrary values ---------------------------------------------------------------------------------

_ODD_TEXT = st.sampled_from([
    "", " ", "x" * 5000, "9" * 5000, "9" * 7, "(" * 300, "PIERCE Armoured" + " " * 600 + "x", "\x00", "\x1b[2J",
    "4A 3+ 3/4", "A 4/4+ D 4/4+ W 3", "Lethal 5+, Piercing 1", "-1", "1e9", "nan", "²", "１２", "Armoured 2",
    "PRECISION (1), INSTANT", "BT+4", "marine", "militia", "Bandit Brute", "monte_carlo", "exact",
])
_NOTATION_TEXT = st.text(alphabet=st.sampled_from(list("0123456789 +-/(),.\"AaDdWwPpVvLlIiTtHhE:\n")), max_size=40)
class _NoRepr:
    """A value whose repr(), str() and format() all raise: an error message must still name it."""

    def __repr__(self) -> str:
        raise RuntimeError("no repr")

    __str__ = __repr__

    def __format__(self, spec: str) -> str:
        raise RuntimeError("no format")


_SCALARS = st.one_of(
    st.none(), st.booleans(), st.integers(-5, 50), st.integers(), st.sampled_from([2**63, -(2**63)]),
    st.builds(pow, st.just(10), st.sampled_from([40, 4000])),  # built, not listed: a long repr
    st.floats(allow_nan=True, allow_infinity=True), st.text(max_size=12), _ODD_TEXT, _NOTATION_TEXT,
    st.sampled_from([np.int64(3), np.float64("nan"), np.array([3, 4]), np.bool_(True), b"x", complex(1, 1),
                     object(), frozenset({1}), ("Armoured", 2), (3, 4)]),
)
_ANY_SCALARS = st.one_of(_SCALARS, st.builds(_NoRepr))  # built, not listed: hypothesis itself reprs a listed value
JUNK = st.recursive(
    _ANY_SCALARS,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4),
        st.tuples(inner, inner),
        st.dictionaries(st.one_of(st.text(max_size=8), st.integers(0, 3)), inner, max_size=4),
    ),
    max_leaves=8,
)
#: Junk that JSON or TOML can hold once written out (payloads and files): no object without a repr.
PLAIN_JUNK = st.recursive(
    _SCALARS,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4),
        st.tuples(inner, inner),
        st.dictionaries(st.one_of(st.text(max_size=8), st.integers(0, 3)), inner, max_size=4),
    ),
    max_leaves=8,
)

# --- a small valid call of every public callable ------------------------------------------------------

_KT_A = kt.Fighter(attacks=3, hit=3, wounds=8)
_KT_B = kt.Fighter(attacks=3, hit=4, wounds=7, strategy="parry")
_SC_W = sc.Weapon(2, 3, 1)
_SC_U = sc.Unit(models=2, hp=2, armour=4)
_FM_A, _FM_B = fm.EXAMPLES["militia"], fm.EXAMPLES["walker"]
_MC: dict[str, Any] = {"method": "monte_carlo", "samples": 300, "seed": 1, "threads": 1}
_KT_TEAM = kt.data.Team("Fuzz", "fuzz.cat", 1, "0" * 64, (
    kt.data.TeamOperative("gunner", kt.Operative(save=4, wounds=8), 2, 6, (
        kt.data.TeamWeapon("gun", "ranged", kt.Weapon(3, 4, (2, 3))),
        kt.data.TeamWeapon("knife", "melee", kt.Weapon(3, 4, (2, 3))))),))

# name -> (callable, valid keyword arguments)
CALLS: dict[str, tuple[Callable[..., Any], dict[str, Any]]] = {
    # Kill Team
    "kt.Weapon": (kt.Weapon, {"attacks": 4, "hit": 3, "damage": (3, 4), "rules": "Lethal 5+"}),
    "kt.Weapon.parse": (kt.Weapon.parse, {"text": "4A 3+ 3/4 Piercing 1"}),
    "kt.Fighter": (kt.Fighter, {"attacks": 3, "hit": 3, "damage": (3, 4), "wounds": 8, "rules": "Brutal",
                                "abilities": "Storm Shield", "strategy": "strike", "objective": None}),
    "kt.Operative": (kt.Operative, {"save": 3, "wounds": 8, "abilities": "Feel No Pain 5+"}),
    "kt.WeaponRules": (kt.WeaponRules, {"lethal": 5, "accurate": 1, "reroll": "balanced", "piercing": 1}),
    "kt.WeaponRules.parse": (kt.WeaponRules.parse, {"text": "Lethal 5+, Balanced"}),
    "kt.Abilities": (kt.Abilities, {"storm_shield": True}),
    "kt.Abilities.parse": (kt.Abilities.parse, {"text": "Storm Shield, Feel No Pain 5+"}),
    "kt.Variants": (kt.Variants, {}),
    "kt.fight": (kt.fight, {"a": _KT_A, "b": _KT_B, "first": "a", "rounds": 1, **_MC}),
    "kt.exact_seconds": (kt.exact_seconds, {"a": _KT_A, "b": _KT_B, "rounds": 2, "variants": None}),
    "kt.shoot": (kt.shoot, {"weapon": kt.Weapon(4, 3), "target": kt.Operative(save=3, wounds=8), "cover": 0,
                            "obscured": False, "rounds": 1, **_MC}),
    "kt.attack_dice": (kt.attack_dice, {"source": kt.Weapon(4, 3), "obscured": False, **_MC}),
    "kt.attack_distribution": (kt.attack_distribution, {"source": kt.Weapon(4, 3), "obscured": False}),
    "kt.resolve_fight": (kt.resolve_fight, {"a": _KT_A, "b": _KT_B, "dice_a": (1, 1), "dice_b": (1, 0),
                                            "first": "a", "seed": 1}),
    "kt.advise": (kt.advise, {"a": _KT_A, "b": _KT_B, "dice_a": (1, 1), "dice_b": (1, 0), "first": "a"}),
    "kt.shoot_batch": (kt.shoot_batch, {"weapons": [kt.Weapon(4, 3), kt.Weapon(2, 4)], "targets": kt.Operative(save=3),
                                        "cover": [0, 1]}),
    "kt.shoot_many": (kt.shoot_many, {"weapons": kt.Weapon(3, 3), "targets": [kt.Operative(save=4)]}),
    "kt.fight_batch": (kt.fight_batch, {"fighters_a": [_KT_A, _KT_B], "fighters_b": _KT_B, "first": ["a", "b"],
                                        "rounds": 1, "method": ["exact", "monte_carlo"], "samples": 300, "seed": 1}),
    "kt.volley": (kt.volley, {"weapon": kt.Weapon(4, 3), "targets": [kt.Operative(save=3), kt.Operative(save=5)],
                              "cover": [1, 0], "obscured": False, **_MC}),
    "kt.matchup": (kt.matchup, {"team_a": _KT_TEAM, "team_b": _KT_TEAM, "cover": (0, 1), "first": ("a",),
                                "strategies": (("max_damage", "parry"),), "method": "auto", "seed": 1}),
    "kt.compare": (kt.compare, {"situations": [kt.Weapon(4, 3), {"weapon": kt.Weapon(3, 3), "cover": 1}],
                                "saves": range(3, 5), "at_least": range(1, 4), "target": None}),
    "kt.compare_fights": (kt.compare_fights, {"fighters": [_KT_A], "opponents": {"b": _KT_B}, "first": "a",
                                              "rounds": 1, "method": "exact"}),
    # StarCraft
    "sc.Weapon": (sc.Weapon, {"roa": 2, "hit": 3, "damage": 1, "surge_tags": ("Light",), "surge_dice": "D3",
                              "keywords": "PIERCE Armoured (1)"}),
    "sc.Unit": (sc.Unit, {"models": 2, "hp": 2, "armour": 4, "evade": None, "shield": 0, "tags": "Light, Ground"}),
    "sc.Batch": (sc.Batch, {"weapon": _SC_W, "hit_mod": 1}),
    "sc.BatchOptions": (sc.BatchOptions, {"mode": "weapon", "firing_models": 2, "dodge": 1}),
    "sc.Variants": (sc.Variants, {"critical_hit": "count"}),
    "sc.parse_keywords": (sc.parse_keywords, {"text": "PIERCE Armoured (2), CRITICAL HIT (1)"}),
    "sc.attack": (sc.attack, {"weapon": _SC_W, "unit": _SC_U, "rules": None, **_MC}),
    "sc.attack_batch": (sc.attack_batch, {"weapons": [_SC_W, sc.Weapon(1, 4, 2)], "units": _SC_U, "firing_models": [1, 2],
                                          "method": ["exact", "monte_carlo"], "samples": 300, "seed": 1, "threads": 1}),
    "sc.sequence": (sc.sequence, {"unit": _SC_U, "batches": [sc.Batch(_SC_W), sc.Batch(_SC_W)], **_MC}),
    "sc.resolve": (sc.resolve, {"weapon": _SC_W, "unit": _SC_U, "faces": 6}),
    "sc.compare": (sc.compare, {"weapons": [_SC_W], "units": {"u": _SC_U}, "firing_models": 2}),
    # Deathburgh
    "db.Miniature": (db.Miniature, {"A": 4, "A_plus": 4, "D": 4, "D_plus": "4+", "W": 3, "role": "melee", "name": "m"}),
    "db.Miniature.parse": (db.Miniature.parse, {"text": "A 4/4+ D 5/3+ W 5"}),
    "db.Miniature.from_dict": (db.Miniature.from_dict, {"data": {"card": "A 4/4+ D 4/4+ W 3"}}),
    "db.Side": (db.Side, {"mini": "Bandit Brute", "mode": "aggressive", "charge": True, "support": 1}),
    "db.Engagement": (db.Engagement, {"attacker": "a", "defender": "b", "reaction": "attack"}),
    "db.Variants": (db.Variants, {"edition": "web"}),
    "db.example": (db.example, {"name": "Bandit Brute"}),
    "db.combat": (db.combat, {"attacker": "Bandit Brute", "defender": "Bandit Leader", "reaction": "attack", **_MC}),
    "db.combat_batch": (db.combat_batch, {"attacker": ["Bandit Brute", "Bandit Leader"], "defender": "Bandit Leader",
                                          "reaction": ["attack", "dodge"], "method": "exact"}),
    "db.pool": (db.pool, {"dice": 3, "target": "4+", "instant6": 0, "reroll": "none"}),
    "db.round": (db.round, {"miniatures": {"a": "Bandit Brute", "b": "Bandit Leader"},
                            "combats": [{"attacker": "a", "defender": "b"}], **_MC}),
    # Force melee
    "fm.Weapon": (fm.Weapon, {"hit": 4, "force": 3, "crit": 6, "kind": "melee", "sustained": 1}),
    "fm.Unit": (fm.Unit, {"models": 3, "hp": 2, "current": None, "vehicle": False, "name": "u"}),
    "fm.Side": (fm.Side, {"unit": _FM_A.unit, "weapon": _FM_A.weapon, "dice": 3, "hit_mod": 0}),
    "fm.Variants": (fm.Variants, {"winner_damage": "once"}),
    "fm.example": (fm.example, {"name": "militia"}),
    "fm.melee": (fm.melee, {"a": _FM_A, "b": _FM_B, **_MC}),
    "fm.melee_batch": (fm.melee_batch, {"a": [_FM_A, _FM_B], "b": _FM_B, "winner_damage": ["once", "per_hit"],
                                        "method": "exact"}),
    "fm.melee_many": (fm.melee_many, {"sides": {"x": _FM_A, "y": _FM_B}, "engaged": [("x", "y")], **_MC}),
    "fm.resolve": (fm.resolve, {"a": _FM_A, "b": _FM_B, "hits_a": 2, "hits_b": 1, "crits_a": 0, "crits_b": 0}),
    "fm.allocate": (fm.allocate, {"unit": _FM_A.unit, "damage": 3, "allocation": "spill"}),
    # the result types every game shares, and their questions
    "Distribution": (Distribution, {"pmf": [0.25, 0.75], "start": -1, "samples": 100}),
    "JointDistribution": (JointDistribution, {"pmf": np.array([[0.5, 0.5]]), "names": ("a", "b"), "samples": None}),
    "Distribution.quantile": (Distribution([0.5, 0.5]).quantile, {"q": 0.5}),
    "JointDistribution.marginal": (JointDistribution(np.array([[0.5, 0.5]]), ("a", "b")).marginal, {"axis": "a"}),
    # profiles by name, notation or fields, and libraries as data
    "library.resolve_profile": (library.resolve_profile, {"game": "starcraft", "kind": "unit", "value": "marine",
                                                          "library": None, "field": None}),
    "library.profile_from_dict": (library.profile_from_dict, {"game": "killteam", "kind": "weapon",
                                                              "data": {"card": "4A 3+ 3/4"}}),
    "library.parse_library": (library.parse_library, {"data": {"game": "killteam", "weapon": {"w": {"card": "4A 3+ 3/4"}}},
                                                      "source": "fuzz"}),
    "scenario.prepare_entries": (scenario.prepare_entries, {"scenario": {"killteam": {"shoot": [
        {"weapon": "4A 3+ 3/4", "target": {"save": 3}, "method": "exact"}]}}, "source": "fuzz"}),
    "scenario.parse_scenario_text": (scenario.parse_scenario_text, {"text": "[[killteam.shoot]]\nweapon = '4A 3+ 3/4'\n"}),
}

_POSITIONAL = {"kt.Weapon.parse", "kt.WeaponRules.parse", "kt.Abilities.parse", "db.Miniature.parse",
               "db.Miniature.from_dict", "sc.parse_keywords", "scenario.parse_scenario_text"}


def _call(name: str, kwargs: dict[str, Any]) -> Any:
    function, _ = CALLS[name]
    if name in _POSITIONAL:  # parsers take their text (or table) first, by position
        key = "text" if "text" in CALLS[name][1] else "data"
        kwargs = dict(kwargs)
        return function(kwargs.pop(key), **kwargs)
    return function(**kwargs)


def test_every_valid_call_succeeds() -> None:
    """The starting points are valid: a fuzzed failure is then the bad value's."""
    for name, (_, kwargs) in CALLS.items():
        _call(name, dict(kwargs))


@st.composite
def _mutated_call(draw: Any, name: str) -> dict[str, Any]:
    kwargs = dict(CALLS[name][1])
    keys = sorted(kwargs)
    for _ in range(draw(st.integers(1, 2))):
        if keys and draw(st.integers(0, 9)) > 0:
            kwargs[draw(st.sampled_from(keys))] = draw(JUNK)
        elif name not in _POSITIONAL and not name.endswith(("example", "parse_scenario_text")):
            # an unknown keyword for functions that take **kwargs (sc.Batch, sc.resolve) or fields
            kwargs[draw(st.sampled_from(["rules", "variants", "wounds", "name", "zzz", "mode", "hits"]))] = draw(JUNK)
    return kwargs


def _assert_contract(name: str, kwargs: dict[str, Any]) -> None:
    try:
        _call(name, kwargs)
    except ALLOWED:
        pass
    except TypeError as error:
        # an unexpected keyword is the caller's Python error, not a validated input
        if "unexpected keyword argument" not in str(error) and "keywords must be strings" not in str(error):
            raise


@pytest.mark.parametrize("name", list(CALLS))
def test_public_callables(name: str) -> None:
    @FUZZ
    @given(kwargs=_mutated_call(name))
    def check(kwargs: dict[str, Any]) -> None:
        _assert_contract(name, kwargs)

    check()


# --- payloads: every result's from_dict / from_json -----------------------------------------------------


def _results() -> dict[str, tuple[Any, dict[str, Any]]]:
    """One Monte Carlo and one exact result of every result type, as payloads."""
    made: list[Any] = [
        kt.fight(_KT_A, _KT_B, **_MC), kt.fight(_KT_A, _KT_B, method="exact"),
        kt.shoot(kt.Weapon(4, 3), kt.Operative(save=3, wounds=8), **_MC),
        kt.attack_dice(kt.Weapon(4, 3), **_MC),
        sc.attack(_SC_W, _SC_U, **_MC), sc.attack(_SC_W, _SC_U, method="exact"),
        sc.sequence(_SC_U, [sc.Batch(_SC_W), sc.Batch(_SC_W)], **_MC),
        db.combat("Bandit Brute", "Bandit Leader", **_MC),
        db.round({"a": "Bandit Brute", "b": "Bandit Leader"}, [{"attacker": "a", "defender": "b"}], **_MC),
        fm.melee(_FM_A, _FM_B, **_MC), fm.melee(_FM_A, _FM_B, method="exact"),
        fm.melee_many({"x": _FM_A, "y": _FM_B}, [("x", "y")], **_MC),
        kt.volley(kt.Weapon(4, 3), [kt.Operative(save=3), kt.Operative(save=4)]),
        kt.volley(kt.Weapon(4, 3), [kt.Operative(save=3)], **_MC),
        kt.matchup(_KT_TEAM, _KT_TEAM),
        kt.matchup(_KT_TEAM, _KT_TEAM).summary(),
        kt.MetaRanking((TeamStanding("a", 0.5, 0.25, 0.75, 0.125, "b", 0.25, "b", 0.25),
                        TeamStanding("b", 0.25, 0.5, 0.5, -0.125, "a", -0.25, "a", -0.25)), 1, "a", "auto"),
    ]
    out: dict[str, tuple[Any, dict[str, Any]]] = {}
    for result in made:
        out[f"{type(result).__name__}-{result.method}"] = (type(result), result.to_dict())
    outcome = scenario.prepare_entries({"killteam": {"shoot": [{"weapon": "4A 3+ 3/4", "target": {"save": 3},
                                                                "method": "exact"}]}})[0].run()
    out["Outcome"] = (scenario.Outcome, outcome.to_dict())
    out["Distribution"] = (Distribution, Distribution([0.25, 0.75], start=1, samples=10).to_dict())
    out["JointDistribution"] = (JointDistribution, JointDistribution(np.array([[0.5, 0.5]]), ("a", "b")).to_dict())
    return out


RESULTS = _results()


def _paths(value: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every place inside a payload (keys of tables, indices of lists)."""
    out = [prefix]
    if isinstance(value, dict):
        for key, item in value.items():
            out += _paths(item, (*prefix, key))
    elif isinstance(value, list):
        for index, item in enumerate(value[:3]):
            out += _paths(item, (*prefix, index))
    return out


@st.composite
def _mutated_payload(draw: Any, name: str) -> Any:
    data = copy.deepcopy(RESULTS[name][1])
    paths = _paths(data)
    for _ in range(draw(st.integers(1, 2))):
        path = draw(st.sampled_from(paths))
        if not path:
            return draw(PLAIN_JUNK)
        parent = data
        try:
            for step in path[:-1]:
                parent = parent[step]
            action = draw(st.integers(0, 3))
            if action == 0 and isinstance(parent, dict):
                parent.pop(path[-1], None)
            elif action == 1 and isinstance(parent, dict):
                parent[draw(st.text(max_size=6))] = draw(PLAIN_JUNK)
            else:
                parent[path[-1]] = draw(PLAIN_JUNK)
        except (KeyError, IndexError, TypeError):  # an earlier mutation changed the shape
            pass
    return data


def _load(cls: Any, data: Any) -> Any:
    try:
        result = cls.from_dict(data)
    except ALLOWED:
        return None
    # a payload that loads is a working result: its contract answers
    if isinstance(result, EngineResult):
        result.summary()
        _ = result.stderr
    elif hasattr(result, "summary"):  # a matchup's: its answer, as data
        result.summary().to_markdown()
    if hasattr(result, "to_frame"):
        result.to_frame()
    repr(result)
    json.dumps(result.to_dict(), allow_nan=False)
    return result


@pytest.mark.parametrize("name", list(RESULTS))
def test_payloads_round_trip(name: str) -> None:
    cls, data = RESULTS[name]
    assert cls.from_dict(copy.deepcopy(data)).to_dict() == data
    if hasattr(cls, "from_json"):
        assert cls.from_json(json.dumps(data)).to_dict() == data


@pytest.mark.parametrize("name", list(RESULTS))
def test_mutated_payloads(name: str) -> None:
    cls = RESULTS[name][0]

    @FUZZ
    @given(data=_mutated_payload(name))
    def check(data: Any) -> None:
        _load(cls, data)
        if not hasattr(cls, "from_json"):
            return
        try:
            text = json.dumps(data, default=str)
        except (ValueError, TypeError, OverflowError):  # not JSON: from_dict only
            return
        try:
            cls.from_json(text)
        except ALLOWED:
            pass

    check()


@FUZZ
@given(text=st.one_of(st.text(max_size=60), _ODD_TEXT, st.binary(max_size=30), JUNK))
def test_from_json_of_any_text(text: Any) -> None:
    for cls, _ in RESULTS.values():
        if not hasattr(cls, "from_json"):
            continue
        try:
            cls.from_json(text)
        except ALLOWED:
            pass


# --- files: the loaders -----------------------------------------------------------------------------

_TABLES = st.dictionaries(st.sampled_from(["game", "weapon", "fighter", "unit", "miniature", "side", "profiles",
                                           "killteam", "starcraft", "deathburgh", "force_melee", "miniatures",
                                           "combat", "title", "x"]), PLAIN_JUNK, max_size=4)
_VALID_FILES = [
    {"game": "killteam", "weapon": {"w": {"card": "4A 3+ 3/4"}}, "fighter": {"f": {"attacks": 3, "hit": 3}}},
    {"game": "deathburgh", "miniature": {"m": {"card": "A 4/4+ D 4/4+ W 3"}}},
    {"miniatures": {"a": "Bandit Brute", "b": "Bandit Leader"}, "combat": [{"attacker": "a", "defender": "b"}]},
    {"killteam": {"shoot": [{"weapon": "4A 3+ 3/4", "target": {"save": 3}}]}},
]


@st.composite
def _file_content(draw: Any) -> tuple[str, str]:
    suffix = draw(st.sampled_from([".json", ".toml"]))
    kind = draw(st.integers(0, 3))
    if kind == 0:
        return suffix, draw(st.one_of(st.text(max_size=80), _ODD_TEXT))
    if kind == 1:
        data = copy.deepcopy(draw(st.sampled_from(_VALID_FILES)))
        data[draw(st.sampled_from(sorted(data)))] = draw(PLAIN_JUNK)
    else:
        data = draw(_TABLES)
    text = json.dumps(data, default=str)
    if suffix == ".toml":  # TOML's inline tables read JSON objects of plain keys; others fail to parse
        text = "\n".join(f"{json.dumps(str(k))} = {json.dumps(v, default=str)}" for k, v in data.items())
    return suffix, text


LOADERS: dict[str, Callable[[Path], Any]] = {
    "library.load_library": library.load_library,
    "library.library_game": library.library_game,
    "db.load_profiles": db.load_profiles,
    "db.load_round": db.load_round,
    "scenario.load_scenario": scenario.load_scenario,
    "scenario.read_scenario_file": scenario.read_scenario_file,
    "fm.load_scenario": fm.load_scenario,
    "kt.data.load_team": kt.data.load_team,
}


@pytest.mark.parametrize("name", list(LOADERS))
def test_loaders(name: str, tmp_path: Path) -> None:
    loader = LOADERS[name]

    @FUZZ
    @given(content=_file_content())
    def check(content: tuple[str, str]) -> None:
        suffix, text = content
        path = tmp_path / f"fuzz{suffix}"
        path.write_bytes(text.encode("utf-8", "surrogatepass"))  # lone surrogates: a file not UTF-8
        try:
            loader(path)
        except ALLOWED:
            pass

    check()


@FUZZ
@given(path=JUNK)
def test_loaders_given_any_path(path: Any) -> None:
    if isinstance(path, (str, bytes)) and path not in ("", " ") and not str(path).startswith(("\x00",)):
        path = f"/nonexistent-fuzz/{path!s}"[:200]  # never a real file of the machine
    for loader in LOADERS.values():
        try:
            loader(path)
        except ALLOWED:
            pass


# Output types met only inside a result's payload (fuzzed there) or built by the engines.
NESTED_OUTPUTS = {"Advice", "AttackDiceResult", "FightLog", "MoveValue", "Allocation", "BatchSummary", "Resolution",
                  "Stages", "StateDistribution", "AllocationResult", "ExchangeDamage", "PairResult", "UnitResult",
                  "Rules", "Comparison", "FightComparison"}  # Rules: the older name of Variants


def test_every_public_callable_is_fuzzed() -> None:
    """A new public function or profile class of a game must be added to CALLS (results to RESULTS)."""
    covered = {name.rsplit(".", 1)[-1] for name in CALLS} | {name.split("-")[0] for name in RESULTS}
    covered |= {name.rsplit(".", 1)[-1] for name in LOADERS} | {"format_keywords", "run_scenario", "save_profiles"}
    missing = [f"{module.__name__}.{name}" for module in (kt, sc, db, fm) for name in module.__all__
               if callable(getattr(module, name)) and not isinstance(getattr(module, name), Mapping)
               and name not in covered | NESTED_OUTPUTS]
    assert not missing, missing


# --- the CLI: every option of every command --------------------------------------------------------------


def _cli_options() -> dict[str, tuple[list[str], list[str]]]:
    """command -> (its arguments, the options taking a value), read from the CLI itself."""
    import typer

    from mathhammer.cli import app

    root = typer.main.get_command(app)
    out: dict[str, tuple[list[str], list[str]]] = {}

    from typer._click import Context

    def walk(command: Any, path: list[str]) -> None:
        # list_commands / get_command: the game groups are loaded on first use, not held in .commands
        names = command.list_commands(Context(command)) if hasattr(command, "list_commands") else []
        for name in sorted(names):
            walk(command.get_command(Context(command), name), [*path, name])
        if not names and path:
            # the engine options keep the small run below (test_fuzz_options.py fuzzes them): a
            # fuzzed --samples could ask for billions of samples
            options = [p.opts[-1] for p in command.params
                       if p.param_type_name == "option" and not p.is_flag and p.opts[-1].startswith("--")
                       and p.opts[-1] not in ENGINE_OPTIONS]
            out[" ".join(path)] = (path, options)

    walk(root, [])
    return out


ENGINE_OPTIONS = ("--method", "--samples", "--seed", "--threads")
CLI = _cli_options()
CLI_EXAMPLES = 15  # a CLI call costs more than a function call: fewer per command
_ROUND = Path(__file__).parent.parent / "examples" / "deathburgh" / "round_scenario.toml"
_TEAMS = KILLTEAM_DATA
#: The arguments a command needs before its options, and the options not fuzzed (a fuzzed --out
#: could name any folder of the machine); the commands that take no engine options.
_LIBRARIES = KILLTEAM_TEAMS
_ARGUMENTS = {"deathburgh round": [str(_ROUND)], "killteam import": [str(_TEAMS), "--out", "teams"],
              "killteam teams": [str(_TEAMS)],
              "killteam matchup": ["--profiles", str(_LIBRARIES / "Gloam Pact.toml"),
                                   "--against", str(_LIBRARIES / "Ember Wardens.toml")],
              "killteam meta": [str(_LIBRARIES), "--out", "meta.csv"]}
_NOT_FUZZED = {"killteam import": ("--out",), "killteam matchup": ("--output",), "killteam meta": ("--out",)}
_NO_ENGINE = ("deathburgh profiles", "killteam import", "killteam teams", "killteam matchup", "killteam meta")
_CLI_TEXT = st.one_of(st.text(max_size=20), _ODD_TEXT, _NOTATION_TEXT, st.integers().map(str),
                      st.sampled_from(["-1", "0", "1e3", "nan", "9" * 5000, "x=1", "a=b,c", "{}", "[]"]))


@pytest.mark.parametrize("name", sorted(CLI))
def test_cli_options(name: str, capsys: Any, tmp_path: Path, monkeypatch: Any) -> None:
    from mathhammer.cli import main

    monkeypatch.chdir(tmp_path)  # what a command writes (killteam import --out teams) stays here
    path, options = CLI[name]
    options = [option for option in options if option not in _NOT_FUZZED.get(name, ())]
    base = [*path, *_ARGUMENTS.get(name, [])]
    fixed = ["--method", "monte_carlo", "--samples", "300", "--seed", "1", "--threads", "1"]
    fixed = [] if name in _NO_ENGINE else fixed

    @settings(FUZZ, max_examples=CLI_EXAMPLES)
    @given(option=st.sampled_from(options), value=_CLI_TEXT)
    def check(option: str, value: str) -> None:
        args = [*base, *fixed, option, value]
        code = main(args)
        out, err = capsys.readouterr()
        assert code in (0, 2), (args[-2:], code, err[-300:])
        if code == 2:
            assert err.startswith("error: ") and err.count("\n") == 1 and "Traceback" not in err, err[-300:]

    if options:
        check()


def test_a_field_name_that_is_no_text_is_refused_by_name() -> None:
    """Found by the fuzz above (seed 4, 200 examples): the name an error uses was formatted unchecked."""
    with pytest.raises(InputTypeError, match="^field"):
        library.resolve_profile(game="starcraft", kind="unit", value={"zzz": 1}, library=None, field={"a": _NoRepr()})


def test_an_engaged_pair_of_arrays_is_refused_by_name() -> None:
    """Found by the fuzz above: a pair holding an array met `name in names`, which has no yes or no."""
    import numpy as np

    with pytest.raises(InputTypeError, match=r"^engaged\[0\]: expected a pair of unit names"):
        fm.melee_many({"x": _FM_A, "y": _FM_B}, [(np.array([3, 4]), None)], **_MC)
