"""Hot-seat: who sits at the screen, and the hand-over screen that shows nothing of the battle.

The screen belongs to the person whose unit acts (or whose unit is offered a reaction); an
improvised action waiting for a ruling calls the GM. When that is someone else, the battle is
covered until they take it on purpose, so that nobody sees another side's view by accident: the
cover ignores every input for ARM seconds, then wants a click on its "I am <name>" button or
Enter (or Space) held down for HOLD seconds. A second press of End turn, a double click, or a key
already down when the cover came can never take it (docs/window.md, "The hand-over").
"""

from __future__ import annotations

import pygame

from game.battle.engine import GM, Battle
from game.text.bounds import clip, fit
from game.text.i18n import _
from game.ui import fonts
from game.ui.backdrop import mosaic, pane

TEXT = (235, 238, 245)
HINT = (160, 168, 182)
BUTTON = (58, 66, 84)
BUTTON_WAIT = (30, 33, 40)
FILL = (96, 140, 210)
#: Seconds the cover ignores input once it is shown: the last player's second press lands here.
ARM = 1.0
#: Seconds Enter (or Space) must be held to take the screen.
HOLD = 1.0
#: The keys that take the screen when held.
HOLD_KEYS = (pygame.K_RETURN, pygame.K_KP_ENTER, pygame.K_SPACE)


class Seats:
    """The people at the table and which of them looks at the screen now."""

    def __init__(self, battle: Battle, viewer: str) -> None:
        self.viewer = viewer
        #: The person the screen is being passed to; the battle stays covered until they take it.
        self.waiting_for: str | None = None
        #: The GM took the screen on purpose: it stays theirs until they give it back.
        self.gm_holds = viewer == GM and battle.setup.gm
        self._fonts: tuple[pygame.font.Font, pygame.font.Font, pygame.font.Font] | None = None
        #: The title screen's mosaic, drawn once for the screen's size: the same for any battle.
        self._backdrop: pygame.Surface | None = None
        #: Seconds the cover has been shown; how long the taking key has been held (None: not).
        self.shown_for = 0.0
        self.held: float | None = None
        #: Keys down now, and those that were already down when the cover came (their repeats
        #: and their release never count).
        self._down: set[int] = set()
        self._stale: set[int] = set()
        self._pressed = False

    # ------------------------------------------------------------ taking the screen on purpose

    def cover(self, person: str) -> None:
        """Cover the battle until `person` takes the screen."""
        self.waiting_for = person
        self.shown_for = 0.0
        self.held = None
        self._stale = set(self._down)
        self._pressed = False

    @property
    def armed(self) -> bool:
        """The cover has been shown long enough to listen."""
        return self.shown_for >= ARM

    def note(self, event: pygame.event.Event) -> None:
        """Every key event, covered or not: which keys are down."""
        if event.type == pygame.KEYDOWN:
            self._down.add(event.key)
        elif event.type == pygame.KEYUP:
            self._down.discard(event.key)
            self._stale.discard(event.key)

    def handle(self, event: pygame.event.Event, size: tuple[int, int]) -> bool:
        """An event while covered; True when it takes the screen (a click on the button)."""
        if event.type == pygame.KEYUP and event.key in HOLD_KEYS:
            self.held = None
        if not self.armed:
            self._pressed = False
            return False
        if event.type == pygame.KEYDOWN and event.key in HOLD_KEYS:
            if self.held is None and event.key not in self._stale:
                self.held = 0.0
        elif event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            self._pressed = self.button_rect(size).collidepoint(event.pos)
        elif event.type == pygame.MOUSEBUTTONUP and event.button == 1:
            taken = self._pressed and self.button_rect(size).collidepoint(event.pos)
            self._pressed = False
            return bool(taken)
        return False

    def update(self, dt: float) -> bool:
        """Time passes under the cover; True when the taking key has been held long enough."""
        if self.waiting_for is None:
            return False
        self.shown_for += dt
        if self.held is not None:
            self.held += dt
            return self.held >= HOLD
        return False

    @staticmethod
    def button_rect(size: tuple[int, int]) -> pygame.Rect:
        """The "I am <name>" button of the cover, for a screen of `size`."""
        w, h = size
        rect = pygame.Rect(0, 0, min(520, w - 40), 44)
        rect.center = (w // 2, h // 2 + 36)
        return rect

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

    def hands_over(self, battle: Battle) -> bool:
        """Several people share this screen, so that it is handed over between them."""
        if not self.shared(battle):
            return False
        # One person running every side from the GM's chair: no hand-over.
        return not (self.viewer == GM and not battle.setup.gm)

    def check(self, battle: Battle) -> bool:
        """Start a hand-over if the screen should pass to someone else; True when it does."""
        if self.waiting_for is not None or not self.hands_over(battle):
            return False
        wanted = self.wanted(battle)
        if wanted is None or wanted == self.viewer:
            return False
        self.cover(wanted)
        return True

    def take(self) -> str:
        """The person passed to has the screen now; answers who they are."""
        if self.waiting_for is not None:
            self.viewer = self.waiting_for
            self.waiting_for = None
            self.held = None
        return self.viewer

    def call_gm(self) -> None:
        """A player hands the screen to the GM (the GM's button)."""
        self.gm_holds = True
        self.cover(GM)

    def release_gm(self, battle: Battle) -> None:
        """The GM gives the screen back to whoever is to act."""
        self.gm_holds = False
        self.check(battle)

    @staticmethod
    def pane_rect(size: tuple[int, int]) -> pygame.Rect:
        """The dark pane behind the name, the button and the hint, for a screen of `size`."""
        w, h = size
        rect = pygame.Rect(0, 0, min(640, w - 20), 196)
        rect.center = (w // 2, h // 2 + 8)
        return rect

    def draw_handover(self, screen: pygame.Surface) -> None:
        """The title screen's mosaic naming who is to take it, and the button they take it
        with: nothing of the battle, nothing of the last player's view (the same pixels whatever
        the battle)."""
        if self._fonts is None:
            self._fonts = (fonts.font(46, bold=True), fonts.font(21), fonts.font(17))
        big, small, hint_font = self._fonts
        w, h = screen.get_size()
        if self._backdrop is None or self._backdrop.get_size() != (w, h):
            self._backdrop = mosaic((w, h))
        screen.blit(self._backdrop, (0, 0))
        pane(screen, self.pane_rect((w, h)))
        name = _("the GM") if self.waiting_for == GM else clip(str(self.waiting_for))
        words = fit(_("Pass to: {name}").format(name=name), w - 40, lambda t: big.size(t)[0])
        title = big.render(words, True, TEXT)
        screen.blit(title, title.get_rect(center=(w // 2, h // 2 - 24)))
        button = self.button_rect((w, h))
        pygame.draw.rect(screen, BUTTON if self.armed else BUTTON_WAIT, button, border_radius=6)
        if self.held is not None:
            done = min(1.0, self.held / HOLD)
            bar = pygame.Rect(button.x, button.y, round(button.width * done), button.height)
            pygame.draw.rect(screen, FILL, bar, border_radius=6)
        me = _("I am the GM") if self.waiting_for == GM else _("I am {name}").format(name=name)
        me = fit(me, button.width - 20, lambda t: small.size(t)[0])
        label = small.render(me, True, TEXT if self.armed else HINT)
        screen.blit(label, label.get_rect(center=button.center))
        hint = hint_font.render(
            fit(_("click the button, or hold Enter"), w - 40, lambda t: hint_font.size(t)[0]),
            True,
            HINT,
        )
        screen.blit(hint, hint.get_rect(center=(w // 2, button.bottom + 20)))
