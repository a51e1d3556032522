"""The steps of a Cepheus answer: a code, its value and the rulings behind it."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Step:
    """One modifier or step of a result (`code` is the query's key, e.g. "aim"); `detail`
    names what it came from (a band, a characteristic, a cover grade) where that helps."""

    code: str
    value: int
    rules: tuple[str, ...] = ()
    detail: str = ""
