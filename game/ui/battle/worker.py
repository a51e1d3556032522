"""The battle's heavy work off the frame's thread: a command (with the fog and sightings after
it) or the computer's turn runs on a worker thread; its result is handed back to the frame's
thread, which keeps drawing and animating meanwhile and never reads the battle while it runs."""

from __future__ import annotations

import sys
import threading
from collections.abc import Callable
from typing import Generic, TypeVar

T = TypeVar("T")

#: Seconds a thread holding the GIL runs before one waiting for it may take it (Python's default
#: is 5 ms). While a job runs, the frame's thread waits at most this long for the GIL each time
#: it let it go (a blit, the display's flip): the job's Python parts then yield to the frame.
SWITCH_INTERVAL = 0.0005


class _Job(Generic[T]):
    """One piece of work, its continuation on the frame's thread, and what came of it."""

    def __init__(self, work: Callable[[], T], then: Callable[[T], None]) -> None:
        self.work = work
        self.then = then
        self.result: T | None = None
        self.error: BaseException | None = None
        self.finished = threading.Event()

    def run(self) -> None:
        try:
            self.result = self.work()
        except BaseException as exc:  # handed to the frame's thread, raised there
            self.error = exc
        finally:
            self.finished.set()

    def deliver(self) -> None:
        if self.error is not None:
            raise self.error
        self.then(self.result)  # type: ignore[arg-type]


class Worker:
    """Runs one job at a time. Threaded, `run` returns at once and `poll` (every frame) hands
    the result over when it is ready; not threaded (tests, a plain replay), `run` does the
    job and its continuation at once, as the frame's thread did before."""

    def __init__(self, *, threaded: bool = True) -> None:
        self.threaded = threaded
        self._job: _Job[object] | None = None
        self._thread: threading.Thread | None = None
        self._interval = sys.getswitchinterval()

    @property
    def busy(self) -> bool:
        """A job is running or its result is waiting for `poll`: the battle is the job's."""
        return self._job is not None

    def run(self, work: Callable[[], T], then: Callable[[T], None]) -> None:
        """Do `work` (on the worker's thread), then `then(result)` on the frame's thread. A job
        still running is waited for first: one job at a time, in the order given."""
        if self._job is not None:
            self.wait()
        job: _Job[T] = _Job(work, then)
        if not self.threaded:
            job.run()
            job.deliver()
            return
        self._job = job  # type: ignore[assignment]
        self._interval = sys.getswitchinterval()
        sys.setswitchinterval(min(self._interval, SWITCH_INTERVAL))
        self._thread = threading.Thread(target=job.run, name="battle-worker", daemon=True)
        self._thread.start()

    def poll(self) -> bool:
        """On the frame's thread: hand a finished job's result to its continuation (an error
        the job raised is raised here). True when one was handed over."""
        job = self._job
        if job is None or not job.finished.is_set():
            return False
        self._job = None
        if self._thread is not None:
            self._thread.join()
            self._thread = None
        sys.setswitchinterval(self._interval)
        job.deliver()
        return True

    def wait(self, timeout: float | None = None) -> bool:
        """Wait for the running job (tests, the bench, closing the battle) and hand it over;
        False when `timeout` seconds passed first."""
        job = self._job
        if job is None:
            return True
        if not job.finished.wait(timeout):
            return False
        self.poll()
        return True
