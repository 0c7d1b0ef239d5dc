"""Rosters: the operatives a list fields, with the stats the roster holds (examples/killteam/data/Ember patrol.ros)."""

from __future__ import annotations

import zipfile
from pathlib import Path

from casedata import KILLTEAM_DATA
from mathhammer import killteam as kt

DATA = KILLTEAM_DATA
ROSTER = DATA / "Ember patrol.ros"


def test_a_roster_fields_its_operatives() -> None:
    team = kt.data.load_roster(ROSTER)
    assert (team.name, team.file, team.revision) == ("Ember Wardens", "Ember patrol.ros", 4)
    # number="2": two recruits; the second of one name is "<name> 2"
    assert [op.name for op in team] == ["Warden Captain", "Warden Recruit", "Warden Recruit 2"]
    captain = team["Warden Captain"]
    # its Abilities profile read as the catalogue's is (test_abilities.py)
    assert (captain.operative, captain.apl, captain.move) == (kt.Operative(3, 15, "Hardy 5+"), 3, 6)
    assert [(w.name, w.kind, str(w.weapon)) for w in captain.weapons] == [
        ("Ember maul", "melee", "5A 3+ 4/6 Shock"),
        ("Flame pistol (standard)", "ranged", "4A 3+ 3/5 Piercing 1"),
        ("Flame pistol (overcharge)", "ranged", "4A 3+ 5/6 Lethal 5+, Piercing 1, Hot"),  # values in attributes
    ]
    # the roster holds the save its list chose (the catalogue leaves that modifier undecided)
    assert team["Warden Recruit 2"].operative == kt.Operative(2, 8)
    assert [w.name for w in team["Warden Recruit 2"].weapons] == ["Lasher"]
    assert [(w.name, w.blast) for w in team.equipment] == [("Ember bomb", 2)]


def test_a_zipped_roster_reads_the_same(tmp_path: Path) -> None:
    path = tmp_path / "Ember patrol.rosz"
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("Ember patrol.ros", ROSTER.read_bytes())
    zipped, plain = kt.data.load_roster(path), kt.data.load_roster(ROSTER)
    assert zipped.operatives == plain.operatives and zipped.equipment == plain.equipment
    assert zipped.file == "Ember patrol.rosz" and zipped.sha256 != plain.sha256  # the file's own digest


def test_a_roster_and_the_catalogue_agree_where_the_list_chose_nothing() -> None:
    from_roster = kt.data.load_roster(ROSTER)["Warden Captain"]
    (ember,) = [t for t in kt.data.load_catalogues(DATA) if t.name == "Ember Wardens"]
    assert from_roster == ember["Warden Captain"]
