"""Bounds on untrusted input: notation text, numbers written in text, files and decoded payloads.

Every parser checks its text here before matching it, so that a long or odd string costs time in
proportion to its length and fails with an error naming the field; every file goes through
:func:`read_data`, which reads regular files only, up to :data:`MAX_FILE_BYTES`.
"""

from __future__ import annotations

import json
import os
import re
import reprlib
import stat
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10
    import tomli as tomllib  # type: ignore[no-redef, unused-ignore]

from mathhammer.errors import InputError, InputTypeError

__all__ = [
    "MAX_DEPTH", "MAX_DIGITS", "MAX_EXCERPT", "MAX_FILE_BYTES", "MAX_TEXT", "as_path", "check_depth",
    "check_notation", "closest", "excerpt", "label", "loads", "read_bytes", "read_data", "read_text", "squeeze", "tomllib",
]

#: Longest notation or keyword text a parser reads (a datacard line is well under 200 characters).
MAX_TEXT = 4096
#: Most digits of a number written in text (no count, stat or range in any game comes near).
MAX_DIGITS = 6
#: Largest profile, scenario or round file read.
MAX_FILE_BYTES = 16 * 1024 * 1024
#: Deepest nesting of tables and lists accepted in a file or payload (a scenario needs about 5).
MAX_DEPTH = 64
#: Longest excerpt of input an error message quotes.
MAX_EXCERPT = 40

_SHORT = reprlib.Repr()
_SHORT.maxlevel, _SHORT.maxlist, _SHORT.maxtuple, _SHORT.maxdict = 2, 4, 4, 4
_SHORT.maxstring, _SHORT.maxother, _SHORT.maxlong = MAX_EXCERPT, MAX_EXCERPT, MAX_EXCERPT
_LONG_NUMBER = re.compile(rf"\d{{{MAX_DIGITS + 1},}}")


def excerpt(value: Any, limit: int = MAX_EXCERPT) -> str:
    """``repr(value)`` cut to ``limit`` characters (control characters escaped), for error messages."""
    if isinstance(value, str):
        text = repr(value[: limit + 1])
    elif isinstance(value, int) and not isinstance(value, bool) and abs(value) >= 10**limit:
        text = f"an integer of more than {limit} digits"  # str() of a huge int is slow and refused
    elif isinstance(value, (bool, int, float, type(None))):
        text = repr(value)
    else:
        try:
            text = _SHORT.repr(value)
        except Exception:  # a repr that fails: name the type only
            text = f"a {type(value).__name__}"
    return text if len(text) <= limit else text[: limit - 3] + "..."


def check_notation(field: str, text: str, limit: int = MAX_TEXT) -> str:
    """Refuse text longer than ``limit`` characters or holding a number of more than
    :data:`MAX_DIGITS` digits; returns the text unchanged."""
    if len(text) > limit:
        raise InputError(field, f"text of {len(text)} characters is too long; at most {limit}")
    long = _LONG_NUMBER.search(text)
    if long is not None:
        raise InputError(field, f"a number of {long.end() - long.start()} digits; at most {MAX_DIGITS}")
    return text


def shown_path(path: Any, quoted: bool = True) -> str:
    """A file path as an error names it: its last 40 characters (the file's own name) when longer,
    quoted unless ``quoted`` is False (a path that is the error's field)."""
    text = str(path)
    if len(text) > MAX_EXCERPT:
        text = "…" + text[1 - MAX_EXCERPT:]
    return repr(text) if quoted else text


def squeeze(text: str) -> str:
    """Whitespace runs as one space, ends stripped: patterns with several ``\\s*`` then match in
    linear time, since no run of spaces can be split between them in many ways."""
    return " ".join(text.split())


def read_bytes(path: str | Path, field: str | None = None, limit: int = MAX_FILE_BYTES) -> bytes:
    """The bytes of a regular file (a symbolic link is followed only to a regular file), at most
    ``limit`` (:data:`MAX_FILE_BYTES`); any other file (a FIFO, a device, a folder) is an error naming it."""
    name = field or shown_path(path, quoted=False)
    try:
        # O_NONBLOCK: opening a FIFO must not wait for a writer; it is refused just below.
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0))
    except FileNotFoundError:
        raise InputError(name, "no such file") from None
    except OSError as error:
        raise InputError(name, f"cannot read it: {error.strerror or error}") from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise InputError(name, "cannot read it: not a regular file (a folder, a FIFO or a device?)")
        if info.st_size > limit:
            raise InputError(name, f"file of {info.st_size} bytes is too large; at most {limit}")
        chunks: list[bytes] = []
        size = 0
        while size <= limit:
            chunk = os.read(fd, min(1 << 20, limit + 1 - size))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
    except OSError as error:
        raise InputError(name, f"cannot read it: {error.strerror or error}") from None
    finally:
        os.close(fd)
    data = b"".join(chunks)
    if len(data) > limit:  # grew while being read
        raise InputError(name, f"file is too large; at most {limit} bytes")
    return data


def read_text(path: str | Path, field: str | None = None) -> str:
    """The UTF-8 text of a regular file of at most :data:`MAX_FILE_BYTES` (see :func:`read_bytes`)."""
    name = field or shown_path(path, quoted=False)
    data = read_bytes(path, name)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise InputError(name, "not a text file (UTF-8)") from None


def loads(text: str, kind: str, field: str) -> Any:
    """JSON (``kind`` "json") or TOML text decoded; nesting, huge numbers and syntax errors are
    InputErrors naming ``field``."""
    if kind == "json":
        _check_json_depth(text, field)
    try:
        data = json.loads(text) if kind == "json" else tomllib.loads(text)
    except RecursionError:
        raise InputError(field, f"nested too deeply; at most {MAX_DEPTH} levels") from None
    except (ValueError, MemoryError) as error:  # JSONDecodeError, TOMLDecodeError, too many digits
        message = str(error).split("\n")[0][:200]
        if "integer string conversion" in message:  # Python's own limit, worded for the user
            message = "a number of more than 4300 digits"
        raise InputError(field, f"not valid {kind.upper()}: {message}") from None
    check_depth(field, data)
    return data


# A JSON string, escapes included: its brackets are text, not nesting.
_JSON_STRING = re.compile(r'"(?:[^"\\]|\\.)*"')


def _check_json_depth(text: str, field: str, limit: int = MAX_DEPTH) -> None:
    """Refuse JSON text nested more than ``limit`` deep before it is decoded: a deep document costs
    its whole tree in memory first (and recursion in the decoder) when checked after decoding."""
    if text.count("[") + text.count("{") <= limit:
        return
    import numpy as np  # here: the command line's start does not pay for it

    brackets = np.frombuffer(_JSON_STRING.sub("", text).encode("utf-8", "replace"), dtype=np.uint8)
    steps = np.zeros(brackets.size, dtype=np.int64)
    steps[(brackets == ord("[")) | (brackets == ord("{"))] = 1
    steps[(brackets == ord("]")) | (brackets == ord("}"))] = -1
    if steps.size and int(np.cumsum(steps).max()) > limit:
        raise InputError(field, f"nested too deeply; at most {limit} levels")


def check_depth(field: str, data: Any, limit: int = MAX_DEPTH) -> None:
    """Refuse tables and lists nested more than ``limit`` deep (checked without recursion)."""
    stack: list[tuple[Any, int]] = [(data, 0)]
    while stack:
        value, depth = stack.pop()
        if isinstance(value, Mapping):
            children: Any = value.values()
        elif isinstance(value, (list, tuple)):
            children = value
        else:
            continue
        if depth >= limit:
            raise InputError(field, f"nested too deeply; at most {limit} levels")
        stack.extend((child, depth + 1) for child in children)


def read_data(path: str | Path, field: str | None = None) -> Any:
    """The decoded content of a ``.toml`` or ``.json`` file (see :func:`read_text`)."""
    name = field or str(path)
    suffix = Path(path).suffix.lower()
    if suffix not in (".json", ".toml"):
        raise InputError(name, "unknown file type; use .toml or .json")
    return loads(read_text(path, name), suffix[1:], name)


def label(key: Any) -> str:
    """A key of the input as an error message names it: as written when short and printable,
    else a short escaped excerpt."""
    if isinstance(key, str) and len(key) <= MAX_EXCERPT and key.isprintable():
        return key
    return excerpt(key)


def closest(name: Any, known: list[str], count: int = 5) -> str:
    """The ``count`` known names closest to ``name`` and how many others there are, for an error
    naming what is known without listing a library of thousands."""
    if len(known) <= count:
        return ", ".join(known) or "none"
    import difflib

    target = name[:MAX_EXCERPT] if isinstance(name, str) else ""
    near = difflib.get_close_matches(target, known, n=count, cutoff=0.0) if target else []
    shown = near or known[:count]
    return f"{', '.join(shown)} and {len(known) - len(shown)} more"


def check_source(source: Any) -> str:
    """What a loader names the data it reads in its errors (a file name, "example scenario"): text."""
    if not isinstance(source, str):
        raise InputTypeError("source", f"expected text naming where the data came from, got {excerpt(source)}")
    return source


def text_labels(field: str, table: Mapping[Any, Any]) -> list[str]:
    """The keys of ``table`` as labels: text (or whole numbers, written out); anything else is an
    InputTypeError naming ``field``."""
    labels = []
    for key in table:
        if isinstance(key, bool) or not isinstance(key, (str, int)) or (isinstance(key, int) and abs(key) >= 10**18):
            raise InputTypeError(field, f"labels are text, got {excerpt(key)}")
        labels.append(key if isinstance(key, str) else str(key))
    return labels


def did_you_mean(name: Any, known: Iterable[str]) -> str:
    """`` (did you mean 'x'?)`` when one known name is close to ``name`` (a typo), else ``""``."""
    import difflib

    if not isinstance(name, str):
        return ""
    close = difflib.get_close_matches(name[:MAX_EXCERPT], list(known), n=1, cutoff=0.7)
    return f" (did you mean {close[0]!r}?)" if close else ""


def as_path(value: Any, field: str = "path") -> Path:
    """A file path given as ``str`` or ``os.PathLike``; anything else is an InputTypeError."""
    if isinstance(value, str) and "\x00" not in value:
        return Path(value)
    if isinstance(value, os.PathLike) and not isinstance(value, (bytes, bytearray)):
        fspath = os.fspath(value)
        if isinstance(fspath, str) and "\x00" not in fspath:
            return Path(fspath)
    raise InputTypeError(field, f"expected a file path, got {excerpt(value)}")
