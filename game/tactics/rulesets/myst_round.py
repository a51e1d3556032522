"""Myst's round rules in battle (game.tactics.ruleset.RoundRules): a round's defences and a
cancelled -20 end with the round (M-2, 002:l.77), a turn's run-up and a closed defence with the
turn (002:l.189, 137); the `close_defence` command closes the fighter into defence (002:l.81).
Myst has none of the round commands (aim, hasty, delay, stances): its turn budget lists none,
and each answers "not in this ruleset" if asked all the same."""

from __future__ import annotations

from game.rules.myst import round as myst_round
from game.rules.myst.data import Sheet
from game.rules.ruleset_answers import Attack, AttackRoll, RulesRefusal
from game.tactics.ruleset import RoundRules


def _refused(command: str) -> RulesRefusal:
    return RulesRefusal("not_in_ruleset", command=command)


class MystRound:
    """The battle asks this object; it never knows the battle. A value that is no Myst sheet
    (a unit built without one) passes unchanged."""

    def start_round(self, sheet: object) -> object:
        return myst_round.round_begins(sheet) if isinstance(sheet, Sheet) else sheet

    def start_turn(self, sheet: object) -> object:
        return myst_round.turn_begins(sheet) if isinstance(sheet, Sheet) else sheet

    def after_command(self, sheet: object, kind: str) -> object:
        if kind == myst_round.CLOSE_DEFENCE and isinstance(sheet, Sheet):
            return myst_round.closed(sheet)  # 002:l.137: until its next turn begins
        return sheet

    def aim(
        self, sheet: object, target: str, action: str | None, *, kill: bool = False
    ) -> tuple[object, bool]:
        raise _refused("aim")

    def minor_action(self, sheet: object, kind: str, action: str | None) -> tuple[object, bool]:
        raise _refused(kind)

    def suppressed(self, sheet: object, roll: AttackRoll) -> tuple[object, int]:
        return sheet, 0  # Myst has no suppression fire (BattleRules.can_suppress says so)

    def declare_hasty(self, sheet: object) -> tuple[object, int]:
        raise _refused("hasty")

    def toggle(self, sheet: object, what: str) -> tuple[object, str]:
        raise _refused(what)

    def reaction(self, attack: Attack) -> str | None:
        return None  # M-2: an exchange's defence is part of the attack, no reaction of its own

    def reacted(self, sheet: object) -> tuple[object, int]:
        return sheet, 0

    def computer_toggles(self, sheet: object) -> tuple[str, ...]:
        return ()

    def turn_begun(self, sheet: object) -> bool:
        return False

    def standing(self, sheet: object, what: str) -> str | None:
        return None


ROUND = MystRound()
_ROUND_CHECKED: RoundRules = ROUND
