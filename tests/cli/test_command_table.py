"""The command table (mathhammer.cli.commands) is the one declaration of the commands: it holds a row
for every command of the Typer apps and every action of the game descriptors, and no other; the
root epilog, each command's --help examples and the README's table come from it; every example is a
command line the command accepts."""

from __future__ import annotations

import re
import shlex
from pathlib import Path
from typing import Any

import pytest
import typer
from typer._click import Context

from mathhammer import games
from mathhammer.cli import app
from mathhammer.cli.commands import (
    COMMANDS,
    EXAMPLE_WIDTH,
    Example,
    command,
    epilog,
    readme_table,
    root_epilog,
    wrap_example,
)
from mathhammer.cli.options import finish

README = Path(__file__).resolve().parents[2] / "README.md"


def _root() -> Any:
    root = typer.main.get_command(app)
    finish(root)
    return root


def _tree() -> dict[tuple[str, ...], Any]:
    """Every command of the Typer apps by its path, the groups loaded (sweep's own commands, one per
    sweepable action, are made from the descriptors: the sweep group stands for them)."""
    root = _root()
    found: dict[tuple[str, ...], Any] = {(): root}
    stack = [((), root)]
    while stack:
        path, group = stack.pop()
        context = Context(group)
        for name in group.list_commands(context):
            sub = group.get_command(context, name)
            found[(*path, name)] = sub
            if hasattr(sub, "list_commands") and name != "sweep":
                stack.append(((*path, name), sub))
    return found


TREE = _tree()


def test_the_table_has_a_row_for_every_command_and_no_other() -> None:
    assert sorted(row.path for row in COMMANDS) == sorted(TREE)
    assert len({row.path for row in COMMANDS}) == len(COMMANDS)


def test_every_action_of_every_game_has_its_row_with_examples() -> None:
    for game, action in games.actions():
        row = command(game.cli, action.cli)
        assert row.examples, (game.cli, action.cli)


def test_every_command_has_examples_and_its_help_shows_the_table_s() -> None:
    for row in COMMANDS:
        assert row.examples, row.path
        shown = TREE[row.path]
        assert shown.epilog == (root_epilog() if row.path == () else epilog(*row.path)), row.path
        # the examples are data: no help text carries one of its own
        assert not re.search(r"Examples?:", shown.help or ""), row.path


def test_the_groups_help_lines_are_the_table_s() -> None:
    for row in COMMANDS:
        if len(row.path) == 1 and row.help:
            assert TREE[row.path].help == row.help, row.path
    assert TREE[()].help == command().help


def test_the_root_epilog_names_every_command() -> None:
    text = " ".join(root_epilog().split())
    for row in COMMANDS:
        if len(row.path) == 2:
            assert re.search(rf"{row.path[0]}: [^;.]*\b{re.escape(row.path[1])}\b", text), row.path
        elif len(row.path) == 1:
            assert f"mathhammer {row.path[0]}" in text or f"{row.path[0]}: " in text, row.path


def test_the_readme_table_is_the_table_s() -> None:
    found = re.search(r"<!-- commands[^>]*-->\n(.*?)<!-- /commands -->", README.read_text(encoding="utf-8"), re.S)
    assert found is not None
    assert found.group(1) == readme_table(), "README.md's table of commands is stale; it reads:\n" + readme_table()


@pytest.mark.parametrize("example", [(row.path, e) for row in COMMANDS for e in row.examples],
                         ids=lambda pair: pair[1].line or "mathhammer")
def test_every_example_is_a_command_line_its_command_takes(example: tuple[tuple[str, ...], Example]) -> None:
    path, line = example
    words = shlex.split(line.line)
    taken: list[str] = []
    while words and (*taken, words[0]) in TREE:
        taken.append(words.pop(0))
    target = TREE[tuple(taken)]
    assert tuple(taken[:len(path)]) == path or path == (), (path, line.line)
    if taken and taken[0] == "sweep":
        return  # the sweep's own commands are made when run; test_sweep_cli.py runs its examples
    # parsed as click parses it: an unknown option or a bad value fails here
    context = target.make_context(" ".join(["mathhammer", *taken]), words, resilient_parsing=False)
    assert context.command is target


def test_examples_fit_80_columns() -> None:
    for row in COMMANDS:
        for example in row.examples:
            for line in wrap_example(example, "  ").splitlines():
                assert len(line) <= EXAMPLE_WIDTH, (row.path, line)
                assert line.startswith(("  mathhammer", "      --", "  # ")), (row.path, line)
