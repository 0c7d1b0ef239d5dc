"""``[[sweep]]`` entries of scenario files: one action over a grid, run by ``mathhammer run``.

::

    [[sweep]]
    name = "Lethal or Piercing, every save"
    action = "killteam.shoot"                 # the [[game.action]] it sweeps
    weapon = "4A 3+ 3/4"                      # its keywords, as in that action's entries
    target = "intercessor"
    seed = 7                                  # the sweep's seed (cells get derived ones)
    grid = { "weapon.rules" = ["Lethal 5+", "Piercing 1"], "target.save" = "2..6", cover = [0, 1] }

``grid`` maps a keyword (or a dotted profile field) to a list of values, or to ``"a..b"`` for an
integer range; a profile keyword's values are resolved like the entry's own (library names,
notation, tables). The outcome is a :class:`SweepTable`, one row per cell.
"""

from __future__ import annotations

import dataclasses
import functools
import re
from collections.abc import Mapping
from typing import Any

from mathhammer._validate import InputError, InputTypeError

__all__ = ["SWEEPABLE", "SweepTable", "run_sweep", "sweep_action"]

#: The actions a [[sweep]] entry may name: every scenario action.
SWEEPABLE = ("killteam.fight", "killteam.shoot", "starcraft.attack", "starcraft.sequence", "deathburgh.combat",
             "deathburgh.round", "force_melee.melee", "force_melee.melee_many")


def _plain(value: Any) -> Any:
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
        rows = tuple(tuple(_plain(v) for v in row) for row in frame.itertuples(index=False, name=None))
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


def run_sweep(progress: Any = None, **kwargs: Any) -> SweepTable:
    """Run a prepared [[sweep]] entry (see :func:`sweep_action`)."""
    from mathhammer import scenario
    from mathhammer.sweep import SweepError, sweep

    game, _, name = str(kwargs["action"]).partition(".")
    function = scenario.ACTIONS[(game, name)].resolve()
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
    return SweepTable.from_frame(kwargs["action"], frame, len(kwargs["grid"]))


def _values(key: str, value: Any) -> list[Any]:
    if isinstance(value, str):
        match = re.fullmatch(r"\s*(-?\d+)\s*\.\.\s*(-?\d+)\s*", value)
        if not match:
            raise InputError(f"grid.{key}", f"{value!r}: expected a list of values or an integer range 'a..b'")
        lo, hi = int(match.group(1)), int(match.group(2))
        if lo > hi:
            raise InputError(f"grid.{key}", f"{value!r} runs backwards; write it low..high")
        return list(range(lo, hi + 1))
    if not isinstance(value, list) or not value:
        raise InputTypeError(f"grid.{key}", f"expected a non-empty list of values or 'a..b', got {value!r}")
    return value


def _resolve(scenario: Any, target: Any, kwargs: dict[str, Any], library: Any, where: dict[str, int]) -> dict[str, Any]:
    """``scenario.resolve_keywords``, an error in a grid value named by its place: ``grid.weapon[2]``."""
    try:
        resolved: dict[str, Any] = scenario.resolve_keywords(target, kwargs, library)
        return resolved
    except (InputError, InputTypeError) as error:
        top = error.field.split(".")[0].split("[")[0]
        if top not in where:
            raise
        message = str(error)[len(error.field) + 2:]
        raise type(error)(f"grid.{top}[{where[top]}]{error.field[len(top):]}", message) from None


def sweep_action(index: int, entry: Mapping[str, Any]) -> Any:
    """The scenario Action that runs [[sweep]] entry ``index``: its keywords are checked and its
    profiles built against the swept action (``mathhammer.scenario``)."""
    from mathhammer import scenario
    
    name = entry.get("action")
    if name not in SWEEPABLE:
        raise InputError("action", f"expected the action to sweep, one of {', '.join(SWEEPABLE)}; got {name!r}")
    game, action_name = str(name).split(".")
    target = scenario.ACTIONS[(game, action_name)]

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
            scenario._check_keys(kwargs, allowed)
            scenario._check_keys({k.split(".")[0]: v for k, v in grid.items()}, allowed, "grid.")
        values = {key: _values(key, value) for key, value in grid.items()}
        missing = [k for k in target.required() if k not in kwargs and k not in values]
        if missing:
            raise InputError(missing[0], f"missing; a sweep of {name} needs {', '.join(target.required())}")
        # Each grid value is resolved as the entry's own keyword would be (library names, notation,
        # tables), beside the fixed keywords and the other axes' first values, which some actions'
        # name resolution reads.
        first = {key: axis[0] for key, axis in values.items()}
        fixed = _resolve(scenario, target, {**kwargs, **first}, library, {key: 0 for key in first})
        axes = {key: [_resolve(scenario, target, {**kwargs, **first, key: value}, library, {key: i})[key]
                      for i, value in enumerate(axis)]
                for key, axis in values.items()}
        kwargs = {key: value for key, value in fixed.items() if key not in axes}
        return {"action": name, "grid": axes, "fixed": kwargs, "seed": seed}

    return scenario.Action("sweep", str(name), "mathhammer.sweep_scenario:run_sweep",
                           "mathhammer.sweep_scenario:SweepTable", help=f"a sweep of {name} over a grid",
                           prepare=prepare)
