"""A result prints one way: for every action of every game (read from the descriptors), the command's
--format markdown is the to_markdown() of the result its --format json holds (the same call: the
same examples of the command table, Monte Carlo ones under the seed the JSON records). The result
carries everything its printer names, so it prints the same after a trip through JSON."""

from __future__ import annotations

import json
import shlex
from pathlib import Path

import pytest

from mathhammer import games
from mathhammer.cli import main
from mathhammer.cli.commands import command

ROOT = Path(__file__).resolve().parents[2]

#: Options whose example writes a file (their commands' own tests write them), or prints several
#: results side by side (shoot --saves), a scenario's entries (melee --scenario) or every table of
#: a result rather than its printer's (matchup --all): not one result.
NOT_ONE_RESULT = ("--output", "--plot", "--out", "--saves", "--scenario", "--all")


def _one_result(words: list[str]) -> bool:
    return not any(word.split("=")[0] in NOT_ONE_RESULT for word in words)


CASES = [(game.name, action.name, example.line) for game, action in games.actions()
         for example in command(game.cli, action.cli).examples if _one_result(shlex.split(example.line))]


def _run(capsys: pytest.CaptureFixture[str], words: list[str], fmt: str) -> str:
    words = list(words)
    if "--format" in words:  # the example's own format gives way to the one asked for
        del words[words.index("--format"):words.index("--format") + 2]
    assert main([*words, "--format", fmt]) == 0, capsys.readouterr().err
    return capsys.readouterr().out


@pytest.mark.parametrize("game_name, action_name, line", CASES, ids=[line for _, _, line in CASES])
def test_the_command_prints_the_result_s_markdown(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
                                                  game_name: str, action_name: str, line: str) -> None:
    words = shlex.split(line)
    monkeypatch.chdir(ROOT)  # the examples name the repository's example files
    payload = json.loads(_run(capsys, words, "json"))
    result = games.action(game_name, action_name).result.from_dict(payload["result"])
    if getattr(result, "seed", None) is not None and "--seed" not in words:  # Monte Carlo: the same call, its seed
        words += ["--seed", str(result.seed)]
    assert _run(capsys, words, "markdown") == result.to_markdown() + "\n"


def test_every_action_is_held_to_its_printer() -> None:
    """At least one example of every action prints one result (a case above)."""
    assert {(g, a) for g, a, _ in CASES} == {(game.name, action.name) for game, action in games.actions()}
