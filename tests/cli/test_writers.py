"""Every command that writes a file (killteam meta --out, killteam matchup --output, sweep --output,
killteam import --out), docs/files.md: its output is checked before any work, written whole (a
failure at any write, rename or removal leaves the old file or the complete new one, and no
temporary file), and held by a lock naming its holder, so that a second run on it refuses in one
line. The meta resumes, after a failure at any of those points, to the bytes of an uninterrupted run."""

from __future__ import annotations

import shutil
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from cli_cases import assert_one_line_error, run
from faults import every_fault, leftovers

from casedata import KILLTEAM_DATA
from mathhammer.files.teams import save_team

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "killteam"))
from synthetic_teams import synthetic_team  # noqa: E402

DATA = KILLTEAM_DATA
OLD = b"the old file\n"


@pytest.fixture()
def teams(tmp_path: Path) -> Path:
    folder = tmp_path / "teams"
    for k in range(2):
        save_team(synthetic_team(70 + k, operatives=2, weapons=2), folder, stem=f"team {k}")
    return folder


def _writers(teams: Path) -> dict[str, Callable[[Path], list[str]]]:
    """Each writer's command line, given its output."""
    a, b = teams / "team 0.toml", teams / "team 1.toml"
    return {
        "matchup": lambda out: ["killteam", "matchup", "--profiles", str(a), "--against", str(b), "--output", str(out)],
        "sweep": lambda out: ["sweep", "killteam", "shoot", "--grid", "cover=0,1", "--output", str(out)],
        "meta": lambda out: ["killteam", "meta", str(teams), "--out", str(out), "--chunk", "1"],
    }


OPTION = {"matchup": "--output", "sweep": "--output", "meta": "--out", "import": "--out"}


def _messages(err: str) -> str:
    """Stderr without the meta's progress lines."""
    return "".join(line for line in err.splitlines(keepends=True) if not line.startswith("meta: "))


@pytest.mark.parametrize(("writer", "suffix"), [("matchup", ".parquet"), ("matchup", ".csv"), ("sweep", ".json"),
                                                ("meta", ".parquet")])
def test_a_failure_at_any_write_leaves_the_old_file_or_the_new_one(
        capsys: pytest.CaptureFixture[str], teams: Path, tmp_path: Path, writer: str, suffix: str) -> None:
    command = _writers(teams)[writer]
    reference = tmp_path / "reference" / f"table{suffix}"
    reference.parent.mkdir()
    assert run(capsys, command(reference))[0] == 0
    new = reference.read_bytes()
    where = tmp_path / "out"
    out = where / f"table{suffix}"
    failures = 0
    for fault in every_fault():
        shutil.rmtree(where, ignore_errors=True)
        where.mkdir()
        out.write_bytes(OLD)
        with fault:
            code, _, err = run(capsys, command(out))
        err = _messages(err)
        if fault.hit:
            failures += 1
            if fault.interrupt:
                assert code == 130 and err == "interrupted\n", err
            else:
                assert_one_line_error(code, err, f"{OPTION[writer]}: cannot ", "No space left on device")
        else:
            assert code == 0, err
        assert out.read_bytes() in (OLD, new), fault.k
        assert leftovers(where) == [], fault.k
        if writer == "meta" and fault.hit:  # what the stopped run left resumes to the uninterrupted table
            assert run(capsys, [*command(out), "--resume"])[0] == 0
            assert out.read_bytes() == new and sorted(p.name for p in where.iterdir()) == [out.name], fault.k
    assert failures >= (10 if writer == "meta" else 2)  # each part, the table, each removal; the table


def test_a_failure_at_any_write_of_an_import(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    reference = tmp_path / "reference"
    assert run(capsys, ["killteam", "import", str(DATA), "--out", str(reference)])[0] == 0
    new = {p.name: p.read_bytes() for p in reference.iterdir()}
    assert len(new) == 4
    out = tmp_path / "teams"
    for fault in every_fault():
        shutil.rmtree(out, ignore_errors=True)
        out.mkdir()
        for name in new:
            (out / name).write_bytes(OLD)
        with fault:
            code, _, err = run(capsys, ["killteam", "import", str(DATA), "--out", str(out)])
        if fault.hit and not fault.interrupt:
            assert_one_line_error(code, err, "--out: cannot write", "No space left on device")
        assert code == (0 if not fault.hit else 130 if fault.interrupt else 2), err
        assert {p.name for p in out.iterdir()} == set(new), fault.k  # no temporary file, no lock
        for name, data in new.items():  # each file the old one or the complete new one
            assert (out / name).read_bytes() in (OLD, data), (fault.k, name)
    assert fault.k == 9  # two files a team, each a write and a rename


@pytest.mark.parametrize("writer", ["matchup", "sweep", "meta", "import"])
def test_a_second_run_on_one_output_refuses_naming_the_first(
        capsys: pytest.CaptureFixture[str], teams: Path, tmp_path: Path, writer: str) -> None:
    from mathhammer.core.writing import OutputLock

    if writer == "import":
        out, lock, args = tmp_path / "imported", tmp_path / "imported", ["killteam", "import", str(DATA), "--out",
                                                                         str(tmp_path / "imported")]
        out.mkdir()
    else:
        out = tmp_path / ("table.csv" if writer != "sweep" else "table.json")
        lock, args = out, _writers(teams)[writer](out)
    with OutputLock("another run", lock, folder=writer == "import"):
        code, out_text, err = run(capsys, args)
    assert_one_line_error(code, err, f"{OPTION[writer]}: ", "is being written by process", "delete")
    assert out_text == "" and "pairings" not in err  # refused before any work
    assert sorted(p.name for p in tmp_path.iterdir() if p.name != "teams") == ([out.name] if writer == "import" else [])
    assert run(capsys, args)[0] == 0  # once the first is done


@pytest.mark.parametrize("writer", ["matchup", "sweep", "meta"])
def test_a_link_where_the_file_goes_is_refused_before_the_work(
        capsys: pytest.CaptureFixture[str], teams: Path, tmp_path: Path, writer: str) -> None:
    outside = tmp_path / "outside.csv"
    outside.write_bytes(OLD)
    out = tmp_path / ("table.json" if writer == "sweep" else "table.csv")
    out.symlink_to(outside)
    code, text, err = run(capsys, _writers(teams)[writer](out))
    assert_one_line_error(code, err, f"{OPTION[writer]}: ", "is a symbolic link")
    assert outside.read_bytes() == OLD and text == ""


@pytest.mark.parametrize("writer", ["matchup", "meta"])
def test_parquet_without_pyarrow_is_refused_before_the_work(
        capsys: pytest.CaptureFixture[str], teams: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        writer: str) -> None:
    monkeypatch.setitem(sys.modules, "pyarrow", None)  # as if not installed
    out = tmp_path / "table.parquet"
    code, text, err = run(capsys, _writers(teams)[writer](out))
    assert_one_line_error(code, err, f"{OPTION[writer]}: ", "needs pyarrow", "pip install 'mathhammer[parquet]'")
    assert text == "" and "pairings" not in err and sorted(p.name for p in tmp_path.iterdir()) == ["teams"]


def test_an_import_refuses_a_link_an_empty_out_and_a_shared_name(capsys: pytest.CaptureFixture[str],
                                                                    tmp_path: Path) -> None:
    out = tmp_path / "teams"
    out.mkdir()
    outside = tmp_path / "outside.toml"
    outside.write_bytes(OLD)
    (out / "Gloam Pact.toml").symlink_to(outside)
    code, _, err = run(capsys, ["killteam", "import", str(DATA), "--out", str(out)])
    assert_one_line_error(code, err, "--out: ", "Gloam Pact.toml' is a symbolic link", "delete it")
    assert outside.read_bytes() == OLD and sorted(p.name for p in out.iterdir()) == ["Gloam Pact.toml"]
    code, _, err = run(capsys, ["killteam", "import", str(DATA), "--out", ""])
    assert_one_line_error(code, err, "--out: '': name a folder")
