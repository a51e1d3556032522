"""`tessera run` (a battle played headless over JSON lines) and `tessera replay` (its end)."""

from __future__ import annotations

import json
import sys
from collections import Counter
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any, TextIO

from game.battle import commands as cmd
from game.battle.engine import GM, Outcome, Refusal
from game.battle.journal import JournalError, read_journal
from game.battle.session import Session
from game.battle.setup import setup_from_map
from game.battle.view import player_view
from game.maps import MapError, load_map

#: The seed of a battle started without --seed: fixed, so that two runs of the same input agree.
DEFAULT_SEED = 1
#: The computer's commands between two looks at whether the rounds still move on.
COMPUTER_BATCH = 500


def _out(stream: TextIO, data: dict[str, Any]) -> None:
    stream.write(json.dumps(data, ensure_ascii=False) + "\n")
    stream.flush()


def _refused(by: str, refusal: Refusal) -> dict[str, Any]:
    """A refusal: its code and values for programs, and the sentence a player reads."""
    from game.explain_battle import refusal_text

    return {"by": by, **refusal.to_json(), "text": refusal_text(refusal)}


def _events(stream: TextIO, session: Session, by: str, outcome: Outcome) -> None:
    """A refusal, or each event with `n` (the commands in effect once the command behind it was
    carried out: its journal line's `n`) and its audience (`null`: everybody; else the
    factions that may see it, `[]` for the GM alone), as the players' views filter them."""
    if outcome.refusal is not None:
        _out(stream, _refused(by, outcome.refusal))
        return
    factions = session.setup.factions
    for event in outcome.events:
        seen_by = [f for f in factions if event.visible_to(frozenset((f,)))]
        everyone = event.audience is None and len(seen_by) == len(factions)
        audience = None if everyone else seen_by
        _out(stream, {**event.to_json(), "n": len(session.history), "audience": audience})


def open_session(
    map_path: str, journal: str, computer: list[str], seed: int | None, gm: bool
) -> Session:
    """Continue the battle in `journal` if it has one, else start one on `map_path`.

    A battle continued keeps its seed and its GM; `--computer` on one hands those factions to
    the computer (see `hand_to_computer`). Bad input raises JournalError naming the file."""
    path = Path(journal)
    if path.exists() and (not path.is_file() or path.stat().st_size > 0):
        setup = read_journal(path).setup
        if Path(setup.map_path).resolve() != Path(map_path).resolve():
            raise JournalError(
                f"{journal}: this journal is a battle on {setup.map_path}, not {map_path}"
            )
        _check_factions(computer, setup.factions, journal)
        if seed is not None and seed != setup.seed:
            raise JournalError(
                f"{journal}: the battle was begun with seed {setup.seed}; "
                f"--seed {seed} cannot change it"
            )
        if gm and not setup.gm:
            raise JournalError(f"{journal}: the battle was begun without a GM; --gm cannot add one")
        return Session.open(path)
    try:
        loaded = load_map(Path(map_path))
    except MapError as exc:
        raise JournalError(" ".join(str(exc).split())) from None
    _check_factions(computer, sorted({u.faction for u in loaded.units}), map_path)
    setup = setup_from_map(
        loaded, seed=DEFAULT_SEED if seed is None else seed, computer=tuple(set(computer)), gm=gm
    )
    return Session.new(setup, path)


def _check_factions(computer: Iterable[str], factions: Iterable[str], where: str) -> None:
    known = list(factions)
    unknown = [f for f in computer if f not in known]
    if unknown:
        raise JournalError(
            f"--computer {unknown[0]}: no such faction in {where} (factions: {', '.join(known)})"
        )


def hand_to_computer(session: Session, computer: Iterable[str]) -> Iterator[Outcome]:
    """A continued battle whose journal gives a faction named by `--computer` to someone else:
    the GM hands it over, with a journaled `controller` command (as at the table)."""
    for faction in sorted(set(computer)):
        if session.battle.controller_of(faction) != "computer":
            yield session.submit(cmd.SetController(faction, "computer"), GM)


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
                _events(out, session, GM, Outcome((event,)))
        for outcome in hand_to_computer(session, computer):
            _events(out, session, GM, outcome)
        _computer(session, out)
        for number, line in _input_lines(stdin):
            if line is None:
                _out(out, {"error": f"input line {number}: not UTF-8 text"})
                continue
            if not line.strip():
                continue
            _handle(session, out, line, number)
            _computer(session, out)
        _out(out, {"event": "end", **_summary(session)})
    except JournalError as exc:  # a full disk: the battle is saved up to a command, it says
        print(f"error: {exc}", file=sys.stderr)
        return 1
    finally:
        session.close()
    return 0


def _input_lines(stdin: TextIO | None) -> Iterator[tuple[int, str | None]]:
    """Numbered input lines; None for one that is not UTF-8 (read as bytes from standard input,
    so that a stray byte is that line's error, whatever the locale)."""
    raw_lines = getattr(sys.stdin, "buffer", None) if stdin is None else None
    if raw_lines is None:  # a text stream given (or standing in for standard input)
        yield from enumerate(stdin or sys.stdin, start=1)
        return
    for number, raw in enumerate(raw_lines, start=1):
        try:
            yield number, raw.decode("utf-8")
        except UnicodeDecodeError:
            yield number, None


def _computer(session: Session, out: TextIO) -> None:
    """The computer's turns, for as long as it has them. `play_computer` stops after a number
    of commands in case the computer loops; it is called again only while the rounds move on."""
    while True:
        before = session.battle.round
        given = session.play_computer(
            lambda by, c, o: _events(out, session, by, o), limit=COMPUTER_BATCH
        )
        if given < COMPUTER_BATCH or session.battle.round == before:
            return


def _handle(session: Session, out: TextIO, line: str, number: int) -> None:
    where = f"input line {number}"
    try:
        data = json.loads(line)
    except json.JSONDecodeError as exc:
        _out(out, {"error": f"{where}: bad JSON: {exc.msg} (column {exc.colno})"})
        return
    except RecursionError:
        _out(out, {"error": f"{where}: bad JSON: nested too deeply"})
        return
    except ValueError as exc:  # a number with thousands of digits
        _out(out, {"error": f"{where}: bad JSON: {str(exc).split(';')[0]}"})
        return
    try:
        json.dumps(data, ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError as exc:  # "\\ud800": half of a UTF-16 pair, not a character
        bad = exc.object[exc.start : exc.end].encode("unicode_escape").decode("ascii")
        _out(out, {"error": f"{where}: bad JSON: {bad} is not a character (a lone surrogate)"})
        return
    if not isinstance(data, dict):
        _out(out, {"error": f"{where}: expected a JSON object"})
        return
    kind = data.get("cmd")
    by = data.get("by")
    if by is not None and (not isinstance(by, str) or not by):
        _out(out, {"error": f'{where}: field by: expected a player\'s name or "gm"'})
        return
    if kind in ("undo", "redo"):
        who = by or GM
        refusal = session.undo(who) if kind == "undo" else session.redo(who)
        if refusal is not None:
            _out(out, _refused(who, refusal))
        else:
            _out(out, {"event": kind, "by": who, **_summary(session)})
        return
    if kind == "override":
        faces = data.get("faces")
        if not isinstance(faces, list) or not all(
            isinstance(f, int) and not isinstance(f, bool) and 1 <= f <= 1000 for f in faces
        ):
            _out(out, {"error": f"{where}: field faces: expected a list of die faces (1 to 1000)"})
            return
        who = by or GM
        _events(out, session, who, session.override(tuple(faces), who))
        return
    if kind == "state":
        _out(out, {"event": "state", **_summary(session)})
        return
    if kind == "view":
        who = by or GM
        players = _players(session)
        if who not in players:
            _out(
                out,
                {
                    "error": f"{where}: field by: no player {who!r} in this battle"
                    f" (players: {', '.join(players)})"
                },
            )
            return
        session.seen_by(who)  # headless, asking for a player's view is taking the screen
        _out(out, {"event": "view", "view": player_view(session.battle, who)})
        return
    try:
        command = cmd.parse_command(data, f"{where}: command")
    except cmd.CommandError as exc:
        _out(out, {"error": str(exc)})
        return
    who = by or _default_actor(session, command)
    _events(out, session, who, session.submit(command, who))


def _players(session: Session) -> list[str]:
    """Who may ask for a view: the GM and whoever commands a faction now."""
    b = session.battle
    sides = {b.controller_of(f) for f in session.setup.factions}
    return [GM, *sorted(sides | set(b.players()))]


def _default_actor(session: Session, command: cmd.Command) -> str:
    unit = getattr(command, "unit", None)
    if command.GM or not isinstance(unit, str) or unit not in session.battle.world:
        return GM
    return session.battle.controller_of_unit(unit)


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
