"""The board draws the map in cached chunks, some ahead of need (game/ui/board.py): what it shows
is what a plain drawing of the whole view shows, whatever it drew before."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pygame
import pytest
from numpy.typing import NDArray

from game.maps import RenderMap, load_map
from game.ui import board as board_module
from game.ui.board import BACKGROUND, FRAME_CHUNKS, GRID_ALPHA, Board, Overlay
from game.ui.camera import ZOOMS
from game.ui.tiles import PREMULTIPLIED

REPO = Path(__file__).resolve().parents[2]
VIEWPORT = (10, 30, 700, 420)
SCREEN = (720, 480)


@pytest.fixture(autouse=True)
def display(monkeypatch: pytest.MonkeyPatch) -> Iterator[pygame.Surface]:
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    pygame.display.init()
    yield pygame.display.set_mode(SCREEN)
    pygame.display.quit()


@pytest.fixture(scope="module")
def outpost() -> RenderMap:
    return load_map(REPO / "maps" / "surface_outpost.tmx").render


def _shown(board: Board) -> NDArray[np.int64]:
    screen = pygame.Surface(SCREEN)
    screen.fill((255, 0, 255))
    board.draw(screen, [], Overlay())
    view = board.viewport
    return pygame.surfarray.array3d(screen)[view.left : view.right, view.top : view.bottom].astype(
        np.int64
    )


def _fog(render: RenderMap, seed: int) -> tuple[NDArray[np.bool_], NDArray[np.bool_]]:
    cols, rows = render.size
    rng = np.random.default_rng(seed)
    remembered = rng.random((cols, rows, len(render.levels))) < 0.8
    seen = remembered & (rng.random(remembered.shape) < 0.6)
    return seen, remembered


def test_at_zoom_1_the_board_shows_the_view_from_its_level_under_a_faint_grid(
    outpost: RenderMap,
) -> None:
    board = Board(outpost, VIEWPORT)
    board.set_level(1)
    board.camera.zoom = 1.0
    board.camera.x, board.camera.y = 403.0, 261.0  # chunk edges cross the view
    # The plain drawing: the whole view from level 1 over the background, a line along the left
    # and top edge of every cell.
    frame = pygame.Surface(VIEWPORT[2:])
    frame.fill(BACKGROUND)
    frame.blit(board.levels.compose_levels(1), (-403, -261), special_flags=PREMULTIPLIED)
    lines = pygame.Surface(VIEWPORT[2:], pygame.SRCALPHA)
    (cols, rows), (tw, th) = outpost.size, outpost.tile_size
    for x in range(cols):
        pygame.draw.line(
            lines, (0, 0, 0, GRID_ALPHA), (x * tw - 403, -261), (x * tw - 403, rows * th - 262)
        )
    for y in range(rows):
        pygame.draw.line(
            lines, (0, 0, 0, GRID_ALPHA), (-403, y * th - 261), (cols * tw - 404, y * th - 261)
        )
    frame.blit(lines, (0, 0))
    expected = pygame.surfarray.array3d(frame).astype(np.int64)
    assert np.array_equal(_shown(board), expected)


@pytest.mark.parametrize("zoom", [1.0, 0.75, 1.5, 0.25, 3.0])
def test_a_board_that_drew_ahead_and_moved_about_shows_what_a_new_board_shows(
    outpost: RenderMap, zoom: float
) -> None:
    seen, remembered = _fog(outpost, 3)
    busy = Board(outpost, VIEWPORT)
    busy.set_fog(seen, remembered)
    busy.set_reach({(5, 5, 0): 2, (6, 5, 0): 4}, {(7, 5, 0): 6}, 5)
    for step in range(40):  # panning, zooming and drawing ahead all the while
        busy.camera.pan(37.5, 21.25)
        if step % 13 == 0:
            busy.camera.zoom_at(1 if step % 2 else -1, 300, 200)
        _shown(busy)
        busy.prefetch(1.0)
    busy.camera.zoom = zoom
    busy.camera.centre_on(700.3, 500.6)
    fresh = Board(outpost, VIEWPORT)
    fresh.set_fog(seen, remembered)
    fresh.set_reach({(5, 5, 0): 2, (6, 5, 0): 4}, {(7, 5, 0): 6}, 5)
    fresh.camera.zoom = zoom
    fresh.camera.centre_on(700.3, 500.6)
    assert np.array_equal(_shown(busy), _shown(fresh))


def test_new_fog_reach_or_level_is_drawn_over_the_chunks_already_drawn(
    outpost: RenderMap,
) -> None:
    reach = ({(20, 12, 0): 1, (21, 12, 0): 3, (22, 13, 0): 4}, {(23, 13, 0): 6}, 5)

    def show(board: Board, level: int, fog: int, cells: object) -> None:
        # As the scene does: the fog and the reach are worked out for the level in view.
        board.set_level(level)
        board.set_fog(*_fog(outpost, fog))
        board.set_reach(*cells)  # type: ignore[misc]

    board = Board(outpost, VIEWPORT)
    board.camera.zoom = 1.0
    board.camera.centre_on(650, 420)
    show(board, 0, 1, ({}, {}, 1))
    before = _shown(board)
    board.prefetch(1.0)
    for level, fog, cells in ((0, 2, ({}, {}, 1)), (0, 2, reach), (2, 2, reach)):
        show(board, level, fog, cells)
        after = _shown(board)
        assert not np.array_equal(after, before)
        fresh = Board(outpost, VIEWPORT)
        fresh.camera.zoom, fresh.camera.x, fresh.camera.y = 1.0, board.camera.x, board.camera.y
        show(fresh, level, fog, cells)
        assert np.array_equal(after, _shown(fresh))
        before = after


def test_the_same_fog_and_reach_again_keep_the_chunks_already_drawn(outpost: RenderMap) -> None:
    board = Board(outpost, VIEWPORT)
    seen, remembered = _fog(outpost, 5)
    board.set_fog(seen, remembered)
    board.set_reach({(3, 3, 0): 2}, {}, 4)
    _shown(board)
    chunks = board.kept_chunks()
    board.set_fog(seen.copy(), remembered.copy())
    board.set_reach({(3, 3, 0): 2}, {}, 4)
    _shown(board)
    again = board.kept_chunks()
    assert chunks and all(again[key] is shown for key, shown in chunks.items())
    assert board.chunks_current()


def test_the_board_keeps_its_chunks_within_their_budget_as_it_pans_over_the_map(
    outpost: RenderMap, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(board_module, "CHUNK_BUDGET", 2 * 10 * 512 * 512)  # ten chunks
    board = Board(outpost, VIEWPORT)
    board.camera.zoom = 1.0
    (cols, rows), (tw, th) = outpost.size, outpost.tile_size
    for y in range(0, rows * th, 300):
        for x in range(0, cols * tw, 300):
            board.camera.x, board.camera.y = float(x), float(y)
            _shown(board)
            board.prefetch(1.0)
            assert board.chunk_pixels <= board_module.CHUNK_BUDGET
            assert board.showing() <= set(board.kept_chunks())


def test_what_is_on_screen_stays_drawn_even_over_the_budget(
    outpost: RenderMap, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(board_module, "CHUNK_BUDGET", 2 * 512 * 512)  # one chunk
    board = Board(outpost, VIEWPORT)
    board.camera.zoom = 1.0
    board.camera.centre_on(512, 512)  # four chunks in view
    first = _shown(board)
    drawn = board.chunks_drawn
    assert drawn == 4
    board.prefetch(1.0)
    assert np.array_equal(_shown(board), first)
    assert board.chunks_drawn == drawn


def _ready_views(board: Board) -> set[tuple[float, int, int]]:
    """The (zoom, column, row) chunks of the board's level whose map is drawn, at every zoom."""
    nx, ny = board.levels.chunk_counts
    return {
        (zoom, cx, cy)
        for zoom in ZOOMS
        for cx in range(nx)
        for cy in range(ny)
        if board.levels.is_ready(board.level, zoom, cx, cy)
    }


def test_issue_18_a_frame_in_which_the_view_jumps_draws_at_most_its_budget_of_new_chunks(
    outpost: RenderMap,
) -> None:
    # The window's board follows the acting unit: a jump to a part of the map not drawn yet
    # needs a screenful of new chunks; one frame draws FRAME_CHUNKS of them (the middle of the
    # view first) and shows the others by stand-ins, and no work ahead of need on top; each
    # later frame draws FRAME_CHUNKS more until none waits.
    board = Board(outpost, VIEWPORT, frame_chunks=FRAME_CHUNKS)
    board.set_fog(*_fog(outpost, 4))
    board.camera.zoom = 1.5
    _shown(board)
    board.camera.zoom = 1.0
    board.camera.x, board.camera.y = 403.0, 261.0
    frames = 0
    while True:
        before = _ready_views(board)
        not_ready = {c for c in board.showing() if c[1:] not in before} if frames else set()
        _shown(board)
        drawn_now = _ready_views(board) - before
        assert len(drawn_now) <= FRAME_CHUNKS
        if frames == 0:
            # The middle of the view is the chunk drawn.
            middle = board.camera.to_map(*board.viewport.center)
            side = board.levels.chunk_cells * outpost.tile_size[0]
            assert drawn_now == {(1.0, int(middle[0] // side), int(middle[1] // side))}
            waiting = len([c for c in board.showing() if c[1:] not in before]) - FRAME_CHUNKS
            assert board.waiting == waiting > 0
        else:
            assert board.waiting == len(not_ready) - len(drawn_now)
        frames += 1
        if not board.waiting:
            break
    assert frames == 1 + -(-waiting // FRAME_CHUNKS)
    assert board.chunks_current()


@pytest.mark.parametrize("zoom", [1.0, 1.5, 0.75])
def test_issue_18_a_board_drawing_a_few_new_chunks_a_frame_ends_as_the_board_drawing_all(
    outpost: RenderMap, zoom: float
) -> None:
    # Pixel for pixel, once the frames have drawn every chunk in view, the board with a frame
    # budget shows what the board drawing every new chunk at once shows (fog, reach and all),
    # after a jump from a view drawn at another zoom (its chunks were the stand-ins).
    seen, remembered = _fog(outpost, 9)
    reach = ({(20, 12, 1): 2, (21, 12, 1): 4}, {(22, 12, 1): 6}, 5)
    boards = []
    for budget in (FRAME_CHUNKS, None):
        board = Board(outpost, VIEWPORT, frame_chunks=budget)
        board.set_level(1)
        board.set_fog(seen, remembered)
        board.set_reach(*reach)  # type: ignore[arg-type]
        board.camera.zoom = 2.0
        board.camera.x, board.camera.y = 700.0, 400.0
        _shown(board)
        board.camera.zoom = zoom
        board.camera.x, board.camera.y = 403.0, 261.0
        boards.append(board)
    budgeted, everything = boards
    first = _shown(budgeted)
    assert budgeted.waiting > 0
    expected = _shown(everything)
    assert everything.waiting == 0
    assert not np.array_equal(first, expected)  # stand-ins meanwhile
    while budgeted.waiting:
        shown = _shown(budgeted)
    assert np.array_equal(shown, expected)
