"""Test-wide settings: Hypothesis profiles and headless SDL for any test that touches pygame."""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

# Kernels compile on first call; that must not count against a test's deadline.
settings.register_profile("default", deadline=None, suppress_health_check=[HealthCheck.too_slow])
# The pure-Python reference run repeats the grid tests with fewer examples to keep CI quick.
settings.register_profile(
    "nojit", deadline=None, max_examples=25, suppress_health_check=[HealthCheck.too_slow]
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))
