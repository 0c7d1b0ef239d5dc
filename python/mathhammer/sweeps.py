"""Sweeps: one engine function over the Cartesian product of its arguments, as one table.

``sweep(kt.shoot, weapon=gun, target=op, cover=[0, 1], **{"target.save": range(2, 7)})`` runs
``kt.shoot`` once per cell (first axis slowest) and returns a pandas DataFrame with a column per axis
and then the result's ``summary()`` figures (docs/sweeps.md).

Seeds. A cell whose function takes ``seed`` gets ``cell_seed(seed, index)``: the splitmix64 output
number ``index + 1`` of the stream that starts at the sweep's seed. It depends only on the sweep's
seed and the cell's index, never on the chunking or on what executes the cell, so a sweep gives the
same table serially, on a process pool or on a Dask cluster.

Speed. Everything that does not change between cells (the axes, the function's signature, which
arguments are profiles varied by dotted keys) is worked out once; a cell costs a dict, the call and
the summary, and the DataFrame is built once at the end. An engine function whose action has a batch
form in its game's descriptor (``kt.shoot`` -> ``kt.shoot_batch``, and likewise sc.attack, db.combat,
fm.melee; :mod:`mathhammer.games`) gets each chunk's cells in one batch call instead, with the same
arguments and seeds, so the table is the one the cell-by-cell calls give.
"""

from __future__ import annotations

import dataclasses
import inspect
import math
import secrets
from collections.abc import Callable, Iterable, Mapping, Sequence
from concurrent.futures import FIRST_COMPLETED, Executor, Future, wait
from typing import Any

from mathhammer import games
from mathhammer.core.batches import ResultBatch
from mathhammer.core.sampling import cell_seed
from mathhammer.errors import InputError, InputTypeError, SweepError

__all__ = ["SweepError", "batch_form", "cell_seed", "sweep"]

_MASK = (1 << 64) - 1

#: Cells per chunk are at most this many (and fewer when that leaves under 32 chunks).
MAX_CHUNK = 1024
_TARGET_CHUNKS = 32


def batch_form(fn: Callable[..., Any]) -> tuple[Callable[..., Any], dict[str, str]] | None:
    """fn's batch function and the name it gives each of fn's arguments, when fn is a game action with
    one (its descriptor's ``batch``). A batch function takes the engine function's arguments, each as
    one value or a sequence with one item per cell (positional ones in the same order, the others by
    the same name), and returns a sequence whose item i is the engine function's result for cell i
    (``mathhammer.core.batches.ResultBatch``)."""
    found = games.find_action(fn)
    if found is None or found[1].batch is None:
        return None
    batch = found[1].batch
    kinds = (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)
    own = list(inspect.signature(fn).parameters.values())
    theirs = list(inspect.signature(batch).parameters.values())
    positional = [p.name for p in theirs if p.kind in kinds]
    names: dict[str, str] = {}
    for i, parameter in enumerate(own):
        if parameter.kind in kinds and i < len(positional):
            names[parameter.name] = positional[i]  # weapon -> weapons
        else:
            names[parameter.name] = parameter.name
    return batch, names


@dataclasses.dataclass(frozen=True)
class _Plan:
    """What every chunk needs, computed once by :func:`sweep` (and pickled to workers)."""

    fn: Callable[..., Any]
    fixed: dict[str, Any]
    names: tuple[str, ...]  # axis names as given ("cover", "target.save")
    values: tuple[tuple[Any, ...], ...]
    plain: tuple[int, ...]  # axes passed as they are
    profiles: tuple[tuple[str, Any, tuple[tuple[str, int], ...]], ...]  # (argument, base, ((field, axis), ...))
    seed: int
    takes_seed: bool
    batch: tuple[Callable[..., Any], dict[str, str]] | None = None  # fn's batch form (batch_form)


def _is_axis(value: Any) -> bool:
    return isinstance(value, (list, tuple, range))


def _takes(fn: Callable[..., Any], name: str) -> bool:
    try:
        parameters = inspect.signature(fn).parameters
    except (TypeError, ValueError):  # a builtin without a signature: assume it takes keywords
        return True
    if name in parameters:
        return parameters[name].kind is not inspect.Parameter.POSITIONAL_ONLY
    return any(p.kind is inspect.Parameter.VAR_KEYWORD for p in parameters.values())


def _replace(profile: Any, path: str, value: Any) -> Any:
    """``profile`` with the (possibly dotted) field ``path`` set to ``value``."""
    head, _, rest = path.partition(".")
    if rest:
        value = _replace(getattr(profile, head), rest, value)
    return dataclasses.replace(profile, **{head: value})


def _check_field(argument: str, profile: Any, path: str, key: str) -> None:
    target = profile
    for name in path.split("."):
        if not dataclasses.is_dataclass(target) or isinstance(target, type):
            raise InputTypeError(key, f"{argument} is a {type(profile).__name__}, not a profile with fields")
        names = [f.name for f in dataclasses.fields(target)]
        if name not in names:
            raise InputError(key, f"{type(target).__name__} has no field {name!r}; fields: {', '.join(names)}")
        target = getattr(target, name)


def _plan(fn: Callable[..., Any], seed: int, arguments: Mapping[str, Any]) -> _Plan:
    fixed: dict[str, Any] = {}
    axes: list[tuple[str, tuple[Any, ...]]] = []  # in the order given: the first slowest
    dotted: dict[str, list[tuple[str, str, Any, int | None]]] = {}  # argument -> (path, key, value, axis)
    for key, value in arguments.items():
        axis = len(axes) if _is_axis(value) else None
        if axis is not None:
            axes.append((key, tuple(value)))
        if "." in key:
            argument, _, path = key.partition(".")
            dotted.setdefault(argument, []).append((path, key, value, axis))
        elif axis is None:
            fixed[key] = value
    for key in [k for k in arguments if "." not in k] + list(dotted):
        if not _takes(fn, key):
            raise InputError(key, f"{getattr(fn, '__name__', 'the function')} takes no argument {key!r}")
    profiles: list[tuple[str, Any, tuple[tuple[str, int], ...]]] = []
    for argument, changes in dotted.items():
        if argument not in arguments:
            raise InputError(changes[0][1], f"varies a field of {argument!r}, which is not given; pass {argument}=...")
        base = arguments[argument]
        if _is_axis(base):
            raise InputError(changes[0][1], f"{argument!r} is itself an axis; vary its fields on one profile")
        varied: list[tuple[str, int]] = []
        for path, key, value, axis in changes:
            _check_field(argument, base, path, key)
            if axis is None:
                base = _replace(base, path, value)
            else:
                varied.append((path, axis))
        fixed[argument] = base
        if varied:
            profiles.append((argument, base, tuple(varied)))
    for key, values in axes:
        if not values:
            raise InputError(key, "is an empty axis; give at least one value")
    in_profiles = {axis for _, _, varied in profiles for _, axis in varied}
    plain = tuple(i for i in range(len(axes)) if i not in in_profiles)
    return _Plan(fn, fixed, tuple(k for k, _ in axes), tuple(v for _, v in axes), plain, tuple(profiles), seed,
                 _takes(fn, "seed"), batch_form(fn))


def _digits(plan: _Plan, index: int) -> list[int]:
    digits = []
    for values in reversed(plan.values):
        index, digit = divmod(index, len(values))
        digits.append(digit)
    digits.reverse()
    return digits


def _run_chunk(plan: _Plan, start: int, stop: int) -> list[Any]:
    """The summaries of cells ``start..stop-1`` (runs in whatever executes the chunk)."""
    cells, failed = _cells(plan, start, stop)
    out: list[Any] | None = None
    if plan.batch is not None and len(cells) > 1:
        out = _run_batch(plan, cells)
    if out is None:
        out = []
        fn = plan.fn
        for index, cell in enumerate(cells, start):
            try:
                out.append(_summary(fn(**cell)))
            except Exception as error:
                raise _cell_error(plan, index, _digits(plan, index), error) from None
    if failed is not None:  # a cell whose arguments could not be made, after the cells before it ran
        raise failed
    return out


def _summary(result: Any) -> Any:
    summary = result.summary() if hasattr(result, "summary") else result
    if not isinstance(summary, Mapping):
        raise InputTypeError("sweep", f"the function returned {type(result).__name__}, which has no summary() "
                                       "and is not a mapping of figures")
    return summary


def _run_batch(plan: _Plan, cells: list[dict[str, Any]]) -> list[Any] | None:
    """The cells' summaries from one call of the function's batch form; None when the batch fails
    (the caller then runs the cells one by one, so a bad cell is reported as itself)."""
    assert plan.batch is not None
    batch, names = plan.batch
    columns: dict[str, list[Any]] = {names.get(key, key): [cell[key] for cell in cells] for key in cells[0]}
    try:
        results = batch(**columns)
        if isinstance(results, ResultBatch):  # the summaries without building every result
            return results.summaries()
        return [_summary(results[i]) for i in range(len(cells))]
    except Exception:
        return None


def _cells(plan: _Plan, start: int, stop: int) -> tuple[list[dict[str, Any]], SweepError | None]:
    """The keyword arguments of cells ``start..stop-1``, up to the first cell whose profile cannot be
    made (then also the error naming it)."""
    sizes = [len(v) for v in plan.values]
    digits = _digits(plan, start)
    names = plan.names
    values = plan.values
    plain = [(names[i], values[i], i) for i in plan.plain]
    profiles = plan.profiles
    cache: dict[tuple[str, tuple[int, ...]], Any] = {}  # a varied profile is built once per chunk per value set
    fixed, seed, takes_seed = plan.fixed, plan.seed, plan.takes_seed
    out: list[dict[str, Any]] = []
    last = len(sizes) - 1
    for index in range(start, stop):
        cell = dict(fixed)
        for name, axis_values, i in plain:
            cell[name] = axis_values[digits[i]]
        for argument, base, varied in profiles:
            where = (argument, tuple(digits[axis] for _, axis in varied))
            profile = cache.get(where)
            if profile is None:
                profile = base
                try:
                    for path, axis in varied:
                        profile = _replace(profile, path, values[axis][digits[axis]])
                except Exception as error:
                    return out, _cell_error(plan, index, digits, error)
                cache[where] = profile
            cell[argument] = profile
        if takes_seed:
            cell["seed"] = cell_seed(seed, index)
        out.append(cell)
        # the next cell's digits: an odometer, last axis fastest
        k = last
        while k >= 0:
            digits[k] += 1
            if digits[k] < sizes[k]:
                break
            digits[k] = 0
            k -= 1
    return out, None


def _cell_error(plan: _Plan, index: int, digits: Sequence[int], error: BaseException) -> SweepError:
    parameters = {name: str(values[d]) for name, values, d in zip(plan.names, plan.values, digits)}
    return SweepError(index, parameters, type(error).__name__, str(error))


def _default_chunk(total: int) -> int:
    return max(1, min(MAX_CHUNK, math.ceil(total / _TARGET_CHUNKS)))


def _chunks(total: int, size: int) -> Iterable[tuple[int, int]]:
    return ((start, min(total, start + size)) for start in range(0, total, size))


def sweep(
    fn: Callable[..., Any],
    /,
    *,
    # Typed Any (checked at run time, below) so that dotted keys can be passed as **{"weapon.hit": [3, 4]}
    # under a type checker: it matches an unpacked dict against every keyword's type.
    seed: Any = None,  # int | None
    executor: Any = None,  # concurrent.futures.Executor | None
    progress: Any = None,  # Callable[[int, int], Any] | None
    chunk: Any = None,  # int | None
    **arguments: Any,
) -> Any:
    """Run ``fn(**cell)`` for every cell of the Cartesian product of the axes; one row per cell.

    Every argument whose value is a list, tuple or range is an axis (first axis slowest); anything
    else is passed unchanged. A dotted key (``"target.save": range(2, 7)``) varies one field of a
    profile argument (``dataclasses.replace``). A function taking ``seed`` gets :func:`cell_seed`
    of the sweep's seed (drawn when None; ``df.attrs["seed"]``) and the cell's index.
    ``executor``: any ``concurrent.futures.Executor`` (a process pool, a Dask
    ``Client.get_executor()``), sent ``chunk`` cells at a time (default: at most 1,024, about 32
    chunks). ``progress(done, total)`` counts cells. A cell that raises is a :class:`SweepError`
    naming its parameters. Returns a pandas DataFrame: the axis columns, then the figures of
    ``result.summary()`` (or of a returned mapping).
    """
    import pandas as pd

    if not callable(fn):
        raise InputTypeError("fn", f"expected a function to sweep, got {fn!r}")
    if seed is None:
        seed = secrets.randbits(64)
    elif isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= _MASK:
        raise InputError("seed", f"expected None or an integer 0..2**64-1, got {seed!r}")
    if executor is not None and not isinstance(executor, Executor):
        raise InputTypeError("executor", f"expected a concurrent.futures.Executor, got {executor!r}")
    if progress is not None and not callable(progress):
        raise InputTypeError("progress", f"expected a callable progress(done, total), got {progress!r}")
    plan = _plan(fn, seed, arguments)
    total = math.prod(len(v) for v in plan.values)
    if chunk is None:
        chunk = _default_chunk(total)
    elif isinstance(chunk, bool) or not isinstance(chunk, int) or chunk < 1:
        raise InputError("chunk", f"expected a positive number of cells per chunk, got {chunk!r}")
    spans = list(_chunks(total, chunk))
    parts: list[list[Any]] = [[] for _ in spans]
    done = 0
    if executor is None:
        for number, (start, stop) in enumerate(spans):
            parts[number] = _run_chunk(plan, start, stop)
            done += stop - start
            if progress is not None:
                progress(done, total)
    else:
        pending: dict[Future[list[Any]], int] = {}
        try:
            for number, (start, stop) in enumerate(spans):
                pending[executor.submit(_run_chunk, plan, start, stop)] = number
            while pending:
                finished, _ = wait(pending, return_when=FIRST_COMPLETED)
                for future in finished:
                    number = pending.pop(future)
                    parts[number] = future.result()
                    start, stop = spans[number]
                    done += stop - start
                if progress is not None:
                    progress(done, total)
        finally:  # Ctrl-C or a failed cell: drop the chunks not started yet
            for future in pending:
                future.cancel()
    return _frame(pd, plan, total, [row for part in parts for row in part])


def _frame(pd: Any, plan: _Plan, total: int, rows: list[Any]) -> Any:
    columns: dict[str, list[Any]] = {}
    for name, values in zip(plan.names, plan.values):
        repeat = math.prod(len(v) for v in plan.values[plan.names.index(name) + 1:])
        tile = total // (repeat * len(values))
        columns[name] = [value for value in values for _ in range(repeat)] * tile
    keys: list[str] = []
    for row in rows[:1]:
        keys = list(row)
    if all(len(row) == len(keys) and list(row) == keys for row in rows):  # fixed keys: a column per figure
        for key in keys:
            columns[key] = [row[key] for row in rows]
        frame = pd.DataFrame(columns)
    else:  # figures that vary between cells: their union, missing ones NaN
        frame = pd.concat([pd.DataFrame(columns), pd.DataFrame.from_records(rows)], axis=1)
    frame.attrs["seed"] = plan.seed
    return frame
