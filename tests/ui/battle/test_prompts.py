"""The GM's ruling prompt opens beside the GM's tools, not under them (game/ui/battle/prompts.py):
pygame-gui draws the tools' window above every other widget, and the prompt, centred on the
board, was half hidden behind it (seen in the screenshots for docs/window.md).

maps/station_interior.tmx, seed 1, a GM at the table: Kask (the player's) improvises.
"""

from __future__ import annotations

from game.battle import commands as cmd
from tests.ui.conftest import MakeWindow


def test_the_ruling_prompt_does_not_overlap_the_gms_tools(make_window: MakeWindow) -> None:
    w = make_window(gm=True)
    w.take_screen()
    w.scene.submit(cmd.Improvise("Kask", "kick the crate onto the stairs"))
    w.frames(3)
    assert w.scene.seats.waiting_for == "gm"  # the ruling calls the GM
    w.take_screen()
    w.frames(3)
    prompt, tools = w.scene.prompts.prompt, w.scene.gm_panel
    assert prompt is not None and w.scene.prompts.kind == "rule" and tools is not None
    assert not prompt.panel.rect.colliderect(tools.window.rect)
    assert w.scene.board.viewport.contains(prompt.panel.rect)
