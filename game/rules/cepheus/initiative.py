"""C-1 initiative: 2d6 + DEX DM (ambush 12 + DM), hasty +2, reactions -2; ties by DEX, then
simultaneous."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from game.rules.cepheus.data import Tables
from game.rules.cepheus.notes import Step
from game.rules.cepheus.sheet import MissingCharacteristic


@dataclass(frozen=True)
class Contender:
    """One combatant's initiative inputs: `roll` is the 2d6 result (None for the aware side of
    an ambush, which scores 12 without rolling), `dex` its current DEX for ties (None: not
    given, needed only if it ties)."""

    id: str
    roll: int | None
    dex_dm: int = 0
    dex: int | None = None
    aware: bool = False
    hasty: bool = False
    reactions: int = 0
    #: Tactics or Command Effect added to its initiative (000:l.66, 347-349).
    bonus: int = 0


@dataclass(frozen=True)
class Order:
    order: tuple[str, ...]
    scores: dict[str, int]
    simultaneous: tuple[tuple[str, ...], ...]
    steps: dict[str, tuple[Step, ...]]
    rules: tuple[str, ...]


def score(c: Contender, tables: Tables) -> tuple[int, tuple[Step, ...]]:
    """000:l.64, 79, 160 (C-1): 2d6 (or 12 when aware in an ambush) + DEX DM, +2 hasty, -2 per
    reaction, + a Tactics or Command Effect."""
    ini = tables.initiative
    if c.aware:
        steps = [Step("ambush", ini["ambush_roll"], ("C-1",))]
    elif c.roll is None:
        raise ValueError(f"{c.id}: an initiative roll (2d6) is needed unless aware")
    elif not ini["dice"] <= c.roll <= 6 * ini["dice"]:
        raise ValueError(f"{c.id}: a 2d6 roll is 2..12, got {c.roll}")
    else:
        steps = [Step("roll", c.roll, ("C-1",))]
    steps.append(Step("dex_dm", c.dex_dm, ("C-1",)))
    if c.hasty:
        steps.append(Step("hasty", ini["hasty"], ("C-1",)))
    if c.reactions:
        steps.append(Step("reactions", c.reactions * ini["per_reaction"], ("C-1", "C-4")))
    if c.bonus:
        steps.append(Step("bonus", c.bonus))
    return sum(s.value for s in steps), tuple(steps)


def order(contenders: Sequence[Contender], tables: Tables) -> Order:
    """Highest score first; a tie goes to the higher DEX, then the tied act simultaneously
    (000:l.70, C-1), listed in the order given."""
    scored = [(c, *score(c, tables)) for c in contenders]
    by_score: dict[int, list[Contender]] = {}
    for c, s, _ in scored:
        by_score.setdefault(s, []).append(c)
    ordered: list[str] = []
    groups: list[tuple[str, ...]] = []
    for s in sorted(by_score, reverse=True):
        tied = by_score[s]
        if len(tied) > 1:
            for c in tied:
                if c.dex is None:
                    raise MissingCharacteristic(
                        f"{c.id}: sheet.chars.dex is missing (needed: it ties at {s})"
                    )
        by_dex: dict[int, list[str]] = {}
        for c in tied:
            by_dex.setdefault(c.dex or 0, []).append(c.id)
        for dex in sorted(by_dex, reverse=True):
            ordered.extend(by_dex[dex])
            if len(by_dex[dex]) > 1:
                groups.append(tuple(by_dex[dex]))
    return Order(
        tuple(ordered),
        {c.id: s for c, s, _ in scored},
        tuple(groups),
        {c.id: steps for c, _, steps in scored},
        ("C-1",),
    )
