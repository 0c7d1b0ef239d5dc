"""Pickling for the C++ configs (``kt.shoot_config(...)`` and the structs the engines pass to C++).

The configs are plain structs exposed field by field, so a config pickles as its class and its
fields and is rebuilt the same way: process pools and Dask can send a config as they send the
profiles and results. Registered with :mod:`copyreg` when ``mathhammer._core`` is first imported
through the package (``mathhammer.core.sampling``, which every engine uses, imports this module).
"""

from __future__ import annotations

import copyreg
import inspect
import re
from typing import Any

from mathhammer import _core

__all__ = ["register"]


def _fields(cls: type) -> tuple[list[str], bool]:
    """The struct's field names and whether every one of them can be set (else: constructor args)."""
    names = [name for name, value in vars(cls).items() if isinstance(value, property)]
    writable = all(getattr(cls, name).fset is not None for name in names)
    return names, writable


def _rebuild_fields(cls: type, state: dict[str, Any]) -> Any:
    obj = cls()
    for name, value in state.items():
        setattr(obj, name, value)
    return obj


def _rebuild_arguments(cls: type, state: dict[str, Any]) -> Any:
    return cls(**state)


def _reducer(cls: type, names: list[str], writable: bool) -> Any:
    rebuild = _rebuild_fields if writable else _rebuild_arguments

    def reduce(obj: Any) -> tuple[Any, ...]:
        return rebuild, (cls, {name: getattr(obj, name) for name in names})

    return reduce


def _constructor_arguments(cls: type) -> list[str] | None:
    """The keyword names of the class's constructor, from its pybind11 signature line."""
    doc = inspect.getdoc(vars(cls).get("__init__")) or ""
    first = doc.splitlines()[0] if doc else ""
    if not first.startswith("__init__(self"):
        return None
    return re.findall(r", (\w+):", first)


def register() -> list[type]:
    """Register every input config of the core with copyreg; returns the classes registered."""
    done: list[type] = []
    for module in (_core.killteam, _core.starcraft, _core.deathburgh, _core.force_melee):
        for cls in vars(module).values():
            if not isinstance(cls, type) or hasattr(cls, "__members__"):  # enums pickle already
                continue
            names, writable = _fields(cls)
            if not names:
                continue
            if writable:
                try:
                    cls()
                except TypeError:
                    continue
            elif sorted(_constructor_arguments(cls) or ()) != sorted(names):
                continue  # a layout or outcome (read-only output), not a config
            copyreg.pickle(cls, _reducer(cls, names, writable))
            done.append(cls)
    return done


REGISTERED: list[type] = register()
