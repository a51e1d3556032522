"""Checks: d20 + the sheet's bonus against a DC (P-CHK-1), and passive perception (P-CHK-3)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from game.rules import checknames
from game.rules.dice import Advantage, Roller, RollRecord


@dataclass(frozen=True)
class CheckResult:
    name: str
    natural: int
    bonus: int
    total: int
    dc: int
    success: bool
    record: RollRecord


def check(
    roller: Roller,
    sheet: Mapping[str, int],
    name: str,
    dc: int,
    advantage: Advantage = Advantage.NONE,
    purpose: str = "",
) -> CheckResult:
    """A "prova di `name`": d20 + bonus, meeting or beating `dc` succeeds (P-CHK-1)."""
    bonus = checknames.bonus(sheet, name)
    record = roller.d20(purpose or name, bonus=bonus, advantage=advantage, dc=dc)
    return CheckResult(
        name=name,
        natural=record.kept[0],
        bonus=bonus,
        total=record.total,
        dc=dc,
        success=record.outcome == "success",
        record=record,
    )


def passive_perception(sheet: Mapping[str, int]) -> int:
    """10 + the `multitasking (percezione)` bonus (P-CHK-3)."""
    return 10 + checknames.bonus(sheet, checknames.PERCEPTION)
