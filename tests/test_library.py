"""Profile libraries: every example file loads, profiles round-trip through TOML, JSON and datacard notation,
and bad files give errors that name the file, the entry and the field."""

from pathlib import Path

import pytest

from mathhammer.files import library
from mathhammer.errors import ProfileFileError

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE_LIBRARIES = sorted(p for p in (ROOT / "examples").rglob("*") if p.suffix in (".toml", ".json")
                           and "scenario" not in p.name and not p.name.endswith(".import.json"))  # not reports


def test_there_are_example_libraries():
    assert any(p.parent.name == "killteam" for p in EXAMPLE_LIBRARIES)


@pytest.mark.parametrize("path", EXAMPLE_LIBRARIES, ids=lambda p: str(p.relative_to(ROOT)))
def test_example_library_loads_and_round_trips(path, tmp_path):
    game = library.library_game(path)
    loaded = library.load_library(path)
    assert loaded and all(entries for entries in loaded.values())
    for suffix in (".toml", ".json"):
        copy = tmp_path / f"copy{suffix}"
        library.save_library(copy, game, loaded)
        assert library.load_library(copy) == loaded


def test_killteam_card_and_fields_agree():
    from mathhammer import killteam as kt

    by_card = library.profile_from_dict("killteam", "weapon", {"card": "4A 3+ 3/4 Lethal 5+, Piercing 1"})
    by_fields = library.profile_from_dict(
        "killteam", "weapon", {"attacks": 4, "hit": 3, "damage": [3, 4], "rules": "Piercing 1, Lethal 5+"}
    )
    assert by_card == by_fields == kt.Weapon(4, 3, (3, 4), "Lethal 5+, Piercing 1")


def _write(tmp_path, text, name="bad.toml"):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_bad_value_names_file_entry_and_field(tmp_path):
    path = _write(tmp_path, 'game = "killteam"\n[fighter.brute]\nattacks = 13\nhit = 3\n')
    with pytest.raises(ProfileFileError) as error:
        library.load_library(path)
    message = str(error.value)
    assert "bad.toml" in message and "fighter.brute" in message and "attacks" in message and "1..12" in message


def test_unknown_rule_in_file(tmp_path):
    path = _write(tmp_path, 'game = "killteam"\n[weapon.gun]\ncard = "4A 3+ 3/4 Explodes 2"\n')
    with pytest.raises(ProfileFileError, match=r"weapon\.gun.*unknown weapon rule 'Explodes 2'"):
        library.load_library(path)


def test_unknown_field_missing_field_and_bad_syntax(tmp_path):
    with pytest.raises(ProfileFileError, match=r"operative\.x: colour: unknown field"):
        library.load_library(_write(tmp_path, 'game = "killteam"\n[operative.x]\nsave = 3\ncolour = "red"\n'))
    with pytest.raises(ProfileFileError, match=r"operative\.x: .*save"):
        library.load_library(_write(tmp_path, 'game = "killteam"\n[operative.x]\nwounds = 3\n'))
    with pytest.raises(ProfileFileError, match="not valid TOML"):
        library.load_library(_write(tmp_path, "game = \n"))
    with pytest.raises(ProfileFileError, match="not valid JSON"):
        library.load_library(_write(tmp_path, "{", name="bad.json"))
    with pytest.raises(ProfileFileError, match="unknown game"):
        library.load_library(_write(tmp_path, 'game = "chess"\n'))
    with pytest.raises(ProfileFileError, match=r"unknown table \[unit\]"):
        library.load_library(_write(tmp_path, 'game = "killteam"\n[unit.x]\nsave = 3\n'))
    with pytest.raises(ProfileFileError, match="no such file"):
        library.load_library(tmp_path / "missing.toml")
