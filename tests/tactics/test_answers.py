"""game/tactics/answers.py: where grid geometry and rules meet; why an attack has no chance."""

from __future__ import annotations

from pathlib import Path

import pytest

from game.rules.hit import NoChance
from game.scenario.parse import parse_scenario
from game.tactics import answers as tactics
from game.tactics.battlefield import Battlefield
from game.text.i18n import speaking


def field(entities: list[dict[str, object]], **map_spec: object) -> Battlefield:
    spec = {"size": [12, 12, 1], **map_spec}
    battlefield, _ = parse_scenario({"map": spec, "entities": entities}, Path.cwd())
    return battlefield


@pytest.fixture(scope="module")
def yard() -> Battlefield:
    return field(
        [
            {"id": "knifer", "faction": "red", "at": [0, 1, 0], "weapon": "combat_knife"},
            {"id": "near", "faction": "blue", "at": [1, 0, 0]},
            {"id": "far", "faction": "blue", "at": [3, 1, 0]},
            {
                "id": "blind",
                "faction": "red",
                "at": [0, 5, 0],
                "weapon": "pistol",
                "conditions": ["blinded"],
            },
            {"id": "thrower", "faction": "red", "at": [11, 8, 0], "weapon": "frag_grenade"},
            {"id": "distant", "faction": "blue", "at": [1, 8, 0]},
        ]
    )


def test_g_5_a_melee_weapon_reaches_only_the_cells_around_the_attacker(yard: Battlefield) -> None:
    answer = tactics.attack_chance(yard, yard.entity("knifer"), yard.entity("far"))
    assert (answer.hit, answer.reason) == (None, "out_of_reach")


def test_g_5_out_of_reach_answers_a_reason_code_the_distance_and_a_readable_why(
    yard: Battlefield,
) -> None:
    with speaking("en"):
        answer = tactics.attack_chance(yard, yard.entity("knifer"), yard.entity("far"))
    # knifer (0, 1, 0) to far (3, 1, 0): 3 cells, beyond the 1 a melee weapon reaches
    assert answer.reason is NoChance.OUT_OF_REACH
    assert answer.values == {"distance": 3}
    assert answer.why == ("a melee weapon reaches the 26 cells around; target at 3",)


def test_p_thr_1_out_of_range_gives_the_long_range_and_the_distance(yard: Battlefield) -> None:
    answer = tactics.attack_chance(yard, yard.entity("thrower"), yard.entity("distant"))
    # thrower (11, 8, 0) to distant (1, 8, 0): 10 cells; a light object's long range is 9
    assert answer.values == {"long_range": 9, "distance": 10}


def test_p_thr_1_a_long_throw_at_a_cell_gives_its_band_chance_and_numbers(
    yard: Battlefield,
) -> None:
    with speaking("en"):
        answer = tactics.throw_at(yard, yard.entity("thrower"), "light", (4, 8, 0))
    # 7 cells: long range for a light object (4/9); 60 × (100 + 0 × 5)/100 = 60
    assert (answer.band, answer.automatic, answer.hit_chance, answer.reason) == (
        "long",
        False,
        60,
        None,
    )
    assert answer.values == {"size": "light", "distance": 7, "b_att": 0}
    assert answer.why == ("cell at long range: 60 × (100 + 0 × 5)/100 → 60",)


def test_p_hit_4_melee_uses_the_better_of_precision_and_athletics_and_exposure_counts(
    yard: Battlefield,
) -> None:
    answer = tactics.attack_chance(yard, yard.entity("knifer"), yard.entity("near"))
    assert answer.hit is not None
    # knife 85, bonuses 0, no armour, nothing around the target: high exposure −15 (P-COV-4)
    # P = 85 × (100 + 0 − 0 − (−15)) / 100 = 97.75 → 97
    assert answer.hit.p == 97
    assert answer.cover is not None and answer.cover.grade == "high_exposure"


def test_p_vul_3_a_blinded_attacker_cannot_attack(yard: Battlefield) -> None:
    answer = tactics.attack_chance(yard, yard.entity("blind"), yard.entity("far"))
    assert (answer.hit, answer.reason) == (None, "blinded")
    assert answer.reason is NoChance.BLINDED
    assert answer.rules == ("P-VUL-3",)


def test_p_thr_1_a_thrown_weapon_beyond_long_range_has_no_chance(yard: Battlefield) -> None:
    # frag grenade: a light object, long range 9; the target is 10 cells away
    answer = tactics.attack_chance(yard, yard.entity("thrower"), yard.entity("distant"))
    assert (answer.hit, answer.reason) == (None, "out_of_range")


def test_p_zero_1_a_target_adrift_in_the_void_is_highly_exposed_unless_it_has_thrusters() -> None:
    entities: list[dict[str, object]] = [
        {"id": "gunner", "faction": "red", "at": [0, 5, 5], "weapon": "pistol"},
        {"id": "drifter", "faction": "blue", "at": [5, 5, 5]},
        {"id": "pilot", "faction": "blue", "at": [5, 8, 5], "thrusters": True},
    ]
    cells = [{"at": [6, 5, 5], "obstacle": "half"}, {"at": [6, 8, 5], "obstacle": "half"}]
    bf = field(entities, size=[12, 12, 12], gravity=0.0, cells=cells)
    gunner = bf.entity("gunner")
    # a half obstacle beside each target: by P-COV-4 alone neither would be highly exposed
    drifting = tactics.target_cover(bf, gunner, bf.entity("drifter"))
    assert drifting.grade == "high_exposure"
    assert "P-ZERO-1" in drifting.rules
    assert tactics.target_cover(bf, gunner, bf.entity("pilot")).grade == "none"


def test_p_vul_3_a_blinded_entity_moves_one_cell() -> None:
    bf = field([{"id": "a", "faction": "r", "at": [3, 3, 0], "conditions": ["blinded"]}])
    cells, _ = tactics.reachable_cells(bf, bf.entity("a"))
    # walk 5 would reach 48 cells of the open 12×12 map around (3, 3); blinded: the 8 around
    assert sorted(cells) == sorted(
        (3 + dx, 3 + dy, 0) for dx in (-1, 0, 1) for dy in (-1, 0, 1) if dx or dy
    )
    assert set(cells.values()) == {1}


def test_p_vul_3_a_helped_blinded_entity_keeps_its_speed() -> None:
    bf = field([{"id": "a", "faction": "r", "at": [0, 0, 0], "conditions": ["blinded"]}])
    blind = bf.entity("a")
    cells, allow = tactics.reachable_cells(bf, blind, helped=True)
    # walk 5 from the corner (0, 0) of an open map: the 6 × 6 square around it, less its own cell
    assert len(cells) == 35
    assert cells[(5, 5, 0)] == 5
    assert allow.max_cells is None
    path, _ = tactics.path_to(bf, blind, (3, 0, 0), helped=True)
    assert path.cost == 3
    alone, _ = tactics.path_to(bf, blind, (3, 0, 0))
    assert alone.cost is None
    request, _ = tactics.move_request(bf, blind, None, dash=False, stealth=False, helped=True)
    assert request.max_cells is None
    assert tactics.move_allowance(bf, blind).max_cells == 1


def test_p_vul_3_a_blinded_entity_has_no_line_of_sight_and_cannot_throw(yard: Battlefield) -> None:
    blind, far = yard.entity("blind"), yard.entity("far")
    assert tactics.sight(yard, blind, far).clear is False
    assert tactics.sight(yard, far, blind).clear is True  # the others still see it
    at_entity = tactics.throw_at(yard, blind, "light", far)
    at_cell = tactics.throw_at(yard, blind, "light", (2, 5, 0))
    assert (at_entity.hit_chance, at_entity.reason) == (None, "blinded")
    assert (at_cell.automatic, at_cell.reason) == (False, "blinded")


def test_p_mov_2_crawling_into_water_adds_both_extras_prone_or_asked_to_crawl() -> None:
    corridor = {
        "size": [4, 2, 1],
        "cells": [{"at": [x, 1, 0], "obstacle": "full"} for x in range(4)]
        + [{"at": [1, 0, 0], "terrain": ["water"]}],
    }
    prone = field([{"id": "p", "faction": "r", "at": [0, 0, 0], "stance": "prone"}], **corridor)
    standing = field([{"id": "s", "faction": "r", "at": [0, 0, 0]}], **corridor)
    # into the water 1 + crawling 1 + water 1 = 3; on to (2,0,0) 1 + 1 = 2, total 5 = crawl 5
    expected = {(1, 0, 0): 3, (2, 0, 0): 5}
    assert tactics.reachable_cells(prone, prone.entity("p"))[0] == expected
    assert tactics.reachable_cells(standing, standing.entity("s"), "crawl")[0] == expected
