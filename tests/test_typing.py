"""The Python examples of the README and docs type-check under ``mypy --strict``, and so does the
package they import (mypy follows the imports and reports their errors too; .ci/run also runs
``mypy`` on python/mathhammer alone, configured in pyproject.toml).

The examples are what users copy: if the annotations refuse them (``rules="Lethal 5+"`` where a
``WeaponRules`` is declared), a type-checked project cannot use the documented API.
"""

from __future__ import annotations

import ast
import re
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
# Type checking reads sources only: the sanitizer pass (tools/sanitize.sh) has nothing to add to it.
pytestmark = pytest.mark.skipif(bool(os.environ.get("MATHHAMMER_SANITIZED")),
                                reason="type checking does not run the C++ core; the main pass checks it")


def _examples() -> list[tuple[str, str]]:
    """(name, code) per page: its ```python blocks and doctest sessions in order, as one module (later
    blocks use the names of earlier ones). Blocks that are not code (signature listings) are left out."""
    out: list[tuple[str, str]] = []
    for page in PAGES:
        text = page.read_text(encoding="utf-8")
        parts: list[str] = []
        for block in re.findall(r"```(?:python)?\n(.*?)```", text, flags=re.DOTALL):
            if ">>> " in block:
                block = "\n".join(line[4:] for line in block.splitlines() if line.startswith((">>> ", "... ")))
            elif "mathhammer" not in block and not parts:
                continue  # shell commands, TOML, output
            try:
                ast.parse(block)
            except SyntaxError:
                continue
            parts.append(block)
        if parts:
            out.append((re.sub(r"\W", "_", str(page.relative_to(ROOT))), "\n".join(parts)))
    return out


def _mypy(*args: str) -> subprocess.CompletedProcess[str]:
    # Incremental: the package's own check (.ci/run runs `mypy` first) leaves its cache for this one.
    return subprocess.run([sys.executable, "-m", "mypy", "--strict", *args], cwd=ROOT,
                          capture_output=True, text=True)


def test_the_documented_examples_type_check(tmp_path: Path) -> None:
    examples = _examples()
    assert len(examples) >= 5
    for name, code in examples:
        (tmp_path / f"{name}.py").write_text(code, encoding="utf-8")
    result = _mypy("--config-file", str(ROOT / "pyproject.toml"), str(tmp_path))
    assert result.returncode == 0, result.stdout + result.stderr
