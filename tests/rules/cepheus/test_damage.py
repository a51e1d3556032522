"""C-5 damage and wound states (000:l.355-372), worked by hand."""

from __future__ import annotations

import pytest

from game.rules.cepheus.damage import apply_damage, damage_amount, hit_sheet, wound_state
from game.rules.cepheus.data import Tables
from game.rules.cepheus.sheet import MissingCharacteristic, Sheet

FULL = {"end": 7, "str": 8, "dex": 6}


def test_damage_is_dice_plus_effect_minus_armour(tables: Tables) -> None:
    # 000:l.357 "Sommate l'Effetto del tiro di attacco a questo danno"; l.372 armour reduces it:
    # 7 + 1 - 3 = 5. With a 2D6 burst rolled as 6 extra: 7 + 1 + 6 - 3 = 11.
    assert damage_amount(7, 1, 0, 3, tables)[0] == 5
    assert damage_amount(7, 1, 6, 3, tables)[0] == 11


def test_an_effect_of_6_always_does_at_least_1(tables: Tables) -> None:
    # 000:l.372: "Un colpo con Effetto 6+ infligge sempre almeno un punto di danno": 3 + 6 - 20
    # = -11 -> 1; with Effect 5, 3 + 5 - 20 < 0 -> 0.
    assert damage_amount(3, 6, 0, 20, tables)[0] == 1
    assert damage_amount(3, 5, 0, 20, tables)[0] == 0


def test_the_first_hit_goes_to_end_then_all_to_the_higher_of_str_and_dex() -> None:
    # 000:l.357 + C-5 (the computer takes the higher): 10 points on END 7 STR 8 DEX 6 ->
    # END 0 (7), STR 8 - 3 = 5. END and STR damaged: wounded (l.365).
    result = apply_damage(FULL, FULL, 10)
    assert result.applied == (("end", 7), ("str", 3))
    assert dict(result.chars) == {"end": 0, "str": 5, "dex": 6}
    assert result.state == "wounded"


def test_the_target_may_send_the_rest_to_dex() -> None:
    # "a scelta del bersaglio": 10 points, `to` DEX -> END 0, DEX 6 - 3 = 3.
    result = apply_damage(FULL, FULL, 10, "dex")
    assert dict(result.chars) == {"end": 0, "str": 8, "dex": 3}


def test_str_to_zero_sends_the_rest_to_the_last_and_two_at_zero_is_unconscious() -> None:
    # l.357 "qualsiasi ulteriore danno viene sottratto dalla caratteristica fisica restante":
    # 20 points -> END 7, STR 8, DEX 5 (6 -> 1). Two at zero: unconscious (l.367).
    result = apply_damage(FULL, FULL, 20, "str")
    assert dict(result.chars) == {"end": 0, "str": 0, "dex": 1}
    assert result.state == "unconscious"


def test_three_at_zero_is_dead() -> None:
    # l.368: 7 + 8 + 6 = 21 points take all three to 0.
    assert apply_damage(FULL, FULL, 21).state == "dead"
    assert apply_damage(FULL, FULL, 50).state == "dead"


def test_all_three_damaged_is_seriously_wounded() -> None:
    # l.366, l.384: END 0, STR 5, DEX 6; a later hit of 2 sent to DEX ("come sceglie il
    # personaggio", l.359) -> DEX 4: all three below their maximum, one at zero.
    hurt = {"end": 0, "str": 5, "dex": 6}
    result = apply_damage(hurt, FULL, 2, "dex")
    assert dict(result.chars) == {"end": 0, "str": 5, "dex": 4}
    assert result.state == "seriously_wounded"


def test_a_later_hit_defaults_to_end_while_it_has_points() -> None:
    # C-5 "later hits to any"; the default: END 2 of 7 takes 2, then the higher (STR 8) 2.
    hurt = {"end": 2, "str": 8, "dex": 6}
    result = apply_damage(hurt, FULL, 4)
    assert dict(result.chars) == {"end": 0, "str": 6, "dex": 6}


def test_the_first_hit_cannot_be_sent_to_str_before_end() -> None:
    with pytest.raises(ValueError, match="first hit goes to END"):
        apply_damage(FULL, FULL, 3, "end")


def test_wound_states() -> None:
    assert wound_state(FULL, FULL) == "uninjured"
    assert wound_state({"end": 6, "str": 8, "dex": 6}, FULL) == "wounded"


def test_a_hit_on_a_sheet_returns_the_sheet_after(tables: Tables) -> None:
    # C-5 as the battle will call it: 9 + Effect 2 - armour 4 = 7 on END 7 -> END 0, nothing
    # left over; the maximum stays 7, so the target is wounded.
    sheet = Sheet(chars=FULL, armour=4)
    after, result = hit_sheet(sheet, 9, 2, tables)
    assert dict(after.chars) == {"end": 0, "str": 8, "dex": 6}
    assert after.max_of("end") == 7 and after.armour == 4
    assert result.state == "wounded"
    with pytest.raises(MissingCharacteristic, match=r"sheet\.chars\.end"):
        hit_sheet(Sheet(chars={"str": 7}), 9, 2, tables)
