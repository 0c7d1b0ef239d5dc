"""The committed .pyi stubs of mathhammer._core match the compiled module (regenerate: tools/stubs.sh)."""

from __future__ import annotations

import difflib
import os
import subprocess
import sys
from pathlib import Path

import mathhammer
from mathhammer import _core

ROOT = Path(__file__).resolve().parents[1]
COMMITTED = ROOT / "python" / "mathhammer" / "_core"


def _stubs(folder: Path) -> dict[str, str]:
    return {p.relative_to(folder).as_posix(): p.read_text() for p in sorted(folder.rglob("*.pyi"))}


def test_stub_folder_does_not_shadow_the_extension() -> None:
    # _core/ holds only .pyi files, so the import system still finds the compiled module beside it.
    assert _core.__file__ is not None and not _core.__file__.endswith(".pyi")
    assert Path(_core.__file__).suffix in (".so", ".pyd")
    assert hasattr(_core.starcraft, "exact_attack")


def test_committed_stubs_cover_every_submodule() -> None:
    stubs = _stubs(COMMITTED)
    submodules = sorted(name for name in dir(_core) if type(getattr(_core, name)) is type(_core))
    assert submodules, "mathhammer._core has no submodules"
    assert sorted(stubs) == sorted(["__init__.pyi", *(f"{name}.pyi" for name in submodules)])


def test_stubs_match_the_compiled_module(tmp_path: Path) -> None:
    # Regenerate from the same module this test imported (dev build or installed package).
    package_dir = Path(mathhammer.__file__).resolve().parents[1]
    env = {**os.environ, "PYTHONPATH": str(package_dir), "PYTHON": sys.executable}
    run = subprocess.run(["bash", str(ROOT / "tools" / "stubs.sh"), str(tmp_path / "_core")], env=env, check=False,
                         capture_output=True, text=True)
    assert run.returncode == 0, f"tools/stubs.sh failed:\n{run.stdout}\n{run.stderr}"
    fresh, committed = _stubs(tmp_path / "_core"), _stubs(COMMITTED)
    diff = []
    for name in sorted(set(fresh) | set(committed)):
        diff += difflib.unified_diff(committed.get(name, "").splitlines(), fresh.get(name, "").splitlines(),
                                     f"committed/{name}", f"generated/{name}", lineterm="")
    assert not diff, "the _core stubs drifted from the compiled module; run tools/stubs.sh\n" + "\n".join(diff[:200])
