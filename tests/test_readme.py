"""The README's Python examples run as written (documentation that matches the code)."""

import re
from pathlib import Path

import pytest

README = (Path(__file__).resolve().parent.parent / "README.md").read_text(encoding="utf-8")
BLOCKS = re.findall(r"```python\n(.*?)```", README, flags=re.DOTALL)


def test_readme_has_an_example_per_game():
    assert len(BLOCKS) >= 4
    for module in ("killteam", "starcraft", "deathburgh", "force_melee"):
        assert any(f"from mathhammer import {module}" in block for block in BLOCKS)


@pytest.mark.parametrize("index", range(len(BLOCKS)))
def test_readme_example_runs(index, capsys):
    exec(compile(BLOCKS[index], f"README block {index}", "exec"), {})
    printed = capsys.readouterr().out.split()
    assert printed, "every README example prints its answers"
