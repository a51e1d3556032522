"""`tessera bench`, each playable ruleset's goals (issue 15): the hover preview, a computer turn.

Every ruleset the registry can play a battle with (`playable_ids`) plays a shipped map with the
map's own units, the computer on every side: the keep (`keep_gate`) for the fantasy and Myst
rulesets, whose sample sheets are swords and bows, the station (`station_interior`) for the
others, whose sheets are guns (docs/performance.md, "Each ruleset"). At the start of each turn
the acting unit hovers every enemy its side sees, through the very call the window makes
(`game.battle.preview.attack`: the line of sight, then the ruleset object's `attack` with the
breakdown as modifiers, `worded=False`), after the side's known field is built (the window has
built it for the reach); then the computer plays the turn. Medians against the goals; the 95th
percentile, and the hover with the breakdown in words as the window's panel writes it
(`explain`), for information.
"""

from __future__ import annotations

import statistics
import time
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np

from game.battle import preview
from game.battle.session import Session
from game.battle.setup import setup_from_map
from game.bench.grid import Goal
from game.maps import load_map
from game.tactics.answers import HitAnswer
from game.tactics.ruleset import playable_ids
from game.text import explain

#: The shipped maps, in the repository's maps/ folder.
MAPS = Path(__file__).resolve().parents[2] / "maps"
#: The map each ruleset plays on: the keep for the sword-and-bow rulesets, else the station.
MAP_OF = {"fantasy": "keep_gate", "myst": "keep_gate"}
DEFAULT_MAP = "station_interior"
#: The issue's goals: hovering an enemy (the preview of sight, cover and chance) and the turn.
HOVER_GOAL = 100e-6
TURN_GOAL = 0.1
#: Commands the computer gives per ruleset (a full run; a quick one gives QUICK_COMMANDS).
COMMANDS = 300
QUICK_COMMANDS = 30
SEED = 1


def map_of(ruleset: str) -> str:
    return MAP_OF.get(ruleset, DEFAULT_MAP)


def goals() -> tuple[Goal, ...]:
    """Five rows per playable ruleset: the hover (median: goal; p95; with words) and the turn
    (median: goal; p95)."""
    rows: list[Goal] = []
    for ruleset in playable_ids():
        where = f"{ruleset} on {map_of(ruleset).split('_')[0]}"
        rows += [
            Goal(f"hover_{ruleset}", f"{where}: hover an enemy (preview)", HOVER_GOAL),
            Goal(f"hover_{ruleset}_p95", f"{where}: the same", None, stat="p95"),
            Goal(f"hover_words_{ruleset}", f"{where}: the same + words", None),
            Goal(f"turn_{ruleset}", f"{where}: a computer's whole turn", TURN_GOAL),
            Goal(f"turn_{ruleset}_p95", f"{where}: the same", None, stat="p95"),
        ]
    return tuple(rows)


@dataclass
class RulesetRun:
    """Seconds of each hover (without and with the words) and of each whole turn."""

    hovers: list[float]
    worded: list[float]
    turns: list[float]


def breakdown_words(shot: preview.AttackPreview) -> list[str]:
    """The chance's breakdown in words as the window's panel writes it (game/ui/aim.py)."""
    answer = shot.answer
    if isinstance(answer, HitAnswer):
        return explain.hit_lines(answer.hit) if answer.hit is not None else list(answer.why)
    return explain.attack_lines(shot.attack)


def play_ruleset(ruleset: str, commands: int, seed: int = SEED) -> RulesetRun:
    """The computer plays `ruleset` on its map for up to `commands` commands (or to the end),
    each turn timed whole; each turn's acting unit hovers the enemies its side sees first."""
    loaded = load_map(MAPS / f"{map_of(ruleset)}.tmx")
    factions = tuple(sorted({u.faction for u in loaded.units}))
    setup = replace(setup_from_map(loaded, seed=seed, computer=factions), ruleset=ruleset)
    session = Session.new(setup, None)
    run = RulesetRun([], [], [])
    try:
        b = session.battle
        given = 0
        while given < commands and not b.over and b.active is not None:
            unit = b.active
            hover(session, unit, run)
            start = time.perf_counter()
            while given < commands and not b.over and b.active == unit:
                gave = session.play_computer(limit=1)
                if not gave:
                    raise AssertionError("the computer gave no command on its own turn")
                given += gave
            if b.active != unit or b.over:
                run.turns.append(time.perf_counter() - start)
    finally:
        session.close()
    return run


def hover(session: Session, unit: str, into: RulesetRun) -> None:
    """`unit`'s player hovers each enemy its side sees, as the window asks."""
    b = session.battle
    me = b.sheet(unit)
    player = b.controller_of(me.faction)
    known = b.known_field(me.faction)  # the window built it for the reach already
    enemies = sorted(e.id for e in known.entities if e.faction != me.faction and not e.neutral)
    for enemy in enemies:
        start = time.perf_counter()
        shot = preview.attack(b, player, unit, enemy)
        middle = time.perf_counter()
        if shot is None:
            continue
        breakdown_words(shot)
        end = time.perf_counter()
        into.hovers.append(middle - start)
        into.worded.append(end - start)


def measure_rulesets(quick: bool = False, commands: int | None = None) -> dict[str, float]:
    """Each ruleset goal's figure (median or p95 seconds, as its goal says); `commands` per
    ruleset, else as many as a full or quick run gives."""
    if commands is None:
        commands = QUICK_COMMANDS if quick else COMMANDS
    figures: dict[str, float] = {}
    for ruleset in playable_ids():
        run = play_ruleset(ruleset, commands)
        # A short run may see no enemy at all: its hover rows are then missing (not timed).
        if run.hovers:
            figures[f"hover_{ruleset}"] = statistics.median(run.hovers)
            figures[f"hover_{ruleset}_p95"] = float(np.percentile(run.hovers, 95))
            figures[f"hover_words_{ruleset}"] = statistics.median(run.worded)
        figures[f"turn_{ruleset}"] = statistics.median(run.turns)
        figures[f"turn_{ruleset}_p95"] = float(np.percentile(run.turns, 95))
    return figures
