"""Files the CLI writes: an --output or --plot path in no folder, a folder given as the file, and a
standard output that refuses the text (a full disk) each exit 2 with one line naming the option,
never a traceback; a sweep refuses a bad --output before any cell runs."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from cli_cases import assert_one_line_error, run, subprocess_env
from timing import cpu_at_most


@pytest.mark.parametrize("option", ["--output", "--plot"])
def test_a_file_in_no_folder_is_one_line(capsys: pytest.CaptureFixture[str], tmp_path: Path, option: str) -> None:
    target = tmp_path / "nonexistent" / "dir" / ("x.csv" if option == "--output" else "x.png")
    code, _, err = run(capsys, ["sweep", "killteam", "shoot", "--grid", "cover=0,1", option, str(target)])
    assert_one_line_error(code, err, f"{option}: cannot write", "no folder")
    assert not target.parent.exists()


def test_a_folder_given_as_the_output_file_is_one_line(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    folder = tmp_path / "table.csv"
    folder.mkdir()
    code, _, err = run(capsys, ["sweep", "killteam", "shoot", "--grid", "cover=0,1", "--output", str(folder)])
    assert_one_line_error(code, err, "--output: ", "is a folder")


def test_a_bad_output_is_refused_before_the_sweep_runs(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    with cpu_at_most(0.2):  # about 0.2 s of CPU, the first time: 2 x 10^8 fights were never started
        code, _, err = run(capsys, ["sweep", "killteam", "fight", "--method", "monte_carlo", "--samples",
                                    "100000000", "--grid", "first=a,b", "--output", str(tmp_path / "no" / "x.csv")])
    assert_one_line_error(code, err, "--output: cannot write")


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full (Linux)")
def test_stdout_on_a_full_disk_is_one_line() -> None:
    with open("/dev/full", "w") as full:
        done = subprocess.run([sys.executable, "-m", "mathhammer.cli", "killteam", "shoot"], stdout=full,
                              stderr=subprocess.PIPE, text=True, env=subprocess_env(), timeout=120)
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert done.stderr == "error: cannot write the output: No space left on device\n"
