"""Scenario files: several fights, shots, attacks, combats or melees with their options, run in one go.

A scenario is TOML (or JSON) with a title, optional profile libraries, and one array of tables per
action (docs/scenarios.md describes every action)::

    title = "Sergeant duels"
    profiles = ["killteam/profiles.toml"]   # libraries (see mathhammer.library), relative to this file

    [[killteam.fight]]
    name = "Sergeant into a Boy"
    a = "assault_intercessor_sergeant"     # a profile by name, datacard notation, or an inline table
    b = { attacks = 4, hit = 3, damage = [4, 5], wounds = 10, rules = "Brutal", strategy = "strike" }
    rounds = 1

    [[killteam.shoot]]
    weapon = "4A 3+ 3/4 Piercing Crits 1"
    target = "intercessor"
    cover = 1

Every other key of an entry is passed to the game's function as a keyword (method, samples, seed,
rounds, cover, ...). ``mathhammer run FILE`` prints every result; :func:`run_scenario_file` returns
them as :class:`Outcome` objects.
"""

from __future__ import annotations

import dataclasses
import difflib
import importlib
import inspect
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from mathhammer._guard import as_path, check_depth, excerpt, label, loads
from mathhammer._validate import InputError, InputTypeError
from mathhammer.library import Library, ProfileFileError, _read, parse_library, resolve_profile
from mathhammer.results import ResultMixin

__all__ = [
    "ACTIONS", "Action", "Entry", "Outcome", "load_scenario", "parse_scenario_text", "prepare_entries",
    "read_scenario_file", "run_scenario", "run_scenario_file",
]

# Top-level keys of a scenario that are not game sections.
META_KEYS = ("title", "description", "profiles")
# Keys every entry may hold besides its function's parameters.
ENTRY_KEYS = ("name",)
# Parameters a file cannot give: the runner supplies the progress callback, and an executor is an object.
RUNNER_PARAMETERS = ("progress", "executor")


@dataclasses.dataclass(frozen=True)
class Action:
    """One kind of scenario entry: the function it calls, its result type, and which arguments are
    profiles (``profiles``: argument -> kind; ``profile_tables``: argument holding a table of
    name -> profile). ``prepare(kwargs, library)``, when given, resolves anything else by name.
    ``aliases`` maps other spellings an entry may use to the function's keyword (a round's
    ``combat`` tables are its ``combats``); ``options`` ("module:NAME") lists the keywords a
    function taking ``**kwargs`` accepts there."""

    game: str
    name: str
    function: str  # "module:function"
    result: str  # "module:Class"
    profiles: Mapping[str, str] = dataclasses.field(default_factory=dict)
    profile_tables: Mapping[str, str] = dataclasses.field(default_factory=dict)
    help: str = ""
    prepare: Callable[[dict[str, Any], Library], dict[str, Any]] | None = None
    aliases: Mapping[str, str] = dataclasses.field(default_factory=dict)
    options: str = ""

    def resolve(self) -> Callable[..., Any]:
        function: Callable[..., Any] = _attribute(self.function)
        return function

    def keys(self) -> tuple[str, ...] | None:
        """The keys an entry may hold: ``name``, the aliases and the function's parameters (None when
        the function takes ``**kwargs`` it does not list, so only the function can tell)."""
        parameters = inspect.signature(self.resolve()).parameters.values()
        names = [p.name for p in parameters
                 if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY) and p.name not in RUNNER_PARAMETERS]
        if any(p.kind is p.VAR_KEYWORD for p in parameters):
            if not self.options:
                return None
            names += [k for k in _attribute(self.options) if k not in names]
        return (*ENTRY_KEYS, *self.aliases, *names)

    def required(self) -> tuple[str, ...]:
        """The function's parameters without a default: keys every entry must give."""
        return tuple(p.name for p in inspect.signature(self.resolve()).parameters.values()
                     if p.default is p.empty and p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY))

    def result_type(self) -> type[ResultMixin]:
        result: type[ResultMixin] = _attribute(self.result)
        return result


def _attribute(path: str) -> Any:
    module, name = path.split(":")
    return getattr(importlib.import_module(module), name)


ACTIONS: dict[tuple[str, str], Action] = {}


def register_action(action: Action) -> None:
    """Make ``[[<game>.<name>]]`` entries run ``action``."""
    ACTIONS[(action.game, action.name)] = action


def _deathburgh_names(kwargs: dict[str, Any], library: Library) -> dict[str, Any]:
    """Deathburgh resolves example names, notation and tables itself; put the library's miniatures
    in where an entry names one (a side, a side's ``mini``, or a round's miniature). A round's
    miniature given as a table may carry its current ``wounds`` and takes its key as its name."""
    from mathhammer.deathburgh.profiles import as_miniature

    named = library.get("miniature", {})

    def mini(value: Any) -> Any:
        return named[value] if isinstance(value, str) and value in named else value

    for side in ("attacker", "defender"):
        value = kwargs.get(side)
        if isinstance(value, Mapping) and "mini" in value:
            kwargs[side] = {**value, "mini": mini(value["mini"])}
        elif side in kwargs:
            kwargs[side] = mini(value)
    if isinstance(kwargs.get("miniatures"), Mapping):
        miniatures, wounds = {}, {}
        for name, value in kwargs["miniatures"].items():
            if isinstance(value, Mapping):
                value = dict(value)
                if "wounds" in value:
                    wounds[name] = value.pop("wounds")
                value = {"name": name, **value}
            miniatures[name] = as_miniature(f"miniatures.{name}", mini(value))
        kwargs["miniatures"] = miniatures
        if wounds:
            given = kwargs.get("wounds") or {}
            if not isinstance(given, Mapping):
                raise InputTypeError("wounds", f"expected a table of name -> current wounds, got {excerpt(given)}")
            kwargs["wounds"] = {**wounds, **given}
    return kwargs


def _starcraft_batches(kwargs: dict[str, Any], library: Library) -> dict[str, Any]:
    """A sequence's batches are tables: ``weapon`` (a library name, card notation or a table; left
    out in HITS mode) plus any sc.attack options of that batch."""
    from mathhammer.starcraft import Batch

    batches = kwargs.get("batches")
    if not isinstance(batches, list):
        raise InputError("batches", "expected [[starcraft.sequence.batches]] tables: weapon = ... plus sc.attack options")
    from mathhammer.starcraft.profiles import ATTACK_KWARGS

    converted = []
    for i, item in enumerate(batches):
        if not isinstance(item, Mapping):
            raise InputError(f"batches[{i}]", "expected a table: weapon = ... plus sc.attack options")
        _check_keys(item, ("weapon", *ATTACK_KWARGS), f"batches[{i}].")
        options = dict(item)
        weapon = options.pop("weapon", None)
        if weapon is not None:
            weapon = resolve_profile("starcraft", "weapon", weapon, library, f"batches[{i}].weapon")
        converted.append(Batch(weapon, **options))
    kwargs["batches"] = converted
    return kwargs


for _action in (
    Action("killteam", "fight", "mathhammer.killteam:fight", "mathhammer.killteam:FightResult",
           {"a": "fighter", "b": "fighter"}, help="a Kill Team fight between fighters a and b"),
    Action("killteam", "shoot", "mathhammer.killteam:shoot", "mathhammer.killteam:ShootResult",
           {"weapon": "weapon", "target": "operative"}, help="a Kill Team shot of weapon at target"),
    Action("starcraft", "attack", "mathhammer.starcraft:attack", "mathhammer.starcraft:AttackResult",
           {"weapon": "weapon", "unit": "unit"}, help="a StarCraft TMG batch of weapon at unit",
           options="mathhammer.starcraft.profiles:ATTACK_KWARGS"),
    Action("starcraft", "sequence", "mathhammer.starcraft:sequence", "mathhammer.starcraft:SequenceResult",
           {"unit": "unit"}, help="several StarCraft TMG batches against one unit, the state carried over",
           prepare=_starcraft_batches),
    Action("deathburgh", "combat", "mathhammer.deathburgh:combat", "mathhammer.deathburgh:CombatResult",
           help="a Deathburgh combat between attacker and defender", prepare=_deathburgh_names),
    Action("deathburgh", "round", "mathhammer.deathburgh:round", "mathhammer.deathburgh:RoundResult",
           help="a Deathburgh round of combats", prepare=_deathburgh_names, aliases={"combat": "combats"}),
    Action("force_melee", "melee", "mathhammer.force_melee:melee", "mathhammer.force_melee:MeleeResult",
           {"a": "side", "b": "side"}, help="a Force melee exchange between sides a and b"),
    Action("force_melee", "melee_many", "mathhammer.force_melee:melee_many", "mathhammer.force_melee:MeleeManyResult",
           profile_tables={"sides": "side"}, help="a Force melee among several engaged units"),
):
    register_action(_action)


def _check_keys(entry: Mapping[str, Any], allowed: tuple[str, ...], prefix: str = "") -> None:
    """Refuse a key that is not ``allowed``, suggesting the allowed key it is closest to."""
    for key in entry:
        if key not in allowed:
            close = difflib.get_close_matches(str(key)[:40], allowed, n=1, cutoff=0.7)
            hint = f" (did you mean {close[0]!r}?)" if close else ""
            raise InputError(f"{prefix}{label(key)}", f"unknown keyword{hint}; allowed: {', '.join(allowed)}")


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
            from mathhammer.sweep_scenario import SweepTable

            return cls(data["game"], data["action"], data["name"], dict(data.get("inputs", {})),
                       SweepTable.from_dict(data["result"]))
        action = ACTIONS.get((data["game"], data["action"]))
        if action is None:
            raise InputError("action", f"unknown action {excerpt(data['game'] + '.' + data['action'])}; "
                             f"actions: {_sections()}")
        inputs = data.get("inputs", {})
        if not isinstance(inputs, Mapping):
            raise InputTypeError("inputs", f"expected a table, got {excerpt(inputs)}")
        _check_plain("inputs", inputs)
        if "result" not in data:
            raise InputError("result", "missing")
        try:
            result = action.result_type().from_dict(data["result"])
        except (InputError, InputTypeError) as error:
            raise type(error)(f"result.{error.field}", str(error).split(": ", 1)[1]) from None
        return cls(data["game"], data["action"], data["name"], dict(inputs), result)

    def to_frame(self) -> Any:
        """The result's own frame, with game, action and name columns in front."""
        frame = self.result.to_frame()
        for position, column in enumerate(("game", "action", "name")):
            frame.insert(position, column, getattr(self, column))
        return frame


def _check_plain(field: str, value: Any) -> None:
    """Refuse anything but JSON values (finite numbers, strings, lists, tables with string keys)."""
    import math

    stack: list[tuple[str, Any]] = [(field, value)]
    while stack:
        where, item = stack.pop()
        if isinstance(item, Mapping):
            for key, child in item.items():
                if not isinstance(key, str):
                    raise InputTypeError(f"{where}.{label(key)}", "expected a string key")
                stack.append((f"{where}.{label(key)}", child))
        elif isinstance(item, (list, tuple)):
            stack.extend((f"{where}[{i}]", child) for i, child in enumerate(item))
        elif isinstance(item, float) and not math.isfinite(item):
            raise InputError(where, f"{item!r} is not a finite number")
        elif item is not None and not isinstance(item, (str, int, float)):
            raise InputTypeError(where, f"expected a JSON value, got {excerpt(item)}")


def _plain(value: Any) -> Any:
    """Inputs as JSON values: profiles as their fields, rules in notation; callables dropped."""
    from mathhammer.library import profile_to_dict
    from mathhammer.results import _encode

    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return value.to_dict() if hasattr(value, "to_dict") else profile_to_dict(value)
    if callable(getattr(value, "to_dict", None)):  # e.g. a StarCraft sequence's sc.Batch
        return _plain(value.to_dict())
    if isinstance(value, Mapping):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    return _encode(value)


def load_scenario(path: str | Path) -> dict[str, Any]:
    """The content of a scenario file (TOML or JSON)."""
    path = _path(path)
    data = _read(path)
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


def _library_path(base: Path, file: str, source: str, allow_outside: bool) -> Path:
    """A ``profiles`` path, relative to the scenario's folder; unless ``allow_outside``, it must stay
    inside that folder once ``..`` and symbolic links are resolved (a scenario from elsewhere may not
    read other files of the machine). Built-in profiles need no file: they are always known by name."""
    path = base / file
    if allow_outside:
        return path
    try:
        inside = path.resolve().is_relative_to(base.resolve())
    except (OSError, RuntimeError, ValueError):  # a symbolic-link loop, a NUL byte
        inside = False
    if Path(file).is_absolute() or not inside:
        raise ProfileFileError(source, f"profiles: {excerpt(file)} is outside the scenario's folder; "
                               "keep libraries beside the scenario or pass --allow-outside (allow_outside=True)")
    return path


def _libraries(scenario: Mapping[str, Any], base: Path, source: str, allow_outside: bool = False) -> dict[str, Library]:
    libraries: dict[str, Library] = {}
    profiles = scenario.get("profiles", [])
    if isinstance(profiles, str):
        profiles = [profiles]
    if not isinstance(profiles, list) or not all(isinstance(p, str) for p in profiles):
        raise ProfileFileError(source, f"profiles: expected a list of library files, got {excerpt(profiles)}")
    for file in profiles:
        path = _library_path(base, file, source, allow_outside)
        game, library = parse_library(_read(path), str(path))
        for kind, entries in library.items():
            libraries.setdefault(game, {}).setdefault(kind, {}).update(entries)
    return libraries


#: A Deathburgh round file: the keywords of one round at the top level (rule switches, a table
#: ``miniatures`` and ``[[combat]]`` tables) rather than under ``[[deathburgh.round]]``.
ROUND_FILE_KEY = "miniatures"


def _entries(scenario: Mapping[str, Any], source: str) -> list[tuple[Action, int, dict[str, Any]]]:
    """Every entry of the scenario in file order, checked for known sections and actions."""
    if ROUND_FILE_KEY in scenario:
        round_entry = {key: value for key, value in scenario.items() if key not in META_KEYS}
        return [(ACTIONS[("deathburgh", "round")], 0, round_entry)]
    entries = []
    for game, actions in scenario.items():
        if game in META_KEYS:
            continue
        if game == SWEEP_KEY:
            entries += _sweep_entries(actions, source)
            continue
        if game not in {g for g, _ in ACTIONS} or not isinstance(actions, Mapping):
            raise ProfileFileError(source, f"unknown section {excerpt(game)}; sections: {_sections()}")
        for action_name, items in actions.items():
            action = ACTIONS.get((game, action_name))
            if action is None:
                raise ProfileFileError(source, f"unknown action [[{game}.{label(action_name)}]]; actions: {_sections()}")
            if isinstance(items, Mapping):
                items = [items]
            if not isinstance(items, list):
                raise ProfileFileError(source, f"{game}.{action_name}: expected [[{game}.{action_name}]] tables")
            for index, item in enumerate(items):
                if not isinstance(item, Mapping):
                    raise ProfileFileError(source, f"{game}.{action_name}[{index}]: expected a table of keywords")
                entries.append((action, index, dict(item)))
    if not entries:
        raise ProfileFileError(source, f"no entries; write at least one of {_sections()}")
    return entries


#: ``[[sweep]]`` entries run one action over a grid (mathhammer.sweep_scenario).
SWEEP_KEY = "sweep"


def _sweep_entries(items: Any, source: str) -> list[tuple[Action, int, dict[str, Any]]]:
    from mathhammer.sweep_scenario import sweep_action

    items = [items] if isinstance(items, Mapping) else items
    if not isinstance(items, list):
        raise ProfileFileError(source, "sweep: expected [[sweep]] tables")
    entries = []
    for index, item in enumerate(items):
        if not isinstance(item, Mapping):
            raise ProfileFileError(source, f"sweep[{index}]: expected a table of keywords")
        try:
            entries.append((sweep_action(index, item), index, dict(item)))
        except (InputError, InputTypeError) as error:
            raise ProfileFileError(source, f"sweep[{index}]: {error}") from None
    return entries


@dataclasses.dataclass(frozen=True)
class Entry:
    """One scenario entry ready to run: its action, its place in the file (``where``, e.g.
    ``killteam.shoot[0]``), its label, its keywords with every profile built, and those keywords as
    plain values (``inputs``)."""

    action: Action
    where: str
    name: str
    kwargs: dict[str, Any]
    inputs: dict[str, Any]
    source: str = "scenario"

    def run(self, progress: Any = None, **overrides: Any) -> Outcome:
        """Call the game's function; ``overrides`` replace keywords (not echoed in ``inputs``)."""
        kwargs = {**self.kwargs, **overrides}
        if progress is not None:
            kwargs["progress"] = progress
        try:
            result = self.action.resolve()(**kwargs)
        except (InputError, InputTypeError, TypeError) as error:
            raise ProfileFileError(self.source, f"{self.where} ({self.name}): {error}") from None
        return Outcome(self.action.game, self.action.name, self.name, self.inputs, result)


def _prepare(action: Action, kwargs: dict[str, Any], library: Library) -> dict[str, Any]:
    """An entry's keywords checked against the function's and its profiles built."""
    allowed = action.keys()
    if allowed is not None:
        _check_keys(kwargs, allowed)
    for alias, target in action.aliases.items():
        if alias in kwargs:
            if target in kwargs:
                raise InputError(alias, f"give {alias} or {target}, not both")
            kwargs[target] = kwargs.pop(alias)
    required = action.required()
    missing = [key for key in required if key not in kwargs]
    if missing:
        raise InputError(missing[0], f"missing; [[{action.game}.{action.name}]] needs {', '.join(required)}")
    return resolve_keywords(action, kwargs, library)


def resolve_keywords(action: Action, kwargs: dict[str, Any], library: Library) -> dict[str, Any]:
    """An entry's keywords with its profiles built and names resolved (no key checks): what
    ``prepare_entries`` does to an entry after checking it, and a [[sweep]] to each grid value."""
    for argument, kind in action.profiles.items():
        if argument in kwargs:
            kwargs[argument] = resolve_profile(action.game, kind, kwargs[argument], library, argument)
    for argument, kind in action.profile_tables.items():
        if isinstance(kwargs.get(argument), Mapping):
            kwargs[argument] = {
                name: resolve_profile(action.game, kind, value, library, f"{argument}.{name}")
                for name, value in kwargs[argument].items()
            }
    if action.prepare is not None:
        kwargs = action.prepare(kwargs, library)
    return kwargs


def prepare_entries(
    scenario: Mapping[str, Any],
    base: Path | None = None,
    source: str = "scenario",
    overrides: Mapping[str, Any] | None = None,
    allow_outside: bool = False,
) -> list[Entry]:
    """Every entry of a scenario (as loaded from its file), checked and with its profiles built, in
    file order; nothing runs yet. ``base`` and ``overrides`` as in :func:`run_scenario`.

    A key that is not a keyword of the entry's function (nor ``name``) is an error naming the
    source, the entry and the key, listing the allowed keys. A Deathburgh round file (``miniatures``
    and ``[[combat]]`` at the top level) is one ``[[deathburgh.round]]`` entry.
    """
    if not isinstance(scenario, Mapping):
        raise ProfileFileError(source, "a scenario holds a table")
    libraries = _libraries(scenario, base or Path("."), source, allow_outside is True)
    prepared: list[Entry] = []
    for action, index, kwargs in _entries(scenario, source):
        where = f"{action.game}.{action.name}[{index}]"
        label = str(kwargs.pop("name", f"{action.game} {action.name} {index + 1}"))
        kwargs.update(overrides or {})
        try:
            game = action.name.split(".")[0] if action.game == SWEEP_KEY else action.game  # a sweep: its action's
            kwargs = _prepare(action, kwargs, libraries.get(game, {}))
        except (InputError, InputTypeError, TypeError) as error:
            raise ProfileFileError(source, f"{where} ({label}): {error}") from None
        prepared.append(Entry(action, where, label, kwargs, _plain(kwargs), source))
    return prepared


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
    outcomes: list[Outcome] = []
    for entry in prepare_entries(scenario, base, source, overrides, allow_outside):
        outcomes.append(entry.run(progress(entry.name) if progress is not None else None))
    return outcomes


def run_scenario_file(
    path: str | Path,
    progress: Callable[[str], Any] | None = None,
    overrides: Mapping[str, Any] | None = None,
    allow_outside: bool = False,
) -> list[Outcome]:
    """Run a scenario file (see :func:`run_scenario`); ``profiles`` paths are relative to the file's
    folder and stay inside it unless ``allow_outside`` is True."""
    path = _path(path)
    return run_scenario(load_scenario(path), base=path.parent, source=str(path), progress=progress,
                        overrides=overrides, allow_outside=allow_outside)


def read_scenario_file(
    path: str | Path, overrides: Mapping[str, Any] | None = None, allow_outside: bool = False
) -> list[Entry]:
    """The checked entries of a scenario file (see :func:`prepare_entries`), ready to run."""
    path = _path(path)
    return prepare_entries(load_scenario(path), base=path.parent, source=str(path), overrides=overrides,
                           allow_outside=allow_outside)


def _path(path: Any) -> Path:
    return as_path(path)


def _sections() -> str:
    return ", ".join(f"[[{g}.{a}]]" for g, a in ACTIONS)
