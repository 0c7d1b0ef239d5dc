"""Profiles of every game round-trip through TOML and JSON profile libraries, and through datacard
notation where the game has one (Kill Team weapons, rules and abilities; StarCraft keywords;
Deathburgh miniatures). Property tests over random valid profiles."""

from __future__ import annotations

import dataclasses
import itertools
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mathhammer import deathburgh as db
from mathhammer import force_melee as fm
from mathhammer import killteam as kt
from mathhammer.files import library
from mathhammer import starcraft as sc
from mathhammer.killteam.profiles import REROLLS
from mathhammer.starcraft.profiles import TAGS, parse_keywords

SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
NAMES = st.text(alphabet="abcdefghijklmnopqrstuvwxyz _-'", min_size=1, max_size=12).filter(str.strip)
_counter = itertools.count()


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("libraries")


def _through_files(folder: Path, game: str, lib: dict[str, dict[str, Any]]) -> None:
    """Save ``lib`` as TOML and as JSON, load both back, and check they equal it."""
    for suffix in (".toml", ".json"):
        path = folder / f"library{next(_counter)}{suffix}"
        library.save_library(path, game, lib)
        assert library.load_library(path) == lib
        assert library.library_game(path) == game


# --- Kill Team ----------------------------------------------------------------------------------------
def _optional(strategy: st.SearchStrategy) -> st.SearchStrategy:
    return st.one_of(st.none(), strategy)


weapon_rules = st.builds(
    kt.WeaponRules,
    lethal=_optional(st.integers(2, 6)), accurate=st.integers(0, 6), reroll=st.sampled_from(REROLLS),
    punishing=st.booleans(), severe=st.booleans(), rending=st.booleans(), brutal=st.booleans(),
    shock=st.booleans(), saturate=st.booleans(), fails_to_norms=st.integers(0, 6), norms_to_crits=st.integers(0, 6),
    piercing=st.integers(0, 3), piercing_crits=st.integers(0, 3), devastating=st.integers(0, 9),
)
abilities = st.builds(
    kt.Abilities,
    storm_shield=st.booleans(), dueller=st.booleans(), duelist=st.booleans(), hammerhand=st.booleans(),
    just_a_scratch=st.booleans(), just_a_scratch_normals=st.booleans(), half_damage_first_strike=st.booleans(),
    durable=st.booleans(), murderous_entrance=st.booleans(), punishing=st.booleans(),
    feel_no_pain=_optional(st.integers(2, 6)), saintly_relics=st.integers(0, 2),
)
damage = st.tuples(st.integers(0, 12), st.integers(0, 12))
kt_weapons = st.builds(kt.Weapon, st.integers(1, 12), st.integers(2, 6), damage, weapon_rules)
kt_fighters = st.builds(kt.Fighter, st.integers(1, 12), st.integers(2, 6), damage, st.integers(1, 40), weapon_rules,
                        abilities, st.sampled_from(kt.STRATEGIES))
kt_operatives = st.builds(kt.Operative, st.integers(2, 6), st.integers(1, 40), abilities)


@SETTINGS
@given(weapon=kt_weapons)
def test_killteam_weapon_notation(weapon: kt.Weapon) -> None:
    assert kt.Weapon.parse(str(weapon)) == weapon
    assert kt.WeaponRules.parse(str(weapon.rules)) == weapon.rules
    assert library.profile_from_dict("killteam", "weapon", {"card": str(weapon)}) == weapon


@SETTINGS
@given(found=abilities)
def test_killteam_abilities_notation(found: kt.Abilities) -> None:
    assert kt.Abilities.parse(str(found)) == found
    assert kt.Abilities.parse(str(found).upper()) == found  # case-insensitive


@SETTINGS
@given(weapon=kt_weapons, fighter=kt_fighters, operative=kt_operatives, name=NAMES)
def test_killteam_libraries(folder: Path, weapon: kt.Weapon, fighter: kt.Fighter, operative: kt.Operative,
                            name: str) -> None:
    _through_files(folder, "killteam", {"weapon": {name: weapon}, "fighter": {name: fighter},
                                        "operative": {name: operative}})


def test_killteam_notation_by_hand() -> None:
    gun = kt.Weapon.parse("4A 3+ 3/4 Lethal 5+, Piercing 1")
    assert gun == kt.Weapon(4, 3, (3, 4), kt.WeaponRules(lethal=5, piercing=1))
    assert str(gun) == "4A 3+ 3/4 Lethal 5+, Piercing 1"
    assert str(kt.Weapon.parse("6a 4 3/4 ceaseless, balanced")) == "6A 4+ 3/4 Ceaseless Balanced"


# --- StarCraft -----------------------------------------------------------------------------------------
@st.composite
def sc_weapons(draw: st.DrawFn) -> sc.Weapon:
    template = draw(st.booleans())
    tags = tuple(draw(st.lists(st.sampled_from(TAGS), unique=True, max_size=3)))
    surge_dice = None if template or not tags else draw(st.sampled_from(sc.profiles.SURGE_DICE))
    pierce = draw(_optional(st.tuples(st.sampled_from(TAGS), st.integers(0, 20))))
    return sc.Weapon(
        roa=draw(st.integers(0, 30)), hit=draw(st.integers(2, 6)), damage=draw(st.integers(0, 20)),
        surge_tags=tags, surge_dice=surge_dice, template=template, pierce=pierce,
        precision=draw(st.integers(0, 20)), critical_hit=draw(st.integers(0, 20)), anti_evade=draw(st.integers(0, 20)),
        burst_fire=draw(st.integers(0, 20)), locked_in=draw(st.integers(0, 20)), long_range=draw(st.booleans()),
        concentrated_fire=draw(_optional(st.integers(1, 40))), instant=draw(st.booleans()),
        name=draw(st.one_of(st.just(""), NAMES)),
    )


@st.composite
def sc_units(draw: st.DrawFn) -> sc.Unit:
    unit = sc.Unit(
        models=draw(st.integers(1, 40)), hp=draw(st.integers(1, 30)), armour=draw(st.integers(2, 6)),
        evade=draw(_optional(st.integers(2, 6))), shield=draw(st.integers(0, 20)),
        tags=tuple(draw(st.lists(st.sampled_from(TAGS), unique=True, max_size=4))),
        size=draw(_optional(st.integers(1, 20))), tough=draw(st.integers(0, 20)),
        first_model_alive=draw(st.booleans()), name=draw(NAMES),
    )
    return dataclasses.replace(unit, marker=draw(st.integers(0, unit.total_hp)))


KEYWORD_FIELDS = ("pierce", "precision", "critical_hit", "anti_evade", "burst_fire", "locked_in", "long_range",
                  "concentrated_fire", "instant")


@SETTINGS
@given(weapon=sc_weapons())
def test_starcraft_keyword_notation(weapon: sc.Weapon) -> None:
    card = weapon.card_keywords
    again = sc.Weapon(weapon.roa, weapon.hit, weapon.damage, weapon.surge_tags, weapon.surge_dice, weapon.template,
                      keywords=card, name=weapon.name)
    assert {f: getattr(again, f) for f in KEYWORD_FIELDS} == {f: getattr(weapon, f) for f in KEYWORD_FIELDS}
    assert again.card_keywords == card
    parsed = parse_keywords(card.lower())  # any capitalisation
    assert all(parsed.fields[f] == getattr(weapon, f) for f in parsed.fields)


@SETTINGS
@given(weapon=sc_weapons(), unit=sc_units(), name=NAMES)
def test_starcraft_libraries(folder: Path, weapon: sc.Weapon, unit: sc.Unit, name: str) -> None:
    named = weapon if weapon.name else dataclasses.replace(weapon, name=name)  # a nameless entry takes its key
    _through_files(folder, "starcraft", {"weapon": {name: named}, "unit": {name: unit}})


# --- Deathburgh ----------------------------------------------------------------------------------------
miniatures = st.builds(db.Miniature, st.integers(0, 20), st.integers(2, 6), st.integers(0, 20), st.integers(2, 6),
                       st.integers(1, 20), st.sampled_from(("melee", "ranged")), NAMES)


@SETTINGS
@given(mini=miniatures)
def test_deathburgh_notation(mini: db.Miniature) -> None:
    assert db.Miniature.parse(mini.notation, role=mini.role, name=mini.name) == mini
    alpha = f"P {mini.A} A +{mini.A_plus} V {mini.D} D +{mini.D_plus} W {mini.W}"
    assert db.Miniature.parse(alpha, role=mini.role, name=mini.name) == mini
    assert library.profile_from_dict("deathburgh", "miniature",
                                     {"card": mini.notation, "role": mini.role, "name": mini.name}) == mini


@SETTINGS
@given(minis=st.lists(miniatures, min_size=1, max_size=4, unique_by=lambda m: m.name))
def test_deathburgh_libraries(folder: Path, minis: list[db.Miniature]) -> None:
    _through_files(folder, "deathburgh", {"miniature": {m.name: m for m in minis}})
    path = folder / f"minis{next(_counter)}.toml"
    db.save_profiles(path, minis)
    assert db.load_profiles(path) == {m.name: m for m in minis}


# --- Force melee ---------------------------------------------------------------------------------------
@st.composite
def fm_weapons(draw: st.DrawFn) -> fm.Weapon:
    kind = draw(st.sampled_from(fm.KINDS))
    return fm.Weapon(hit=draw(st.integers(2, 6)), force=draw(st.integers(0, 20)), crit=draw(st.integers(2, 6)),
                     kind=kind, assault=kind == "ranged" or draw(st.booleans()), sustained=draw(st.integers(0, 10)),
                     critical_damage=draw(st.integers(0, 10)), bonus_flat=draw(st.integers(0, 10)),
                     reroll=draw(st.sampled_from(fm.REROLLS)), name=draw(NAMES))


@st.composite
def fm_units(draw: st.DrawFn) -> fm.Unit:
    models, hp = draw(st.integers(1, 30)), draw(st.integers(1, 30))
    current = draw(_optional(st.lists(st.integers(1, hp), min_size=models, max_size=models)))
    return fm.Unit(models=models, hp=hp, current=current, vehicle=draw(st.booleans()), name=draw(NAMES))


@SETTINGS
@given(weapon=fm_weapons(), unit=fm_units(), dice=st.integers(0, 40), hit_mod=st.integers(-5, 5), name=NAMES)
def test_force_melee_libraries(folder: Path, weapon: fm.Weapon, unit: fm.Unit, dice: int, hit_mod: int,
                               name: str) -> None:
    side = fm.Side(unit=unit, weapon=weapon, dice=dice, hit_mod=hit_mod)
    _through_files(folder, "force_melee", {"weapon": {name: weapon}, "unit": {name: unit}, "side": {name: side}})
    assert fm.Side.from_dict(side.to_dict()) == side
    by_name = library.parse_library(
        {"game": "force_melee", "unit": {"u": library.profile_to_dict(unit)},
         "weapon": {"w": library.profile_to_dict(weapon)},
         "side": {"s": {"unit": "u", "weapon": "w", "dice": dice, "hit_mod": hit_mod}}}, "test")[1]
    assert by_name["side"]["s"] == side


def test_force_melee_side_naming_a_missing_unit() -> None:
    with pytest.raises(library.ProfileFileError, match=r"side\.s: unit: no unit 'ghost' in the library"):
        library.parse_library({"game": "force_melee", "side": {"s": {"unit": "ghost", "weapon": {"hit": 4, "force": 2},
                                                                   "dice": 2}}}, "lib.toml")


# --- every profile class: to_dict / from_dict (through JSON) and pickle -----------------------------
def _json_and_pickle(profile: Any) -> None:
    import json
    import pickle

    cls = type(profile)
    data = profile.to_dict()
    assert cls.from_dict(json.loads(json.dumps(data))) == profile
    assert pickle.loads(pickle.dumps(profile)) == profile


db_sides = st.builds(db.Side, miniatures, st.sampled_from(db.profiles.MODES), charge=st.booleans(),
                     support=st.integers(0, 3))
engagements = st.builds(db.Engagement, NAMES, NAMES, st.sampled_from(("attack", "dodge", "none")),
                        st.fixed_dictionaries({}, optional={"charge": st.booleans()}),
                        st.fixed_dictionaries({}, optional={"mode": st.sampled_from(db.profiles.MODES)}),
                        st.booleans())


@st.composite
def fm_sides(draw: st.DrawFn) -> fm.Side:
    return fm.Side(unit=draw(fm_units()), weapon=draw(fm_weapons()), dice=draw(st.integers(0, 40)),
                   hit_mod=draw(st.integers(-5, 5)))


@st.composite
def sc_batches(draw: st.DrawFn) -> sc.Batch:
    weapon = draw(sc_weapons())
    options = draw(st.fixed_dictionaries({}, optional={"firing_models": st.integers(1, 6), "roa_mod": st.integers(0, 3),
                                                       "engaged": st.booleans()}))
    return sc.Batch(weapon, **options)


@SETTINGS
@given(profile=st.one_of(kt_weapons, kt_fighters, kt_operatives, weapon_rules, abilities, sc_weapons(), sc_units(),
                         sc_batches(), miniatures, db_sides, engagements, fm_weapons(), fm_units(), fm_sides()))
def test_every_profile_class_round_trips_and_pickles(profile: Any) -> None:
    _json_and_pickle(profile)


def test_every_profile_class_is_covered() -> None:
    """The round-trip test above draws every public profile class of every game."""
    covered = {kt.Weapon, kt.Fighter, kt.Operative, kt.WeaponRules, kt.Abilities, sc.Weapon, sc.Unit, sc.Batch,
               db.Miniature, db.Side, db.Engagement, fm.Weapon, fm.Unit, fm.Side}
    for module in (kt, sc, db, fm):
        for name in module.__all__:
            obj = getattr(module, name)
            if isinstance(obj, type) and hasattr(obj, "from_dict") and not name.endswith(("Result", "Variants")) \
                    and name not in ("Rules", "Advice", "MoveValue", "FightLog", "Resolution", "Allocation", "Stages",
                                     "StateDistribution", "BatchSummary", "Matchup", "MatchupSummary",
                                     "MetaRanking", "Comparison", "FightComparison"):
                assert obj in covered, name
