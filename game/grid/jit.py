"""The one door to numba: `njit` compiles where numba is installed and is a no-op elsewhere."""

from __future__ import annotations

import importlib
from collections.abc import Callable
from types import ModuleType
from typing import Any, TypeVar, cast

F = TypeVar("F", bound=Callable[..., Any])


def _load_numba() -> ModuleType | None:
    try:
        return importlib.import_module("numba")
    except ImportError:  # the game still runs, slower, where numba cannot be installed
        return None


_numba = _load_numba()

#: True when kernels are compiled: numba importable and NUMBA_DISABLE_JIT not set.
JIT_ENABLED: bool = _numba is not None and not bool(
    getattr(getattr(_numba, "config", None), "DISABLE_JIT", False)
)


def njit(fn: F) -> F:
    """Compile `fn` in nopython mode with an on-disk cache, or return it unchanged."""
    if _numba is None:
        return fn
    return cast(F, _numba.njit(cache=True)(fn))


def py_func(fn: Callable[..., Any]) -> Callable[..., Any]:
    """The pure-Python source of one kernel (the kernels it calls stay compiled)."""
    return cast(Callable[..., Any], getattr(fn, "py_func", fn))
