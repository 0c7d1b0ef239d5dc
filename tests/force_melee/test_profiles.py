"""Profiles: validation errors that name the field, the example profiles (docs/rules/force_melee.md §8) and the
example scenario files, and fuzzing that only InputError / InputTypeError escape."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mathhammer import force_melee as fm
from mathhammer.files import library
from mathhammer.errors import InputError, InputTypeError

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples" / "force_melee"


@pytest.mark.parametrize(
    "make, field, allowed",
    [
        (lambda: fm.Weapon(hit=1, force=4), "hit", "2..6"),
        (lambda: fm.Weapon(hit="7+", force=4), "hit", "2..6"),
        (lambda: fm.Weapon(hit="four", force=4), "hit", "target number"),
        (lambda: fm.Weapon(hit=4, force=21), "force", "0..20"),
        (lambda: fm.Weapon(hit=4, force=-1), "force", "0..20"),
        (lambda: fm.Weapon(hit=4, force=4, crit=1), "crit", "2..6"),
        (lambda: fm.Weapon(hit=4, force=4, kind="thrown"), "kind", "melee, ranged"),
        (lambda: fm.Weapon(hit=4, force=4, kind="ranged"), "kind", "assault=True"),
        (lambda: fm.Weapon(hit=4, force=4, sustained=11), "sustained", "0..10"),
        (lambda: fm.Weapon(hit=4, force=4, critical_damage=11), "critical_damage", "0..10"),
        (lambda: fm.Weapon(hit=4, force=4, bonus_flat=11), "bonus_flat", "0..10"),
        (lambda: fm.Weapon(hit=4, force=4, reroll="all"), "reroll", "none, fails, ones"),
        (lambda: fm.Weapon(hit=4, force=4.5), "force", "integer"),
        (lambda: fm.Weapon(hit=4, force=4, assault="yes"), "assault", "True or False"),
        (lambda: fm.Unit(models=0), "models", "1..30"),
        (lambda: fm.Unit(models=31), "models", "1..30"),
        (lambda: fm.Unit(models=2, hp=31), "hp", "1..30"),
        (lambda: fm.Unit(models=2, hp=3, current=[3]), "current", "one per model"),
        (lambda: fm.Unit(models=2, hp=3, current=[3, 4]), "current[1]", "1..3"),
        (lambda: fm.Unit(models=2, hp=3, current=[0, 3]), "current[0]", "1..3"),
        (lambda: fm.Side(fm.Unit(1), fm.Weapon(4, 4), dice=41), "dice", "0..40"),
        (lambda: fm.Side(fm.Unit(1), fm.Weapon(4, 4), dice=3, hit_mod=6), "hit_mod", "-5..5"),
        (lambda: fm.Side({"models": 0}, fm.Weapon(4, 4), dice=3), "unit.models", "1..30"),
        (lambda: fm.Side(fm.Unit(1), {"hit": 4, "force": 4, "reach": 2}, dice=3), "weapon.reach", "unknown field"),
        (lambda: fm.Side(fm.Unit(1), {"force": 4}, dice=3), "weapon.hit", "missing"),
        (lambda: fm.Side.from_dict({"unit": {"models": 1}, "weapon": {"hit": 4, "force": 4}}, "a"), "a.dice", "missing"),
        (lambda: fm.melee({"unit": {"models": 1}, "weapon": {"hit": 4, "force": 30}, "dice": 1}, fm.example("militia")),
         "a.weapon.force", "0..20"),
        (lambda: fm.melee(fm.example("militia"), fm.example("walker"), winner_damage="twice"), "winner_damage",
         "once, excess, per_hit, pairing"),
        (lambda: fm.melee(fm.example("militia"), fm.example("walker"), allocation="fill"), "allocation",
         "spill, no_spill"),
        (lambda: fm.melee(fm.example("militia"), fm.example("walker"), sustained_mode="x"), "sustained_mode",
         "bonus, extra_hits"),
        (lambda: fm.melee(fm.example("militia"), fm.example("walker"), bonus_always=1), "bonus_always", "True or False"),
        (lambda: fm.melee(fm.example("militia"), fm.example("walker"), method="guess"), "method", "auto, exact"),
        (lambda: fm.melee(fm.example("militia"), fm.example("walker"), samples=0), "samples", "1..10000000000"),
        (lambda: fm.melee(fm.example("militia"), fm.example("walker"), seed=-1), "seed", "0.."),
        (lambda: fm.melee(fm.example("militia"), fm.example("walker"), threads=0), "threads", "1..256"),
        (lambda: fm.melee(fm.example("militia"), "walker"), "b", "expected a Side"),
        (lambda: fm.allocate(fm.Unit(2), -1), "damage", "0..1000000"),
        (lambda: fm.allocate(fm.Unit(2), [1, 2_000_000]), "damage[1]", "0..1000000"),
        (lambda: fm.allocate(fm.Unit(2), 1, "share"), "allocation", "spill, no_spill"),
        (lambda: fm.resolve(fm.example("militia"), fm.example("walker"), 3, 0), "hits_a", "0..2"),
        (lambda: fm.resolve(fm.example("militia"), fm.example("walker"), 1, 1, crits_b=2), "crits_b", "0..1"),
        (lambda: fm.example("orks"), "profile", "line_troopers"),
    ],
)
def test_bad_input_names_the_field(make, field, allowed):
    with pytest.raises((InputError, InputTypeError)) as error:
        make()
    assert isinstance(error.value, (ValueError, TypeError))
    message = str(error.value)
    assert message.startswith(f"{field}:"), message
    assert allowed in message, message


def test_too_large_a_damage_table_is_refused():
    huge = fm.Side(fm.Unit(30, 30), fm.Weapon(hit=2, force=20, crit=2, sustained=10), dice=40)
    with pytest.raises(InputError, match=r"^dice: this melee needs .* bins"):
        fm.melee(huge, huge, winner_damage="per_hit", sustained_mode="extra_hits")
    # the same profiles with the bonus reading fit
    assert fm.melee(huge, huge, winner_damage="per_hit").damage_a.max == 20 * 40 + 10 * 40


def test_hit_accepts_notation_and_crit_reads_as_at_least_the_target():
    side = fm.Side(fm.Unit(1), fm.Weapon(hit="4+", force=2, crit=3), dice=1, hit_mod=-1)
    assert side.weapon.hit == 4 and side.target == 5 and side.crit_face == 5
    assert fm.Side(fm.Unit(1), fm.Weapon(hit=2, force=2), dice=1, hit_mod=3).target == 2  # clamped


def test_profiles_round_trip_through_dicts():
    for side in fm.EXAMPLES.values():
        assert fm.Side.from_dict(side.to_dict()) == side
    wounded = fm.Side(fm.Unit(3, 2, current=[2, 1, 2], name="x"), fm.Weapon(3, 3, reroll="ones"), dice=4, hit_mod=-1)
    assert fm.Side.from_dict(wounded.to_dict()) == wounded


# The spec's table (docs/rules/force_melee.md §8): name, dice, hit, Force, models, HP.
SPEC_PROFILES = {
    "line_troopers": ("Line Trooper squad", 3, 4, 4, 5, 1),
    "militia": ("Militia squad", 2, 5, 2, 5, 1),
    "walker": ("Walker", 4, 3, 6, 1, 12),
}


def test_example_profiles_are_the_spec_profiles():
    for key, (name, dice, hit, force, models, hp) in SPEC_PROFILES.items():
        side = fm.example(key)
        assert (side.name, side.dice, side.weapon.hit, side.weapon.force, side.unit.models, side.unit.hp) == \
            (name, dice, hit, force, models, hp)
    assert fm.example("walker").unit.vehicle
    carbines = fm.example("carbine_squad").weapon
    assert carbines.kind == "ranged" and carbines.assault


def _sides_in(entries):
    for entry in entries:
        if entry.action == "melee":
            yield entry.kwargs["a"]
            yield entry.kwargs["b"]
        else:
            yield from entry.kwargs["sides"].values()


def test_example_files_hold_the_example_profiles():
    files = sorted(EXAMPLES.glob("scenario*.toml"))
    assert len(files) >= 2
    found = {side for path in files for side in _sides_in(fm.load_scenario(path))}
    for side in fm.EXAMPLES.values():
        assert side in found, side.name


@pytest.mark.parametrize("path", sorted(EXAMPLES.glob("scenario*.toml")), ids=lambda p: p.name)
def test_example_files_run(path):
    for name, result in fm.run_scenario(path):
        assert result.method == "exact" and name


def test_walker_scenario_by_hand_split():
    (_, single), (_, many) = fm.run_scenario(EXAMPLES / "scenario_walker.toml")
    assert many.pair("walker", "troopers").dice == (2, 3)  # as asked: walker's dice first
    assert many.pair("troopers", "walker").dice == (3, 2)
    assert many.pair("carbines", "walker").dice == (3, 2)
    assert many.pair("carbines", "militia").dice == (1, 2)
    flipped, stored = many.pair("walker", "troopers"), many.pair("troopers", "walker")
    assert (flipped.joint.pmf == stored.joint.pmf.T).all() and flipped.p_first_more == stored.p_second_more


def test_scenario_errors_name_file_entry_and_field(tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text('[[force_melee.melee]]\nname = "x"\na = "walker"\nb = { dice = 2, unit = { models = 5 }, '
                   'weapon = { hit = 9, force = 2 } }\n', encoding="utf-8")
    with pytest.raises(InputError) as error:
        fm.load_scenario(bad)
    message = str(error.value)
    assert "bad.toml" in message and "force_melee.melee[0] (x)" in message and "b.weapon.hit" in message
    bad.write_text('[[force_melee.melee]]\na = "orks"\nb = "walker"\n', encoding="utf-8")
    with pytest.raises(InputError, match="unknown example profile 'orks'"):
        fm.load_scenario(bad)
    bad.write_text('[[force_melee.melee_many]]\nsides = { a = "walker", b = "militia" }\nengaged = [["a", "c"]]\n',
                   encoding="utf-8")
    with pytest.raises(InputError, match=r"engaged\[0\]: unknown unit 'c'"):
        fm.run_scenario(bad)


def test_units_load_through_the_shared_profile_library():
    unit = library.profile_from_dict("force_melee", "unit", {"models": 3, "hp": 2, "current": [2, 1, 2]})
    assert unit == fm.Unit(3, 2, current=(2, 1, 2))


# --- fuzzing: bad input never raises anything but InputError / InputTypeError ---------------------------

_junk = st.one_of(st.integers(-100, 100), st.text(max_size=4), st.none(), st.booleans(), st.floats(allow_nan=True),
                  st.lists(st.integers(-3, 40), max_size=4))


@settings(max_examples=300, deadline=None)
@given(hit=_junk, force=_junk, crit=_junk, kind=_junk, assault=_junk, sustained=_junk, reroll=_junk)
def test_weapon_fuzz(hit, force, crit, kind, assault, sustained, reroll):
    try:
        fm.Weapon(hit=hit, force=force, crit=crit, kind=kind, assault=assault, sustained=sustained, reroll=reroll)
    except (InputError, InputTypeError):
        pass


@settings(max_examples=200, deadline=None)
@given(models=_junk, hp=_junk, current=_junk, dice=_junk, hit_mod=_junk)
def test_unit_and_side_fuzz(models, hp, current, dice, hit_mod):
    try:
        side = fm.Side(fm.Unit(models=models, hp=hp, current=current), fm.Weapon(4, 3), dice=dice, hit_mod=hit_mod)
    except (InputError, InputTypeError):
        return
    assert 0 <= side.dice <= 40


@settings(max_examples=150, deadline=None)
@given(engaged=st.lists(st.lists(st.sampled_from(["a", "b", "c", "x"]), min_size=0, max_size=3), max_size=4),
       assignment=st.dictionaries(st.one_of(st.sampled_from(["a", "b", "c"]), st.tuples(st.sampled_from(["a", "b", "x"]),
                                                                                        st.sampled_from(["a", "b", "c"]))),
                                  st.one_of(st.integers(-2, 6), st.dictionaries(st.sampled_from(["a", "b", "c"]),
                                                                                st.integers(-1, 5), max_size=2)),
                                  max_size=3),
       winner_damage=st.sampled_from(["once", "pairing", "bogus"]))
def test_melee_many_fuzz(engaged, assignment, winner_damage):
    sides = {"a": fm.example("line_troopers"), "b": fm.example("militia"), "c": fm.example("walker")}
    try:
        result = fm.melee_many(sides, engaged, assignment, winner_damage=winner_damage)
    except (InputError, InputTypeError):
        return
    for unit in result.units.values():
        assert abs(unit.damage.pmf.sum() - 1) < 1e-12
