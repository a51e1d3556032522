"""Rules tests read the English text of game/explain.py, whatever language the machine speaks."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from game.i18n import speaking


@pytest.fixture(autouse=True)
def english() -> Iterator[None]:
    with speaking("en"):
        yield
