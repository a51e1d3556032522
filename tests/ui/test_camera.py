"""The camera's arithmetic: map pixels to the screen and back, zoom about the pointer, fit."""

from __future__ import annotations

import pytest

from game.ui.camera import ZOOMS, Camera


def _camera() -> Camera:
    # A 1280×960 px map (40×30 cells of 32 px) in a 960×600 viewport 46 px below the top.
    return Camera((1280, 960), (0, 46, 960, 600), x=100, y=50, zoom=1.0)


def test_a_map_point_goes_to_the_screen_and_back_to_itself() -> None:
    cam = _camera()
    cam.zoom = 2.0
    sx, sy = cam.to_screen(300, 200)
    assert (sx, sy) == (400, 346)  # (300 - 100) × 2, 46 + (200 - 50) × 2
    assert cam.to_map(sx, sy) == (300, 200)


@pytest.mark.parametrize("steps", [1, -1, 3])
def test_zooming_keeps_the_map_point_under_the_pointer_where_it_was(steps: int) -> None:
    cam = _camera()
    pointer = (480, 300)
    before = cam.to_map(*pointer)
    cam.zoom_at(steps, *pointer)
    assert cam.zoom != 1.0
    after = cam.to_map(*pointer)
    assert after == pytest.approx(before)


def test_zoom_stops_at_the_last_step_either_way() -> None:
    cam = _camera()
    cam.zoom_at(100, 10, 60)
    assert cam.zoom == ZOOMS[-1]
    cam.zoom_at(-100, 10, 60)
    assert cam.zoom == ZOOMS[0]


def test_fit_picks_the_largest_step_showing_the_whole_map_and_centres_it() -> None:
    cam = _camera()
    cam.fit()
    assert cam.zoom == 0.5  # 0.75 would need 960 × 720 px: taller than the viewport
    left, top = cam.to_screen(0, 0)
    right, bottom = cam.to_screen(1280, 960)
    assert left - 0 == pytest.approx(960 - right)
    assert top - 46 == pytest.approx(646 - bottom)


def test_panning_never_loses_the_map_more_than_half_a_viewport() -> None:
    cam = _camera()
    cam.pan(-100_000, -100_000)
    assert cam.x == -480 and cam.y == -300
    cam.pan(200_000, 200_000)
    assert cam.x == 1280 - 480 and cam.y == 960 - 300


def test_show_pans_only_when_the_point_is_out_of_view() -> None:
    cam = _camera()
    cam.show(500, 300)
    assert (cam.x, cam.y) == (100, 50)
    cam.show(1200, 900)
    assert cam.to_screen(1200, 900) == pytest.approx((480, 346))
