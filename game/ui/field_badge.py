"""The battlefield's conditions on the battle screen (issue 15): a badge at the board's top edge.

Every seat sees it while the light, smoke or weather is not "none": their names on the badge, and
what they do under the battle's ruleset in its tooltip, worded as in the GM's battlefield window
(gm_panel.field_effects_lines). It reads the player's view only (PlayerView.conditions and
field_effects); it computes no rule.
"""

from __future__ import annotations

import pygame
import pygame_gui
from pygame_gui.core import ObjectID
from pygame_gui.elements import UIButton

from game.rules.ruleset_answers import Modifier
from game.tactics.battlefield import FieldConditions
from game.text.explain import field_condition_name
from game.ui.gm_panel import field_effects_lines
from game.ui.hud import esc, fit_text

#: The badge's size and its gap to the board's top right corner (where a map fit to the board
#: leaves room, away from the turn banner in the middle and the tracker above).
WIDTH = 250
HEIGHT = 28
MARGIN = 6
#: Room each side of the words.
PADDING = 12


def badge_text(conditions: FieldConditions) -> str:
    """The conditions that are not "none", capitalised: "Dense smoke · Low light"; "" when none.
    Smoke first: it is the one that most changes what is seen and hit."""
    order = {"smoke": 0, "darkness": 1, "weather": 2}
    shown = sorted(
        ((name, value) for name, value, _known in conditions.choices() if value != "none"),
        key=lambda nv: order.get(nv[0], 3),
    )
    words = [field_condition_name(name, value) for name, value in shown]
    return " · ".join(w[:1].upper() + w[1:] for w in words)


def badge_tip(conditions: FieldConditions, effects: tuple[Modifier, ...] | None) -> str:
    """The tooltip: the conditions, then what they do (the GM's window's lines)."""
    lines = [badge_text(conditions), *field_effects_lines(effects)]
    return "<br>".join(esc(line) for line in lines)


class FieldBadge:
    """A small button at the board's top right, hidden while every condition is "none"."""

    def __init__(self, manager: pygame_gui.UIManager, board: pygame.Rect) -> None:
        self.manager = manager
        self.rect = pygame.Rect(board.right - WIDTH - MARGIN, board.y + MARGIN, WIDTH, HEIGHT)
        self.button: UIButton | None = None
        self._shown: tuple[str, str] = ("", "")

    @property
    def visible(self) -> bool:
        return self.button is not None and self.button.visible

    @property
    def text(self) -> str:
        return self._shown[0]

    @property
    def tip(self) -> str:
        return self._shown[1]

    def show(self, conditions: FieldConditions, effects: tuple[Modifier, ...] | None) -> None:
        """Show the view's conditions now (made again only when they change)."""
        text = badge_text(conditions)
        tip = badge_tip(conditions, effects) if text else ""
        if (text, tip) == self._shown:
            return
        self._shown = (text, tip)
        if self.button is not None:
            self.button.kill()
            self.button = None
        if not text:
            return
        self.button = UIButton(
            self.rect,
            text,
            manager=self.manager,
            object_id=ObjectID(object_id="#field_badge"),
            tool_tip_text=tip,
        )
        font = getattr(self.button, "font", None)
        if font is not None:
            # As narrow as its words: it covers fewer cells, and the turn banner (centred at
            # the board's top) stays clear of it.
            width = min(WIDTH, font.size(text)[0] + 2 * PADDING)
            if width < WIDTH:
                self.button.set_dimensions((width, HEIGHT))
                self.button.set_relative_position((self.rect.right - width, self.rect.y))
        fit_text(self.button)  # a long list ends with an ellipsis; the tooltip has it whole

    def owns(self, element: object) -> bool:
        return self.button is not None and element is self.button
