"""The executor examples of docs/sweeps.md run as the scripts they are (their ``__main__`` guards
are what let a process pool's and a Dask cluster's workers start) and give the serial table."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

import mathhammer

ROOT = Path(__file__).resolve().parent.parent
PAGE = ROOT / "docs" / "sweeps.md"


def _script(marker: str) -> str:
    blocks = re.findall(r"```python\n(.*?)```", PAGE.read_text(encoding="utf-8"), flags=re.S)
    return next(block for block in blocks if marker in block and "__main__" in block)


@pytest.mark.parametrize("marker", ["ProcessPoolExecutor(2)", pytest.param("LocalCluster(", marks=pytest.mark.dask_cluster)])
def test_the_executor_example_runs_as_a_script(marker: str, tmp_path: Path) -> None:
    script = tmp_path / "sweep_example.py"
    # the count printed where the example prints its table: inside the guard
    script.write_text(_script(marker).replace("    print(df)", "    print(df)\n    print('ROWS', len(df))"),
                      encoding="utf-8")
    env = dict(os.environ, PYTHONPATH=str(Path(mathhammer.__file__).resolve().parents[1]))
    done = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, env=env, timeout=120,
                          cwd=tmp_path)
    assert done.returncode == 0, done.stderr[:3000]
    rows = {"ProcessPoolExecutor(2)": 2 * 5 * 4, "LocalCluster(": 12 * 5 * 4}[marker]
    assert f"ROWS {rows}" in done.stdout
