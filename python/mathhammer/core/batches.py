"""Many results from one call: ``ResultBatch`` and the broadcasting of batch arguments.

A batch entry point (``kt.shoot_batch``) takes, for each of its arguments, one value or a sequence
of values; sequences must have the same length and single values are repeated to it. The whole batch
is resolved before it returns (the exact items in one C++ call); ``batch[i]`` builds the i-th full
result on first access, so a sweep that reads a few figures does not pay for result objects it never
looks at.

Seeds (docs/results.md "Batches"): a sequence of seeds gives each item its own; one seed (drawn when
None) gives item i ``cell_seed(seed, i)`` (:func:`mathhammer.core.sampling.cell_seed`), as every
comparison does, so that two equal Monte Carlo items are two independent runs and the one seed
repeats the whole batch (:func:`item_seeds`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any, Generic, TypeVar

import numpy as np

from mathhammer.core.options import MAX_SEED, EngineOptions, engine_options
from mathhammer.core.sampling import cell_seed
from mathhammer.errors import InputError

__all__ = [
    "ResultBatch", "broadcast", "checked_items", "columns_of", "is_sequence", "item_error", "item_options", "item_seeds", "per_item",
]

R = TypeVar("R")


class ResultBatch(Generic[R]):
    """The results of a batch call, in the order of its items.

    ``len(batch)``; ``batch[i]`` the i-th full result (the same as the separate call; negative
    indices count from the end); iteration; ``summaries()`` each item's ``summary()``;
    ``summary_arrays()`` the same figures as columns (a dict of numpy arrays, one value per item);
    ``to_frame()`` a pandas DataFrame with one row of ``summary()`` per item.
    """

    __slots__ = ("_build", "_columns", "_items", "_summarize")

    def __init__(self, size: int, build: Callable[[int], R],
                 summarize: Callable[[int], dict[str, float]] | None = None,
                 columns: Callable[[], dict[str, np.ndarray]] | None = None) -> None:
        # summarize(i): item i's summary() without building the item (a sweep reads only that);
        # columns(): every item's summary() as summary_arrays() gives it, in one pass over the batch
        self._build = build
        self._items: list[R | None] = [None] * size
        self._summarize = summarize
        self._columns = columns

    def __len__(self) -> int:
        return len(self._items)

    def __getitem__(self, index: int) -> R:
        if isinstance(index, bool) or not isinstance(index, (int, np.integer)):
            raise TypeError(f"batch indices are integers, got {type(index).__name__}")
        size = len(self._items)
        i = int(index) + size if index < 0 else int(index)
        if not 0 <= i < size:
            raise IndexError(f"batch index {int(index)} is out of range for {size} items")
        item = self._items[i]
        if item is None:
            item = self._items[i] = self._build(i)
        return item

    def __iter__(self) -> Iterator[R]:
        return (self[i] for i in range(len(self._items)))

    def summaries(self) -> list[dict[str, float]]:
        """Each item's ``summary()``, in order."""
        summarize = self._summarize
        if summarize is None:
            return [item.summary() for item in self]  # type: ignore[attr-defined]
        items = self._items
        return [summarize(i) if item is None else item.summary()  # type: ignore[attr-defined]
                for i, item in enumerate(items)]

    def summary_arrays(self) -> dict[str, np.ndarray]:
        """Each figure of ``summary()`` as a float64 array over the items, in order: the very numbers
        of ``summaries()`` (equal bit for bit), computed column by column where the engine can
        (Kill Team's exact shots), so that reading a large batch's figures costs little more than
        resolving it."""
        if self._columns is not None:
            return self._columns()
        return columns_of(self.summaries())

    def to_frame(self) -> Any:
        """One row of ``summary()`` per item (index: the item's position)."""
        import pandas as pd

        return pd.DataFrame(self.summary_arrays())

    def __repr__(self) -> str:
        return f"ResultBatch({len(self._items)} items)"

    def __reduce__(self) -> tuple[Any, ...]:
        # pickles as its items, every one built (the builder is a closure over the engine's arrays)
        return _batch_of, (list(self),)


def columns_of(rows: Sequence[Mapping[str, float]]) -> dict[str, np.ndarray]:
    """Summaries (each with the keys of the first) as a float64 column per key."""
    keys = list(rows[0]) if rows else []
    return {key: np.fromiter((row[key] for row in rows), dtype=np.float64, count=len(rows)) for key in keys}


def _batch_of(items: list[Any]) -> ResultBatch[Any]:
    """A batch holding ``items`` (the other side of ``ResultBatch.__reduce__``)."""
    batch: ResultBatch[Any] = ResultBatch(len(items), items.__getitem__)
    batch._items = list(items)
    return batch


def is_sequence(value: Any) -> bool:
    # text and mappings are single values (a preset name, a table of switches), never sequences
    return isinstance(value, (list, tuple, range, np.ndarray)) and not (isinstance(value, np.ndarray) and value.ndim == 0)


def broadcast(arguments: Mapping[str, Any]) -> tuple[int, dict[str, list[Any]]]:
    """The batch size and, for each argument, its value per item: a sequence as given, a single value
    repeated. Every sequence must have the same length (at least one item)."""
    size: int | None = None
    first = ""
    for name, value in arguments.items():
        if not is_sequence(value):
            continue
        length = len(value)
        if length == 0:
            raise InputError(name, "an empty sequence; give at least one item")
        if size is None:
            size, first = length, name
        elif length != size:
            raise InputError(name, f"has {length} items but {first} has {size}; sequences must have the same length")
    n = 1 if size is None else size
    per_item = {name: (list(value) if is_sequence(value) else [value] * n) for name, value in arguments.items()}
    return n, per_item


def item_error(error: InputError, name: str, index: int, single: bool,
               inner: str = "") -> InputError:
    """``error`` with its field named from the batch argument: ``weapons[3].hit: ...`` for an item of a
    sequence, ``cover: ...`` for a single value. ``inner`` is the field name the item's own check
    uses for the whole item (``weapon`` for ``weapon.hit``), replaced by the argument's."""
    prefix = name if single else f"{name}[{index}]"
    message = str(error)[len(error.field) + 2 :]
    field = error.field
    for head in (inner, name):
        if head and (field == head or field.startswith(head + ".")):
            field = field[len(head) :].lstrip(".")
            break
    return type(error)(f"{prefix}.{field}" if field else prefix, message)


def checked_items(name: str, values: Sequence[Any], single: Mapping[str, bool], check: Callable[[Any], R],
                  inner: str = "") -> list[R]:
    """``check`` of each item of one batch argument, a single value once (every item shares it); an
    error names the item (:func:`item_error`)."""
    if single[name]:
        try:
            return [check(values[0])] * len(values)
        except InputError as error:
            raise item_error(error, name, 0, True, inner) from None
    out = []
    for i, value in enumerate(values):
        try:
            out.append(check(value))
        except InputError as error:
            raise item_error(error, name, i, False, inner) from None
    return out


def per_item(items: Mapping[str, list[Any]], names: Sequence[str], single: Mapping[str, bool],
             check: Callable[..., R]) -> list[R]:
    """``check(*values)`` of the named batch arguments (``items`` as :func:`broadcast` gives them) for
    every item: once when all of them are single values, else once per distinct combination of
    objects (keyed by identity, so 1 and True stay apart; ``items`` holds every object for the whole
    call). An error names the item (:func:`item_error`)."""
    size = len(items[names[0]])
    columns = [items[name] for name in names]
    try:
        if all(single[name] for name in names):
            return [check(*(column[0] for column in columns))] * size
    except InputError as error:
        raise item_error(error, error.field.split(".")[0], 0, True) from None
    known: dict[tuple[int, ...], R] = {}
    out: list[R] = []
    for i, parts in enumerate(zip(*columns)):
        key = tuple(map(id, parts))
        value = known.get(key)
        if value is None:
            try:
                value = known[key] = check(*parts)
            except InputError as error:
                name = error.field.split(".")[0]
                raise item_error(error, name, i, single.get(name, True)) from None
        out.append(value)
    return out


def item_options(progress: Any, executor: Any, methods: tuple[str, ...]
                 ) -> Callable[[Any, Any, Any, Any], EngineOptions]:
    """The check of one item's engine options (method, samples, seed, threads), with the batch's own
    ``progress`` and ``executor``: for :func:`per_item`."""
    def check(method: Any, samples: Any, seed: Any, threads: Any) -> EngineOptions:
        return engine_options(method, samples, seed, threads, progress, executor, methods=methods)

    return check


def item_seeds(values: list[Any], single: bool, name: str = "seed") -> Callable[[int], int | None]:
    """Item i's Monte Carlo seed, as a function of i (the batch's seed rule, see the module docstring):
    a sequence's own (each checked here; None draws one for that item), or ``cell_seed`` of the one
    seed, drawn when an item first needs it if None. Only the items that run Monte Carlo ask."""
    for i, value in enumerate(values[:1] if single else values):
        if value is not None and not (type(value) is int and 0 <= value <= MAX_SEED):
            try:
                engine_options(seed=value)
            except InputError as error:
                raise item_error(error, name, i, single) from None
    if not single:
        return values.__getitem__
    drawn: list[int] = []

    def derived(i: int) -> int:
        if not drawn:
            drawn.append(engine_options(seed=values[0]).draw_seed())
        return cell_seed(drawn[0], i)

    return derived
