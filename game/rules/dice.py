"""Dice: expressions, a seeded roller that also takes the GM's physical dice, and the roll log."""

from __future__ import annotations

import re
from collections import deque
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from enum import Enum
from random import Random
from typing import Any, Literal

#: More dice than this in one expression is a typo, not a roll.
MAX_DICE = 1000

_DICE_RE = re.compile(r"^\s*(\d*)\s*[dD]\s*(\d+)\s*(?:([+-])\s*(\d+))?\s*$")
_CONSTANT_RE = re.compile(r"^\s*([+-]?\s*\d+)\s*$")


class DiceError(ValueError):
    """A dice expression, a die face or a roll record that makes no sense."""


class Advantage(Enum):
    NONE = "none"
    ADVANTAGE = "advantage"
    DISADVANTAGE = "disadvantage"

    @classmethod
    def combine(cls, advantage: bool, disadvantage: bool) -> Advantage:
        """Advantage and disadvantage at once cancel out (P-CHK-2)."""
        if advantage == disadvantage:
            return cls.NONE
        return cls.ADVANTAGE if advantage else cls.DISADVANTAGE


@dataclass(frozen=True)
class DiceExpr:
    """`count` dice of `sides` faces plus `modifier`; a constant has no dice (count = sides = 0)."""

    count: int
    sides: int
    modifier: int = 0

    def __post_init__(self) -> None:
        if self.count == 0 and self.sides == 0:
            return
        if not 1 <= self.count <= MAX_DICE:
            raise DiceError(f"dice count {self.count} is outside 1..{MAX_DICE}")
        if self.sides < 1:
            raise DiceError(f"a die needs at least 1 side, not {self.sides}")

    @classmethod
    def parse(cls, text: str) -> DiceExpr:
        """Read "2d6+1", "d20", "1D8", "2d6 - 1" or a constant such as "3"."""
        constant = _CONSTANT_RE.match(text)
        if constant:
            return cls(0, 0, int(constant.group(1).replace(" ", "")))
        match = _DICE_RE.match(text)
        if not match:
            raise DiceError(f"cannot read dice expression {text!r} (expected e.g. 2d6+1, d20, 3)")
        count, sides, sign, modifier = match.groups()
        value = int(modifier) if modifier else 0
        try:
            return cls(int(count) if count else 1, int(sides), -value if sign == "-" else value)
        except DiceError as exc:
            raise DiceError(f"dice expression {text!r}: {exc}") from None

    @property
    def min(self) -> int:
        return self.count + self.modifier

    @property
    def max(self) -> int:
        return self.count * self.sides + self.modifier

    def __str__(self) -> str:
        if self.count == 0:
            return str(self.modifier)
        dice = f"{self.count if self.count != 1 else ''}d{self.sides}"
        return dice + (f"{self.modifier:+d}" if self.modifier else "")


TargetKind = Literal["dc", "p"]
Source = Literal["random", "gm"]


@dataclass(frozen=True)
class RollRecord:
    """One roll as the log keeps it: every face, which were kept, the target and the outcome."""

    purpose: str
    expression: str
    dice: tuple[int, ...]
    kept: tuple[int, ...]
    dropped: tuple[int, ...]
    modifier: int
    total: int
    target: int | None
    target_kind: TargetKind | None
    outcome: str | None
    source: Source
    advantage: Advantage
    #: Shown to the GM only, e.g. a hidden entity's initiative (P-INIT-4).
    secret: bool = False

    def __post_init__(self) -> None:
        if self.source not in ("random", "gm"):
            raise DiceError(f"roll record {self.purpose!r}: unknown source {self.source!r}")
        if self.target_kind not in ("dc", "p", None):
            raise DiceError(
                f"roll record {self.purpose!r}: unknown target kind {self.target_kind!r}"
            )
        if (self.target is None) != (self.target_kind is None):
            raise DiceError(f"roll record {self.purpose!r}: target and target kind go together")

    def to_dict(self) -> dict[str, Any]:
        return {
            "purpose": self.purpose,
            "expression": self.expression,
            "dice": list(self.dice),
            "kept": list(self.kept),
            "dropped": list(self.dropped),
            "modifier": self.modifier,
            "total": self.total,
            "target": self.target,
            "target_kind": self.target_kind,
            "outcome": self.outcome,
            "source": self.source,
            "advantage": self.advantage.value,
            "secret": self.secret,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> RollRecord:
        try:
            return cls(
                purpose=str(data["purpose"]),
                expression=str(data["expression"]),
                dice=tuple(int(face) for face in data["dice"]),
                kept=tuple(int(face) for face in data["kept"]),
                dropped=tuple(int(face) for face in data["dropped"]),
                modifier=int(data["modifier"]),
                total=int(data["total"]),
                target=None if data["target"] is None else int(data["target"]),
                target_kind=data["target_kind"],
                outcome=None if data["outcome"] is None else str(data["outcome"]),
                source=data["source"],
                advantage=Advantage(data["advantage"]),
                secret=bool(data.get("secret", False)),
            )
        except DiceError:
            raise
        except (KeyError, TypeError, ValueError) as exc:
            raise DiceError(f"bad roll record {dict(data)!r}: {exc!r}") from None


@dataclass(frozen=True)
class RollRequest:
    """What the GM hook is asked for: `count` faces of a d`sides`, for `purpose`."""

    purpose: str
    sides: int
    count: int


GmHook = Callable[[RollRequest], Sequence[int] | None]


@dataclass(frozen=True)
class _Faces:
    values: tuple[int, ...]
    source: Source


class Roller:
    """Every die of a battle: seeded machine rolls or faces the GM entered, all logged (P-CHK-4)."""

    def __init__(
        self,
        seed: int | None = None,
        *,
        gm_hook: GmHook | None = None,
        on_roll: Callable[[RollRecord], None] | None = None,
    ) -> None:
        self._gen = Random(seed)
        self._supplied: deque[int] = deque()
        self.gm_hook = gm_hook
        self.on_roll = on_roll
        self.log: list[RollRecord] = []

    def supply(self, *faces: int) -> None:
        """Queue physical faces for the next dice rolled, one face per die (P-CHK-4)."""
        for face in faces:
            if isinstance(face, bool) or not isinstance(face, int) or face < 1:
                raise DiceError(f"supplied die face {face!r} is not a positive whole number")
        self._supplied.extend(faces)

    @property
    def supplied(self) -> tuple[int, ...]:
        """Faces queued by `supply` and not used yet."""
        return tuple(self._supplied)

    def die(self, sides: int, purpose: str = "") -> int:
        """One face of a d`sides`, logged like any roll."""
        return self.roll(DiceExpr(1, sides), purpose).total

    def roll(self, expr: str | DiceExpr, purpose: str = "", *, secret: bool = False) -> RollRecord:
        parsed = expr if isinstance(expr, DiceExpr) else DiceExpr.parse(expr)
        faces = self._faces(purpose, parsed.sides, parsed.count)
        return self._publish(
            RollRecord(
                purpose=purpose,
                expression=str(parsed),
                dice=faces.values,
                kept=faces.values,
                dropped=(),
                modifier=parsed.modifier,
                total=sum(faces.values) + parsed.modifier,
                target=None,
                target_kind=None,
                outcome=None,
                source=faces.source,
                advantage=Advantage.NONE,
                secret=secret,
            )
        )

    def d20(
        self,
        purpose: str,
        bonus: int = 0,
        advantage: Advantage = Advantage.NONE,
        dc: int | None = None,
        *,
        secret: bool = False,
    ) -> RollRecord:
        """d20 + bonus; with a DC, success when the total meets or beats it (P-CHK-1)."""
        faces, kept, dropped = self._keep_best(purpose, 20, advantage, higher_is_better=True)
        total = kept + bonus
        outcome = None if dc is None else ("success" if total >= dc else "failure")
        return self._publish(
            RollRecord(
                purpose=purpose,
                expression=str(DiceExpr(1, 20, bonus)),
                dice=faces.values,
                kept=(kept,),
                dropped=dropped,
                modifier=bonus,
                total=total,
                target=dc,
                target_kind=None if dc is None else "dc",
                outcome=outcome,
                source=faces.source,
                advantage=advantage,
                secret=secret,
            )
        )

    def d100(
        self,
        purpose: str,
        advantage: Advantage = Advantage.NONE,
        p: int | None = None,
        *,
        secret: bool = False,
    ) -> RollRecord:
        """d100 to-hit; lower is better (P-CHK-2). Against P: hit iff roll ≤ P (P-HIT-1)."""
        if p is not None and not 0 <= p <= 100:
            raise DiceError(f"hit chance {p} for {purpose!r} is outside 0..100")
        faces, kept, dropped = self._keep_best(purpose, 100, advantage, higher_is_better=False)
        outcome = None
        if p is not None:
            # P-HIT-1: a 1 always hits, a 100 always misses
            outcome = "hit" if kept == 1 or (kept != 100 and kept <= p) else "miss"
        return self._publish(
            RollRecord(
                purpose=purpose,
                expression="d100",
                dice=faces.values,
                kept=(kept,),
                dropped=dropped,
                modifier=0,
                total=kept,
                target=p,
                target_kind=None if p is None else "p",
                outcome=outcome,
                source=faces.source,
                advantage=advantage,
                secret=secret,
            )
        )

    def getstate(self) -> dict[str, Any]:
        """The generator's state, JSON-safe, for the battle journal (queued faces not included)."""
        version, internal, gauss_next = self._gen.getstate()
        return {"version": version, "internal": list(internal), "gauss_next": gauss_next}

    def setstate(self, state: Mapping[str, Any]) -> None:
        try:
            self._gen.setstate((state["version"], tuple(state["internal"]), state["gauss_next"]))
        except (KeyError, TypeError, ValueError) as exc:
            raise DiceError(f"bad roller state: {exc!r}") from None

    def _keep_best(
        self, purpose: str, sides: int, advantage: Advantage, *, higher_is_better: bool
    ) -> tuple[_Faces, int, tuple[int, ...]]:
        """Roll one die, or two under (dis)advantage keeping the better (worse) one (P-CHK-2)."""
        faces = self._faces(purpose, sides, 1 if advantage is Advantage.NONE else 2)
        if len(faces.values) == 1:
            return faces, faces.values[0], ()
        first, second = faces.values
        wants_higher = (advantage is Advantage.ADVANTAGE) == higher_is_better
        kept = max(first, second) if wants_higher else min(first, second)
        return faces, kept, (second if kept == first else first,)

    def _faces(self, purpose: str, sides: int, count: int) -> _Faces:
        """Queued GM faces first, then the GM hook, then the machine (P-CHK-4)."""
        values: list[int] = []
        while self._supplied and len(values) < count:
            try:
                face = _check_face(self._supplied.popleft(), sides, "supplied", purpose)
            except DiceError:
                # faces entered for another roll must not leak into a later one
                self._supplied.clear()
                raise
            values.append(face)
        from_gm = bool(values)
        missing = count - len(values)
        if missing and self.gm_hook is not None:
            answer = self.gm_hook(RollRequest(purpose, sides, missing))
            if answer is not None:
                if len(answer) != missing:
                    raise DiceError(
                        f"GM entered {len(answer)} faces for {purpose!r}, {missing} d{sides} needed"
                    )
                values.extend(_check_face(face, sides, "GM", purpose) for face in answer)
                from_gm = True
                missing = 0
        values.extend(self._gen.randint(1, sides) for _ in range(missing))
        return _Faces(tuple(values), "gm" if from_gm else "random")

    def _publish(self, record: RollRecord) -> RollRecord:
        self.log.append(record)
        if self.on_roll is not None:
            self.on_roll(record)
        return record


def _check_face(face: int, sides: int, who: str, purpose: str) -> int:
    if isinstance(face, bool) or not isinstance(face, int) or not 1 <= face <= sides:
        raise DiceError(
            f"{who} face {face!r} is not a d{sides} result (1..{sides}) for {purpose!r}"
        )
    return face
