"""Files written whole, outputs checked before the work, one writer per output (docs/files.md):
mathhammer.core.writing, which every command that writes goes through."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from faults import Fault, leftovers

from mathhammer.core import writing
from mathhammer.errors import InputError


def test_a_failed_write_leaves_the_old_file(tmp_path: Path) -> None:
    target = tmp_path / "table.csv"
    target.write_bytes(b"old\n")
    for k, interrupt in ((1, False), (2, False), (1, True), (2, True)):  # the write, then the rename
        with Fault(k, interrupt) as fault, pytest.raises(KeyboardInterrupt if interrupt else InputError) as caught:
            writing.write_whole(target, b"new\n" * 1000, "--output")
        assert fault.hit and target.read_bytes() == b"old\n" and leftovers(tmp_path) == []
        if not interrupt:
            assert str(caught.value).startswith("--output: cannot write") and "No space left" in str(caught.value)
    writing.write_whole(target, b"new\n" * 1000)
    assert target.read_bytes() == b"new\n" * 1000 and sorted(p.name for p in tmp_path.iterdir()) == ["table.csv"]
    mask = os.umask(0)
    os.umask(mask)
    assert target.stat().st_mode & 0o777 == 0o666 & ~mask  # as open() makes a file, not private


def test_a_link_is_replaced_never_written_through(tmp_path: Path) -> None:
    outside = tmp_path / "outside.txt"
    outside.write_bytes(b"keep")
    (tmp_path / "out").mkdir()
    link = tmp_path / "out" / "table.csv"
    link.symlink_to(outside)
    writing.write_whole(link, b"new")
    assert outside.read_bytes() == b"keep" and not link.is_symlink() and link.read_bytes() == b"new"


@pytest.mark.parametrize(("name", "fragment"), [
    ("table.xlsx", "write a .csv, .parquet file"), ("", "name a file"), ("missing/table.csv", "no folder"),
    ("link.csv", "is a symbolic link"), ("folder.csv", "is a folder"),
])
def test_outputs_refused_before_the_work(tmp_path: Path, name: str, fragment: str) -> None:
    (tmp_path / "folder.csv").mkdir()
    (tmp_path / "link.csv").symlink_to(tmp_path / "elsewhere.csv")
    with pytest.raises(InputError, match=f"^--out: .*{fragment}"):
        writing.check_output_file("--out", str(tmp_path / name) if name else "", (".csv", ".parquet"))


def test_parquet_needs_pyarrow_before_the_work(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    assert writing.check_output_file("--out", tmp_path / "t.parquet", (".parquet",)) == tmp_path / "t.parquet"
    monkeypatch.setitem(sys.modules, "pyarrow", None)  # as if not installed
    with pytest.raises(InputError, match="^--out: .*needs pyarrow: pip install 'mathhammer\\[parquet\\]'"):
        writing.check_output_file("--out", tmp_path / "t.parquet", (".parquet",))


def test_output_folders(tmp_path: Path) -> None:
    (tmp_path / "file").write_text("x")
    assert writing.check_output_folder("--out", tmp_path / "new" / "deeper") == tmp_path / "new" / "deeper"
    assert not (tmp_path / "new").exists()  # made when the files are written, not when checked
    for value, fragment in (("", "name a folder"), (tmp_path / "file", "is a file"),
                            (tmp_path / "file" / "below", "is not a folder")):
        with pytest.raises(InputError, match=f"^--out: .*{fragment}"):
            writing.check_output_folder("--out", value)


def test_a_second_writer_is_refused_naming_the_first(tmp_path: Path) -> None:
    out = tmp_path / "meta.csv"
    with writing.OutputLock("--out", out):
        assert (tmp_path / "meta.csv.lock").exists()
        with pytest.raises(InputError) as caught:
            writing.OutputLock("--out", out).acquire()
        message = str(caught.value)
        assert message.startswith("--out: ") and f"being written by process {os.getpid()}" in message
        assert "delete" in message and "meta.csv.lock" in message and "\n" not in message
    assert not (tmp_path / "meta.csv.lock").exists()
    with writing.OutputLock("--out", out):  # free again
        pass


def test_a_killed_holder_frees_its_lock(tmp_path: Path) -> None:
    out = tmp_path / "meta.csv"
    here = str(Path(writing.__file__).resolve().parents[2])
    code = ("import sys, time; from pathlib import Path; from mathhammer.core.writing import OutputLock; "
            f"lock = OutputLock('--out', Path({str(out)!r})); lock.acquire(); print('held', flush=True); time.sleep(60)")
    holder = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True,
                              env=dict(os.environ, PYTHONPATH=here))
    try:
        assert holder.stdout is not None and holder.stdout.readline() == "held\n"
        with pytest.raises(InputError, match=f"being written by process {holder.pid} "):
            writing.OutputLock("--out", out).acquire()
        holder.send_signal(signal.SIGKILL)
        holder.wait(timeout=10)
    finally:
        if holder.poll() is None:
            holder.kill()
            holder.wait()
    assert (tmp_path / "meta.csv.lock").exists()  # left behind, but no longer held
    deadline = time.monotonic() + 10
    while True:
        try:
            with writing.OutputLock("--out", out):
                break
        except InputError:  # the kernel frees a killed process's locks as it reaps it
            assert time.monotonic() < deadline
            time.sleep(0.05)
