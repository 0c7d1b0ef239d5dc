"""Result types shared by every game: a distribution over integers and a joint distribution of two.

Both are immutable and numpy-backed. A Monte Carlo result carries its sample count and standard
errors; an exact one has ``samples is None`` and ``stderr is None``.
"""

from __future__ import annotations

import dataclasses
import json
import math
import types
import typing
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from mathhammer._guard import check_depth, excerpt, label, loads
from mathhammer._validate import InputError, InputTypeError

__all__ = ["Distribution", "EngineResult", "JointDistribution", "ResultMixin"]


def _as_floats(field: str, value: Any) -> np.ndarray:
    try:
        return np.asarray(value, dtype=np.float64)
    except (TypeError, ValueError, OverflowError):
        raise InputTypeError(field, f"expected numbers, got {excerpt(value)}") from None


def _as_int(field: str, value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise InputTypeError(field, f"expected an integer, got {excerpt(value)}")
    return int(value)


def _frozen(array: Any, dtype: Any = np.float64) -> np.ndarray:
    out = np.array(array, dtype=dtype, copy=True)
    out.setflags(write=False)
    return out


class Distribution:
    """Probability of each integer value ``start, start+1, …`` (``pmf[i]`` is P(X = start + i)).

    Questions players ask: ``mean``, ``std``, ``at_least(k)``, ``at_most(k)``, ``quantile(q)``.
    ``cdf[i]`` is P(X <= start + i) and ``sf[i]`` is P(X > start + i) (the scipy convention).

    ``d1 + d2`` is the distribution of the sum of two independent outcomes (a convolution), ``d + k``
    shifts by an integer, and ``sum([d1, d2, ...])`` works. Two exact operands give an exact sum;
    with a Monte Carlo operand the sum is ``estimated``: it has no per-cell standard errors
    (``samples`` and ``stderr`` are None, ``is_exact`` is False), as its cells are not sample counts.
    """

    __slots__ = ("_pmf", "_start", "_samples", "_estimated")

    def __init__(self, pmf: Sequence[float] | np.ndarray, start: int = 0, samples: int | None = None,
                 estimated: bool = False) -> None:
        p = _as_floats("pmf", pmf)
        if p.ndim != 1 or p.size == 0:
            raise InputError("pmf", "expected a non-empty 1-D sequence of probabilities")
        self._pmf = _frozen(p)
        self._start = _as_int("start", start)
        self._samples = None if samples is None else _as_int("samples", samples)
        # derived from Monte Carlo figures without per-cell errors (a sum with a Monte Carlo operand)
        self._estimated = bool(estimated) and self._samples is None

    @classmethod
    def _adopt(cls, pmf: np.ndarray, samples: int | None = None) -> Distribution:
        """An exact or sampled distribution over 0.. taking ownership of ``pmf``, a fresh non-empty 1-D
        float64 array nobody else holds (the engines' own output): frozen in place, not copied."""
        self = cls.__new__(cls)
        pmf.setflags(write=False)
        self._pmf = pmf
        self._start = 0
        self._samples = samples
        self._estimated = False
        return self

    def __reduce__(self) -> tuple[Any, ...]:
        # rebuilt through __init__, so an unpickled distribution is read-only again
        return (Distribution, (self._pmf, self._start, self._samples, self._estimated))

    def __add__(self, other: object) -> Distribution:
        """The sum of two independent outcomes (convolution), or a shift by an integer."""
        if isinstance(other, (bool, np.bool_)):
            return NotImplemented
        if isinstance(other, (int, np.integer)):
            return Distribution(self._pmf, self._start + int(other), self._samples, self._estimated)
        if not isinstance(other, Distribution):
            return NotImplemented
        pmf = np.convolve(self._pmf, other._pmf)
        return Distribution(pmf, self._start + other._start, estimated=not (self.is_exact and other.is_exact))

    def __radd__(self, other: object) -> Distribution:
        # sum([...]) starts from 0
        return self.__add__(other)

    @classmethod
    def from_counts(cls, counts: Sequence[int] | np.ndarray, start: int = 0) -> Distribution:
        c = np.asarray(counts, dtype=np.float64)
        n = int(round(c.sum()))
        if n <= 0:
            raise ValueError("counts: no samples")
        return cls(c / n, start=start, samples=n)

    @classmethod
    def point(cls, value: int) -> Distribution:
        return cls([1.0], start=value)

    # --- the numbers -------------------------------------------------------------------------
    @property
    def pmf(self) -> np.ndarray:
        return self._pmf

    @property
    def start(self) -> int:
        return self._start

    @property
    def values(self) -> np.ndarray:
        return np.arange(self._start, self._start + self._pmf.size)

    @property
    def samples(self) -> int | None:
        return self._samples

    @property
    def is_exact(self) -> bool:
        return self._samples is None and not self._estimated

    @property
    def estimated(self) -> bool:
        """True for a sum with a Monte Carlo operand: approximate, without per-cell standard errors."""
        return self._estimated

    @property
    def mean(self) -> float:
        return float(np.dot(self.values, self._pmf))

    @property
    def var(self) -> float:
        return float(max(0.0, np.dot((self.values - self.mean) ** 2, self._pmf)))

    @property
    def std(self) -> float:
        return math.sqrt(self.var)

    @property
    def cdf(self) -> np.ndarray:
        return _frozen(np.minimum(np.cumsum(self._pmf), 1.0))

    @property
    def sf(self) -> np.ndarray:
        return _frozen(np.maximum(1.0 - np.cumsum(self._pmf), 0.0))

    @property
    def stderr(self) -> np.ndarray | None:
        """Standard error of each Monte Carlo probability, sqrt(p (1 - p) / samples)."""
        if self._samples is None:
            return None
        # max(0, .): a Monte Carlo p can round to 1 + 1e-16
        return _frozen(np.sqrt(np.maximum(self._pmf * (1.0 - self._pmf), 0.0) / self._samples))

    @property
    def mean_stderr(self) -> float | None:
        return None if self._samples is None else self.std / math.sqrt(self._samples)

    def prob(self, value: int) -> float:
        i = int(value) - self._start
        return float(self._pmf[i]) if 0 <= i < self._pmf.size else 0.0

    def at_least(self, k: int) -> float:
        i = max(0, int(k) - self._start)
        return float(min(1.0, self._pmf[i:].sum()))

    def at_most(self, k: int) -> float:
        i = int(k) - self._start + 1
        return float(min(1.0, self._pmf[: max(0, i)].sum()))

    def quantile(self, q: float) -> int:
        """Smallest value v with P(X <= v) >= q."""
        if isinstance(q, bool) or not isinstance(q, (int, float, np.integer, np.floating)):
            raise InputTypeError("q", f"expected a number in 0..1, got {excerpt(q)}")
        if not 0.0 <= q <= 1.0:
            raise InputError("q", f"{excerpt(q)} is out of range; allowed 0..1")
        idx = int(np.searchsorted(np.cumsum(self._pmf), q - 1e-12))
        return self._start + min(idx, self._pmf.size - 1)

    @property
    def min(self) -> int:
        return self._start + int(np.flatnonzero(self._pmf > 0)[0])

    @property
    def max(self) -> int:
        return self._start + int(np.flatnonzero(self._pmf > 0)[-1])

    # --- conversions -------------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "start": self._start,
            "pmf": self._pmf.tolist(),
            "mean": self.mean,
            "std": self.std,
            "samples": self._samples,
        }
        if self._samples is not None:
            out["stderr"] = self.stderr.tolist()  # type: ignore[union-attr]
        if self._estimated:
            out["estimated"] = True
        return out

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], field: str = "distribution") -> Distribution:
        """A distribution from :meth:`to_dict`'s payload, checked: a non-empty list of finite
        probabilities >= 0 summing to 1 (within 1e-9), an integer ``start`` and ``samples`` None or
        >= 1. Errors are InputError naming the path inside the payload (``field.pmf[2]``)."""
        _check_keys(field, data, ("pmf", "start", "samples", "mean", "std", "stderr", "estimated"))
        pmf = _check_pmf(f"{field}.pmf", data.get("pmf"), 1)
        start = data.get("start", 0)
        _check_payload_int(f"{field}.start", start, -MAX_PAYLOAD_VALUE, MAX_PAYLOAD_VALUE)
        estimated = data.get("estimated", False)
        if not isinstance(estimated, bool):
            raise InputTypeError(f"{field}.estimated", f"expected true or false, got {excerpt(estimated)}")
        return cls(pmf, start=start, samples=_check_samples(f"{field}.samples", data.get("samples")),
                   estimated=estimated)

    def to_frame(self, name: str = "value") -> Any:
        import pandas as pd

        columns: dict[str, Any] = {name: self.values, "p": self._pmf, "p_at_least": self.sf + self._pmf}
        if self._samples is not None:
            columns["stderr"] = self.stderr
        return pd.DataFrame(columns)

    def plot(self, ax: Any = None, label: str | None = None, *, kind: str = "pmf", quantity: str = "value",
             **bar_kwargs: Any) -> Any:
        """Bars of the pmf in percent (kind "pmf", with 2-standard-error bars on the non-empty cells of a
        Monte Carlo distribution) or the P(X >= k) curve (kind "at_least"); needs the ``plot`` extra
        (matplotlib). ``bar_kwargs`` go to matplotlib's ``bar``. Returns the Axes."""
        from mathhammer import plotting

        axes = plotting.plot_series([(label or "", self)], quantity=quantity, kind=kind, ax=ax, **bar_kwargs)
        if label is not None:
            axes.legend()
        return axes

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Distribution):
            return NotImplemented
        return (
            self._start == other._start
            and self._samples == other._samples
            and self._estimated == other._estimated
            and np.array_equal(self._pmf, other._pmf)
        )

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        kind = "exact" if self._samples is None else f"samples={self._samples}"
        if self._estimated:
            kind = "estimated, no stderr"
        return f"Distribution(mean={self.mean:.4f}, std={self.std:.4f}, support={self.min}..{self.max}, {kind})"


class JointDistribution:
    """Joint probability of two integer outcomes: ``pmf[i, j]`` = P(X = i, Y = j) (both from 0).

    ``names`` label the two axes (e.g. ``("wounds_a", "wounds_b")``).
    """

    __slots__ = ("_pmf", "_names", "_samples")

    def __init__(self, pmf: np.ndarray, names: tuple[str, str] = ("x", "y"), samples: int | None = None) -> None:
        p = _as_floats("pmf", pmf)
        if p.ndim != 2 or p.size == 0:
            raise InputError("pmf", "expected a non-empty 2-D array of probabilities")
        self._pmf = _frozen(p)
        if not isinstance(names, (tuple, list)) or len(names) != 2:
            raise InputTypeError("names", f"expected two axis names, got {excerpt(names)}")
        self._names = (str(names[0]), str(names[1]))
        self._samples = None if samples is None else _as_int("samples", samples)

    @classmethod
    def _adopt(cls, pmf: np.ndarray, names: tuple[str, str]) -> JointDistribution:
        """An exact joint distribution taking ownership of ``pmf``, a fresh non-empty 2-D float64 array
        nobody else holds (the engines' own output): frozen in place, not copied."""
        self = cls.__new__(cls)
        pmf.setflags(write=False)
        self._pmf = pmf
        self._names = names
        self._samples = None
        return self

    def __reduce__(self) -> tuple[Any, ...]:
        return (JointDistribution, (self._pmf, self._names, self._samples))

    @classmethod
    def from_counts(cls, counts: np.ndarray, names: tuple[str, str] = ("x", "y")) -> JointDistribution:
        c = np.asarray(counts, dtype=np.float64)
        n = int(round(c.sum()))
        if n <= 0:
            raise ValueError("counts: no samples")
        return cls(c / n, names=names, samples=n)

    @property
    def pmf(self) -> np.ndarray:
        return self._pmf

    @property
    def names(self) -> tuple[str, str]:
        return self._names

    @property
    def samples(self) -> int | None:
        return self._samples

    @property
    def stderr(self) -> np.ndarray | None:
        if self._samples is None:
            return None
        # max(0, .): a Monte Carlo p can round to 1 + 1e-16
        return _frozen(np.sqrt(np.maximum(self._pmf * (1.0 - self._pmf), 0.0) / self._samples))

    def marginal(self, axis: int | str) -> Distribution:
        """The distribution of one axis (0 / 1, or its name)."""
        if isinstance(axis, str):
            if axis not in self._names:
                raise InputError("axis", f"unknown name {excerpt(axis)}; allowed: {', '.join(self._names)}")
            axis = self._names.index(axis)
        # 1.0 == 1 and True == 1: only a real integer names an axis (numpy's sum refuses a float).
        if isinstance(axis, bool) or not isinstance(axis, (int, np.integer)):
            raise InputTypeError("axis", f"expected 0, 1 or a name, got {excerpt(axis)}")
        if axis not in (0, 1):
            raise InputError("axis", f"{excerpt(axis)} is out of range; allowed 0, 1 or a name")
        axis = int(axis)
        return Distribution(self._pmf.sum(axis=1 - axis), samples=self._samples)

    def prob(self, predicate: Any) -> float:
        """P(predicate(i, j)) where predicate takes numpy index grids and returns a boolean mask."""
        i, j = np.indices(self._pmf.shape)
        return float(self._pmf[np.asarray(predicate(i, j), dtype=bool)].sum())

    def to_dict(self) -> dict[str, Any]:
        return {"names": list(self._names), "pmf": self._pmf.tolist(), "samples": self._samples}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], field: str = "joint") -> JointDistribution:
        """A joint distribution from :meth:`to_dict`'s payload, checked as :meth:`Distribution.from_dict`
        (``pmf`` a non-empty rectangular list of rows) with ``names`` two strings."""
        _check_keys(field, data, ("pmf", "names", "samples"))
        pmf = _check_pmf(f"{field}.pmf", data.get("pmf"), 2)
        names = data.get("names", ["x", "y"])
        if not isinstance(names, (list, tuple)) or len(names) != 2 or not all(isinstance(n, str) for n in names):
            raise InputError(f"{field}.names", f"expected two axis names, got {excerpt(names)}")
        return cls(pmf, names=(names[0], names[1]), samples=_check_samples(f"{field}.samples", data.get("samples")))

    def to_frame(self) -> Any:
        """Long format: one row per (x, y) with non-zero probability."""
        import pandas as pd

        i, j = np.nonzero(self._pmf)
        return pd.DataFrame({self._names[0]: i, self._names[1]: j, "p": self._pmf[i, j]})

    def plot(self, ax: Any = None, **imshow_kwargs: Any) -> Any:
        """A heat map of the joint pmf (needs the ``plot`` extra: matplotlib). Returns the Axes."""
        plt = _pyplot()
        if ax is None:
            _, ax = plt.subplots()
        image = ax.imshow(self._pmf, origin="lower", aspect="auto", **imshow_kwargs)
        ax.set_ylabel(self._names[0])
        ax.set_xlabel(self._names[1])
        ax.figure.colorbar(image, ax=ax, label="probability")
        return ax

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, JointDistribution):
            return NotImplemented
        return self._names == other._names and self._samples == other._samples and np.array_equal(self._pmf, other._pmf)

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        kind = "exact" if self._samples is None else f"samples={self._samples}"
        return f"JointDistribution({self._names[0]} x {self._names[1]}, shape={self._pmf.shape}, {kind})"


#: Largest |value| of a payload integer (start values, counts): far beyond any game, far below overflow.
MAX_PAYLOAD_VALUE = 10**9
#: Most probabilities a payload distribution may hold.
MAX_PAYLOAD_CELLS = 10**7


def _check_keys(field: str, data: Any, allowed: Sequence[str]) -> None:
    if not isinstance(data, Mapping):
        raise InputTypeError(field, f"expected a table, got {excerpt(data)}")
    for key in data:
        if key not in allowed:
            raise InputError(f"{field}.{label(key)}", f"unknown key; allowed: {', '.join(allowed)}")


def _check_payload_int(field: str, value: Any, lo: int, hi: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise InputTypeError(field, f"expected an integer, got {excerpt(value)}")
    if not lo <= value <= hi:
        raise InputError(field, f"{excerpt(value)} is out of range; allowed {lo}..{hi}")
    return value


def _check_samples(field: str, value: Any) -> int | None:
    return None if value is None else _check_payload_int(field, value, 1, 2**63 - 1)


def _check_pmf(field: str, value: Any, ndim: int) -> np.ndarray:
    """Probabilities as an ``ndim``-D float array: real numbers only, finite, >= 0, summing to 1."""
    rows = [value] if ndim == 1 else value
    if not isinstance(rows, (list, tuple)) or not rows:
        raise InputTypeError(field, f"expected a non-empty {'list' if ndim == 1 else 'list of rows'} of "
                             f"probabilities, got {excerpt(value)}")
    width = None
    for i, row in enumerate(rows):
        where = field if ndim == 1 else f"{field}[{i}]"
        if not isinstance(row, (list, tuple)) or not row:
            raise InputTypeError(where, f"expected a non-empty list of probabilities, got {excerpt(row)}")
        if width is not None and len(row) != width:
            raise InputError(where, f"rows of different lengths ({len(row)} and {width})")
        width = len(row)
        if len(rows) * width > MAX_PAYLOAD_CELLS:
            raise InputError(field, f"more than {MAX_PAYLOAD_CELLS} probabilities")
        for j, p in enumerate(row):
            if isinstance(p, bool) or not isinstance(p, (int, float)):
                raise InputTypeError(f"{where}[{j}]", f"expected a probability, got {excerpt(p)}")
            if not (isinstance(p, float) and math.isfinite(p) or isinstance(p, int)) or not 0 <= p <= 1 + 1e-9:
                raise InputError(f"{where}[{j}]", f"{excerpt(p)} is not a probability (0..1)")
    array = np.array(value, dtype=np.float64)
    total = math.fsum(array.ravel().tolist())
    if abs(total - 1.0) > 1e-9:
        raise InputError(field, f"probabilities sum to {total!r}, not 1")
    return array


def _pyplot() -> Any:
    try:
        import matplotlib.pyplot as plt
    except ImportError:
        raise ImportError("plotting needs matplotlib: pip install 'mathhammer[plot]'") from None
    return plt


def _encode(value: Any) -> Any:
    if isinstance(value, (Distribution, JointDistribution)):
        return value.to_dict()
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        if hasattr(value, "to_dict"):
            return value.to_dict()
        return {f.name: _encode(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, np.ndarray):
        return value.tolist()
    if isinstance(value, (np.integer,)):
        return int(value)
    if isinstance(value, (np.floating,)):
        return float(value)
    if isinstance(value, dict):
        return {str(k): _encode(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_encode(v) for v in value]
    return value


def _decode(hint: Any, value: Any, field: str = "payload") -> Any:
    """A JSON value back into the type ``hint`` names, checked: a value of another type is an
    InputError / InputTypeError naming ``field``, its path inside the payload."""
    origin = typing.get_origin(hint)
    args = typing.get_args(hint)
    if origin is typing.Union or origin is types.UnionType:  # Optional[X] / X | None
        if value is None and type(None) in args:
            return None
        options = [arg for arg in args if arg is not type(None)]
        if len(options) == 1:
            return _decode(options[0], value, field)
        return value  # a union of several types: the class's own checks decide
    if hint is None or hint is Any:
        return value
    if value is None:
        raise InputTypeError(field, f"expected {_type_name(hint)}, got None")
    if hint is Distribution:
        return Distribution.from_dict(value, field)
    if hint is JointDistribution:
        return JointDistribution.from_dict(value, field)
    if isinstance(hint, type) and dataclasses.is_dataclass(hint) and hasattr(hint, "from_dict"):
        if issubclass(hint, ResultMixin):
            return hint._from_payload(value, field)
        if not isinstance(value, Mapping):
            raise InputTypeError(field, f"expected a table, got {excerpt(value)}")
        try:
            return hint.from_dict(value, field) if _takes_field(hint) else hint.from_dict(value)
        except (InputError, InputTypeError) as error:
            if error.field.startswith(field):
                raise
            raise type(error)(f"{field}.{error.field}", str(error)[len(error.field) + 2:]) from None
    if hint is np.ndarray:
        return _decode_array(field, value)
    if hint is bool:
        if not isinstance(value, bool):
            raise InputTypeError(field, f"expected true or false, got {excerpt(value)}")
        return value
    if hint is int:
        return _check_payload_int(field, value, -(2**63), 2**64 - 1)
    if hint is float:
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise InputTypeError(field, f"expected a number, got {excerpt(value)}")
        if isinstance(value, int) and abs(value) > MAX_PAYLOAD_VALUE or not math.isfinite(float(value)):
            raise InputError(field, f"{excerpt(value)} is not a finite number")
        return float(value)
    if hint is str:
        if not isinstance(value, str):
            raise InputTypeError(field, f"expected a string, got {excerpt(value)}")
        return value
    if origin is tuple or origin is list:
        if not isinstance(value, (list, tuple)):
            raise InputTypeError(field, f"expected a list, got {excerpt(value)}")
        if origin is list or (len(args) == 2 and args[1] is Ellipsis):
            item = args[0] if args else Any
            decoded = [_decode(item, v, f"{field}[{i}]") for i, v in enumerate(value)]
            return decoded if origin is list else tuple(decoded)
        if args:
            if len(args) != len(value):
                raise InputError(field, f"expected {len(args)} items, got {len(value)}")
            return tuple(_decode(a, v, f"{field}[{i}]") for i, (a, v) in enumerate(zip(args, value)))
        return tuple(value)
    if origin is dict:
        if not isinstance(value, Mapping):
            raise InputTypeError(field, f"expected a table, got {excerpt(value)}")
        key_type, item = args if len(args) == 2 else (Any, Any)
        out = {}
        for k, v in value.items():
            if key_type is str and not isinstance(k, str):
                raise InputTypeError(f"{field}.{label(k)}", "expected a string key")
            out[k] = _decode(item, v, f"{field}.{label(k)}")
        return out
    return value


def _type_name(hint: Any) -> str:
    return getattr(hint, "__name__", str(hint))


def _takes_field(cls: type) -> bool:
    import inspect

    try:
        return "field" in inspect.signature(cls.from_dict).parameters  # type: ignore[attr-defined]
    except (TypeError, ValueError):  # pragma: no cover - a builtin signature
        return False


def _decode_array(field: str, value: Any) -> np.ndarray:
    """A numeric array from nested lists of finite numbers (no strings, no ragged rows)."""
    if not isinstance(value, (list, tuple)):
        raise InputTypeError(field, f"expected a list of numbers, got {excerpt(value)}")
    try:
        array = np.array(value)
    except (ValueError, TypeError, OverflowError):
        raise InputError(field, "expected a rectangular list of numbers") from None
    if array.dtype.kind not in "biuf" or array.size > MAX_PAYLOAD_CELLS:
        raise InputError(field, "expected a rectangular list of numbers")
    if array.dtype.kind == "f" and not np.all(np.isfinite(array)):
        raise InputError(field, "expected finite numbers")
    return array


class ResultMixin:
    """to_dict / to_json / from_dict / from_json for frozen result dataclasses.

    Fields typed Distribution, JointDistribution, numpy arrays, nested result dataclasses, tuples
    and dicts round-trip through JSON. Subclasses add ``to_frame``.
    """

    def to_dict(self) -> dict[str, Any]:
        return {f.name: _encode(getattr(self, f.name)) for f in dataclasses.fields(self)}  # type: ignore[arg-type]

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
                kwargs[f.name] = _decode(hints.get(f.name), data[f.name], _join(field, f.name))
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
        except (InputError, InputTypeError):
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


class EngineResult(ResultMixin):
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

    def summary(self) -> dict[str, float]:
        """The headline figures by name (see docs/results.md)."""
        return {name: float(value) for name, (value, _) in self._figures().items()}

    # --- pictures and renderings (docs/plots.md) ---------------------------------------------
    def plot_series(self) -> tuple[list[tuple[str, Distribution]], str, str]:
        """What ``plot()`` draws: (label, distribution) series, the quantity, and a title."""
        raise NotImplementedError

    def plot_joint(self) -> tuple[JointDistribution, tuple[str, str], str] | None:
        """The joint table ``plot(kind="joint")`` draws, its axis labels and title (None: none)."""
        return None

    def plot(self, ax: Any = None, *, kind: str = "pmf", label: str | None = None) -> Any:
        """Draw the result: kind "pmf" (bars), "at_least" (P(quantity >= k) curves) or, for results
        with a joint table (fights, melees), "joint" (a heat map). Returns the matplotlib Axes."""
        from mathhammer import plotting

        if kind == "joint":
            joint = self.plot_joint()
            if joint is None:
                raise InputError("kind", f"{type(self).__name__} has no joint table; use 'pmf' or 'at_least'")
            table, labels, title = joint
            return plotting.plot_joint(table, labels=labels, title=title, ax=ax)
        series, quantity, title = self.plot_series()
        if label is not None:
            series = [(label if len(series) == 1 else f"{label}: {name}", dist) for name, dist in series]
        return plotting.plot_series(series, quantity=quantity, title=title, kind=kind, ax=ax)

    def to_markdown(self) -> str:
        """The result's tables and summary lines as Markdown (for chat and docs), as the CLI prints them."""
        from mathhammer import _cli_common

        return _cli_common.render_markdown(_cli_common.result_sections(self))

    def _repr_html_(self) -> str:
        """What a notebook shows: the result's tables and summary lines as HTML."""
        from mathhammer import _cli_common

        return _cli_common.render_html(_cli_common.result_sections(self))

    def __rich_console__(self, console: Any, options: Any) -> Any:
        """Rich's console protocol: ``rich.print(result)`` shows the result's tables in a terminal."""
        from mathhammer import _cli_common

        yield from _cli_common.rich_renderables(_cli_common.result_sections(self))

    @property
    def stderr(self) -> dict[str, float] | None:
        """Monte Carlo standard errors of the ``summary()`` figures, by the same names (None when exact)."""
        if self.samples is None:
            return None
        return {name: float(error) for name, (_, error) in self._figures().items() if error is not None}
