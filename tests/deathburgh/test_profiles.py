"""Profiles: notation both ways, the example warbands as files users can copy, save / load."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from mathhammer import deathburgh as db
from mathhammer.errors import InputError

EXAMPLES_DIR = Path(__file__).resolve().parents[2] / "examples" / "deathburgh"

# docs/rules/deathburgh.md §9, typed in again: name -> (A, A+, D, D+, W, role).
SPEC_TABLE = {
    "Old Fellas Melee Warrior Follower": (4, 4, 4, 4, 3, "melee"),
    "Old Fellas Ranged Warrior Follower": (4, 4, 4, 6, 3, "ranged"),
    "Old Fellas Brute": (3, 4, 5, 3, 5, "melee"),
    "Old Fellas Leader": (5, 3, 5, 4, 4, "melee"),
    "Bandit Melee Follower": (4, 4, 4, 5, 3, "melee"),
    "Bandit Ranged Follower": (4, 4, 4, 6, 3, "ranged"),
    "Bandit Brute": (3, 3, 6, 4, 5, "melee"),
    "Bandit Specialist": (6, 3, 4, 5, 2, "melee"),
    "Bandit Leader": (5, 3, 5, 4, 4, "melee"),
    "Bandit Erudite": (3, 3, 3, 4, 2, "melee"),
}


def _fields(mini: db.Miniature) -> tuple[object, ...]:
    return (mini.A, mini.A_plus, mini.D, mini.D_plus, mini.W, mini.role)


def test_builtin_examples_are_the_spec_table() -> None:
    assert {name: _fields(m) for name, m in db.EXAMPLES.items()} == SPEC_TABLE
    assert all(m.name == name for name, m in db.EXAMPLES.items())
    assert db.example("bandit brute") is db.EXAMPLES["Bandit Brute"]


def test_example_files_load_as_the_spec_table() -> None:
    loaded = {}
    for path in ("old_fellas.toml", "bandits.toml"):
        loaded.update(db.load_profiles(EXAMPLES_DIR / path))
    assert {name: _fields(m) for name, m in loaded.items()} == SPEC_TABLE
    assert loaded == db.EXAMPLES


@pytest.mark.parametrize(
    "text, expected",
    [
        ("A 4/4+ D 5/3+ W 5", (4, 4, 5, 3, 5)),
        ("a 4/4 d 5/3 w 5", (4, 4, 5, 3, 5)),
        ("A 12/2+, D 0/6+, W 20", (12, 2, 0, 6, 20)),
        ("P 4 A +4 V 4 D +4 W 3", (4, 4, 4, 4, 3)),
        ("P 6 A +3 V 4 D +5 W 2", (6, 3, 4, 5, 2)),
        ("P 3 A 4+ V 5 D 3+ W 5", (3, 4, 5, 3, 5)),
    ],
)
def test_parse_both_notations(text: str, expected: tuple[int, ...]) -> None:
    mini = db.Miniature.parse(text, role="ranged", name="x")
    assert _fields(mini) == (*expected, "ranged") and mini.name == "x"
    assert db.Miniature.parse(mini.notation, role="ranged", name="x") == mini


def test_notation_prints_the_site_style() -> None:
    assert db.example("Old Fellas Brute").notation == "A 3/4+ D 5/3+ W 5"
    assert str(db.example("Bandit Erudite")) == "Bandit Erudite: A 3/3+ D 3/4+ W 2 (melee)"


def test_modes_pick_the_pool() -> None:
    brute = db.example("Old Fellas Brute")
    assert brute.dice("aggressive") == (3, 4) and brute.dice("defensive") == (5, 3)


def test_target_written_with_a_plus() -> None:
    assert db.Miniature(A=4, A_plus="3+", D=4, D_plus="5", W=3).A_plus == 3


@pytest.mark.parametrize("suffix", [".toml", ".json"])
def test_save_and_load_round_trip(tmp_path: Path, suffix: str) -> None:
    path = tmp_path / f"warband{suffix}"
    db.save_profiles(path, db.EXAMPLES)
    assert db.load_profiles(path) == db.EXAMPLES


def test_profile_file_errors(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"game": "deathburgh", "miniature": {"x": {"A": 4, "A_plus": 9, "D": 4, "D_plus": 4, "W": 3}}}))
    with pytest.raises(InputError, match=r"bad\.json: miniature\.x: A_plus: 9 is out of range"):
        db.load_profiles(bad)
    bad.write_text(json.dumps({"game": "deathburgh", "miniature": {"x": {"card": "A 4/4+"}}}))
    with pytest.raises(InputError, match=r"miniature\.x: profile: cannot read"):
        db.load_profiles(bad)
    bad.write_text(json.dumps({"game": "killteam", "operative": {"x": {"save": 3, "wounds": 8}}}))
    with pytest.raises(InputError, match="game: this is a killteam library"):
        db.load_profiles(bad)
    bad.write_text(json.dumps({"game": "deathburgh", "miniatures": {}}))
    with pytest.raises(InputError, match=r"unknown table \[miniatures\]"):
        db.load_profiles(bad)
    bad.write_text("{not json")
    with pytest.raises(InputError, match="^path:"):
        db.load_profiles(bad)
    with pytest.raises(InputError, match="^path:"):
        db.load_profiles(tmp_path / "missing.toml")
    with pytest.raises(InputError, match="^path:"):
        db.load_profiles(tmp_path / "warband.yaml")


def test_profile_libraries_fill_names_from_tables(tmp_path: Path) -> None:
    path = tmp_path / "mine.toml"
    path.write_text('game = "deathburgh"\n[miniature.boss]\ncard = "A 6/2+ D 6/3+ W 6"\nrole = "ranged"\n'
                    '[miniature.grunt]\nname = "Grunt #1"\nA = 2\nA_plus = 5\nD = 2\nD_plus = 5\nW = 1\n')
    loaded = db.load_profiles(path)
    assert loaded == {"boss": db.Miniature(6, 2, 6, 3, 6, role="ranged", name="boss"),
                      "grunt": db.Miniature(2, 5, 2, 5, 1, name="Grunt #1")}
    from mathhammer.files import library

    assert library.load_library(path)["miniature"]["boss"].notation == "A 6/2+ D 6/3+ W 6"


def test_a_miniature_may_be_named_by_example_or_notation() -> None:
    by_name = db.combat("Old Fellas Leader", "Bandit Brute")
    by_object = db.combat(db.example("Old Fellas Leader"), db.example("Bandit Brute"))
    assert by_name == by_object
    by_text = db.combat({"mini": "A 5/3+ D 5/4+ W 4", "charge": True}, db.Side("Bandit Brute", "defensive"), "dodge")
    assert by_text == db.combat(db.Side(db.Miniature(5, 3, 5, 4, 4), charge=True),
                                db.Side(db.example("Bandit Brute"), "defensive"), "dodge")
    assert db.Miniature.from_dict({"example": "Bandit Leader", "name": "Boss"}).notation == "A 5/3+ D 5/4+ W 4"


def test_side_round_trips_through_a_dict() -> None:
    s = db.Side(db.example("Bandit Leader"), "defensive", support=2, reroll="one_fail", wounds=3)
    assert db.Side.from_dict(s.to_dict()) == s
    assert s.current_wounds == 3 and db.Side(db.example("Bandit Leader")).current_wounds == 4
    assert s.replace(mode="aggressive").mode == "aggressive"
