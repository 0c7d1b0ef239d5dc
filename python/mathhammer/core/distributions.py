"""The numbers every game's results are made of: a distribution over integers and a joint
distribution of two, with the checks that load them back from a payload.

Both are immutable and numpy-backed. A Monte Carlo result carries its sample count and standard
errors; an exact one has ``samples is None`` and ``stderr is None``. Pictures of them are drawn by
:mod:`mathhammer.report.plot`, which is handed their arrays.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from mathhammer.core.checks import check_choice
from mathhammer.core.guard import excerpt, label
from mathhammer.errors import InputError, InputTypeError
from mathhammer.report import plot as pictures

__all__ = ["MAX_PAYLOAD_CELLS", "MAX_PAYLOAD_VALUE", "Distribution", "JointDistribution", "check_payload_int",
           "check_payload_keys", "check_payload_samples", "check_pmf", "index_grids"]


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


#: 0.0, 1.0, 2.0, ...: the values of the distributions over small counts (Distribution._points)
_POINTS = np.arange(256, dtype=np.float64)
_POINTS.setflags(write=False)


class Distribution:
    """Probability of each integer value ``start, start+1, …`` (``pmf[i]`` is P(X = start + i)).

    Questions players ask: ``mean``, ``std``, ``at_least(k)``, ``at_most(k)``, ``quantile(q)``.
    ``cdf[i]`` is P(X <= start + i) and ``sf[i]`` is P(X > start + i) (the scipy convention).

    ``d1 + d2`` is the distribution of the sum of two independent outcomes (a convolution), ``d + k``
    shifts by an integer, and ``sum([d1, d2, ...])`` works. Two exact operands give an exact sum;
    with a Monte Carlo operand the sum is ``estimated``: it has no per-cell standard errors
    (``samples`` and ``stderr`` are None, ``is_exact`` is False), as its cells are not sample counts.
    """

    __slots__ = ("_estimated", "_mean", "_pmf", "_samples", "_start")

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
        self._mean: float | None = None  # worked out when first read

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
        self._mean = None
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
        mean = self._mean
        if mean is None:
            mean = self._mean = float(self._points().dot(self._pmf))  # np.dot's product, without its dispatch
        return mean

    @property
    def var(self) -> float:
        return float(max(0.0, ((self._points() - self.mean) ** 2).dot(self._pmf)))

    def _points(self) -> np.ndarray:
        # the values as float64, as np.dot converts ``values`` before the product (so the figures
        # are those of the integer values, bit for bit), taken from one array when they fit in it
        start, size = self._start, self._pmf.size
        if 0 <= start and start + size <= _POINTS.size:
            return _POINTS[start : start + size]
        return np.arange(start, start + size, dtype=np.float64)

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
        check_payload_keys(field, data, ("pmf", "start", "samples", "mean", "std", "stderr", "estimated"))
        pmf = check_pmf(f"{field}.pmf", data.get("pmf"), 1)
        start = data.get("start", 0)
        check_payload_int(f"{field}.start", start, -MAX_PAYLOAD_VALUE, MAX_PAYLOAD_VALUE)
        estimated = data.get("estimated", False)
        if not isinstance(estimated, bool):
            raise InputTypeError(f"{field}.estimated", f"expected true or false, got {excerpt(estimated)}")
        return cls(pmf, start=start, samples=check_payload_samples(f"{field}.samples", data.get("samples")),
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
        kind = check_choice("kind", kind, pictures.KINDS)
        axes = pictures.plot_series([self.series(label or "")], quantity=quantity, kind=kind, ax=ax, **bar_kwargs)
        if label is not None:
            axes.legend()
        return axes

    def series(self, label: str) -> pictures.Series:
        """What :mod:`mathhammer.report.plot` draws of this distribution, labelled ``label``."""
        return pictures.Series(label, self.values, self._pmf, self.stderr)

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
        if not isinstance(names, (tuple, list)) or len(names) != 2 or not all(isinstance(n, str) for n in names):
            raise InputTypeError("names", f"expected two axis names, got {excerpt(names)}")
        self._names = (names[0], names[1])
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
        check_payload_keys(field, data, ("pmf", "names", "samples"))
        pmf = check_pmf(f"{field}.pmf", data.get("pmf"), 2)
        names = data.get("names", ["x", "y"])
        if not isinstance(names, (list, tuple)) or len(names) != 2 or not all(isinstance(n, str) for n in names):
            raise InputError(f"{field}.names", f"expected two axis names, got {excerpt(names)}")
        return cls(pmf, names=(names[0], names[1]), samples=check_payload_samples(f"{field}.samples", data.get("samples")))

    def to_frame(self) -> Any:
        """Long format: one row per (x, y) with non-zero probability."""
        import pandas as pd

        i, j = np.nonzero(self._pmf)
        return pd.DataFrame({self._names[0]: i, self._names[1]: j, "p": self._pmf[i, j]})

    def plot(self, ax: Any = None, **imshow_kwargs: Any) -> Any:
        """A heat map of the joint pmf (needs the ``plot`` extra: matplotlib). Returns the Axes."""
        return pictures.heat_map(self._pmf, rows=self._names[0], columns=self._names[1], ax=ax, **imshow_kwargs)

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


def check_payload_keys(field: str, data: Any, allowed: Sequence[str]) -> None:
    if not isinstance(data, Mapping):
        raise InputTypeError(field, f"expected a table, got {excerpt(data)}")
    for key in data:
        if key not in allowed:
            raise InputError(f"{field}.{label(key)}", f"unknown key; allowed: {', '.join(allowed)}")


def check_payload_int(field: str, value: Any, lo: int, hi: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise InputTypeError(field, f"expected an integer, got {excerpt(value)}")
    if not lo <= value <= hi:
        raise InputError(field, f"{excerpt(value)} is out of range; allowed {lo}..{hi}")
    return value


def check_payload_samples(field: str, value: Any) -> int | None:
    return None if value is None else check_payload_int(field, value, 1, 2**63 - 1)


def check_pmf(field: str, value: Any, ndim: int) -> np.ndarray:
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
        raise InputError(field, f"probabilities sum to {excerpt(total)}, not 1")
    return array


@functools.lru_cache(maxsize=1024)
def index_grids(shape: tuple[int, ...]) -> tuple[np.ndarray, np.ndarray]:
    """``np.indices(shape)`` of a 2-D shape (read-only, shared): the row and the column of every cell.

    Result figures such as P(a tie) or P(both sides Wasted) select cells of a joint table by their
    row and column; ``np.indices`` costs more than the selection itself, and the tables of one game
    come in few shapes."""
    rows, columns = np.indices(shape)
    rows.setflags(write=False)
    columns.setflags(write=False)
    return rows, columns
