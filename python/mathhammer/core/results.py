"""The result base every engine function returns, and what results share.

:class:`ResultMixin` gives a frozen result dataclass ``to_dict`` / ``to_json`` / ``from_dict`` /
``from_json`` through the payload codec (:mod:`mathhammer.core.payload`); :class:`EngineResult`
adds how the result was made (``method``, ``samples``, ``seed``, ``variants``), its headline
figures (``summary()``, ``stderr``), pictures and renderings; :class:`Deferred` lets a result
compute some of its fields on first read (the one lazy mechanism: an exact call's arrays become
distributions only when looked at).
"""

from __future__ import annotations

import dataclasses
import json
import math
import typing
from collections.abc import Callable, Mapping, Sequence
from typing import Any, ClassVar, TypeVar

import numpy as np

from mathhammer.core import present
from mathhammer.core.checks import check_choice
from mathhammer.core.distributions import Distribution, JointDistribution
from mathhammer.core.guard import MAX_FILE_BYTES, check_depth, excerpt, label, loads
from mathhammer.core.options import MAX_SAMPLES, MAX_SEED
from mathhammer.core.payload import decode, encode
from mathhammer.errors import InputError, InputTypeError
from mathhammer.report import plot as pictures
from mathhammer.report import render

__all__ = [
    "OMITTED_WHEN_NONE", "Deferred", "EngineResult", "Figure", "MatrixResult", "Presented", "ResultMixin",
    "cell_matrix", "comparison_run", "deferred", "mean_stderr", "probability_stderr", "std_stderr",
]


#: The metadata key of a result field ``to_dict`` leaves out while it is None:
#: ``field(default=None, metadata={OMITTED_WHEN_NONE: True})``.
OMITTED_WHEN_NONE = "omitted_when_none"


class ResultMixin:
    """to_dict / to_json / from_dict / from_json for frozen result dataclasses.

    Fields typed Distribution, JointDistribution, numpy arrays, nested result dataclasses, tuples
    and dicts round-trip through JSON. Subclasses add ``to_frame``.
    """

    def to_dict(self) -> dict[str, Any]:
        # a field declared with OMITTED_WHEN_NONE is left out while None (from_dict gives its default
        # back): a figure only some inputs have leaves the payloads of the others as they were
        return {f.name: encode(value) for f in dataclasses.fields(self)  # type: ignore[arg-type]
                if (value := getattr(self, f.name)) is not None or not f.metadata.get(OMITTED_WHEN_NONE)}

    def to_json(self, **kwargs: Any) -> str:
        return json.dumps(self.to_dict(), **kwargs)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Any:
        """A result from :meth:`to_dict`'s payload. Every field is checked against its type
        (distributions as :meth:`Distribution.from_dict`); a payload of another shape is an
        InputError / InputTypeError naming the path inside it (``wounds_a.pmf[3]``)."""
        check_depth(cls.__name__, data)
        return cls._from_payload(data, "")

    @classmethod
    def _from_payload(cls, data: Any, field: str) -> Any:
        where = field or cls.__name__
        if not isinstance(data, Mapping):
            raise InputTypeError(where, f"expected a table, got {excerpt(data)}")
        fields = dataclasses.fields(cls)  # type: ignore[arg-type]
        names = [f.name for f in fields]
        for key in data:
            if key not in names:
                raise InputError(_join(field, label(key)), f"unknown key; allowed: {', '.join(names)}")
        hints = typing.get_type_hints(cls)
        kwargs: dict[str, Any] = {}
        for f in fields:
            if f.name in data:
                kwargs[f.name] = decode(hints.get(f.name), data[f.name], _join(field, f.name))
            elif f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING:
                raise InputError(_join(field, f.name), "missing")
        try:
            result = cls(**kwargs)
            result._check_payload(where)
            # the headline figures and the frame read every field: their shapes and names must agree
            if isinstance(result, EngineResult):
                result.summary()
            if not field and hasattr(result, "to_frame"):
                result.to_frame()
        except InputError:
            raise
        except (ValueError, TypeError, IndexError, KeyError, ArithmeticError) as error:
            raise InputError(where, f"inconsistent fields ({type(error).__name__}: {str(error)[:80]})") from None
        return result

    def _check_payload(self, field: str) -> None:
        """Checks across fields of a loaded payload that the field types cannot express (a
        subclass overrides it; errors name ``field``)."""

    @classmethod
    def from_json(cls, text: str) -> Any:
        """A result from :meth:`to_json`'s text (see :meth:`from_dict`)."""
        if not isinstance(text, (str, bytes, bytearray)):
            raise InputTypeError("json", f"expected JSON text, got {excerpt(text)}")
        if len(text) > MAX_FILE_BYTES:  # as files are (core.guard): refused before any decoding
            raise InputError("json", f"{len(text):,} characters; at most {MAX_FILE_BYTES:,} (16 MiB)")
        if not isinstance(text, str):
            try:
                text = bytes(text).decode("utf-8")
            except UnicodeDecodeError:
                raise InputError("json", "not UTF-8 text") from None
        return cls.from_dict(loads(text, "json", "json"))


def _join(field: str, key: str) -> str:
    return f"{field}.{key}" if field else key


def probability_stderr(p: float, samples: int | None) -> float | None:
    """Standard error of a Monte Carlo probability estimated from ``samples`` draws (None when exact)."""
    if samples is None:
        return None
    return math.sqrt(max(p * (1.0 - p), 0.0) / samples)


def mean_stderr(dist: Distribution, samples: int | None) -> float | None:
    """Standard error of the mean of a Monte Carlo distribution of ``samples`` draws (None when exact)."""
    if samples is None:
        return None
    return dist.std / math.sqrt(samples)


def std_stderr(dist: Distribution, samples: int | None) -> float | None:
    """Large-sample standard error of the standard deviation of a Monte Carlo distribution
    (delta method: SE(s) ~ sqrt((mu4 - sigma^4) / n) / (2 sigma)); None when exact."""
    if samples is None:
        return None
    sigma = dist.std
    if sigma == 0.0:
        return 0.0
    mu4 = float(np.dot((dist.values - dist.mean) ** 4, dist.pmf))
    return math.sqrt(max(mu4 - sigma**4, 0.0) / samples) / (2.0 * sigma)


#: One headline figure of a result: its value and its Monte Carlo standard error (None when exact).
Figure = tuple[float, "float | None"]


class Presented:
    """A result that prints the way its game's command prints it (its printer, :mod:`core.present`):
    as Markdown, as HTML in a notebook, as text for ``print`` and Rich."""

    def to_markdown(self) -> str:
        """The result's tables and summary lines as Markdown (for chat and docs), as the CLI prints them."""
        return render.markdown(present.sections(self))

    def _repr_html_(self) -> str:
        """What a notebook shows: the result's tables and summary lines as HTML."""
        return render.html(present.sections(self))

    def to_text(self) -> str:
        """The result's tables and summary lines as plain text (aligned columns, no colour)."""
        return render.text(present.sections(self))

    def __rich__(self) -> str:
        """Rich's protocol: ``rich.print(result)`` shows the result's tables (as :meth:`to_text`)."""
        return self.to_text().replace("[", "\\[")  # plain text, not Rich markup


class EngineResult(Presented, ResultMixin):
    """What every engine function's result shares: how it was made and what it found.

    Subclasses are frozen dataclasses with the fields ``method`` ("exact" or "monte_carlo"),
    ``samples`` (None for exact), ``seed`` (the seed a Monte Carlo run used, drawn when None was
    passed; None for exact) and ``variants`` (the game's ``Variants``), and define ``_figures()``.
    ``summary()`` is flat, with the same keys for every result of a type whatever its inputs;
    ``stderr`` has the same keys (None for exact). docs/results.md lists the keys of each type.
    """

    method: str
    samples: int | None
    seed: int | None

    def _figures(self) -> dict[str, Figure]:
        raise NotImplementedError

    def _check_payload(self, field: str) -> None:
        """A loaded result keeps what a computed one does (docs/results.md "Pickling and JSON"): a
        known method; samples and a seed for Monte Carlo only, in their ranges; every distribution
        over counts (from 0), and exact in an exact result."""
        name = type(self).__name__
        at = (lambda key: key) if field == name else (lambda key: f"{field}.{key}")
        if self.method not in ("exact", "monte_carlo"):
            raise InputError(at("method"), f"expected 'exact' or 'monte_carlo', got {excerpt(self.method)}")
        if self.method == "exact":
            for key in ("samples", "seed"):
                if getattr(self, key) is not None:
                    raise InputError(at(key), "an exact result has none (null)")
        else:
            if self.samples is None or not 1 <= self.samples <= MAX_SAMPLES:
                raise InputError(at("samples"), f"a Monte Carlo result has 1..{MAX_SAMPLES:,} samples")
            if self.seed is None or not 0 <= self.seed <= MAX_SEED:
                raise InputError(at("seed"), "a Monte Carlo result has its seed, 0..2**64-1")
        for key, value in vars(self).items():
            _check_loaded_distributions(at(key), value, self.samples)


    def summary(self) -> dict[str, float]:
        """The headline figures by name (see docs/results.md)."""
        return {name: float(value) for name, (value, _) in self._figures().items()}

    # --- pictures (docs/plots.md) ------------------------------------------------------------
    def plot_series(self) -> tuple[list[tuple[str, Distribution]], str, str]:
        """What ``plot()`` draws: (label, distribution) series, the quantity, and a title."""
        raise NotImplementedError

    def plot_joint(self) -> tuple[JointDistribution, tuple[str, str], str] | None:
        """The joint table ``plot(kind="joint")`` draws, its axis labels and title (None: none)."""
        return None

    def plot(self, ax: Any = None, *, kind: str = "pmf", label: str | None = None) -> Any:
        """Draw the result: kind "pmf" (bars), "at_least" (P(quantity >= k) curves) or, for results
        with a joint table (fights, melees), "joint" (a heat map). Returns the matplotlib Axes."""
        if kind == "joint":
            joint = self.plot_joint()
            if joint is None:
                raise InputError("kind", f"{type(self).__name__} has no joint table; use 'pmf' or 'at_least'")
            table, labels, title = joint
            return pictures.plot_joint(table.pmf, labels=labels, title=title, ax=ax)
        kind = check_choice("kind", kind, pictures.KINDS)
        series, quantity, title = self.plot_series()
        if label is not None:
            series = [(label if len(series) == 1 else f"{label}: {name}", dist) for name, dist in series]
        return pictures.plot_series([dist.series(name) for name, dist in series], quantity=quantity, title=title,
                                    kind=kind, ax=ax)

    @property
    def stderr(self) -> dict[str, float] | None:
        """Monte Carlo standard errors of the ``summary()`` figures, by the same names (None when exact)."""
        if self.samples is None:
            return None
        return {name: float(error) for name, (_, error) in self._figures().items() if error is not None}


# --- comparisons: results made of a matrix of results -------------------------------------------

def comparison_run(cells: Sequence[Sequence[EngineResult]], seed: int | None) -> dict[str, Any]:
    """How a comparison was made, from its cells: ``method`` "exact" when every cell is, else
    "monte_carlo" with the fewest ``samples`` of a Monte Carlo cell and ``seed``, the seed the cells'
    seeds derive from (docs/results.md "Comparisons"); ``variants`` those of the first cell."""
    sampled = [cell.samples for row in cells for cell in row if cell.samples is not None]
    return {"method": "monte_carlo" if sampled else "exact", "samples": min(sampled) if sampled else None,
            "seed": seed if sampled else None, "variants": getattr(cells[0][0], "variants")}


def cell_matrix(cells: Sequence[Sequence[Any]], figure: Callable[[Any], Any]) -> np.ndarray:
    """A comparison's matrix of one figure of its cells: ``out[i, j]`` (``out[i, j, k]`` for a figure
    that is a vector) is ``figure(cells[i][j])``."""
    return np.array([[figure(cell) for cell in row] for row in cells], dtype=float)


class MatrixResult(EngineResult):
    """A comparison: a matrix of results, ``results[i][j]`` the cell of row ``i`` and column ``j``
    (docs/results.md "Comparisons"). Its ``summary()`` holds, for each ``name: key`` of
    :attr:`EXTREMES`, ``max_<name>`` and ``min_<name>``: the highest and the lowest figure ``key`` of
    any cell, with that cell's standard error. Subclasses are frozen dataclasses declaring
    ``results``, their row and column labels (:meth:`_shape`), ``method``, ``samples``, ``seed`` and
    ``variants``. Where answers must stay small (the HTTP API), a comparison is its ``to_frame()``
    rows, one per cell, rather than every cell's whole result."""

    results: tuple[tuple[Any, ...], ...]
    EXTREMES: ClassVar[Mapping[str, str]] = {}

    def _shape(self) -> tuple[int, int]:
        """How many rows and columns its labels name."""
        raise NotImplementedError

    def to_frame(self) -> Any:
        """A pandas DataFrame with a row per cell (and per difference, where the comparison has them)."""
        raise NotImplementedError

    def _check_payload(self, field: str) -> None:
        """A loaded comparison: one cell per row and column label, and how it was made following from
        its cells (:func:`comparison_run`)."""
        super()._check_payload(field)
        rows, columns = self._shape()
        if len(self.results) != rows or any(len(row) != columns for row in self.results):
            raise InputError("results", f"expected {rows} rows of {columns} results, one per row and column label")
        expected = comparison_run(self.results, self.seed)
        for key in ("method", "samples"):
            if getattr(self, key) != expected[key]:
                raise InputError(key, f"{getattr(self, key)!r} does not follow from the cells ({expected[key]!r})")

    def _figures(self) -> dict[str, Figure]:
        found = [cell._figures() for row in self.results for cell in row]
        out: dict[str, Figure] = {}
        for name, key in self.EXTREMES.items():
            values = [figures[key] for figures in found]
            out[f"max_{name}"] = max(values, key=lambda figure: figure[0])
            out[f"min_{name}"] = min(values, key=lambda figure: figure[0])
        return out

    def __str__(self) -> str:
        """``print(comparison)``: the tables its printer makes, as plain text."""
        return self.to_text()


# --- fields computed on first read ---------------------------------------------------------------
# An exact engine call is a few microseconds of C++; turning its arrays into every Distribution and
# figure of a result costs ten times that in numpy calls. A result class listing some of its
# dataclass fields in `deferred` can be made with those fields pending (Deferred._pending_result):
# the first read of one runs the function that computes it (or the one that computes them all), with
# the same numpy code an eager result runs, so every number, repr, to_json() and summary() is
# unchanged.

_PENDING = "_pending_fields"

T = TypeVar("T", bound="Deferred")

#: How pending fields are computed: one function returning every deferred field, or one function
#: per field (a caller reading one figure does not pay for the others).
Compute = Callable[[], Mapping[str, Any]] | Mapping[str, Callable[[], Any]]


class _Pending:
    """A class attribute standing in for a field not computed yet (a non-data descriptor: once the
    instance holds the value in its ``__dict__``, reads never reach it again)."""

    __slots__ = ("name",)

    def __init__(self, name: str) -> None:
        self.name = name

    def __get__(self, instance: Any, owner: type | None = None) -> Any:
        if instance is None:
            raise AttributeError(self.name)  # a class has no value for an instance field
        values = instance.__dict__
        compute = values.get(_PENDING)
        if compute is not None and not callable(compute):  # a function per field: this one alone
            value = values[self.name] = compute[self.name]()
            return value
        instance._complete(self.name)
        return values[self.name]


class Deferred:
    """Mixin of a frozen dataclass result whose :func:`deferred` fields may be computed on first read."""

    @classmethod
    def _pending_result(cls: type[T], ready: Mapping[str, Any], compute: Compute) -> T:
        """A result holding the fields in ``ready``; ``compute()`` returns every deferred field, or
        ``compute[name]()`` each one."""
        self = cls.__new__(cls)
        self.__dict__.update(ready)
        self.__dict__[_PENDING] = compute
        return self

    def _complete(self, name: str | None = None) -> None:
        """Compute the pending field ``name`` (None: every pending field)."""
        values = self.__dict__
        compute = values.get(_PENDING)
        if compute is None:
            return
        if callable(compute):
            # filled before the pending work is dropped: a reader on another thread never sees neither
            values.update(compute())
            values.pop(_PENDING, None)
            return
        for field in [name] if name is not None else list(compute):
            if field not in values:
                values[field] = compute[field]()
        if name is None:  # every field is in (a field read alone leaves the others' work pending)
            values.pop(_PENDING, None)

    def __getstate__(self) -> dict[str, Any]:
        # pickles and copies hold the values, never the pending work (it may hold C++ objects)
        self._complete()
        return dict(self.__dict__)


def deferred(*names: str) -> Callable[[type[T]], type[T]]:
    """Class decorator, applied above ``@dataclass``: the named fields may be left pending."""

    def install(cls: type[T]) -> type[T]:
        fields = getattr(cls, "__dataclass_fields__", {})
        for name in names:
            if name not in fields:
                raise TypeError(f"{cls.__name__}.{name} is not a dataclass field")
            setattr(cls, name, _Pending(name))
        return cls

    return install


def _check_loaded_distributions(field: str, value: Any, samples: int | None) -> None:
    """Every distribution in ``value`` (a field of a loaded result, maybe nested) counts from 0, and
    an exact result's are exact (a Monte Carlo one's may count more draws than its samples: the
    attack dice of every round of a shot)."""
    if isinstance(value, (Distribution, JointDistribution)):
        if isinstance(value, Distribution) and value.start < 0:
            raise InputError(f"{field}.start", f"counts start at 0 or more, got {value.start}")
        if samples is None and value.samples is not None:
            raise InputError(f"{field}.samples", "an exact result's distributions are exact (samples null)")
    elif isinstance(value, (tuple, list)):
        for i, item in enumerate(value):
            _check_loaded_distributions(f"{field}[{i}]", item, samples)
    elif isinstance(value, Mapping):
        for key, item in value.items():
            _check_loaded_distributions(f"{field}.{label(key)}", item, samples)
    elif dataclasses.is_dataclass(value) and not isinstance(value, type):
        for item in dataclasses.fields(value):
            _check_loaded_distributions(f"{field}.{item.name}", getattr(value, item.name), samples)
