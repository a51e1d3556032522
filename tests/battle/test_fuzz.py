"""Fuzzing the battle's two doors: commands given to a battle in progress, and journals reopened.

What is tested:
- Commands. Random JSON-like input (random kinds, fields of the wrong type, unknown units, cells
  off the map, any player's name, the GM's commands from anyone) given to a battle in progress
  on a shipped map is either malformed (CommandError naming the field, `command...`), accepted,
  or refused with a code of game/battle/reasons.py that can be worded — never anything else; a
  refused command leaves the state hash as it was. Accepted ones are undone (undo by replay)
  and must come back to the same hash.
- Journals. A real journal of a short computer battle, damaged in every way a disk or an editor
  can (cut at any byte, bytes flipped, lines dropped, doubled or swapped, numbers changed, the
  header edited), either opens — to the state some line of the original recorded, a torn last
  line dropped with a notice — or raises JournalError naming the file and a line: never another
  exception, never a battle that is neither.
"""

from __future__ import annotations

import json
import os
import re
from dataclasses import fields, replace
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from game.battle import commands as cmd
from game.battle.ai import choose
from game.battle.commands import CommandError, parse_command
from game.battle.engine import GM
from game.battle.journal import JournalError
from game.battle.reasons import Why
from game.battle.session import Session
from game.battle.setup import setup_from_map
from game.ecs.components import Motion
from game.maps import load_map
from game.text.explain_battle import refusal_text

#: Examples per fuzz test; raise it for a longer hunt (TESSERA_FUZZ_EXAMPLES=5000).
EXAMPLES = int(os.environ.get("TESSERA_FUZZ_EXAMPLES", "150"))
MAPS = Path(__file__).resolve().parents[2] / "maps"
STATION = MAPS / "station_interior.tmx"
HULL = MAPS / "hull_breach.tmx"

# ---------------------------------------------------------------- a battle in progress


class InProgress:
    """A battle after some computer turns, each side its own player; put back after each
    example by undoing what the example's commands did."""

    def __init__(self, path: Path, seed: int, commands: int, *, dampers_off: bool = False) -> None:
        loaded = load_map(path)
        setup = setup_from_map(loaded, seed=seed)
        self.players = sorted({f"p_{u.faction}" for u in loaded.units})
        setup = setup_from_map(loaded, seed=seed, players={f"p_{f}": (f,) for f in setup.factions})
        self.session = Session.new(setup, None)
        self.shape = loaded.grid.shape
        for _ in range(commands):
            b = self.session.battle
            actor = b.pending.reactor if b.pending is not None else b.active
            assert actor is not None
            command = choose(b, actor)
            if dampers_off and isinstance(command, cmd.Move) and command.mode == "thrusters":
                command = replace(command, dampers=False)  # velocities kept (P-ZERO-2)
            outcome = self.session.submit(command, b.controller_of(b.faction_of(actor)))
            assert outcome.accepted
        self.start = self.session.battle.state_hash()
        self.units = sorted(self.session.battle.world.unit_ids)
        self.factions = list(setup.factions)

    def restore(self, accepted: int) -> None:
        for _ in range(accepted):
            assert self.session.undo(GM) is None
        assert self.session.battle.state_hash() == self.start


@cache
def in_progress(which: str) -> InProgress:
    if which == "station":
        return InProgress(STATION, seed=4, commands=40)
    hull = InProgress(HULL, seed=4, commands=30, dampers_off=True)
    b = hull.session.battle
    assert any(any(b.world.get(u, Motion).velocity) for u in b.world.unit_ids)
    return hull


# ---------------------------------------------------------------- random commands

NAMES = ["Kask", "Okafor", "Wisp", "Bruno", "Iyer", "Ghost", "Hale", "nobody", "", "gm"]
WORDS = [
    "walk", "crawl", "thrusters", "jump", "swim", "standing", "prone", "crouched", "light",
    "grave", "mortal", "medkit", "burning", "blinded", "dead", "full", "half", "thin", "none",
    "water", "rough", "accept", "reject", "check", "computer", "enemy_enters_sight", "heavy",
    "raiders", "station_security", "miners", "precisione (furtività)",
]  # fmt: skip
FIELDS = sorted(
    {f.name.rstrip("_") for c in cmd.BY_KIND.values() for f in fields(c)} | {"dampers", "by"}
)

json_leaf = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(10**20), 10**20),
    st.integers(-3, 45),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=12),
    st.sampled_from(NAMES + WORDS),
)
json_value = st.recursive(
    json_leaf,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=6), inner, max_size=3)
    ),
    max_leaves=10,
)
#: Cells on and off the map (the shipped maps are at most 48 x 36 x 4).
a_cell = st.lists(st.integers(-2, 50), min_size=3, max_size=3) | st.lists(
    st.integers(-(10**12), 10**12), min_size=0, max_size=4
)


def _field_value(name: str) -> st.SearchStrategy[Any]:
    typed: dict[str, st.SearchStrategy[Any]] = {
        "unit": st.sampled_from(NAMES),
        "target": st.sampled_from(NAMES),
        "ally": st.sampled_from(NAMES),
        "to": a_cell,
        "at": a_cell,
        "via": st.lists(a_cell, max_size=3),
        "order": st.lists(st.sampled_from(NAMES), max_size=4),
        "faces": st.lists(st.integers(-2, 1002), max_size=4),
        "factions": st.lists(st.sampled_from(WORDS), max_size=3),
        "add": st.lists(st.sampled_from(WORDS), max_size=3),
        "remove": st.lists(st.sampled_from(WORDS), max_size=3),
        "terrain": st.lists(st.sampled_from(WORDS), max_size=3),
        "take": st.booleans(),
        "stealth": st.booleans(),
        "dampers": st.booleans(),
        "floor": st.booleans(),
        "dc": st.integers(-5, 40),
    }
    words = st.sampled_from(WORDS)
    return st.one_of(typed.get(name, words), json_value)


@st.composite
def raw_commands(draw: st.DrawFn) -> object:
    """A JSON-ish command: usually a dict with a known kind and some of the fields (each of
    the right or a wrong type), sometimes anything at all."""
    if draw(st.integers(0, 9)) == 0:
        return draw(json_value)
    kind = draw(st.sampled_from(sorted(cmd.BY_KIND)) | st.text(max_size=8))
    data: dict[str, Any] = {"cmd": kind} if draw(st.integers(0, 19)) else {}
    cls = cmd.BY_KIND.get(kind)
    names = [f.name.rstrip("_") for f in fields(cls)] if cls is not None else []
    for name in names:
        if draw(st.integers(0, 5)):  # most fields, most of the time
            data[name] = draw(_field_value(name))
    for name in draw(st.lists(st.sampled_from(FIELDS), max_size=2)):
        data[name] = draw(_field_value(name))
    return data


def _check_one(battle_now: InProgress, raw: object, by: str) -> bool:
    """Give one fuzzed command; True when it was accepted (and so must be undone)."""
    session = battle_now.session
    try:
        command = parse_command(raw)
    except CommandError as exc:
        assert str(exc).startswith("command"), str(exc)  # names the field: command.to: ...
        return False
    before = session.battle.state_hash()
    outcome = session.submit(command, by)
    if outcome.accepted:
        return True
    refusal = outcome.refusal
    assert refusal is not None
    assert refusal.code in set(Why)
    json.dumps(refusal.to_json())  # what `tessera run` prints
    assert refusal_text(refusal)
    assert session.battle.state_hash() == before, f"{command} refused but changed the state"
    return False


@pytest.mark.parametrize("which", ["station", "hull"])
@settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(data=st.data())
def test_fuzzed_commands_are_accepted_or_refused_with_a_known_code_and_a_refusal_changes_nothing(
    which, data
) -> None:
    battle_now = in_progress(which)
    players = [*battle_now.players, GM]
    accepted = 0
    try:
        for _ in range(data.draw(st.integers(1, 3))):
            raw = data.draw(raw_commands())
            if isinstance(raw, dict) and isinstance(raw.get("by"), str):
                by = raw.pop("by")
            else:
                by = data.draw(st.sampled_from(players) | st.text(max_size=6))
            accepted += _check_one(battle_now, raw, by)
    finally:
        battle_now.restore(accepted)


@pytest.mark.parametrize(
    "raw, field",
    [
        ({"cmd": "move", "unit": "Kask"}, "command.to"),
        ({"cmd": "move", "unit": "Kask", "to": [1, 2]}, "command.to"),
        ({"cmd": "move", "unit": 7, "to": [1, 2, 0]}, "command.unit"),
        ({"cmd": "move", "unit": "Kask", "to": [1, 2, 0], "speed": 3}, "speed"),
        ({"cmd": "roll", "faces": [0]}, "command.faces[0]"),
        ({"cmd": "jump"}, "command.cmd"),
        (["move"], "command"),
    ],
)
def test_a_malformed_command_names_its_field(raw, field) -> None:
    with pytest.raises(CommandError, match=re.escape(field)):
        parse_command(raw)


# ---------------------------------------------------------------- damaged journals


@pytest.fixture(scope="module")
def journal(tmp_path_factory) -> tuple[Path, bytes, list[str]]:
    """A short computer battle on the station, journaled: the folder, the journal's bytes, and
    the state after each of its lines (the first: the battle's start)."""
    folder = tmp_path_factory.mktemp("journal")
    loaded = load_map(STATION)
    factions = tuple(sorted({u.faction for u in loaded.units}))
    session = Session.new(setup_from_map(loaded, seed=9, computer=factions), folder / "b.jsonl")
    states = [session.battle.state_hash()]
    session.play_computer(lambda *_: states.append(session.battle.state_hash()), limit=25)
    session.close()
    data = (folder / "b.jsonl").read_bytes()
    assert data.count(b"\n") == len(states) == 26
    return folder, data, states


def _open_damaged(folder: Path, data: bytes, name: str) -> Session | None:
    """Open `data` as a journal: a Session, or None after a JournalError naming the file and
    a line. Any other exception fails the test."""
    path = folder / name
    path.write_bytes(data)
    try:
        session = Session.open(path, for_append=False)
    except JournalError as exc:
        assert re.match(rf"{re.escape(str(path))}:\d+: ", str(exc)), str(exc)
        return None
    return session


def _mutate(data: bytes, how: str, draw: st.DrawFn) -> bytes:
    lines = data.split(b"\n")[:-1]  # the journal ends with a newline
    if how == "truncate":
        return data[: draw(st.integers(0, len(data) - 1))]
    if how == "flip":
        out = bytearray(data)
        for _ in range(draw(st.integers(1, 3))):
            i = draw(st.integers(0, len(out) - 1))
            out[i] ^= 1 << draw(st.integers(0, 7))
        return bytes(out)
    if how == "byte":
        out = bytearray(data)
        i = draw(st.integers(0, len(out) - 1))
        out[i] = draw(st.integers(0, 255))
        return bytes(out)
    if how == "delete":
        i = draw(st.integers(0, len(lines) - 1))
        del lines[i]
    elif how == "duplicate":
        i = draw(st.integers(0, len(lines) - 1))
        lines.insert(i, lines[i])
    elif how == "swap":
        i = draw(st.integers(0, len(lines) - 1))
        j = draw(st.integers(0, len(lines) - 1))
        lines[i], lines[j] = lines[j], lines[i]
    elif how == "number":
        i = draw(st.integers(0, len(lines) - 1))
        numbers = list(re.finditer(rb"-?\d+", lines[i]))
        if numbers:
            m = numbers[draw(st.integers(0, len(numbers) - 1))]
            new = str(draw(st.integers(-(10**6), 10**20) | st.integers(-2, 30))).encode()
            lines[i] = lines[i][: m.start()] + new + lines[i][m.end() :]
    elif how == "header":
        header = json.loads(lines[0])
        key = draw(st.sampled_from(["format", "version", "setup", "extra"]))
        setup_key = draw(st.sampled_from([*header["setup"], "units0"]))
        value = draw(json_value)
        if key == "setup":
            if setup_key == "units0":
                unit = header["setup"]["units"][0]
                unit[draw(st.sampled_from([*unit, "hidden", "template", "stance"]))] = value
            else:
                header["setup"][setup_key] = value
        else:
            header[key] = value
        lines[0] = json.dumps(header).encode()
    return b"\n".join(lines) + b"\n"


@settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(data=st.data())
def test_a_damaged_journal_opens_to_a_recorded_state_or_is_refused_naming_file_and_line(
    journal, data
) -> None:
    folder, original, states = journal
    how = data.draw(
        st.sampled_from(
            ["truncate", "flip", "byte", "delete", "duplicate", "swap", "number", "header"]
        )
    )
    damaged = _mutate(original, how, data.draw)
    assume(damaged != original)
    session = _open_damaged(folder, damaged, "damaged.jsonl")
    if session is None:
        return
    try:
        # Never half-loaded: the state is one the original journal recorded, whole.
        state = session.battle.state_hash()
        assert state in states, how
        if how == "truncate":
            kept = damaged.count(b"\n") - 1  # whole command lines left
            assert state == states[kept]
            assert bool(session.notices) == (not damaged.endswith(b"\n"))
    finally:
        session.close()


def test_a_journal_cut_inside_its_last_line_opens_with_a_notice_and_is_cut_back_for_appending(
    journal,
) -> None:
    folder, original, states = journal
    last_start = original.rstrip(b"\n").rfind(b"\n") + 1
    path = folder / "torn.jsonl"
    path.write_bytes(original[: last_start + 11])
    session = Session.open(path)
    try:
        assert session.battle.state_hash() == states[-2]
        assert session.notices and re.match(rf"{re.escape(str(path))}:\d+: ", session.notices[0])
    finally:
        session.close()
    assert path.read_bytes() == original[:last_start]


@pytest.mark.parametrize(
    "cell, problem",
    [
        ([40, 0, 0], "outside the map"),  # the station is 40 cells wide: x runs 0..39
        ([-1, 14, 0], "outside the map"),  # numpy would have wrapped it to x = 39
        ([6, 12, 0], "both stand in"),  # Rook's cell
    ],
)
def test_a_header_placing_a_unit_off_the_map_or_on_another_is_refused_naming_line_1(
    journal, cell, problem
) -> None:
    folder, original, _states = journal
    lines = original.split(b"\n")
    header = json.loads(lines[0])
    kask = next(u for u in header["setup"]["units"] if u["id"] == "Kask")
    kask["cell"] = cell
    lines[0] = json.dumps(header).encode()
    path = folder / "placed.jsonl"
    path.write_bytes(b"\n".join(lines))
    with pytest.raises(JournalError, match=rf"^{re.escape(str(path))}:1: .*{problem}"):
        Session.open(path, for_append=False)


def test_an_empty_journal_is_refused_naming_line_1(tmp_path) -> None:
    path = tmp_path / "empty.jsonl"
    path.write_bytes(b"\n  \n")
    with pytest.raises(JournalError, match=rf"^{re.escape(str(path))}:1: "):
        Session.open(path, for_append=False)
