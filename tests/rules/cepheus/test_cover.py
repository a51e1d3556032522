"""C-3 cover grades from the obstacles hiding a target, and the stance shift (000:l.258-269)."""

from __future__ import annotations

import pytest

from game.rules.cepheus.cover import cover_grade, grade_from_obstacles
from game.rules.cepheus.data import Tables


@pytest.mark.parametrize(
    ("kinds", "grade"),
    [
        # C-3: "a `half` obstacle that hides the target ... is 1/2 (-1, the seed's 'muro basso')"
        ({"half"}, "1/2"),
        # "a `full` or `thin` obstacle that hides part of it is 1/4 (-0, 'angolo di edificio')"
        ({"full"}, "1/4"),
        ({"thin"}, "1/4"),
        ({"half", "full"}, "1/2"),
        (set(), "none"),
    ],
)
def test_c_3_grade_from_the_obstacle_kinds(kinds: set[str], grade: str) -> None:
    assert grade_from_obstacles(kinds) == grade


@pytest.mark.parametrize(
    ("base", "low", "grade", "dm"),
    [
        # 000:l.264-269: 1/4 -0, 1/2 -1, 3/4 -2, Completo -4.
        ("1/2", False, "1/2", -1),
        # l.341: "accucciato dietro a un muro alto fino alla vita, è considerato a 3/4 di
        # riparo anziché a 1/2".
        ("1/2", True, "3/4", -2),
        ("1/4", True, "1/2", -1),
        ("3/4", True, "full", -4),
        ("full", False, "full", -4),
        ("none", True, "none", 0),
    ],
)
def test_c_3_a_low_stance_counts_one_row_better(
    tables: Tables, base: str, low: bool, grade: str, dm: int
) -> None:
    result = cover_grade(base, low, tables)
    assert (result.grade, result.dm, result.shifted) == (grade, dm, low and base != "none")


def test_c_3_full_cover_with_a_low_stance_cannot_be_hit(tables: Tables) -> None:
    # 000:l.260: "Se un personaggio dietro un riparo totale è accucciato o prono, non può
    # essere colpito".
    result = cover_grade("full", True, tables)
    assert result.cannot_be_hit and result.dm is None


def test_an_unknown_grade_is_refused_by_name(tables: Tables) -> None:
    with pytest.raises(ValueError, match="'2/3'"):
        cover_grade("2/3", False, tables)
