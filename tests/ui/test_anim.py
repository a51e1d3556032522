"""Animations show what is already resolved, and nothing the player could not see."""

from __future__ import annotations

from game.battle.events import Event
from game.rules.dice import Roller
from game.text import i18n
from game.text.explain_battle import event_text
from game.ui.anim import (
    CELL_TIME,
    DICE_TIME,
    EFFECT_KINDS,
    EFFECT_TIME,
    Animator,
    Beat,
    Effect,
    beat_for,
)


def _mine(unit: str) -> bool:
    return unit == "Ada"


def test_an_own_move_slides_along_the_path_walked_from_its_start_to_its_end() -> None:
    path = [(1, 1, 0), (2, 1, 0), (3, 2, 0), (4, 2, 0)]
    event = Event("moved", {"unit": "Ada", "from": [2, 1, 0], "to": [4, 2, 0], "cost": 2})
    beat = beat_for(event, {"Ada": (2, 1, 0)}, {"Ada": (4, 2, 0)}, path, _mine)
    assert [s.cells for s in beat.slides] == [[(2, 1, 0), (3, 2, 0), (4, 2, 0)]]
    assert beat.duration == CELL_TIME * 2
    assert beat.slides[0].position(0.5) == (3.0, 2.0)


def test_an_enemy_walking_into_the_fog_is_not_slid_there() -> None:
    # The view no longer has Bo after the move, and the told event hides where it went.
    event = Event("moved", {"unit": "Bo", "from": [5, 5, 0], "to": "?", "cost": 3})
    beat = beat_for(event, {"Bo": (5, 5, 0)}, {}, (), _mine)
    assert beat.slides == [] and beat.duration == 0


def test_an_enemy_seen_before_and_after_slides_in_a_straight_line_without_its_path() -> None:
    event = Event("moved", {"unit": "Bo", "from": [5, 5, 0], "to": [6, 6, 0], "cost": 1})
    beat = beat_for(event, {"Bo": (5, 5, 0)}, {"Bo": (6, 6, 0)}, (), _mine)
    assert [s.cells for s in beat.slides] == [[(5, 5, 0), (6, 6, 0)]]


def test_an_attack_flies_a_tracer_and_rolls_its_d100_to_the_real_result() -> None:
    record = Roller(5).d100("attack Ada", p=52)
    event = Event(
        "attack", {"unit": "Ada", "target": "Bo", "hit": record.outcome == "hit"}, rolls=(record,)
    )
    beat = beat_for(event, {"Ada": (1, 1, 0), "Bo": (6, 1, 0)}, {}, (), _mine)
    assert beat.shots[0].start == (1, 1, 0) and beat.shots[0].end == (6, 1, 0)
    sign = "<=" if record.outcome == "hit" else ">"
    assert beat.dice[0].result == f"{record.total} {sign} 52"


def test_beats_play_in_order_and_each_logs_when_it_ends() -> None:
    landed: list[str] = []
    animator = Animator(speed=1.0)
    animator.add(Beat(0.5, done=lambda: landed.append("first")))
    animator.add(Beat(0.5, done=lambda: landed.append("second")))
    animator.update(0.4)
    assert landed == [] and animator.busy
    animator.update(0.2)
    assert landed == ["first"]
    animator.update(0.5)
    assert landed == ["first", "second"] and not animator.busy


def test_speed_zero_shows_everything_at_once() -> None:
    landed: list[int] = []
    animator = Animator(speed=0)
    for n in range(3):
        animator.add(Beat(1.0, done=lambda n=n: landed.append(n)))
    assert landed == [0, 1, 2] and not animator.busy


def test_an_attacks_die_lands_with_the_result_in_words_as_well_as_its_number() -> None:
    # Issue 17: the roll's result on the board in words (hit, miss) as well as numbers.
    for seed in (1, 2, 3, 4):
        record = Roller(seed).d100("attack Ada", p=52)
        event = Event("attack", {"unit": "Ada", "target": "Bo", "hit": record.outcome == "hit"},
                      rolls=(record,))  # fmt: skip
        beat = beat_for(event, {"Ada": (1, 1, 0), "Bo": (6, 1, 0)}, {}, (), _mine)
        assert beat.dice[0].word == ("Hit" if record.outcome == "hit" else "Miss")


def test_damage_floats_up_with_the_wound_it_made_in_words() -> None:
    event = Event("damage", {"unit": "Bo", "damage": 7, "effects": ["grave_wound"]})
    beat = beat_for(event, {"Bo": (6, 1, 0)}, {}, (), _mine)
    assert beat.texts[0].text == "-7 grave"


def test_damage_on_the_board_is_the_number_and_one_short_word_the_log_has_them_all() -> None:
    # Issue 17: "-11 fuori combattimento, ferita grave" ran over the board; it floats up as the
    # number and the most telling effect's short word, and the log still words every effect.
    event = Event(
        "damage",
        {"unit": "Bo", "damage": 11, "type": "ballistic", "rolled": 11,
         "effects": ["grave_wound", "out_of_combat"]},
    )  # fmt: skip
    with i18n.speaking("it"):
        beat = beat_for(event, {"Bo": (6, 1, 0)}, {}, (), _mine)
        assert beat.texts[0].text == "-11 KO"
        logged = event_text(event)
        assert "fuori combattimento" in logged and "ferita grave" in logged
    with i18n.speaking("en"):
        beat = beat_for(event, {"Bo": (6, 1, 0)}, {}, (), _mine)
        assert beat.texts[0].text == "-11 KO"
        wound = Event("damage", {"unit": "Bo", "damage": 3, "effects": ["light_wound"]})
        assert beat_for(wound, {"Bo": (6, 1, 0)}, {}, (), _mine).texts[0].text == "-3 light"


# --- effects and sounds (issue 17: look and sound) ----------------------------------------


class _Heard:
    """A stand-in for game/ui/sound.py's Sounds that keeps what was asked."""

    def __init__(self) -> None:
        self.played: list[str] = []

    def play(self, name: str) -> None:
        self.played.append(name)


def _attack(hit: bool) -> Event:
    record = Roller(5).d100("attack Ada", p=1 if not hit else 99)
    assert (record.outcome == "hit") == hit
    return Event("attack", {"unit": "Ada", "target": "Bo", "hit": hit}, rolls=(record,))


def test_a_hit_flashes_at_the_muzzle_and_sparks_on_the_target_when_the_die_lands() -> None:
    beat = beat_for(_attack(True), {"Ada": (1, 1, 0), "Bo": (6, 1, 0)}, {}, (), _mine)
    kinds = {e.kind: e for e in beat.effects}
    assert kinds["muzzle"].cell == (1, 1, 0) and kinds["muzzle"].start == 0
    assert kinds["impact"].cell == (6, 1, 0)
    assert kinds["impact"].start == DICE_TIME  # not before the die tells the result
    assert "miss" not in kinds
    assert sorted(beat.sounds) == [(0.0, "shot"), (DICE_TIME, "hit")]
    assert beat.duration >= DICE_TIME + EFFECT_TIME


def test_a_miss_puffs_beside_the_target_from_the_shooters_side_and_sounds_a_miss() -> None:
    beat = beat_for(_attack(False), {"Ada": (1, 1, 0), "Bo": (6, 1, 0)}, {}, (), _mine)
    miss = next(e for e in beat.effects if e.kind == "miss")
    assert miss.cell == (6, 1, 0) and miss.source == (1, 1, 0)
    assert "impact" not in {e.kind for e in beat.effects}
    assert (DICE_TIME, "miss") in beat.sounds


def test_a_wound_flashes_red_and_a_death_marks_the_unit_down() -> None:
    damage = Event("damage", {"unit": "Bo", "damage": 6, "effects": ["grave_wound"]})
    beat = beat_for(damage, {"Bo": (6, 1, 0)}, {}, (), _mine)
    assert [e.kind for e in beat.effects] == ["wound"] and (0.0, "wound") in beat.sounds
    died = beat_for(Event("died", {"unit": "Bo"}), {"Bo": (6, 1, 0)}, {}, (), _mine)
    assert [e.kind for e in died.effects] == ["down"]


def test_beats_sound_their_effects_in_time_and_instant_speed_stays_silent() -> None:
    heard = _Heard()
    animator = Animator(speed=1.0, sounds=heard)  # type: ignore[arg-type]
    animator.add(beat_for(_attack(True), {"Ada": (1, 1, 0), "Bo": (6, 1, 0)}, {}, (), _mine))
    animator.update(0.01)
    assert heard.played == ["shot"]
    animator.update(DICE_TIME)
    assert heard.played == ["shot", "hit"]
    quiet = _Heard()
    instant = Animator(speed=0, sounds=quiet)  # type: ignore[arg-type]
    instant.add(beat_for(_attack(True), {"Ada": (1, 1, 0), "Bo": (6, 1, 0)}, {}, (), _mine))
    assert quiet.played == []


def test_every_effect_draws_on_the_board_while_it_lasts_and_not_after() -> None:
    import pygame

    pygame.display.init()
    pygame.font.init()
    try:
        screen = pygame.Surface((320, 240))
        for kind in EFFECT_KINDS:
            animator = Animator(speed=1.0, sounds=_Heard())  # type: ignore[arg-type]
            effect = Effect(kind, (3, 3, 0), source=(0, 3, 0))
            animator.add(Beat(1.0, effects=[effect]))
            animator.update(0.05)
            screen.fill((0, 0, 0))
            animator.draw(screen, lambda c: (c[0] * 32.0 + 16, c[1] * 32.0 + 16))
            drawn = pygame.mask.from_threshold(screen, (0, 0, 0), (1, 1, 1, 255)).count()
            assert drawn < 320 * 240, kind  # some pixels are no longer black
            animator.update(EFFECT_TIME)
            screen.fill((0, 0, 0))
            animator.draw(screen, lambda c: (c[0] * 32.0 + 16, c[1] * 32.0 + 16))
            left = pygame.mask.from_threshold(screen, (0, 0, 0), (1, 1, 1, 255)).count()
            assert left == 320 * 240, kind
    finally:
        pygame.quit()
