"""Jumps (P-JUMP-1, P-JUMP-2), drops (P-JUMP-3) and microgravity jumps (P-ZERO-1), in exact
arithmetic."""

from __future__ import annotations

from fractions import Fraction
from math import floor
from typing import Final

Gravity = Fraction | int | float | str

REFERENCE_GRAVITY: Final = Fraction(1, 5)  # P-JUMP-1: the formulas are written for 0.2 g
MICROGRAVITY_BELOW: Final = Fraction(1, 20)  # P-JUMP-2


def gravity_of(gravity: Gravity) -> Fraction:
    """`gravity` in g as an exact fraction; a float goes through its shortest decimal text,
    so 0.2 becomes exactly 1/5."""
    if isinstance(gravity, bool):
        raise ValueError(f"gravity must be a number of g >= 0, got {gravity!r}")
    try:
        value = gravity if isinstance(gravity, Fraction) else Fraction(str(gravity))
    except (ValueError, ZeroDivisionError):
        raise ValueError(f"gravity must be a number of g >= 0, got {gravity!r}") from None
    if value < 0:
        raise ValueError(f"gravity must be a number of g >= 0, got {gravity!r}")
    return value


def is_microgravity(gravity: Gravity) -> bool:
    """P-JUMP-2: below 0.05 g the P-ZERO rules replace the jump formulas."""
    return gravity_of(gravity) < MICROGRAVITY_BELOW


def max_jump_height(athletics: int, gravity: Gravity) -> int | None:
    """P-JUMP-1: n_max = floor((2 + athletics) × 0.2 / g), the height needing no check.

    None in microgravity (P-JUMP-2): there is no ceiling, jumps follow P-ZERO-1. A very low
    athletics bonus gives 0, not a negative height.
    """
    g = gravity_of(gravity)
    if g < MICROGRAVITY_BELOW:
        return None
    return max(0, floor((2 + athletics) * REFERENCE_GRAVITY / g))


def jump_dc(height: int, athletics: int, gravity: Gravity) -> int | None:
    """P-JUMP-1: DC of the `gravità muscolare (atletica)` check for a jump `height` cells high.

    None when no check is needed: height <= n_max, or microgravity (no ceiling).
    """
    if height < 0:
        raise ValueError(f"jump_dc: jump height must be >= 0 cells, got {height}")
    n_max = max_jump_height(athletics, gravity)
    if n_max is None or height <= n_max:
        return None
    return floor((height * 2 + 6) * REFERENCE_GRAVITY / gravity_of(gravity))


def jump_height_reached(height: int, athletics: int, gravity: Gravity, succeeded: bool) -> int:
    """P-JUMP-1: a failed check still jumps, but only n_max high."""
    n_max = max_jump_height(athletics, gravity)
    if n_max is None or succeeded or height <= n_max:
        return height
    return n_max


def drop_dc(depth: int, athletics: int, gravity: Gravity) -> int | None:
    """P-JUMP-3: DC of the `gravità muscolare (atletica)` check for stepping off an edge
    `depth` levels down: none up to n_max, deeper P-JUMP-1's DC "by the levels dropped"."""
    if depth < 1:
        raise ValueError(f"drop_dc: a drop is at least 1 level deep, got {depth}")
    return jump_dc(depth, athletics, gravity)


def drop_lands_prone(depth: int, athletics: int, gravity: Gravity, succeeded: bool) -> bool:
    """P-JUMP-3: a drop that needed the check and failed it lands prone (no falling damage
    unless the GM rules it)."""
    return drop_dc(depth, athletics, gravity) is not None and not succeeded


def horizontal_reach(vertical: int, run_up: int) -> int:
    """P-JUMP-1: the farthest horizontal distance, floor(n_vert + 2 × run_up) cells.

    `run_up` = cells moved straight in the jump's direction just before it, movement unbroken.
    """
    if vertical < 0 or run_up < 0:
        raise ValueError(
            f"horizontal_reach: height and run-up must be >= 0 cells, got {vertical} and {run_up}"
        )
    return vertical + 2 * run_up


def jump_cost(vertical: int) -> int:
    """P-JUMP-1: movement points a jump costs: only its vertical cells (the apex height)."""
    if vertical < 0:
        raise ValueError(f"jump_cost: jump height must be >= 0 cells, got {vertical}")
    return vertical


def microgravity_jump_speed(jump_speed: int) -> int:
    """P-ZERO-1: cells a turn a microgravity jump flies, twice the jump speed."""
    if jump_speed < 0:
        raise ValueError(f"microgravity_jump_speed: jump speed must be >= 0, got {jump_speed}")
    return 2 * jump_speed
