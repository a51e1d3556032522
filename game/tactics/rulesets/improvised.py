"""The GM's check on an improvised action under the rulesets other than periferie (issue 15):
each its own dice against the difficulty the GM types (docs/rules.md, "Improvised actions and
shared cells under each ruleset"). A mixin per ruleset, before `BattleRules` in its battle
object's bases, answers `improvised_checks` and `roll_improvised`."""

from __future__ import annotations

from dataclasses import replace
from typing import Final

from game.rules.cepheus.sheet import Sheet as CepheusSheet
from game.rules.d20.sheet import Sheet as D20Sheet
from game.rules.dice import Advantage, Roller, RollRecord
from game.rules.fantasy.data import Sheet as FantasySheet
from game.rules.fantasy.dice import FACES
from game.rules.myst.data import Sheet as MystSheet
from game.tactics.battlefield import Battlefield, EntitySheet

#: Cepheus (C-1): the physical characteristics its sheets carry, each a DM.
CEPHEUS_CHECKS: Final = ("end", "str", "dex")
#: d20 (D-2): the Dex modifier (the only ability modifier its sheets carry) or none at all.
D20_CHECKS: Final = ("dex", "plain")
#: Myst (M-2): the totals its sheets carry.
MYST_CHECKS: Final = ("attack", "defence", "brawl")
#: Fantasy (003:l.79): the characteristic dice.
FANTASY_CHECKS: Final = ("agi", "des", "pot", "pre")


def _judged(record: RollRecord, dc: int, success: bool) -> RollRecord:
    return replace(record, target=dc, target_kind="dc", outcome="success" if success else "failure")


def _unknown(check: str) -> ValueError:
    return ValueError(f"no improvised check {check!r} under this ruleset")


class CepheusImprovised:
    """C-1: 2d6 + the DM of the characteristic the GM picks, meeting the total the GM types:
    8 for an average task, 10, 12, 14 for Difficile, Molto Difficile, Formidabile (C-2's
    −2, −4, −6 moved onto the target)."""

    def improvised_checks(self) -> tuple[str, ...]:
        return CEPHEUS_CHECKS

    def roll_improvised(
        self, roller: Roller, bf: Battlefield, unit: EntitySheet, check: str, dc: int, purpose: str
    ) -> RollRecord:
        if check not in CEPHEUS_CHECKS:
            raise _unknown(check)
        sheet = unit.sheet if isinstance(unit.sheet, CepheusSheet) else CepheusSheet()
        record = roller.roll(f"2d6{sheet.char_dm(check):+d}", purpose)
        return _judged(record, dc, record.total >= dc)


class D20Improvised:
    """D-2's base: d20 + the Dex modifier (or nothing) meets or beats the DC the GM sets."""

    def improvised_checks(self) -> tuple[str, ...]:
        return D20_CHECKS

    def roll_improvised(
        self, roller: Roller, bf: Battlefield, unit: EntitySheet, check: str, dc: int, purpose: str
    ) -> RollRecord:
        if check not in D20_CHECKS:
            raise _unknown(check)
        sheet = unit.sheet if isinstance(unit.sheet, D20Sheet) else D20Sheet()
        return roller.d20(purpose, sheet.dex if check == "dex" else 0, dc=dc)


class MystImprovised:
    """M-1: 3d10 + the total the GM picks reaches the difficulty the GM sets ("Se il tiro
    raggiunge la difficoltà", 002:l.256)."""

    def improvised_checks(self) -> tuple[str, ...]:
        return MYST_CHECKS

    def roll_improvised(
        self, roller: Roller, bf: Battlefield, unit: EntitySheet, check: str, dc: int, purpose: str
    ) -> RollRecord:
        if check not in MYST_CHECKS or not isinstance(unit.sheet, MystSheet):
            raise _unknown(check)
        sheet = unit.sheet
        total = {"attack": sheet.attack, "defence": sheet.defence, "brawl": sheet.brawl_total}
        record = roller.roll(f"3d10{total[check]:+d}", purpose)
        return _judged(record, dc, record.total >= dc)


class FantasyImprovised:
    """003:l.79: the characteristic's die alone (no skill fits an improvised action), rerolled
    and added on its maximum (F-1); it succeeds when it exceeds the difficulty ("supera la
    difficoltà", l.91-97)."""

    def improvised_checks(self) -> tuple[str, ...]:
        return FANTASY_CHECKS

    def roll_improvised(
        self, roller: Roller, bf: Battlefield, unit: EntitySheet, check: str, dc: int, purpose: str
    ) -> RollRecord:
        if check not in FANTASY_CHECKS or not isinstance(unit.sheet, FantasySheet):
            raise _unknown(check)
        die = str(getattr(unit.sheet, check))
        size = FACES[die]
        faces = [roller.roll(f"1d{size}", purpose).total] if size else []
        while faces and faces[-1] == size:
            faces.append(roller.roll(f"1d{size}", purpose).total)
        total = sum(faces)
        record = RollRecord(
            purpose=purpose,
            expression=f"{die}!" if size else "0",
            dice=tuple(faces),
            kept=tuple(faces),
            dropped=(),
            modifier=0,
            total=total,
            target=None,
            target_kind=None,
            outcome=None,
            source="random",
            advantage=Advantage.NONE,
        )
        return _judged(record, dc, total > dc)
