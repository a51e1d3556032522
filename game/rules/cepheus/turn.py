"""C-4 the turn as data: one minor and one significant action, or three minor; movement in
cells per minor action."""

from __future__ import annotations

from dataclasses import dataclass

from game.rules.cepheus.damage import DEAD, SERIOUSLY_WOUNDED, UNCONSCIOUS
from game.rules.cepheus.data import Tables
from game.rules.cepheus.notes import Step


@dataclass(frozen=True)
class TurnOption:
    """One way to spend a round: so many minor and significant actions."""

    minor: int
    significant: int


@dataclass(frozen=True)
class Allowance:
    """How many cells a combatant may move, and why (`steps`)."""

    cells: int
    steps: tuple[Step, ...]
    rules: tuple[str, ...]


def turn_options(state: str, tables: Tables) -> tuple[TurnOption, ...]:
    """000:l.70, 83, 112 (C-4): one minor + one significant, or three minor. Seriously wounded
    loses the minor action (000:l.386): one significant, or two minor (assumed: the lost one
    comes off the three). Unconscious or dead: nothing."""
    t = tables.turn
    if state in (UNCONSCIOUS, DEAD):
        return ()
    lost = 1 if state == SERIOUSLY_WOUNDED else 0
    return (
        TurnOption(t["minor_actions"] - lost, t["significant_actions"]),
        TurnOption(t["all_minor"] - lost, 0),
    )


def cells_per_action(stance: str, tables: Tables, *, rough: bool = False) -> int:
    """C-4, 000:l.103: 4 cells a movement minor action; crouching and rough terrain each halve
    it (rounding down); prone crawls 1 cell."""
    t = tables.turn
    if stance == "prone":
        cells = t["prone_cells"]
    else:
        cells = t["cells_per_move"]
        if stance == "crouched":
            cells //= t["crouched_divisor"]
    if rough:
        cells //= t["rough_divisor"]
    return cells


def movement_allowance(minor_actions: int, stance: str, state: str, tables: Tables) -> Allowance:
    """Cells for `minor_actions` movement actions on open ground (C-4); rough cells cost the
    path search double, which halves them there. Seriously wounded: 1 cell a round whatever
    the actions (000:l.386); unconscious or dead: none."""
    most = tables.turn["all_minor"]
    if not 0 <= minor_actions <= most:
        raise ValueError(f"minor actions are 0..{most} a round, got {minor_actions}")
    if state in (UNCONSCIOUS, DEAD):
        return Allowance(0, (Step(state, 0, ("C-5",)),), ("C-4", "C-5"))
    if state == SERIOUSLY_WOUNDED:
        cells = tables.turn["seriously_wounded_cells_per_round"]
        return Allowance(cells, (Step(SERIOUSLY_WOUNDED, cells, ("C-4",)),), ("C-4", "C-5"))
    per = cells_per_action(stance, tables)
    steps = (Step("per_action", per, ("C-4",), stance), Step("minor_actions", minor_actions))
    return Allowance(per * minor_actions, steps, ("C-4",))
