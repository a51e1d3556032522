"""Myst's battle state within a turn and a round, as pure functions of the sheet: the charge's
run-up (002:l.187-193), the second defence's -20 of M-2's base, the defence margin's "cancel the
-20" (002:l.77), a closed defence (002:l.81-83, 137) and a counterattack's exchange counted as
the countered fighter's defence (002:l.91, 99, 109). docs/rules.md, "Myst in battle", gives the
choices."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from game.rules.myst import combat
from game.rules.myst.data import MystRules, Sheet

#: G-4: metres = cells x 1.5 (game/grid/model.py's CELL_METRES; rules do not import the grid).
CELL_METRES = 1.5


def run_up_cells(rules: MystRules, cell_metres: float = CELL_METRES) -> int:
    """The fewest cells walked that make the seed's run-up "di almeno 5 metri" (002:l.189):
    4 on the 1.5 m grid (3 cells are 4.5 m, 4 are 6 m; G-4)."""
    cells = 0
    while not combat.charge_run_up_ok(rules, cells, cell_metres):
        cells += 1
    return cells


def walked(sheet: Sheet) -> Sheet:
    """One more cell walked this turn (a step of a move, diagonals included: G-4)."""
    return replace(sheet, run_up=sheet.run_up + 1)


def turn_begins(sheet: Sheet) -> Sheet:
    """Its own turn begins: no cell walked yet, and a closed defence of its last turn is over
    (it has its action again); the same sheet when there was neither."""
    if sheet.run_up == 0 and not sheet.closed_defence:
        return sheet
    return replace(sheet, run_up=0, closed_defence=False)


#: The battle's command that closes a fighter into defence (its action given up, 002:l.137).
CLOSE_DEFENCE = "close_defence"


def closed(sheet: Sheet) -> Sheet:
    """It closes into defence (002:l.137 "chiudersi in difesa rinunciando alla propria
    azione"): until its next turn begins, each defence has the base's bonus and its margin
    buys only breaking off, for 0 (002:l.81-83)."""
    return sheet if sheet.closed_defence else replace(sheet, closed_defence=True)


def round_begins(sheet: Sheet) -> Sheet:
    """A round begins: no defence made in it, no -20 cancelled for it (002:l.77: "all'interno
    dello stesso Round")."""
    if sheet.defences == 0 and not sheet.cancel_penalty:
        return sheet
    return replace(sheet, defences=0, cancel_penalty=False)


def charging(rules: MystRules, attacker: Sheet) -> bool:
    """A charge on foot (002:l.187-193): a melee attack, not mounted (a mounted charge is the
    gallop, 002:l.140-145), after a run-up of at least 5 m walked this turn."""
    return (
        attacker.weapon.melee
        and not attacker.mounted
        and combat.charge_run_up_ok(rules, attacker.run_up, CELL_METRES)
    )


def second_defence(target: Sheet) -> bool:
    """M-2's base: a second or later defence in the round takes -20, unless a defence margin
    cancelled it for this one (002:l.77)."""
    return target.defences >= 1 and not target.cancel_penalty


def penalty_cancelled(target: Sheet) -> bool:
    """This defence would be a second one, and its -20 was cancelled (002:l.77)."""
    return target.defences >= 1 and target.cancel_penalty


def situation(rules: MystRules, attacker: Sheet, target: Sheet) -> combat.Situation:
    """The battle's circumstances of one exchange, from the two sheets."""
    return combat.Situation(
        charge=charging(rules, attacker),
        two_handed=attacker.two_handed,
        second_defence=second_defence(target),
        closed_defence=target.closed_defence,
    )


def defended(target: Sheet) -> Sheet:
    """The target after one defence: one more this round; a cancelled -20 is used by the next
    defence, the one after it (002:l.77 "la prossima Manovra di Difesa")."""
    return replace(target, defences=target.defences + 1, cancel_penalty=False)


def after_counter_moves(target: Sheet, taken: Sequence[str]) -> Sheet | None:
    """The defender's sheet after its won defence's counter-moves, None when they change
    nothing of it: "cancel_penalty" cancels the -20 of its next defence this round."""
    if "cancel_penalty" in taken and not target.cancel_penalty:
        return replace(target, cancel_penalty=True)
    return None


def countered(attacker: Sheet) -> Sheet:
    """The attacker after its target's counterattack: "che può rispondere con un tiro di Corpo
    a Corpo a sua volta" (002:l.91, 99, 109) is its own Defence Manoeuvre, one more defence
    this round (M-2), a cancelled -20 used by it (`defended`)."""
    return defended(attacker)


def counter_logged(attacker: Sheet) -> dict[str, object]:
    """The counterattack's event fields for the attacker's answer as a defence: written only
    when it is a second one (`counter_situation`: "second_defence", or "penalty_cancelled"
    when a defence margin spared it), so a first answer logs as before."""
    if second_defence(attacker):
        return {"counter_situation": ["second_defence"]}
    if penalty_cancelled(attacker):
        return {"counter_situation": ["penalty_cancelled"]}
    return {}
