"""C-1 checks and C-2 bands and difficulties, worked by hand from seed 000."""

from __future__ import annotations

from fractions import Fraction

import pytest

from game.rules.cepheus.checks import (
    band_for,
    check_chance,
    difficulty_dm,
    difficulty_for,
    resolve_check,
)
from game.rules.cepheus.data import Tables

# 2d6 sums: 2:1 3:2 4:3 5:4 6:5 7:6 8:5 9:4 10:3 11:2 12:1 ways out of 36.


def test_c_1_no_dm_needs_an_8_on_2d6_fifteen_ways_in_36(tables: Tables) -> None:
    # "Attacco con armi da Tiro = 2D6 + Armi da Fuoco + MD di Destrezza" (000:l.132), 8+ (C-1):
    # sums 8..12 = 5 + 4 + 3 + 2 + 1 = 15 ways -> 15/36 = 5/12.
    assert check_chance(0, tables) == Fraction(5, 12)


def test_c_1_dm_plus_2_needs_a_6_twenty_six_ways_in_36(tables: Tables) -> None:
    # 2d6 >= 6: 5 + 6 + 5 + 4 + 3 + 2 + 1 = 26 -> 26/36 = 13/18.
    assert check_chance(2, tables) == Fraction(13, 18)


def test_c_1_no_automatic_success_or_failure_on_2_or_12(tables: Tables) -> None:
    # C-1: "No automatic success or failure on 2 or 12": DM -5 needs 13 (never), DM +6 needs
    # 2 (always).
    assert check_chance(-5, tables) == 0
    assert check_chance(6, tables) == 1
    assert resolve_check((1, 1), 6, tables).success  # 2 + 6 = 8, Effect 0


def test_c_1_effect_is_the_total_minus_8(tables: Tables) -> None:
    # C-1: Effect = total - 8. Dice 3 + 4 with DM +2 = 9 -> Effect 1; 2 + 2 - 1 = 3 -> -5.
    hit = resolve_check((3, 4), 2, tables)
    assert (hit.total, hit.effect, hit.success) == (9, 1, True)
    miss = resolve_check((2, 2), -1, tables)
    assert (miss.total, miss.effect, miss.success) == (3, -5, False)


def test_a_check_refuses_dice_that_are_not_two_d6(tables: Tables) -> None:
    with pytest.raises(ValueError, match="2 six-sided dice"):
        resolve_check((7, 1), 0, tables)


# C-2: Personale = the 26 adjacent cells; then metres = cells x 1.5 against 3, 12, 50, 250, 500,
# each inclusive. 2 cells = 3.0 m; 8 = 12.0; 33 = 49.5 and 34 = 51.0; 166 = 249.0 and
# 167 = 250.5; 333 = 499.5 and 334 = 501.0.
@pytest.mark.parametrize(
    ("cells", "band"),
    [
        (0, "personale"),
        (1, "personale"),
        (2, "ravvicinata"),
        (3, "breve"),
        (8, "breve"),
        (9, "media"),
        (33, "media"),
        (34, "lunga"),
        (166, "lunga"),
        (167, "molto_lunga"),
        (333, "molto_lunga"),
        (334, "distante"),
        (2000, "distante"),
    ],
)
def test_c_2_range_bands_from_cells(tables: Tables, cells: int, band: str) -> None:
    assert band_for(cells, tables) == band


@pytest.mark.parametrize(
    ("weapon", "band", "difficulty", "dm"),
    [
        # 000:l.52 "| Pistola | Difficile | Media | Media | Difficile | Molto Difficile | -- | --"
        ("pistola", "media", "difficile", -2),
        ("pistola", "breve", "media", 0),
        # 000:l.53 "| Fucile | Molto Difficile | ..."
        ("fucile", "personale", "molto_difficile", -4),
        # 000:l.55 "| Arma d'Assalto | ... | Formidabile |"; C-2: Formidabile -6
        ("arma_d_assalto", "distante", "formidabile", -6),
        # 000:l.49 "| Corpo a Corpo | Media | Difficile | -- ..."
        ("corpo_a_corpo", "ravvicinata", "difficile", -2),
        # 000:l.50 "| Portata Estesa | Difficile | Media | -- ..."
        ("portata_estesa", "ravvicinata", "media", 0),
    ],
)
def test_c_2_difficulty_by_weapon_type_and_band(
    tables: Tables, weapon: str, band: str, difficulty: str, dm: int
) -> None:
    assert difficulty_for(weapon, band, tables) == difficulty
    assert difficulty_dm(difficulty, tables) == dm


@pytest.mark.parametrize(
    ("weapon", "band"),
    [
        ("lancio", "personale"),  # 000:l.51 "| Lancio | -- | Media | ..."
        ("corpo_a_corpo", "breve"),  # 000:l.49
        ("pistola", "molto_lunga"),  # 000:l.52
        ("doppietta", "distante"),  # 000:l.54
    ],
)
def test_c_2_a_dash_dash_in_the_table_means_no_attack(
    tables: Tables, weapon: str, band: str
) -> None:
    assert difficulty_for(weapon, band, tables) is None
