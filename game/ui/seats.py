"""Hot-seat: who sits at the screen, and the hand-over screen that shows nothing of the battle.

The screen belongs to the person whose unit acts (or whose unit is offered a reaction); an
improvised action waiting for a ruling calls the GM. When that is someone else, the battle is
covered until they press Enter, so that nobody sees another side's view by accident.
"""

from __future__ import annotations

import pygame

from game.battle.engine import GM, Battle
from game.text.bounds import clip, fit
from game.text.i18n import _
from game.ui import fonts

BACKGROUND = (10, 11, 14)
TEXT = (235, 238, 245)
HINT = (160, 168, 182)


class Seats:
    """The people at the table and which of them looks at the screen now."""

    def __init__(self, battle: Battle, viewer: str) -> None:
        self.viewer = viewer
        #: The person the screen is being passed to; the battle stays covered until they take it.
        self.waiting_for: str | None = None
        #: The GM took the screen on purpose: it stays theirs until they give it back.
        self.gm_holds = viewer == GM and battle.setup.gm
        self._fonts: tuple[pygame.font.Font, pygame.font.Font] | None = None

    def people(self, battle: Battle) -> list[str]:
        """Everyone who plays at this screen: the players commanding a side, and the GM."""
        return [*battle.players(), *([GM] if battle.setup.gm else [])]

    def shared(self, battle: Battle) -> bool:
        return len(self.people(battle)) > 1

    def wanted(self, battle: Battle) -> str | None:
        """Who should be at the screen now (None: whoever is there may stay)."""
        if battle.over:
            return None
        if self.gm_holds:
            return GM
        if battle.setup.gm and battle.improvising:
            return GM
        actor = battle.pending.reactor if battle.pending is not None else battle.active
        if actor is None:
            return None
        controller = battle.controller_of_unit(actor)
        if controller == "computer":
            return None
        return controller

    def check(self, battle: Battle) -> bool:
        """Start a hand-over if the screen should pass to someone else; True when it does."""
        if self.waiting_for is not None or not self.shared(battle):
            return False
        if self.viewer == GM and not battle.setup.gm:
            return False  # one person running every side from the GM's chair: no hand-over
        wanted = self.wanted(battle)
        if wanted is None or wanted == self.viewer:
            return False
        self.waiting_for = wanted
        return True

    def take(self) -> str:
        """The person passed to has the screen now; answers who they are."""
        if self.waiting_for is not None:
            self.viewer = self.waiting_for
            self.waiting_for = None
        return self.viewer

    def call_gm(self) -> None:
        """A player hands the screen to the GM (the GM's button)."""
        self.gm_holds = True
        self.waiting_for = GM

    def release_gm(self, battle: Battle) -> None:
        """The GM gives the screen back to whoever is to act."""
        self.gm_holds = False
        self.check(battle)

    def draw_handover(self, screen: pygame.Surface) -> None:
        """A plain screen naming who is to take it: nothing of the battle, nothing of the last
        player's view."""
        if self._fonts is None:
            self._fonts = (fonts.font(46, bold=True), fonts.font(21))
        big, small = self._fonts
        screen.fill(BACKGROUND)
        w, h = screen.get_size()
        name = _("the GM") if self.waiting_for == GM else clip(str(self.waiting_for))
        words = fit(_("Pass to: {name}").format(name=name), w - 40, lambda t: big.size(t)[0])
        title = big.render(words, True, TEXT)
        screen.blit(title, title.get_rect(center=(w // 2, h // 2 - 24)))
        hint = small.render(_("press Enter when you have the screen"), True, HINT)
        screen.blit(hint, hint.get_rect(center=(w // 2, h // 2 + 30)))
