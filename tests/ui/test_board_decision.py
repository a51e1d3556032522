"""The board shows the decision (issue 17): a readable start centred on the acting unit, the
hit chance and cover over the hovered target, the path's cost at the pointer, reach colours no
tile has, tokens whose stance reads at a glance, coordinates and ruling ids only behind Alt.

Battles on maps/station_interior.tmx with seed 1: Kask (raiders, at (11, 14, 0)) acts first;
the raiders see Okafor (20, 2, 1) and Vidal (28, 9, 1) on the gallery above.
"""

from __future__ import annotations

import numpy as np
import pygame

from game.battle import preview
from game.grid.model import Cell
from game.text import explain
from game.ui.aim import plain
from game.ui.app import post_mouse_move
from game.ui.board import (
    DASH,
    FACTION_COLOURS,
    FIGURE_COLOUR,
    REACH_FAR,
    REACH_NEAR,
    Board,
    Overlay,
    Token,
    plate,
)
from game.ui.camera import READABLE_CELL
from tests.ui.conftest import REPO, MakeWindow


def test_the_battle_opens_zoomed_in_where_a_token_reads_centred_on_the_acting_unit(
    make_window: MakeWindow,
) -> None:
    w = make_window()
    board = w.scene.board
    kask = w.battle.sheet("Kask").cell
    # Before issue 17 the battle opened on the whole map fitted: 16 px a cell at 1280x720.
    assert board.cell_rect(kask).width >= READABLE_CELL
    view = board.viewport
    x, y = board.cell_centre(kask)
    assert abs(x - view.centerx) <= board.cell_rect(kask).width
    assert abs(y - view.centery) <= board.cell_rect(kask).height
    assert board.level == kask[2]


def test_p_hit_2_hovering_an_enemy_draws_its_hit_chance_and_cover_over_it_from_the_preview(
    make_window: MakeWindow,
) -> None:
    w = make_window()
    vidal = w.battle.sheet("Vidal").cell
    w.at(vidal)
    w.frames(1)
    before = w.pixels()
    w.hover(vidal)
    shot = preview.attack(w.battle, "player", "Kask", "Vidal")
    assert shot is not None and shot.answer.hit is not None
    badges = [(rect, b) for rect, b in w.scene.board.badges_shown() if b.cell == vidal]
    assert len(badges) == 1
    rect, badge = badges[0]
    assert badge.title == f"{shot.answer.hit.p}%"
    assert shot.answer.cover is not None
    assert badge.shield == shot.answer.cover.percent
    assert badge.lines == (f"Cover: {explain.cover_name(shot.answer.cover.grade)}",)
    # drawn over the board just above the target, where the pointer is
    assert w.scene.board.viewport.contains(rect)
    target = w.scene.board.cell_rect(vidal)
    assert abs(rect.centerx - target.centerx) <= target.width and rect.bottom <= target.top
    after = w.pixels()
    changed = sum(
        1
        for x in range(rect.left, rect.right, 2)
        for y in range(rect.top, rect.bottom, 2)
        if before.get_at((x, y)) != after.get_at((x, y))
    )
    assert changed > rect.width * rect.height // 8


def test_hovering_a_cell_draws_the_paths_cost_at_the_pointer_from_the_preview(
    make_window: MakeWindow,
) -> None:
    w = make_window()
    to = (13, 16, 0)
    w.hover(to)
    path = preview.path(w.battle, "player", "Kask", to, ())
    assert path is not None and path.cost == 2
    titles = [b.title for _rect, b in w.scene.board.badges_shown() if b.cell == to]
    assert titles == ["2 pt"]


def test_coordinates_and_ruling_ids_show_only_while_alt_is_held(make_window: MakeWindow) -> None:
    w = make_window()
    vidal = w.battle.sheet("Vidal").cell
    w.hover(vidal)
    w.hover((13, 16, 0))
    shown = w.scene.hover_text() + w.scene.side.text("unit")
    assert "(13, 16, 0)" not in shown and "(11, 14, 0)" not in shown
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_LALT, mod=0, unicode=""))
    w.frames(2)
    shown = w.scene.hover_text() + w.scene.side.text("unit")
    assert "(13, 16, 0)" in shown and "(11, 14, 0)" in shown


def test_ruling_ids_are_taken_out_of_a_line_without_alt_and_kept_with_it() -> None:
    line = "Vidal may strike as you leave (3, 4, 0) (P-OA-1); lands (within range, P-THR-1)."
    shown = "Vidal may strike as you leave (3, 4, 0); lands (within range)."
    assert plain(line, alt=False) == shown
    assert plain(line, alt=True) == line
    assert plain("Jump 2 high (P-JUMP-1/3)", alt=False) == "Jump 2 high"


def _hue(rgb: np.ndarray) -> np.ndarray:
    """Hue in degrees of rows of RGB (0..255)."""
    r, g, b = (rgb[:, i].astype(np.float64) for i in range(3))
    top, low = rgb.max(axis=1).astype(np.float64), rgb.min(axis=1).astype(np.float64)
    span = np.where(top > low, top - low, 1.0)
    hue = np.where(
        top == r, (g - b) / span % 6, np.where(top == g, (b - r) / span + 2, (r - g) / span + 4)
    )
    return hue * 60.0


def test_reach_and_dash_colours_have_hues_no_tile_of_our_tilesets_has() -> None:
    hues = []
    for png in sorted((REPO / "assets" / "tilesets").glob("*.png")):
        image = pygame.image.load(str(png))
        rgb = pygame.surfarray.array3d(image).reshape(-1, 3)
        alpha = pygame.surfarray.array_alpha(image).reshape(-1)
        rgb = rgb[alpha > 128]
        top, low = rgb.max(axis=1), rgb.min(axis=1)
        # coloured pixels only: greys have no hue to be confused by
        coloured = (top > 50) & (top - low > 0.25 * top)
        hues.append(_hue(rgb[coloured]))
    tile_hues = np.concatenate(hues)
    counts = np.bincount(tile_hues.astype(int) % 360, minlength=360)
    used = np.flatnonzero(counts > 0.002 * len(tile_hues))  # a hue on more than 0.2 % of them
    assert len(used) > 20  # the measure sees the tilesets' colours
    drawn = np.array([REACH_NEAR, REACH_FAR, DASH[:3]], dtype=np.float64)
    for hue in _hue(drawn):
        gap = np.abs((used - hue + 180) % 360 - 180).min()
        assert gap >= 30, f"a reach colour's hue {hue:.0f} is {gap:.0f} degrees from a tile's"


def _figure_box(screen: pygame.Surface, board: Board, cell: Cell) -> tuple[int, int]:
    """Width and height of the figure's ink inside a token's cell."""
    rect = board.cell_rect(cell)
    ink = [
        (x, y)
        for x in range(rect.left, rect.right)
        for y in range(rect.top, rect.bottom)
        if tuple(screen.get_at((x, y)))[:3] == FIGURE_COLOUR
    ]
    assert ink, "no figure drawn"
    xs, ys = [p[0] for p in ink], [p[1] for p in ink]
    return max(xs) - min(xs) + 1, max(ys) - min(ys) + 1


def test_a_tokens_figure_shows_its_stance_upright_folded_or_lying(make_window: MakeWindow) -> None:
    w = make_window()
    board = w.scene.board
    cells = {"standing": (11, 14, 0), "crouched": (13, 14, 0), "prone": (15, 14, 0)}
    tokens = [
        Token(stance, cell, FACTION_COLOURS[0], stance, {}, own=True, side=0)
        for stance, cell in cells.items()
    ]
    board.focus(cells["crouched"])
    screen = pygame.Surface(w.app.size)
    board.draw(screen, tokens, Overlay())
    boxes = {stance: _figure_box(screen, board, cell) for stance, cell in cells.items()}
    (sw, sh), (_cw, ch), (pw, ph) = boxes["standing"], boxes["crouched"], boxes["prone"]
    assert sh > 1.5 * sw  # upright
    assert pw > 1.5 * ph  # lying flat
    assert ph < ch < sh  # folded: lower than standing, higher than lying


def test_tokens_of_different_sides_have_differently_shaped_bases() -> None:
    shapes = []
    for side in range(3):
        image = pygame.Surface((60, 60), pygame.SRCALPHA)
        plate(image, (30, 30), 24, side, (255, 255, 255))
        shapes.append(pygame.mask.from_surface(image).count())
    assert len(set(shapes)) == 3


def test_whose_turn_it_is_is_written_on_the_board_in_the_acting_sides_colour(
    make_window: MakeWindow,
) -> None:
    w = make_window()
    assert w.scene.turn_banner() == ("Your turn: Kask", FACTION_COLOURS[0])
    view = w.scene.board.viewport
    screen = w.pixels()
    top = [
        tuple(screen.get_at((x, y)))[:3]
        for x in range(view.centerx - 150, view.centerx + 150)
        for y in range(view.top, view.top + 50)
    ]
    assert top.count(FACTION_COLOURS[0]) > 100


def test_a_cell_out_of_reach_is_called_this_cell_and_named_by_coordinates_only_with_alt(
    make_window: MakeWindow,
) -> None:
    w = make_window()
    far = (21, 14, 0)
    w.hover(far)
    shown = w.scene.hover_text()
    assert "this cell" in shown.lower() and "(21, 14, 0)" not in shown
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_LALT, mod=0, unicode=""))
    w.frames(2)
    assert "(21, 14, 0)" in w.scene.hover_text()


def test_the_turn_banner_moves_to_the_boards_foot_when_a_badge_sits_under_it(
    make_window: MakeWindow,
) -> None:
    # Seen in play on the keep: the hit-chance badge of a target near the top of the board was
    # drawn under "Your turn: ..." and could not be read.
    w = make_window()
    board = w.scene.board
    vidal = w.battle.sheet("Vidal").cell
    w.at(vidal)
    x, y = board.cell_centre(vidal)
    view = board.viewport
    # Pan so that Vidal's cell sits right under the banner's place, top centre, and point at it.
    board.camera.pan(x - view.centerx, y - view.top - 135)
    post_mouse_move(tuple(round(v) for v in board.cell_centre(vidal)))  # type: ignore[arg-type]
    w.frames(2)
    shown = [rect for rect, badge in board.badges_shown() if badge.cell == vidal]
    assert len(shown) == 1 and shown[0].top < view.top + 50  # the badge is where the banner was
    banner = board.draw_banner(pygame.Surface(w.scene.size), "Your turn: Kask", FACTION_COLOURS[0])
    assert not banner.colliderect(shown[0])
    assert banner.bottom > view.centery  # moved to the foot of the board
