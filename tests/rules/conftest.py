"""Rules tests read game/text/explain.py's English text, whatever language the machine speaks."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from game.text.i18n import speaking


@pytest.fixture(autouse=True)
def english() -> Iterator[None]:
    with speaking("en"):
        yield
