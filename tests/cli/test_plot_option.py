"""``--plot FILE.png|.svg`` on every command draws the printed result, headless."""

from __future__ import annotations

import importlib.util

import pytest
from cli_cases import ROUND, assert_one_line_error, run


@pytest.mark.parametrize("args", [
    ["killteam", "shoot"],
    ["killteam", "shoot", "--saves", "3-5"],
    ["killteam", "fight"],
    ["starcraft", "attack"],
    ["deathburgh", "combat"],
    ["deathburgh", "round", str(ROUND)],
    ["force-melee"],
    ["run"],
], ids=" ".join)
def test_plot_writes_a_png(capsys, tmp_path, args):
    target = tmp_path / "out.png"
    code, out, err = run(capsys, [*args, "--plot", str(target)])
    assert code == 0, err
    assert target.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert out  # the tables are still printed


def test_plot_writes_an_svg(capsys, tmp_path):
    target = tmp_path / "shot.svg"
    code, _, err = run(capsys, ["killteam", "shoot", "--format", "json", "--plot", str(target)])
    assert code == 0, err
    assert "<svg" in target.read_text(encoding="utf-8")


def test_plot_refuses_other_file_types(capsys, tmp_path):
    code, out, err = run(capsys, ["killteam", "shoot", "--plot", str(tmp_path / "shot.jpg")])
    assert out == ""
    assert_one_line_error(code, err, "--plot", ".png or .svg")
    assert not (tmp_path / "shot.jpg").exists()


def test_plot_without_matplotlib_is_a_clear_error(capsys, tmp_path, monkeypatch):
    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec",
                        lambda name, *a: None if name == "matplotlib" else real(name, *a))
    code, out, err = run(capsys, ["killteam", "shoot", "--plot", str(tmp_path / "shot.png")])
    assert out == ""
    assert_one_line_error(code, err, "--plot", "needs matplotlib", "mathhammer[plot]")
