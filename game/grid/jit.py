"""The one door to numba: `njit` compiles where numba is installed and is a no-op elsewhere."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

F = TypeVar("F", bound=Callable[..., Any])

try:
    import numba as _numba
except ImportError:  # the game still runs, slower, where numba cannot be installed
    _numba = None

#: True when kernels are compiled: numba importable and NUMBA_DISABLE_JIT not set.
JIT_ENABLED: bool = _numba is not None and not bool(
    getattr(getattr(_numba, "config", None), "DISABLE_JIT", False)
)


def njit(fn: F) -> F:
    """Compile `fn` in nopython mode with an on-disk cache, or return it unchanged."""
    if _numba is None:
        return fn
    compiled: F = _numba.njit(cache=True)(fn)
    return compiled


def py_func(fn: Callable[..., Any]) -> Callable[..., Any]:
    """The pure-Python source of a kernel: the reference the compiled one is measured against."""
    return getattr(fn, "py_func", fn)
