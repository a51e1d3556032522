"""Cepheus thrown weapons (000:l.134, 351-353): where a missed throw bounces, and what a hit adds.

The throw itself is an attack (`attack.attack` with a `lancio` weapon: Atletica + DEX DM, the
weapon table's row, C-1/C-2); this module holds what the seed adds for throws alone.
"""

from __future__ import annotations

from typing import Final

#: 000:l.353: "Se l'attacco fallisce, il proiettile rimbalza in una direzione casuale per
#: (6 + Effetto) metri": the metres a missed throw bounces before its (negative) Effect.
BOUNCE_METRES: Final = 6
#: The random direction of a bounce: a d8 over the eight compass directions of the map.
BOUNCE_DIRECTIONS: Final = 8
#: 1 = north (towards the top of the screen, -y), then clockwise as seen from above (x right,
#: y down): north-east, east, south-east, south, south-west, west, north-west.
_COMPASS: Final = ((0, -1), (1, -1), (1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1))


def bounce_metres(effect: int) -> int:
    """000:l.353: a missed throw (Effect < 0) bounces 6 + Effect metres, never below 0."""
    if effect >= 0:
        raise ValueError(f"bounce_metres: only a miss (Effect < 0) bounces, got Effect {effect}")
    return max(BOUNCE_METRES + effect, 0)


def bounce_cells(effect: int) -> int:
    """The bounce in whole cells of 1.5 m (G-4), rounded down: 5 m is 3 cells, 4 m and 3 m are
    2, 2 m is 1, 1 m stays in the aim cell (assumed: the seed counts metres, the grid cells)."""
    return bounce_metres(effect) * 2 // 3


def bounce_offset(direction_roll: int, cells: int) -> tuple[int, int, int]:
    """The offset from the aim cell a bounce of `cells` in the d8's direction lands at, on the
    thrower's level (a Chebyshev distance of `cells`, G-4)."""
    if not 1 <= direction_roll <= BOUNCE_DIRECTIONS:
        raise ValueError(f"bounce_offset: the direction is a d8, got {direction_roll}")
    if cells < 0:
        raise ValueError(f"bounce_offset: cells must be >= 0, got {cells}")
    dx, dy = _COMPASS[direction_roll - 1]
    return dx * cells, dy * cells, 0


def adds_effect(blast: int) -> bool:
    """000:l.353: an impact thrown weapon (a knife, a stone) adds the throw's Effect to its
    damage; an explosive one (a grenade: it has a blast) does not."""
    return blast == 0
