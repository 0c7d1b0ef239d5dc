"""`mathhammer sweep` runs its grid through `mathhammer.sweep` on the action's own function: its table
equals, cell for cell, the single commands run one by one with the grid's values (and each cell's
derived seed), for a grid of every sweepable action."""

from __future__ import annotations

import itertools
import json
from typing import Any

import pytest

from mathhammer.cli import main
import mathhammer.cli.sweep as sweep_cli
from mathhammer.cli.sweep import _keys, engine_cell, parse_grid, result_type, sweepable_commands
from mathhammer.sweeps import cell_seed

SEED = 2024

# (game, action, options given to every cell, grid, whether the grid runs as the engine function's axes)
GRIDS = [
    ("killteam", "shoot", [], 'hit=3,4 save=3..4 rules="Lethal 5+"|Balanced', True),
    ("killteam", "shoot", ["--method", "monte_carlo", "--samples", "3000"], "cover=0,1 attacks=3..4", True),
    ("killteam", "fight", [], "a-strategy=strike,parry b-wounds=8,9", True),
    ("killteam", "fight", ["--method", "monte_carlo", "--samples", "2000"], "a-attacks=3,4 first=a,b", True),
    ("killteam", "attack-dice", [], "weapon='4A 3+ 3/4'|'5A 4+ 4/5 Lethal 5+'", True),
    ("starcraft", "attack", ["--unit", "zealot"], "firing-models=1..3 hit-mod=0,1", True),
    ("starcraft", "sequence", [], "unit=zealot,zergling", True),
    ("deathburgh", "combat", [], "attacker-a=2,3 defender-w=2,3", True),
    ("deathburgh", "round", ["--method", "exact"], "threads=1,2", True),
    ("force-melee", "melee", [], "a-dice=3,4 b-hp=2,3", True),
    ("force-melee", "melee-many", ["--method", "exact"], "threads=1,2", True),
    # the weapon whole and its hit: two keys changing one field, so each cell goes through the command
    ("killteam", "shoot", [], "weapon='4A 3+ 3/4'|'5A 4+ 4/5' hit=3,4", False),
]


def test_every_sweepable_action_has_a_grid_here() -> None:
    assert {(game, action) for game, action, *_ in GRIDS} == set(sweepable_commands())


def _json(capsys: pytest.CaptureFixture[str], args: list[str]) -> Any:
    assert main(args) == 0, capsys.readouterr().err
    return json.loads(capsys.readouterr().out)


def _cells(game: str, action: str, grid: str) -> list[list[str]]:
    """Each cell's options as command-line arguments, the first key slowest."""
    keys = _keys(game, action)[0]
    axes = parse_grid(grid, keys)
    flags = {k.parameter: k.name for k in keys.values()}
    columns = [[["--" + flags[parameter], str(getattr(v, "value", v))] for v in values]
               for parameter, values in axes.items()]
    return [[part for pair in cell for part in pair] for cell in itertools.product(*columns)]


@pytest.mark.parametrize("game, action, fixed, grid, as_axes", GRIDS,
                         ids=[f"{g}-{a}-{i}" for i, (g, a, *_) in enumerate(GRIDS)])
def test_the_table_is_the_single_commands(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
                                          game: str, action: str, fixed: list[str], grid: str,
                                          as_axes: bool) -> None:
    through_command: list[int] = []

    def counted(*args: Any, **kwargs: Any) -> Any:
        through_command.append(1)
        return engine_cell(*args, **kwargs)

    monkeypatch.setattr(sweep_cli, "engine_cell", counted)
    table = _json(capsys, ["sweep", game, action, *fixed, "--grid", grid, "--seed", str(SEED), "--format", "json"])
    monkeypatch.undo()
    rows = table["rows"]
    cells = _cells(game, action, grid)
    assert len(rows) == len(cells)
    # the engine function's own axes: no cell through the command (or, when False, every one)
    assert (not through_command) is as_axes
    takes_seed = any(p.name == "seed" for p in _keys(game, action)[1])
    keys = _keys(game, action)[0]
    axes = parse_grid(grid, keys)
    assert list(rows[0])[: len(axes)] == [k.name for p in axes for k in keys.values() if k.parameter == p]
    for index, (row, cell) in enumerate(zip(rows, cells)):
        seed = ["--seed", str(cell_seed(SEED, index))] if takes_seed else []
        payload = _json(capsys, [game, action, *fixed, *cell, *seed, "--format", "json"])
        summary = result_type(game, action).from_dict(payload["result"]).summary()
        assert {k: v for k, v in row.items() if k not in summary} == {
            k.name: row[k.name] for p in axes for k in keys.values() if k.parameter == p}
        assert {k: v for k, v in row.items() if k in summary} == summary, f"cell {index} ({' '.join(cell)})"
