"""Force melee scenario files: the ``force_melee`` entries of a scenario, read through the game's
descriptor as every scenario is (:mod:`mathhammer.core.entries`; ``mathhammer run`` runs them all).

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
samples, seed, ...); any other key is an error listing the allowed ones. Sections of other games
are ignored here (``mathhammer run`` runs them all).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from mathhammer.core.entries import META_KEYS, game_entries, read_file
from mathhammer.core.game import find_profile
from mathhammer.core.guard import as_path, excerpt
from mathhammer.errors import InputError, InputTypeError, ProfileFileError
from mathhammer.force_melee._game import GAME
from mathhammer.force_melee.catalog import EXAMPLES

__all__ = ["ScenarioEntry", "force_melee_only", "load_scenario", "parse_scenario", "run_scenario"]

ACTIONS: tuple[str, ...] = tuple(action.name for action in GAME.actions if action.scenario)


@dataclass(frozen=True)
class ScenarioEntry:
    """One melee of a scenario: the action ("melee" or "melee_many"), its label and its keywords."""

    action: str
    name: str
    kwargs: dict[str, Any]

    def run(self, **overrides: Any) -> Any:
        """Run the entry; ``overrides`` replace its keywords (e.g. method, samples, seed)."""
        return GAME.action(self.action).function(**{**self.kwargs, **overrides})


def force_melee_only(data: Any, source: str = "scenario") -> dict[str, Any]:
    """The scenario keeping only its ``force_melee`` section (and title, description, profiles),
    which must hold melee or melee_many entries."""

    if not isinstance(data, Mapping):
        raise InputTypeError(source, "a scenario holds a table")
    section = data.get("force_melee")
    if section is None:
        raise InputError(source, "no [[force_melee.melee]] or [[force_melee.melee_many]] entries")
    if not isinstance(section, Mapping):
        raise InputTypeError(source, "force_melee: expected tables [[force_melee.melee]] / [[force_melee.melee_many]]")
    for action, items in section.items():
        if action not in ACTIONS:
            raise InputError(source, f"unknown action force_melee.{action}; actions: {', '.join(ACTIONS)}")
        if "profiles" in data:  # names may come from the libraries; the loader says which are known
            continue
        for index, item in enumerate([items] if isinstance(items, Mapping) else items):
            if not isinstance(item, Mapping):
                continue  # the loader reports it
            named = {key: item.get(key) for key in ("a", "b")}
            if isinstance(item.get("sides"), Mapping):
                named.update({f"sides.{k}": v for k, v in item["sides"].items()})
            for key, value in named.items():
                if isinstance(value, str) and find_profile(value, EXAMPLES) is None:
                    raise InputError(source, f"force_melee.{action}[{index}]: {key}: unknown example profile "
                                     f"{excerpt(value)}; examples: {', '.join(EXAMPLES)}")
    return {key: value for key, value in data.items() if key in META_KEYS or key == "force_melee"}


def parse_scenario(data: Mapping[str, Any], source: str = "scenario", base: Path | None = None) -> list[ScenarioEntry]:
    """The force_melee entries of a loaded scenario, with their profiles built and checked."""
    entries = game_entries(GAME, force_melee_only(data, source), base=base, source=source)
    return [ScenarioEntry(entry.action.name, entry.name, entry.kwargs) for entry in entries]


def _read(path: Path) -> dict[str, Any]:
    data = read_file(path)
    if not isinstance(data, Mapping):
        raise ProfileFileError(str(path), "a scenario file holds a table")
    return dict(data)


def load_scenario(path: str | Path) -> list[ScenarioEntry]:
    """Read a scenario file and return its force_melee entries (see the module docstring)."""
    path = as_path(path)
    return parse_scenario(_read(path), str(path), path.parent)


def run_scenario(
    path: str | Path, progress: Callable[[str], Any] | None = None, **overrides: Any
) -> list[tuple[str, Any]]:
    """Run every force_melee entry of a scenario file: [(name, result), ...] in file order.

    ``overrides`` replace keywords of every entry (e.g. ``method="monte_carlo", seed=1``);
    ``progress(name)`` may return a Monte Carlo progress callback for that entry.
    """
    path = as_path(path)
    data = force_melee_only(_read(path), str(path))
    entries = game_entries(GAME, data, base=path.parent, source=str(path), overrides=overrides)
    return [(entry.name, entry.call(progress(entry.name) if progress is not None else None)) for entry in entries]
