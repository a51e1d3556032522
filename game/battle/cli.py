"""`tessera run` (a battle played headless over JSON lines) and `tessera replay` (its end)."""

from __future__ import annotations

import json
import sys
from collections import Counter
from pathlib import Path
from typing import Any, TextIO

from game.battle import commands as cmd
from game.battle.engine import GM, Outcome
from game.battle.journal import JournalError
from game.battle.session import Session
from game.battle.setup import setup_from_map
from game.battle.view import player_view
from game.maps import MapError, load_map

#: The seed of a battle started without --seed: fixed, so that two runs of the same input agree.
DEFAULT_SEED = 1


def _out(stream: TextIO, data: dict[str, Any]) -> None:
    stream.write(json.dumps(data, ensure_ascii=False) + "\n")
    stream.flush()


def _events(stream: TextIO, by: str, outcome: Outcome) -> None:
    if outcome.refusal is not None:
        _out(stream, {"by": by, **outcome.refusal.to_json()})
        return
    for event in outcome.events:
        audience = None if event.audience is None else sorted(event.audience)
        _out(stream, {**event.to_json(), "audience": audience})


def open_session(
    map_path: str, journal: str, computer: list[str], seed: int | None, gm: bool
) -> Session:
    """Continue the battle in `journal` if it has one, else start one on `map_path`."""
    path = Path(journal)
    if path.exists() and path.stat().st_size > 0:
        session = Session.open(path)
        wanted = Path(map_path).resolve()
        if Path(session.setup.map_path).resolve() != wanted:
            raise JournalError(
                f"{journal}: this journal is a battle on {session.setup.map_path}, not {map_path}"
            )
        return session
    try:
        loaded = load_map(Path(map_path))
    except MapError as exc:
        raise JournalError(str(exc)) from None
    factions = sorted({u.faction for u in loaded.units})
    unknown = [f for f in computer if f not in factions]
    if unknown:
        raise JournalError(
            f"--computer {unknown[0]}: no such faction on {map_path}"
            f" (factions: {', '.join(factions)})"
        )
    setup = setup_from_map(
        loaded, seed=DEFAULT_SEED if seed is None else seed, computer=tuple(computer), gm=gm
    )
    return Session.new(setup, path)


def run_battle(
    map_path: str,
    journal: str,
    *,
    computer: list[str],
    seed: int | None = None,
    gm: bool = False,
    stdin: TextIO | None = None,
    stdout: TextIO | None = None,
) -> int:
    """Play headless: one JSON command per input line, events out as JSON lines.

    A line is a command (`{"cmd": "move", "unit": "ada", "to": [3, 4, 0]}`) with an optional
    `"by"` (a player's name or "gm"; by default the GM for GM commands and the unit's player
    otherwise), or one of `{"cmd": "undo"}`, `{"cmd": "redo"}`, `{"cmd": "view", "by": P}`,
    `{"cmd": "state"}`, `{"cmd": "override", "faces": [...]}` (the GM's dice for the last
    command, given again). The computer plays its factions' turns between commands.
    """
    inp = stdin or sys.stdin
    out = stdout or sys.stdout
    try:
        session = open_session(map_path, journal, computer, seed, gm)
    except (JournalError, OSError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    try:
        for notice in session.notices:
            _out(out, {"notice": notice})
        _out(out, {"event": "battle", "journal": journal, **_summary(session)})
        if not session.history:
            for event in session.battle.log:
                _events(out, GM, Outcome((event,)))
        session.play_computer(lambda by, c, o: _events(out, by, o))
        for number, line in enumerate(inp, start=1):
            if not line.strip():
                continue
            _handle(session, out, line, number)
            session.play_computer(lambda by, c, o: _events(out, by, o))
        _out(out, {"event": "end", **_summary(session)})
    finally:
        session.close()
    return 0


def _handle(session: Session, out: TextIO, line: str, number: int) -> None:
    try:
        data = json.loads(line)
    except json.JSONDecodeError as exc:
        _out(out, {"error": f"input line {number}: bad JSON: {exc.msg}"})
        return
    if not isinstance(data, dict):
        _out(out, {"error": f"input line {number}: expected a JSON object"})
        return
    kind = data.get("cmd")
    by = data.get("by")
    if by is not None and not isinstance(by, str):
        _out(out, {"error": f"input line {number}: 'by' must be a player's name or \"gm\""})
        return
    if kind in ("undo", "redo"):
        who = by or GM
        refusal = session.undo(who) if kind == "undo" else session.redo(who)
        if refusal is not None:
            _out(out, {"by": who, **refusal.to_json()})
        else:
            _out(out, {"event": kind, "by": who, **_summary(session)})
        return
    if kind == "override":
        faces = data.get("faces")
        if not isinstance(faces, list) or not all(
            isinstance(f, int) and not isinstance(f, bool) and 1 <= f <= 1000 for f in faces
        ):
            _out(out, {"error": f"input line {number}: 'faces' must be a list of die faces"})
            return
        _events(out, by or GM, session.override(tuple(faces), by or GM))
        return
    if kind == "state":
        _out(out, {"event": "state", **_summary(session)})
        return
    if kind == "view":
        _out(out, {"event": "view", "view": player_view(session.battle, by or GM)})
        return
    try:
        command = cmd.parse_command(data, f"input line {number}")
    except cmd.CommandError as exc:
        _out(out, {"error": str(exc)})
        return
    who = by or _default_actor(session, command)
    _events(out, who, session.submit(command, who))


def _default_actor(session: Session, command: cmd.Command) -> str:
    unit = getattr(command, "unit", None)
    if command.GM or not isinstance(unit, str) or unit not in session.battle.world:
        return GM
    return session.battle.controller_of(session.battle.faction_of(unit))


def _summary(session: Session) -> dict[str, Any]:
    b = session.battle
    return {
        "round": b.round,
        "active": b.active,
        "over": b.over,
        "winner": b.winner,
        "commands": len(session.history),
        "state_hash": b.state_hash(),
    }


def replay_journal(path: str, stdout: TextIO | None = None) -> int:
    """Rebuild a battle from its journal; print its final state hash and a readable summary."""
    out = stdout or sys.stdout
    try:
        session = Session.open(Path(path), for_append=False)
    except (JournalError, OSError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    try:
        b = session.battle
        for notice in session.notices:
            print(f"note: {notice}", file=out)
        print(f"state hash: {b.state_hash()}", file=out)
        print(f"map: {session.setup.map_path}", file=out)
        print(f"commands: {len(session.history)}; round {b.round}", file=out)
        if b.over:
            print(f"combat over; winner: {b.winner or 'none'}", file=out)
        else:
            print(f"acting: {b.active}", file=out)
        for faction in session.setup.factions:
            states = Counter(
                _condition(session, u) for u in b.world.unit_ids if b.faction_of(u) == faction
            )
            text = ", ".join(f"{n} {state}" for state, n in sorted(states.items()))
            print(f"  {faction}: {text}", file=out)
    finally:
        session.close()
    return 0


def _condition(session: Session, unit: str) -> str:
    b = session.battle
    if not b.on_map(unit):
        from game.ecs.components import Fallen

        return "dead" if b.world.has(unit, Fallen) else "waiting"
    health = b.sheet(unit).health
    for state in ("out_of_combat", "dead"):
        if health.has(state):
            return state.replace("_", " ")
    if health.mortal:
        return "dying"
    if health.grave or health.light:
        return "wounded"
    return "fit"
