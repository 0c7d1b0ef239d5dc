"""The errors of bad input, the bottom layer: every other module may raise them, they import nothing.

``InputError`` (a ``ValueError``) is the base of every input problem, so ``except mh.InputError``
catches them all: a value outside what the rules allow, a value of the wrong type
(``InputTypeError``, also a ``TypeError``), a profile or scenario file that cannot be used
(``ProfileFileError``) and a sweep cell that failed (``SweepError``).
Each names the offending input in ``field``; ``str(error)`` is ``"<field>: <message>"``, the one
line the command line prints.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

__all__ = ["InputError", "InputTypeError", "ProfileFileError", "SweepError"]


class InputError(ValueError):
    """A value outside what the rules allow. ``field`` names the offending input."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(f"{field}: {message}")
        self.field = field

    def __reduce__(self) -> tuple[Any, ...]:
        # process pools and Dask send errors back to the caller: rebuilt from (field, message)
        return (type(self), (self.field, str(self)[len(self.field) + 2:]))


class InputTypeError(InputError, TypeError):
    """A value of the wrong type. ``field`` names the offending input."""


class ProfileFileError(InputError):
    """A profile, scenario or round file that cannot be read or holds an invalid entry; ``field`` is
    the file (or what it was read as: "example scenario"), its last 40 characters when longer."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(field if len(field) <= _MAX_PATH else "…" + field[1 - _MAX_PATH:], message)


#: An error names a file by at most this many characters (its end: the file's own name).
_MAX_PATH = 40


class SweepError(InputError):
    """A sweep cell raised: names the cell's index and parameters, and the error it raised.

    ``field`` is ``"cell <index> (<key>=<value>, ...)"``; ``error_type`` and ``message`` are the
    cell's own error.
    """

    def __init__(self, index: int, parameters: Mapping[str, str], error_type: str, message: str) -> None:
        self.index = index
        self.parameters = dict(parameters)
        self.error_type = error_type
        self.message = message
        where = ", ".join(f"{key}={value}" for key, value in self.parameters.items())
        super().__init__(f"cell {index} ({where})", f"{error_type}: {message}")

    def __reduce__(self) -> tuple[Any, ...]:
        return (SweepError, (self.index, self.parameters, self.error_type, self.message))
