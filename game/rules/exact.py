"""Exact chances of dice expressions ("2d6+1", "d8!+d6!", "3d10-3d10") as fractions."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

#: The largest number of dice in one term and of faces on one die: beyond, the exact sums are
#: not worth their time and no seed rolls more.
MAX_DICE = 20
MAX_FACES = 100
MAX_TERMS = 8
_TERM = re.compile(r"([+-]?)(?:(\d*)d(\d+)(!?)|(\d+))")


class DiceError(ValueError):
    """A dice expression that cannot be read; the message says where and why."""


@dataclass(frozen=True)
class Term:
    """`count` dice of `faces` faces (exploding on their maximum if `explode`), or a constant."""

    sign: int
    count: int
    faces: int
    explode: bool = False

    @property
    def constant(self) -> bool:
        return self.faces == 0


def parse(expression: str) -> tuple[Term, ...]:
    """Read "2d6+1", "d8!+d6!", "3d10-3d10": dice terms and constants joined by + and -."""
    text = expression.replace(" ", "").lower()
    if not text:
        raise DiceError("empty dice expression")
    terms: list[Term] = []
    pos = 0
    while pos < len(text):
        match = _TERM.match(text, pos)
        if match is None or (pos > 0 and not match.group(1)):
            raise DiceError(f"{expression!r}: cannot read {text[pos:]!r} (expected e.g. 2d6+1)")
        sign = -1 if match.group(1) == "-" else 1
        if match.group(5) is not None:
            terms.append(Term(sign, int(match.group(5)), 0))
        else:
            count = int(match.group(2) or "1")
            faces = int(match.group(3))
            explode = bool(match.group(4))
            if not 1 <= count <= MAX_DICE:
                raise DiceError(f"{expression!r}: {count} dice in one term (1..{MAX_DICE})")
            if not 2 <= faces <= MAX_FACES:
                raise DiceError(f"{expression!r}: a d{faces} (2..{MAX_FACES} faces)")
            if explode and sign < 0:
                # An exploding die subtracted has no lower bound: no seed rolls one.
                raise DiceError(f"{expression!r}: an exploding die cannot be subtracted")
            terms.append(Term(sign, count, faces, explode))
        pos = match.end()
    if len(terms) > MAX_TERMS:
        raise DiceError(f"{expression!r}: {len(terms)} terms (at most {MAX_TERMS})")
    return tuple(terms)


@lru_cache(maxsize=256)
def _sum_of_dice(count: int, faces: int) -> Mapping[int, Fraction]:
    dist: dict[int, Fraction] = {0: Fraction(1)}
    one = Fraction(1, faces)
    for _ in range(count):
        nxt: dict[int, Fraction] = {}
        for total, p in dist.items():
            for face in range(1, faces + 1):
                nxt[total + face] = nxt.get(total + face, Fraction(0)) + p * one
        dist = nxt
    return dist


def _exploding_below(faces: int, cap: int) -> dict[int, Fraction]:
    """P(die = v) for every final value v < cap of one die that re-rolls and adds on its
    maximum (F-1); the rest of the mass is ">= cap"."""
    dist: dict[int, Fraction] = {}
    weight = Fraction(1, faces)
    base = 0
    while base + 1 < cap:
        for face in range(1, faces):
            if base + face < cap:
                dist[base + face] = weight
        base += faces
        weight /= faces
    return dist


def distribution(terms: tuple[Term, ...]) -> dict[int, Fraction]:
    """The exact distribution of a sum without exploding dice."""
    dist: dict[int, Fraction] = {0: Fraction(1)}
    for term in terms:
        if term.explode:
            raise DiceError("an exploding die has no finite distribution; ask for a chance")
        part = {term.count: Fraction(1)} if term.constant else _sum_of_dice(term.count, term.faces)
        nxt: dict[int, Fraction] = {}
        for a, p in dist.items():
            for b, q in part.items():
                nxt[a + term.sign * b] = nxt.get(a + term.sign * b, Fraction(0)) + p * q
        dist = nxt
    return dist


def chance_at_least(expression: str | tuple[Term, ...], target: int) -> Fraction:
    """P(expression >= target), exact; exploding dice are summed up to the target only (the
    mass at or beyond it is all that matters), so the answer is exact, not truncated."""
    terms = parse(expression) if isinstance(expression, str) else expression
    rest = distribution(tuple(t for t in terms if not t.explode))
    exploding = [t for t in terms if t.explode]
    if not exploding:
        return sum((p for v, p in rest.items() if v >= target), Fraction(0))
    # X >= target  <=>  E >= target - R; the highest threshold E is ever measured against:
    cap = target - min(rest)
    if cap <= 0:
        return Fraction(1)
    below: dict[int, Fraction] = {0: Fraction(1)}  # the exploding part's mass below `cap`
    for term in exploding:
        die = _exploding_below(term.faces, cap)
        for _ in range(term.count):
            nxt: dict[int, Fraction] = {}
            for a, p in below.items():
                for b, q in die.items():
                    if a + b < cap:
                        nxt[a + b] = nxt.get(a + b, Fraction(0)) + p * q
            below = nxt
    total = Fraction(0)
    for r, p_r in rest.items():
        need = target - r
        p_below = sum((q for e, q in below.items() if e < need), Fraction(0))
        total += p_r * (1 - p_below)
    return total


def fraction_text(p: Fraction) -> str:
    """A probability as the query's `"n/d"` in lowest terms ("0/1" and "1/1" at the ends)."""
    return f"{p.numerator}/{p.denominator}"
