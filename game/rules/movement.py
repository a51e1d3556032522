"""Movement speeds and the turn's movement allowance (P-MOV-1/2/5/6/7, P-ZERO-1/2, P-VUL-3)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Final

from game.rules.jump import microgravity_jump_speed
from game.rules.notes import Note
from game.rules.stance import Stance

MODES: Final = ("walk", "crawl", "swim", "climb", "jump", "thrusters")

# P-MOV-2 (jump at 0.2 g; thrusters only if fitted)
HUMAN_SPEEDS: Final[Mapping[str, int]] = {
    "walk": 5,
    "crawl": 5,
    "swim": 5,
    "climb": 5,
    "jump": 4,
    "thrusters": 5,
}

STANDING_MODES: Final = ("walk", "swim", "climb", "jump")
PRONE_MODES: Final = ("crawl",)


@dataclass(frozen=True)
class Speeds:
    """An entity's speed in cells per turn for each movement mode (P-MOV-1).

    `thrusters` is the speed thrusters would give; None means the entity cannot use them.
    """

    walk: int = HUMAN_SPEEDS["walk"]
    crawl: int = HUMAN_SPEEDS["crawl"]
    swim: int = HUMAN_SPEEDS["swim"]
    climb: int = HUMAN_SPEEDS["climb"]
    jump: int = HUMAN_SPEEDS["jump"]
    thrusters: int | None = HUMAN_SPEEDS["thrusters"]

    def __post_init__(self) -> None:
        for mode in MODES:
            value = getattr(self, mode)
            if not (mode == "thrusters" and value is None):
                _check_speed(mode, value, "Speeds")

    @classmethod
    def from_mapping(cls, m: Mapping[str, object], where: str) -> Speeds:
        """Speeds from data such as a TOML table; missing modes keep the human speed."""
        speeds: dict[str, int] = {}
        for key, value in m.items():
            if key not in MODES:
                raise ValueError(
                    f"{where}: unknown movement mode {key!r} (expected some of {', '.join(MODES)})"
                )
            speeds[key] = _check_speed(key, value, where)
        return cls(**speeds)

    def of(self, mode: str) -> int:
        """The speed of `mode`; asking for thrusters the entity cannot use is an error."""
        if mode not in MODES:
            raise ValueError(f"Speeds: unknown movement mode {mode!r}")
        value: int | None = getattr(self, mode)
        if value is None:
            raise ValueError(f"Speeds: this entity has no {mode} speed")
        return value


class SpeedStep(StrEnum):
    """What changed a speed, in P-MOV-7 order (BASE: the mode's own speed)."""

    BASE = "base"
    MORTAL_WOUND = "mortal_wound"
    CROUCHED = "crouched"
    GRAVE_WOUND = "grave_wound"
    STEALTH = "stealth"
    DASH = "dash"
    MICROGRAVITY_JUMP = "microgravity_jump"


class AllowanceNote(StrEnum):
    """The notes of a MoveAllowance's explanation."""

    #: values: mode; parts: one Note per SpeedStep with its `speed`.
    SPEED = "speed"
    PRONE = "prone"
    PRONE_IN_WATER = "prone_in_water"
    BLINDED = "blinded"
    BLINDED_HELPED = "blinded_helped"
    ADRIFT = "adrift"
    #: values: condition. The turn is skipped (P-VUL-3); game/tactics/answers.py adds it.
    TURN_LOST = "turn_lost"


def _check_speed(mode: str, value: object, where: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise ValueError(
            f"{where}: speed for {mode!r} must be a whole number of cells >= 0, got {value!r}"
        )
    return value


def _speed_steps(
    base: int, *, crouched: bool, grave_wound: bool, stealth: bool, dash: bool, mortal_wound: bool
) -> list[tuple[SpeedStep, int]]:
    """The speed after each modifier that applies, starting from (BASE, base)."""
    if base < 0:
        raise ValueError(f"effective_speed: base speed must be >= 0 cells, got {base}")
    steps = [(SpeedStep.BASE, base)]
    if mortal_wound:  # P-MOV-6
        steps.append((SpeedStep.MORTAL_WOUND, 0))
        return steps
    speed = base
    # P-MOV-7: each halving rounds down, in this order; dash doubles what is left (P-MOV-5).
    halvings = (
        (SpeedStep.CROUCHED, crouched),
        (SpeedStep.GRAVE_WOUND, grave_wound),
        (SpeedStep.STEALTH, stealth),
    )
    for step, applies in halvings:
        if applies:
            speed //= 2
            steps.append((step, speed))
    if dash:
        speed *= 2
        steps.append((SpeedStep.DASH, speed))
    return steps


def effective_speed(
    base: int, *, crouched: bool, grave_wound: bool, stealth: bool, dash: bool, mortal_wound: bool
) -> int:
    """P-MOV-7: a mode's speed after crouching, a grave wound, stealth, dash, a mortal wound."""
    return _speed_steps(
        base,
        crouched=crouched,
        grave_wound=grave_wound,
        stealth=stealth,
        dash=dash,
        mortal_wound=mortal_wound,
    )[-1][1]


@dataclass(frozen=True)
class MoveAllowance:
    """What an entity may move this turn.

    budgets: movement points per available mode (modes the entity cannot use are absent).
    crawling: every cell costs +1 (P-MOV-2).
    max_cells: at most this many cells entered this turn, whatever the budgets (P-VUL-3).
    drift: cells a turn an entity adrift in microgravity can move in any of the 26 directions
    without thrusters: 1 in pressurised space, else 0 (P-ZERO-2).
    explanation: each mode's speed step by step, then what else applies (AllowanceNote).
    """

    budgets: dict[str, int]
    crawling: bool
    max_cells: int | None
    drift: int
    rules: tuple[str, ...]
    explanation: tuple[Note, ...]


def allowance(
    speeds: Speeds,
    *,
    stance: Stance | str,
    grave_wound: bool,
    mortal_wound: bool,
    stealth: bool,
    dash: bool,
    blinded: bool,
    helped: bool = False,
    has_thrusters: bool,
    microgravity: bool,
    pressurised: bool,
) -> MoveAllowance:
    """This turn's movement allowance.

    Standing or crouched: walk, swim, climb, jump (and thrusters if fitted). Prone: crawl, and
    swim at crawl speed in water (P-MOV-2); any other mode needs a stance change first
    (P-TURN-2). Every speed takes the P-MOV-7 modifiers; in microgravity the jump budget is
    then doubled (P-ZERO-1).
    """
    stance = stance if isinstance(stance, Stance) else Stance.from_name(stance)
    if has_thrusters and speeds.thrusters is None:
        raise ValueError("allowance: thrusters fitted to an entity with no thrusters speed")
    prone = stance is Stance.PRONE
    crouched = stance is Stance.CROUCHED
    modes = PRONE_MODES if prone else STANDING_MODES
    if has_thrusters and not prone:
        modes = (*modes, "thrusters")

    budgets: dict[str, int] = {}
    explanation: list[Note] = []
    for mode in modes:
        steps = _speed_steps(
            speeds.of(mode),
            crouched=crouched,
            grave_wound=grave_wound,
            stealth=stealth,
            dash=dash,
            mortal_wound=mortal_wound,
        )
        if microgravity and mode == "jump":
            steps.append((SpeedStep.MICROGRAVITY_JUMP, microgravity_jump_speed(steps[-1][1])))
        budgets[mode] = steps[-1][1]
        chain = tuple(Note(step, {"speed": speed}) for step, speed in steps)
        explanation.append(Note(AllowanceNote.SPEED, {"mode": mode}, chain))

    rules = ["P-MOV-1"]
    if crouched or prone:
        rules.append("P-MOV-2")
    if dash:
        rules.append("P-MOV-5")
    if grave_wound or mortal_wound:
        rules.append("P-MOV-6")
    if crouched + grave_wound + stealth + dash >= 2:
        rules.append("P-MOV-7")
    if stealth:
        rules.append("P-STL-1")
    if prone:
        explanation.append(Note(AllowanceNote.PRONE))
        # P-MOV-2: swimming and crawling add up; in water a crawler swims at crawl speed.
        budgets["swim"] = budgets["crawl"]
        explanation.append(Note(AllowanceNote.PRONE_IN_WATER))

    max_cells: int | None = None
    if blinded:
        rules.append("P-VUL-3")
        if helped:
            explanation.append(Note(AllowanceNote.BLINDED_HELPED))
        else:
            max_cells = 1
            explanation.append(Note(AllowanceNote.BLINDED, {"max_cells": max_cells}))

    drift = 0
    if microgravity:
        if "jump" in budgets:
            rules.append("P-ZERO-1")
        if not has_thrusters and pressurised and not mortal_wound:
            drift = 1
            explanation.append(Note(AllowanceNote.ADRIFT, {"drift": drift}))
    if "thrusters" in budgets or drift:
        rules.append("P-ZERO-2")

    return MoveAllowance(
        budgets=budgets,
        crawling=prone,
        max_cells=max_cells,
        drift=drift,
        rules=tuple(rules),
        explanation=tuple(explanation),
    )


def remaining_after_switch(new_mode_speed: int, spent: int) -> int:
    """P-MOV-1: switching mode leaves the new mode's speed minus the points already spent."""
    if new_mode_speed < 0 or spent < 0:
        raise ValueError(
            f"remaining_after_switch: speed and spent points must be >= 0,"
            f" got {new_mode_speed} and {spent}"
        )
    return max(0, new_mode_speed - spent)
