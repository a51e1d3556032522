"""The cells a centre-to-centre segment enters, in order from its start (M-1's line of fire).

Exact in integers and fractions, like the line of sight (game/grid/los.py): coordinates are
doubled, so cell (i, j, k) is the box [2i, 2i+2] x [2j, 2j+2] x [2k, 2k+2] and a centre is odd on
every axis. The segment S(t) = P + t D, t in [0, 1], crosses a face plane of some axis only at
the parameters t = (2m - P_i) / D_i; between two consecutive such parameters it lies inside the
open interior of exactly one cell, and every cell whose interior it enters holds it for such a
stretch. So the cells entered are the cells at the midpoints of those stretches, nearest first.
A cell whose edge or corner the segment only touches is not entered (its interior is not).
"""

from __future__ import annotations

from fractions import Fraction
from itertools import pairwise
from math import floor

from game.grid.model import Cell


def cells_entered(a: Cell, b: Cell, *, ends: bool = False) -> tuple[Cell, ...]:
    """Cells whose interior the segment from a's centre to b's centre enters, in the order it
    enters them (M-1: "each entity whose cell the centre-to-centre line enters, nearest first").
    a's and b's own cells are left out unless `ends`."""
    p = [2 * c + 1 for c in a]
    d = [2 * (bc - ac) for ac, bc in zip(a, b, strict=True)]
    cuts = {Fraction(0), Fraction(1)}
    for pi, di in zip(p, d, strict=True):
        if di == 0:
            continue
        # Even coordinates strictly between the two ends are the face planes crossed.
        lo, hi = sorted((pi, pi + di))
        for face in range(lo + 1, hi):
            if face % 2 == 0:
                cuts.add(Fraction(face - pi, di))
    ordered = sorted(cuts)
    found: list[Cell] = []
    for t0, t1 in pairwise(ordered):
        mid = (t0 + t1) / 2
        x, y, z = (floor((pi + mid * di) / 2) for pi, di in zip(p, d, strict=True))
        cell = (x, y, z)
        if not found or found[-1] != cell:
            found.append(cell)
    if not ends:
        found = [c for c in found if c not in (a, b)]
    return tuple(found)
