"""The GM's check on an improvised action and the shared-cell save asked of each ruleset (issue
15): periferie's d20 checks as before (P-CHK-1, P-MOV-8), the others' own dice against the
difficulty the GM types. Numbers worked by hand from the seeds; dice entered as the GM would."""

from __future__ import annotations

from dataclasses import replace

import pytest

from game.grid.occupants import Size
from game.rules import checknames
from game.rules.d20.sheet import Sheet as D20Sheet
from game.rules.dice import Roller
from game.rules.fantasy.data import Sheet as FantasySheet
from game.rules.fantasy.data import Weapon as FantasyWeapon
from game.rules.ruleset_answers import NOT_OFFERED
from game.tactics.battlefield import EntitySheet
from game.tactics.ruleset import battle_rules
from game.tactics.rulesets.myst import rules as myst_rules
from tests.tactics.rulesets.cepheus_fields import plain_field

#: Any battlefield: the checks read only the unit's sheet.
FIELD = plain_field({"id": "x", "faction": "blue", "at": [0, 0, 0]})


def _unit(sheet: object = None, **fields: object) -> EntitySheet:
    return replace(EntitySheet("u", "blue", (0, 0, 0), sheet=sheet), **fields)  # type: ignore[arg-type]


def test_p_chk_1_periferie_improvised_check_is_d20_plus_the_checks_bonus_against_the_dc() -> None:
    rules = battle_rules("periferie")
    assert rules.improvised_checks() == checknames.ALL
    unit = _unit(checks={checknames.ATHLETICS: 3})
    roller = Roller(1)
    roller.supply(9)  # 9 + 3 = 12 meets DC 12 (P-CHK-1: "meets or beats")
    record = rules.roll_improvised(roller, FIELD, unit, checknames.ATHLETICS, 12, "improvise u")
    assert (record.total, record.target, record.outcome) == (12, 12, "success")
    assert record.purpose == "improvise u" and record.expression == "d20+3"


def test_p_mov_8_periferie_shared_cell_save_is_acrobatics_dc_10_plus_twice_the_size_gap() -> None:
    # "DC 10 + 2 x (the other's size - its own)": a medium unit under a large one, DC 12; the
    # large one under the medium, DC 8. Acrobatics +1: a 10 saves against 12, a 6 fails 8.
    rules = battle_rules("periferie")
    small = _unit(checks={checknames.ACROBATICS: 1})
    big = replace(_unit(), id="big", size=Size.LARGE)
    roller = Roller(1)
    roller.supply(11, 6)
    saved = rules.shared_cell_save(roller, FIELD, small, big, "collision u")
    assert (saved.total, saved.target, saved.outcome) == (12, 12, "success")
    failed = rules.shared_cell_save(roller, FIELD, big, small, "collision big")
    assert (failed.total, failed.target, failed.outcome) == (6, 8, "failure")


def test_the_other_rulesets_never_share_a_cell_so_no_shared_cell_save_is_rolled() -> None:
    # A shared cell comes only from a leap landing on a unit (P-MOV-8); none of them jumps.
    for name in ("cepheus", "d20", "myst", "fantasy"):
        rules = battle_rules(name)
        assert rules.can_jump(FIELD, _unit()) == NOT_OFFERED, name
        with pytest.raises(ValueError):
            rules.shared_cell_save(Roller(1), FIELD, _unit(), _unit(), "collision u")


def test_c1_cepheus_improvised_check_is_2d6_plus_characteristic_dm_against_the_gms_total() -> None:
    rules = battle_rules("cepheus")
    assert rules.improvised_checks() == ("end", "str", "dex")
    field = plain_field(
        {
            "id": "u",
            "faction": "blue",
            "at": [0, 0, 0],
            "sheet": {"chars": {"end": 7, "str": 7, "dex": 10}, "dm": {"dex": 1}},
        }
    )
    unit = field.entity("u")
    roller = Roller(1)
    roller.supply(4, 3, 4, 3)
    # C-1: 2d6 + DM >= 8: 4 + 3 + 1 = 8 succeeds an average task; against 10 (Difficile,
    # -2 moved onto the target) the same 8 fails.
    average = rules.roll_improvised(roller, field, unit, "dex", 8, "improvise u")
    assert (average.total, average.target, average.outcome) == (8, 8, "success")
    hard = rules.roll_improvised(roller, field, unit, "dex", 10, "improvise u")
    assert (hard.total, hard.outcome) == (8, "failure")
    with pytest.raises(ValueError):
        rules.roll_improvised(roller, field, unit, checknames.ATHLETICS, 8, "improvise u")


def test_d2_d20_improvised_check_is_d20_plus_the_dex_modifier_or_nothing_against_the_dc() -> None:
    rules = battle_rules("d20")
    assert rules.improvised_checks() == ("dex", "plain")
    unit = _unit(D20Sheet(dex=2))
    roller = Roller(1)
    roller.supply(13, 13)
    dex = rules.roll_improvised(roller, FIELD, unit, "dex", 15, "improvise u")
    assert (dex.total, dex.target, dex.outcome) == (15, 15, "success")  # 13 + 2 meets 15
    plain = rules.roll_improvised(roller, FIELD, unit, "plain", 15, "improvise u")
    assert (plain.total, plain.outcome) == (13, "failure")


def test_m1_myst_improvised_check_is_3d10_plus_the_total_reaching_the_difficulty() -> None:
    rules = battle_rules("myst")
    assert rules.improvised_checks() == ("attack", "defence", "brawl")
    name, sheet = sorted(myst_rules().samples.items())[0]
    unit = _unit(sheet)
    roller = Roller(1)
    roller.supply(5, 5, 5, 5, 5, 4)
    # "Se il tiro raggiunge la difficoltà" (002:l.256): 15 + attack meets attack + 15.
    met = rules.roll_improvised(roller, FIELD, unit, "attack", sheet.attack + 15, "improvise u")
    assert (met.total, met.outcome) == (sheet.attack + 15, "success"), name
    short = rules.roll_improvised(roller, FIELD, unit, "defence", sheet.defence + 15, "x")
    assert (short.total, short.outcome) == (sheet.defence + 14, "failure")


def test_003_fantasy_improvised_check_is_the_characteristic_die_exploding_and_exceeding() -> None:
    rules = battle_rules("fantasy")
    assert rules.improvised_checks() == ("agi", "des", "pot", "pre")
    sheet = FantasySheet(agi="d6", des="d8", pot="d4", pre="d6", weapon=FantasyWeapon("Pugno"))
    unit = _unit(sheet)
    roller = Roller(1)
    # DES d8: 8 explodes (F-1), then 3: 11 exceeds 10 ("supera la difficoltà", 003:l.94).
    roller.supply(8, 3, 4)
    up = rules.roll_improvised(roller, FIELD, unit, "des", 10, "improvise u")
    assert (up.dice, up.total, up.outcome) == ((8, 3), 11, "success")
    # PRE d6 showing 4 against 4: a tie does not exceed, a failure.
    tie = rules.roll_improvised(roller, FIELD, unit, "pre", 4, "improvise u")
    assert (tie.total, tie.outcome) == (4, "failure")
