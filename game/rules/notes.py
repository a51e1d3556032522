"""Structured explanations: a code and the values that went in; game/text/explain.py words it."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import TypeAlias

#: A number, a name or a cell that went into a decision.
Value: TypeAlias = int | float | str | tuple[int, ...]


@dataclass(frozen=True)
class Note:
    """One reason or step of an explanation, in no language.

    `code` is a member of the StrEnum of the module that made it; `values` are the numbers and
    names that went in; `parts` are finer notes that belong to this one (the modifiers of a
    speed, the extra costs of a corner cell).
    """

    code: StrEnum
    values: Mapping[str, Value] = field(default_factory=dict)
    parts: tuple[Note, ...] = ()
