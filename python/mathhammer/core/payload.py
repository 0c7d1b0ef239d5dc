"""The payload codec: results to plain JSON values and back, every value checked on the way in.

:func:`encode` turns a result's fields (distributions, numpy arrays, nested results and profiles)
into JSON values; :func:`decode` turns a JSON value back into the type a field's hint names,
refusing a value of another type with an error naming its path inside the payload
(``wounds_a.pmf[3]``). :func:`plain` is the same for the inputs a scenario echoes.
"""

from __future__ import annotations

import dataclasses
import inspect
import math
import types
import typing
from collections.abc import Mapping
from typing import Any

import numpy as np

from mathhammer.core.distributions import (
    MAX_PAYLOAD_CELLS,
    MAX_PAYLOAD_VALUE,
    Distribution,
    JointDistribution,
    check_payload_int,
)
from mathhammer.core.guard import excerpt, label
from mathhammer.core.profiles import profile_to_dict
from mathhammer.errors import InputError, InputTypeError

__all__ = ["check_plain", "decode", "encode", "plain"]


def encode(value: Any) -> Any:
    """A value as plain JSON values: distributions and profiles by their ``to_dict()``, numpy arrays
    and scalars as lists and numbers, tuples as lists."""
    if isinstance(value, (Distribution, JointDistribution)):
        return value.to_dict()
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        if hasattr(value, "to_dict"):
            return value.to_dict()
        return {f.name: encode(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, np.ndarray):
        return value.tolist()
    if isinstance(value, (np.integer,)):
        return int(value)
    if isinstance(value, (np.floating,)):
        return float(value)
    if isinstance(value, dict):
        return {str(k): encode(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [encode(v) for v in value]
    return value


def decode(hint: Any, value: Any, field: str = "payload") -> Any:
    """A JSON value back into the type ``hint`` names, checked: a value of another type is an
    InputError / InputTypeError naming ``field``, its path inside the payload."""
    origin = typing.get_origin(hint)
    args = typing.get_args(hint)
    if origin is typing.Union or origin is types.UnionType:  # Optional[X] / X | None
        if value is None and type(None) in args:
            return None
        options = [arg for arg in args if arg is not type(None)]
        if len(options) == 1:
            return decode(options[0], value, field)
        return value  # a union of several types: the class's own checks decide
    if hint is None or hint is Any:
        return value
    if value is None:
        raise InputTypeError(field, f"expected {_type_name(hint)}, got None")
    if hint is Distribution:
        return Distribution.from_dict(value, field)
    if hint is JointDistribution:
        return JointDistribution.from_dict(value, field)
    if isinstance(hint, type) and dataclasses.is_dataclass(hint) and hasattr(hint, "from_dict"):
        if hasattr(hint, "_from_payload"):  # a result (core.results.ResultMixin)
            return hint._from_payload(value, field)
        if not isinstance(value, Mapping):
            raise InputTypeError(field, f"expected a table, got {excerpt(value)}")
        try:
            return hint.from_dict(value, field) if _takes_field(hint) else hint.from_dict(value)
        except InputError as error:
            if error.field.startswith(field):
                raise
            raise type(error)(f"{field}.{error.field}", str(error)[len(error.field) + 2:]) from None
    if hint is np.ndarray:
        return _decode_array(field, value)
    if hint is bool:
        if not isinstance(value, bool):
            raise InputTypeError(field, f"expected true or false, got {excerpt(value)}")
        return value
    if hint is int:
        return check_payload_int(field, value, -(2**63), 2**64 - 1)
    if hint is float:
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise InputTypeError(field, f"expected a number, got {excerpt(value)}")
        if isinstance(value, int) and abs(value) > MAX_PAYLOAD_VALUE or not math.isfinite(float(value)):
            raise InputError(field, f"{excerpt(value)} is not a finite number")
        return float(value)
    if hint is str:
        if not isinstance(value, str):
            raise InputTypeError(field, f"expected a string, got {excerpt(value)}")
        return value
    if origin is tuple or origin is list:
        if not isinstance(value, (list, tuple)):
            raise InputTypeError(field, f"expected a list, got {excerpt(value)}")
        if origin is list or (len(args) == 2 and args[1] is Ellipsis):
            item = args[0] if args else Any
            decoded = [decode(item, v, f"{field}[{i}]") for i, v in enumerate(value)]
            return decoded if origin is list else tuple(decoded)
        if args:
            if len(args) != len(value):
                raise InputError(field, f"expected {len(args)} items, got {len(value)}")
            return tuple(decode(a, v, f"{field}[{i}]") for i, (a, v) in enumerate(zip(args, value)))
        return tuple(value)
    if origin is dict:
        if not isinstance(value, Mapping):
            raise InputTypeError(field, f"expected a table, got {excerpt(value)}")
        key_type, item = args if len(args) == 2 else (Any, Any)
        out = {}
        for k, v in value.items():
            if key_type is str and not isinstance(k, str):
                raise InputTypeError(f"{field}.{label(k)}", "expected a string key")
            out[k] = decode(item, v, f"{field}.{label(k)}")
        return out
    return value


def _type_name(hint: Any) -> str:
    return getattr(hint, "__name__", str(hint))


def _takes_field(cls: type) -> bool:
    try:
        return "field" in inspect.signature(cls.from_dict).parameters  # type: ignore[attr-defined]
    except (TypeError, ValueError):  # pragma: no cover - a builtin signature
        return False


def _decode_array(field: str, value: Any) -> np.ndarray:
    """A numeric array from nested lists of finite numbers (no strings, no ragged rows)."""
    if not isinstance(value, (list, tuple)):
        raise InputTypeError(field, f"expected a list of numbers, got {excerpt(value)}")
    try:
        array = np.array(value)
    except (ValueError, TypeError, OverflowError):
        raise InputError(field, "expected a rectangular list of numbers") from None
    if array.dtype.kind not in "biuf" or array.size > MAX_PAYLOAD_CELLS:
        raise InputError(field, "expected a rectangular list of numbers")
    if array.dtype.kind == "f" and not np.all(np.isfinite(array)):
        raise InputError(field, "expected finite numbers")
    return array


def check_plain(field: str, value: Any) -> None:
    """Refuse anything but JSON values (finite numbers, strings, lists, tables with string keys)."""
    stack: list[tuple[str, Any]] = [(field, value)]
    while stack:
        where, item = stack.pop()
        if isinstance(item, Mapping):
            for key, child in item.items():
                if not isinstance(key, str):
                    raise InputTypeError(f"{where}.{label(key)}", "expected a string key")
                stack.append((f"{where}.{label(key)}", child))
        elif isinstance(item, (list, tuple)):
            stack.extend((f"{where}[{i}]", child) for i, child in enumerate(item))
        elif isinstance(item, float) and not math.isfinite(item):
            raise InputError(where, f"{excerpt(item)} is not a finite number")
        elif item is not None and not isinstance(item, (str, int, float)):
            raise InputTypeError(where, f"expected a JSON value, got {excerpt(item)}")


def plain(value: Any) -> Any:
    """Inputs as JSON values: profiles as their fields, rules in notation; callables dropped."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return value.to_dict() if hasattr(value, "to_dict") else profile_to_dict(value)
    if callable(getattr(value, "to_dict", None)):  # e.g. a StarCraft sequence's sc.Batch
        return plain(value.to_dict())
    if isinstance(value, Mapping):
        return {str(k): plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    if isinstance(value, range) and value.step == 1:  # a grid's integer range, as a grid writes it
        return f"{value.start}..{value.stop - 1}"
    if isinstance(value, range):
        return [plain(v) for v in value]
    return encode(value)
