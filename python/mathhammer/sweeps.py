"""Sweeps: one engine function over the Cartesian product of its arguments, as one table.

``sweep(kt.shoot, weapon=gun, target=op, cover=[0, 1], **{"target.save": range(2, 7)})`` runs
``kt.shoot`` once per cell (first axis slowest) and returns a pandas DataFrame with a column per axis
and then the result's ``summary()`` figures (docs/sweeps.md).

Seeds. A cell whose function takes ``seed`` gets ``cell_seed(seed, index)``: the splitmix64 output
number ``index + 1`` of the stream that starts at the sweep's seed. It depends only on the sweep's
seed and the cell's index, never on the chunking or on what executes the cell, so a sweep gives the
same table serially, on a process pool or on a Dask cluster.

Limits. Before the first cell runs, every value of every axis is checked by the engine function
itself (inside :func:`mathhammer.core.options.check_only`: checked and planned, not computed), so a
bad value is refused with its axis as the error's field; a range axis is checked at its two ends
(the engines' integer fields are intervals), a list of over ``PROBE_ALL`` values at its first, last,
smallest and largest. Then the number of cells is held to ``max_cells`` (``MAX_CELLS`` by default;
the field ``grid``). Nothing is allocated per cell before that, and cells are made chunk by chunk.

Speed. Everything that does not change between cells (the axes, the function's signature, which
arguments are profiles varied by dotted keys) is worked out once; a cell costs a dict, the call and
the summary, and the DataFrame is built once at the end. An engine function whose action has a batch
form in its game's descriptor (``kt.shoot`` -> ``kt.shoot_batch``, and likewise sc.attack, db.combat,
fm.melee; :mod:`mathhammer.games`) gets each chunk's cells in one batch call instead, with the same
arguments and seeds, so the table is the one the cell-by-cell calls give; such a chunk's figures
come back as columns (``ResultBatch.summary_arrays()``) and are joined as columns.
"""

from __future__ import annotations

import dataclasses
import inspect
import math
import secrets
from collections.abc import Callable, Iterable, Mapping, Sequence
from concurrent.futures import FIRST_COMPLETED, Executor, Future, wait
from typing import Any

import numpy as np

from mathhammer import games
from mathhammer.core.stop import Stopped
from mathhammer.core.batches import ResultBatch
from mathhammer.core.checks import check_int
from mathhammer.core.guard import MAX_EXCERPT, excerpt
from mathhammer.core.options import Checked, check_only
from mathhammer.core.sampling import cell_seed
from mathhammer.errors import InputError, InputTypeError, SweepError

__all__ = ["MAX_CELLS", "SweepError", "batch_form", "cell_seed", "check_cells", "sweep"]

_MASK = (1 << 64) - 1

#: Cells per chunk are at most this many (and fewer when that leaves under 32 chunks).
MAX_CHUNK = 1024
_TARGET_CHUNKS = 32
#: A sweep holds at most this many cells unless ``max_cells`` says more.
MAX_CELLS = 10_000_000
#: A list axis of at most this many values has each value checked before the sweep starts.
PROBE_ALL = 4096
#: Chunks handed to an executor and not yet finished, at most (the next start as others finish).
MAX_PENDING = 64


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
    values: tuple[Sequence[Any], ...]  # a tuple, or a range kept as one (never listed)
    plain: tuple[int, ...]  # axes passed as they are
    profiles: tuple[tuple[str, Any, tuple[tuple[str, int], ...]], ...]  # (argument, base, ((field, axis), ...))
    seed: int
    takes_seed: bool
    batch: tuple[Callable[..., Any], dict[str, str]] | None = None  # fn's batch form (batch_form)


def _is_axis(value: Any) -> bool:
    return isinstance(value, (list, tuple, range))


def _length(values: Sequence[Any]) -> int:
    """len(values), also for a range longer than ``sys.maxsize`` (whose len() raises)."""
    if isinstance(values, range):
        span = values.stop - values.start
        step = values.step
        return max(0, (span + step - (1 if step > 0 else -1)) // step)
    return len(values)


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


def _replace_named(profile: Any, path: str, value: Any, key: str) -> Any:
    """:func:`_replace`, an error naming the dotted key (``target.save``) rather than the field."""
    try:
        return _replace(profile, path, value)
    except InputError as error:
        raise type(error)(key, _message(error)) from None
    except TypeError as error:  # a field a profile does not take as a keyword (init=False)
        raise InputTypeError(key, str(error)) from None


def _message(error: InputError) -> str:
    return str(error)[len(error.field) + 2:]


def _check_field(argument: str, profile: Any, path: str, key: str) -> None:
    target = profile
    for name in path.split("."):
        if not dataclasses.is_dataclass(target) or isinstance(target, type):
            raise InputTypeError(key, f"{argument} is a {type(profile).__name__}, not a profile with fields")
        names = [f.name for f in dataclasses.fields(target)]
        if name not in names:
            raise InputError(key, f"{type(target).__name__} has no field {excerpt(name)}; fields: {', '.join(names)}")
        target = getattr(target, name)


def _plan(fn: Callable[..., Any], seed: int, arguments: Mapping[str, Any]) -> _Plan:
    fixed: dict[str, Any] = {}
    axes: list[tuple[str, Sequence[Any]]] = []  # in the order given: the first slowest
    dotted: dict[str, list[tuple[str, str, Any, int | None]]] = {}  # argument -> (path, key, value, axis)
    for key, value in arguments.items():
        axis = len(axes) if _is_axis(value) else None
        if axis is not None:
            axes.append((key, value if isinstance(value, range) else tuple(value)))
        if "." in key:
            argument, _, path = key.partition(".")
            dotted.setdefault(argument, []).append((path, key, value, axis))
        elif axis is None:
            fixed[key] = value
    for key in [k for k in arguments if "." not in k] + list(dotted):
        if not _takes(fn, key):
            raise InputError(key, f"{getattr(fn, '__name__', 'the function')} takes no argument {excerpt(key)}")
    profiles: list[tuple[str, Any, tuple[tuple[str, int], ...]]] = []
    for argument, changes in dotted.items():
        if argument not in arguments:
            raise InputError(changes[0][1], f"varies a field of {excerpt(argument)}, which is not given; pass {argument}=...")
        base = arguments[argument]
        if _is_axis(base):
            raise InputError(changes[0][1], f"{excerpt(argument)} is itself an axis; vary its fields on one profile")
        varied: list[tuple[str, int]] = []
        for path, key, value, axis in changes:
            _check_field(argument, base, path, key)
            if axis is None:
                base = _replace_named(base, path, value, key)
            else:
                varied.append((path, axis))
        fixed[argument] = base
        if varied:
            profiles.append((argument, base, tuple(varied)))
    for key, values in axes:
        if not _length(values):
            raise InputError(key, "is an empty axis; give at least one value")
    in_profiles = {axis for _, _, varied in profiles for _, axis in varied}
    plain = tuple(i for i in range(len(axes)) if i not in in_profiles)
    return _Plan(fn, fixed, tuple(k for k, _ in axes), tuple(v for _, v in axes), plain, tuple(profiles), seed,
                 _takes(fn, "seed"), batch_form(fn))


def _digits(plan: _Plan, index: int) -> list[int]:
    digits = []
    for values in reversed(plan.values):
        index, digit = divmod(index, _length(values))
        digits.append(digit)
    digits.reverse()
    return digits


#: A chunk's figures: a summary per cell, or (from a batch form) a float64 column per figure
#: (``ResultBatch.summary_arrays()``), which costs far less to make, send and join than the rows.
Part = list[Any] | dict[str, np.ndarray]


def _run_chunk(plan: _Plan, start: int, stop: int) -> Part:
    """The summaries of cells ``start..stop-1`` (runs in whatever executes the chunk)."""
    cells, failed = _cells(plan, start, stop)
    out: Part | None = None
    if plan.batch is not None and len(cells) > 1:
        out = _run_batch(plan, cells)
    if out is None:
        out = []
        fn = plan.fn
        for index, cell in enumerate(cells, start):
            try:
                out.append(_summary(fn(**cell)))
            except Stopped:
                raise  # the sweep was stopped, not this cell
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


def _run_batch(plan: _Plan, cells: list[dict[str, Any]]) -> Part | None:
    """The cells' figures from one call of the function's batch form; None when the batch fails
    (the caller then runs the cells one by one, so a bad cell is reported as itself)."""
    assert plan.batch is not None
    batch, names = plan.batch
    columns: dict[str, list[Any]] = {names.get(key, key): [cell[key] for cell in cells] for key in cells[0]}
    try:
        results = batch(**columns)
        if isinstance(results, ResultBatch):  # the figures as columns, without building every result
            return results.summary_arrays()
        return [_summary(results[i]) for i in range(len(cells))]
    except Stopped:
        raise
    except Exception:
        return None


def _cells(plan: _Plan, start: int, stop: int) -> tuple[list[dict[str, Any]], SweepError | None]:
    """The keyword arguments of cells ``start..stop-1``, up to the first cell whose profile cannot be
    made (then also the error naming it)."""
    sizes = [_length(v) for v in plan.values]
    digits = _digits(plan, start)
    cache: dict[tuple[str, tuple[int, ...]], Any] = {}  # a varied profile is built once per chunk per value set
    out: list[dict[str, Any]] = []
    last = len(sizes) - 1
    for index in range(start, stop):
        try:
            out.append(_cell(plan, index, digits, cache))
        except Exception as error:
            return out, _cell_error(plan, index, digits, error)
        # the next cell's digits: an odometer, last axis fastest
        k = last
        while k >= 0:
            digits[k] += 1
            if digits[k] < sizes[k]:
                break
            digits[k] = 0
            k -= 1
    return out, None


def _cell(plan: _Plan, index: int, digits: Sequence[int], cache: dict[tuple[str, tuple[int, ...]], Any]) -> dict[str, Any]:
    """The keyword arguments of the cell at ``digits`` (its ``index``), varied profiles from ``cache``."""
    values = plan.values
    cell = dict(plan.fixed)
    for i in plan.plain:
        cell[plan.names[i]] = values[i][digits[i]]
    for argument, base, varied in plan.profiles:
        where = (argument, tuple(digits[axis] for _, axis in varied))
        profile = cache.get(where)
        if profile is None:
            profile = base
            for path, axis in varied:
                profile = _replace_named(profile, path, values[axis][digits[axis]], plan.names[axis])
            cache[where] = profile
        cell[argument] = profile
    if plan.takes_seed:
        cell["seed"] = cell_seed(plan.seed, index)
    return cell


# ---- limits: every axis checked, the cells counted, before any cell runs ---------------------------

def _probes(values: Sequence[Any]) -> list[int]:
    """The indices of an axis's values checked before a sweep runs (module docstring, "Limits")."""
    n = _length(values)
    if isinstance(values, range):
        return [0, n - 1] if n > 1 else [0]
    if n <= PROBE_ALL:
        return list(range(n))
    picks = {0, n - 1}
    numbers = [i for i, v in enumerate(values) if isinstance(v, (int, float)) and not isinstance(v, bool)]
    if numbers:
        picks |= {min(numbers, key=values.__getitem__), max(numbers, key=values.__getitem__)}
    return sorted(picks)


def _index(plan: _Plan, digits: Sequence[int]) -> int:
    index = 0
    for values, digit in zip(plan.values, digits):
        index = index * _length(values) + digit
    return index


def _check_axes(plan: _Plan) -> None:
    """Every axis value through the function's own checks (:func:`check_only`): the first cell, then
    for each axis its probed values with the other axes at their first value. A refused value is an
    InputError whose field is its axis."""
    first = [0] * len(plan.values)
    _probe(plan, first, None)
    for axis, values in enumerate(plan.values):
        for index in _probes(values):
            if index:
                digits = list(first)
                digits[axis] = index
                _probe(plan, digits, axis)


def _probe(plan: _Plan, digits: list[int], axis: int | None) -> None:
    index = _index(plan, digits)
    try:
        cell = _cell(plan, index, digits, {})
        with check_only():
            plan.fn(**cell)
    except Checked:
        return
    except InputError as error:
        if axis is None or error.field == plan.names[axis]:
            raise
        value = plan.values[axis][digits[axis]]
        raise type(error)(plan.names[axis], f"{_shown(value)}: {error}") from None
    except Exception as error:
        raise _cell_error(plan, index, digits, error) from None


def check_cells(total: int, max_cells: int) -> None:
    """Refuse a sweep of more than ``max_cells`` cells (the error's field is ``grid``)."""
    if total > max_cells:
        count = f"{total:,}" if total < 10**18 else "more than 10^18"
        raise InputError("grid", f"{count} cells; a sweep holds at most {max_cells:,} (raise max_cells= for more)")


def _cell_error(plan: _Plan, index: int, digits: Sequence[int], error: BaseException) -> SweepError:
    parameters = {name: _shown(values[d]) for name, values, d in zip(plan.names, plan.values, digits)}
    return SweepError(index, parameters, type(error).__name__, str(error))


def _shown(value: Any) -> str:
    """A cell's value as its error names it: str() when short, else an excerpt."""
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) >= 10**MAX_EXCERPT:
        return excerpt(value)
    try:
        text = str(value)
    except Exception:  # a value whose str() fails: its type
        return f"a {type(value).__name__}"
    return text if len(text) <= MAX_EXCERPT and text.isprintable() else excerpt(text)


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
    max_cells: Any = MAX_CELLS,  # int
    check: Any = None,  # bool | None
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

    Before any cell runs, each axis value goes through ``fn``'s own checks when ``check`` is True, or
    None and ``fn`` is a game action (whose engine functions honour :func:`check_only`; another
    function would run its whole work per value checked), and a sweep of more than ``max_cells``
    cells is refused (module docstring, "Limits").
    """
    import pandas as pd

    if not callable(fn):
        raise InputTypeError("fn", f"expected a function to sweep, got {excerpt(fn)}")
    seed = secrets.randbits(64) if seed is None else check_int("seed", seed, 0, _MASK)
    if executor is not None and not isinstance(executor, Executor):
        raise InputTypeError("executor", f"expected a concurrent.futures.Executor, got {excerpt(executor)}")
    if progress is not None and not callable(progress):
        raise InputTypeError("progress", f"expected a callable progress(done, total), got {excerpt(progress)}")
    max_cells = check_int("max_cells", max_cells, 1)
    if check is not None and not isinstance(check, bool):
        raise InputTypeError("check", f"expected None, True or False, got {excerpt(check)}")
    plan = _plan(fn, seed, arguments)
    if check or (check is None and games.find_action(fn) is not None):
        _check_axes(plan)
    total = math.prod(_length(v) for v in plan.values)
    check_cells(total, max_cells)
    if chunk is None:
        chunk = _default_chunk(total)
    elif isinstance(chunk, bool) or not isinstance(chunk, int):
        raise InputTypeError("chunk", f"expected a positive number of cells per chunk, got {excerpt(chunk)}")
    elif chunk < 1:
        raise InputError("chunk", f"expected a positive number of cells per chunk, got {excerpt(chunk)}")
    parts = _run_chunks(plan, total, chunk, executor, progress)
    return _frame(pd, plan, total, [parts[number] for number in sorted(parts)])


def _run_chunks(plan: _Plan, total: int, chunk: int, executor: Executor | None,
                progress: Callable[[int, int], Any] | None) -> dict[int, Part]:
    """Every chunk's summaries by chunk number: serially, or at most ``MAX_PENDING`` chunks at a time
    on ``executor`` (the next one submitted as one finishes, so nothing is listed up front)."""
    parts: dict[int, Part] = {}
    done = 0
    if executor is None:
        for number, (start, stop) in enumerate(_chunks(total, chunk)):
            parts[number] = _checked_part(plan, _run_chunk(plan, start, stop))
            done += stop - start
            if progress is not None:
                progress(done, total)
        return parts
    pending: dict[Future[Part], tuple[int, int]] = {}
    spans = enumerate(_chunks(total, chunk))
    try:
        while True:
            for number, (start, stop) in spans:
                pending[executor.submit(_run_chunk, plan, start, stop)] = (number, stop - start)
                if len(pending) >= MAX_PENDING:
                    break
            if not pending:
                return parts
            finished, _ = wait(pending, return_when=FIRST_COMPLETED)
            for future in finished:
                number, size = pending.pop(future)
                parts[number] = _checked_part(plan, future.result())
                done += size
            if progress is not None:
                progress(done, total)
    finally:  # Ctrl-C or a failed cell: drop the chunks not started yet
        for future in pending:
            future.cancel()


def _checked_part(plan: _Plan, part: Part) -> Part:
    """A chunk's figures, refused when a figure is named like an axis (the table would hold two
    columns of that name, one hiding the other)."""
    for row in [part] if isinstance(part, dict) else part[:1]:
        for name in plan.names:
            if name in row:
                raise InputError(name, "is both an axis and a figure of the result; the table cannot hold both "
                                       "columns (sweep another function, or rename the figure)")
    return part


def _rows(part: Part) -> list[Any]:
    """A chunk's figures as a summary per cell."""
    if not isinstance(part, dict):
        return part
    keys = list(part)
    return [dict(zip(keys, values)) for values in zip(*(part[key].tolist() for key in keys))]


def _frame(pd: Any, plan: _Plan, total: int, parts: list[Part]) -> Any:
    columns: dict[str, Any] = {}
    for name, values in zip(plan.names, plan.values):
        repeat = math.prod(_length(v) for v in plan.values[plan.names.index(name) + 1:])
        tile = total // (repeat * _length(values))
        columns[name] = [value for value in values for _ in range(repeat)] * tile
    in_columns = [part for part in parts if isinstance(part, dict)]
    if parts and len(in_columns) == len(parts) and all(list(part) == list(in_columns[0]) for part in in_columns):
        # every chunk in columns with the same figures: joined without a row per cell
        for key in in_columns[0]:
            columns[key] = np.concatenate([part[key] for part in in_columns])
        frame = pd.DataFrame(columns)
        frame.attrs["seed"] = plan.seed
        return frame
    rows = [row for part in parts for row in _rows(part)]
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
