"""The commands every CLI test runs: their arguments, a cheap Monte Carlo run of each, and helpers."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import mathhammer
from mathhammer.cli import main

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"
KT_LIBRARY = EXAMPLES / "killteam" / "profiles.toml"
SC_LIBRARY = EXAMPLES / "starcraft" / "profiles.toml"
DB_LIBRARY = EXAMPLES / "deathburgh" / "bandits.toml"
FM_LIBRARY = EXAMPLES / "force_melee" / "profiles.toml"
ROUND = EXAMPLES / "deathburgh" / "round_scenario.toml"
SCENARIO = EXAMPLES / "scenario.toml"

# name -> the command's arguments (every command of the CLI, with the arguments it needs to run)
COMMANDS: dict[str, list[str]] = {
    "killteam fight": ["killteam", "fight"],
    "killteam shoot": ["killteam", "shoot"],
    "starcraft attack": ["starcraft", "attack"],
    "starcraft sequence": ["starcraft", "sequence"],
    "deathburgh combat": ["deathburgh", "combat"],
    "deathburgh round": ["deathburgh", "round", str(ROUND)],
    "deathburgh profiles": ["deathburgh", "profiles"],
    "force-melee": ["force-melee"],
    "force-melee --scenario": ["force-melee", "--scenario", str(EXAMPLES / "force_melee" / "scenario_squads.toml")],
    "force-melee melee": ["force-melee", "melee"],
    "force-melee melee-many": ["force-melee", "melee-many"],
    "run": ["run"],
    "run FILE": ["run", str(SCENARIO)],
    "run ROUND": ["run", str(ROUND)],
    "run MELEE_MANY": ["run", str(EXAMPLES / "force_melee" / "scenario_walker.toml")],
}

# Commands that can run Monte Carlo, with the options for a small seeded run.
MONTE_CARLO = ["--method", "monte_carlo", "--samples", "20000", "--seed", "3", "--threads", "1"]
MC_COMMANDS = [name for name in COMMANDS if name != "deathburgh profiles"]


def run(capsys: Any, args: list[str]) -> tuple[int, str, str]:
    code = main(list(args))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def run_json(capsys: Any, args: list[str]) -> dict[str, Any]:
    code, out, err = run(capsys, [*args, "--format", "json"])
    assert code == 0, err
    return json.loads(out)


def assert_one_line_error(code: int, err: str, *fragments: str) -> None:
    """Exit 2, and stderr one line 'error: ...' holding every fragment, no traceback."""
    assert code == 2, err
    assert err.startswith("error: ") and err.endswith("\n") and err.count("\n") == 1, err
    assert "Traceback" not in err
    for fragment in fragments:
        assert fragment in err, (fragment, err)


def subprocess_env() -> dict[str, str]:
    """The environment for a child Python that imports the same mathhammer as these tests (the
    working tree in development, the installed package in CI)."""
    here = str(Path(mathhammer.__file__).resolve().parent.parent)
    return dict(os.environ, PYTHONPATH=os.pathsep.join([here, os.environ.get("PYTHONPATH", "")]).rstrip(os.pathsep))
