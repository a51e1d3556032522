"""A player's undo takes back what only another side learned, while no player of it has looked,
and its refusal never tells them whether anybody learned anything (issue 13, hot-seat).

The duel: on a 20 × 12 field with a wall at x = 4 (y 2..6), red's ada stands at (2, 4) and
blue's bo, hidden from red (so red sees nothing of it), at (9, 4): the wall keeps bo from
seeing ada. Ada moving to (2, 9) walks past the wall's end into bo's sight (blue sights ada;
ada still sees nothing of bo); ada moving to (1, 4) stays behind the wall (nobody learns a
thing). Red acts first (initiative 15 against 5). The players are called as their factions.
"""

from __future__ import annotations

import io
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from game.battle import commands as cmd
from game.battle.cli import run_battle
from game.battle.engine import GM, Refusal
from game.battle.journal import read_journal
from game.battle.session import Session
from game.battle.setup import BattleSetup, UnitSpec
from game.battle.view import PlayerView, view_for
from game.ecs.components import Position
from game.rules.data import load_rules
from game.text.explain_battle import refusal_text
from game.text.i18n import speaking
from tests.battle.conftest import ascii_grid

WALLED = """
....................
....................
....#...............
....#...............
....#...............
....#...............
....#...............
....................
....................
....................
....................
....................
"""
SEEN_BY_BLUE = (2, 9, 0)  # past the wall's end: bo sees ada there
UNSEEN = (1, 4, 0)  # still behind the wall

STATION = Path(__file__).resolve().parents[2] / "maps" / "station_interior.tmx"


def _setup(*, bo_readied_first: bool = False) -> BattleSetup:
    ada = UnitSpec("ada", "red", (2, 4, 0), weapon="pistol")
    bo = UnitSpec("bo", "blue", (9, 4, 0), weapon="pistol", hidden=True)
    initiative = (5, 15) if bo_readied_first else (15, 5)
    return BattleSetup(
        map_path="<test>", map_sha256="", seed=7, units=(ada, bo), initiative_dice=initiative
    )


@pytest.fixture
def sessions() -> Iterator[list[Session]]:
    made: list[Session] = []
    yield made
    for session in made:
        session.close()


def _duel(made: list[Session], **kw: bool) -> Session:
    setup = _setup(**kw)
    session = Session(setup, ascii_grid(WALLED), load_rules(), None)
    made.append(session)
    return session


def _same_view(a: PlayerView, b: PlayerView) -> bool:
    return (
        [u.to_json() for u in a.units] == [u.to_json() for u in b.units]
        and a.ghosts == b.ghosts
        and a.order == b.order
        and [e.to_json() for e in a.log] == [e.to_json() for e in b.log]
        and np.array_equal(a.seen, b.seen)
        and np.array_equal(a.remembered, b.remembered)
        and a.active == b.active
    )


def _texts(refusal: Refusal | None) -> tuple[object, ...]:
    """Everything a refusal says: its code and values, and its sentence in each language."""
    if refusal is None:
        return (None,)
    with speaking("en"):
        english = refusal_text(refusal)
    with speaking("it"):
        italian = refusal_text(refusal)
    return (refusal.to_json(), english, italian)


def test_the_duel_is_what_the_tests_say(sessions: list[Session]) -> None:
    seen = _duel(sessions)
    outcome = seen.submit(cmd.Move("ada", SEEN_BY_BLUE), "red")
    assert outcome.accepted and outcome.sighted  # blue saw ada: today's rule made it final
    assert "ada" in seen.battle.vision.factions["blue"].units
    assert "bo" not in seen.battle.vision.factions["red"].units
    assert not [e for e in view_for(seen.battle, "red").log if e.kind == "sighted"]
    quiet = _duel(sessions)
    outcome = quiet.submit(cmd.Move("ada", UNSEEN), "red")
    assert outcome.accepted and not outcome.sighted and not outcome.rolls


def test_a_player_takes_back_a_move_only_the_enemy_saw_before_the_enemy_looks_and_the_enemy_keeps_no_trace(  # noqa: E501
    sessions: list[Session],
) -> None:
    session = _duel(sessions)
    blue_before = view_for(session.battle, "blue")
    red_before = view_for(session.battle, "red")
    state = session.battle.state_hash()
    assert session.submit(cmd.Move("ada", SEEN_BY_BLUE), "red").accepted
    assert any(e.kind == "sighted" for e in view_for(session.battle, "blue").log)

    assert session.undo("red") is None

    assert session.battle.state_hash() == state
    assert _same_view(view_for(session.battle, "blue"), blue_before)
    assert _same_view(view_for(session.battle, "red"), red_before)
    assert "ada" not in session.battle.vision.factions["blue"].units
    assert "ada" not in session.battle.vision.factions["blue"].last_known


def test_an_undo_is_answered_alike_whether_or_not_the_enemy_learned_anything(
    sessions: list[Session],
) -> None:
    """Four battles: the move seen by blue or not, blue having taken the screen since or not.
    What red is told depends only on whether blue had the screen (which red knows)."""
    answers: dict[tuple[bool, bool], tuple[object, ...]] = {}
    for seen in (True, False):
        for looked in (True, False):
            session = _duel(sessions)
            assert session.submit(cmd.Move("ada", SEEN_BY_BLUE if seen else UNSEEN), "red").accepted
            if looked:
                session.seen_by("blue")
            answers[seen, looked] = _texts(session.undo("red"))
    assert answers[True, False] == answers[False, False] == (None,)
    assert answers[True, True] == answers[False, True]
    refused = answers[True, True]
    assert refused[0] == {"refused": "undo_seen_by_another"}
    assert refused[1] == (
        "It cannot be undone: another player has had the screen since (only the GM may)."
    )
    # Nothing of what blue saw: neither the unit, nor the cell, nor that it saw anything.
    for text in refused[1:]:
        assert isinstance(text, str)
        assert not any(word in text for word in ("ada", "bo", "blue", "2, 9", "saw", "vist"))


def test_the_gm_and_the_player_themself_taking_the_screen_lock_nothing(
    sessions: list[Session],
) -> None:
    session = _duel(sessions)
    assert session.submit(cmd.Move("ada", SEEN_BY_BLUE), "red").accepted
    session.seen_by(GM)  # the referee sees every side and plays none
    session.seen_by("red")
    session.seen_by("computer")
    assert session.can_undo("red") is None
    assert session.undo("red") is None


def test_dice_the_player_saw_lock_their_undo_as_before_and_the_refusal_tells_nothing_more(
    sessions: list[Session],
) -> None:
    """Ada hides (P-STL-1: she rolls `precisione (furtività)` and reads the total). Whether
    blue has looked or not, she is told the same; the GM may still take it back."""
    answers = []
    for looked in (False, True):
        session = _duel(sessions)
        outcome = session.submit(cmd.Hide("ada"), "red")
        assert outcome.accepted and outcome.rolls
        assert any(e.rolls for e in view_for(session.battle, "red").log if e.kind == "hide")
        if looked:
            session.seen_by("blue")
        refusal = session.undo("red")
        assert refusal is not None and refusal.code == "undo_would_hide_what_was_seen"
        answers.append(_texts(refusal))
        assert session.undo(GM) is None
    assert answers[0] == answers[1]
    assert answers[0][1] == "It cannot be undone: it showed you something new (only the GM may)."


def test_a_ghost_gone_is_news_to_the_player_who_looked_at_its_cell(sessions: list[Session]) -> None:
    """Ada (2, 9) and bo (9, 9) see each other. Ada steps behind the wall to (2, 4): bo is a
    ghost at (9, 9) for red. Bo slips to (5, 4), behind the wall's other face; round 2, ada
    walks back to (2, 9) and sees (9, 9) empty without seeing bo: she learned that bo left."""
    ada = UnitSpec("ada", "red", (2, 9, 0), weapon="pistol")
    bo = UnitSpec("bo", "blue", (9, 9, 0), weapon="pistol")
    setup = BattleSetup(
        map_path="<test>", map_sha256="", seed=7, units=(ada, bo), initiative_dice=(15, 5)
    )
    session = Session(setup, ascii_grid(WALLED), load_rules(), None)
    sessions.append(session)
    for command, by in [
        (cmd.Move("ada", (2, 4, 0)), "red"),
        (cmd.EndTurn("ada"), "red"),
        (cmd.Move("bo", (5, 4, 0)), "blue"),
        (cmd.EndTurn("bo"), "blue"),
    ]:
        assert session.submit(command, by).accepted
    red = session.battle.vision.factions["red"]
    assert "bo" not in red.units and red.last_known == {"bo": (9, 9, 0)}
    outcome = session.submit(cmd.Move("ada", (2, 9, 0)), "red")
    assert outcome.accepted and not outcome.rolls and not outcome.sighted
    assert "bo" not in red.units and "bo" not in red.last_known
    refusal = session.undo("red")
    assert refusal is not None and refusal.code == "undo_would_hide_what_was_seen"


def test_a_reaction_offered_by_a_hidden_enemy_shows_the_mover_something_and_its_dice_are_the_enemys_command(  # noqa: E501
    sessions: list[Session],
) -> None:
    """Bo (hidden from red) readies a shot (P-OA-2) and ada walks into its sight: her move
    stops and she reads that a reaction was offered by `?`. That is news to her: the undo is
    refused with the same words as for dice. Bo's shot is blue's own command: its dice reach
    red's log (and shooting reveals bo to red), and red cannot take blue's command back."""
    session = _duel(sessions, bo_readied_first=True)
    assert session.battle.active == "bo"
    assert session.submit(cmd.Ready("bo"), "blue").accepted
    assert session.submit(cmd.EndTurn("bo"), "blue").accepted
    assert session.submit(cmd.Move("ada", SEEN_BY_BLUE), "red").accepted
    assert session.battle.pending is not None and session.battle.pending.reactor == "bo"
    offered = [e for e in view_for(session.battle, "red").log if e.kind == "reaction_offered"]
    assert offered and offered[-1].data["unit"] == "?"
    refusal = session.undo("red")
    assert refusal is not None and refusal.code == "undo_would_hide_what_was_seen"

    assert session.submit(cmd.React("bo", take=True), "blue").accepted
    shots = [e for e in view_for(session.battle, "red").log if e.kind == "reaction_attack"]
    assert shots and shots[-1].rolls and shots[-1].data["unit"] == "bo"
    assert session.undo("red") is not None and session.undo("red").code == "undo_not_yours"


def test_a_command_given_by_another_player_counts_as_having_had_the_screen(
    sessions: list[Session],
) -> None:
    """Red moves and ends the turn; blue ends bo's. The GM takes both turn ends back: red's
    move is the last command again, but blue has had the screen since it (blue gave one)."""
    session = _duel(sessions)
    assert session.submit(cmd.Move("ada", UNSEEN), "red").accepted
    assert session.submit(cmd.EndTurn("ada"), "red").accepted
    assert session.battle.active == "bo"
    assert session.submit(cmd.EndTurn("bo"), "blue").accepted
    assert session.undo(GM) is None and session.undo(GM) is None
    assert session.history[-1].command == cmd.Move("ada", UNSEEN)
    refusal = session.undo("red")
    assert refusal is not None and refusal.code == "undo_seen_by_another"


def test_a_redone_command_keeps_who_has_seen_it(sessions: list[Session]) -> None:
    session = _duel(sessions)
    assert session.submit(cmd.Move("ada", UNSEEN), "red").accepted
    session.seen_by("blue")
    assert session.undo(GM) is None and session.redo(GM) is None
    refusal = session.undo("red")
    assert refusal is not None and refusal.code == "undo_seen_by_another"


# ---------------------------------------------------------------- save and continue


def _station(journal: Path, **kw: int) -> Session:
    from game.battle.setup import setup_from_map
    from game.maps import load_map

    setup = setup_from_map(load_map(STATION), seed=1)
    return Session.new(setup, journal, **kw)


def test_a_look_is_journaled_and_holds_after_the_battle_is_continued(tmp_path: Path) -> None:
    """maps/station_interior.tmx, seed 1: Kask (raiders) acts first; its move to (7, 14, 0)
    lets station security see Sable, and shows the raiders nothing new."""
    journal = tmp_path / "battle.jsonl"
    session = _station(journal)
    outcome = session.submit(cmd.Move("Kask", (7, 14, 0)), "raiders")
    assert outcome.accepted and outcome.sighted and session.can_undo("raiders") is None
    session.seen_by("station_security")
    session.seen_by("station_security")  # once is enough: one line
    session.close()
    lines = [json.loads(line) for line in journal.read_text(encoding="utf-8").splitlines()]
    assert lines[2:] == [{"n": 1, "by": "station_security", "seen": True}]
    assert [e.marker for e in read_journal(journal).entries] == [None, "seen"]

    reopened = Session.open(journal)
    refusal = reopened.undo("raiders")
    assert refusal is not None and refusal.code == "undo_seen_by_another"
    reopened.close()


def test_a_seen_marker_is_a_journal_line_but_no_command_in_the_saves_list(tmp_path: Path) -> None:
    from game.app.saves import read_save

    journal = tmp_path / "battle.jsonl"
    session = _station(journal)
    assert session.submit(cmd.Move("Kask", (7, 14, 0)), "raiders").accepted
    session.seen_by("station_security")
    session.close()
    assert len(journal.read_text(encoding="utf-8").splitlines()) == 3  # header, move, seen
    info = read_save(journal)
    assert info.error is None and info.commands == 1


def test_without_a_look_the_undo_is_allowed_after_the_battle_is_continued(tmp_path: Path) -> None:
    journal = tmp_path / "battle.jsonl"
    session = _station(journal)
    assert session.submit(cmd.Move("Kask", (7, 14, 0)), "raiders").accepted
    session.close()
    reopened = Session.open(journal)
    assert reopened.undo("raiders") is None
    reopened.close()
    again = Session.open(journal, for_append=False)  # the undo, journaled, replays
    assert again.history == []
    again.close()


def test_looks_and_what_a_step_showed_hold_below_the_snapshot_a_battle_reopens_from(
    tmp_path: Path,
) -> None:
    """A snapshot every 2 commands: Kask moves twice (the first move watched by security's
    player), the snapshot after the second is where the battle reopens; the steps below it are
    read, not carried out, yet the second may be taken back and the first may not."""
    journal = tmp_path / "battle.jsonl"
    session = _station(journal, snapshot_every=2)
    assert session.submit(cmd.Move("Kask", (10, 14, 0)), "raiders").accepted
    session.seen_by("station_security")
    assert session.submit(cmd.Move("Kask", (7, 14, 0)), "raiders").accepted
    assert session.can_undo("raiders") is None
    session.close()
    assert len(read_journal(journal).snapshots) == 1

    reopened = Session.open(journal, snapshot_every=2)
    assert reopened.history[-1].news is None  # read from the journal, not carried out
    assert reopened.undo("raiders") is None
    refusal = reopened.undo("raiders")
    assert refusal is not None and refusal.code == "undo_seen_by_another"
    reopened.close()


def test_what_the_last_step_showed_is_worked_out_from_a_snapshot_below_it_after_reopening(
    tmp_path: Path,
) -> None:
    """Snapshots after commands 2 and 4: the battle reopens from the second, so the fourth
    step is read, not carried out; whether it showed the raiders anything is worked out again
    from the snapshot after command 2 (in the journal's own hash version), and the undo goes."""
    journal = tmp_path / "battle.jsonl"
    session = _station(journal, snapshot_every=2)
    for to in ((10, 14, 0), (11, 14, 0), (10, 14, 0), (11, 14, 0)):
        assert session.submit(cmd.Move("Kask", to), "raiders").accepted
    session.close()
    assert len(read_journal(journal).snapshots) == 2

    reopened = Session.open(journal, snapshot_every=2)
    assert reopened.history[-1].news is None  # read from the journal, not carried out
    assert reopened.undo("raiders") is None
    assert reopened.battle.world.get("Kask", Position).cell == (10, 14, 0)
    reopened.close()


def test_a_journal_written_before_looks_were_kept_replays_its_undos(tmp_path: Path) -> None:
    """A player's undo of a private move, as an earlier Tessera journaled it, replays."""
    journal = tmp_path / "battle.jsonl"
    session = _station(journal)
    assert session.submit(cmd.Move("Kask", (10, 14, 0)), "raiders").accepted
    assert session.undo("raiders") is None
    session.close()
    reopened = Session.open(journal, for_append=False)
    assert reopened.history == [] and len(reopened.undone) == 1
    reopened.close()


# ---------------------------------------------------------------- headless


def _run(journal: Path, lines: list[dict[str, Any]]) -> list[dict[str, Any]]:
    out = io.StringIO()
    text = "".join(json.dumps(line) + "\n" for line in lines)
    status = run_battle(
        str(STATION), str(journal), computer=[], seed=None, stdin=io.StringIO(text), stdout=out
    )
    assert status == 0
    return [json.loads(line) for line in out.getvalue().splitlines()]


def test_headless_asking_for_a_players_view_is_taking_the_screen(tmp_path: Path) -> None:
    """`tessera run`: the raiders' move that only security saw is taken back while nobody
    asked for security's view; once it was asked for, the undo is refused, in words that say
    nothing of what security saw."""
    move = {"cmd": "move", "unit": "Kask", "to": [7, 14, 0]}
    undo = {"cmd": "undo", "by": "raiders"}
    free = _run(tmp_path / "a.jsonl", [move, undo])
    assert any(line.get("event") == "undo" for line in free)
    watched = _run(tmp_path / "b.jsonl", [move, {"cmd": "view", "by": "station_security"}, undo])
    refused = [line for line in watched if "refused" in line]
    assert refused == [
        {
            "by": "raiders",
            "refused": "undo_seen_by_another",
            "text": "It cannot be undone: another player has had the screen since "
            "(only the GM may).",
            "line": 3,  # the undo is the third input line
        }
    ]
