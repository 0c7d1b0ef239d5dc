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
from collections.abc import Sequence
from typing import Any

import numpy as np

from mathhammer._validate import InputError

__all__ = ["Distribution", "EngineResult", "JointDistribution", "ResultMixin"]


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
        p = np.asarray(pmf, dtype=np.float64)
        if p.ndim != 1 or p.size == 0:
            raise ValueError("pmf: expected a non-empty 1-D sequence of probabilities")
        self._pmf = _frozen(p)
        self._start = int(start)
        self._samples = None if samples is None else int(samples)
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
        return _frozen(np.sqrt(self._pmf * (1.0 - self._pmf) / self._samples))

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
        if not 0.0 <= q <= 1.0:
            raise ValueError(f"q: {q!r} is out of range; allowed 0..1")
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
    def from_dict(cls, data: dict[str, Any]) -> Distribution:
        return cls(data["pmf"], start=data.get("start", 0), samples=data.get("samples"),
                   estimated=bool(data.get("estimated", False)))

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
        p = np.asarray(pmf, dtype=np.float64)
        if p.ndim != 2 or p.size == 0:
            raise ValueError("pmf: expected a non-empty 2-D array of probabilities")
        self._pmf = _frozen(p)
        self._names = (str(names[0]), str(names[1]))
        self._samples = None if samples is None else int(samples)

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
        return _frozen(np.sqrt(self._pmf * (1.0 - self._pmf) / self._samples))

    def marginal(self, axis: int | str) -> Distribution:
        """The distribution of one axis (0 / 1, or its name)."""
        if isinstance(axis, str):
            if axis not in self._names:
                raise ValueError(f"axis: unknown name {axis!r}; allowed: {', '.join(self._names)}")
            axis = self._names.index(axis)
        if axis not in (0, 1):
            raise ValueError(f"axis: {axis!r} is out of range; allowed 0, 1 or a name")
        return Distribution(self._pmf.sum(axis=1 - axis), samples=self._samples)

    def prob(self, predicate: Any) -> float:
        """P(predicate(i, j)) where predicate takes numpy index grids and returns a boolean mask."""
        i, j = np.indices(self._pmf.shape)
        return float(self._pmf[np.asarray(predicate(i, j), dtype=bool)].sum())

    def to_dict(self) -> dict[str, Any]:
        return {"names": list(self._names), "pmf": self._pmf.tolist(), "samples": self._samples}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> JointDistribution:
        return cls(np.array(data["pmf"], dtype=np.float64), names=tuple(data["names"]), samples=data.get("samples"))

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


def _decode(hint: Any, value: Any) -> Any:
    if value is None:
        return None
    origin = typing.get_origin(hint)
    args = typing.get_args(hint)
    if origin is typing.Union or origin is types.UnionType:  # Optional[X] / X | None
        for arg in args:
            if arg is type(None):
                continue
            return _decode(arg, value)
    if hint is Distribution:
        return Distribution.from_dict(value)
    if hint is JointDistribution:
        return JointDistribution.from_dict(value)
    if isinstance(hint, type) and dataclasses.is_dataclass(hint):
        if hasattr(hint, "from_dict"):
            return hint.from_dict(value)
    if hint is np.ndarray:
        return np.asarray(value)
    if origin in (tuple,) and isinstance(value, list):
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(_decode(args[0], v) for v in value)
        if args and len(args) == len(value):
            return tuple(_decode(a, v) for a, v in zip(args, value))
        return tuple(value)
    if origin in (dict,) and isinstance(value, dict) and len(args) == 2:
        return {k: _decode(args[1], v) for k, v in value.items()}
    return value


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
    def from_dict(cls, data: dict[str, Any]) -> Any:
        hints = typing.get_type_hints(cls)
        kwargs = {f.name: _decode(hints.get(f.name), data[f.name]) for f in dataclasses.fields(cls) if f.name in data}  # type: ignore[arg-type]
        return cls(**kwargs)

    @classmethod
    def from_json(cls, text: str) -> Any:
        return cls.from_dict(json.loads(text))


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
