"""Scenario files: several attacks, shots, fights or combats with their options, run in one go.

A scenario is TOML (or JSON) with a title, optional profile libraries, and one array of tables per
action::

    title = "Sergeant duels"
    profiles = ["profiles.toml"]        # libraries (see mathhammer.library), relative to this file

    [[killteam.fight]]
    name = "Sergeant into a Boy"
    a = "assault_intercessor_sergeant"   # a profile by name, datacard notation, or an inline table
    b = { attacks = 4, hit = 3, damage = [4, 5], wounds = 10, rules = "Brutal", strategy = "strike" }
    rounds = 1

    [[killteam.shoot]]
    weapon = "4A 3+ 3/4 Piercing Crits 1"
    target = "intercessor"
    cover = 1

Every other key of an action is passed to the game's function as a keyword (method, samples, seed,
rounds, cover, ...). ``mathhammer run FILE`` prints every result; ``run_scenario`` returns them.
"""

from __future__ import annotations

import dataclasses
import importlib
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from mathhammer._validate import InputError
from mathhammer.library import ProfileFileError, _read, parse_library, profile_class, profile_from_dict


@dataclasses.dataclass(frozen=True)
class Action:
    """One kind of scenario entry: the function it calls and which arguments are profiles."""

    game: str
    name: str
    function: str  # "module:function"
    profiles: Mapping[str, str]  # argument -> profile kind
    help: str = ""

    def resolve(self) -> Callable[..., Any]:
        module, name = self.function.split(":")
        return getattr(importlib.import_module(module), name)


ACTIONS: dict[tuple[str, str], Action] = {}


def register_action(action: Action) -> None:
    ACTIONS[(action.game, action.name)] = action


register_action(Action("killteam", "fight", "mathhammer.killteam:fight", {"a": "fighter", "b": "fighter"},
                       "a Kill Team fight between fighters a and b"))
register_action(Action("killteam", "shoot", "mathhammer.killteam:shoot", {"weapon": "weapon", "target": "operative"},
                       "a Kill Team shot of weapon at target"))
register_action(Action("starcraft", "attack", "mathhammer.starcraft:attack", {"weapon": "weapon", "unit": "unit"},
                       "a StarCraft TMG batch of weapon at unit"))
register_action(Action("force_melee", "melee", "mathhammer.force_melee:melee", {"a": "side", "b": "side"},
                       "a Force melee exchange between sides a and b"))
register_action(Action("force_melee", "melee_many", "mathhammer.force_melee:melee_many", {},
                       "a Force melee among several engaged units"))
# Deathburgh sides are tables of Side options around a miniature; deathburgh.combat resolves names,
# notation and tables itself.
register_action(Action("deathburgh", "combat", "mathhammer.deathburgh:combat", {}, "a Deathburgh combat"))
register_action(Action("deathburgh", "round", "mathhammer.deathburgh:round", {}, "a Deathburgh round of combats"))


@dataclasses.dataclass(frozen=True)
class Outcome:
    """The result of one scenario entry."""

    game: str
    action: str
    name: str
    result: Any

    def to_dict(self) -> dict[str, Any]:
        return {"game": self.game, "action": self.action, "name": self.name, "result": self.result.to_dict()}


def load_scenario(path: str | Path) -> dict[str, Any]:
    path = Path(path)
    data = _read(path)
    if not isinstance(data, Mapping):
        raise ProfileFileError(str(path), "a scenario file holds a table")
    return dict(data)


def _profile(game: str, kind: str, value: Any, libraries: dict[str, dict[str, dict[str, Any]]], where: str) -> Any:
    if isinstance(value, Mapping):
        return profile_from_dict(game, kind, value)
    if isinstance(value, str):
        named = libraries.get(game, {}).get(kind, {})
        if value in named:
            return named[value]
        cls = profile_class(game, kind)
        if hasattr(cls, "parse"):
            try:
                return cls.parse(value)
            except InputError:
                pass
        known = ", ".join(sorted(named)) or "none loaded"
        raise InputError(where, f"{value!r} is neither a {kind} in the profile libraries ({known}) nor valid notation")
    raise InputError(where, f"expected a {kind} name, datacard notation or a table of fields, got {value!r}")


def run_scenario(
    scenario: Mapping[str, Any],
    base: Path | None = None,
    source: str = "scenario",
    progress: Callable[[str], Any] | None = None,
) -> list[Outcome]:
    """Run every entry of a scenario (as loaded from its file) and return the outcomes in file order.

    ``progress(description)`` may return a callable(done, total) that receives Monte Carlo progress.
    """
    base = base or Path(".")
    libraries: dict[str, dict[str, dict[str, Any]]] = {}
    profiles = scenario.get("profiles", [])
    if isinstance(profiles, str):
        profiles = [profiles]
    for file in profiles:
        path = base / file
        game, library = parse_library(_read(path), str(path))
        for kind, entries in library.items():
            libraries.setdefault(game, {}).setdefault(kind, {}).update(entries)

    outcomes: list[Outcome] = []
    for game, actions in scenario.items():
        if game in ("title", "profiles", "description"):
            continue
        if game not in {g for g, _ in ACTIONS} or not isinstance(actions, Mapping):
            raise ProfileFileError(source, f"unknown section {game!r}; sections: {_sections()}")
        for action_name, entries in actions.items():
            action = ACTIONS.get((game, action_name))
            if action is None:
                raise ProfileFileError(source, f"unknown action [[{game}.{action_name}]]; actions: {_sections()}")
            if isinstance(entries, Mapping):
                entries = [entries]
            for index, entry in enumerate(entries):
                where = f"{game}.{action_name}[{index}]"
                kwargs = dict(entry)
                label = str(kwargs.pop("name", f"{game} {action_name} {index + 1}"))
                try:
                    for argument, kind in action.profiles.items():
                        if argument in kwargs:
                            kwargs[argument] = _profile(game, kind, kwargs[argument], libraries, argument)
                    function = action.resolve()
                    callback = progress(label) if progress is not None else None
                    if callback is not None:
                        kwargs.setdefault("progress", callback)
                    result = function(**kwargs)
                except (InputError, TypeError) as error:
                    raise ProfileFileError(source, f"{where} ({label}): {error}") from None
                outcomes.append(Outcome(game, action_name, label, result))
    return outcomes


def run_scenario_file(path: str | Path, progress: Callable[[str], Any] | None = None) -> list[Outcome]:
    path = Path(path)
    return run_scenario(load_scenario(path), base=path.parent, source=str(path), progress=progress)


def _sections() -> str:
    return ", ".join(f"[[{g}.{a}]]" for g, a in ACTIONS)
