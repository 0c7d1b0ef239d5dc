"""Engine-option fuzzing: every engine function, called by keyword on a small valid scenario with one
bad engine option (method, samples, seed, threads, progress, executor), raises only
mathhammer.errors.InputError / InputTypeError, and the error names that option (err.field).

No other exception type may escape (a TypeError from an unknown keyword, an OverflowError from
the C++ bindings, a crash), and a bad value may not be accepted silently."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from mathhammer import deathburgh as db
from mathhammer import force_melee as fm
from mathhammer import killteam as kt
from mathhammer import starcraft as sc
from mathhammer.errors import InputError, InputTypeError
from mathhammer.core.sampling import MAX_SAMPLES, MAX_THREADS

METHODS = ("exact", "monte_carlo", "auto")
FIELDS = ("method", "samples", "seed", "threads", "progress", "executor")


def _normalised(text: str) -> str:
    return text.strip().lower().replace("-", "_").replace(" ", "_")


# Values no engine may accept for each option. Wrong types first, then out-of-range values.
WRONG_TYPES = st.sampled_from([1.5, b"x", [1], {"a": 1}, (1,), object(), complex(1, 1)])
BAD = {
    "method": st.one_of(
        WRONG_TYPES, st.integers(), st.none(), st.booleans(),
        st.text(max_size=12).filter(lambda s: _normalised(s) not in METHODS),
    ),
    "samples": st.one_of(
        WRONG_TYPES, st.booleans(), st.text(max_size=5), st.floats(allow_nan=True),
        st.integers(max_value=0), st.integers(min_value=MAX_SAMPLES + 1), st.sampled_from([0, -1, 10**10 + 1, 2**64]),
    ),
    "seed": st.one_of(
        WRONG_TYPES, st.booleans(), st.text(max_size=5), st.floats(),
        st.integers(max_value=-1), st.integers(min_value=2**64), st.sampled_from([-1, 2**64]),
    ),
    "threads": st.one_of(
        WRONG_TYPES, st.booleans(), st.text(max_size=5), st.floats(),
        st.integers(max_value=0), st.integers(min_value=MAX_THREADS + 1), st.sampled_from([0, -1, 257]),
    ),
    "progress": st.one_of(WRONG_TYPES, st.integers(), st.booleans(), st.text(max_size=5), st.just(3)),
    "executor": st.one_of(WRONG_TYPES, st.integers(), st.booleans(), st.text(max_size=5), st.just(1)),
}

# The other options while one is bad: Monte Carlo, so that every sampling option is read.
VALID = {"method": "monte_carlo", "samples": 2_000, "seed": 1, "threads": 1}


def _kt_fighters() -> tuple[kt.Fighter, kt.Fighter]:
    return kt.Fighter(attacks=3, hit=3, wounds=8), kt.Fighter(attacks=3, hit=4, wounds=7, strategy="parry")


def _db_pair() -> tuple[db.Miniature, db.Miniature]:
    return db.Miniature(2, 4, 2, 4, 2), db.Miniature(2, 3, 1, 5, 2)


def _sc_pair() -> tuple[sc.Weapon, sc.Unit]:
    return sc.Weapon(roa=2, hit=3, damage=1), sc.Unit(models=3, hp=1, armour=5)


def _fm_sides() -> dict[str, fm.Side]:
    return {"t": fm.example("line_troopers"), "m": fm.example("militia")}


ENGINES: dict[str, Callable[..., Any]] = {
    "kt.fight": lambda **o: kt.fight(*_kt_fighters(), **o),
    "kt.shoot": lambda **o: kt.shoot(kt.Weapon(3, 3, (3, 4)), kt.Operative(3, 8), **o),
    "kt.attack_dice": lambda **o: kt.attack_dice(kt.Weapon(3, 3, (3, 4)), **o),
    "sc.attack": lambda **o: sc.attack(*_sc_pair(), **o),
    "sc.sequence": lambda **o: sc.sequence(_sc_pair()[1], [sc.Batch(_sc_pair()[0]), sc.Batch(_sc_pair()[0])], **o),
    "db.combat": lambda **o: db.combat(*_db_pair(), **o),
    "db.round": lambda **o: db.round(
        {"x": _db_pair()[0], "y": _db_pair()[1]}, [{"attacker": "x", "defender": "y", "reaction": "attack"}], **o
    ),
    "fm.melee": lambda **o: fm.melee(_fm_sides()["t"], _fm_sides()["m"], **o),
    "fm.melee_many": lambda **o: fm.melee_many(_fm_sides(), [("t", "m")], **o),
}


def check_refused(engine: str, field: str, value: Any) -> None:
    options = dict(VALID)
    options[field] = value
    try:
        ENGINES[engine](**options)
    except (InputError, InputTypeError) as err:
        assert err.field == field, f"{engine}({field}={value!r}): the error names {err.field!r}: {err}"
    except Exception as err:  # noqa: BLE001 - any other type escaping is what this test looks for
        pytest.fail(f"{engine}({field}={value!r}) raised {type(err).__name__}: {err}")
    else:
        pytest.fail(f"{engine}({field}={value!r}) was accepted")


@pytest.mark.parametrize("engine", ENGINES)
def test_the_valid_scenarios_run(engine):
    # The scenarios themselves are valid: a failure below is the bad option's, not theirs.
    result = ENGINES[engine](**VALID)
    assert result.method == "monte_carlo"


@pytest.mark.parametrize("field", FIELDS)
@pytest.mark.parametrize("engine", ENGINES)
def test_the_brief_bad_values_are_refused_naming_the_field(engine, field):
    named = {"method": ["exactly", 1], "samples": [0, 10**10 + 1], "seed": [-1, 2**64],
             "threads": [0, -1, 257], "progress": [3], "executor": [1]}[field]
    for value in named:
        check_refused(engine, field, value)


@pytest.mark.parametrize("engine", ENGINES)
@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_fuzzed_bad_options_raise_only_input_errors(engine, data):
    field = data.draw(st.sampled_from(FIELDS), label="field")
    value = data.draw(BAD[field], label=field)
    check_refused(engine, field, value)
