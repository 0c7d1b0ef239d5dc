"""``mathhammer <game> profiles`` lists the profiles every game ships, usable by name."""

from __future__ import annotations

import pytest
from cli_cases import run, run_json

from mathhammer.files.library import builtin_profiles, default_library, profile_kinds


@pytest.mark.parametrize("command, game", [("killteam", "killteam"), ("starcraft", "starcraft"),
                                           ("force-melee", "force_melee")])
def test_profiles_lists_every_shipped_name(capsys, command, game):
    out = run_json(capsys, [command, "profiles"])
    names = {entry["name"] for entry in out["profiles"]}
    library = default_library(game)
    expected = {name for kind in profile_kinds(game) for name in [*builtin_profiles(game, kind), *library.get(kind, {})]}
    assert expected and names == expected


@pytest.mark.parametrize("command", ["killteam", "starcraft", "force-melee"])
def test_profiles_table_fits_80_columns(capsys, command):
    code, out, err = run(capsys, [command, "profiles"])
    assert code == 0, err
    assert max(len(line) for line in out.splitlines()) <= 80 and "…" not in out


def test_a_listed_name_works_as_a_profile(capsys):
    listed = run_json(capsys, ["killteam", "profiles"])["profiles"]
    weapon = next(entry["name"] for entry in listed if entry["kind"] == "weapon")
    assert run_json(capsys, ["killteam", "shoot", "--weapon", weapon])["profiles"]["weapon"] == \
        next(entry["fields"] for entry in listed if entry["name"] == weapon)
