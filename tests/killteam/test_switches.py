"""Named switches of a team library (killteam/switches.py): options added to profiles, the
[team.switch] tables a library declares, turned on by name in Python, scenario files and kt.matchup.
Every expected profile is written out by hand."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from mathhammer import killteam as kt
from mathhammer.core.game import SWITCHES, merge_library
from mathhammer.errors import InputError, InputTypeError, ProfileFileError
from mathhammer.files import scenario
from mathhammer.killteam.switches import Switch, with_option

W = kt.Weapon


@pytest.mark.parametrize(("before", "what", "notation", "after"), [
    (W(4, 3, (3, 4)), "rules", "Severe", W(4, 3, (3, 4), "Severe")),
    (W(4, 3, (3, 4), "Severe"), "rules", "Severe", W(4, 3, (3, 4), "Severe")),  # kept, not given twice
    (W(4, 3, (3, 4), "Lethal 5+"), "rules", "Lethal 4+", W(4, 3, (3, 4), "Lethal 4+")),  # the better one
    (W(4, 3, (3, 4), "Lethal 4+"), "rules", "Lethal 5+", W(4, 3, (3, 4), "Lethal 4+")),
    (W(4, 3, (3, 4), "Piercing 1"), "rules", "Piercing 2", W(4, 3, (3, 4), "Piercing 2")),
    (W(4, 3, (3, 4), "Balanced"), "rules", "Ceaseless", W(4, 3, (3, 4), "Ceaseless Balanced")),  # they combine
    (W(4, 3, (3, 4), "Balanced"), "rules", "Relentless", W(4, 3, (3, 4), "Relentless")),  # the widest
    (W(4, 3, (3, 4)), "stats", "Dmg +1", W(4, 3, (4, 5))),
    (W(4, 3, (3, 4)), "stats", "Atk +1", W(5, 3, (3, 4))),
    (W(4, 3, (3, 4)), "stats", "Hit +1", W(4, 2, (3, 4))),
    (W(4, 2, (3, 4)), "stats", "Hit +1", W(4, 2, (3, 4))),  # never better than 2+
    (W(4, 3, (3, 4)), "abilities", "Storm Shield", W(4, 3, (3, 4))),  # a weapon has no abilities
    (kt.Operative(4, 8), "abilities", "Hardy 5+", kt.Operative(4, 8, "Hardy 5+")),
    (kt.Operative(4, 8, "Feel No Pain 5+"), "abilities", "Feel No Pain 6+", kt.Operative(4, 8, "Feel No Pain 5+")),
    (kt.Operative(4, 8), "stats", "Save +1", kt.Operative(3, 8)),
    (kt.Operative(2, 8), "stats", "Save +1", kt.Operative(2, 8)),
    (kt.Operative(4, 8), "rules", "Severe", kt.Operative(4, 8)),  # an operative has no weapon rules
    (kt.Fighter(4, 3, (3, 4), 10, "Shock"), "abilities", "Storm Shield",
     kt.Fighter(4, 3, (3, 4), 10, "Shock", "Storm Shield")),
    (kt.Fighter(4, 3, (3, 4), 10, "Shock"), "rules", "Brutal", kt.Fighter(4, 3, (3, 4), 10, "Brutal, Shock")),
])
def test_an_option_added_to_a_profile(before: Any, what: str, notation: str, after: Any) -> None:
    assert with_option(before, what, notation) == after


def test_options_the_engine_refuses() -> None:
    with pytest.raises(InputError, match="notation: Double Balanced and Ceaseless do not combine"):
        with_option(W(4, 3, (3, 4), "Double Balanced"), "rules", "Ceaseless")
    with pytest.raises(InputError, match="notation: Atk \\+1 on 12 attacks: at most 12"):
        with_option(W(12, 3, (3, 4)), "stats", "Atk +1")
    with pytest.raises(InputError, match="notation: 'Crit \\+1': expected one of Atk \\+1, Hit \\+1, Dmg \\+1, Save \\+1"):
        with_option(W(4, 3, (3, 4)), "stats", "Crit +1")
    with pytest.raises(InputError, match="what: 'spells'; expected one of abilities, rules, stats"):
        with_option(W(4, 3, (3, 4)), "spells", "Severe")
    with pytest.raises(InputError, match="notation: unknown weapon rule 'Sever'"):
        with_option(W(4, 3, (3, 4)), "rules", "Sever")


def test_a_switch_table_and_its_errors() -> None:
    switch = Switch("Cinder Oath", ("A/Gun",), "rules", "Severe", "once per battle", "Cinder Oath")
    assert Switch.from_table("Cinder Oath", switch.to_table()) == switch
    with pytest.raises(InputError, match="switch.X: unknown key 'colour'"):
        Switch.from_table("X", {"colour": "red"})
    with pytest.raises(InputError, match="switch.X.what: 'spells'"):
        Switch.from_table("X", {"applies_to": ["A"], "what": "spells", "notation": "Severe"})
    with pytest.raises(InputTypeError, match="switch.X.applies_to: expected a list of library entries"):
        Switch.from_table("X", {"applies_to": "A", "what": "rules", "notation": "Severe"})


def _document(switches: dict[str, Any]) -> dict[str, Any]:
    """A small team library: an operative with a gun and a knife, and its switches."""
    return {
        "game": "killteam",
        "team": {"name": "Test", "source": "t.cat", "sha256": "0", "equipment": [],
                 "operative": {"Op": {"weapons": ["Op/Gun", "Op/Knife"]}},
                 "weapon": {"Op/Gun": {"name": "Gun", "kind": "ranged", "wr": ""},
                            "Op/Knife": {"name": "Knife", "kind": "melee", "wr": ""}},
                 "switch": switches},
        "operative": {"Op": {"save": 4, "wounds": 8}},
        "weapon": {"Op/Gun": {"card": "4A 3+ 3/4"}},
        "fighter": {"Op/Knife": {"attacks": 3, "hit": 4, "damage": [2, 3], "wounds": 8}},
    }


def test_a_library_turns_its_switches_on_by_name() -> None:
    doc = _document({"Ward": {"applies_to": ["Op"], "what": "abilities", "notation": "Hardy 5+"},
                     "Zeal": {"applies_to": ["Op/Gun", "Op/Knife"], "what": "stats", "notation": "Dmg +1"},
                     "Guard": {"applies_to": ["Op"], "what": "stats", "notation": "Save +1"}})
    library = kt.GAME.parse_library(doc, "t.toml")
    assert sorted(library[SWITCHES]) == ["Guard", "Ward", "Zeal"]
    on = kt.GAME.with_switches(library, ["ward", "Zeal", "guard"])  # any case
    assert on["operative"]["Op"] == kt.Operative(3, 8, "Hardy 5+")
    assert on["weapon"]["Op/Gun"] == W(4, 3, (4, 5))
    # an operative's abilities reach its fighters too
    assert on["fighter"]["Op/Knife"] == kt.Fighter(3, 4, (3, 4), 8, abilities="Hardy 5+")
    assert library["operative"]["Op"] == kt.Operative(4, 8)  # the library itself is not changed
    assert kt.GAME.with_switches(library, None) is library
    with pytest.raises(InputError, match=r"with: no switch 'Wrd' \(did you mean 'Ward'\?\); the libraries' switches: "
                                         r"Ward, Zeal, Guard"):
        kt.GAME.with_switches(library, ["Wrd"])
    with pytest.raises(InputTypeError, match="with: expected a list of switch names, got 'Ward'"):
        kt.GAME.with_switches(library, "Ward")
    with pytest.raises(InputError, match="--with: no switch 'Ward': the libraries declare none"):
        kt.GAME.with_switches(kt.GAME.default_library(), ["Ward"], "--with")
    # writing the library back keeps its [team] table, which declares the switches
    assert SWITCHES not in kt.GAME.library_document(library)


def test_a_switch_naming_no_entry_of_its_library_is_an_error() -> None:
    doc = _document({"Ward": {"applies_to": ["Nobody"], "what": "abilities", "notation": "Hardy 5+"}})
    with pytest.raises(ProfileFileError, match="t.toml: team.switch.Ward.applies_to: 'Nobody' is no operative, weapon"):
        kt.GAME.parse_library(doc, "t.toml")
    doc = _document({"Ward": {"applies_to": ["Op"], "what": "abilities", "notation": "Hardy 9+"}})
    with pytest.raises(ProfileFileError, match="t.toml: team.switch.Ward.notation.hardy: 9 is out of range"):
        kt.GAME.parse_library(doc, "t.toml")


def test_libraries_merged_add_up_the_switches_of_one_name() -> None:
    merged: dict[str, dict[str, Any]] = {}
    merge_library(merged, {"operative": {"A": kt.Operative(4, 8)}, SWITCHES: {"Hardy": (("operative", "A", "x", "y"),)}})
    merge_library(merged, {"operative": {"B": kt.Operative(3, 9)}, SWITCHES: {"Hardy": (("operative", "B", "x", "y"),)}})
    assert merged[SWITCHES]["Hardy"] == (("operative", "A", "x", "y"), ("operative", "B", "x", "y"))
    assert sorted(merged["operative"]) == ["A", "B"]


def test_a_scenario_entry_turns_switches_on(tmp_path: Path) -> None:
    from mathhammer.files.library import save_library

    library = kt.GAME.parse_library(_document({"Zeal": {"applies_to": ["Op/Gun"], "what": "stats",
                                                        "notation": "Dmg +1"}}), "t")
    save_library(tmp_path / "team.toml", "killteam", library)
    (tmp_path / "s.toml").write_text(
        'profiles = ["team.toml"]\n'
        '[[killteam.shoot]]\nweapon = "Op/Gun"\ntarget = "Op"\nwith = ["Zeal"]\n'
        '[[killteam.shoot]]\nweapon = "Op/Gun"\ntarget = "Op"\n', encoding="utf-8")
    on, off = scenario.run_scenario_file(tmp_path / "s.toml")
    # (library profiles carry their names, which results repeat)
    assert on.result == kt.shoot(W(4, 3, (4, 5), name="Op/Gun"), kt.Operative(4, 8, name="Op"))
    assert off.result == kt.shoot(W(4, 3, (3, 4), name="Op/Gun"), kt.Operative(4, 8, name="Op"))
    assert on.inputs["with"] == ["Zeal"]
    (tmp_path / "bad.toml").write_text('profiles = ["team.toml"]\n[[killteam.shoot]]\nweapon = "Op/Gun"\n'
                                       'target = "Op"\nwith = ["Zest"]\n', encoding="utf-8")
    with pytest.raises(ProfileFileError, match=r"killteam.shoot\[0\] .*: with: no switch 'Zest'"):
        scenario.run_scenario_file(tmp_path / "bad.toml")


def test_matchup_turns_the_switches_of_either_team_on() -> None:
    gun = kt.data.TeamWeapon("Gun", "ranged", W(2, 3, (3, 4)))
    a = kt.data.Team("A", "a.cat", 1, "0", (kt.data.TeamOperative("Shooter", kt.Operative(4, 8), 2, 6, (gun,)),),
                     switches=(Switch("Zeal", ("Shooter/Gun",), "stats", "Dmg +1", "once per battle"),))
    b = kt.data.Team("B", "b.cat", 1, "0", (kt.data.TeamOperative("Target", kt.Operative(4, 8), 2, 6),),
                     switches=(Switch("Ward", ("Target",), "abilities", "Hardy 4+", "within 3\""),))
    plain = kt.matchup(a, b, fight=False, cover=0)
    on = kt.matchup(a, b, fight=False, cover=0, switches=("zeal", "Ward"))
    assert plain.shots[0].mean_damage == kt.shoot(W(2, 3, (3, 4)), kt.Operative(4, 8)).damage.mean
    assert on.shots[0].mean_damage == kt.shoot(W(2, 3, (4, 5)), kt.Operative(4, 8, "Hardy 4+")).damage.mean
    with pytest.raises(InputError, match=r"switches\[0\]: no switch 'Zeel' in A or B \(did you mean 'Zeal'\?\); "
                                         r"switches: Ward, Zeal"):
        kt.matchup(a, b, switches=("Zeel",))
    with pytest.raises(InputTypeError, match="switches: expected a list of switch names"):
        kt.matchup(a, b, switches="Zeal")  # type: ignore[arg-type]
    assert a.with_switches(["Zeal"])["Shooter"].weapon("Gun").weapon == W(2, 3, (4, 5))
    assert a.switch("zeal").notation == "Dmg +1"
    with pytest.raises(InputError, match="name: no switch 'Nope' in A; switches: Zeal"):
        a.switch("Nope")
