"""Typed reading of JSON-like data with error messages that say where the problem is.

Shared by scenarios, battle setups, commands and journals, so it lives below all of them.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from typing import NoReturn, TypeGuard


class ScenarioError(ValueError):
    """A scenario that cannot be read; the message names the place (`entities[1].at: ...`)."""


def fail(where: str, problem: str) -> NoReturn:
    raise ScenarioError(f"{where}: {problem}" if where else problem)


def _type_name(value: object) -> str:
    return {
        bool: "a boolean",
        int: "a number",
        float: "a number",
        str: "a string",
        list: "a list",
        dict: "an object",
        type(None): "null",
    }.get(type(value), type(value).__name__)


def as_object(
    value: object, where: str, allowed: Iterable[str] | None = None
) -> Mapping[str, object]:
    if not isinstance(value, dict):
        fail(where, f"expected an object, got {_type_name(value)}")
    if allowed is not None:
        known = set(allowed)
        for key in value:
            if key not in known:
                fail(where, f"unknown field {key!r} (known: {', '.join(sorted(known))})")
    return value


def as_list(value: object, where: str) -> list[object]:
    if not isinstance(value, list):
        fail(where, f"expected a list, got {_type_name(value)}")
    return value


def as_str(value: object, where: str) -> str:
    if not isinstance(value, str) or not value.strip():
        fail(where, f"expected a non-empty string, got {_type_name(value)}")
    return value


def as_bool(value: object, where: str) -> bool:
    if not isinstance(value, bool):
        fail(where, f"expected true or false, got {_type_name(value)}")
    return value


def _finite(value: object) -> TypeGuard[int | float]:
    return isinstance(value, int) or (isinstance(value, float) and math.isfinite(value))


def as_int(value: object, where: str, low: int | None = None, high: int | None = None) -> int:
    if isinstance(value, bool) or not _finite(value) or int(value) != value:
        fail(where, f"expected a whole number, got {value!r}")
    n = int(value)
    if low is not None and n < low:
        fail(where, f"{n} is below the minimum {low}")
    if high is not None and n > high:
        fail(where, f"{n} is above the maximum {high}")
    return n


def as_number(value: object, where: str, low: float | None = None) -> float:
    if isinstance(value, bool) or not _finite(value):
        fail(where, f"expected a finite number, got {value!r}")
    if low is not None and value < low:
        fail(where, f"{value} is below the minimum {low}")
    return float(value)


def as_cell(value: object, where: str) -> tuple[int, int, int]:
    items = as_list(value, where)
    if len(items) != 3:
        fail(where, f"expected a cell [x, y, z], got {len(items)} numbers")
    x, y, z = (as_int(v, f"{where}[{i}]") for i, v in enumerate(items))
    return x, y, z


def choice(value: object, where: str, options: Iterable[str]) -> str:
    opts = tuple(options)
    text = as_str(value, where)
    if text not in opts:
        fail(where, f"unknown value {text!r} (expected one of: {', '.join(opts)})")
    return text
