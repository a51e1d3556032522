"""Around one laptop, on every shipped map: two players and a GM run a battle in the window, stop
it, continue it from the title screen and end it — every act through the keys, the mouse and the
window's buttons (issue 17).

Every map in maps/ (the list is read from the folder, so a new map is covered), under the map's
own default ruleset, seed 1: Anna plays the first of its sides (by id), Ben the second, a GM sits
at the table. On a player's turn the acting unit attacks the enemy whose badge shows the best
chance (two clicks); with none, it walks (two clicks) to the violet cell nearest an enemy it
knows of — else nearest the middle of the map — and attacks if it now can; then Enter ends the
turn. A reaction offered is taken (Y).

A whole battle is too slow for the suite, so it is bounded: after round 2 the table stops (Esc,
back to the title) and continues the last save; in round 3 a player calls the GM with the side
panel's GM button and the GM gives the screen back with it; after round 4 — if the battle is not
over by then — the GM takes the screen and ends the combat with the GM's tools (End combat).

At every hand-over the person who takes the screen sees only what their sides see: no token of
an enemy unit their sides do not see now (an enemy seen and lost is a ghost at the cell where it
was last seen), while the GM sees every unit. Every command sent is accepted as sent and is in
the journal, in order; an exception anywhere (the worker's included) fails the test.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pygame
import pytest

from game.app.saves import latest, list_saves
from game.app.settings import Settings
from game.battle.engine import GM
from game.battle.journal import read_journal
from game.battle.setup import setup_from_map
from game.grid.model import Cell
from game.maps import load_map
from game.ui.app import App, post_click, post_key, post_mouse_move
from game.ui.backdrop import mosaic
from game.ui.battle.scene import BattleScene
from game.ui.launch import Director, WindowOptions, new_journal_path
from game.ui.seats import Seats
from tests.ui.conftest import REPO, hold_enter_to_take

MAPS = sorted((REPO / "maps").glob("*.tmx"))
#: The table stops and continues after this round; the GM ends the combat after ROUNDS.
STOP_AFTER, ROUNDS = 2, 4
#: The cover counts its time in frames (game/ui/seats.py): a 20 fps laptop takes it in fewer.
HAND_OVER_DT = 1 / 20


@pytest.fixture
def table(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Director]:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    app = App((1280, 720))
    director = Director(app, WindowOptions(animation_speed=0), settings=Settings())
    yield director
    director.close_battle()
    app.close()


@dataclass
class Play:
    """What the table did: the commands it sent (by whom, which kind), who had the screen."""

    director: Director
    sent: list[tuple[str, str]] = field(default_factory=list)
    seen_by: set[str] = field(default_factory=set)
    handovers: int = 0
    attacks: int = 0
    moves: int = 0

    @property
    def scene(self) -> BattleScene:
        scene = _scene(self.director)
        assert scene is not None
        return scene


def _scene(director: Director) -> BattleScene | None:
    scene = director.app.scene
    scene = getattr(scene, "inner", scene)  # the UI scale's wrapper
    return scene if isinstance(scene, BattleScene) else None


def _frames(director: Director, n: int = 1) -> None:
    for _ in range(n):
        director.app.step(1 / 60)


def _idle(director: Director) -> None:
    """Step frames until the worker has handed its result over and the beats have played."""
    scene = _scene(director)
    for _ in range(2000):
        if scene is None or not (scene.worker.busy or scene.animator.busy):
            break
        _frames(director)
    _frames(director, 2)


def _wait_for_battle(director: Director) -> BattleScene:
    """Step the progress screen until the battle opens (its work runs in a thread)."""
    start = time.monotonic()
    while time.monotonic() - start < 120 and director.failure is None:
        scene = _scene(director)
        if scene is not None:
            return scene
        _frames(director)
        time.sleep(0.005)
    raise AssertionError(f"the battle never opened: {director.failure}")


def _point(scene: BattleScene, cell: Cell) -> tuple[int, int]:
    """The screen point of a cell, its level shown and the board panned to it."""
    if scene.board.level != cell[2]:
        scene.board.set_level(cell[2])
        scene.refresh()
    scene.board.show_cell(cell)
    x, y = scene.board.cell_centre(cell)
    return round(x), round(y)


def _press(play: Play, key: int) -> None:
    post_key(key)
    _frames(play.director, 2)
    _idle(play.director)


def _click(play: Play, point: tuple[int, int]) -> None:
    post_mouse_move(point)
    _frames(play.director, 2)
    post_click(point)
    _frames(play.director, 2)
    _idle(play.director)


def _sends(play: Play, kind: str, act: Callable[[], None]) -> None:
    """Do `act` (a click or a key) that gives one command of `kind`; it is in effect after it."""
    scene = play.scene
    person = scene.player
    before = len(scene.session.history)
    act()
    history = play.scene.session.history
    assert len(history) == before + 1, (person, kind, scene.status)
    step = history[-1]
    assert (step.by, type(step.command).__name__) == (person, kind), (step, scene.status)
    play.sent.append((person, kind))


def _check_view(play: Play) -> None:
    """The person who just took the screen sees their sides' units and the enemies their sides
    see now (ghosts where lost ones were last seen); the GM sees every unit."""
    scene = play.scene
    battle = scene.battle
    alive = {
        u
        for u in battle.world.unit_ids
        if battle.on_map(u) and "dead" not in battle.sheet(u).health.to_dict().get("conditions", ())
    }
    drawn = {t.id for t in scene.tokens() if not t.ghost}
    ghosts = {(t.id, t.cell) for t in scene.tokens() if t.ghost}
    if scene.player == GM:
        assert drawn == alive and not ghosts
        return
    factions = battle.factions_of(scene.player)
    own = {u for u in alive if battle.faction_of(u) in factions}
    seen = set().union(*(battle.vision.factions[f].units for f in factions))
    assert drawn == own | (alive & seen), (scene.player, drawn ^ (own | (alive & seen)))
    last = {(u, c) for f in factions for u, c in battle.vision.factions[f].last_known.items()}
    assert ghosts <= last and not {u for u, _c in ghosts} & seen
    # The tracker names no enemy never seen (P-INIT-4): only those seen now or once.
    placed = {u for u, _total in scene.view.order}
    ours = {u for u in battle.world.unit_ids if battle.faction_of(u) in factions}
    assert placed - ours <= seen | {u for u, _c in last}, (scene.player, placed - ours)


def _take(play: Play) -> None:
    """The person named takes the screen (Enter held) and what they see is checked."""
    # The cover shows nothing of the battle: outside its pane, the title screen's mosaic.
    _frames(play.director)
    screen, size = play.director.app.screen, play.director.app.size
    backdrop, pane = mosaic(size), Seats.pane_rect(size)
    corners = [(x, y) for x in range(0, size[0], 97) for y in range(0, size[1], 89)]
    outside = [p for p in corners if not pane.inflate(2, 2).collidepoint(p)]
    assert all(screen.get_at(p) == backdrop.get_at(p) for p in outside)
    hold_enter_to_take(play.director.app, play.scene, dt=HAND_OVER_DT)
    play.handovers += 1
    _check_view(play)


def _best_target(play: Play) -> Cell | None:
    """Hover each enemy in view; the cell of the one whose badge shows the best chance."""
    scene = play.scene
    best: tuple[float, Cell] | None = None
    for u in scene.view.units:
        if u.own or "dead" in u.wounds.get("conditions", ()):
            continue
        point = _point(scene, u.cell)
        post_mouse_move(point)
        _frames(play.director, 2)
        for _rect, badge in scene.board.badges_shown():
            if badge.cell == u.cell and badge.title.endswith("%"):
                p = float(badge.title[:-1])
                if p > 0 and (best is None or p > best[0]):
                    best = (p, u.cell)
    return None if best is None else best[1]


def _walk_cell(scene: BattleScene) -> Cell | None:
    """The violet cell nearest an enemy the player knows of (else the map's middle), in a
    column no shown unit stands in."""
    if scene.reach is None or scene.view.active is None:
        return None
    # Not under any shown unit, whatever its level: a unit on another level is shown (and
    # targeted) over the same column by its marker.
    taken = {u.cell[:2] for u in scene.view.units}
    enemies = [u.cell for u in scene.view.units if not u.own] + [c for _u, c in scene.view.ghosts]
    if not enemies:
        w, h, _d = scene.battle.grid.shape
        enemies = [(w // 2, h // 2, 0)]
    cells = [c for c in scene.reach.cells if c[:2] not in taken]
    if not cells:
        return None

    def far(c: Cell) -> tuple[float, Cell]:
        return (min(math.dist(c, e) for e in enemies), c)

    return min(cells, key=far)


def _act(play: Play) -> None:
    """The acting unit's turn: attack, else walk and perhaps attack; then Enter."""
    target = _best_target(play)
    if target is None:
        cell = _walk_cell(play.scene)
        if cell is not None:
            point = _point(play.scene, cell)
            _click(play, point)  # aims: the path shows
            _sends(play, "Move", lambda: _click(play, point))
            play.moves += 1
            target = _best_target(play)
    if target is not None and play.scene.battle.active is not None:
        point = _point(play.scene, target)
        _click(play, point)  # aims: the chance shows
        before = len(play.scene.session.history)
        _click(play, point)  # the second click confirms
        if len(play.scene.session.history) == before:
            # Refused after a walk spent the action's budget (the bar greys it): say why.
            assert play.scene.status, "an attack click was lost without a word"
        else:
            step = play.scene.session.history[-1]
            play.sent.append((step.by, type(step.command).__name__))
            play.attacks += 1
    if play.scene.seats.waiting_for is None and play.scene.prompts.prompt is None:
        _sends(play, "EndTurn", lambda: _press(play, pygame.K_RETURN))


def _play_turn(play: Play) -> None:
    """Whoever is asked acts: the hand-over taken, a prompt answered, or a turn played."""
    scene = play.scene
    if scene.seats.waiting_for is not None:
        _take(play)
        return
    play.seen_by.add(scene.player)
    if scene.guide is not None:  # the first battle's guide: read, then put away
        _press(play, pygame.K_ESCAPE)
        return
    if scene.prompts.prompt is not None:
        if scene.prompts.kind == "reaction":
            _sends(play, "React", lambda: _press(play, pygame.K_y))
        else:
            _press(play, pygame.K_ESCAPE)
        return
    if scene.player == GM:  # the GM gives the screen back with the side panel's GM button
        _gm_button(play)
        return
    _act(play)


def _gm_button(play: Play) -> None:
    button = play.scene.side.gm
    assert button is not None
    _click(play, button.rect.center)
    assert play.scene.seats.waiting_for is not None  # covered at once


def _journal_commands(path: Path) -> list[tuple[str, str]]:
    """The commands in effect as the journal has them, in order (undo and redo markers
    applied)."""
    commands: list[tuple[str, str]] = []
    undone: list[tuple[str, str]] = []
    for entry in read_journal(path).entries:
        if entry.command is not None:
            commands.append((entry.by, type(entry.command).__name__))
            undone.clear()
        elif entry.marker == "undo":
            undone.append(commands.pop())
        elif entry.marker == "redo":
            commands.append(undone.pop())
    return commands


def _play_until(play: Play, done: Callable[[], bool]) -> None:
    for _ in range(600):
        if done() or play.scene.battle.over:
            return
        _play_turn(play)
    raise AssertionError("the table never got there")


@pytest.mark.parametrize("map_path", MAPS, ids=[m.stem for m in MAPS])
def test_two_players_and_a_gm_play_stop_continue_and_end_a_battle_on_every_shipped_map(
    table: Director, map_path: Path
) -> None:
    loaded = load_map(map_path)
    first, second = sorted({u.faction for u in loaded.units})[:2]
    setup = setup_from_map(loaded, seed=1, players={"Anna": (first,), "Ben": (second,)}, gm=True)
    # The map's own default ruleset (its `ruleset` property): periferie, or fantasy on the keep.
    table.start(setup, new_journal_path(map_path))
    play = Play(table)
    scene = _wait_for_battle(table)
    assert scene.battle.setup.ruleset == setup.ruleset
    assert scene.seats.waiting_for in {"Anna", "Ben"}  # opened on the hand-over
    journal = scene.session.journal
    assert journal is not None
    _play_until(play, lambda: play.scene.battle.round > STOP_AFTER)

    # Stop: Esc (nothing to cancel) pauses, "back to the title" leaves; the journal is the save.
    if not play.scene.battle.over:
        while play.scene.seats.waiting_for is not None or play.scene.guide is not None:
            _play_turn(play)
        hash_before = play.scene.battle.state_hash()
        commands_before = len(play.scene.session.history)
        _press(play, pygame.K_ESCAPE)
        assert play.scene.prompts.prompt is not None and play.scene.prompts.kind == "pause"
        prompt = play.scene.prompts.prompt
        _click(play, dict(prompt.buttons)["title"].rect.center)  # "Back to the title"
        assert _scene(table) is None  # the title screen
        save = latest(list_saves())
        assert save is not None and save.round == STOP_AFTER + 1
        table.resume(save.path)
        scene = _wait_for_battle(table)
        assert scene.battle.state_hash() == hash_before
        assert len(scene.session.history) == commands_before

        # A player calls the GM with the GM button; the GM sees everything and gives it back.
        while play.scene.seats.waiting_for is not None or play.scene.prompts.prompt is not None:
            _play_turn(play)
        if not play.scene.battle.over:
            _gm_button(play)
            assert play.scene.seats.waiting_for == GM
            _take(play)
            assert play.scene.player == GM and play.scene.gm_panel is not None
            _gm_button(play)
        _play_until(play, lambda: play.scene.battle.round > ROUNDS)

    assert {"Anna", "Ben"} <= play.seen_by
    if not play.scene.battle.over:
        # The GM takes the screen and ends the combat from the GM's tools.
        while play.scene.seats.waiting_for is not None and play.scene.seats.waiting_for != GM:
            _take(play)
        if play.scene.player != GM:
            _gm_button(play)
            _take(play)
        panel = play.scene.gm_panel
        assert play.scene.player == GM and panel is not None
        end = panel.button("End combat")
        _sends(play, "EndCombat", lambda: _click(play, end.rect.center))
    assert play.scene.battle.over
    assert "The combat is over" in play.scene.log_text()
    assert latest(list_saves()) is None  # a finished battle is not "continue"
    # No command lost: each one sent is in the journal, in order, and nothing else is.
    assert _journal_commands(journal) == play.sent
    assert play.handovers >= 4
