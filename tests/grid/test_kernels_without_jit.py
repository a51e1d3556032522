"""The grid tests again with NUMBA_DISABLE_JIT=1: the pure-Python reference must agree."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.skipif(
    os.environ.get("NUMBA_DISABLE_JIT") == "1", reason="already running without the JIT"
)
def test_every_grid_test_passes_with_the_jit_disabled() -> None:
    env = dict(os.environ, NUMBA_DISABLE_JIT="1", HYPOTHESIS_PROFILE="nojit")
    result = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-x", "-p", "no:cacheprovider", "tests/grid"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
    )
    tail = "\n".join(result.stdout.splitlines()[-15:])
    assert result.returncode == 0, (
        f"grid tests failed without the JIT:\n{tail}\n{result.stderr[-2000:]}"
    )
