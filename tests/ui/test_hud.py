"""The battle window's widgets kept and updated in place (issue 18): the log's appended text
drawn without drawing the rest again, the tracker's and the action bar's buttons kept."""

from __future__ import annotations

from collections.abc import Iterator

import pygame
import pygame_gui
import pytest
from pygame_gui.elements import UITextBox

from game.ui import hud


@pytest.fixture
def manager() -> Iterator[pygame_gui.UIManager]:
    pygame.init()
    pygame.display.set_mode((1280, 720))
    yield hud.manager((1280, 720), {"blue": (40, 90, 200), "red": (200, 40, 40)})
    pygame.quit()


def _entry(i: int) -> str:
    extra = " and a longer sentence that wraps onto the next row of the box" * (i % 3)
    return f"<i>Entry {i}</i>: Kask moves to the door{extra}."


def test_the_log_box_draws_appended_entries_to_the_same_pixels_as_pygame_gui(
    manager: pygame_gui.UIManager,
) -> None:
    rect = pygame.Rect(0, 0, 318, 260)
    ours = hud.LogBox("", rect, manager=manager)
    theirs = UITextBox("", rect, manager=manager)
    for box in (ours, theirs):
        box.set_text(_entry(0))
    grew = 0
    for i in range(1, 30):
        before = ours.text_box_layout.finalised_surface.get_height()
        for box in (ours, theirs):
            box.append_html_text("<br>" + _entry(i))
        mine = ours.text_box_layout.finalised_surface
        grew += mine.get_height() > before
        reference = theirs.text_box_layout.finalised_surface
        assert mine.get_size() == reference.get_size()
        assert pygame.image.tobytes(mine, "RGBA") == pygame.image.tobytes(reference, "RGBA"), i
        assert pygame.image.tobytes(ours.image, "RGBA") == pygame.image.tobytes(
            theirs.image, "RGBA"
        )
    assert grew > 10  # the box grew (the case drawn anew by pygame-gui) many times


def test_the_tracker_keeps_its_chips_and_moves_the_active_style_between_them(
    manager: pygame_gui.UIManager,
) -> None:
    tracker = hud.Tracker(manager, 1280)
    first = [hud.Chip("Kask", "Kask 17", 0, True), hud.Chip("Okafor", "Okafor 12", 1, False)]
    tracker.show(1, first, "move")
    shown = [button for _chip, button in tracker.chips]
    second = [hud.Chip("Kask", "Kask 17", 0, False), hud.Chip("Okafor", "Okafor 12", 1, True)]
    tracker.show(1, second, "move")
    tracker.show(2, first, "move")
    assert [button for _chip, button in tracker.chips] == shown  # the same buttons again
    assert all(button.visible for button in shown)
    tracker.show(2, second, "act")
    restyled = [button for _chip, button in tracker.chips]
    assert restyled[0] is not shown[0] and not shown[0].visible  # one style per button
    assert [b.text for b in restyled] == ["Kask 17", "Okafor 12"]
    assert tracker.budget.text == "act"
    assert tracker.unit_for(restyled[1]) == "Okafor"


def test_the_action_bar_keeps_its_buttons_when_only_what_is_allowed_changes(
    manager: pygame_gui.UIManager,
) -> None:
    bar = hud.ActionBar(manager, pygame.Rect(0, 600, 950, hud.BAR_HEIGHT))
    actions = [
        hud.ActionButton("move", "Move (M)", "M", True, "", "Move"),
        hud.ActionButton("attack", "Attack (A)", "A", True, "", "Attack"),
    ]
    bar.show(actions)
    made = [button for _a, button in bar.buttons]
    refused = [
        actions[0],
        hud.ActionButton("attack", "Attack (A)", "A", False, "No ammo", "Attack"),
    ]
    bar.show(refused)
    assert [button for _a, button in bar.buttons] == made
    assert made[0].is_enabled and not made[1].is_enabled
    assert "No ammo" in (made[1].tool_tip_text or "")
    bar.show([])
    assert not any(button.visible for button in made)
    bar.show(actions)
    assert [button for _a, button in bar.buttons] == made and all(b.visible for b in made)
    assert made[1].is_enabled and "No ammo" not in (made[1].tool_tip_text or "")
    assert bar.kind_for(made[1]) == "attack"


def test_the_side_panel_shows_a_kept_list_of_modes_again_only_with_the_same_choice(
    manager: pygame_gui.UIManager,
) -> None:
    side = hud.SidePanel(manager, pygame.Rect(950, 46, hud.SIDE_WIDTH, 674))
    walking = [("Auto", "auto"), ("Walk", "walk")]
    flying = [("Auto", "auto"), ("Thrusters", "thrusters")]
    side.set_modes(walking, "auto")
    first = side.mode
    side.set_modes(flying, "auto")
    assert side.mode is not first and first is not None and not first.visible
    side.set_modes(walking, "auto")
    assert side.mode is first and first.visible
    side.set_modes(flying, "auto")
    side.set_modes(walking, "walk")  # another choice: a list that shows it
    assert side.mode is not first and side.mode is not None
    assert tuple(side.mode.selected_option) == ("Walk", "walk")
    side.set_modes([], "auto")
    assert side.mode is None


def test_every_sign_the_widgets_show_has_a_glyph_in_their_font_none_drawn_as_a_box() -> None:
    # An exact chance is written "909349/1000000 ≈ 90.9%" (explain.chance_text): pygame-gui's
    # Noto Sans has no "≈" (nor arrows, ≤, ≥, ✓, ✗), which it drew as an empty box in the side
    # panel, the Alt tooltip and the log under Myst, d20, fantasy and Cepheus.
    from fractions import Fraction

    from game.text.explain import chance_text
    from game.ui.fonts import font

    pygame.init()
    face = font(14)
    box = pygame.image.tobytes(face.render("\ue000", True, (255, 255, 255)), "RGBA")
    shown = hud.esc(chance_text(Fraction(909349, 1000000)) + " a → b ≤ c ≥ d ✓ ✗")
    assert "~ 90.9%" in shown
    for sign in sorted(set(shown) - {" "}):
        drawn = pygame.image.tobytes(face.render(sign, True, (255, 255, 255)), "RGBA")
        assert drawn != box, f"{sign!r} has no glyph"
    pygame.quit()


def test_a_greyed_command_shows_why_under_the_pointer_and_a_click_does_nothing(
    manager: pygame_gui.UIManager, monkeypatch: pytest.MonkeyPatch
) -> None:
    # docs/window.md: "a command that cannot be given now is greyed and its tooltip says why".
    # pygame-gui 0.6 hovers no disabled button: the reason was set and never shown.
    bar = hud.ActionBar(manager, pygame.Rect(0, 600, 950, hud.BAR_HEIGHT))
    bar.show([hud.ActionButton("throw", "Throw (T)", "T", False, "Nothing to throw", "Throw")])
    ((_action, button),) = bar.buttons
    assert not button.is_enabled
    monkeypatch.setattr(pygame.mouse, "get_pos", lambda: button.rect.center)
    for _ in range(20):  # two seconds: past the tooltip's delay
        manager.update(0.1)
    assert button.tool_tip is not None
    assert button.tool_tip_text == "Throw (T)<br>Nothing to throw"  # the key named once
    pygame.event.clear()
    for kind in (pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP):
        manager.process_events(pygame.event.Event(kind, button=1, pos=button.rect.center))
    manager.update(0.1)
    pressed = [e for e in pygame.event.get() if e.type == pygame_gui.UI_BUTTON_PRESSED]
    assert pressed == []
