"""The options every engine function shares, checked in one place, and rule variants by one name.

Every engine function (``kt.fight``, ``kt.shoot``, ``kt.attack_dice``, ``sc.attack``,
``sc.sequence``, ``db.combat``, ``db.round``, ``fm.melee``, ``fm.melee_many``) takes the keyword-only
options ``method, samples, seed, threads, progress, executor, variants`` and hands the first six to
:func:`engine_options` before doing any work, whichever engine then runs: a bad value fails the same
way everywhere (an :class:`~mathhammer.InputError` naming the field, or an
:class:`~mathhammer.InputTypeError` for a wrong type).

Each game's rule switches are one frozen dataclass, ``<game>.Variants`` (a subclass of
:class:`Variants`), passed as ``variants=``: a ``Variants``, a mapping of its field names, a preset
name, or the text ``"field=value,field=value"`` (what ``--variants`` on the command line passes).
"""

from __future__ import annotations

import dataclasses
import secrets
import typing
from collections.abc import Callable, Iterable, Mapping
from concurrent.futures import Executor
from typing import Any, ClassVar, TypeVar

from mathhammer import _configs  # noqa: F401  (registers pickling for the C++ configs)
from mathhammer._validate import InputError, InputTypeError, check_choice, check_int

__all__ = [
    "METHODS",
    "MAX_SAMPLES",
    "MAX_THREADS",
    "EngineOptions",
    "Variants",
    "check_switches",
    "engine_options",
]

METHODS: tuple[str, ...] = ("auto", "exact", "monte_carlo")
MAX_SAMPLES: int = 10_000_000_000
MAX_THREADS: int = 256
MAX_SEED: int = 2**64 - 1

#: progress(done, total) is called between batches of work, from the calling thread.
Progress = Callable[[int, int], None]


@dataclasses.dataclass(frozen=True)
class EngineOptions:
    """The validated engine options of one call (see :func:`engine_options`)."""

    method: str
    samples: int
    seed: int | None
    threads: int | None
    progress: Progress | None
    executor: Executor | None

    def draw_seed(self) -> int:
        """The seed a Monte Carlo run uses: the one given, else a fresh one from the operating system.

        Results record it, so a run made with ``seed=None`` can be repeated exactly.
        """
        return secrets.randbits(64) if self.seed is None else self.seed


def engine_options(
    method: Any = "auto",
    samples: Any = 1_000_000,
    seed: Any = None,
    threads: Any = None,
    progress: Any = None,
    executor: Any = None,
    *,
    methods: Iterable[str] = METHODS,
) -> EngineOptions:
    """Check the shared engine options; every engine function calls this before any work.

    method: one of ``methods`` (by default "auto", "exact", "monte_carlo"); samples: 1..10**10;
    seed: None or 0..2**64-1; threads: None or 1..256; progress: None or a callable(done, total);
    executor: None or a ``concurrent.futures.Executor`` (Monte Carlo hands its batches to it; an
    exact run ignores it).
    """
    if seed is None and threads is None and progress is None and executor is None and type(samples) is int \
            and type(method) is str:
        # The common call (defaults but the method): checked once per distinct value, as the checks
        # cost more than a small exact engine call. Exact types only, so True never passes for 1.
        choices = methods if isinstance(methods, tuple) else tuple(methods)
        key = (method, samples, choices)
        cached = _PLAIN_OPTIONS.get(key)
        if cached is None:
            cached = _checked_options(method, samples, None, None, None, None, choices)
            if len(_PLAIN_OPTIONS) < _PLAIN_OPTIONS_MAX:
                _PLAIN_OPTIONS[key] = cached
        return cached
    return _checked_options(method, samples, seed, threads, progress, executor, tuple(methods))


# engine_options' results for calls with default seed, threads, progress and executor (frozen, so shared)
_PLAIN_OPTIONS: dict[tuple[str, int, tuple[str, ...]], EngineOptions] = {}
_PLAIN_OPTIONS_MAX = 256


def _checked_options(method: Any, samples: Any, seed: Any, threads: Any, progress: Any, executor: Any,
                     methods: tuple[str, ...]) -> EngineOptions:
    method = check_choice("method", method, methods)
    samples = check_int("samples", samples, 1, MAX_SAMPLES)
    if seed is not None:
        seed = check_int("seed", seed, 0, MAX_SEED)
    if threads is not None:
        threads = check_int("threads", threads, 1, MAX_THREADS)
    if progress is not None and not callable(progress):
        raise InputTypeError("progress", f"expected None or a callable progress(done, total), got {progress!r}")
    if executor is not None and not isinstance(executor, Executor):
        raise InputTypeError(
            "executor", f"expected None or a concurrent.futures.Executor, got {type(executor).__name__}"
        )
    return EngineOptions(method, samples, seed, threads, progress, executor)


V = TypeVar("V", bound="Variants")


@dataclasses.dataclass(frozen=True)
class Variants:
    """Base of every game's rule switches (``kt.Variants``, ``sc.Variants``, ``db.Variants``,
    ``fm.Variants``): a frozen dataclass whose fields are the switches and whose defaults are the
    readings of the game's rules page. ``PRESETS`` maps a preset name to its switches."""

    PRESETS: ClassVar[Mapping[str, Mapping[str, Any]]] = {}
    GAME: ClassVar[str] = ""

    @classmethod
    def field_names(cls) -> tuple[str, ...]:
        return tuple(f.name for f in dataclasses.fields(cls))

    def to_dict(self) -> dict[str, Any]:
        return {name: getattr(self, name) for name in self.field_names()}

    @classmethod
    def from_dict(cls: type[V], data: Mapping[str, Any], field: str = "variants") -> V:
        if not isinstance(data, Mapping):
            raise InputTypeError(field or "variants", f"expected a mapping of switches, got {type(data).__name__}")
        names = cls.field_names()
        for key in data:
            if key not in names:
                allowed = ", ".join(names) if names else "none (this game has no switches yet)"
                raise InputError(_dotted(field, str(key)), f"unknown rule variant; allowed: {allowed}")
        try:
            return cls(**dict(data))
        except (InputError, InputTypeError) as error:
            inner = error.field.split(".")[-1]
            message = str(error)[len(error.field) + 2:]
            raise type(error)(_dotted(field, inner), message) from None

    @classmethod
    def resolve(cls: type[V], value: Any, field: str = "variants") -> V:
        """A ``Variants`` from None (the defaults), itself, a mapping of switches, a preset name, or
        the text ``"field=value,field=value"``."""
        if value is None:
            # the defaults, built (and checked) once per class: frozen, so one instance serves every call
            default = _DEFAULT_VARIANTS.get(cls)
            if default is None:
                default = _DEFAULT_VARIANTS[cls] = cls()
            return default  # type: ignore[return-value]
        if isinstance(value, cls):
            return value
        if isinstance(value, Variants):
            raise InputTypeError(field, f"expected {cls.__qualname__} of this game, got {type(value).__qualname__}")
        if isinstance(value, Mapping):
            return cls.from_dict(value, field)
        if isinstance(value, str):
            return cls._from_text(value, field)
        raise InputTypeError(
            field, f"expected None, a preset name, a mapping of switches or {cls.__qualname__}(...), got {value!r}"
        )

    @classmethod
    def _from_text(cls: type[V], text: str, field: str) -> V:
        from mathhammer._guard import check_notation

        key = check_notation(field, text).strip().lower()  # bounded: no 5,000-digit switch value
        if key in cls.PRESETS:
            return cls.from_dict(cls.PRESETS[key], field)
        if "=" not in text:
            presets = ", ".join(cls.PRESETS) if cls.PRESETS else "none yet"
            raise InputError(
                field, f"unknown preset {text!r}; presets: {presets}; or write switches as 'field=value,field=value' "
                f"(fields: {', '.join(cls.field_names()) or 'none'})"
            )
        hints = typing.get_type_hints(cls)
        data: dict[str, Any] = {}
        for part in text.split(","):
            if not part.strip():
                continue
            name, sep, raw = part.partition("=")
            name = name.strip()
            if not sep or not name:
                raise InputError(field, f"{part.strip()!r} is not 'field=value'")
            if name not in hints or name in ("PRESETS", "GAME"):
                cls.from_dict({name: None}, field)  # raises the unknown-switch error listing the fields
            data[name] = _parse_switch(f"{field}.{name}", raw.strip(), hints[name])
        return cls.from_dict(data, field)


_DEFAULT_VARIANTS: dict[type[Variants], Variants] = {}


def _dotted(field: str, name: str) -> str:
    return f"{field}.{name}" if field else name


def _parse_switch(field: str, raw: str, hint: Any) -> Any:
    """A switch value written as text: booleans as true/false (yes/no, on/off, 1/0), integers as digits."""
    if hint is bool:
        lowered = raw.lower()
        if lowered in ("true", "yes", "on", "1"):
            return True
        if lowered in ("false", "no", "off", "0"):
            return False
        raise InputError(field, f"{raw!r} is not true or false")
    if hint is int:
        if not raw.isdecimal() or len(raw) > 6:
            raise InputError(field, f"{raw!r} is not a whole number")
        return int(raw)
    return raw


def check_switches(variants_cls: type[V], variants: Any, switches: Mapping[str, Any]) -> V:
    """The variants of a function that also takes some switches as plain keywords (``rules=`` in
    StarCraft, ``edition=`` ... in Deathburgh, ``winner_damage=`` ... in Force melee).

    ``switches`` holds the keywords the caller gave (None = not given). Giving both a switch keyword
    and ``variants=`` is an error: one of them would be silently ignored.
    """
    given = {name: value for name, value in switches.items() if value is not None}
    if given and variants is not None:
        name = next(iter(given))
        raise InputError(name, f"give the switch either as {name}= or inside variants=, not both")
    if given:
        return variants_cls.from_dict(given, "")
    return variants_cls.resolve(variants)
