"""The right-click menu on one's own unit (game/ui/battle/orders.py, issue 17): the acting unit's
own menu lists what it does without a target, as the bar does, greyed with the reason.

Battles on maps/station_interior.tmx, seed 1: Kask (raiders) acts first at (11, 14, 0); the
computer plays station security. Before the fix a right-click on Kask opened nothing (the menu
had only "Help" for another ally and medkits for wounds).
"""

from __future__ import annotations

from game.ui.app import post_click, post_mouse_move
from tests.ui.conftest import MakeWindow


def _labels(menu: object) -> list[str]:
    return [button.text for _key, button in menu.buttons]  # type: ignore[attr-defined]


def test_a_right_click_on_the_acting_unit_opens_its_own_commands(
    make_window: MakeWindow,
) -> None:
    w = make_window()
    w.click(w.battle.sheet("Kask").cell, button=3)
    menu = w.scene.orders.menu
    assert menu is not None
    labels = _labels(menu)
    for wanted in ("Dash", "Dodge", "Crouch", "Prone", "End turn"):
        assert wanted in labels
    assert "Move here" not in labels and not any(t.startswith("Attack") for t in labels)


def test_choosing_crouch_from_the_acting_units_menu_crouches_it(make_window: MakeWindow) -> None:
    w = make_window()
    w.click(w.battle.sheet("Kask").cell, button=3)
    menu = w.scene.orders.menu
    assert menu is not None
    crouch = next(button for key, button in menu.buttons if key == "self:crouch")
    post_mouse_move(crouch.rect.center)
    w.frames(2)
    post_click(crouch.rect.center)
    w.frames(3)
    assert w.battle.sheet("Kask").stance.value == "crouched"
    assert w.scene.orders.menu is None


def test_a_click_on_a_cell_nobody_can_stand_on_says_so_at_once_without_cells_or_rulings(
    make_window: MakeWindow,
) -> None:
    # G-3: nobody stands or hangs in a wall. Before, the first click armed the move ("click
    # again or press Space") and the second had the battle refuse it, the status line then
    # reading "... at (x, y, z) (G-3) ..." although cells and rulings show only with Alt.
    w = make_window()
    x, y, z = w.battle.sheet("Kask").cell
    standable = w.loaded.grid.standable
    wall = next(
        (x + dx, y + dy, z)
        for dx in range(-3, 4)
        for dy in range(-3, 4)
        if 0 <= x + dx < standable.shape[0]
        and 0 <= y + dy < standable.shape[1]
        and not standable[x + dx, y + dy, z]
    )
    before = len(w.session.history)
    w.click(wall)
    assert w.scene.orders.plan is None
    said = w.scene.status_line()
    assert said == "Nobody can stand or hang at the marked cell: nowhere to land.", said
    w.click(wall)
    assert len(w.session.history) == before and w.scene.orders.plan is None
