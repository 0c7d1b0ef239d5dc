"""--help reads at 80 columns: examples broken between options (never mid-word), short metavars for
options with a set of values, the game's panels before the engine's and the output's last."""

from __future__ import annotations

import re

import pytest
from cli_cases import run

COMMANDS = [["killteam", "shoot"], ["killteam", "fight"], ["killteam", "compare"], ["killteam", "advise"],
            ["starcraft", "attack"], ["starcraft", "sequence"], ["deathburgh", "combat"], ["deathburgh", "round"],
            ["force-melee", "melee"], ["run"], ["examples"], ["sweep", "killteam", "shoot"]]


def _help(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, args: list[str]) -> str:
    monkeypatch.setenv("COLUMNS", "80")
    code, out, _ = run(capsys, [*args, "--help"])
    assert code == 0
    return out


@pytest.mark.parametrize("args", COMMANDS, ids=" ".join)
def test_examples_break_between_options(capsys, monkeypatch, args) -> None:
    out = _help(capsys, monkeypatch, args)
    assert max(len(line) for line in out.splitlines()) <= 80
    after_panels = out.rsplit("╰", 1)[1].splitlines()[1:]
    lines = [line.strip() for line in after_panels if line.strip()]
    assert any(line.startswith("mathhammer ") for line in lines), out
    for previous, line in zip([""] + lines, lines):
        # an option starts a line only as the continuation of a command that says it goes on
        if line.startswith("--"):
            assert previous.endswith("\\"), (previous, line)
        if previous.startswith("mathhammer ") and not previous.endswith("\\"):
            assert not line.startswith(("--", "'", '"')), (previous, line)


@pytest.mark.parametrize("args", COMMANDS, ids=" ".join)
def test_panels_put_the_game_first_and_the_output_last(capsys, monkeypatch, args) -> None:
    out = _help(capsys, monkeypatch, args)
    panels = re.findall(r"╭─ (.+?) ─", out)
    assert panels[-1] == "Output", panels
    if "Engine" in panels and len(panels) > 3:
        game = [i for i, p in enumerate(panels) if p not in ("Options", "Other options", "Engine", "Sweep", "Output",
                                                             "Arguments")]
        assert all(panels.index("Engine") > i for i in game), panels
    assert not re.search(r"<[a-z_]+(\|[a-z_]+){2,}", out)  # no <a|b|c|...> metavar to split mid-word
