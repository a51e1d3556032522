"""Short animations of what the battle has already resolved: moves, shots, dice, damage, with
their effects (a muzzle flash, sparks on a hit, a puff where a shot went by, a wound's red
flash) and sound effects.

The rules are resolved first; the scene then turns the events into beats played one after
another, and a beat's log lines appear when it ends. Dice faces shown while a die "rolls" come
from a cosmetic generator of their own, never from the battle's dice. An effect and a sound tell
only what the event tells the player: a hit's sparks land when its die does.
"""

from __future__ import annotations

import math
from collections import deque
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from random import Random

import pygame

from game.battle.events import Event
from game.grid.model import Cell
from game.text.explain import effect_short
from game.text.i18n import _
from game.ui import fonts, sound

#: Seconds for a unit to cross one cell, a die to roll, damage to float away.
CELL_TIME = 0.09
DICE_TIME = 0.55
HOLD_TIME = 0.45
FLOAT_TIME = 0.8
SHOT_TIME = 0.25
#: Seconds an effect (a flash, sparks, a puff) lasts.
EFFECT_TIME = 0.4
GOOD = (140, 230, 140)
BAD = (230, 140, 140)


@dataclass
class Slide:
    unit: str
    cells: Sequence[Cell]

    def position(self, t: float) -> tuple[float, float]:
        """Where along the cells the unit is after the fraction `t` of the slide."""
        steps = len(self.cells) - 1
        if steps <= 0:
            c = self.cells[-1]
            return float(c[0]), float(c[1])
        at = min(1.0, max(0.0, t)) * steps
        i = min(steps - 1, int(at))
        f = at - i
        a, b = self.cells[i], self.cells[i + 1]
        return a[0] + (b[0] - a[0]) * f, a[1] + (b[1] - a[1]) * f


@dataclass
class Dice:
    """A die rolling at a cell: random faces, then the real result."""

    cell: Cell
    sides: int
    result: str
    colour: tuple[int, int, int] = (255, 255, 255)
    #: The result in words under the number once the die lands ("Hit", "Miss").
    word: str = ""


@dataclass
class Text:
    cell: Cell
    text: str
    colour: tuple[int, int, int]


@dataclass
class Shot:
    start: Cell
    end: Cell
    hit: bool


#: Kinds of effect: a shooter's muzzle flash, sparks on a hit, a puff beside a missed target, a
#: wound's red flash, a unit going down.
EFFECT_KINDS = ("muzzle", "impact", "miss", "wound", "down")


@dataclass
class Effect:
    """A short flash at a cell, `start` seconds into its beat, for `length` seconds."""

    kind: str
    cell: Cell
    start: float = 0.0
    length: float = EFFECT_TIME
    #: Where the shot came from (a miss puffs beside the target, across the line of fire).
    source: Cell | None = None


@dataclass
class Beat:
    """Animations that play together, then `done` (the beat's log lines land). `sounds` are
    (seconds into the beat, effect name of game/ui/sound.py)."""

    duration: float
    slides: list[Slide] = field(default_factory=list)
    dice: list[Dice] = field(default_factory=list)
    texts: list[Text] = field(default_factory=list)
    shots: list[Shot] = field(default_factory=list)
    effects: list[Effect] = field(default_factory=list)
    sounds: list[tuple[float, str]] = field(default_factory=list)
    done: Callable[[], None] | None = None


class Animator:
    """Plays beats in order; `speed` 0 shows everything at once (tests, impatient players)."""

    def __init__(
        self, speed: float = 1.0, seed: int | None = None, sounds: sound.Sounds | None = None
    ) -> None:
        self.speed = speed
        self.queue: deque[Beat] = deque()
        self.time = 0.0
        self.sounds = sounds if sounds is not None else sound.effects
        #: How many of the current beat's sounds have played.
        self._heard = 0
        self._cosmetic = Random(seed)
        self._font: pygame.font.Font | None = None
        self._big: pygame.font.Font | None = None

    def _word_font(self) -> pygame.font.Font:
        if self._big is None:
            self._big = fonts.font(30, bold=True)
        return self._big

    @property
    def busy(self) -> bool:
        return bool(self.queue)

    def add(self, beat: Beat) -> None:
        self.queue.append(beat)
        if self.speed <= 0:
            self.finish()

    def finish(self) -> None:
        """Everything at once, in silence (nothing is seen to happen, so nothing is heard)."""
        while self.queue:
            self._end_beat(audible=False)

    def update(self, dt: float) -> None:
        if self.speed <= 0:
            self.finish()
            return
        self.time += dt * self.speed
        while self.queue and self.time >= self.queue[0].duration:
            self.time -= self.queue[0].duration
            self._end_beat()
        if not self.queue:
            self.time = 0.0
        else:
            self._hear(self.queue[0], self.time)

    def _hear(self, beat: Beat, until: float) -> None:
        due = sorted(beat.sounds)
        while self._heard < len(due) and due[self._heard][0] <= until:
            self.sounds.play(due[self._heard][1])
            self._heard += 1

    def _end_beat(self, audible: bool = True) -> None:
        beat = self.queue.popleft()
        if audible:
            self._hear(beat, math.inf)
        self._heard = 0
        self.time = 0.0
        if beat.done is not None:
            beat.done()

    def positions(self) -> dict[str, tuple[float, float]]:
        """Units being slid and where they are now (x, y in cells)."""
        if not self.queue:
            return {}
        beat = self.queue[0]
        t = self.time / beat.duration if beat.duration else 1.0
        return {s.unit: s.position(t) for s in beat.slides}

    def hidden_until_moved(self) -> set[str]:
        """Units whose slide waits in a later beat: drawn where they start until it plays."""
        return {s.unit for beat in list(self.queue)[1:] for s in beat.slides}

    def draw(self, screen: pygame.Surface, centre: Callable[[Cell], tuple[float, float]]) -> None:
        if not self.queue:
            return
        beat = self.queue[0]
        t = self.time / beat.duration if beat.duration else 1.0
        if self._font is None:
            self._font = fonts.font(22, bold=True)
        for effect in beat.effects:
            _draw_effect(screen, effect, self.time - effect.start, centre)
        for shot in beat.shots:
            a, b = centre(shot.start), centre(shot.end)
            reach = min(1.0, t * 2)
            tip = (a[0] + (b[0] - a[0]) * reach, a[1] + (b[1] - a[1]) * reach)
            # The tracer does not tell the outcome: the die does, when it lands.
            pygame.draw.line(screen, (255, 240, 160), a, tip, 3)
        for die in beat.dice:
            x, y = centre(die.cell)
            rolling = self.time < DICE_TIME
            face = str(self._cosmetic.randint(1, die.sides)) if rolling else die.result
            text = self._font.render(face, True, (20, 20, 20))
            box = text.get_rect(center=(round(x), round(y) - 40)).inflate(16, 10)
            word = shadow = None
            if die.word and not rolling:
                word = self._word_font().render(die.word, True, die.colour)
                shadow = self._word_font().render(die.word, True, (0, 0, 0))
            # The result in words above the die; both below the cell when the board's top
            # edge would cut them.
            above = 0 if word is None else word.get_height()
            if box.top - above < screen.get_clip().top:
                box.top = round(y) + 30 + above
            colour = (235, 235, 235) if rolling else die.colour
            pygame.draw.rect(screen, colour, box, border_radius=6)
            pygame.draw.rect(screen, (0, 0, 0), box, 2, border_radius=6)
            screen.blit(text, text.get_rect(center=box.center))
            if word is not None and shadow is not None:
                spot = word.get_rect(midbottom=(box.centerx, box.top))
                screen.blit(shadow, spot.move(2, 2))
                screen.blit(word, spot)
        for item in beat.texts:
            x, y = centre(item.cell)
            rise = 30 * t
            text = self._font.render(item.text, True, item.colour)
            shadow = self._font.render(item.text, True, (0, 0, 0))
            spot = text.get_rect(center=(round(x), round(y - 20 - rise)))
            screen.blit(shadow, spot.move(2, 2))
            screen.blit(text, spot)


def beat_for(
    event: Event,
    before: Mapping[str, Cell],
    after: Mapping[str, Cell],
    path: Sequence[Cell],
    own: Callable[[str], bool],
) -> Beat:
    """The beat showing one event as the player may see it: `before`/`after` are the cells of
    the units the player saw before and after the command, `path` the cells a move walked."""
    d = event.data
    beat = Beat(0.0)
    if event.kind == "moved":
        unit = str(d["unit"])
        start, end = _cell(d["from"]), _cell(d["to"])
        # Only what the player could see: a slide into the fog would show where it went.
        if end is not None and after.get(unit) == end and (unit in before or own(unit)):
            cells = list(path)
            if start in cells and end in cells and cells.index(start) < cells.index(end):
                cells = cells[cells.index(start) : cells.index(end) + 1]
            elif start is not None:
                cells = [start, end]
            beat.slides.append(Slide(unit, cells))
            beat.duration = CELL_TIME * max(1, len(cells) - 1)
            beat.sounds.append((0.0, "step"))
    elif event.kind in ("attack", "reaction_attack", "throw"):
        shooter = before.get(str(d["unit"])) or after.get(str(d["unit"]))
        target = d.get("target")
        aim = (
            before.get(str(target)) or after.get(str(target))
            if target is not None
            else _cell(d.get("landed")) or _cell(d.get("at"))
        )
        landed = 0.0  # when the outcome is shown: at once, or when the die lands
        if shooter is not None and aim is not None:
            beat.shots.append(Shot(shooter, aim, bool(d.get("hit"))))
            beat.effects.append(Effect("muzzle", shooter, length=EFFECT_TIME / 2))
            beat.duration = SHOT_TIME
            landed = SHOT_TIME / 2
        beat.sounds.append((0.0, "shot"))
        roll = next((r for r in event.rolls if r.expression.startswith("d100")), None)
        if roll is not None and aim is not None:
            result = f"{roll.total} {'<=' if roll.outcome == 'hit' else '>'} {roll.target}"
            colour = GOOD if roll.outcome == "hit" else BAD
            word = (_("hit") if roll.outcome == "hit" else _("miss")).capitalize()
            beat.dice.append(Dice(aim, 100, result, colour, word))
            beat.duration = DICE_TIME + HOLD_TIME
            landed = DICE_TIME
        if aim is not None and d.get("hit") is not None:
            hit = bool(d.get("hit"))
            beat.effects.append(Effect("impact" if hit else "miss", aim, landed, source=shooter))
            beat.sounds.append((landed, "hit" if hit else "miss"))
            beat.duration = max(beat.duration, landed + EFFECT_TIME)
    elif event.kind == "damage":
        cell = before.get(str(d["unit"])) or after.get(str(d["unit"]))
        if cell is not None:
            # Short over the board (the number and one word): the log has every effect in full.
            word = effect_short([str(e) for e in d.get("effects", ())])
            text = f"-{d['damage']}" + (f" {word}" if word else "")
            beat.texts.append(Text(cell, text, (255, 110, 90)))
            beat.duration = FLOAT_TIME
            if d.get("damage") or d.get("effects"):
                beat.effects.append(Effect("wound", cell))
                beat.sounds.append((0.0, "wound"))
    elif event.kind in ("death_save", "stealth_check", "hide", "search", "medkit"):
        cell = before.get(str(d["unit"])) or after.get(str(d["unit"]))
        roll = event.rolls[0] if event.rolls else None
        if cell is not None and roll is not None and roll.expression.startswith("d20"):
            colour = GOOD if roll.outcome in ("success", None) else BAD
            beat.dice.append(Dice(cell, 20, str(roll.total), colour))
            beat.duration = DICE_TIME + HOLD_TIME
            beat.sounds.append((0.0, "dice"))
    elif event.kind == "died":
        cell = before.get(str(d["unit"]))
        if cell is not None:
            beat.texts.append(Text(cell, _("dead"), (230, 230, 230)))
            beat.effects.append(Effect("down", cell, length=FLOAT_TIME))
            beat.sounds.append((0.0, "down"))
            beat.duration = FLOAT_TIME
    return beat


def _cell(value: object) -> Cell | None:
    """A cell from an event's data; None for a cell the player did not see ("?")."""
    if (
        isinstance(value, list | tuple)
        and len(value) == 3
        and all(isinstance(v, int) for v in value)
    ):
        return (value[0], value[1], value[2])
    return None


def _draw_effect(
    screen: pygame.Surface,
    effect: Effect,
    elapsed: float,
    centre: Callable[[Cell], tuple[float, float]],
) -> None:
    """One effect `elapsed` seconds after it began (nothing before it begins or once over)."""
    if elapsed < 0 or elapsed > effect.length:
        return
    p = elapsed / effect.length
    cx, cy = centre(effect.cell)
    right = centre((effect.cell[0] + 1, effect.cell[1], effect.cell[2]))
    cell = max(6.0, abs(right[0] - cx))  # the cell's size on the screen now
    # A small layer around the cell, drawn in its own coordinates (x, y is the cell's centre).
    size = round(cell * 4) + 8
    layer = pygame.Surface((size, size), pygame.SRCALPHA)
    x = y = size / 2
    fade = round(255 * (1 - p))
    if effect.kind == "muzzle":
        radius = max(2, round(cell * (0.45 - 0.3 * p)))
        pygame.draw.circle(layer, (255, 244, 190, fade), (x, y), radius)
        pygame.draw.circle(layer, (255, 190, 80, fade // 2), (x, y), radius * 2, 2)
    elif effect.kind == "impact":
        fade = round(255 * (1 - p * p))  # sparks stay bright, then go out
        for i in range(10):
            angle = i * math.tau / 10 + 0.3
            inner, outer = cell * 0.2 * (1 + 2 * p), cell * (0.35 + 0.7 * p)
            a = (x + math.cos(angle) * inner, y + math.sin(angle) * inner)
            b = (x + math.cos(angle) * outer, y + math.sin(angle) * outer)
            pygame.draw.line(layer, (255, 210 - i * 8, 90, fade), a, b, 3)
        pygame.draw.circle(layer, (255, 240, 200, fade // 2), (x, y), max(2, round(cell * 0.3)))
    elif effect.kind == "miss":
        # The round goes by the target, a little off the line of fire (on its upper side, clear
        # of the name under the token and of the die above it), and strikes behind it.
        ux, uy, dx, dy = 1.0, 0.0, 0.0, -1.0
        if effect.source is not None:
            sx, sy = centre(effect.source)
            length = math.hypot(cx - sx, cy - sy) or 1.0
            ux, uy = (cx - sx) / length, (cy - sy) / length
            dx, dy = (-uy, ux) if ux < 0 or (ux == 0 and uy > 0) else (uy, -ux)
        px = x + ux * cell * 0.8 + dx * cell * 0.25
        py = y + uy * cell * 0.8 + dy * cell * 0.25
        tail = (px - ux * cell * (1.0 - 0.6 * p), py - uy * cell * (1.0 - 0.6 * p))
        head = (px, py)
        pygame.draw.line(layer, (255, 240, 170, fade), tail, head, 2)
        for k in range(3):
            r = max(2, round(cell * (0.1 + 0.22 * p) * (1 - k * 0.25)))
            spot = (px + k * ux * cell * 0.15, py + k * uy * cell * 0.15 - p * cell * 0.15)
            pygame.draw.circle(layer, (225, 225, 230, fade * 3 // 4), spot, r)
    elif effect.kind == "wound":
        radius = max(3, round(cell * (0.3 + 0.5 * p)))
        pygame.draw.circle(layer, (230, 40, 40, fade // 3), (x, y), max(2, round(cell * 0.45)))
        pygame.draw.circle(layer, (255, 60, 60, fade), (x, y), radius, 3)
    elif effect.kind == "down":
        arm = cell * 0.35
        colour = (235, 235, 240, fade)
        pygame.draw.line(layer, colour, (x - arm, y - arm), (x + arm, y + arm), 3)
        pygame.draw.line(layer, colour, (x - arm, y + arm), (x + arm, y - arm), 3)
    screen.blit(layer, (round(cx - x), round(cy - y)))
