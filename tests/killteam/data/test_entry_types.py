"""Every Python entry point of the files a user is handed and the files the package writes (the
importer, team libraries, matchups, the meta) answers a value of the wrong type with an
InputTypeError naming the argument, never a bare TypeError or AttributeError."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from casedata import KILLTEAM_DATA, KILLTEAM_TEAMS
from mathhammer import killteam as kt
from mathhammer.errors import InputTypeError
from mathhammer.files import teams as team_files
from mathhammer.killteam import meta as meta_module

DATA = KILLTEAM_DATA
LIBRARIES = KILLTEAM_TEAMS
TEAM = kt.data.load_team(LIBRARIES / "Gloam Pact.toml")
OPERATIVE = next(op for op in TEAM if any(w.kind == "melee" for w in op.weapons))
MELEE = next(w for w in OPERATIVE.weapons if w.kind == "melee")
APPLIED = kt.data.Applied("Iron Will", "abilities", "Hardy 5+")
SWITCH = kt.data.Switch("Zeal", (OPERATIVE.name,), "abilities", "Hardy 5+", "once per battle")
SWITCHED = kt.data.Team("T", "t.cat", 1, "0", TEAM.operatives, switches=(SWITCH,))

# name -> (callable, valid keyword arguments: each is replaced by values of the wrong type in turn)
CALLS: dict[str, tuple[Callable[..., Any], dict[str, Any]]] = {
    "load_catalogues": (kt.data.load_catalogues, {"path": DATA, "teams": ["Gloam Pact"]}),
    "read_catalogues": (kt.data.read_catalogues, {"path": [DATA], "teams": "Gloam Pact"}),
    "load_roster": (kt.data.load_roster, {"path": DATA / "Ember patrol.ros"}),
    "load_team": (kt.data.load_team, {"path": LIBRARIES / "Gloam Pact.toml"}),
    "folder_contents": (kt.data.folder_contents, {"path": DATA}),
    "translate": (kt.data.translate, {"text": "Lethal 5+, Poison*", "team_rules": {"poison": "text"}}),
    "Team": (kt.data.Team, {"name": "T", "file": "t.cat", "revision": 1, "sha256": "0" * 64,
                            "operatives": TEAM.operatives, "equipment": (), "report": None, "switches": (SWITCH,)}),
    "TeamOperative": (kt.data.TeamOperative, {"name": "op", "operative": kt.Operative(3, 8), "apl": 2, "move": 6,
                                              "weapons": OPERATIVE.weapons, "applied": (APPLIED,), "variant_of": "x",
                                              "option": "shield"}),
    "TeamWeapon": (kt.data.TeamWeapon, {"name": "gun", "kind": "ranged", "weapon": kt.Weapon(4, 3), "wr": "",
                                        "ignored": (), "unknown": (), "blast": None, "torrent": 2,
                                        "abilities": "Storm Shield", "applied": (APPLIED,)}),
    "TeamWeapon.read": (kt.data.TeamWeapon.read, {"name": "gun", "kind": "ranged", "weapon": kt.Weapon(4, 3),
                                                  "wr": "Piercing 1", "abilities": None, "applied": ()}),
    "Applied": (kt.data.Applied, {"source": "Iron Will", "what": "abilities", "notation": "Hardy 5+"}),
    "Switch": (kt.data.Switch, {"name": "Zeal", "applies_to": ["op/gun"], "what": "stats", "notation": "Dmg +1",
                                "condition": "once per battle", "source": "Zeal"}),
    "Team.with_switches": (TEAM.with_switches, {"names": []}),
    "Team.switch": (lambda name: SWITCHED.switch(name), {"name": "Zeal"}),
    "Team[name]": (lambda name: TEAM[name], {"name": OPERATIVE.name}),
    "TeamOperative.weapon": (OPERATIVE.weapon, {"name": MELEE.name}),
    "TeamOperative.fighter": (OPERATIVE.fighter, {"weapon_name": MELEE.name}),
    "save_team": (team_files.save_team, {"team": TEAM, "folder": None, "fmt": "json", "stem": "x"}),
    "save_teams": (team_files.save_teams, {"teams": [TEAM], "folder": None, "fmt": "toml"}),
    "file_stem": (team_files.file_stem, {"name": "Gloam Pact"}),
    "meta": (meta_module.meta, {"teams": [LIBRARIES / "Gloam Pact.toml"], "out": None, "resume": False,
                                "executor": None, "chunk": 4, "seed": 0, "progress": None, "cover": [0],
                                "fight": False}),
    "team_files": (meta_module.team_files, {"folder": LIBRARIES}),
    "meta_pairings": (meta_module.meta_pairings, {"count": 2}),
    "matchup": (kt.matchup, {"team_a": TEAM, "team_b": TEAM, "shoot": True, "fight": False, "cover": [0],
                             "obscured": False, "first": ["a"], "strategies": [("strike", "strike")],
                             "method": "exact", "seed": 1, "executor": None, "progress": None, "switches": []}),
    "volley": (kt.volley, {"weapon": kt.Weapon(4, 3), "targets": [kt.Operative(3, 8)], "cover": 0,
                           "obscured": False}),
    # one pair of the list: its field is strategies[0]
    "matchup strategies": (lambda strategies: kt.matchup(TEAM, TEAM, fight=False, strategies=[strategies]),
                           {"strategies": ("strike", "parry")}),
}
class _NoRepr:
    """A value whose repr() and str() raise: the error must still name the argument."""

    def __repr__(self) -> str:
        raise RuntimeError("no repr")

    __str__ = __repr__


#: Values no argument above takes.
WRONG = (object(), 1.5j, b"path", {1: 2}.keys(), _NoRepr())


@pytest.mark.parametrize("name", list(CALLS))
def test_a_wrong_type_names_the_argument(name: str, tmp_path: Path) -> None:
    function, valid = CALLS[name]
    if "folder" in valid and valid["folder"] is None:
        valid = {**valid, "folder": tmp_path}
    function(**valid)  # the starting point is valid: a failure below is the wrong value's
    for argument in valid:
        for wrong in WRONG:
            with pytest.raises(InputTypeError) as caught:
                function(**{**valid, argument: wrong})
            field = caught.value.field
            assert field == argument or field.startswith(f"{argument}["), (argument, wrong, str(caught.value))
