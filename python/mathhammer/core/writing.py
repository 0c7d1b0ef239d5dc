"""Files written whole, checked before the work, one writer at a time (docs/files.md).

Every file the package writes goes through :func:`write_whole`: its bytes go to a new file of a
unique name in the same folder, which is flushed to the disk and then renamed over the target, so
a failure (a full disk, Ctrl-C, a killed process) leaves the old file or the complete new one, and
two writers never share a temporary name. A command checks its output before any computation
(:func:`check_output_file`, :func:`check_output_folder`) and holds an :class:`OutputLock` while
it works: a second run on the same output refuses in one line naming the holder.
"""

from __future__ import annotations

import contextlib
import datetime
import json
import os
import socket
import sys
import tempfile
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any, NoReturn

from mathhammer.core.guard import as_path, excerpt, shown_path
from mathhammer.errors import InputError

__all__ = ["LOCK_SUFFIX", "OutputLock", "check_output_file", "check_output_folder", "data_bytes", "is_temporary",
           "needs_pyarrow", "output_lock", "remove_file", "write_data", "write_whole"]

#: What a lock file adds to the name of the output it guards.
LOCK_SUFFIX = ".lock"
#: What the temporary files of :func:`write_whole` end with (``.<name>.<random>.tmp``).
TEMPORARY_SUFFIX = ".tmp"

# The file operations a writer is made of, one function each so that the tests can make the k-th
# one fail (a full disk, Ctrl-C).
def _write(fd: int, data: memoryview) -> int:
    return os.write(fd, data)


def _replace(source: Path, target: Path) -> None:
    os.replace(source, target)


def _remove(path: Path) -> None:
    os.unlink(path)


def _umask() -> int:
    mask = os.umask(0)  # read once, at import: setting it back and forth later would race other threads
    os.umask(mask)
    return mask


#: The permissions a new file gets (a temporary file is made private; the file it becomes is not).
_FILE_MODE = 0o666 & ~_umask()


def _cannot(field: str | None, path: Path, error: OSError) -> InputError:
    return InputError(field or shown_path(path, quoted=False), f"cannot write {shown_path(path)}: "
                      f"{error.strerror or error}")


def write_whole(path: Path, data: bytes, field: str | None = None) -> None:
    """Write ``data`` into ``path`` whole: a unique temporary file in the same folder, flushed, then
    renamed into place. On any failure the temporary file is removed and ``path`` is as it was; an
    OSError becomes an InputError naming ``field`` (else the file)."""
    folder = path.parent
    try:
        fd, name = tempfile.mkstemp(prefix=f".{path.name}.", suffix=TEMPORARY_SUFFIX, dir=folder)
    except OSError as error:
        raise _cannot(field, path, error) from None
    temporary = Path(name)
    try:
        try:
            if hasattr(os, "fchmod"):
                os.fchmod(fd, _FILE_MODE)
            view = memoryview(data)
            while view:
                view = view[_write(fd, view):]
            os.fsync(fd)
        finally:
            os.close(fd)
        _replace(temporary, path)
    except BaseException as error:
        with contextlib.suppress(OSError):
            os.remove(temporary)
        if isinstance(error, OSError):
            raise _cannot(field, path, error) from None
        raise


def data_bytes(path: Path, data: Mapping[str, Any]) -> bytes:
    """A table of plain values as the bytes of a TOML or JSON file, by the file's suffix."""
    import tomli_w  # only a writer needs it

    suffix = path.suffix.lower()
    if suffix == ".json":
        return (json.dumps(data, indent=2) + "\n").encode("utf-8")
    if suffix == ".toml":
        return tomli_w.dumps(data).encode("utf-8")
    raise InputError(shown_path(path, quoted=False), "unknown file type; use .toml or .json")


def write_data(path: Path, data: Mapping[str, Any]) -> None:
    """A table of plain values written whole as TOML or JSON, by the file's suffix."""
    write_whole(path, data_bytes(path, data))


def remove_file(path: Path, field: str | None = None) -> None:
    """Remove a file the package wrote (gone already is fine); an OSError is an InputError."""
    try:
        _remove(path)
    except FileNotFoundError:
        pass
    except OSError as error:
        raise InputError(field or shown_path(path, quoted=False),
                         f"cannot remove {shown_path(path)}: {error.strerror or error}") from None


def is_temporary(name: str) -> bool:
    """Whether a file name is one :func:`write_whole` gives its temporary files."""
    return name.startswith(".") and name.endswith(TEMPORARY_SUFFIX)


def needs_pyarrow(field: str, path: Path) -> None:
    """Refuse a ``.parquet`` output when pyarrow, which writes it, is not installed."""
    if path.suffix.lower() != ".parquet":
        return
    try:
        import pyarrow  # noqa: F401  (only whether it imports)
    except ImportError:
        raise InputError(field, f"{shown_path(path)}: writing Parquet needs pyarrow: "
                         "pip install 'mathhammer[parquet]' (or write a .csv)") from None


def check_output_file(field: str, value: Any, suffixes: Sequence[str]) -> Path:
    """The file an output option names, checked before any work: one of ``suffixes``, pyarrow for
    Parquet, in a folder that exists, not a folder, not a symbolic link (nothing is written through
    a link)."""
    path = as_path(value, field)
    if not os.fspath(value).strip() or not path.name:
        raise InputError(field, f"{excerpt(os.fspath(value))}: name a file ({', '.join(suffixes)})")
    if path.suffix.lower() not in suffixes:
        raise InputError(field, f"{shown_path(path)}: write a {', '.join(suffixes)} file")
    if path.is_symlink():
        raise InputError(field, f"{shown_path(path)} is a symbolic link; name the file itself (delete the link)")
    if path.is_dir():
        raise InputError(field, f"{shown_path(path)} is a folder; name a file in it")
    if not path.parent.is_dir():
        raise InputError(field, f"cannot write {shown_path(path)}: no folder {shown_path(path.parent)}")
    if not os.access(path.parent, os.W_OK | os.X_OK):
        raise InputError(field, f"cannot write {shown_path(path)}: the folder {shown_path(path.parent)} is not writable")
    needs_pyarrow(field, path)
    return path


def check_output_folder(field: str, value: Any) -> Path:
    """The folder an output option names, checked before any work: a folder, or a name whose
    nearest existing parent is a writable folder (it is made when the files are written)."""
    path = as_path(value, field)
    if not os.fspath(value).strip():  # Path("") is ".": an empty name must not mean this folder
        raise InputError(field, f"{excerpt(os.fspath(value))}: name a folder (. for this one)")
    if path.exists() and not path.is_dir():
        raise InputError(field, f"{shown_path(path)} is a file, not a folder")
    existing = Path(os.path.abspath(path))
    while not existing.exists() and existing != existing.parent:
        existing = existing.parent
    if not existing.is_dir():
        raise InputError(field, f"cannot make {shown_path(path)}: {shown_path(existing)} is not a folder")
    if not os.access(existing, os.W_OK | os.X_OK):
        raise InputError(field, f"cannot write into {shown_path(existing)}: the folder is not writable")
    return path


# --- one writer at a time ---------------------------------------------------------------------------

def _holder() -> dict[str, Any]:
    return {"pid": os.getpid(), "host": socket.gethostname(),
            "since": datetime.datetime.now().astimezone().isoformat(timespec="seconds"),
            "command": " ".join(os.path.basename(a) if i == 0 else a for i, a in enumerate(sys.argv))[:200]}


def _described(text: str) -> str:
    """A lock file's holder as a message names it."""
    try:
        holder = json.loads(text)
        host, since, command = (excerpt(str(holder[key]), 60)[1:-1] for key in ("host", "since", "command"))
        return f"process {int(holder['pid'])} on {host} since {since} ({command})"
    except (ValueError, KeyError, TypeError):
        return "another run"


class OutputLock:
    """A lock on one output: the file ``<output>.lock`` (``<folder>/.mathhammer.lock`` for a folder)
    naming the holder. Held with an advisory lock of the operating system where there is one, so a
    killed holder's lock is free again (the file it leaves is rewritten); elsewhere the file's
    existence is the lock."""

    def __init__(self, field: str, output: Path, folder: bool = False) -> None:
        self.field = field
        self.output = output
        self.path = output / ".mathhammer.lock" if folder else output.with_name(output.name + LOCK_SUFFIX)
        self._fd: int | None = None

    def acquire(self) -> None:
        try:
            import fcntl
        except ImportError:  # no advisory locks (Windows): the file's existence is the lock
            fcntl = None  # type: ignore[assignment]
        for _ in range(10):  # the file may be removed between opening and locking it: open it again
            flags = os.O_RDWR | os.O_CREAT | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_NOFOLLOW", 0)
            if fcntl is None:
                flags |= os.O_EXCL
            try:
                fd = os.open(self.path, flags, 0o644)
            except FileExistsError:
                self._refuse()
            except OSError as error:
                raise InputError(self.field, f"cannot lock {shown_path(self.output)}: cannot write "
                                 f"{shown_path(self.path)}: {error.strerror or error}") from None
            if fcntl is not None:
                try:
                    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                except OSError:
                    os.close(fd)
                    self._refuse()
                try:
                    same = os.fstat(fd).st_ino == os.stat(self.path).st_ino
                except OSError:
                    same = False
                if not same:
                    os.close(fd)
                    continue
            os.ftruncate(fd, 0)
            os.write(fd, (json.dumps(_holder()) + "\n").encode("utf-8"))
            self._fd = fd
            return
        raise InputError(self.field, f"cannot lock {shown_path(self.output)}: its lock file keeps changing")

    def _refuse(self) -> NoReturn:
        try:
            text = self.path.read_text(encoding="utf-8", errors="replace")[:1000]
        except OSError:
            text = ""
        raise InputError(self.field, f"{shown_path(self.output)} is being written by {_described(text)}; wait for it, "
                         f"or delete {shown_path(self.path)} if that run is over")

    def release(self) -> None:
        if self._fd is None:
            return
        with contextlib.suppress(OSError):
            os.remove(self.path)  # removed while still locked: a waiting writer then opens a new file
        os.close(self._fd)
        self._fd = None

    def __enter__(self) -> OutputLock:
        self.acquire()
        return self

    def __exit__(self, *exc: object) -> None:
        self.release()


@contextlib.contextmanager
def output_lock(field: str, output: Path | None, folder: bool = False) -> Iterator[OutputLock | None]:
    """``with output_lock(field, path):`` holds the output's lock for the block (None: no output)."""
    if output is None:
        yield None
        return
    with OutputLock(field, output, folder) as lock:
        yield lock

