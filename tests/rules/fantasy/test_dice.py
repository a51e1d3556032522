"""Exact exploding-dice chances (F-1, F-2): hand-worked cases and brute force with a bound.

Brute force: every die is rolled again at most `depth` times; outcomes with a deeper explosion
are dropped. The dropped mass is 1 - (mass kept), so the exact chance of any event lies between
the kept mass of the event and that plus the dropped mass — and the exact answer must too.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from itertools import product

import pytest

from game.rules import exact
from game.rules.fantasy import dice


def test_f1_single_exploding_die_tails_by_hand() -> None:
    # 003:l.123: a maximum is rolled again and added. d4!: > 4 needs a first 4 (1/4), then
    # anything (>= 1): 1/4. > 5 needs a 4 then 2..4: 1/4 x 3/4 = 3/16. = 4 is impossible.
    assert dice.at_least((4,), 5) == Fraction(1, 4)
    assert dice.at_least((4,), 6) == Fraction(3, 16)
    assert dice.point((4,), 4) == 0


def test_f1_two_d6_against_8_by_hand() -> None:
    # d6!+d6! <= 8: both final values in 1..5 with sum <= 8 are 25 - 3 = 22 pairs of 36
    # ((4,5), (5,4), (5,5) exceed); or one die 6+1 = 7 (1/36) with the other 1 (1/6), twice:
    # 2/216. P(<= 8) = 132/216 + 2/216 = 134/216 = 67/108, so P(> 8) = 41/108.
    assert dice.at_least((6, 6), 9) == Fraction(41, 108)


def test_f1_opposed_d4_against_d4_by_hand() -> None:
    # P(A = D) = sum over values of P(v)^2 = 3 x sum_k 16^-(k+1) = 3 x (1/16)/(15/16) = 1/5;
    # by symmetry P(A > D) = (1 - 1/5) / 2 = 2/5.
    assert dice.beats((4,), (4,), 0) == Fraction(2, 5)
    assert dice.beats((4,), (4,), 1) - dice.beats((4,), (4,), 0) == Fraction(1, 5)


def test_f2_hit_needs_both_the_dp_and_the_defence_by_hand() -> None:
    # P(A > max(2, D)) for d4! vs d4!: A = 3 (1/4) beats D <= 2 (1/2): 1/8. A >= 5 (1/4) loses
    # only to D >= A, which needs D >= 5 too (1/16) and then D' >= A' for fresh copies
    # (1 - 2/5 = 3/5): 1/4 - 3/80 = 17/80. Total 10/80 + 17/80 = 27/80.
    assert dice.above_both((4,), (4,), 0, 2) == Fraction(27, 80)


def test_f2_ties_above_the_dp_by_hand() -> None:
    # P(A = D > 2) for d4! vs d4!: P(A = D) = 1/5 minus the ties at 1 and 2 (1/16 each).
    assert dice.ties_above((4,), (4,), 0, 2) == Fraction(1, 5) - Fraction(2, 16)


def test_the_ladder_steps_down_and_stops_at_its_floor() -> None:
    # 003:l.148 "POT 1d6 ... attaccherà con la spada con 1d4"; l.161 "(minimo 1d4)".
    assert dice.step_down("d6") == "d4"
    assert dice.step_down("d4") == "none"
    assert dice.step_down("d8", 3, floor="d4") == "d4"


def _truncated(faces: int, depth: int) -> dict[int, Fraction]:
    return {
        k * faces + r: Fraction(1, faces ** (k + 1)) for k in range(depth) for r in range(1, faces)
    }


def _sum(parts: list[dict[int, Fraction]]) -> dict[int, Fraction]:
    out: dict[int, Fraction] = {0: Fraction(1)}
    for part in parts:
        nxt: dict[int, Fraction] = {}
        for a, p in out.items():
            for b, q in part.items():
                nxt[a + b] = nxt.get(a + b, Fraction(0)) + p * q
        out = nxt
    return out


def _bounds(
    attack: tuple[int, ...], defence: tuple[int, ...], event: Callable[[int, int], bool], depth: int
) -> tuple[Fraction, Fraction]:
    a = _sum([_truncated(n, depth) for n in attack])
    d = _sum([_truncated(n, depth) for n in defence])
    kept = sum(a.values(), Fraction(0)) * sum(d.values(), Fraction(0))
    low = sum(
        (p * q for (x, p), (y, q) in product(a.items(), d.items()) if event(x, y)), Fraction(0)
    )
    return low, low + (1 - kept)


CASES = [((4,), (6,)), ((6, 8), (8,)), ((4, 6), (6, 6)), ((8, 10), (4, 12)), ((12,), (4, 4))]


@pytest.mark.parametrize(("attack", "defence"), CASES)
@pytest.mark.parametrize(("margin", "dp"), [(0, 8), (2, 5), (-3, 10)])
def test_opposed_chances_agree_with_brute_force_within_the_dropped_mass(
    attack: tuple[int, ...], defence: tuple[int, ...], margin: int, dp: int
) -> None:
    depth = 4
    hit = dice.above_both(attack, defence, margin, dp)
    low, high = _bounds(attack, defence, lambda x, y: x + margin > max(dp, y), depth)
    assert low <= hit <= high
    # The dropped mass is at most the sum over dice of N^-depth: the bound is tight.
    assert high - low <= sum(Fraction(1, n**depth) for n in attack + defence)
    beat = dice.beats(attack, defence, margin)
    low, high = _bounds(attack, defence, lambda x, y: x + margin > y, depth)
    assert low <= beat <= high
    tie = dice.ties_above(attack, defence, margin, dp)
    low, high = _bounds(attack, defence, lambda x, y: x + margin == y > dp, depth)
    assert low <= tie <= high


@pytest.mark.parametrize(("attack", "defence"), CASES)
def test_win_tie_and_loss_add_up_to_one(attack: tuple[int, ...], defence: tuple[int, ...]) -> None:
    # P(A > D) + P(A = D) + P(D > A) = 1, the last computed with the sides swapped.
    win = dice.beats(attack, defence, 0)
    tie = dice.beats(attack, defence, 1) - win
    lose = dice.beats(defence, attack, 0)
    assert win + tie + lose == 1


def test_one_sided_chances_match_the_shared_exact_module() -> None:
    assert dice.at_least((6, 8), 15) == exact.chance_at_least("d6!+d8!", 15)
