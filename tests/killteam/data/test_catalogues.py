"""The hand-made catalogues of examples/killteam/data read into teams: every link kind, every
modifier and condition form, weapons of several profiles, odd names, equipment, other editions.

Every expected value is read off the XML files by hand (their comments say which form each entry
holds); none comes from the importer.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from casedata import KILLTEAM_DATA
from mathhammer import killteam as kt
from mathhammer.errors import InputError

DATA = KILLTEAM_DATA
EMBER = DATA / "2024 - Ember Wardens.cat"
GLOAM = DATA / "2024 - Gloam Pact.cat"
SYSTEM = DATA / "2024 - Test Game System.gst"


@pytest.fixture(scope="module")
def teams() -> dict[str, kt.data.Team]:
    return {team.name: team for team in kt.data.load_catalogues(DATA)}


def card(team: kt.data.Team, operative: str, weapon: str) -> str:
    return str(team[operative].weapon(weapon).weapon)


def test_a_folder_gives_one_team_per_2024_catalogue(teams: dict[str, kt.data.Team]) -> None:
    assert sorted(teams) == ["Ember Wardens", "Gloam Pact"]  # the 2021 catalogue is skipped
    ember = teams["Ember Wardens"]
    assert (ember.file, ember.revision) == ("2024 - Ember Wardens.cat", 4)
    assert len(ember.sha256) == 64 and ember.sha256 != teams["Gloam Pact"].sha256
    skipped = kt.data.read_catalogues(DATA).skipped
    assert skipped == [("2021 - Ember Wardens.cat", "game system old-edition-system, not Kill Team 2024")]


def test_a_list_of_files_reads_the_same_as_the_folder(teams: dict[str, kt.data.Team]) -> None:
    listed = kt.data.load_catalogues([SYSTEM, GLOAM, EMBER])
    assert {team.name: team for team in listed} == teams
    again = kt.data.load_catalogues([DATA, EMBER])  # a file named twice is read once
    assert {team.name: team for team in again} == teams


def test_operatives_of_every_link_kind(teams: dict[str, kt.data.Team]) -> None:
    ember = teams["Ember Wardens"]
    # root entries, a root entryLink into the catalogue's shared entries, one into the game system's
    # (the Recruit's variant with its shield follows it: test_an_option_that_changes_the_save_is_a_variant)
    assert [op.name for op in ember] == ["Warden Captain", "Warden Sergeant", "Warden Recruit",
                                         "Warden Recruit (Ward shield)", "Warden Trooper", "Warden Trooper 2",
                                         "Kindler Gunnér", "Drifter"]
    captain = ember["warden captain"]  # case-insensitive; Hardy 5+ from its Iron Will (test_abilities.py)
    assert (captain.operative, captain.apl, captain.move) == (kt.Operative(3, 15, "Hardy 5+"), 3, 6)
    # the Gunner's stats come through an infoLink into sharedProfiles
    assert ember["Kindler Gunnér"].operative == kt.Operative(4, 10) and ember["Kindler Gunnér"].move == 5
    # the game system's Drifter: its own profile, the Shape Reference it also links skipped
    assert ember["Drifter"].operative == kt.Operative(5, 7)
    assert [w.name for w in ember["Drifter"].weapons] == ["Drifter's hook"]
    # an operative of another catalogue, through a catalogueLink
    assert [op.name for op in teams["Gloam Pact"]] == ["Brånd Seer", "Warden Envoy"]
    assert teams["Gloam Pact"]["Warden Envoy"].operative == kt.Operative(4, 10)


def test_weapons_below_an_operative(teams: dict[str, kt.data.Team]) -> None:
    ember = teams["Ember Wardens"]
    # entryLink to a shared entry, entryLink inside a group (two profiles), a nested entry
    assert [w.name for w in ember["Warden Captain"].weapons] == [
        "Ember maul", "Flame pistol (standard)", "Flame pistol (overcharge)"]
    assert [w.name for w in ember["Warden Sergeant"].weapons] == ["Ember maul", "Knife & Fork", "Scorch rifle"]
    assert [(w.name, w.kind) for w in ember["Kindler Gunnér"].weapons] == [
        ("Blaze cannon", "ranged"), ("Firebrand", "ranged"), ("Knife & Fork", "melee"),
        ("Flame pistol (standard)", "ranged"), ("Flame pistol (overcharge)", "ranged")]


def test_modifiers_by_the_entry_or_category_above(teams: dict[str, kt.data.Team]) -> None:
    ember, gloam = teams["Ember Wardens"], teams["Gloam Pact"]
    # the shared maul is 5A 4+; 3+ when its ancestor is the Captain, one attack less under a Sergeant
    assert card(ember, "Warden Captain", "Ember maul") == "5A 3+ 4/6 Shock"
    assert card(ember, "Warden Sergeant", "Ember maul") == "4A 4+ 4/6 Shock"
    assert card(gloam, "Warden Envoy", "Ember maul") == "5A 4+ 4/6 Shock"
    # a modifier group (not under the Captain as root entry) holding an "or" group (self is the pistol)
    assert card(ember, "Warden Captain", "Flame pistol (standard)") == "4A 3+ 3/5 Piercing 1"
    assert card(ember, "Kindler Gunnér", "Flame pistol (standard)") == "5A 3+ 3/5 Piercing 1"
    # parent: the Captain holds the pistol (through a group), the Gunner through its Sidearm entry
    assert card(ember, "Warden Captain", "Flame pistol (overcharge)") == "4A 3+ 5/6 Lethal 5+, Piercing 1, Hot"
    assert card(ember, "Kindler Gunnér", "Flame pistol (overcharge)") == "4A 3+ 4/5 Lethal 5+, Piercing 1, Hot"
    # an "and" group of root-entry and notInstanceOf ancestor conditions sets the WR text
    rifle = ember["Warden Sergeant"].weapon("Scorch rifle")
    assert rifle.wr == "Scorch*, Rending, Lethal 5+ Piercing 1"
    assert rifle.weapon.rules == kt.WeaponRules(lethal=5, rending=True, piercing=1)
    # a category named as the scope with childId "any"; an increment on an Operative profile
    assert card(ember, "Kindler Gunnér", "Blaze cannon") == "5A 3+ 4/5 Piercing 1"
    assert ember["Warden Trooper 2"].operative == kt.Operative(4, 11)


def _entry(team: kt.data.Team, operative: str, weapon: str = "") -> kt.data.Entry:
    assert team.report is not None
    found = [e for e in team.report.entries if (e.operative, e.weapon) == (operative, weapon)]
    assert len(found) == 1, found
    return found[0]


def test_modifiers_a_list_decides_are_reported_with_both_values(teams: dict[str, kt.data.Team]) -> None:
    ember = teams["Ember Wardens"]
    assert ember["Warden Recruit"].operative.save == 4  # the 2+ needs the shield: the variant's
    (save,) = _entry(ember, "Warden Recruit").changes
    assert (save.characteristic, save.before, save.after, save.status, save.option) == (
        "Save", "4+", "2+", "option", "ew-shield")
    assert "atLeast" in save.condition
    cannon = _entry(ember, "Kindler Gunnér", "Blaze cannon").changes
    assert [(c.characteristic, c.before, c.after, c.status) for c in cannon] == [
        ("HIT", "4+", "3+", "applied"), ("ATK", "5", "6", "undecided")]
    assert "force" in cannon[1].condition
    # an increment of "4/5" damage is no number: reported, not applied
    pistol = _entry(ember, "Kindler Gunnér", "Flame pistol (overcharge)").changes
    assert [(c.type, c.status) for c in pistol] == [("increment", "not applied")]


def test_profiles_that_cannot_be_read_are_skipped_and_reported(teams: dict[str, kt.data.Team]) -> None:
    ember = teams["Ember Wardens"]
    assert [w.name for w in ember["Warden Recruit"].weapons] == [
        "Lasher", "Mystery device", "Grapnel (ranged)", "Grapnel (melee)", "Long lasher"]
    assert "'3+' is not a number" in _entry(ember, "Warden Recruit", "Broken gun").skipped
    assert "inflicts no dice damage" in _entry(ember, "Warden Recruit", "Ritual blade").skipped
    assert ember.report is not None and len(ember.report.skipped()) == 2


def test_names_and_kinds(teams: dict[str, kt.data.Team]) -> None:
    gunner = teams["Ember Wardens"]["Kindler Gunnér"]  # "  Kindler  Gunnér" in the file
    assert gunner.weapon("blaze cannon").name == "Blaze cannon"  # "⌖  Blaze  cannon"
    notes = _entry(teams["Ember Wardens"], "Kindler Gunnér", "Firebrand").notes
    assert notes == ("no ⌖/⚔ glyph: ranged, from its Range rule",)
    assert _entry(teams["Ember Wardens"], "Kindler Gunnér", "Knife & Fork").notes == (
        "no ⌖/⚔ glyph: melee, as a weapon of the same name with one",)
    assert teams["Ember Wardens"].report.notes == (  # type: ignore[union-attr]
        "a second operative named 'Warden Trooper' is called 'Warden Trooper 2'",)


def test_weapon_rules_as_the_engine_models_them(teams: dict[str, kt.data.Team]) -> None:
    staff = teams["Gloam Pact"]["Brånd Seer"].weapon("Gloam staff (focused)")
    assert staff.weapon == kt.Weapon(4, 3, (3, 3), "Devastating 1")
    assert staff.ignored == ('Range 6"', "PSYCHIC") and staff.unknown == ()
    sweeping = teams["Gloam Pact"]["Brånd Seer"].weapon("Gloam staff (sweeping)")
    assert (sweeping.kind, sweeping.weapon.rules) == ("melee", kt.WeaponRules(brutal=True, severe=True))
    assert sweeping.ignored == ("Gloam Hex*",)
    hex_rule = _entry(teams["Gloam Pact"], "Brånd Seer", "Gloam staff (sweeping)").ignored[0]
    assert hex_rule.text == "Invented: the target is cursed."  # the team's Abilities profile of that name
    scorch = _entry(teams["Ember Wardens"], "Warden Sergeant", "Scorch rifle").ignored[0]
    assert scorch.text == "Invented for the tests: the target smoulders."  # the team's rule of that name
    cannon = teams["Ember Wardens"]["Kindler Gunnér"].weapon("Blaze cannon")
    assert (cannon.torrent, cannon.blast) == (2, None)
    assert teams["Ember Wardens"]["Kindler Gunnér"].weapon("Firebrand").blast == 1  # "Blast 1": no inch mark


def test_equipment_is_every_weapon_on_no_operative(teams: dict[str, kt.data.Team]) -> None:
    ember, gloam = teams["Ember Wardens"], teams["Gloam Pact"]
    # a root entry that is no operative, a shared entry nothing links to, the game system's grenade
    assert [w.name for w in ember.equipment] == ["Ember bomb", "Old sabre", "Spark grenade"]
    assert ember.equipment[0].weapon == kt.Weapon(4, 4, (2, 4), "Saturate") and ember.equipment[0].blast == 2
    assert [w.name for w in gloam.equipment] == ["Spark grenade"]


def test_fighters_carry_the_operative_s_wounds(teams: dict[str, kt.data.Team]) -> None:
    captain = teams["Ember Wardens"]["Warden Captain"]
    assert captain.fighter("Ember maul") == kt.Fighter(5, 3, (4, 6), 15, "Shock", "Hardy 5+")  # its abilities too
    assert captain.fighter("ember maul", strategy="parry").strategy == "parry"
    with pytest.raises(InputError, match="is a ranged weapon; Warden Captain's melee weapons: Ember maul"):
        captain.fighter("Flame pistol (standard)")
    with pytest.raises(InputError, match=r"no weapon 'Ember mual'; did you mean: Ember maul\?"):
        captain.fighter("Ember mual")
    with pytest.raises(InputError, match=r"no weapon 'Axe'; known: Ember maul, Flame pistol \(standard\)"):
        captain.weapon("Axe")


def test_lookup_misses_say_what_is_there(teams: dict[str, kt.data.Team]) -> None:
    ember = teams["Ember Wardens"]
    with pytest.raises(InputError, match="Ember Wardens has no operative 'Sergeant'; did you mean: .*Warden Sergeant"):
        ember["Sergeant"]
    assert "warden sergeant" in ember and "Sergeant" not in ember


def test_only_the_teams_asked_for(tmp_path: Path) -> None:
    assert [t.name for t in kt.data.load_catalogues(DATA, teams=["gloam pact"])] == ["Gloam Pact"]
    with pytest.raises(InputError, match=r"team: no team 'Gloom Pact' among the catalogues; did you mean: Gloam Pact\?"):
        kt.data.load_catalogues(DATA, teams=["Gloom Pact"])
    # a folder without the 2021 file and the roster reads the same teams
    for file in (SYSTEM, EMBER, GLOAM):
        shutil.copy(file, tmp_path)
    assert [t.name for t in kt.data.load_catalogues(tmp_path)] == ["Ember Wardens", "Gloam Pact"]


def test_importing_loads_no_xml_until_asked() -> None:
    import subprocess
    import sys

    code = "import sys, mathhammer.killteam; print('mathhammer.killteam.data' in sys.modules, 'defusedxml' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         env={"PYTHONPATH": str(Path(kt.__file__).parents[2])}).stdout
    assert out.split() == ["False", "False"]
