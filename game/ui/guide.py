"""The first battle's guide: how to play in a few lines, over the board; shown on the first
launch, dismissed with its button or Esc, opened again with `?`."""

from __future__ import annotations

from collections.abc import Sequence

import pygame
from pygame_gui import UIManager
from pygame_gui.elements import UIButton, UIPanel, UITextBox

from game.text import names
from game.text.i18n import _
from game.ui import hud

#: The guide's box: its width, and its height at least (it grows to hold the text, within the
#: board; in a small window the text scrolls).
WIDTH, HEIGHT = 640, 330


def sides_line(yours: Sequence[str], computer: Sequence[str], others: Sequence[str]) -> str:
    """Who the reader leads and against whom, from the battle's own seats (factions by id):
    the demo's raiders, or the keep's garrison, or nobody for the game master."""
    if not yours:
        return _("You are the game master: every side's units and the battle's tools are yours.")
    mine = ", ".join(names.side_name(f) for f in yours)
    theirs = ", ".join(names.side_name(f) for f in others)
    if others and tuple(computer) == tuple(others):
        text = _("You lead {yours} against {theirs}, played by the computer.")
    elif not computer:
        text = _("You lead {yours} against {theirs}, led by the other players at this screen.")
    else:  # some sides the computer's, some a player's
        text = _("You lead {yours} against {theirs}.")
    return text.format(yours=mine, theirs=theirs)


def guide_lines(sides: str) -> list[str]:
    """What the guide says, one point a line (read in the player's language); `sides` is its
    first line, `sides_line`'s answer."""
    return [
        sides,
        _(
            "The unit whose turn it is has a yellow ring and a chevron. Violet cells are in "
            "its reach this turn; magenta ones only with a Dash."
        ),
        _("Click a cell: the path and its cost show. Click it again (or Space) to move."),
        _("Click an enemy: your hit chance and its cover show over it. Click again to fire."),
        _(
            "Right-click anything for every action that applies; the bar at the bottom has "
            "them all, with their keys."
        ),
        _("Enter ends the turn. Ctrl+Z takes back your last command."),
        _("Wheel: zoom. Drag, arrows or W A S D: pan. PageUp / PageDown: level."),
        _("Hold Alt for coordinates and the rules behind a number. Press ? to see this again."),
    ]


class Guide:
    """The guide's box in the middle of the board, until it is dismissed."""

    def __init__(self, manager: UIManager, bounds: pygame.Rect, sides: str) -> None:
        # As low a box as holds the text without scrolling (longer in Italian), within the board.
        text = "<font size=5><b>" + hud.esc(_("How to play")) + "</b></font><br>"
        text += "<br>".join("• " + hud.esc(line) for line in guide_lines(sides))
        width, tallest = min(WIDTH, bounds.w - 24), bounds.h - 16
        for height in [*range(HEIGHT, tallest, 40), tallest]:
            height = min(height, tallest)
            rect = pygame.Rect(0, 0, width, height)
            rect.center = bounds.center
            self.panel = UIPanel(rect, starting_height=20, manager=manager)
            self.text = UITextBox(
                text, pygame.Rect(8, 8, width - 16, height - 70), manager=manager,
                container=self.panel,
            )  # fmt: skip
            if self.text.scroll_bar is None or height >= tallest:
                break
            self.panel.kill()
        self.close_button = UIButton(
            pygame.Rect(width // 2 - 110, height - 56, 220, 42),
            _("Start playing"),
            manager=manager,
            container=self.panel,
            tool_tip_text=_("Esc also closes this; ? opens it again"),
        )

    def owns(self, element: object) -> bool:
        return element is self.close_button

    @property
    def rect(self) -> pygame.Rect:
        return pygame.Rect(self.panel.get_abs_rect())

    def close(self) -> None:
        self.panel.kill()
