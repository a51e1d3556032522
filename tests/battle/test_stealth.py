"""P-STL-2: for hiding, a half obstacle's cover reaches behind it only as far as the obstacle is
from the enemy — even where, for an attack, P-COV-3 gives no cover at all.

Hand-worked on an open field: the enemy Eve at (2, 5), a crate (half obstacle) at (6, 5), so
d(crate, Eve) = 4. Mo stands behind the crate on the same row.
- Mo at (10, 5): d(crate, Mo) = 4 <= 4, hidden for stealth (P-STL-2); for an attack P-COV-3
  (N = 0) asks d(crate, Mo) <= ceil(4 / 1) - 1 = 3: no cover, and with no obstacle around Mo,
  high exposure (P-COV-4).
- Mo at (11, 5): d(crate, Mo) = 5 > 4: in the open.
"""

from __future__ import annotations

import pytest

from game import tactics
from game.battle.setup import UnitSpec
from tests.battle.conftest import MakeBattle

FIELD = "\n".join(
    "." * 20 if y != 5 else "......h" + "." * 13 for y in range(12)
)  # the crate at (6, 5)


@pytest.mark.parametrize(("x", "in_open"), [(10, False), (11, True), (8, False)])
def test_p_stl_2_a_crate_hides_a_sneaking_unit_only_as_far_behind_it_as_it_is_from_the_enemy(
    make_battle: MakeBattle, x: int, in_open: bool
) -> None:
    units = [
        UnitSpec("Eve", "b", (2, 5, 0), weapon="pistol"),
        UnitSpec("Mo", "a", (x, 5, 0), weapon="pistol"),
    ]
    battle = make_battle(units, FIELD, initiative=(20, 10))
    eve = battle.sheet("Eve")
    assert battle._in_open_sight(eve, "Mo") is in_open


def test_p_stl_2_hides_where_p_cov_3_gives_an_attack_no_cover(make_battle: MakeBattle) -> None:
    units = [
        UnitSpec("Eve", "b", (2, 5, 0), weapon="pistol"),
        UnitSpec("Mo", "a", (10, 5, 0), weapon="pistol"),
    ]
    battle = make_battle(units, FIELD, initiative=(20, 10))
    cover = tactics.target_cover(battle.bf, battle.sheet("Eve"), battle.sheet("Mo"))
    # P-COV-3: 4 > 3, the crate gives no cover; nothing around Mo either: high exposure (P-COV-4)
    assert cover.grade == "high_exposure"
    assert cover.hidden and all(s.obstacle == "half" and not s.counted for s in cover.hidden)
    assert battle._in_open_sight(battle.sheet("Eve"), "Mo") is False  # P-STL-2: 4 <= 4
