"""The one door to numba: `njit` compiles where numba is installed and is a no-op elsewhere."""

from __future__ import annotations

import importlib
from collections.abc import Callable
from types import ModuleType
from typing import TYPE_CHECKING, Any, TypeVar, cast

F = TypeVar("F", bound=Callable[..., Any])

if TYPE_CHECKING:  # both are looked up on first use (`__getattr__` below): numba loads late
    #: True when kernels are compiled: numba importable and NUMBA_DISABLE_JIT not set.
    JIT_ENABLED: bool
    #: `numba.prange` where kernels compile, plain `range` otherwise (same meaning, one core).
    prange: Callable[..., range]


def _load_numba() -> ModuleType | None:
    try:
        return importlib.import_module("numba")
    except ImportError:  # the game still runs, slower, where numba cannot be installed
        return None


# numba is imported when the first kernel is defined, not with this module, so that a short run
# may choose plain Python kernels first (`use_python_kernels`) and never pay numba's start-up.
_numba: ModuleType | None = None
_numba_chosen = False
_python_kernels = False


def _numba_module() -> ModuleType | None:
    global _numba, _numba_chosen
    if not _numba_chosen:
        _numba_chosen = True
        _numba = None if _python_kernels else _load_numba()
    return _numba


def use_python_kernels() -> bool:
    """Make every kernel plain Python, as NUMBA_DISABLE_JIT=1 does (the reference: the same
    answers), without importing numba: for a short run with a few kernel calls (`tessera
    query`), where numba's start-up (its import, its compiler's tables, loading each cached
    kernel: about half a second) costs far more than compiled kernels save. It takes effect only
    before the first kernel is defined; True when it did."""
    global _python_kernels
    if _numba_chosen:
        return _numba is None
    _python_kernels = True
    return True


def __getattr__(name: str) -> Any:
    if name == "JIT_ENABLED":
        numba = _numba_module()
        return numba is not None and not bool(
            getattr(getattr(numba, "config", None), "DISABLE_JIT", False)
        )
    if name == "prange":
        numba = _numba_module()
        return range if numba is None else numba.prange
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def njit(fn: F) -> F:
    """Compile `fn` in nopython mode with an on-disk cache, or return it unchanged."""
    numba = _numba_module()
    if numba is None:
        return fn
    return cast(F, numba.njit(cache=True)(fn))


def njit_inline(fn: F) -> F:
    """Like `njit`, its body inlined where a kernel calls it: for a helper called once per line
    with arrays, whose call would count each array up and down (atomic instructions) each time."""
    numba = _numba_module()
    if numba is None:
        return fn
    return cast(F, numba.njit(cache=True, inline="always")(fn))


def njit_nogil(fn: F) -> F:
    """Like `njit`, letting other threads run Python while it runs: for kernels that take
    milliseconds (a unit's view), so that the window's frames go on while a worker thread runs
    them (game/ui/battle/worker.py). Not for short kernels: letting go of the GIL and taking it
    back costs a call as much as a short walk."""
    numba = _numba_module()
    if numba is None:
        return fn
    return cast(F, numba.njit(cache=True, nogil=True)(fn))


def njit_parallel(fn: F) -> F:
    """Like `njit_nogil`, with `prange` loops spread over the cores."""
    numba = _numba_module()
    if numba is None:
        return fn
    return cast(F, numba.njit(cache=True, parallel=True, nogil=True)(fn))


def thread_count() -> int:
    """How many threads a parallel kernel spreads over (1 without numba)."""
    numba = _numba_module()
    return 1 if numba is None else int(numba.get_num_threads())


def py_func(fn: Callable[..., Any]) -> Callable[..., Any]:
    """The pure-Python source of one kernel (the kernels it calls stay compiled)."""
    return cast(Callable[..., Any], getattr(fn, "py_func", fn))
