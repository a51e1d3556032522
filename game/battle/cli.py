"""`tessera run` (a battle played headless over JSON lines) and `tessera replay` (its end)."""

from __future__ import annotations

import json
import sys
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, TextIO

from game.battle import commands as cmd
from game.battle import map_lookup
from game.battle.engine import GM, Outcome, Refusal
from game.battle.journal import JournalError, read_journal
from game.battle.session import Session
from game.battle.setup import BattleSetup, setup_from_map, with_ruleset
from game.battle.view import player_view
from game.maps import MapError, load_map

#: The seed of a battle started without --seed: fixed, so that two runs of the same input agree.
DEFAULT_SEED = 1
#: The computer's commands between two looks at whether the rounds still move on.
COMPUTER_BATCH = 500


@dataclass
class Answers:
    """Where `tessera run` writes, and the input line it is answering: every line it writes
    carries `"line"`, that line's number (null before the first input line and at the end)."""

    stream: TextIO
    line: int | None = None


def _out(out: Answers, data: dict[str, Any]) -> None:
    out.stream.write(json.dumps({**data, "line": out.line}, ensure_ascii=False) + "\n")
    out.stream.flush()


def _refused(by: str, refusal: Refusal) -> dict[str, Any]:
    """A refusal: its code and values for programs, and the sentence a player reads."""
    from game.text.explain_battle import refusal_text

    return {"by": by, **refusal.to_json(), "text": refusal_text(refusal)}


def _events(stream: Answers, session: Session, by: str, outcome: Outcome) -> None:
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
    map_path: str,
    journal: str,
    computer: list[str],
    seed: int | None,
    gm: bool,
    initiative_dice: Mapping[str, int] | None = None,
    ruleset: str | None = None,
) -> Session:
    """Continue the battle in `journal` if it has one, else start one on `map_path`.

    A battle continued keeps its seed, its GM, its ruleset and its opening initiative dice;
    `--computer` on one hands those factions to the computer (see `hand_to_computer`).
    `ruleset` (`--ruleset`) plays a new battle under it instead of the map's `ruleset`
    property. Bad input raises JournalError naming the file (or the option)."""
    path = Path(journal)
    if path.exists() and (not path.is_file() or path.stat().st_size > 0):
        setup = read_journal(path).setup
        if ruleset is not None and ruleset != setup.ruleset:
            raise JournalError(
                f"{journal}: the battle was begun under the ruleset {setup.ruleset!r}; "
                f"--ruleset {ruleset} cannot change it"
            )
        if initiative_dice and _dice_in_order(setup, initiative_dice) != setup.initiative_dice:
            raise JournalError(
                f"{journal}: the battle has begun and its initiative is rolled; "
                "--initiative-dice cannot change it"
            )
        same_file = Path(setup.map_path).resolve() == Path(map_path).resolve()
        if not same_file and map_lookup.digest(Path(map_path)) != setup.map_sha256:
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
    try:
        setup = with_ruleset(setup, ruleset)
    except ValueError as exc:
        raise JournalError(str(exc)) from None
    if initiative_dice:
        faces = _dice_in_order(setup, initiative_dice, map_path)
        setup = replace(setup, initiative_dice=faces)
    return Session.new(setup, path)


def parse_initiative_dice(values: Sequence[str]) -> dict[str, int]:
    """`--initiative-dice UNIT=N,UNIT=N` (the option may be given more than once): the d20 the
    GM rolled for each unit's opening initiative (P-CHK-4). Raises JournalError naming the
    entry that is not a unit's name, `=` and a face from 1 to 20, or that names a unit twice."""
    faces: dict[str, int] = {}
    for value in values:
        for entry in value.split(","):
            unit, equals, face = (part.strip() for part in entry.partition("="))
            if not unit or not equals:
                raise JournalError(f"--initiative-dice {entry.strip()!r}: expected UNIT=N")
            if not face.isdigit() or not 1 <= int(face) <= 20:
                raise JournalError(
                    f"--initiative-dice {unit}={face}: a d20 shows a whole number from 1 to 20"
                )
            if unit in faces:
                raise JournalError(f"--initiative-dice {unit}: given twice")
            faces[unit] = int(face)
    return faces


def _dice_in_order(
    setup: BattleSetup, faces: Mapping[str, int], where: str | None = None
) -> tuple[int, ...]:
    """The faces in the order the battle rolls them: every unit that starts the battle (not
    arriving later, not outside the combat), in the map's listing order. Each must have one;
    a unit of the map that does not roll now, or no unit of it, is named (with `where`)."""
    starting = [u.id for u in setup.units if (u.arrives_round or 1) <= 1 and not u.outside_combat]
    place = where or setup.map_path
    for unit in faces:
        spec = next((u for u in setup.units if u.id == unit), None)
        if spec is None:
            raise JournalError(
                f"--initiative-dice {unit}: no such unit in {place}"
                f" (units that roll as the battle begins: {', '.join(starting)})"
            )
        if unit not in starting:
            when = (
                f"it arrives in round {spec.arrives_round}"
                if spec.arrives_round
                else "it is outside the combat until another side sees it"
            )
            raise JournalError(
                f"--initiative-dice {unit}: {unit} does not roll as the battle begins ({when})"
            )
    missing = [u for u in starting if u not in faces]
    if missing:
        raise JournalError(
            f"--initiative-dice: no die for {', '.join(missing)} in {place}"
            " (give one for every unit that rolls as the battle begins)"
        )
    return tuple(faces[u] for u in starting)


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
    initiative_dice: Sequence[str] = (),
    ruleset: str | None = None,
    stdin: TextIO | None = None,
    stdout: TextIO | None = None,
) -> int:
    """Play headless: one JSON command per input line, events out as JSON lines.

    A line is a command (`{"cmd": "move", "unit": "ada", "to": [3, 4, 0]}`) with an optional
    `"by"` (a player's name or "gm"; by default the GM for GM commands and the unit's player
    otherwise), or one of `{"cmd": "undo"}`, `{"cmd": "redo"}`, `{"cmd": "view", "by": P}`,
    `{"cmd": "state"}`, `{"cmd": "override", "faces": [...]}` (the GM's dice for the last
    command, given again). The computer plays its factions' turns between commands.
    `initiative_dice` are `--initiative-dice` values (`parse_initiative_dice`). Every line
    written carries `"line"`: the number of the input line it answers.
    """
    out = Answers(stdout or sys.stdout)
    try:
        faces = parse_initiative_dice(initiative_dice)
        session = open_session(map_path, journal, computer, seed, gm, faces, ruleset)
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
                out.line = number
                _out(out, {"error": f"input line {number}: not UTF-8 text"})
                continue
            if not line.strip():
                continue
            out.line = number
            _handle(session, out, line, number)
            _computer(session, out)
        out.line = None
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


def _computer(session: Session, out: Answers) -> None:
    """The computer's turns, for as long as it has them. `play_computer` stops after a number
    of commands in case the computer loops; it is called again only while the rounds move on."""
    while True:
        before = session.battle.round
        given = session.play_computer(
            lambda by, c, o: _events(out, session, by, o), limit=COMPUTER_BATCH
        )
        if given < COMPUTER_BATCH or session.battle.round == before:
            return


def _handle(session: Session, out: Answers, line: str, number: int) -> None:
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
    """Rebuild a battle from its journal, every line from the start (each one's dice and
    state hash checked, every snapshot compared with the replay); print its final state hash
    and a readable summary."""
    out = stdout or sys.stdout
    try:
        session = Session.open(Path(path), for_append=False, verify=True)
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
