"""What an import costs is bounded, whatever the files (docs/data.md, "Untrusted files"): links that
fan out fail in one line after a bounded walk, deduplication and renaming are linear in the profiles,
nesting is refused past its depth before it is recursed into, and one import reads a bounded number
of bytes in all. A re-import that fails part-way leaves the libraries it would have replaced whole,
and two teams never share a file."""

from __future__ import annotations

import dataclasses
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import mathhammer
from casedata import KILLTEAM_DATA
from mathhammer import killteam as kt
from mathhammer.cli import main
from mathhammer.errors import InputError, InputTypeError, ProfileFileError
from mathhammer.killteam.data import load, walk
from mathhammer.killteam.data.team import TeamWeapon, renamed

sys.path.insert(0, str(Path(__file__).parent))
import crafted  # noqa: E402

DATA = KILLTEAM_DATA


@pytest.fixture()
def counted_visits(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """How many entries the walks visit (each visit a step)."""
    return crafted.count_visits(monkeypatch)


def test_links_that_fan_out_fail_after_a_bounded_walk(tmp_path: Path, counted_visits: list[int]) -> None:
    # 2**40 chains lead to the one gun: without a bound, longer than the universe has existed
    crafted.write_catalogue(tmp_path, crafted.fan_out(40))
    with pytest.raises(ProfileFileError) as caught:
        kt.data.load_catalogues(tmp_path)
    message = str(caught.value)
    assert "Crafted Team.cat" in message and f"more than {walk.MAX_STEPS} steps" in message and "\n" not in message
    assert len(message) < 400 and counted_visits[0] <= walk.MAX_STEPS


def test_links_that_fan_out_a_little_still_import(tmp_path: Path) -> None:
    crafted.write_catalogue(tmp_path, crafted.fan_out(4))  # 16 chains to one gun: one weapon
    (team,) = kt.data.load_catalogues(tmp_path)
    assert [w.name for w in team["Crafted"].weapons] == ["Gun"]


def test_the_walks_of_one_import_share_a_bound(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(walk, "MAX_IMPORT_STEPS", 40)  # each catalogue alone is well below it
    crafted.write_catalogue(tmp_path, crafted.fan_out(2))
    for k in range(8):
        (tmp_path / f"copy {k}.cat").write_text(crafted.catalogue(crafted.fan_out(2), f"Copy {k}", f"copy-{k}"))
    with pytest.raises(ProfileFileError, match="more than 40 steps in all; import fewer teams at once"):
        kt.data.load_catalogues(tmp_path)


def test_deduplication_is_linear_in_the_profiles(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    compared = [0]
    equal = TeamWeapon.__eq__

    def counting(self: TeamWeapon, other: object) -> bool:
        compared[0] += 1
        return equal(self, other)

    monkeypatch.setattr(TeamWeapon, "__eq__", counting)
    crafted.write_catalogue(tmp_path, crafted.many_weapons(3000))
    (team,) = kt.data.load_catalogues(tmp_path)
    assert len(team["Crafted"].weapons) == 3000
    assert compared[0] <= 3000  # by hash; a search of the list compares each with every one before it (4.5 million)


@dataclasses.dataclass(frozen=True)
class _Named:
    name: str


class _CountedName(str):
    """A name that counts how often it is read as text."""

    reads = 0

    def lower(self) -> str:
        _CountedName.reads += 1
        return str.lower(self)

    def __format__(self, spec: str) -> str:
        _CountedName.reads += 1
        return str.__format__(self, spec)


def test_renaming_is_linear_in_the_names() -> None:
    _CountedName.reads = 0
    notes: list[str] = []
    items = renamed([_Named(_CountedName("Twin")) for _ in range(2000)], notes, "operative")
    assert [i.name for i in items[:3]] == ["Twin", "Twin 2", "Twin 3"] and items[-1].name == "Twin 2000"
    assert len({i.name for i in items}) == 2000 and len(notes) == 1999
    assert _CountedName.reads <= 4 * 2000  # counting up from 2 for each name reads it two million times


def test_many_operatives_of_one_name(tmp_path: Path) -> None:
    crafted.write_catalogue(tmp_path, crafted.same_names(3000))
    (team,) = kt.data.load_catalogues(tmp_path)
    names = [op.name for op in team.operatives]
    assert len(set(names)) == 3000 and names[:2] == ["Twin", "Twin 2"] and names[-1] == "Twin 3000"


@pytest.mark.parametrize(("make", "what"), [(crafted.nested_modifier_groups, "modifierGroups"),
                                            (crafted.nested_condition_groups, "conditionGroups")])
def test_groups_nested_past_the_bound(tmp_path: Path, make: Any, what: str) -> None:
    crafted.write_catalogue(tmp_path, make(1000))
    with pytest.raises(ProfileFileError) as caught:
        kt.data.load_catalogues(tmp_path)
    assert str(caught.value).endswith(f"Crafted Team.cat: profile[@id='gun']: {what}: nested more than 64 deep")
    crafted.write_catalogue(tmp_path, make(60))  # as deep as it may be: read, the modifier applied
    (team,) = kt.data.load_catalogues(tmp_path)
    assert team["Crafted"].weapon("Gun").weapon.attacks == 5


def test_forces_nested_past_the_bound(tmp_path: Path) -> None:
    path = tmp_path / "list.ros"
    path.write_text(crafted.nested_forces(1000), encoding="utf-8")
    with pytest.raises(ProfileFileError, match="list.ros: roster/forces: forces nested more than 64 deep$"):
        kt.data.load_roster(path)
    path.write_text(crafted.nested_forces(60), encoding="utf-8")
    assert [op.name for op in kt.data.load_roster(path)] == ["Crafted"]


def test_the_bytes_of_one_import_are_bounded_in_all(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    crafted.write_catalogue(tmp_path, crafted.many_weapons(20))
    (tmp_path / "second.cat").write_text(crafted.catalogue(crafted.many_weapons(20), "Second", "second"))
    total = sum(p.stat().st_size for p in tmp_path.iterdir())
    assert len(kt.data.load_catalogues(tmp_path)) == 2
    monkeypatch.setattr(load, "MAX_IMPORT_BYTES", total - 1)  # each file far below its own bound

    def never(path: Path) -> Any:
        raise AssertionError(f"{path} read")

    monkeypatch.setattr(load, "read_xml", never)  # refused from the files' sizes, before any is read
    with pytest.raises(InputError, match=f"^path: the catalogues hold {total} bytes in all; at most {total - 1}"):
        kt.data.load_catalogues(tmp_path)


def test_a_reimport_that_fails_part_way_keeps_the_libraries(tmp_path: Path) -> None:
    out = tmp_path / "teams"
    assert main(["killteam", "import", str(DATA), "--out", str(out), "--format", "json"]) == 0
    before = {p.name: p.read_bytes() for p in out.iterdir()}
    assert max(len(data) for data in before.values()) > 2000
    # a disk that takes no file past 2,000 bytes (the limit of the process: EFBIG where a full disk says ENOSPC)
    code = ("import resource, signal, sys; signal.signal(signal.SIGXFSZ, signal.SIG_IGN); "
            "resource.setrlimit(resource.RLIMIT_FSIZE, (2000, 2000)); from mathhammer.cli import main; "
            "sys.exit(main(sys.argv[1:]))")
    env = dict(os.environ, PYTHONPATH=str(Path(mathhammer.__file__).resolve().parents[1]), PYTHONDONTWRITEBYTECODE="1")
    done = subprocess.run([sys.executable, "-c", code, "killteam", "import", str(DATA), "--out", str(out),
                           "--format", "json"], capture_output=True, text=True, env=env, timeout=120)
    assert done.returncode == 2 and done.stderr.startswith("error: --out: cannot write"), done.stderr
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr
    assert {p.name: p.read_bytes() for p in out.iterdir()} == before  # every library whole, nothing left over
    for name in ("Ember Wardens.json", "Gloam Pact.json"):
        kt.data.load_team(out / name)


def test_two_teams_never_share_a_file(tmp_path: Path) -> None:
    data = tmp_path / "data"
    crafted.write_catalogue(data, crafted.many_weapons(2), name="Twin")
    (data / "Twin.import.cat").write_text(crafted.catalogue(crafted.many_weapons(3), "Twin.import", "twin-import"))
    out = tmp_path / "teams"
    assert main(["killteam", "import", str(data), "--out", str(out), "--format", "json"]) == 0
    files = sorted(p.name for p in out.iterdir())
    assert files == ["Twin.import.json", "Twin.json", "Twin_import.import.json", "Twin_import.json"]
    assert kt.data.load_team(out / "Twin.json").name == "Twin"
    assert kt.data.load_team(out / "Twin_import.json").name == "Twin.import"
    assert json.loads((out / "Twin.import.json").read_text())["team"] == "Twin"
    assert json.loads((out / "Twin_import.import.json").read_text())["team"] == "Twin.import"


def test_wrong_types_name_the_argument(tmp_path: Path) -> None:
    with pytest.raises(InputTypeError) as caught:
        kt.data.load_catalogues(DATA, teams=5)  # type: ignore[arg-type]
    assert caught.value.field == "teams"
    with pytest.raises(InputTypeError) as caught:
        kt.data.load_catalogues(DATA, teams=["Gloam Pact", 5])  # type: ignore[list-item]
    assert caught.value.field == "teams[1]"


def test_ability_texts_are_read_within_the_import_s_bound(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # reading a clause costs a step per character and per operative and weapon: long texts on an
    # operative of many weapons spend the import's bound (made small here) and fail in one line
    monkeypatch.setattr(walk, "MAX_IMPORT_STEPS", 100_000)
    text = "Whenever this operative is shooting, " + "its weapons have the Severe weapon rule, " * 13
    abilities = "".join(f'<profile name="A{k}" typeName="Abilities" id="a{k}"><characteristics>'
                        f'<characteristic name="Ability">{text}{k}</characteristic></characteristics></profile>'
                        for k in range(200))
    guns = "".join(crafted.weapon(f"w{k}", f"\u2316 Gun {k}") for k in range(50))
    crafted.write_catalogue(tmp_path, f"<selectionEntries>{crafted.operative('op', profiles=guns + abilities)}"
                                      "</selectionEntries>")
    with pytest.raises(ProfileFileError, match="Crafted Team.cat: reading the ability texts of one import takes "
                                               "more than 100000 steps in all"):
        kt.data.load_catalogues(tmp_path)
    assert kt.data.load_catalogues(tmp_path, teams=[]) == []  # choosing no team reads no text
