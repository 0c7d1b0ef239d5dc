"""Profiles, card-notation keywords, the example profile file and the catalogue."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from mathhammer.files import library
from mathhammer import starcraft as sc

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples" / "starcraft" / "profiles.toml"


def test_parse_the_card_notation_of_the_issue() -> None:
    parsed = sc.parse_keywords('PIERCE Armoured (2), CRITICAL HIT (2), LONG RANGE (18")')
    assert parsed.fields == {"pierce": ("Armoured", 2), "critical_hit": 2, "long_range": True}
    assert parsed.kept == ()


@pytest.mark.parametrize(
    "text,fields",
    [
        ("PRECISION (1)", {"precision": 1}),
        ("precision 2", {"precision": 2}),
        ("ANTI-EVADE (1)", {"anti_evade": 1}),
        ("Anti Evade (2)", {"anti_evade": 2}),
        ('BURST FIRE 8" (1)', {"burst_fire": 1}),
        ('BURST FIRE (8") (2)', {"burst_fire": 2}),
        ("LOCKED IN (1)", {"locked_in": 1}),
        ("LONG RANGE", {"long_range": True}),
        ("long range 24\"", {"long_range": True}),
        ("CONCENTRATED FIRE (1)", {"concentrated_fire": 1}),
        ("INSTANT", {"instant": True}),
        ("PIERCE [Armored] (3)", {"pierce": ("Armoured", 3)}),
        ("PIERCE light 2", {"pierce": ("Light", 2)}),
        ("CRITICAL HIT(2); INSTANT", {"critical_hit": 2, "instant": True}),
    ],
)
def test_keyword_forms(text: str, fields: dict) -> None:
    assert sc.parse_keywords(text).fields == fields


def test_kept_keywords_change_no_maths() -> None:
    weapon = sc.Weapon(2, 3, 1, keywords="INDIRECT FIRE, PINPOINT, SIDEARM, SPECIALIST, BULKY, PRECISION (1)")
    assert weapon.kept_keywords == ("INDIRECT FIRE", "PINPOINT", "SIDEARM", "SPECIALIST", "BULKY")
    assert weapon.precision == 1
    plain = sc.Weapon(2, 3, 1, precision=1)
    unit = sc.catalog.unit("marine")
    assert sc.attack(weapon, unit).damage == sc.attack(plain, unit).damage


def test_keywords_and_fields_must_agree() -> None:
    assert sc.Weapon(2, 3, 1, precision=1, keywords="PRECISION (1)") == sc.Weapon(2, 3, 1, keywords="PRECISION (1)")
    with pytest.raises(ValueError, match=r"^precision: 2 given directly but the keywords say 1"):
        sc.Weapon(2, 3, 1, precision=2, keywords="PRECISION (1)")
    with pytest.raises(ValueError, match=r"^pierce: "):
        sc.Weapon(2, 3, 1, pierce=("Light", 2), keywords="PIERCE Armoured (2)")


def test_keywords_as_a_list_and_round_trip_through_card_notation() -> None:
    weapon = sc.Weapon(2, 3, 1, keywords=["PIERCE Armoured (2)", "CRITICAL HIT (1)", "ANTI-EVADE (1)", "BURST FIRE 6\" (1)",
                                         "LOCKED IN (2)", "LONG RANGE (18\")", "CONCENTRATED FIRE (2)", "INSTANT", "SIDEARM"])
    again = sc.Weapon(2, 3, 1, keywords=weapon.card_keywords)
    names = ("pierce", "critical_hit", "anti_evade", "burst_fire", "locked_in", "long_range", "concentrated_fire", "instant")
    assert all(getattr(again, n) == getattr(weapon, n) for n in names)
    assert again.kept_keywords == ("SIDEARM",)


def test_unknown_keyword_lists_the_known_ones() -> None:
    with pytest.raises(ValueError, match=r"^keywords: unknown keyword 'FLAMING \(2\)'; known: PIERCE, PRECISION, CRITICAL HIT"):
        sc.Weapon(2, 3, 1, keywords="PRECISION (1), FLAMING (2)")
    with pytest.raises(ValueError, match=r"^keywords: PRECISION is given twice"):
        sc.parse_keywords("PRECISION (1), PRECISION (2)")
    with pytest.raises(ValueError, match=r"^keywords: 'PIERCE \(2\)': write PIERCE \[Tag\] \(X\)"):
        sc.parse_keywords("PIERCE (2)")
    with pytest.raises(ValueError, match=r"^keywords \(pierce tag\): unknown Combat Tag 'Heroic'; allowed: Armoured"):
        sc.parse_keywords("PIERCE Heroic (2)")
    with pytest.raises(ValueError, match=r"^keywords \(precision\): 21 is out of range; allowed 0\.\.20"):
        sc.parse_keywords("PRECISION (21)")


def test_template_weapon_from_card_notation() -> None:
    cannon = sc.Weapon("BT+4", "4+", 1, surge_tags="Light, Armoured", surge_dice="BT")
    assert cannon.template and cannon.roa == 4 and cannon.surge_dice is None
    assert cannon.surge_tags == ("Armoured", "Light")
    assert str(cannon).startswith("RoA BT+4, Hit 4+, Surge Armoured, Light BT")


def test_surge_line_must_be_complete() -> None:
    with pytest.raises(ValueError, match=r"^surge_dice: Surge tags Light need a Surge die; allowed: D3, D3\+1, D6"):
        sc.Weapon(2, 3, 1, surge_tags=("Light",))
    # A Surge die with no Combat Tags (the reference calculator's default weapon) is accepted: its
    # Surge never matches, so the attack is the same as with no Surge line at all.
    untagged = sc.Weapon(roa=4, hit=3, damage=2, surge_dice="D3")
    marines = sc.catalog.unit("marine")
    assert sc.attack(untagged, marines).damage == sc.attack(sc.Weapon(roa=4, hit=3, damage=2), marines).damage
    assert not sc.attack(untagged, marines).surge_applied
    with pytest.raises(ValueError, match=r"^surge_dice: a template weapon rolls no Surge die"):
        sc.Weapon("BT+2", 3, 1, surge_tags=("Light",), surge_dice="D3")
    with pytest.raises(ValueError, match=r"^surge_dice: unknown Surge die 'D4'; allowed: None, D3, D3\+1, D6"):
        sc.Weapon(2, 3, 1, surge_tags=("Light",), surge_dice="D4")


def test_unit_defaults_and_state() -> None:
    zealots = sc.Unit(3, 4, "5+", "5+", shield=3, tags="Biological Light Ground")
    assert zealots.shielded and zealots.first_model_alive and zealots.marker == 0 and zealots.evade == 5
    assert zealots.tags == ("Biological", "Light", "Ground") and zealots.total_hp == 15
    assert sc.Unit(1, 8, 4, "-", shield=6).evade is None
    assert not sc.Unit(3, 4, 5, shield=3, first_model_alive=False).shielded
    assert sc.Unit(2, 5, 4, tags=["armored"]).tags == ("Armoured",)
    with pytest.raises(ValueError, match=r"^marker: 16 is out of range; allowed 0\.\.15"):
        sc.Unit(3, 4, 5, shield=3, marker=16)
    with pytest.raises(ValueError, match=r"^shielded: a unit without a Shield value cannot be Shielded"):
        sc.Unit(3, 4, 5, shielded=True)
    with pytest.raises(ValueError, match=r"^shielded: Shielded is lost with the first model"):
        sc.Unit(3, 4, 5, shield=2, shielded=True, first_model_alive=False)


def test_rules_variants() -> None:
    assert sc.Rules() == sc.Rules("count", "marker", "sum")
    assert sc.Rules.of({"critical_hit": "Natural"}).critical_hit == "natural"
    with pytest.raises(ValueError, match=r"^rules\.leftover: unknown value 'kept'; allowed: marker, lost"):
        sc.Rules(leftover="kept")
    with pytest.raises(ValueError, match=r"^rules\.reroll: unknown rule variant; allowed: critical_hit, leftover, stacking"):
        sc.Rules.of({"reroll": "ones"})


def test_example_file_equals_the_catalogue_and_round_trips(tmp_path: Path) -> None:
    loaded = library.load_library(EXAMPLES)
    assert library.library_game(EXAMPLES) == "starcraft"
    assert loaded["weapon"] == sc.catalog.WEAPONS
    assert loaded["unit"] == sc.catalog.UNITS
    copy = tmp_path / "copy.json"
    library.save_library(copy, "starcraft", loaded)
    assert library.load_library(copy) == loaded
    data = json.loads(copy.read_text())
    assert data["weapon"]["quad_k12"]["pierce"] == ["Armoured", 2]


def test_example_profiles_attack_each_other() -> None:
    loaded = library.load_library(EXAMPLES)
    rifle, roaches = loaded["weapon"]["quad_k12"], loaded["unit"]["roach"]
    result = sc.attack(rifle, roaches, firing_models=2)
    assert result.damage_per_die == 2  # PIERCE Armoured (2) against an Armoured unit
    assert result.surge_applied
    cannon = loaded["weapon"]["shock_cannon"]
    sized = sc.Unit(**{**library.profile_to_dict(loaded["unit"]["marine"]), "size": 1})
    blast = sc.attack(cannon, sized, affected_models=3, damage_set="size")
    assert blast.stages.dice == 7 and blast.stages.surge.prob(3) == 1.0 and blast.damage_per_die == 1


def test_catalogue_lookup() -> None:
    assert sc.catalog.weapon("C-14 Rifle") is sc.catalog.WEAPONS["c14_rifle"]
    assert sc.catalog.unit("Zergling") is sc.catalog.UNITS["zergling"]
    with pytest.raises(ValueError, match=r"^unit: unknown unit 'hydralisk'; known: marine, marauder"):
        sc.catalog.unit("hydralisk")
