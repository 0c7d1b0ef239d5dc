"""The game descriptor: what a game offers, declared once, read by every layer above the games.

Each game package declares one :class:`Game` in its ``_game.py`` and exposes it as ``GAME``
(``kt.GAME``): its profile kinds, its built-in and bundled example profiles, its rule switches, and
its :class:`Action` s — every engine function a user calls by name, with its batch form, the
arguments that are profiles, its result type and its printer. From these the profile libraries
(``mathhammer.files.library``), the scenario files (``mathhammer.files.scenario``), the sweeps
(``mathhammer.sweeps``) and the HTTP API are generated; the command line is written per game and a
test holds it to the descriptors (docs/architecture.md, "Adding a game or an action").

A game's own file readers (``db.load_profiles``, ``fm.load_scenario``) use the same descriptor
through this module and :mod:`mathhammer.core.entries`, below the files layer.
"""

from __future__ import annotations

import dataclasses
import inspect
from collections.abc import Callable, Mapping, Sequence
from importlib import resources
from pathlib import Path
from typing import Any

from mathhammer.core import present
from mathhammer.core.guard import closest, did_you_mean, excerpt, label, tomllib
from mathhammer.core.profiles import profile_from_fields, profile_to_dict
from mathhammer.core.variants import Variants
from mathhammer.errors import InputError, InputTypeError, ProfileFileError

__all__ = ["RUNNER_PARAMETERS", "SWITCHES", "TEAMS", "Action", "Game", "LabelledEntries", "Library", "Switches",
           "find_profile", "library_labels", "lookup_profile", "merged_names", "merge_libraries", "merge_library",
           "qualified"]

#: {kind: {name: profile}}, as a profile library holds it.
Library = dict[str, dict[str, Any]]
#: Each game's default library once read (Game.default_library), by its bundled file.
_DEFAULT_LIBRARIES: dict[str, Library] = {}
#: Where a library keeps the named switches its documents declare ({name: the game's parts}): not
#: a table of the document, and no kind of profile.
SWITCHES = "switches"
#: Where a library loaded to be served holds the teams its files describe ({label: team}, read by
#: Game.read_team): the actions that take a team by name find it there.
TEAMS = "teams"


@dataclasses.dataclass(frozen=True)
class Switches:
    """A game's named switches of a library (Kill Team's: an imported team's ``[team.switch]``
    tables, docs/data.md): ``read(document, source)`` gives the switches a library document
    declares, by name, each as parts only the game reads, each starting with the kind and key of
    the entry it changes (:func:`merge_libraries` renames keys it qualifies); ``apply(library, parts, name, field)``
    the library with one switch on (a new library: the one given is not changed)."""

    read: Callable[[Mapping[str, Any], str], dict[str, tuple[Any, ...]]]
    apply: Callable[[Library, tuple[Any, ...], str, str], Library]


def merge_library(into: Library, library: Mapping[str, Mapping[str, Any]]) -> None:
    """Add a library's entries to ``into``: a later entry of a kind and name replaces an earlier
    one; the parts of switches of one name add up (two teams' "Hardy" both turn on)."""
    for kind, entries in library.items():
        if kind == SWITCHES:
            found = into.setdefault(SWITCHES, {})
            for name, parts in entries.items():
                found[name] = (*found.get(name, ()), *parts)
        else:
            into.setdefault(kind, {}).update(entries)

#: Parameters of an engine function that no file or grid gives: the runner supplies the progress
#: callback, and an executor is an object.
RUNNER_PARAMETERS = ("progress", "executor")


@dataclasses.dataclass(frozen=True)
class Action:
    """One thing a game computes, by name: ``kt.shoot`` is the Kill Team action "shoot".

    ``name`` is its name in Python and in scenario files (``[[killteam.shoot]]``); ``cli`` its
    command (default: the name with dashes, ``melee-many``). ``profiles`` maps an argument to the
    profile kind it takes (a library name, notation or table of fields is resolved to that kind);
    ``profile_tables`` an argument holding a table of name -> profile; ``profile_lists`` an argument
    holding a list of profiles or a table of label -> profile (a comparison's). ``prepare(kwargs, library)``,
    when given, resolves what else an entry names (a StarCraft sequence's batches). ``aliases`` maps
    another spelling an entry may use to the function's keyword; ``options`` lists the keywords a
    function taking ``**kwargs`` accepts. ``batch``: the batch form (``kt.shoot_batch``), which a
    sweep runs its chunks through. ``printer(result, title)`` gives the result's tables and summary
    lines. ``sweep``: a sweep may run the action (its result has ``summary()``); ``scenario``: scenario
    files may hold it. ``rows(kwargs, library)``, for an action whose answer grows with what its
    arguments name rather than with their lengths (a matchup's teams), says before any work how many
    rows its answer's long table will hold: (rows, the argument most of them come from, how they add
    up), which the web server bounds (docs/web.md, "Limits").
    """

    name: str
    function: Callable[..., Any]
    result: type
    help: str
    printer: present.Printer | None = None
    batch: Callable[..., Any] | None = None
    profiles: Mapping[str, str] = dataclasses.field(default_factory=dict)
    profile_tables: Mapping[str, str] = dataclasses.field(default_factory=dict)
    profile_lists: Mapping[str, str] = dataclasses.field(default_factory=dict)
    prepare: Callable[[dict[str, Any], Library], dict[str, Any]] | None = None
    aliases: Mapping[str, str] = dataclasses.field(default_factory=dict)
    options: tuple[str, ...] = ()
    rows: Callable[[Mapping[str, Any], Library], tuple[int, str, str]] | None = None
    sweep: bool = True
    scenario: bool = True
    cli: str = ""

    def __post_init__(self) -> None:
        if not self.cli:
            object.__setattr__(self, "cli", self.name.replace("_", "-"))

    def keys(self) -> tuple[str, ...] | None:
        """The keys an entry may hold: ``name``, the aliases and the function's parameters (None when
        the function takes ``**kwargs`` it does not list, so only the function can tell)."""
        parameters = inspect.signature(self.function).parameters.values()
        names = [p.name for p in parameters
                 if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY) and p.name not in RUNNER_PARAMETERS]
        if any(p.kind is p.VAR_KEYWORD for p in parameters):
            if not self.options:
                return None
            names += [k for k in self.options if k not in names]
        return ("name", *self.aliases, *names)

    def required(self) -> tuple[str, ...]:
        """The function's parameters without a default: keys every entry must give."""
        return tuple(p.name for p in inspect.signature(self.function).parameters.values()
                     if p.default is p.empty and p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY))


@dataclasses.dataclass(frozen=True)
class Game:
    """A game as every layer above the games sees it (see the module docstring).

    ``name`` is the package's name (``force_melee``), ``cli`` its command (``force-melee``).
    ``profile_kinds`` maps each kind of profile a library may hold to its class, in the order a
    library is read (a Force melee side may name the units and weapons before it); ``references``
    the fields of a kind that may name another entry of the same library ({kind: {field: kind}}).
    ``builtin`` holds the profiles the game ships by name, by kind; ``bundled_library`` the package
    resource of its example library (``--profiles <game>-examples``, the default). ``printers``:
    printers of result types no action returns (a nested result, a log). ``info_tables``: tables of
    plain values a library may hold beside its profiles (Kill Team's ``[team]``, where an imported
    team records its source), kept as read. ``switches``: the named switches its libraries may
    declare (:class:`Switches`), turned on by :meth:`with_switches`; None when the game has none.
    ``read_team(document, library, source)``: the team a library of the game describes in its info
    table (Kill Team's ``kt.data.Team``), which actions taking a team by name find among the loaded
    libraries' (``library[TEAMS]``, by label). ``profile_notes(kind, value)``: the notes on what a
    profile given as text or a table of fields sets aside (Kill Team's datacard tokens that change
    nothing in one shot or fight).
    """

    name: str
    title: str
    actions: tuple[Action, ...]
    profile_kinds: Mapping[str, type]
    variants: type[Variants]
    builtin: Mapping[str, Mapping[str, Any]] = dataclasses.field(default_factory=dict)
    references: Mapping[str, Mapping[str, str]] = dataclasses.field(default_factory=dict)
    bundled_library: str | None = None
    printers: Mapping[type, present.Printer] = dataclasses.field(default_factory=dict)
    info_tables: tuple[str, ...] = ()
    switches: Switches | None = None
    read_team: Callable[[Mapping[str, Any], Library, str], Any] | None = None
    profile_notes: Callable[[str, Any], tuple[str, ...]] | None = None

    def __post_init__(self) -> None:
        names = [action.name for action in self.actions]
        if len(set(names)) != len(names):
            raise ValueError(f"{self.name}: two actions share a name: {names}")
        # every result this game returns prints the way its own command prints it (to_markdown,
        # notebooks, mathhammer run): the printers are known as soon as the game is imported
        for action in self.actions:
            if action.printer is not None:
                present.register_printer(action.result, action.printer)
        for result_type, printer in self.printers.items():
            present.register_printer(result_type, printer)

    @property
    def cli(self) -> str:
        return self.name.replace("_", "-")

    def action(self, name: str) -> Action:
        """The action called ``name`` (its Python or its command name)."""
        for action in self.actions:
            if name in (action.name, action.cli):
                return action
        raise InputError("action", f"{self.name} has no action {excerpt(name)}; "
                         f"actions: {', '.join(a.name for a in self.actions)}")

    # --- profiles -------------------------------------------------------------------------------
    def profile_class(self, kind: str) -> type:
        """The class behind one of the game's profile kinds ("fighter" -> kt.Fighter)."""
        if not isinstance(kind, str) or kind not in self.profile_kinds:
            raise InputError("kind", f"unknown {self.name} profile kind {excerpt(kind)}; "
                             f"allowed: {', '.join(self.profile_kinds)}")
        return self.profile_kinds[kind]

    def builtin_profiles(self, kind: str) -> dict[str, Any]:
        """The profiles the game ships by name for a kind; empty when it has none."""
        return dict(self.builtin.get(kind, {}))

    def profile(self, kind: str, data: Mapping[str, Any], named: Mapping[str, Mapping[str, Any]] | None = None) -> Any:
        """One profile of ``kind`` from its fields (or ``card = "..."`` notation), validated;
        ``named`` ({kind: {name: profile}}) resolves fields naming another entry (``references``)."""
        return profile_from_fields(self.profile_class(kind), kind, data, self.references.get(kind), named, self.name)

    def parse_library(self, data: Mapping[str, Any], source: str) -> Library:
        """The entries of a library document of this game (its ``game`` key already read); errors
        name the source, the entry and the field."""
        for kind, entries in data.items():
            if kind == "game":
                continue
            if kind not in self.profile_kinds and kind not in self.info_tables:
                raise ProfileFileError(source, f"unknown table [{excerpt(kind)[1:-1]}]; {self.name} tables are: "
                                       f"{', '.join([*self.profile_kinds, *self.info_tables])}")
            if not isinstance(entries, Mapping):
                raise ProfileFileError(source, f"[{kind}] must hold named entries such as [{kind}.name]")
        library: Library = {}
        for kind in self.profile_kinds:  # in this order, so that an entry may name the kinds read before it
            if kind not in data:
                continue
            library[kind] = {}
            for name, fields in data[kind].items():
                try:
                    profile = self.profile(kind, fields, library)
                    if getattr(profile, "name", 0) in ("", None):  # an entry without a name takes its table's
                        profile = dataclasses.replace(profile, name=str(name))
                    library[kind][name] = profile
                except (InputError, TypeError) as error:  # TypeError: a required field is missing
                    raise ProfileFileError(source, f"{kind}.{label(name)}: {error}") from None
        for kind in self.info_tables:
            if kind in data:
                library[kind] = dict(data[kind])
        if self.switches is not None:
            declared = self.switches.read(data, source)
            if declared:
                library[SWITCHES] = declared
        return library

    def with_switches(self, library: Library, names: Any, field: str = "with") -> Library:
        """The library with the named switches on (case-insensitive), in the order given; a name no
        library declares is an InputError under ``field`` naming the switches there are."""
        if names is None:
            return library
        if isinstance(names, str) or not isinstance(names, (list, tuple)):
            raise InputTypeError(field, f"expected a list of switch names, got {excerpt(names)}")
        declared = library.get(SWITCHES, {})
        for i, name in enumerate(names):
            if not isinstance(name, str):
                raise InputTypeError(f"{field}[{i}]", f"expected a switch's name, got {excerpt(name)}")
            key = next((k for k in declared if k.lower() == " ".join(name.split()).lower()), None)
            if key is None or self.switches is None:
                known = list(declared)
                if not known:
                    raise InputError(field, f"no switch {excerpt(name)}: the libraries declare none (a team "
                                     "library lists its switches in [team.switch] tables)")
                raise InputError(field, f"no switch {excerpt(name)}{did_you_mean(name, known)}; the libraries' "
                                 f"switches: {closest(name, known)}")
            library = self.switches.apply(library, declared[key], key, field)
        return library

    def library_label(self, library: Mapping[str, Any], source: str) -> str:
        """What names a library among several (:func:`merge_libraries`): the name its info table
        records (an imported team's ``[team]``), else its file's stem."""
        for kind in self.info_tables:
            table = library.get(kind)
            own = table.get("name") if isinstance(table, Mapping) else None
            if isinstance(own, str) and own.strip():
                return own.strip()
        return Path(source).stem or source

    def library_document(self, library: Mapping[str, Mapping[str, Any]]) -> dict[str, Any]:
        """A library as the plain tables a file holds: ``game`` and one table per kind."""
        data: dict[str, Any] = {"game": self.name}
        for kind, entries in library.items():
            if kind == SWITCHES:  # read from the [team] table, which is kept as read
                continue
            if kind in self.info_tables:
                data[kind] = dict(entries)
                continue
            self.profile_class(kind)  # validates the kind
            data[kind] = {name: profile_to_dict(profile) for name, profile in entries.items()}
        return data

    @property
    def bundled_library_name(self) -> str:
        """What names the game's bundled example library on the command line: "killteam-examples"."""
        return self.cli + "-examples"

    def bundled_document(self) -> dict[str, Any]:
        """The tables of the game's bundled example library (empty when it has none)."""
        if self.bundled_library is None:
            return {}
        text = resources.files("mathhammer").joinpath(self.bundled_library).read_text(encoding="utf-8")
        data: dict[str, Any] = tomllib.loads(text)
        return data

    def default_library(self) -> Library:
        """The library a command uses without ``--profiles``: the bundled examples, less the entries
        a built-in profile already answers to (the built-in one keeps its name). Read once per
        process (a sweep's command reads it for every value of its grid); each call gets its own
        tables of the same (frozen) profiles."""
        if self.bundled_library is None:
            return {}
        library = _DEFAULT_LIBRARIES.get(self.bundled_library)
        if library is None:
            library = self.parse_library(self.bundled_document(), self.bundled_library_name)
            for kind, entries in library.items():
                if kind == SWITCHES:
                    continue
                builtin = self.builtin_profiles(kind)
                library[kind] = {key: profile for key, profile in entries.items()
                                 if find_profile(key, builtin) is None
                                 and find_profile(str(getattr(profile, "name", "") or key), builtin) is None}
            _DEFAULT_LIBRARIES[self.bundled_library] = library
        return {kind: dict(entries) for kind, entries in library.items()}

    def resolve_profile(self, kind: str, value: Any, library: Mapping[str, Mapping[str, Any]] | None = None,
                        field: str | None = None) -> Any:
        """A profile from whatever names one: a profile object, a name from ``library`` ({kind: {name:
        profile}}), a built-in profile of the game, datacard notation (where the game has one) or a
        table of fields. Errors name ``field`` (default: the kind) and list the names known."""
        cls = self.profile_class(kind)
        if field is not None and not isinstance(field, str):  # it names the field in every error below
            raise InputTypeError("field", f"expected the name of the option, got {excerpt(field)}")
        field = field or kind
        library = library or {}
        if not isinstance(library, Mapping) or not all(isinstance(v, Mapping) for v in library.values()):
            raise InputTypeError("library", "expected {kind: {name: profile}} as load_library returns, got "
                                 f"{excerpt(library)}")
        if isinstance(value, cls):
            return value
        if isinstance(value, Mapping):
            try:
                return self.profile(kind, value, library)
            except InputError as error:
                raise type(error)(f"{field}.{error.field}", str(error).split(": ", 1)[1]) from None
            except TypeError as error:  # a required field is missing
                raise InputTypeError(field, str(error)) from None
        if not isinstance(value, str):
            raise InputTypeError(field, f"expected a {kind} name, notation or a table of fields, got {excerpt(value)}")
        builtin = self.builtin_profiles(kind)
        found = lookup_profile(value, (library.get(kind, {}), builtin), field, kind)
        if found is not None:
            return found
        names = list(dict.fromkeys([str(name) for name in (*library.get(kind, {}), *builtin)]))
        known = closest(value, names)
        # a name's last part ("Meltagun" of "Gunner/Meltagun") answers for it too: a typo of it is a typo
        hint = did_you_mean(value, list(dict.fromkeys([*names, *(n.rsplit("/", 1)[-1] for n in names)])))
        if hint:  # a typo of a name, not notation: say the name (the notation's complaint would mislead)
            raise InputError(field, f"unknown {kind} {excerpt(value)}{hint}; known: {known}")
        parse = getattr(cls, "parse", None)
        if parse is not None:
            try:
                return parse(value)
            except InputError as error:
                reason = str(error)
            if not names:
                raise InputError(field, f"{excerpt(value)} is not valid {self.name} notation ({reason}), and no "
                                 f"{kind} profile has that name")
            raise InputError(field, f"{excerpt(value)} is neither a known {kind} ({known}) nor valid {self.name} "
                             f"notation ({reason})")
        if not names:
            raise InputError(field, f"unknown {kind} {excerpt(value)}; no {kind} profiles are loaded (give --profiles FILE)")
        raise InputError(field, f"unknown {kind} {excerpt(value)}; known: {known}")


def _key(name: str) -> str:
    return "".join(ch if ch.isalnum() else "_" for ch in name.strip().lower()).strip("_")


def _parts(name: str) -> list[str]:
    # a name's parts between slashes, each written loosely ("Gunner with meltagun/Meltagun")
    return [_key(part) for part in name.split("/")]


def _answers(name: str, key: str, profile: Any) -> bool:
    """Whether an entry answers to ``name`` written loosely: its key or its ``name`` attribute,
    case, spaces and punctuation aside, or its key's last parts ("Meltagun" of "Gunner/Meltagun")."""
    loose = _key(name)
    own = getattr(profile, "name", None)
    if loose in (_key(key), _key(own) if isinstance(own, str) and own else None):
        return True
    wanted, parts = _parts(name), _parts(key)
    return len(wanted) < len(parts) and parts[-len(wanted):] == wanted


#: How much of a candidate's name an ambiguity error shows: whole, so that it can be copied.
_NAME_SHOWN = 240


class LabelledEntries(dict[str, Any]):
    """One kind's entries of libraries given together (:func:`merge_libraries`), {name: profile},
    with ``labels``: the label of the library each came from ({name: label}), so that an ambiguous
    name lists its candidates by team and a name written "<team>/<name>" finds its entry."""

    def __init__(self, entries: Mapping[str, Any] | None = None, labels: Mapping[str, str] | None = None) -> None:
        super().__init__(entries or {})
        self.labels: dict[str, str] = dict(labels or {})


def qualified(entries: Mapping[str, Any], key: str) -> str:
    """An entry's name qualified by its library's label ("Kasrkin/Gunner") when ``entries`` come from
    several libraries (:class:`LabelledEntries`), and the name does not say it already."""
    label = getattr(entries, "labels", {}).get(key)
    return key if not label or key.startswith(label + "/") else f"{label}/{key}"


def lookup_profile(name: str, tables: tuple[Mapping[str, Any], ...], field: str, kind: str) -> Any:
    """The entry of the first of ``tables`` ({name: profile}: a library's, then the game's built-in
    profiles) that ``name`` names: its exact key first; then the entries it names loosely (case,
    spaces and punctuation aside, the last parts of a key: "Meltagun" for "Gunner with
    meltagun/Meltagun", or the key qualified by its library: "Kasrkin/Gunner"), when they are one.
    Several are an InputError naming ``field`` and listing them (qualified by their library's label
    when several libraries were given together); None when no entry answers."""
    for entries in tables:
        if name in entries:
            return entries[name]
    for entries in tables:
        found = [key for key, profile in entries.items()
                 if _answers(name, key, profile) or _answers(name, qualified(entries, key), None)]
        if len(found) == 1:
            return entries[found[0]]
        if found:
            shown = ", ".join(excerpt(qualified(entries, str(key)), _NAME_SHOWN) for key in found[:12]) + (
                f" and {len(found) - 12} more" if len(found) > 12 else "")
            raise InputError(field, f"{excerpt(name)} names {len(found)} {kind} profiles: {shown}; give one of "
                             "these names")
    return None


def library_labels(given: Sequence[str]) -> list[str]:
    """Each library's label among several (:meth:`Game.library_label` gives them): two libraries
    of one label are "<label>", "<label> 2"."""
    labels: list[str] = []
    for one in given:
        own, count = one, 1
        while own in labels:
            count += 1
            own = f"{one} {count}"
        labels.append(own)
    return labels


def merged_names(parts: Sequence[tuple[str, Library]], kinds: Sequence[str]) -> list[dict[str, dict[str, str]]]:
    """For each of several libraries (with their labels, :meth:`Game.library_label`), the name each
    of its entries has among them all ({kind: {key: name}}): its key, or "<label>/<key>" when another
    library has an entry of that kind and key (two libraries of one label are "<label>", "<label> 2")."""
    labels = library_labels([given for given, _ in parts])
    counts: dict[str, dict[str, int]] = {kind: {} for kind in kinds}
    for _, library in parts:
        for kind in kinds:
            for key in library.get(kind, {}):
                counts[kind][key] = counts[kind].get(key, 0) + 1
    return [{kind: {key: key if len(parts) == 1 or counts[kind][key] == 1 else f"{qualifier}/{key}"
                    for key in library.get(kind, {})} for kind in kinds}
            for qualifier, (_, library) in zip(labels, parts)]


def merge_libraries(parts: Sequence[tuple[str, Library]], kinds: Sequence[str]) -> Library:
    """Several libraries of one game as one ({kind: {name: profile}} of ``kinds``), each given with
    its label (:meth:`Game.library_label`). An entry keeps its name unless another library has an
    entry of that kind and name: then each is "<label>/<name>" ("Kasrkin/Gunner", "Wolf
    Scouts/Gunner"), so that neither hides the other and the bare name is ambiguous
    (:func:`lookup_profile`); the profile's own ``name`` follows. Of several libraries, each kind's
    entries are :class:`LabelledEntries`: an ambiguous name lists its candidates by library. Other
    tables are kept: info tables as read (a later library's replacing), and the switches of one name
    added up, their entries' keys renamed as the entries are."""
    merged: Library = {}
    several = len(parts) > 1
    for names, source, (_, library) in zip(merged_names(parts, kinds), library_labels([given for given, _ in parts]),
                                           parts):
        for kind, entries in library.items():
            if kind in kinds:
                continue
            if kind == SWITCHES:  # each part names the entry it changes by (kind, key): keys follow
                entries = {switch: tuple((part[0], names.get(part[0], {}).get(part[1], part[1]), *part[2:])
                                         for part in changes) for switch, changes in entries.items()}
            merge_library(merged, {kind: entries})  # info tables: a later one replaces; switches add up
        for kind in kinds:
            for key, profile in library.get(kind, {}).items():
                name = names[kind][key]
                entries = merged.setdefault(kind, LabelledEntries() if several else {})
                if name in entries:
                    raise InputError("profiles", f"two {kind} entries would be named {excerpt(name)}; rename one")
                if name != key and getattr(profile, "name", None) == key:  # results say which library's
                    profile = dataclasses.replace(profile, name=name)
                entries[name] = profile
                if isinstance(entries, LabelledEntries):
                    entries.labels[name] = source
    return merged


def find_profile(name: str, entries: Mapping[str, Any]) -> Any:
    """An entry by its key, or by its key or ``name`` attribute written loosely ("Bandit brute",
    "bandit_brute"); None when none answers to it."""
    if name in entries:
        return entries[name]
    key = _key(name)
    for entry_key, profile in entries.items():
        own = getattr(profile, "name", "")
        written = _key(entry_key) if isinstance(entry_key, str) else None  # a library given in Python may hold any key
        if key in (written, _key(own) if isinstance(own, str) and own else None):
            return profile
    return None
