"""Result fields computed on first read.

An exact engine call is a few microseconds of C++; turning its arrays into every Distribution and
figure of a result costs ten times that in numpy calls. A result class listing some of its dataclass
fields in :func:`deferred` can be made with those fields pending (:meth:`Deferred._pending_result`):
the first read of any of them runs the one function that computes them all, with the same numpy code
an eager result runs, so every number, ``repr``, ``to_json()`` and ``summary()`` is unchanged.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, TypeVar

__all__ = ["Deferred", "deferred"]

_PENDING = "_pending_fields"

T = TypeVar("T", bound="Deferred")


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
        if self.name not in values:
            instance._complete()
        return values[self.name]


class Deferred:
    """Mixin of a frozen dataclass result whose :func:`deferred` fields may be computed on first read."""

    @classmethod
    def _pending_result(cls: type[T], ready: Mapping[str, Any], compute: Callable[[], Mapping[str, Any]]) -> T:
        """A result holding the fields in ``ready``; ``compute()`` returns every deferred field."""
        self = cls.__new__(cls)
        self.__dict__.update(ready)
        self.__dict__[_PENDING] = compute
        return self

    def _complete(self) -> None:
        values = self.__dict__
        compute = values.get(_PENDING)
        if compute is None:
            return
        # filled before the pending work is dropped: a reader on another thread never sees neither
        values.update(compute())
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
