"""Animations show what is already resolved, and nothing the player could not see."""

from __future__ import annotations

from game.battle.events import Event
from game.rules.dice import Roller
from game.ui.anim import CELL_TIME, Animator, Beat, beat_for


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
    assert beat.texts[0].text == "-7 grave wound"
