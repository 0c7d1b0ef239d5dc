"""Every command of the CLI: --help with an example, every output format, JSON that parses and holds
the command's inputs and its result's to_dict() (read back into the result type), Monte Carlo options."""

from __future__ import annotations

import csv
import io
import json
from typing import Any

import pandas as pd
import pytest
from cli_cases import COMMANDS, MC_COMMANDS, MONTE_CARLO, run, run_json

from mathhammer import deathburgh as db
from mathhammer import force_melee as fm
from mathhammer import killteam as kt
from mathhammer.files import scenario
from mathhammer import starcraft as sc

# command -> (what its JSON result(s) are read back as, the inputs its JSON must hold)
RESULTS: dict[str, tuple[Any, tuple[str, ...]]] = {
    "killteam fight": (kt.FightResult, ("a", "b", "first", "rounds", "profiles")),
    "killteam shoot": (kt.ShootResult, ("weapon", "target", "cover", "obscured", "rounds", "profiles")),
    "starcraft attack": (sc.AttackResult, ("weapon", "unit", "options", "rules")),
    "starcraft sequence": (sc.SequenceResult, ("unit", "batches", "rules")),
    "deathburgh combat": (db.CombatResult, ("attacker", "defender", "reaction", "switches")),
    "deathburgh round": (db.RoundResult, ("scenario", "miniatures", "combats")),
    "force-melee": (fm.MeleeResult, ("a", "b", "switches")),
    "force-melee melee": (fm.MeleeResult, ("a", "b", "switches")),
    "force-melee melee-many": (fm.MeleeManyResult, ("sides", "engaged", "assignment", "switches")),
}


def _results(name: str, payload: dict[str, Any]) -> list[Any]:
    """The results a command's JSON holds, read back through from_dict."""
    if name in RESULTS:
        cls, inputs = RESULTS[name]
        for key in inputs:
            assert key in payload, key
        return [cls.from_dict(payload["result"])]
    if name == "force-melee --scenario":
        by_action = {"melee": fm.MeleeResult, "melee_many": fm.MeleeManyResult}
        assert all("inputs" in entry for entry in payload["entries"])
        return [by_action[e["action"]].from_dict(e["result"]) for e in payload["entries"]]
    if name.startswith("run"):
        outcomes = [scenario.Outcome.from_dict(o) for o in payload["outcomes"]]
        assert all(o.inputs for o in outcomes) and payload["scenario"]
        return [o.result for o in outcomes]
    assert name == "deathburgh profiles"
    return [db.Miniature(**m) for m in payload["profiles"]]


@pytest.mark.parametrize("name", COMMANDS)
def test_json_holds_inputs_and_results(capsys, name):
    payload = run_json(capsys, COMMANDS[name])
    results = _results(name, payload)
    assert results
    for result in results:
        if hasattr(result, "method"):
            assert result.method == "exact"


@pytest.mark.parametrize("name", COMMANDS)
def test_csv_markdown_and_table(capsys, name):
    code, out, err = run(capsys, [*COMMANDS[name], "--format", "csv"])
    # one table, its header first: what pandas.read_csv loads as it is
    rows = list(csv.reader(io.StringIO(out)))
    assert code == 0 and err == "" and not out.startswith("#") and "\n\n" not in out
    assert len(rows) >= 2 and len({len(row) for row in rows}) == 1, out
    frame = pd.read_csv(io.StringIO(out))
    assert list(frame.columns) == rows[0] and len(frame) == len(rows) - 1
    code, out, _ = run(capsys, [*COMMANDS[name], "--format", "markdown"])
    assert code == 0 and out.startswith("#") and "\n|---|" in out
    code, out, _ = run(capsys, COMMANDS[name])
    assert code == 0 and "┃" in out


@pytest.mark.parametrize("name", MC_COMMANDS)
def test_monte_carlo_options(capsys, name):
    payload = run_json(capsys, [*COMMANDS[name], *MONTE_CARLO])
    results = [r for r in _results(name, payload) if hasattr(r, "samples")]
    assert results and all(r.samples == 20_000 for r in results)
    again = run_json(capsys, [*COMMANDS[name], *MONTE_CARLO])
    assert again == payload  # same seed, same numbers


HELP = [[], ["killteam"], ["starcraft"], ["deathburgh"], ["killteam", "fight"], ["killteam", "shoot"],
        ["starcraft", "attack"], ["starcraft", "sequence"], ["deathburgh", "combat"], ["deathburgh", "round"], ["deathburgh", "profiles"],
        ["force-melee"], ["force-melee", "melee"], ["force-melee", "melee-many"], ["run"]]


def test_help_covers_every_command():
    words = {tuple(a for a in args if not a.startswith("-") and "/" not in a) for args in COMMANDS.values()}
    assert words <= {tuple(args) for args in HELP}


@pytest.mark.parametrize("args", HELP, ids=lambda a: " ".join(a) or "mathhammer")
def test_help_everywhere_has_an_example(capsys, args):
    code, out, _ = run(capsys, [*args, "--help"])
    assert code == 0
    assert "Example" in out and "mathhammer " in out.split("Example", 1)[1]


def test_format_is_case_insensitive_and_checked(capsys):
    code, out, _ = run(capsys, ["killteam", "shoot", "--format", "JSON"])
    assert code == 0 and json.loads(out)["method"] == "exact"


def test_version(capsys):
    code, out, _ = run(capsys, ["--version"])
    assert code == 0 and out.startswith("mathhammer ")


def test_bare_group_prints_its_help(capsys):
    code, out, err = run(capsys, ["killteam"])
    assert code == 2 and "fight" in out + err and "shoot" in out + err and "Traceback" not in out + err
