"""Failures injected into the file operations of every writer (mathhammer.core.writing): the k-th
write, rename or removal fails, as a full disk (a write cut half way, ENOSPC) or as Ctrl-C."""

from __future__ import annotations

import errno
import os
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from mathhammer.core import writing

OPERATIONS = ("_write", "_replace", "_remove")


class Fault:
    """Within ``with Fault(monkeypatch, k, interrupt):`` the k-th file operation of every writer
    fails: OSError(ENOSPC) (a write first writes half its bytes), or KeyboardInterrupt when
    ``interrupt``. ``hit`` says whether the run got that far."""

    def __init__(self, k: int, interrupt: bool = False) -> None:
        self.k, self.interrupt = k, interrupt
        self.count = 0
        self.hit = False
        self._originals: dict[str, Callable[..., Any]] = {}

    def _wrap(self, name: str, original: Callable[..., Any]) -> Callable[..., Any]:
        def operation(*args: Any) -> Any:
            self.count += 1
            if self.count != self.k:
                return original(*args)
            self.hit = True
            if name == "_write":  # a torn write: half the bytes reach the file
                fd, data = args
                original(fd, bytes(data[: len(data) // 2]))
            if self.interrupt:
                raise KeyboardInterrupt
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        return operation

    def __enter__(self) -> Fault:
        for name in OPERATIONS:
            self._originals[name] = getattr(writing, name)
            setattr(writing, name, self._wrap(name, self._originals[name]))
        return self

    def __exit__(self, *exc: object) -> None:
        for name, original in self._originals.items():
            setattr(writing, name, original)


def every_fault() -> Iterator[Fault]:
    """A Fault at k = 1, 2, ... (a Ctrl-C every third one), until a run ends before its k-th operation."""
    k = 0
    while True:
        k += 1
        fault = Fault(k, interrupt=k % 3 == 0)
        yield fault
        if not fault.hit:
            return
        assert k < 500, "a writer that never finishes"


def leftovers(folder: Path) -> list[str]:
    """Temporary files and lock files left in a folder (a writer leaves none)."""
    return sorted(p.name for p in folder.rglob("*") if writing.is_temporary(p.name) or p.name.endswith(".lock"))
