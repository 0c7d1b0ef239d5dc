"""The game descriptors (``<game>.GAME``, read through ``mathhammer.games``) and what is generated
from them: the command line is written per game and held to them here, and one toy action added to
a descriptor appears in scenario files, sweeps and the profile libraries with no other edit."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import typer

import mathhammer as mh
from mathhammer import games
from mathhammer import killteam as kt
from mathhammer.cli import main
from mathhammer.cli.games import GAME_APPS
from mathhammer.core.checks import check_int
from mathhammer.core.distributions import Distribution
from mathhammer.core.game import Action
from mathhammer.core.profiles import FieldsProfile
from mathhammer.core.results import EngineResult, Figure
from mathhammer.files import library, scenario
from mathhammer.report.tables import Table


def _commands(game: str) -> set[str]:
    return {info.name for info in GAME_APPS[game][1]().registered_commands if info.name}


def missing_commands() -> list[tuple[str, str]]:
    """The (game, action) of every action of a descriptor that has no command in the game's CLI."""
    return [(game.cli, action.cli) for game, action in games.actions() if action.cli not in _commands(game.cli)]


def test_every_game_has_its_command_group() -> None:
    assert sorted(GAME_APPS) == sorted(game.cli for game in games.all_games())
    for name, (line, load) in GAME_APPS.items():
        app = load()
        assert isinstance(app, typer.Typer) and app.info.help == line  # the root --help says what the group does


def test_every_action_has_its_command() -> None:
    assert missing_commands() == []


def test_every_game_exposes_its_descriptor_and_names_its_actions() -> None:
    for game in games.all_games():
        package = getattr(mh, game.name)
        assert package.GAME is game and "GAME" in package.__all__
        for action in game.actions:
            assert getattr(package, action.function.__name__) is action.function, action.name
            assert action.function.__name__ in package.__all__
            if action.batch is not None:
                assert getattr(package, action.batch.__name__) is action.batch


# --- one toy action, added to Kill Team's descriptor ------------------------------------------------

@dataclass(frozen=True)
class ToyDie(FieldsProfile):
    """A die of ``sides`` faces (a profile kind of the toy action)."""

    KIND = "toy_die"
    sides: int = 6

    def __post_init__(self) -> None:
        object.__setattr__(self, "sides", check_int("sides", self.sides, 1, 100))


@dataclass(frozen=True)
class ToyResult(EngineResult):
    total: Distribution
    method: str = "exact"
    samples: int | None = None
    seed: int | None = None

    def _figures(self) -> dict[str, Figure]:
        return {"mean_total": (self.total.mean, None)}


def toy(die: ToyDie, times: int = 1, *, seed: int | None = None) -> ToyResult:
    """The total of ``times`` rolls of the die, exactly."""
    face = Distribution([1.0 / die.sides] * die.sides, start=1)
    total = sum([face] * check_int("times", times, 1, 10), Distribution.point(0))
    return ToyResult(total)


TOY_BATCH_CALLS: list[int] = []


def toy_batch(dies: Any, times: Any = 1, *, seed: Any = None) -> list[ToyResult]:
    size = max(len(v) for v in (dies, times, seed) if isinstance(v, list)) if any(
        isinstance(v, list) for v in (dies, times, seed)) else 1
    TOY_BATCH_CALLS.append(size)
    column = [v if isinstance(v, list) else [v] * size for v in (dies, times)]
    return [toy(d, t) for d, t in zip(*column)]


def toy_tables(result: ToyResult, title: str = "") -> tuple[list[Table], list[str]]:
    return [Table(f"{title}Toy total", ["total", "P(=)"], [[int(v), float(p)] for v, p in
                                                           zip(result.total.values, result.total.pmf)])], ["a toy"]


@pytest.fixture
def with_toy(monkeypatch: pytest.MonkeyPatch) -> Action:
    action = Action("toy", toy, ToyResult, "a toy action", printer=toy_tables, batch=toy_batch,
                    profiles={"die": "toy_die"})
    descriptor = dataclasses.replace(kt.GAME, actions=(*kt.GAME.actions, action),
                                     profile_kinds={**kt.GAME.profile_kinds, "toy_die": ToyDie})
    monkeypatch.setattr(kt, "GAME", descriptor)
    return action


def test_a_toy_action_runs_in_scenario_files(with_toy: Action, tmp_path: Path) -> None:
    (tmp_path / "dice.toml").write_text('game = "killteam"\n[toy_die.d4]\nsides = 4\n')
    text = ('profiles = ["dice.toml"]\n[[killteam.toy]]\nname = "two d4"\ndie = "d4"\ntimes = 2\n'
            '[[killteam.toy]]\ndie = { sides = 6 }\n')
    (tmp_path / "toy.toml").write_text(text)
    outcomes = scenario.run_scenario_file(tmp_path / "toy.toml")
    assert [o.name for o in outcomes] == ["two d4", "killteam toy 2"]
    two_d4 = outcomes[0].result.total
    assert two_d4.start == 2 and two_d4.pmf.tolist() == pytest.approx([1 / 16, 2 / 16, 3 / 16, 4 / 16, 3 / 16, 2 / 16, 1 / 16])
    assert outcomes[1].result.total.mean == pytest.approx(3.5)
    # the scenario's payload loads back through the descriptor
    again = scenario.Outcome.from_dict(json.loads(outcomes[0].to_json()))
    assert again.result.total == two_d4
    # and the result prints with its printer, in mathhammer run as everywhere
    assert "Toy total" in outcomes[0].result.to_markdown()
    with pytest.raises(mh.InputError, match="tims.*did you mean 'times'"):
        scenario.run_scenario(scenario.parse_scenario_text('[[killteam.toy]]\ndie = { sides = 6 }\ntims = 2\n'))


def test_a_toy_action_runs_in_sweeps(with_toy: Action) -> None:
    TOY_BATCH_CALLS.clear()
    frame = mh.sweep(toy, die=ToyDie(6), times=[1, 2, 3], chunk=3)
    assert frame["mean_total"].tolist() == pytest.approx([3.5, 7.0, 10.5])
    assert TOY_BATCH_CALLS == [3]  # through its batch form, one call for the chunk
    table = scenario.run_scenario(scenario.parse_scenario_text(
        '[[sweep]]\naction = "killteam.toy"\ndie = { sides = 4 }\ngrid = { times = "1..2", "die.sides" = [4, 8] }\n'))
    assert table[0].result.rows == ((1, 4, 2.5), (1, 8, 4.5), (2, 4, 5.0), (2, 8, 9.0))
    assert "killteam.toy" in scenario.sweepable()


def test_a_toy_action_s_profiles_are_library_entries(with_toy: Action, tmp_path: Path) -> None:
    path = tmp_path / "dice.toml"
    library.save_library(path, "killteam", {"toy_die": {"d12": ToyDie(12)}})
    loaded = mh.load_library(path)
    assert loaded == {"toy_die": {"d12": ToyDie(12)}}
    assert library.resolve_profile("killteam", "toy_die", "d12", loaded) == ToyDie(12)
    assert "toy_die" in library.profile_kinds("killteam")
    path.write_text('game = "killteam"\n[toy_die.d0]\nsides = 0\n')
    with pytest.raises(mh.InputError, match=r"toy_die\.d0: sides: 0 is out of range"):
        mh.load_library(path)


def test_a_toy_action_needs_its_command(with_toy: Action, capsys: pytest.CaptureFixture[str]) -> None:
    assert missing_commands() == [("killteam", "toy")]  # until cli/killteam.py has `mathhammer killteam toy`
    assert main(["killteam", "toy"]) == 2
    assert "No such command 'toy'" in capsys.readouterr().err


def test_scenario_and_sweep_actions_are_the_descriptors(with_toy: Action) -> None:
    for game, action in games.actions():
        if action.scenario:
            assert games.action(game.name, action.name) is action
    assert set(scenario.sweepable()) == {f"{g.name}.{a.name}" for g, a in games.actions() if a.scenario and a.sweep}
    assert isinstance(kt.GAME.builtin, Mapping)
