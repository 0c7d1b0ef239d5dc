"""The meta's files (docs/meta.md, "Chunks, workers and restarts"): parts are data with the manifest
of the run that made them; --resume takes only the parts of the same run and refuses anything else
in one line naming the file and what to delete, never running what a file holds; a resumed table is
the bytes of an uninterrupted one whatever point the run stopped at; two runs never share an output."""

from __future__ import annotations

import hashlib
import json
import os
import pickle
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

import pandas as pd
import pytest
from faults import every_fault, leftovers

import mathhammer
from mathhammer.cli import main
from mathhammer.errors import InputError, InputTypeError
from mathhammer.files.teams import save_team
from mathhammer.killteam.meta import meta

from synthetic_teams import synthetic_team


class _Stop(Exception):
    pass


@pytest.fixture()
def folder(tmp_path: Path) -> Path:
    where = tmp_path / "teams"
    for k in range(2):
        save_team(synthetic_team(80 + k, operatives=2, weapons=2), where, stem=f"team {k}")
    return where


def _stopped(folder: Path, out: Path, after: int = 2, **options: Any) -> None:
    """A run stopped once ``after`` pairings are done (its parts stay)."""
    def progress(done: int, total: int) -> None:
        if done >= after:
            raise _Stop

    with pytest.raises(_Stop):
        meta(folder, out, chunk=1, progress=progress, **options)


def _command(folder: Path, out: Path, *more: str) -> list[str]:
    return ["killteam", "meta", str(folder), "--out", str(out), "--chunk", "1", *more]


def _one_line(capsys: pytest.CaptureFixture[str], args: list[str]) -> str:
    code = main(args)
    err = "".join(line for line in capsys.readouterr().err.splitlines(keepends=True) if not line.startswith("meta: "))
    assert code == 2 and err.startswith("error: ") and err.count("\n") == 1 and "Traceback" not in err, err
    return err


class _Planted:
    """What a stranger's pickled part would run: it leaves a file behind."""

    def __init__(self, marker: Path) -> None:
        self.marker = marker

    def __reduce__(self) -> tuple[Any, ...]:
        return (Path.touch, (self.marker,))


def test_a_planted_pickle_is_refused_and_never_run(capsys: pytest.CaptureFixture[str], folder: Path,
                                                    tmp_path: Path) -> None:
    out, marker = tmp_path / "meta.csv", tmp_path / "ran"
    parts = tmp_path / "meta.csv.parts"
    parts.mkdir()
    (parts / "000000-000003.pkl").write_bytes(pickle.dumps(_Planted(marker)))
    err = _one_line(capsys, _command(folder, out, "--resume"))
    assert "000000-000003.pkl" in err and "delete" in err and "meta.csv.parts" in err
    assert not marker.exists() and not out.exists()


def _truncated(parts: Path) -> str:
    part = sorted(parts.iterdir())[0]
    part.write_bytes(part.read_bytes()[:-20])
    return part.name


def _foreign(parts: Path) -> str:
    (parts / "000009-000009.jsonl").write_text("team,kill_chance\nA,0.5\n\n\n")
    return "000009-000009.jsonl"


def _copied(parts: Path) -> str:  # a pairing in two parts (the name is only a name: the manifest says which)
    first = sorted(parts.iterdir())[0]
    (parts / f"000007-000007{first.suffix}").write_bytes(first.read_bytes())
    return "000007-000007"


@pytest.mark.parametrize(("spoil", "fragment"), [
    (_truncated, "not a meta part this run can read"), (_foreign, "not a meta part this run can read"),
    (_copied, "pairing 0 is also in another part"),
])
def test_a_corrupt_or_foreign_part_is_refused(capsys: pytest.CaptureFixture[str], folder: Path, tmp_path: Path,
                                              spoil: Any, fragment: str) -> None:
    out = tmp_path / "meta.csv"
    _stopped(folder, out, cover=[0])
    name = spoil(tmp_path / "meta.csv.parts")
    err = _one_line(capsys, _command(folder, out, "--resume", "--cover", "0"))
    assert name in err and fragment in err and "delete" in err and not out.exists()


def test_a_part_whose_rows_are_not_its_pairings_is_refused(capsys: pytest.CaptureFixture[str], folder: Path,
                                                          tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "pyarrow", None)  # parts as JSON lines, edited by hand below
    out = tmp_path / "meta.csv"
    _stopped(folder, out, cover=[0])
    part = sorted((tmp_path / "meta.csv.parts").iterdir())[0]
    lines = part.read_text().split("\n")
    row = json.loads(lines[1])
    assert row[:2] == ["Synthetic 80", "Synthetic 80"]
    lines[1] = json.dumps(["Synthetic 81", *row[1:]])
    part.write_text("\n".join(lines))
    err = _one_line(capsys, _command(folder, out, "--resume", "--cover", "0"))
    assert part.name in err and "its rows are not those of the pairings it names (pairing 0)" in err


@pytest.mark.parametrize(("change", "fragment"), [
    (["--cover", "1"], "cover [0] there, [1] here"), (["--cover", "0", "--seed", "3"], "seed 0 there, 3 here"),
    (["--cover", "0", "--no-fight"], "fight True there, False here"),
])
def test_a_part_of_another_run_is_refused(capsys: pytest.CaptureFixture[str], folder: Path, tmp_path: Path,
                                          change: list[str], fragment: str) -> None:
    out = tmp_path / "meta.csv"
    _stopped(folder, out, cover=[0])
    err = _one_line(capsys, _command(folder, out, "--resume", *change))
    assert "made by another run" in err and fragment in err and "delete" in err and not out.exists()


def test_a_part_of_a_changed_team_is_refused(capsys: pytest.CaptureFixture[str], folder: Path, tmp_path: Path) -> None:
    out = tmp_path / "meta.csv"
    _stopped(folder, out, cover=[0])
    save_team(synthetic_team(99, operatives=2, weapons=2, name="Synthetic 81"), folder, stem="team 1")
    err = _one_line(capsys, _command(folder, out, "--resume", "--cover", "0"))
    assert "made by another run: the team library 'team 1.toml' is not the one it was made from" in err


def test_anything_else_in_the_parts_folder_is_refused_before_the_work(
        capsys: pytest.CaptureFixture[str], folder: Path, tmp_path: Path) -> None:
    out = tmp_path / "meta.csv"
    (tmp_path / "meta.csv.parts" / "stray").mkdir(parents=True)
    err = _one_line(capsys, _command(folder, out))
    assert "meta.csv.parts/stray" in err and "not a part of a meta" in err and not out.exists()
    (tmp_path / "meta.csv.parts" / "stray").rmdir()
    (tmp_path / "meta.csv.parts").rmdir()
    (tmp_path / "meta.csv.parts").write_text("a file")
    err = _one_line(capsys, _command(folder, out))
    assert "meta.csv.parts" in err and "not the meta's parts folder" in err and not out.exists()


def test_a_folder_named_like_a_temporary_file_is_no_obstacle(capsys: pytest.CaptureFixture[str], folder: Path,
                                                              tmp_path: Path) -> None:
    out = tmp_path / "meta.csv"
    (tmp_path / "meta.csv.tmp").mkdir()
    assert main(_command(folder, out)) == 0
    assert len(pd.read_csv(out)) > 0 and (tmp_path / "meta.csv.tmp").is_dir()


def test_resume_after_a_finished_run_of_other_options_is_the_new_run(folder: Path, tmp_path: Path) -> None:
    out = tmp_path / "meta.csv"
    meta(folder, out, cover=[0], fight=False)
    table = meta(folder, out, resume=True, cover=[1], fight=False)
    assert set(table["cover"]) == {1} and set(pd.read_csv(out)["cover"]) == {1}


def test_a_stop_between_the_table_and_the_removal_of_its_parts(folder: Path, tmp_path: Path,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    expected = meta(folder, cover=[0])
    out = tmp_path / "meta.csv"
    parts = tmp_path / "meta.csv.parts"
    unlink = os.unlink

    def stopping(path: Any, *args: Any, **kwargs: Any) -> None:  # Ctrl-C as the first part goes
        if Path(path).parent == parts:
            raise KeyboardInterrupt
        unlink(path, *args, **kwargs)

    monkeypatch.setattr(os, "unlink", stopping)
    with pytest.raises(KeyboardInterrupt):
        meta(folder, out, chunk=1, cover=[0])
    monkeypatch.setattr(os, "unlink", unlink)
    assert out.exists() and len(list(parts.iterdir())) == 4
    resumed = meta(folder, out, resume=True, cover=[0])
    assert len(resumed) == len(expected) and len(pd.read_csv(out)) == len(expected)
    pd.testing.assert_frame_equal(resumed, expected, check_exact=True)
    assert not parts.exists()


def test_parts_without_pyarrow_are_json_lines_and_every_stop_resumes_to_the_same_bytes(
        folder: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "pyarrow", None)  # as if not installed: parts as JSON lines
    reference = tmp_path / "reference.csv"
    meta(folder, reference, cover=[0, 1], seed=7)
    expected = reference.read_bytes()
    out = tmp_path / "meta.csv"
    for fault in every_fault():
        with fault:
            try:
                meta(folder, out, chunk=1, cover=[0, 1], seed=7)
            except (InputError, KeyboardInterrupt):
                assert fault.hit
        assert leftovers(tmp_path) == []
        if fault.hit and fault.k == 1:  # the first part: data, and the manifest of the run first
            assert list((tmp_path / "meta.csv.parts").iterdir()) == []
        meta(folder, out, resume=True, cover=[0, 1], seed=7)
        assert out.read_bytes() == expected, fault.k
        out.unlink()
    assert fault.k > 10


def test_a_part_holds_the_manifest_of_its_run(folder: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import pyarrow.parquet as pq

    out = tmp_path / "meta.parquet"
    _stopped(folder, out, cover=[1], seed=11)
    part = sorted((tmp_path / "meta.parquet.parts").iterdir())[0]
    manifest = json.loads(pq.read_schema(part).metadata[b"mathhammer"])
    teams = sorted(folder.glob("*.toml"))
    assert manifest["teams"] == [{"file": p.name, "team": f"Synthetic {80 + k}",
                                  "sha256": hashlib.sha256(p.read_bytes()).hexdigest()} for k, p in enumerate(teams)]
    assert manifest["seed"] == 11 and manifest["version"] == mathhammer.__version__
    assert manifest["options"] == {"shoot": True, "fight": True, "obscured": False, "cover": [1], "first": ["a", "b"],
                                   "strategies": [["max_damage", "max_damage"]], "method": "auto"}
    assert manifest["pairings"] == [0]
    monkeypatch.setitem(sys.modules, "pyarrow", None)  # Parquet parts cannot be read without it: said so
    with pytest.raises(InputError, match="needs pyarrow"):
        meta(folder, tmp_path / "meta.parquet", resume=True, cover=[1], seed=11)


def test_wrong_types_name_the_argument(folder: Path) -> None:
    for name, value in (("executor", "x"), ("progress", 5), ("resume", "yes"), ("chunk", 2.5), ("teams", 5),
                        ("out", 5)):
        arguments: dict[str, Any] = {"teams": folder, name: value}
        with pytest.raises(InputTypeError) as caught:
            meta(**arguments)
        assert caught.value.field == name


def test_two_runs_on_one_output(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = tmp_path / "teams"
    for k in range(3):  # a run of seconds
        save_team(synthetic_team(90 + k), folder, stem=f"team {k}")
    out = tmp_path / "meta.csv"
    launch = ("import sys, mathhammer.cli as cli; sys.stderr.write('ready\\n'); sys.stderr.flush(); "
              "sys.exit(cli.main(sys.argv[1:]))")
    env = dict(os.environ, PYTHONPATH=str(Path(mathhammer.__file__).resolve().parents[1]))
    first = subprocess.Popen([sys.executable, "-c", launch, *_command(folder, out)], stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True, env=env)
    try:
        assert first.stderr is not None and first.stderr.readline() == "ready\n"
        assert first.stderr.readline() == "meta: 0/9 pairings\n"  # running, its output locked
        err = _one_line(capsys, _command(folder, out))
        assert f"is being written by process {first.pid} " in err
        first.send_signal(signal.SIGINT)
        first.communicate(timeout=30)
    finally:
        if first.poll() is None:
            first.kill()
            first.wait()
    assert first.returncode == 130 and not out.exists()
