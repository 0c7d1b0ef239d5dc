"""Scenario files: several fights, shots, attacks, combats or melees with their options, run in one go.

A scenario is TOML (or JSON) with a title, optional profile libraries, and one array of tables per
action (docs/scenarios.md describes every action)::

    title = "Sergeant duels"
    profiles = ["killteam/profiles.toml"]   # libraries (see mathhammer.files.library), relative to this file

    [[killteam.fight]]
    name = "Sergeant into a Boy"
    a = "assault_intercessor_sergeant"     # a profile by name, datacard notation, or an inline table
    b = { attacks = 4, hit = 3, damage = [4, 5], wounds = 10, rules = "Brutal", strategy = "strike" }
    rounds = 1

    [[killteam.shoot]]
    weapon = "4A 3+ 3/4 Piercing Crits 1"
    target = "intercessor"
    cover = 1

    [[sweep]]
    name = "Lethal or Piercing, every save"
    action = "killteam.shoot"                 # the [[game.action]] it sweeps
    weapon = "4A 3+ 3/4"                      # its keywords, as in that action's entries
    target = "intercessor"
    seed = 7                                  # the sweep's seed (cells get derived ones)
    grid = { "weapon.rules" = ["Lethal 5+", "Piercing 1"], "target.save" = "2..6", cover = [0, 1] }

Every other key of an entry is passed to the game's function as a keyword (method, samples, seed,
rounds, cover, ...). The sections and actions are the games' descriptors (:mod:`mathhammer.games`):
every action of a game is an entry kind, and every action a sweep can run is a ``[[sweep]]``
``action``. A ``grid`` maps a keyword (or a dotted profile field) to a list of values, or to
``"a..b"`` for an integer range; its values are resolved like the entry's own (library names,
notation, tables), and the outcome is a :class:`SweepTable`, one row per cell. ``mathhammer run
FILE`` prints every result; :func:`run_scenario_file` returns them as :class:`Outcome` objects.
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from mathhammer import games
from mathhammer.core import entries as game_entries
from mathhammer.core.entries import META_KEYS, Entry
from mathhammer.core.game import Action, Game, Library
from mathhammer.core.checks import integer_span
from mathhammer.core.guard import as_path, check_depth, check_source, excerpt, loads
from mathhammer.core.variants import Variants
from mathhammer.core.results import ResultMixin
from mathhammer.errors import InputError, InputTypeError, ProfileFileError, SweepError
from mathhammer.files.library import library_document_game
from mathhammer.report.tables import Table
from mathhammer.sweeps import sweep

__all__ = [
    "META_KEYS", "ROUND_FILE_KEY", "SWEEP_KEY", "Outcome", "ScenarioEntry", "SweepTable", "load_scenario",
    "parse_scenario_text", "prepare_entries", "read_scenario_file", "run_scenario", "run_scenario_file", "sweep_tables",
    "sweepable",
]

#: ``[[sweep]]`` entries run one action over a grid.
SWEEP_KEY = "sweep"
#: A Deathburgh round file: the keywords of one round at the top level (rule switches, a table
#: ``miniatures`` and ``[[combat]]`` tables) rather than under ``[[deathburgh.round]]``.
ROUND_FILE_KEY = "miniatures"


def _sections() -> str:
    return ", ".join(f"[[{g.name}.{a.name}]]" for g, a in games.actions() if a.scenario)


def sweepable() -> tuple[str, ...]:
    """The actions a [[sweep]] entry may name ("killteam.shoot", ...): every scenario action a
    sweep can run."""
    return tuple(f"{g.name}.{a.name}" for g, a in games.actions() if a.scenario and a.sweep)


# --- outcomes -------------------------------------------------------------------------------------

def _plain_cell(value: Any) -> Any:
    if isinstance(value, (bool, int, float, str)) or value is None:
        return value
    if hasattr(value, "item") and callable(value.item):  # numpy scalars
        return value.item()
    return str(value)


@dataclasses.dataclass(frozen=True)
class SweepTable:
    """A sweep's table as plain values: ``columns`` (the ``axes`` grid columns, then the summary
    figures), one row per cell, the sweep's ``seed`` and the ``action`` swept."""

    action: str
    columns: tuple[str, ...]
    rows: tuple[tuple[Any, ...], ...]
    seed: int
    axes: int = 0

    @classmethod
    def from_frame(cls, action: str, frame: Any, axes: int = 0) -> SweepTable:
        rows = tuple(tuple(_plain_cell(v) for v in row) for row in frame.itertuples(index=False, name=None))
        return cls(action, tuple(str(c) for c in frame.columns), rows, int(frame.attrs["seed"]), axes)

    def to_frame(self) -> Any:
        import pandas as pd

        frame = pd.DataFrame(list(self.rows), columns=list(self.columns))
        frame.attrs["seed"] = self.seed
        return frame

    def to_dict(self) -> dict[str, Any]:
        return {"action": self.action, "columns": list(self.columns), "rows": [list(r) for r in self.rows],
                "seed": self.seed, "axes": self.axes}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> SweepTable:
        return cls(str(data["action"]), tuple(data["columns"]), tuple(tuple(r) for r in data["rows"]),
                   int(data["seed"]), int(data.get("axes", 0)))


def sweep_tables(table: SweepTable, title: str = "") -> tuple[list[Table], list[str]]:
    """A [[sweep]] entry's table as ``mathhammer run`` prints it: one row per cell."""
    prefix = f"{title}: " if title else ""
    rows = [list(row) for row in table.rows]
    return ([Table(f"{prefix}Sweep: {table.action}", list(table.columns), rows, keys=table.axes)],
            [f"{prefix}{len(rows):,} cells; seed {table.seed}"])


@dataclasses.dataclass(frozen=True)
class Outcome(ResultMixin):
    """The result of one scenario entry, with the inputs it ran on (profiles as plain fields)."""

    game: str
    action: str
    name: str
    inputs: dict[str, Any]
    result: Any

    def to_dict(self) -> dict[str, Any]:
        return {"game": self.game, "action": self.action, "name": self.name, "inputs": self.inputs,
                "result": self.result.to_dict()}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Outcome:
        """An outcome from :meth:`to_dict`'s payload; a payload of another shape is an InputError
        naming the key."""
        if not isinstance(data, Mapping):
            raise InputTypeError("outcome", f"expected a table, got {excerpt(data)}")
        check_depth("outcome", data)
        for key in ("game", "action", "name"):
            if not isinstance(data.get(key), str):
                raise InputError(key, f"expected a string, got {excerpt(data.get(key))}")
        if data["game"] == SWEEP_KEY:
            return cls(data["game"], data["action"], data["name"], dict(data.get("inputs", {})),
                       SweepTable.from_dict(data["result"]))
        found = _scenario_action(data["game"], data["action"])
        if found is None:
            raise InputError("action", f"unknown action {excerpt(data['game'] + '.' + data['action'])}; "
                             f"actions: {_sections()}")
        inputs = game_entries.check_inputs("inputs", data.get("inputs", {}))
        if "result" not in data:
            raise InputError("result", "missing")
        try:
            result = found.result.from_dict(data["result"])  # type: ignore[attr-defined]
        except InputError as error:
            raise type(error)(f"result.{error.field}", str(error).split(": ", 1)[1]) from None
        return cls(data["game"], data["action"], data["name"], inputs, result)

    def to_frame(self) -> Any:
        """The result's own frame, with game, action and name columns in front."""
        frame = self.result.to_frame()
        for position, column in enumerate(("game", "action", "name")):
            frame.insert(position, column, getattr(self, column))
        return frame


def _scenario_action(game_name: str, action_name: str) -> Action | None:
    for game, action in games.actions():
        if game.name == game_name and action.name == action_name and action.scenario:
            return action
    return None


# --- reading ----------------------------------------------------------------------------------------

def load_scenario(path: str | Path) -> dict[str, Any]:
    """The content of a scenario file (TOML or JSON)."""
    path = as_path(path)
    data = game_entries.read_file(path)
    if not isinstance(data, Mapping):
        raise ProfileFileError(str(path), "a scenario file holds a table")
    return dict(data)


def parse_scenario_text(text: str, source: str = "scenario") -> dict[str, Any]:
    """A scenario from TOML text."""
    if not isinstance(text, str):
        raise InputTypeError("text", f"expected TOML text, got {excerpt(text)}")
    try:
        data = loads(text, "toml", source)
    except InputError as error:
        raise ProfileFileError(source, str(error).split(": ", 1)[1]) from None
    return data  # type: ignore[no-any-return]


def _libraries(scenario: Mapping[str, Any], base: Path, source: str, allow_outside: bool = False) -> dict[str, Library]:
    files = game_entries.library_files(scenario, base, source, allow_outside)
    return game_entries.load_libraries(files, lambda data, where: games.game(library_document_game(data, where)))


def _entries(scenario: Mapping[str, Any], source: str) -> list[tuple[Game, Action, int, dict[str, Any]]]:
    """Every entry of the scenario in file order, checked for known sections and actions."""
    if ROUND_FILE_KEY in scenario:
        deathburgh = games.game("deathburgh")
        round_entry = {key: value for key, value in scenario.items() if key not in META_KEYS}
        return [(deathburgh, deathburgh.action("round"), 0, round_entry)]
    found: list[tuple[Game, Action, int, dict[str, Any]]] = []
    for section, actions in scenario.items():
        if section in META_KEYS:
            continue
        if section == SWEEP_KEY:
            found += _sweep_entries(actions, source)
            continue
        if section not in games.names() or not isinstance(actions, Mapping):
            raise ProfileFileError(source, f"unknown section {excerpt(section)}; sections: {_sections()}")
        game = games.game(section)
        found += [(game, action, index, kwargs)
                  for action, index, kwargs in game_entries.section_entries(game, actions, source, _sections())]
    if not found:
        raise ProfileFileError(source, f"no entries; write at least one of {_sections()}")
    return found


def prepare_entries(
    scenario: Mapping[str, Any],
    base: Path | None = None,
    source: str = "scenario",
    overrides: Mapping[str, Any] | None = None,
    allow_outside: bool = False,
) -> list[ScenarioEntry]:
    """Every entry of a scenario (as loaded from its file), checked and with its profiles built, in
    file order; nothing runs yet. ``base`` and ``overrides`` as in :func:`run_scenario`.

    A key that is not a keyword of the entry's function (nor ``name``) is an error naming the
    source, the entry and the key, listing the allowed keys. A Deathburgh round file (``miniatures``
    and ``[[combat]]`` at the top level) is one ``[[deathburgh.round]]`` entry.
    """
    check_source(source)
    if not isinstance(scenario, Mapping):
        raise ProfileFileError(source, "a scenario holds a table")
    libraries = _libraries(scenario, base or Path("."), source, allow_outside is True)
    prepared: list[ScenarioEntry] = []
    for game, action, index, kwargs in _entries(scenario, source):
        if game.name == SWEEP_KEY:  # a [[sweep]]: the library of the game it sweeps
            swept = action.name.split(".")[0]
            where = f"{SWEEP_KEY}.{action.name}[{index}]"
            prepared.append(game_entries.entry(game, action, index, kwargs, libraries.get(swept, {}), source,
                                               overrides, where, ScenarioEntry))
        else:
            prepared.append(game_entries.entry(game, action, index, kwargs, libraries.get(game.name, {}), source,
                                               overrides, make=ScenarioEntry))
    return prepared


@dataclasses.dataclass(frozen=True)
class ScenarioEntry(Entry):
    """A prepared entry of a scenario file (:class:`mathhammer.core.entries.Entry`) that runs into an
    :class:`Outcome`."""

    def run(self, progress: Any = None, **overrides: Any) -> Outcome:
        """Call the game's function; ``overrides`` replace keywords (not echoed in ``inputs``)."""
        return Outcome(self.game, self.action.name, self.name, self.inputs, self.call(progress, **overrides))


def run_scenario(
    scenario: Mapping[str, Any],
    base: Path | None = None,
    source: str = "scenario",
    progress: Callable[[str], Any] | None = None,
    overrides: Mapping[str, Any] | None = None,
    allow_outside: bool = False,
) -> list[Outcome]:
    """Run every entry of a scenario (as loaded from its file) and return the outcomes in file order.

    ``base``: the folder ``profiles`` paths are relative to; they must stay inside it unless
    ``allow_outside`` is True. ``overrides`` replace keywords of every
    entry (e.g. ``{"method": "monte_carlo", "seed": 1}``). ``progress(description)`` may return a
    callable(done, total) that receives an entry's Monte Carlo progress. Every error names the
    source, the entry and the field; every entry is checked before the first one runs.
    """
    return [entry.run(progress(entry.name) if progress is not None else None)
            for entry in prepare_entries(scenario, base, source, overrides, allow_outside)]


def run_scenario_file(
    path: str | Path,
    progress: Callable[[str], Any] | None = None,
    overrides: Mapping[str, Any] | None = None,
    allow_outside: bool = False,
) -> list[Outcome]:
    """Run a scenario file (see :func:`run_scenario`); ``profiles`` paths are relative to the file's
    folder and stay inside it unless ``allow_outside`` is True."""
    path = as_path(path)
    return run_scenario(load_scenario(path), base=path.parent, source=str(path), progress=progress,
                        overrides=overrides, allow_outside=allow_outside)


def read_scenario_file(
    path: str | Path, overrides: Mapping[str, Any] | None = None, allow_outside: bool = False
) -> list[ScenarioEntry]:
    """The checked entries of a scenario file (see :func:`prepare_entries`), ready to run."""
    path = as_path(path)
    return prepare_entries(load_scenario(path), base=path.parent, source=str(path), overrides=overrides,
                           allow_outside=allow_outside)


# --- [[sweep]] entries ------------------------------------------------------------------------------

def run_sweep(progress: Any = None, **kwargs: Any) -> SweepTable:
    """Run a prepared [[sweep]] entry (see :func:`_sweep_action`)."""
    game_name, _, name = str(kwargs["action"]).partition(".")
    function = games.action(game_name, name).function
    fixed = dict(kwargs["fixed"])
    # A list keyword (a sequence's batches, the engaged pairs) would be an axis to mathhammer.sweep:
    # bind those to the function instead.
    sequences = {key: fixed.pop(key) for key in list(fixed) if isinstance(fixed[key], (list, tuple, range))}
    if sequences:
        function = functools.partial(function, **sequences)
    try:
        frame = sweep(function, seed=kwargs.get("seed"), progress=progress, **kwargs["grid"], **fixed)
    except SweepError as error:  # a cell's own error (a name only the engine resolves): name the cell
        raise InputError("grid", str(error)) from None
    except InputError as error:  # a grid value the engine refused before any cell ran: name its key
        if error.field not in kwargs["grid"]:
            raise
        raise type(error)(f"grid.{error.field}", str(error)[len(error.field) + 2:]) from None
    return SweepTable.from_frame(kwargs["action"], frame, len(kwargs["grid"]))


#: The pseudo-game of [[sweep]] entries: its actions are made per entry (:func:`_sweep_action`), each
#: running :func:`run_sweep`; its SweepTable prints as :func:`sweep_tables`.
_SWEEP_GAME = Game(SWEEP_KEY, "sweeps", (), {}, Variants, printers={SweepTable: sweep_tables})


def _sweep_entries(items: Any, source: str) -> list[tuple[Game, Action, int, dict[str, Any]]]:
    items = [items] if isinstance(items, Mapping) else items
    if not isinstance(items, list):
        raise ProfileFileError(source, "sweep: expected [[sweep]] tables")
    found = []
    for index, item in enumerate(items):
        if not isinstance(item, Mapping):
            raise ProfileFileError(source, f"sweep[{index}]: expected a table of keywords")
        try:
            found.append((_SWEEP_GAME, _sweep_action(item), index, dict(item)))
        except InputError as error:
            raise ProfileFileError(source, f"sweep[{index}]: {error}") from None
    return found


def _values(key: str, value: Any) -> list[Any] | range:
    if isinstance(value, str):
        span = integer_span(f"grid.{key}", value)
        if span is None:
            raise InputError(f"grid.{key}", f"{excerpt(value)}: expected a list of values or an integer range 'a..b'")
        return range(span[0], span[1] + 1)  # kept a range: the sweep checks its ends and counts its cells, lists nothing
    if not isinstance(value, list) or not value:
        raise InputTypeError(f"grid.{key}", f"expected a non-empty list of values or 'a..b', got {excerpt(value)}")
    return value


def _resolve(game: Game, target: Action, kwargs: dict[str, Any], library: Any, where: dict[str, int]) -> dict[str, Any]:
    """The keywords resolved as an entry's are, an error in a grid value named by its place:
    ``grid.weapon[2]``."""
    try:
        return game_entries.resolve_keywords(game, target, kwargs, library)
    except InputError as error:
        top = error.field.split(".")[0].split("[")[0]
        if top not in where:
            raise
        message = str(error)[len(error.field) + 2:]
        raise type(error)(f"grid.{top}[{where[top]}]{error.field[len(top):]}", message) from None


def _sweep_action(entry: Mapping[str, Any]) -> Action:
    """The Action that runs a [[sweep]] entry: its keywords are checked and its profiles built
    against the swept action."""
    name = entry.get("action")
    if name not in sweepable():
        raise InputError("action", f"expected the action to sweep, one of {', '.join(sweepable())}; got {excerpt(name)}")
    game_name, action_name = str(name).split(".")
    game = games.game(game_name)
    target = game.action(action_name)

    def prepare(kwargs: dict[str, Any], library: Any) -> dict[str, Any]:
        kwargs.pop("action", None)
        grid = kwargs.pop("grid", None)
        seed = kwargs.pop("seed", None)
        if not isinstance(grid, Mapping) or not grid:
            raise InputError("grid", "expected a table of keyword -> list of values, e.g. grid = { cover = [0, 1] }")
        grid = dict(grid)
        for alias, keyword in target.aliases.items():
            for table in (kwargs, grid):
                if alias in table:
                    table[keyword] = table.pop(alias)
        allowed = target.keys()
        if allowed is not None:
            game_entries.check_keys(kwargs, allowed)
            game_entries.check_keys({k.split(".")[0]: v for k, v in grid.items()}, allowed, "grid.")
        values = {key: _values(key, value) for key, value in grid.items()}
        missing = [k for k in target.required() if k not in kwargs and k not in values]
        if missing:
            raise InputError(missing[0], f"missing; a sweep of {name} needs {', '.join(target.required())}")
        # Each grid value is resolved as the entry's own keyword would be (library names, notation,
        # tables), beside the fixed keywords and the other axes' first values, which some actions'
        # name resolution reads.
        first = {key: axis[0] for key, axis in values.items()}
        fixed = _resolve(game, target, {**kwargs, **first}, library, {key: 0 for key in first})
        # (an integer range names nothing: it goes to the sweep as it is, which checks its ends)
        axes = {key: axis if isinstance(axis, range) else
                [_resolve(game, target, {**kwargs, **first, key: value}, library, {key: i})[key]
                 for i, value in enumerate(axis)]
                for key, axis in values.items()}
        kwargs = {key: value for key, value in fixed.items() if key not in axes}
        return {"action": name, "grid": axes, "fixed": kwargs, "seed": seed}

    return Action(str(name), run_sweep, SweepTable, help=f"a sweep of {name} over a grid", prepare=prepare)
