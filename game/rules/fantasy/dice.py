"""Exact chances of exploding dice-step rolls and of opposed rolls between them (F-1, F-2).

A die dN explodes on its maximum: the N is kept and the die rolled again, for ever (F-1). Each
die is then X = N K + R, K the number of explosions, R a final face 1..N-1, and the leftover
of an exploded die is a fresh die again (memoryless). One-sided questions (P(A >= t)) need only
the mass below t, a finite sum (`game.rules.exact`). Two-sided ones need P(A + m > D) with
both sides unbounded; it is found exactly by rolling the dice one at a time in a chosen order:
while both sides still have a die to roll, roll the defender's when the running difference
A - D is >= 0 and the attacker's when it is < 0. The difference then stays within
[-M, N - 1] (M, N the dice rolled next), so for a fixed set of dice still to roll the unknowns
are finitely many: each exploding roll returns to the same set of dice (memoryless) shifted by
its maximum, the other faces lead to a smaller set, already solved. One small linear system per
set, solved exactly with fractions; a side left with no dice is a one-sided finite sum.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from functools import cache
from typing import Final

from game.rules import exact

#: The die ladder of F-1, lowest first; "none" is a characteristic reduced to zero (003:l.148).
LADDER: Final = ("none", "d4", "d6", "d8", "d10", "d12")
FACES: Final = {"none": 0, "d4": 4, "d6": 6, "d8": 8, "d10": 10, "d12": 12}

Dice = tuple[int, ...]  # faces of each die, 0-less: ("d6", "d8") -> (6, 8)


def faces(dice: Sequence[str]) -> Dice:
    """The face counts of named dice, "none" left out (it adds nothing)."""
    return tuple(sorted(FACES[d] for d in dice if FACES[d]))


def step_down(die: str, steps: int = 1, floor: str = "none") -> str:
    """`die` lowered `steps` rungs of the ladder, never below `floor` (003:l.148, 161)."""
    index = max(LADDER.index(die) - steps, LADDER.index(floor))
    return LADDER[index]


def _terms(dice: Dice) -> tuple[exact.Term, ...]:
    return tuple(exact.Term(1, 1, n, explode=True) for n in dice)


@cache  # a pure function of plain values, asked again for every hover and candidate cell
def at_least(dice: Dice, target: int) -> Fraction:
    """P(sum of the exploding dice >= target), exact."""
    if not dice:
        return Fraction(1 if target <= 0 else 0)
    return exact.chance_at_least(_terms(dice), target)


def point(dice: Dice, value: int) -> Fraction:
    """P(sum of the exploding dice == value)."""
    return at_least(dice, value) - at_least(dice, value + 1)


def beats(attack: Dice, defence: Dice, margin: int) -> Fraction:
    """P(A + margin > D) for exploding sums A (attack) and D (defence), exact."""
    return _beats(tuple(sorted(attack)), tuple(sorted(defence)), margin)


@cache
def _beats(attack: Dice, defence: Dice, delta: int) -> Fraction:
    # delta = attack so far - defence so far (the margin included); win iff the final delta > 0.
    if not attack:
        return 1 - at_least(defence, delta)  # P(D_rest <= delta - 1)
    if not defence:
        return at_least(attack, 1 - delta)  # P(A_rest >= 1 - delta)
    n, m = attack[0], defence[0]
    if -m <= delta <= n - 1:
        return _solve(attack, defence)[delta]
    if delta >= n:  # roll the defender's first die: it only lowers delta, towards the band
        rest = defence[1:]
        total = sum((_beats(attack, rest, delta - v) for v in range(1, m)), Fraction(0))
        return (total + _beats(attack, defence, delta - m)) / m
    rest = attack[1:]
    total = sum((_beats(rest, defence, delta + v) for v in range(1, n)), Fraction(0))
    return (total + _beats(attack, defence, delta + n)) / n


@cache
def _solve(attack: Dice, defence: Dice) -> dict[int, Fraction]:
    """x(delta) for delta in [-M, N-1] with these dice still to roll: x = known + x(next)/size,
    next = delta - M (defender explodes, delta >= 0) or delta + N (attacker explodes)."""
    n, m = attack[0], defence[0]
    band = list(range(-m, n))
    index = {d: i for i, d in enumerate(band)}
    size = len(band)
    # Rows of [coefficients | constant] for x(d) - w x(next) = known.
    rows: list[list[Fraction]] = []
    for d in band:
        row = [Fraction(0)] * (size + 1)
        row[index[d]] += 1
        if d >= 0:
            rest = defence[1:]
            known = sum((_beats(attack, rest, d - v) for v in range(1, m)), Fraction(0)) / m
            row[index[d - m]] -= Fraction(1, m)
        else:
            rest = attack[1:]
            known = sum((_beats(rest, defence, d + v) for v in range(1, n)), Fraction(0)) / n
            row[index[d + n]] -= Fraction(1, n)
        row[size] = known
        rows.append(row)
    solution = _gauss(rows)
    return {d: solution[index[d]] for d in band}


def _gauss(rows: list[list[Fraction]]) -> list[Fraction]:
    size = len(rows)
    for col in range(size):
        pivot = next(r for r in range(col, size) if rows[r][col] != 0)
        rows[col], rows[pivot] = rows[pivot], rows[col]
        lead = rows[col][col]
        rows[col] = [v / lead for v in rows[col]]
        for r in range(size):
            if r != col and rows[r][col] != 0:
                factor = rows[r][col]
                rows[r] = [a - factor * b for a, b in zip(rows[r], rows[col], strict=True)]
    return [rows[r][size] for r in range(size)]


@cache
def above_both(attack: Dice, defence: Dice, margin: int, threshold: int) -> Fraction:
    """P(A + margin > max(threshold, D)): the attack beats both a fixed number and the defence.

    = P(A' > T) P(D <= T) + P(A' > D) - sum over d <= T of P(D = d) P(A' > d), A' = A + margin;
    the last sum is finite (D >= its number of dice)."""
    a_over_t = at_least(attack, threshold + 1 - margin)
    d_upto_t = 1 - at_least(defence, threshold + 1)
    low = len(defence)
    finite = sum(
        (point(defence, d) * at_least(attack, d + 1 - margin) for d in range(low, threshold + 1)),
        Fraction(0),
    )
    return a_over_t * d_upto_t + beats(attack, defence, margin) - finite


@cache
def ties_above(attack: Dice, defence: Dice, margin: int, threshold: int) -> Fraction:
    """P(A + margin == D and D > threshold)."""
    tie = beats(attack, defence, margin + 1) - beats(attack, defence, margin)
    low = len(defence)
    finite = sum(
        (point(defence, d) * point(attack, d - margin) for d in range(low, threshold + 1)),
        Fraction(0),
    )
    return tie - finite


def all_ones(dice: Dice) -> Fraction:
    """P(every die shows 1): the dice's minimum (a 1 never explodes on a d4 or more)."""
    p = Fraction(1)
    for n in dice:
        p /= n
    return p
