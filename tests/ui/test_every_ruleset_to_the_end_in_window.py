"""Every playable ruleset fought to its end in the battle window (issue 16: each ruleset "fought
to the end in the window"): `tessera play MAP --ruleset R` with every side given to the computer,
watched with the GM's eyes, frame after frame until the combat is over and the window says so.

The window draws every frame of the battle (the board, the tracker, the log, each computer
command's beats) and an exception anywhere fails the test. The same battle is then fought
headless by `tessera run` (the same seed, ruleset and sides): it writes the window's journal byte
for byte, and `tessera replay` rebuilds that journal to the state the window ended in.

The periferie battle in the window is tests/ui/test_battle_scene.py's demo battle, played with the
mouse and keys. The battles here are on the crater map (maps/surface_outpost.tmx, the quickest to
draw) at seeds whose battle is short (found by playing seeds 1-12 headless); every ruleset on
every shipped map is fought headless in tests/battle (see test_every_ruleset_headless.py)."""

from __future__ import annotations

import io
import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from game.battle.cli import replay_journal, run_battle
from game.battle.engine import GM
from game.battle.session import Session
from game.battle.setup import with_ruleset
from game.maps import load_map
from game.ui.app import App
from game.ui.battle.scene import BattleScene
from game.ui.launch import single_player_setup, viewer_for
from tests.ui.conftest import REPO

CRATER = REPO / "maps" / "surface_outpost.tmx"
#: A seed per ruleset whose computer battle on the crater ends in under 200 commands.
SEEDS = {"cepheus": 8, "d20": 3, "myst": 5, "fantasy": 3}
#: Far more frames than any of these battles takes (one computer command a frame, animations
#: instant): more means the window stopped playing.
MAX_FRAMES = 1500


@pytest.fixture
def app() -> Iterator[App]:
    app = App((1280, 720))
    yield app
    app.close()


@pytest.mark.parametrize("ruleset", sorted(SEEDS))
def test_a_computer_battle_of_the_ruleset_is_fought_to_its_end_in_the_window_as_tessera_run_does(
    app: App, ruleset: str, tmp_path: Path
) -> None:
    loaded = load_map(CRATER)
    factions = tuple(sorted({u.faction for u in loaded.units}))
    setup = with_ruleset(
        single_player_setup(loaded, computer=factions, seed=SEEDS[ruleset]), ruleset
    )
    journal = tmp_path / "window.jsonl"
    session = Session.new(setup, journal)
    try:
        assert viewer_for(session) == GM  # every side the computer's: the GM's eyes
        scene = BattleScene(app.size, session, GM, loaded.render, animation_speed=0)
        app.show(scene)
        b = session.battle
        for _ in range(MAX_FRAMES):
            app.step(1 / 60)
            if b.over and not scene.animator.busy:
                break
        app.step(1 / 60)
        assert b.over, f"{ruleset}: not over after {MAX_FRAMES} frames (round {b.round})"
        assert b.setup.ruleset == ruleset and len(session.history) > 10
        # The end as the window shows it: the status line and the log name the winner (or none:
        # the stalemate rule), the turn banner is gone, every command sent was the computer's.
        said = scene.status_line()
        assert said.startswith("The combat is over")
        if b.winner is not None:
            assert said != "The combat is over."
        assert "The combat is over" in scene.log_text()
        assert scene.turn_banner() is None
        assert {step.by for step in session.history} == {"computer"}
        final = b.state_hash()
    finally:
        session.close()
    # Headless, the same battle: `tessera run` writes the window's journal byte for byte, and
    # `tessera replay` rebuilds it (every line's dice and state hash checked) to the same end.
    out = io.StringIO()
    run = tmp_path / "run.jsonl"
    status = run_battle(
        str(CRATER),
        str(run),
        computer=list(factions),
        seed=SEEDS[ruleset],
        ruleset=ruleset,
        stdin=io.StringIO(""),
        stdout=out,
    )
    end = json.loads(out.getvalue().splitlines()[-1])
    assert status == 0 and end["event"] == "end" and end["state_hash"] == final
    assert run.read_bytes() == journal.read_bytes()
    out = io.StringIO()
    assert replay_journal(str(journal), stdout=out) == 0
    assert f"state hash: {final}" in out.getvalue()
