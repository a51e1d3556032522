"""`tessera run` and `tessera replay`: JSON lines in and out, the journal, bad input, continuing.

The battles are on the shipped map maps/hull_breach.tmx. What the tests rely on from it is in its
`tessera check-map` listing: station_security has Iyer, Conti, Sato (hidden), Hale (arrives in
round 3) and Varga; the raiders have Korrin, Mags, Ghost, and Dray and Fen (arriving in round 2).
Where a test needs what the rules make of a command, it asks the engine directly (a `Battle`
built from the same map and seed), not the command line it is testing.
"""

from __future__ import annotations

import io
import json
import subprocess
import sys
import threading
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from game.battle import commands as cmd
from game.battle.cli import DEFAULT_SEED, replay_journal, run_battle
from game.battle.engine import GM, Battle
from game.battle.events import Event
from game.battle.setup import setup_from_map
from game.cli import main
from game.maps import LoadedMap, load_map
from game.rules.data import load_rules

REPO = Path(__file__).resolve().parents[2]
HULL = REPO / "maps" / "hull_breach.tmx"
STATION = REPO / "maps" / "station_interior.tmx"
SECURITY = {"Iyer", "Conti", "Sato", "Hale", "Varga"}
RAIDERS = {"Korrin", "Mags", "Ghost", "Dray", "Fen"}
SIDES_OF_STATION = ("raiders", "station_security")


@pytest.fixture(scope="module")
def hull() -> LoadedMap:
    return load_map(HULL)


@pytest.fixture
def oracle(hull: LoadedMap) -> Any:
    """The battle `tessera run` begins on hull_breach.tmx, built by the engine itself."""
    battle = Battle(setup_from_map(hull, seed=DEFAULT_SEED), hull.grid, load_rules())
    yield battle
    battle.close()


def _text(lines: list[Any]) -> str:
    return "".join((line if isinstance(line, str) else json.dumps(line)) + "\n" for line in lines)


def run_cli(
    journal: Path,
    lines: list[Any],
    *,
    map_path: Path = HULL,
    computer: tuple[str, ...] = (),
    seed: int | None = None,
) -> list[dict[str, Any]]:
    """`tessera run` in this process: the lines on its standard input, its output parsed."""
    out = io.StringIO()
    status = run_battle(
        str(map_path),
        str(journal),
        computer=list(computer),
        seed=seed,
        stdin=io.StringIO(_text(lines)),
        stdout=out,
    )
    assert status == 0
    return [json.loads(line) for line in out.getvalue().splitlines()]


def journal_lines(journal: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in journal.read_text(encoding="utf-8").splitlines()]


def printed(event: Event, n: int, line: int | None) -> dict[str, Any]:
    """How `tessera run` must print an event without secret rolls: its JSON, the command's
    number, its audience (null: everybody; else the factions, sorted) and the input line it
    answers (null: none, as for the opening events)."""
    audience = None if event.audience is None else sorted(event.audience)
    return {
        **json.loads(json.dumps(event.to_json())),
        "n": n,
        "audience": audience,
        "line": line,
    }


def events_of(output: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [line for line in output if "audience" in line]


def test_run_prints_each_event_as_a_json_line_with_its_audience_as_the_engine_gave_it(
    tmp_path: Path, oracle: Battle
) -> None:
    active = oracle.active
    assert active is not None
    start = [printed(e, 0, None) for e in oracle.log if not any(r.secret for r in e.rolls)]
    outcome = oracle.apply(cmd.EndTurn(active), oracle.controller_of(oracle.faction_of(active)))
    assert outcome.accepted and outcome.events

    output = run_cli(tmp_path / "j.jsonl", [{"cmd": "end_turn", "unit": active}])

    assert output[0]["event"] == "battle" and output[0]["active"] == active
    shown = [e for e in events_of(output) if not any(r["secret"] for r in e.get("rolls", []))]
    assert shown == start + [printed(e, 1, 1) for e in outcome.events]
    assert output[-1]["event"] == "end"
    assert output[-1]["commands"] == 1
    assert output[-1]["state_hash"] == oracle.state_hash()


def test_p_init_4_a_hidden_units_secret_initiative_is_printed_for_the_gm_alone(
    tmp_path: Path,
) -> None:
    output = run_cli(tmp_path / "j.jsonl", [])
    initiative = {e["unit"]: e for e in events_of(output) if e["event"] == "initiative"}
    # Sato is hidden on the map: its roll is the GM's secret; the others' go to their side.
    assert initiative["Sato"]["audience"] == []
    assert initiative["Conti"]["audience"] == ["station_security"]
    assert initiative["Mags"]["audience"] == ["raiders"]


def test_each_sides_view_log_holds_exactly_the_printed_events_whose_audience_names_it(
    tmp_path: Path, oracle: Battle
) -> None:
    # Four turns ended by the GM, then every player's view: the audience printed with each
    # event must say the same as what the view lets that player see.
    order = []
    for _ in range(4):
        active = oracle.active
        assert active is not None
        order.append(active)
        assert oracle.apply(cmd.EndTurn(active), GM).accepted
    views = [{"cmd": "view", "by": who} for who in ("raiders", "station_security", "gm")]
    output = run_cli(
        tmp_path / "j.jsonl",
        [*({"cmd": "end_turn", "unit": u, "by": "gm"} for u in order), *views],
    )
    events = events_of(output)
    logs = {line["view"]["player"]: line["view"]["log"] for line in output if "view" in line}

    def bare(e: dict[str, Any]) -> dict[str, Any]:
        return {k: v for k, v in e.items() if k not in ("n", "audience", "line")}

    for side in ("raiders", "station_security"):
        seen = [bare(e) for e in events if e["audience"] is None or side in e["audience"]]
        assert logs[side] == seen
        assert logs["gm"] == [bare(e) for e in events]
    assert len(logs["raiders"]) < len(events)  # the fog hides something: the test can fail


def test_undo_redo_and_state_lines_and_who_may_undo(tmp_path: Path, oracle: Battle) -> None:
    active = oracle.active
    assert active is not None
    mine = oracle.faction_of(active)
    other = ({"raiders", "station_security"} - {mine}).pop()
    before = oracle.state_hash()
    assert oracle.apply(cmd.EndTurn(active), mine).accepted
    after = oracle.state_hash()
    journal = tmp_path / "j.jsonl"

    output = run_cli(
        journal,
        [
            {"cmd": "end_turn", "unit": active},
            {"cmd": "state"},
            {"cmd": "undo", "by": other},
            {"cmd": "undo"},
            {"cmd": "state"},
            {"cmd": "redo", "by": "gm"},
        ],
    )

    answers = [line for line in output if "audience" not in line][1:-1]
    assert answers[0] == {
        "event": "state",
        "round": 1,
        "active": oracle.active,
        "over": False,
        "winner": None,
        "commands": 1,
        "state_hash": after,
        "line": 2,
    }
    assert answers[1] == {
        "by": other,
        "refused": "undo_not_yours",
        "text": "Only who gave the last command (or the GM) may take it back.",
        "line": 3,
    }
    assert answers[2]["event"] == "undo" and answers[2]["by"] == GM
    assert (answers[2]["commands"], answers[2]["state_hash"]) == (0, before)
    assert answers[3]["state_hash"] == before and answers[3]["active"] == active
    assert answers[4]["event"] == "redo"
    assert (answers[4]["commands"], answers[4]["state_hash"]) == (1, after)
    assert [
        {k: v for k, v in line.items() if k != "cmd"} for line in journal_lines(journal)[1:]
    ] == [
        {"n": 1, "by": mine, "dice": [], "hash": after, "private": True},
        {"n": 0, "by": GM, "undo": True},
        {"n": 1, "by": GM, "redo": True},
    ]


def test_by_names_who_gives_a_command_and_a_player_may_not_give_anothers_or_the_gms(
    tmp_path: Path, oracle: Battle
) -> None:
    active = oracle.active
    assert active is not None
    other = ({"raiders", "station_security"} - {oracle.faction_of(active)}).pop()
    journal = tmp_path / "j.jsonl"
    output = run_cli(
        journal,
        [
            {"cmd": "end_turn", "unit": active, "by": other},
            {"cmd": "reveal", "unit": "Sato", "by": other},
            {"cmd": "override", "faces": [3], "by": other},
            {"cmd": "end_turn", "unit": active, "by": "gm"},
        ],
    )
    refusals = [line for line in output if "refused" in line]
    assert refusals == [
        {
            "by": other,
            "refused": "not_your_unit",
            "unit": active,
            "text": f"{active} is not yours to command.",
            "line": 1,
        },
        {
            "by": other,
            "refused": "gm_only",
            "command": "reveal",
            "text": "Only the GM may do that.",
            "line": 2,
        },
        {
            "by": other,
            "refused": "gm_only",
            "command": "override",
            "text": "Only the GM may do that.",
            "line": 3,
        },
    ]
    commands = journal_lines(journal)[1:]
    assert [(c["by"], c["cmd"]) for c in commands] == [(GM, {"cmd": "end_turn", "unit": active})]


def test_p_chk_4_an_override_line_gives_the_last_command_again_with_the_gms_dice(
    tmp_path: Path, oracle: Battle
) -> None:
    active = oracle.active
    assert active is not None
    assert oracle.apply(cmd.Search(active), GM).rolls  # a search rolls one die
    journal = tmp_path / "j.jsonl"
    output = run_cli(
        journal, [{"cmd": "search", "unit": active}, {"cmd": "override", "faces": [7]}]
    )
    searches = [e for e in events_of(output) if e["event"] == "search"]
    assert len(searches) == 2
    assert searches[1]["rolls"][0]["dice"] == [7]
    assert searches[1]["rolls"][0]["source"] != searches[0]["rolls"][0]["source"]
    lines = journal_lines(journal)[1:]
    assert [
        line.get("cmd", {}).get("cmd", "undo" if "undo" in line else None) for line in lines
    ] == [
        "search",
        "undo",
        "roll",
        "search",
    ]
    assert lines[-1]["dice"] == [[7]]
    assert output[-1]["state_hash"] == lines[-1]["hash"]


BAD_LINES = [
    ("nonsense", "bad JSON"),
    ("[1, 2]", "expected a JSON object"),
    ('{"by": "gm"}', "command.cmd"),
    ('{"cmd": "teleport", "unit": "Conti"}', "command.cmd: unknown command 'teleport'"),
    ('{"cmd": "move", "unit": "Conti"}', "command.to: missing"),
    ('{"cmd": "move", "unit": "Conti", "to": [1, 2]}', "command.to: expected a cell"),
    ('{"cmd": "move", "unit": "Conti", "to": [1, 2, "up"]}', "command.to[2]"),
    ('{"cmd": "end_turn", "unit": "Conti", "speed": 3}', "unknown field 'speed'"),
    ('{"cmd": "state", "by": 7}', "field by"),
    ('{"cmd": "undo", "by": ""}', "field by"),
    ('{"cmd": "override", "faces": "six"}', "field faces"),
    ('{"cmd": "override", "faces": [0]}', "field faces"),
    ('{"cmd": "view", "by": "nobody"}', "field by: no player 'nobody'"),
    ('{"cmd": "improvise", "unit": "Conti", "text": "\\ud800"}', "lone surrogate"),
    ("[" * 50_000 + "]" * 50_000, "nested too deeply"),
    ('{"cmd": "state", "n": ' + "9" * 5000 + "}", "bad JSON"),
]


@pytest.mark.parametrize(("line", "named"), BAD_LINES)
def test_a_bad_input_line_is_answered_with_an_error_naming_the_line_and_the_field(
    tmp_path: Path, line: str, named: str
) -> None:
    journal = tmp_path / "j.jsonl"
    output = run_cli(journal, [{"cmd": "state"}, line, {"cmd": "state"}])
    errors = [x for x in output if "error" in x]
    assert len(errors) == 1
    assert errors[0]["error"].startswith("input line 2: ") and errors[0]["line"] == 2
    assert named in errors[0]["error"]
    states = [x for x in output if x.get("event") == "state"]
    assert [s.pop("line") for s in states] == [1, 3]
    assert states[0] == states[1]  # nothing changed
    assert len(journal_lines(journal)) == 1  # the header alone


def _tessera(
    *args: str, stdin: bytes = b"", cwd: Path = REPO
) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [sys.executable, "-m", "game", *args],
        input=stdin,
        capture_output=True,
        cwd=REPO,
        timeout=120,
    )


def test_run_and_replay_as_processes_agree_on_the_final_state_hash(tmp_path: Path) -> None:
    journal = tmp_path / "j.jsonl"
    stdin = b'{"cmd": "state"}\n\xff\xfe not text\n{"cmd": "end_turn", "unit": "Conti"}\n'
    run = _tessera("run", str(HULL), "--journal", str(journal), stdin=stdin)
    assert (run.returncode, run.stderr) == (0, b"")
    output = [json.loads(line) for line in run.stdout.decode("utf-8").splitlines()]
    assert {"error": "input line 2: not UTF-8 text", "line": 2} in output
    end = output[-1]
    assert end["event"] == "end" and end["commands"] == 1

    replay = _tessera("replay", str(journal))
    assert (replay.returncode, replay.stderr) == (0, b"")
    assert replay.stdout.decode("utf-8").splitlines()[0] == f"state hash: {end['state_hash']}"


def test_run_answers_each_line_as_it_comes_so_a_program_can_drive_it(tmp_path: Path) -> None:
    # Standard input stays open: each answer must come before the next line is written.
    proc = subprocess.Popen(
        [sys.executable, "-m", "game", "run", str(HULL), "--journal", str(tmp_path / "j.jsonl")],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=REPO,
    )
    assert proc.stdin is not None and proc.stdout is not None

    def ask(line: dict[str, Any], answer: str) -> dict[str, Any]:
        assert proc.stdin is not None and proc.stdout is not None
        proc.stdin.write(json.dumps(line).encode() + b"\n")
        proc.stdin.flush()
        while True:
            got = json.loads(proc.stdout.readline())
            if got.get("event") == answer:
                return got

    watchdog = threading.Timer(120, proc.kill)  # a hung run fails the test, never hangs it
    watchdog.start()
    try:
        first = ask({"cmd": "state"}, "state")
        ended = ask({"cmd": "end_turn", "unit": first["active"], "by": "gm"}, "turn_ended")
        assert ended["unit"] == first["active"] and ended["n"] == 1
        assert ask({"cmd": "state"}, "state")["commands"] == 1
        proc.stdin.close()
        assert json.loads(proc.stdout.read().splitlines()[-1])["event"] == "end"
        assert proc.wait(timeout=60) == 0
    finally:
        watchdog.cancel()
        if proc.poll() is None:
            proc.kill()
            proc.wait(timeout=60)


def test_replay_prints_the_final_hash_and_a_summary_of_each_side(tmp_path: Path) -> None:
    journal = tmp_path / "j.jsonl"
    output = run_cli(journal, [{"cmd": "end_turn", "unit": "Conti", "by": "gm"}])
    out = io.StringIO()
    assert replay_journal(str(journal), stdout=out) == 0
    assert out.getvalue().splitlines() == [
        f"state hash: {output[-1]['state_hash']}",
        f"map: {HULL}",
        "commands: 1; round 1",
        f"acting: {output[-1]['active']}",
        # round 1: Dray and Fen come in round 2, Hale in round 3; nobody is hurt yet
        "  raiders: 3 fit, 2 waiting",
        "  station_security: 4 fit, 1 waiting",
    ]


def test_an_existing_journal_is_continued_from_where_it_stopped(tmp_path: Path) -> None:
    journal = tmp_path / "j.jsonl"
    first = run_cli(journal, [{"cmd": "end_turn", "unit": "Conti", "by": "gm"}])
    second_unit = first[-1]["active"]
    second = run_cli(journal, [{"cmd": "end_turn", "unit": second_unit, "by": "gm"}])

    assert second[0]["event"] == "battle"
    assert (second[0]["commands"], second[0]["state_hash"]) == (1, first[-1]["state_hash"])
    assert not any(e["event"] == "combat_started" for e in events_of(second))
    assert {e["n"] for e in events_of(second)} == {2}
    lines = journal_lines(journal)
    assert [line["cmd"]["unit"] for line in lines[1:]] == ["Conti", second_unit]
    out = io.StringIO()
    replay_journal(str(journal), stdout=out)
    assert out.getvalue().splitlines()[0] == f"state hash: {second[-1]['state_hash']}"


def test_a_torn_last_line_is_dropped_with_a_notice_when_the_journal_is_continued(
    tmp_path: Path,
) -> None:
    journal = tmp_path / "j.jsonl"
    first = run_cli(journal, [{"cmd": "end_turn", "unit": "Conti", "by": "gm"}])
    with journal.open("ab") as f:
        f.write(b'{"n":2,"by":"gm","cmd":{"cmd":"end_tu')  # a crash in the middle of a line
    second = run_cli(journal, [{"cmd": "state"}])
    assert "unfinished last line was dropped" in second[0]["notice"]
    assert f"{journal}:3" in second[0]["notice"]
    assert second[1]["state_hash"] == first[-1]["state_hash"]
    assert journal.read_bytes().endswith(b"}\n")


def test_the_computer_plays_its_sides_between_commands_and_may_be_given_one_on_continuing(
    tmp_path: Path,
) -> None:
    journal = tmp_path / "j.jsonl"
    run_cli(journal, [{"cmd": "end_turn", "unit": "Conti"}])  # now a raider is to act
    output = run_cli(journal, [], computer=("raiders",))

    handover = [e for e in events_of(output) if e["event"] == "controller"]
    assert handover == [
        {
            "event": "controller",
            "faction": "raiders",
            "controller": "computer",
            "n": 2,
            "audience": None,
            "line": None,  # before any input line: the option did it
        }
    ]
    assert output[-1]["active"] in SECURITY  # the computer played until it was not its turn
    lines = journal_lines(journal)[1:]
    assert lines[1] == {
        "n": 2,
        "by": GM,
        "cmd": {"cmd": "controller", "faction": "raiders", "controller": "computer"},
        "dice": [],
        "hash": lines[1]["hash"],
        "private": True,  # it rolled nothing and showed nobody anything
    }
    raider_commands = [line for line in lines[2:] if line["cmd"].get("unit") in RAIDERS]
    assert raider_commands and all(line["by"] == "computer" for line in raider_commands)
    # Continued again with the same option: the computer has the raiders already.
    again = run_cli(journal, [], computer=("raiders",))
    assert not [e for e in events_of(again) if e["event"] == "controller"]


def test_an_empty_file_given_as_the_journal_begins_a_new_battle_in_it(tmp_path: Path) -> None:
    journal = tmp_path / "j.jsonl"
    journal.touch()
    output = run_cli(journal, [])
    assert output[0]["event"] == "battle" and output[0]["commands"] == 0
    assert journal_lines(journal)[0]["format"] == "tessera-journal"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["j.jsonl"]  # no file left beside it


def _two_commands(journal: Path) -> None:
    run_cli(journal, [{"cmd": "end_turn", "unit": "Conti", "by": "gm"}, {"cmd": "state"}])


def _damaged(journal: Path) -> None:
    run_cli(journal, [{"cmd": "end_turn", "unit": "Conti", "by": "gm"}])
    lines = journal.read_text(encoding="utf-8").splitlines(keepends=True)
    journal.write_text(lines[0] + '{"n": 1, "by": "gm", "cmd": \n' + "".join(lines[1:]))


FAILURES = [
    # (name, how the journal is prepared, extra arguments, map, what the error names)
    ("missing map", None, [], "maps/nowhere.tmx", ["nowhere.tmx", "not found"]),
    ("unloadable map", None, [], "bad.tmx", ["bad.tmx"]),
    ("damaged journal", _damaged, [], str(HULL), ["j.jsonl:2", "damaged line"]),
    ("foreign file", "README", [], str(HULL), ["j.jsonl:1", "not a Tessera journal"]),
    ("another map", _two_commands, [], str(STATION), ["j.jsonl", "station_interior.tmx"]),
    (
        "unknown faction",
        None,
        ["--computer", "pirates"],
        str(HULL),
        ["--computer pirates", "hull_breach.tmx", "raiders, station_security"],
    ),
    (
        "unknown faction when continuing",
        _two_commands,
        ["--computer", "pirates"],
        str(HULL),
        ["--computer pirates", "j.jsonl"],
    ),
    ("another seed when continuing", _two_commands, ["--seed", "5"], str(HULL), ["seed 1"]),
    (
        "a die out of range",
        None,
        ["--initiative-dice", "Korrin=21"],
        str(HULL),
        ["--initiative-dice Korrin=21", "from 1 to 20"],
    ),
    (
        "an initiative die for no unit",
        None,
        ["--initiative-dice", "Zed=3"],
        str(HULL),
        ["--initiative-dice Zed", "hull_breach.tmx", "Iyer, Conti, Sato, Varga, Korrin"],
    ),
    (
        "an initiative die for a unit arriving later",
        None,
        ["--initiative-dice", "Hale=4"],
        str(HULL),
        ["--initiative-dice Hale", "arrives in round 3"],
    ),
    (
        "initiative dice missing",
        None,
        ["--initiative-dice", "Korrin=3,Mags=4"],
        str(HULL),
        ["no die for Iyer, Conti, Sato, Varga, Ghost"],
    ),
    ("an initiative die without a unit", None, ["--initiative-dice", "12"], str(HULL), ["UNIT=N"]),
    (
        "an initiative die given twice",
        None,
        ["--initiative-dice", "Mags=3", "--initiative-dice", "Mags=4"],
        str(HULL),
        ["--initiative-dice Mags: given twice"],
    ),
    (
        "other initiative dice when continuing",
        _two_commands,
        ["--initiative-dice", "Iyer=1,Conti=2,Sato=3,Varga=4,Korrin=5,Mags=6,Ghost=7"],
        str(HULL),
        ["j.jsonl", "initiative is rolled", "--initiative-dice"],
    ),
]


@pytest.mark.parametrize(
    ("prepare", "extra", "map_arg", "named"),
    [f[1:] for f in FAILURES],
    ids=[f[0] for f in FAILURES],
)
def test_run_refuses_bad_files_and_options_with_one_error_line_and_exit_2(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    prepare: Any,
    extra: list[str],
    map_arg: str,
    named: list[str],
) -> None:
    journal = tmp_path / "j.jsonl"
    (tmp_path / "bad.tmx").write_text('<?xml version="1.0"?>\n<map version="1.10" orient')
    if prepare == "README":
        journal.write_bytes((REPO / "README.md").read_bytes())
    elif prepare is not None:
        prepare(journal)
    capsys.readouterr()
    before = journal.read_bytes() if journal.exists() else None
    monkeypatch.chdir(tmp_path if map_arg == "bad.tmx" else REPO)
    monkeypatch.setattr(sys, "stdin", io.StringIO('{"cmd": "state"}\n'))

    assert main(["run", map_arg, "--journal", str(journal), *extra]) == 2

    out, err = capsys.readouterr()
    assert out == ""
    assert err.startswith("error: ") and err.count("\n") == 1, err
    for part in named:
        assert part in err
    assert (journal.read_bytes() if journal.exists() else None) == before


def test_main_run_reads_a_text_stream_standing_in_for_standard_input(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO('{"cmd": "state"}\n'))
    assert main(["run", str(HULL), "--journal", str(tmp_path / "j.jsonl")]) == 0
    out, err = capsys.readouterr()
    assert err == ""
    assert [json.loads(line).get("event") for line in out.splitlines()][-2:] == ["state", "end"]


def test_replay_refuses_a_missing_or_damaged_journal_with_one_error_line_and_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    journal = tmp_path / "j.jsonl"
    assert main(["replay", str(journal)]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.startswith(f"error: {journal}: cannot read") and err.count("\n") == 1
    _damaged(journal)
    capsys.readouterr()
    assert main(["replay", str(journal)]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.startswith(f"error: {journal}:2: damaged line")


def test_a_refused_start_as_a_process_is_one_line_on_stderr_exit_2_and_no_traceback(
    tmp_path: Path,
) -> None:
    done = _tessera("run", "maps/nowhere.tmx", "--journal", str(tmp_path / "j.jsonl"))
    assert done.returncode == 2 and done.stdout == b""
    err = done.stderr.decode("utf-8")
    assert err.startswith("error: maps/nowhere.tmx") and err.count("\n") == 1
    assert not (tmp_path / "j.jsonl").exists()


#: A GM's physical dice for the opening initiative on hull_breach, by unit, and the same faces
#: in the order the battle rolls them (the units that start it, in the map's listing order).
TABLE_DICE = {"Korrin": 2, "Mags": 18, "Ghost": 7, "Iyer": 20, "Conti": 1, "Sato": 11, "Varga": 5}
LISTING = ("Iyer", "Conti", "Sato", "Varga", "Korrin", "Mags", "Ghost")


def test_initiative_dice_on_the_command_line_are_the_opening_rolls_as_the_window_takes_them(
    tmp_path: Path, hull: LoadedMap, monkeypatch: pytest.MonkeyPatch, capsys: Any
) -> None:
    # The window's new-battle screen puts physical dice in the setup (BattleSetup
    # .initiative_dice, P-CHK-4): the same battle as the one `tessera run` begins here.
    setup = replace(
        setup_from_map(hull, seed=DEFAULT_SEED), initiative_dice=(20, 1, 11, 5, 2, 18, 7)
    )
    oracle = Battle(setup, hull.grid, load_rules())
    try:
        expected = oracle.state_hash()
        assert oracle.active == "Iyer"  # 20 + its bonus: first
    finally:
        oracle.close()
    journal = tmp_path / "j.jsonl"
    given = ",".join(f"{u}={f}" for u, f in list(TABLE_DICE.items())[:3])
    rest = ",".join(f"{u}={f}" for u, f in list(TABLE_DICE.items())[3:])
    monkeypatch.setattr(sys, "stdin", io.StringIO('{"cmd": "state"}\n'))
    args = ["run", str(HULL), "--journal", str(journal)]
    assert main([*args, "--initiative-dice", given, "--initiative-dice", rest]) == 0
    out, err = capsys.readouterr()
    assert err == ""
    output = [json.loads(line) for line in out.splitlines()]
    rolled = {e["unit"]: e["rolls"][0]["dice"] for e in output if e.get("event") == "initiative"}
    assert rolled == {u: [TABLE_DICE[u]] for u in LISTING}
    assert output[0]["state_hash"] == expected and output[0]["active"] == "Iyer"
    header = journal_lines(journal)[0]["setup"]
    assert header["initiative_dice"] == [TABLE_DICE[u] for u in LISTING]
    # Continued with the same dice (a GM's script run again), nothing changes.
    again = run_battle(
        str(HULL),
        str(journal),
        computer=[],
        initiative_dice=[given + "," + rest],
        stdin=io.StringIO(""),
        stdout=io.StringIO(),
    )
    assert again == 0


def test_every_output_line_names_the_input_line_it_answers(tmp_path: Path) -> None:
    # Conti acts first on hull_breach with the default seed; the raiders are the computer's.
    output = run_cli(
        tmp_path / "j.jsonl",
        [
            {"cmd": "state"},
            "",
            "not json",
            {"cmd": "end_turn", "unit": "Conti", "by": "gm"},
            {"cmd": "view"},
        ],
        computer=("raiders",),
    )
    assert all("line" in x for x in output)
    assert output[0]["event"] == "battle" and output[0]["line"] is None
    assert output[-1]["event"] == "end" and output[-1]["line"] is None
    opening = output[1 : output.index(next(x for x in output if x.get("event") == "state"))]
    assert opening and all(x["line"] is None for x in opening)
    assert [x["line"] for x in output if x.get("event") == "state"] == [1]
    assert [x["line"] for x in output if "error" in x] == [3]  # the blank line 2 has no answer
    after_turn = [x for x in output if x.get("line") == 4]
    # Conti's turn ends, then the computer plays the raiders' turns: all in answer to line 4.
    assert after_turn[0] == {**after_turn[0], "event": "turn_ended", "unit": "Conti"}
    raiders = {x.get("unit") for x in after_turn if x.get("event") == "turn_started"}
    assert raiders & RAIDERS
    assert [x["line"] for x in output if x.get("event") == "view"] == [5]


def test_run_with_the_computer_on_every_side_plays_a_battle_that_never_ended_to_its_end(
    tmp_path: Path,
) -> None:
    # station_interior with seed 184 once went on for ever (issue 13): units only ended their
    # turns and the journal grew until the disk was full. Now it ends before any input line.
    journal = tmp_path / "j.jsonl"
    output = run_cli(
        journal, [{"cmd": "state"}], map_path=STATION, computer=SIDES_OF_STATION, seed=184
    )
    over = [x for x in output if x.get("event") == "combat_over"]
    assert len(over) == 1 and over[0]["line"] is None
    assert output[-1]["event"] == "end" and output[-1]["over"] is True
    state = next(x for x in output if x.get("event") == "state")
    assert state["over"] is True and state["round"] <= 40
    assert len(journal_lines(journal)) == state["commands"] + 1 + state["commands"] // 100
