"""The shipped Cepheus tables for the rules tests."""

from __future__ import annotations

import pytest

from game.rules.cepheus.data import Tables, default_data


@pytest.fixture(scope="session")
def tables() -> Tables:
    return default_data().tables
