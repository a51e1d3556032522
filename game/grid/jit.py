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


def njit_parallel(fn: F) -> F:
    """Like `njit`, with `prange` loops spread over the cores."""
    if _numba is None:
        return fn
    return cast(F, _numba.njit(cache=True, parallel=True)(fn))


#: `numba.prange` where kernels compile, plain `range` otherwise (same meaning, one core).
prange: Callable[..., range] = range if _numba is None else _numba.prange


def thread_count() -> int:
    """How many threads a parallel kernel spreads over (1 without numba)."""
    return 1 if _numba is None else int(_numba.get_num_threads())


def py_func(fn: Callable[..., Any]) -> Callable[..., Any]:
    """The pure-Python source of one kernel (the kernels it calls stay compiled)."""
    return cast(Callable[..., Any], getattr(fn, "py_func", fn))
