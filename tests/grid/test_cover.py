"""Cover from 27 samples of the target cell (P-COV-1..5, P-ZERO-1).

Geometry in comments uses cell units: cell i spans [i, i+1], the attacker shoots from its
centre i + 0.5, samples sit at fractions 0.1, 0.5, 0.9 of the target cell.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from game.grid.cover import cover, hiding_kinds
from game.grid.geometry import OffMapError
from game.grid.model import OBSTACLE_FULL, OBSTACLE_HALF, OBSTACLE_THIN, Grid
from game.text import explain
from game.text.i18n import speaking

if TYPE_CHECKING:
    from tests.grid.conftest import AsciiGrid

pytestmark = pytest.mark.usefixtures("kernel_mode")


def _row(length: int, levels: int, **obstacles: tuple[int, int, int]) -> Grid:
    """A 3-row strip `length` long; obstacles by code name -> cell (x, y, z)."""
    obstacle = np.zeros((length, 3, levels), dtype=np.uint8)
    codes = {"half": OBSTACLE_HALF, "full": OBSTACLE_FULL, "thin": OBSTACLE_THIN}
    for name, cell in obstacles.items():
        obstacle[cell] = codes[name.rstrip("0123456789")]
    return Grid.build(obstacle)


# On the flat a half wall 4 cells from the attacker covers up to ceil(4 / (1 + 0)) - 1 = 3
# cells behind it. Every ray from (0.5, 1.5, 0.5) to the samples of a target on the row y = 1
# crosses x in (4, 5) with 1 < y < 2 and 0 < z < 1: inside the half wall at (4, 1, 0).
@pytest.mark.parametrize(
    ("target_x", "grade"),
    [(5, "light"), (7, "light"), (8, "high_exposure")],
)
def test_p_cov_3_half_wall_four_cells_out_covers_three_cells_behind(
    target_x: int, grade: str
) -> None:
    grid = _row(10, 1, half=(4, 1, 0))
    result = cover(grid, (0, 1, 0), (target_x, 1, 0))
    assert result.grade == grade
    assert len(result.hidden) == 27
    assert {s.cell for s in result.hidden} == {(4, 1, 0)}
    assert all(s.obstacle == "half" for s in result.hidden)
    assert all(s.counted == (grade == "light") for s in result.hidden)
    assert "P-COV-3" in result.rules


def test_p_cov_3_half_wall_as_near_the_attacker_as_the_target_gives_no_cover() -> None:
    # d(attacker, obstacle) = 3 -> reach ceil(3/1) - 1 = 2 < 3 = d(obstacle, target). Around
    # (7, 1, 0) nothing stands, so the target is highly exposed (P-COV-4).
    grid = _row(10, 1, half=(4, 1, 0))
    result = cover(grid, (1, 1, 0), (7, 1, 0))
    assert result.grade == "high_exposure"
    assert result.percent == -15
    with speaking("en"):
        assert "ceil(3/(1+0)) - 1 = 2" in explain.cover_note_text(result.hidden[0].reason)


@pytest.mark.parametrize(("target_x", "grade"), [(5, "light"), (6, "high_exposure")])
def test_p_cov_3_one_level_up_halves_the_covered_distance(target_x: int, grade: str) -> None:
    # Attacker (0,1,1), wall (4,1,0): d = max(4, 0, 1) = 4, N = 1 -> ceil(4/2) - 1 = 1.
    # Target (5,1,0) is 1 behind: covered. (6,1,0) is 2 behind: the ray to the sample
    # (6.5, 1.5, 0.5) still enters the wall (z = 0.92 at x = 4) but it does not count.
    grid = _row(10, 2, half=(4, 1, 0))
    result = cover(grid, (0, 1, 1), (target_x, 1, 0))
    assert result.grade == grade
    assert result.hidden
    assert all(s.counted == (grade == "light") for s in result.hidden)


@pytest.mark.parametrize(("target_x", "grade"), [(7, "light"), (8, "high_exposure")])
def test_p_cov_3_two_levels_up_divide_the_covered_distance_by_three(
    target_x: int, grade: str
) -> None:
    # Attacker (0,1,2), wall (6,1,0): d = 6, N = 2 -> ceil(6/3) - 1 = 1. To (7.5, 1.5, 0.5)
    # the ray is at z = 0.93 at x = 6; to (8.5, 1.5, 0.5) it drops below z = 1 inside x 6..7.
    grid = _row(12, 3, half=(6, 1, 0))
    result = cover(grid, (0, 1, 2), (target_x, 1, 0))
    assert result.grade == grade
    assert result.hidden


def test_p_cov_3_a_defender_standing_higher_is_treated_as_level() -> None:
    # Attacker (0,1,0), target (7,1,1), wall (4,1,1): N = 0 - 1 < 0 counts as 0, so the flat
    # reach ceil(4/1) - 1 = 3 applies (the seed's formula would divide by zero). The ray to
    # the sample (7.5, 1.5, 1.9) is at z = 1.2 at x = 4: inside the wall.
    grid = _row(10, 2, half=(4, 1, 1))
    result = cover(grid, (0, 1, 0), (7, 1, 1))
    assert result.grade == "light"
    assert all(s.cell == (4, 1, 1) and s.counted for s in result.hidden)


def test_p_cov_5_crouched_behind_a_half_wall_gets_heavy_cover() -> None:
    grid = _row(10, 1, half=(4, 1, 0))
    result = cover(grid, (0, 1, 0), (5, 1, 0), target_low_stance=True)
    assert result.grade == "heavy"
    assert result.percent == 50
    assert "P-COV-5" in result.rules


# Attacker (0,0,0) -> target (6,1,0), column at (5,0,0). The centre line (0.5,0.5)->(6.5,1.5)
# is at y = 1.25 at x = 5: it misses the column. A sample at y-fraction b reaches x = 5 at
# t = 4.5 / (5.5 + a) with y = 0.5 + (0.5 + b) t; it is inside the column (y < 1) only for
# b = 0.1 (45 b' < 50 + 5 a' in tenths): the 9 samples of the row y = 1.1.
COLUMN = """
A....#.
......T
"""


def test_p_cov_2_thin_column_gives_light_cover_and_names_the_hidden_samples(
    ascii_grid: AsciiGrid,
) -> None:
    grid, m = ascii_grid(COLUMN.replace("#", "t"))
    result = cover(grid, m["A"], m["T"])
    assert result.grade == "light"
    assert result.percent == 25
    assert sorted(s.sample for s in result.hidden) == sorted(
        (x, 0.1, z) for x in (0.1, 0.5, 0.9) for z in (0.1, 0.5, 0.9)
    )
    assert {(s.cell, s.obstacle, s.counted) for s in result.hidden} == {((5, 0, 0), "thin", True)}
    with speaking("en"):
        assert explain.cover_lines(result)[:2] == [
            "cover: light (+25%), 9 of 27 samples hidden",
            "the thin obstacle at (5, 0, 0) hides 9 samples (3 low, 3 middle, 3 high):"
            " thin obstacle: light cover (P-COV-2)",
        ]


def test_p_cov_5_crouching_behind_a_thin_column_stays_light(ascii_grid: AsciiGrid) -> None:
    grid, m = ascii_grid(COLUMN.replace("#", "t"))
    assert cover(grid, m["A"], m["T"], target_low_stance=True).grade == "light"


def test_p_cov_2_the_corner_of_a_full_wall_gives_heavy_cover(ascii_grid: AsciiGrid) -> None:
    grid, m = ascii_grid(COLUMN)
    result = cover(grid, m["A"], m["T"])
    assert result.grade == "heavy"
    assert len(result.hidden) == 9


def test_p_cov_5_crouching_behind_a_half_corner_turns_light_into_heavy(
    ascii_grid: AsciiGrid,
) -> None:
    # d(attacker, (5,0,0)) = 5 -> reach 4 >= 1 = d(obstacle, target).
    grid, m = ascii_grid(COLUMN.replace("#", "h"))
    assert cover(grid, m["A"], m["T"]).grade == "light"
    assert cover(grid, m["A"], m["T"], target_low_stance=True).grade == "heavy"


HIGH_EXPOSURE = """
.........
.........
A....T...
.........
.........
"""


def test_p_cov_4_no_obstacle_around_means_high_exposure(ascii_grid: AsciiGrid) -> None:
    grid, m = ascii_grid(HIGH_EXPOSURE)
    result = cover(grid, m["A"], m["T"])
    assert (result.grade, result.percent) == ("high_exposure", -15)
    assert "P-COV-4" in result.rules


@pytest.mark.parametrize(("char", "grade"), [("#", "none"), ("h", "none")])
def test_p_cov_4_an_obstacle_next_to_the_target_prevents_high_exposure(
    ascii_grid: AsciiGrid, char: str, grade: str
) -> None:
    # (6,3) is diagonally behind the target (5,2): no sample is hidden (the rays end inside
    # x < 6), but it is one of the 8 cells around.
    picture = HIGH_EXPOSURE.splitlines()
    picture[4] = "......" + char + ".."
    grid, m = ascii_grid("\n".join(picture))
    result = cover(grid, m["A"], m["T"])
    assert result.hidden == ()
    assert result.grade == grade
    assert result.percent == 0


def test_p_cov_4_an_obstacle_two_cells_away_leaves_the_target_exposed(
    ascii_grid: AsciiGrid,
) -> None:
    picture = HIGH_EXPOSURE.splitlines()
    picture[3] = "A....T.#."
    grid, m = ascii_grid("\n".join(picture))
    assert cover(grid, m["A"], m["T"]).grade == "high_exposure"


def test_p_cov_4_an_obstacle_on_another_level_does_not_count() -> None:
    obstacle = np.zeros((9, 5, 2), dtype=np.uint8)
    obstacle[6, 3, 1] = OBSTACLE_FULL
    grid = Grid.build(obstacle)
    assert cover(grid, (0, 2, 0), (5, 2, 0)).grade == "high_exposure"


def test_p_cov_4_cells_outside_the_map_count_as_empty() -> None:
    grid = Grid.empty(4, 4, 1)
    assert cover(grid, (3, 3, 0), (0, 0, 0)).grade == "high_exposure"


def test_p_cov_5_shock_takes_cover_away_and_high_exposure_still_applies() -> None:
    # Light cover behind the half wall 3 cells back (see above); in shock: no cover, and
    # with nothing around (7,1,0) the target is highly exposed.
    grid = _row(10, 1, half=(4, 1, 0))
    result = cover(grid, (0, 1, 0), (7, 1, 0), target_shock=True)
    assert result.grade == "high_exposure"
    assert "P-COV-5" in result.rules
    assert "P-COV-4" in result.rules


def test_p_cov_5_shock_next_to_an_obstacle_is_plain_no_cover(ascii_grid: AsciiGrid) -> None:
    grid, m = ascii_grid(COLUMN)
    assert cover(grid, m["A"], m["T"], target_shock=True).grade == "none"


def test_p_zero_1_mid_flight_no_cover_but_not_exposed(ascii_grid: AsciiGrid) -> None:
    grid, m = ascii_grid(COLUMN)
    assert cover(grid, m["A"], m["T"], in_flight=True).grade == "none"
    grid, m = ascii_grid(HIGH_EXPOSURE)
    result = cover(grid, m["A"], m["T"], in_flight=True)
    assert result.grade == "none"
    assert "P-ZERO-1" in result.rules


def test_p_zero_1_adrift_in_the_void_is_highly_exposed(ascii_grid: AsciiGrid) -> None:
    grid, m = ascii_grid(COLUMN)
    assert cover(grid, m["A"], m["T"], adrift=True).grade == "high_exposure"
    with pytest.raises(ValueError, match="both in flight and adrift"):
        cover(grid, m["A"], m["T"], in_flight=True, adrift=True)


def test_p_cov_2_entities_never_give_cover_and_own_cells_never_hide() -> None:
    # The attacker and the target stand in obstacle cells themselves: only other cells hide.
    obstacle = np.zeros((6, 3, 1), dtype=np.uint8)
    obstacle[0, 1, 0] = obstacle[5, 1, 0] = OBSTACLE_FULL
    grid = Grid.build(obstacle)
    result = cover(grid, (0, 1, 0), (5, 1, 0))
    assert result.hidden == ()
    assert result.grade == "high_exposure"


def test_p_cov_2_off_map_cells_are_a_clear_error() -> None:
    grid = Grid.empty(3, 3, 1)
    with pytest.raises(OffMapError, match="cover target cell"):
        cover(grid, (0, 0, 0), (0, 5, 0))


def test_p_cov_5_a_thin_column_in_front_of_the_half_wall_does_not_cancel_the_heavy_cover() -> None:
    # Attacker (0,2,0), crouched target (5,1,0); the samples at y = 1.9 pass through the thin
    # column (3,2,0) and then the half wall (4,2,0). Half wall: d(attacker, wall) = 4, N = 0,
    # ceil(4/1) − 1 = 3 ≥ d(wall, target) = 1, so it counts (P-COV-3), and a crouched target
    # behind a counting half wall has heavy cover (P-COV-5), column or not.
    obstacle = np.zeros((6, 4, 1), dtype=np.uint8)
    obstacle[3, 2, 0] = OBSTACLE_THIN
    obstacle[4, 2, 0] = OBSTACLE_HALF
    grid = Grid.build(obstacle)
    assert cover(grid, (0, 2, 0), (5, 1, 0), target_low_stance=True).grade == "heavy"
    assert cover(grid, (0, 2, 0), (5, 1, 0)).grade == "light"


# hiding_kinds (RULINGS C-3 needs the kind of every obstacle that hides a target). From
# (0.5, 1.5, 0.5) every ray to a sample of (7, 1, 0) crosses the row y = 1 through x in (4, 6):
# the half wall at (4, 1, 0) counts (d(attacker, wall) = 4, reach ceil(4/1) - 1 = 3,
# d(wall, target) = 3), and the full wall at (5, 1, 0) hides the same samples. `cover` keeps the
# strongest per sample (full); hiding_kinds names both.
def test_hiding_kinds_names_a_counting_half_wall_also_behind_a_full_one() -> None:
    grid = _row(10, 1, half=(4, 1, 0), full=(5, 1, 0))
    assert {s.obstacle for s in cover(grid, (0, 1, 0), (7, 1, 0)).hidden} == {"full"}
    assert hiding_kinds(grid, (0, 1, 0), (7, 1, 0)) == frozenset({"full", "half"})


def test_hiding_kinds_leaves_out_a_half_wall_too_far_from_the_target() -> None:
    # P-COV-3: d(wall, target (8, 1, 0)) = 4 > reach 3, so the wall hides nothing that counts.
    grid = _row(10, 1, half=(4, 1, 0))
    assert hiding_kinds(grid, (0, 1, 0), (8, 1, 0)) == frozenset()
    assert hiding_kinds(grid, (0, 1, 0), (7, 1, 0)) == frozenset({"half"})


def test_hiding_kinds_names_a_thin_column_and_leaves_the_grid_unchanged() -> None:
    grid = _row(10, 1, thin=(4, 1, 0))
    before = grid.obstacle.copy()
    assert hiding_kinds(grid, (0, 1, 0), (7, 1, 0)) == frozenset({"thin"})
    assert (grid.obstacle == before).all()


# ------------------------------------------------------------------ the grade-only kernel

_KINDS = [0, 0, 0, 0, OBSTACLE_FULL, OBSTACLE_THIN, OBSTACLE_HALF, OBSTACLE_HALF]
_FLAGS = [
    {},
    {"target_low_stance": True},
    {"target_shock": True},
    {"in_flight": True},
    {"adrift": True},
    {"target_low_stance": True, "target_shock": True},
]


@given(st.data())
@settings(max_examples=150, deadline=None)
def test_p_cov_1_grade_without_detail_matches_the_27_sample_walks(data: st.DataObject) -> None:
    # The grade-only kernel scans the cone of the 27 segments once and stops at the first
    # deciding obstacle; the detailed kernel walks every segment (the reference): same grade.
    shape = (
        data.draw(st.integers(1, 7)),
        data.draw(st.integers(1, 7)),
        data.draw(st.integers(1, 3)),
    )
    size = int(np.prod(shape))
    codes = data.draw(st.lists(st.sampled_from(_KINDS), min_size=size, max_size=size))
    grid = Grid.build(np.array(codes, dtype=np.uint8).reshape(shape))
    cell = st.tuples(
        st.integers(0, shape[0] - 1), st.integers(0, shape[1] - 1), st.integers(0, shape[2] - 1)
    )
    a, t = data.draw(cell), data.draw(cell)
    flags = data.draw(st.sampled_from(_FLAGS))
    fast = cover(grid, a, t, detail=False, **flags)
    slow = cover(grid, a, t, **flags)
    assert (fast.grade, fast.percent) == (slow.grade, slow.percent)
    assert fast.hidden == () and fast.rules == ()


def test_p_cov_1_grade_without_detail_matches_on_long_shots_over_a_cluttered_deck(
    kernel_mode: str,
) -> None:
    # Long, steep and skew shots (up to 23 cells, across levels) over walls, crates and
    # columns of every kind: the cone's slabs and its rounding margins at real distances.
    gen = np.random.default_rng(18)
    obstacle = np.zeros((24, 24, 4), dtype=np.uint8)
    roll = gen.random(obstacle.shape)
    obstacle[roll < 0.06] = OBSTACLE_FULL
    obstacle[(roll >= 0.06) & (roll < 0.10)] = OBSTACLE_HALF
    obstacle[(roll >= 0.10) & (roll < 0.12)] = OBSTACLE_THIN
    grid = Grid.build(obstacle)
    shots = 60 if kernel_mode == "compiled" else 12
    for _ in range(shots):
        a = (int(gen.integers(0, 24)), int(gen.integers(0, 24)), int(gen.integers(0, 4)))
        t = (int(gen.integers(0, 24)), int(gen.integers(0, 24)), int(gen.integers(0, 4)))
        for flags in _FLAGS[:3]:
            fast = cover(grid, a, t, detail=False, **flags)
            assert fast.grade == cover(grid, a, t, **flags).grade, (a, t, flags)


def test_p_cov_2_off_map_cells_are_a_clear_error_without_detail_too() -> None:
    grid = _row(4, 1)
    with pytest.raises(OffMapError, match="cover target cell"):
        cover(grid, (0, 1, 0), (9, 1, 0), detail=False)
    with pytest.raises(ValueError, match="both in flight and adrift"):
        cover(grid, (0, 1, 0), (3, 1, 0), in_flight=True, adrift=True, detail=False)
