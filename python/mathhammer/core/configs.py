"""Pickling for the C++ configs (``kt.shoot_config(...)`` and the structs the engines pass to C++).

Kill Team's configs pickle in C++ from their field lists, and the configs built by a constructor
(StarCraft's ``AttackCase``, Force melee's exchange configs) by their constructor's fields. The other
configs are plain structs exposed field by field: one pickles as its class and its fields and is
rebuilt the same way, registered here with :mod:`copyreg` when ``mathhammer._core`` is first imported
through the package (``mathhammer.core.sampling``, which every engine uses, imports this module). So
process pools and Dask can send a config as they send the profiles and results.
"""

from __future__ import annotations

import copyreg
from typing import Any

from mathhammer import _core

__all__ = ["register"]


def _fields(cls: type) -> list[str] | None:
    """The struct's field names when every one of them can be set, else None."""
    names = [name for name, value in vars(cls).items() if isinstance(value, property)]
    return names if all(getattr(cls, name).fset is not None for name in names) else None


def _rebuild_fields(cls: type, state: dict[str, Any]) -> Any:
    obj = cls()
    for name, value in state.items():
        setattr(obj, name, value)
    return obj


def _reducer(cls: type, names: list[str]) -> Any:
    def reduce(obj: Any) -> tuple[Any, ...]:
        return _rebuild_fields, (cls, {name: getattr(obj, name) for name in names})

    return reduce


def register() -> list[type]:
    """Register every writable input config of the core that does not pickle itself with copyreg;
    returns the classes registered."""
    done: list[type] = []
    for module in (_core.killteam, _core.starcraft, _core.deathburgh, _core.force_melee):
        for cls in vars(module).values():
            if not isinstance(cls, type) or hasattr(cls, "__members__") or "__setstate__" in vars(cls):
                continue  # enums and the configs pickled in C++ pickle already
            names = _fields(cls)
            if not names:
                continue  # read-only output (a layout, an outcome), or no fields
            try:
                cls()
            except TypeError:
                continue
            copyreg.pickle(cls, _reducer(cls, names))
            done.append(cls)
    return done


REGISTERED: list[type] = register()
