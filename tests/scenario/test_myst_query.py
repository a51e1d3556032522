"""`tessera query` under the Myst ruleset (RULESETS.md section 4): every query, hand-worked."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from game.scenario.parse import parse_scenario
from game.scenario.queries import answer_all

ROOT = Path(__file__).resolve().parents[2]


def _ask(
    queries: list[dict[str, Any]],
    entities: list[dict[str, Any]] | None = None,
    cells: list[dict[str, Any]] | None = None,
) -> list[dict[str, Any]]:
    scenario = {
        "ruleset": "myst",
        "map": {"size": [10, 5, 1], "cells": cells or []},
        "entities": entities if entities is not None else ENTITIES,
        "queries": queries,
    }
    bf, qs = parse_scenario(scenario, Path.cwd())
    results: list[dict[str, Any]] = answer_all(bf, qs)["results"]
    return results


ENTITIES = [
    {
        "id": "josh",
        "faction": "a",
        "at": [0, 0, 0],
        "sheet": {"attack": 50, "strength": 35, "weapon": "mazza"},
    },
    {"id": "desmond", "faction": "b", "at": [1, 0, 0], "sheet": {"defence": 40}},
    {"id": "archer", "faction": "a", "at": [0, 2, 0], "sheet": {"attack": 0, "weapon": "arco"}},
    {"id": "pal", "faction": "a", "at": [3, 2, 0]},
    {"id": "foe", "faction": "b", "at": [6, 2, 0]},
    {"id": "far", "faction": "b", "at": [9, 2, 0], "sheet": {"defence": 100}},
]


def test_attack_with_the_seeds_worked_example_dice() -> None:
    # 002:l.46: attack 50 + 4+4+4 = 62 against defence 40 + 2+2+2 = 46: margin 16, attack wins.
    # Chance for 50 vs 40: that both sides' dice total is the only question, checked elsewhere.
    (a,) = _ask(
        [
            {
                "q": "attack",
                "attacker": "josh",
                "target": "desmond",
                "dice": {"attack": [4, 4, 4], "defence": [2, 2, 2]},
            }
        ]
    )
    assert (a["attack"], a["defence"], a["in_line"], a["stray_none"]) == (50, 40, [], "1/1")
    assert a["result"]["attack_total"] == 62 and a["result"]["defence_total"] == 46
    assert a["result"]["winner"] == "attack" and a["result"]["margin"] == 16
    assert "M-1" in a["rules"]


def test_damage_of_the_worked_example_and_over_spending_refused() -> None:
    # 002:l.58: 1 unit Strength (cap +1 at 35) + 2 units minimum: a rolled 1 deals 3.
    # Desmond's Status Globale 30 (assumed default) - 3 = 27 (M-2).
    ok, over = _ask(
        [
            {
                "q": "damage",
                "attacker": "josh",
                "target": "desmond",
                "margin": 16,
                "rolled": 1,
                "spend": {"strength": 1, "minimum": 2, "reduce": 0},
            },
            {
                "q": "damage",
                "attacker": "josh",
                "margin": 16,
                "rolled": 1,
                "spend": {"strength": 1, "minimum": 3},
            },
        ]
    )
    assert ok["units"] == 3 and ok["strength_cap"] == 1 and ok["strength_bonus"] == 1
    assert (ok["minimum"], ok["die"], ok["damage"], ok["status"], ok["out"]) == (2, 2, 3, 27, False)
    assert "buys 3" in over["error"] and over["error"].startswith("queries[1]")


def test_ranged_attack_lists_the_entities_in_line_with_exact_stray_chances() -> None:
    # archer (0,2) -> far (9,2): the line enters (1..8, 2): pal at 3 and foe at 6, nearest
    # first. Attack 0 - 10 (partial, 002:l.256) against 100: never wins (needs 110+ over 27), so
    # every shot strays: pal 33/100, foe 67/100 x 33/100 = 2211/10000, nobody 4489/10000.
    (a,) = _ask([{"q": "attack", "attacker": "archer", "target": "far"}])
    assert a["in_line"] == ["pal", "foe"] and a["obstruction"] == "partial"
    assert a["modifiers"] == {"obstruction": -10} and a["attack"] == -10
    assert a["chance"] == "0/1" and a["chance_defence"] == "1/1"
    assert a["stray"] == {"pal": "33/100", "foe": "2211/10000"}
    assert a["stray_none"] == "4489/10000"


def test_total_obstruction_answers_line_blocked() -> None:
    # 002:l.255 / M-1: "il colpo non può essere effettuato".
    (a,) = _ask(
        [
            {
                "q": "attack",
                "attacker": "archer",
                "target": "far",
                "situation": {"obstruction": "total"},
            }
        ]
    )
    assert a["chance"] is None and a["reason"] == "line_blocked"
    assert a["in_line"] == ["pal", "foe"]


def test_the_stray_dice_pick_the_first_in_line_rolling_33_or_less() -> None:
    # A miss (the attack total -10 + 3 never beats 100 + 3) with d100s 60 then 12: pal spared,
    # foe hit.
    (a,) = _ask(
        [
            {
                "q": "attack",
                "attacker": "archer",
                "target": "far",
                "dice": {"attack": [1, 1, 1], "defence": [1, 1, 1], "stray": [60, 12]},
            }
        ]
    )
    assert a["result"]["winner"] == "defence" and a["result"]["stray_hit"] == "foe"


def test_melee_beyond_the_adjacent_cells_is_out_of_reach() -> None:
    (a,) = _ask([{"q": "attack", "attacker": "josh", "target": "foe"}])
    assert a["chance"] is None and a["reason"] == "out_of_reach"


def test_terrain_blocks_the_line_of_sight_but_people_do_not() -> None:
    cells = [{"at": [8, 2, 0], "obstacle": "full"}]
    (a,) = _ask([{"q": "attack", "attacker": "archer", "target": "far"}], cells=cells)
    assert a["chance"] is None and a["reason"] == "no_los"


def test_a_defence_margin_of_20_lists_the_counter_moves_and_a_push_knocks_down() -> None:
    # 002:l.76-79: josh defends (defence 40, the assumed default) against desmond's attack 40:
    # 40 + 1+1+1 = 43 against 40 + 10+10+10 = 70, margin 27 -> one counter-move of 20, and in
    # melee all four are open. Then josh pushes desmond (002:l.99-101): brawl = attack total 50
    # + 9+9+9 = 77 against desmond's 40 + 1+1+1 = 43, margin 34 >= 20 -> knocked down.
    d, p = _ask(
        [
            {
                "q": "attack",
                "attacker": "desmond",
                "target": "josh",
                "dice": {"attack": [1, 1, 1], "defence": [10, 10, 10]},
            },
            {
                "q": "attack",
                "attacker": "josh",
                "target": "desmond",
                "situation": {"counter": "push"},
                "dice": {"attack": [9, 9, 9], "defence": [1, 1, 1]},
            },
        ]
    )
    assert d["result"]["winner"] == "defence" and d["result"]["margin"] == 27
    assert d["result"]["defence_options"] == [
        "counterattack",
        "cancel_penalty",
        "break_off",
        "priority",
    ]
    assert p["result"]["margin"] == 34 and p["result"]["knocked_down"] is True


def test_situation_modifiers_mounted_aimed_shield() -> None:
    # 002:l.128 mounted +10; 002:l.248 aimed limb -20; 40 + 10 - 20 = 30.
    (a,) = _ask(
        [
            {
                "q": "attack",
                "attacker": "josh",
                "target": "desmond",
                "situation": {"mounted": True, "aimed": "limb"},
            }
        ]
    )
    assert a["attack"] == 40 and a["modifiers"] == {"mounted": 10, "aimed": -20}


def test_initiative_adds_the_d10_to_the_sheet_priority() -> None:
    # M-2: josh 10 + 7 = 17 and desmond 10 + 9 = 19 (both the assumed default priority 10).
    (a,) = _ask([{"q": "initiative", "rolls": {"josh": 7, "desmond": 9}}])
    assert a["order"] == ["desmond", "josh"] and a["scores"] == {"josh": 17, "desmond": 19}
    assert a["simultaneous"] == [] and a["rules"] == ["M-2"]


def test_the_shared_chance_query_answers_the_opposed_3d10() -> None:
    # P(3d10 - 3d10 >= 1) = (1 - 55252/10^6) / 2 = 236187/500000 (see the rules tests).
    (a,) = _ask([{"q": "chance", "dice": "3d10-3d10", "at_least": 1}])
    assert a["chance"] == "236187/500000"


@pytest.mark.parametrize(
    ("query", "place"),
    [
        (
            {"q": "attack", "attacker": "josh", "target": "desmond", "situation": {"cover": 1}},
            "situation: unknown field 'cover'",
        ),
        (
            {
                "q": "attack",
                "attacker": "josh",
                "target": "desmond",
                "situation": {"obstruction": "heavy"},
            },
            "situation.obstruction: unknown value 'heavy'",
        ),
        (
            {
                "q": "attack",
                "attacker": "josh",
                "target": "desmond",
                "dice": {"attack": [1, 2], "defence": [1, 2, 3]},
            },
            "dice: attack dice",
        ),
        ({"q": "attack", "attacker": "josh", "target": "nobody"}, "no entity 'nobody'"),
        ({"q": "damage", "attacker": "josh", "margin": 5, "rolled": 9}, "not a result of 1d6"),
        ({"q": "initiative", "rolls": {"josh": 11}}, "11 is above the maximum 10"),
        ({"q": "hit_chance", "attacker": "josh"}, "unknown value 'hit_chance'"),
    ],
)
def test_bad_queries_are_refused_by_name(query: dict[str, Any], place: str) -> None:
    (a,) = _ask([query])
    assert place in a["error"]


@pytest.mark.parametrize("name", ["hull_breach", "station_interior", "surface_outpost"])
def test_every_shipped_map_is_answered_under_myst(name: str) -> None:
    scenario = {
        "ruleset": "myst",
        "map": f"maps/{name}.tmx",
        "queries": [{"q": "initiative", "rolls": {}}],
    }
    bf, qs = parse_scenario(scenario, ROOT)
    assert bf.ruleset == "myst" and bf.entities
    assert answer_all(bf, qs)["results"][0]["order"] == []


def test_a_shipped_maps_units_fight_with_their_sample_sheets() -> None:
    # station_interior: Bruno is a station_guard -> soldato (priority 12), Wisp a scavenger ->
    # arciere (priority 14): 12 + 5 = 17, 14 + 5 = 19. Kask and Rook (human -> popolano, a
    # forcone) stand 5 cells apart: out of melee reach.
    scenario = {
        "ruleset": "myst",
        "map": "maps/station_interior.tmx",
        "queries": [
            {"q": "initiative", "rolls": {"Bruno": 5, "Wisp": 5}},
            {"q": "attack", "attacker": "Kask", "target": "Rook"},
        ],
    }
    bf, qs = parse_scenario(scenario, ROOT)
    init, attack = answer_all(bf, qs)["results"]
    assert init["order"] == ["Wisp", "Bruno"] and init["scores"] == {"Bruno": 17, "Wisp": 19}
    assert attack["reason"] == "out_of_reach"
