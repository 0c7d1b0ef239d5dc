"""Force melee scenario files: melees to run, written in the project's scenario layout.

A file (TOML or JSON) holds a ``title`` and arrays of tables under ``force_melee``::

    title = "Squads and a Walker"

    [[force_melee.melee]]                 # one exchange: fm.melee(a, b, **switches)
    name = "Line Troopers vs Militia"
    winner_damage = "once"
    a = "line_troopers"                   # an example profile by name, or a table of fields:
    [force_melee.melee.b]
    dice = 2
    unit = { models = 5, hp = 1, name = "Militia squad" }
    weapon = { hit = 5, force = 2 }

    [[force_melee.melee_many]]            # several units: fm.melee_many(sides, engaged, assignment)
    name = "Two squads charge a Walker"
    engaged = [["troopers", "walker"], ["militia", "walker"]]
    assignment = { walker = { troopers = 3, militia = 1 } }
    sides = { troopers = "line_troopers", militia = "militia", walker = "walker" }

Every other key of an entry is a keyword of the function (winner_damage, allocation, method,
samples, seed, ...). Sections of other games are ignored here.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from mathhammer._validate import InputError, InputTypeError
from mathhammer.force_melee.profiles import EXAMPLES, Side, as_side

ACTIONS: tuple[str, ...] = ("melee", "melee_many")


@dataclass(frozen=True)
class ScenarioEntry:
    """One melee of a scenario: the action ("melee" or "melee_many"), its label and its keywords."""

    action: str
    name: str
    kwargs: dict[str, Any]

    def run(self, **overrides: Any) -> Any:
        """Run the entry; ``overrides`` replace its keywords (e.g. method, samples, seed)."""
        from mathhammer.force_melee import engine

        function = engine.melee if self.action == "melee" else engine.melee_many
        return function(**{**self.kwargs, **overrides})


def _side(value: Any, field: str) -> Side:
    if isinstance(value, str):
        if value not in EXAMPLES:
            raise InputError(field, f"unknown example profile {value!r}; examples: {', '.join(EXAMPLES)}")
        return EXAMPLES[value]
    return as_side(value, field)


def _read(path: Path) -> Any:
    from mathhammer.library import _read as read_profile_file  # the same reading, the same errors

    return read_profile_file(path)


def parse_scenario(data: Mapping[str, Any], source: str = "scenario") -> list[ScenarioEntry]:
    """The force_melee entries of a loaded scenario, with their profiles built and checked."""
    if not isinstance(data, Mapping):
        raise InputTypeError(source, "a scenario holds a table")
    section = data.get("force_melee")
    if section is None:
        raise InputError(source, "no [[force_melee.melee]] or [[force_melee.melee_many]] entries")
    if not isinstance(section, Mapping):
        raise InputTypeError(source, "force_melee: expected tables [[force_melee.melee]] / [[force_melee.melee_many]]")
    entries: list[ScenarioEntry] = []
    for action, items in section.items():
        if action not in ACTIONS:
            raise InputError(source, f"unknown action force_melee.{action}; actions: {', '.join(ACTIONS)}")
        if isinstance(items, Mapping):
            items = [items]
        for index, item in enumerate(items):
            where = f"force_melee.{action}[{index}]"
            if not isinstance(item, Mapping):
                raise InputTypeError(source, f"{where}: expected a table of keywords")
            kwargs = dict(item)
            label = str(kwargs.pop("name", f"{action} {index + 1}"))
            try:
                if action == "melee":
                    for key in ("a", "b"):
                        if key not in kwargs:
                            raise InputError(key, "missing; a melee needs sides a and b")
                        kwargs[key] = _side(kwargs[key], key)
                else:
                    sides = kwargs.get("sides")
                    if not isinstance(sides, Mapping):
                        raise InputError("sides", "missing; a melee_many needs a table of named sides")
                    kwargs["sides"] = {name: _side(side, f"sides.{name}") for name, side in sides.items()}
            except (InputError, InputTypeError) as error:
                raise InputError(source, f"{where} ({label}): {error}") from None
            entries.append(ScenarioEntry(action, label, kwargs))
    return entries


def load_scenario(path: str | Path) -> list[ScenarioEntry]:
    """Read a scenario file and return its force_melee entries (see the module docstring)."""
    path = Path(path)
    return parse_scenario(_read(path), str(path))


def run_scenario(
    path: str | Path, progress: Callable[[str], Any] | None = None, **overrides: Any
) -> list[tuple[str, Any]]:
    """Run every force_melee entry of a scenario file: [(name, result), ...] in file order.

    ``overrides`` replace keywords of every entry (e.g. ``method="monte_carlo", seed=1``);
    ``progress(name)`` may return a Monte Carlo progress callback for that entry.
    """
    results = []
    for entry in load_scenario(path):
        extra = dict(overrides)
        if progress is not None:
            callback = progress(entry.name)
            if callback is not None:
                extra.setdefault("progress", callback)
        try:
            results.append((entry.name, entry.run(**extra)))
        except (InputError, InputTypeError) as error:
            raise InputError(str(path), f"{entry.action} ({entry.name}): {error}") from None
    return results
