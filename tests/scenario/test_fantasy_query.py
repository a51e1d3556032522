"""`tessera query` under the fantasy ruleset (RULESETS.md section 4): every query, hand-worked."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from game.scenario.parse import parse_scenario
from game.scenario.queries import answer_all

ROOT = Path(__file__).resolve().parents[2]

ENTITIES = [
    # A lone POT d4 (no skill) against AGI d4 behind a DP of 2: small enough to work by hand.
    {"id": "kid", "faction": "a", "at": [0, 0, 0], "sheet": {"pot": "d4", "skills": {}}},
    {"id": "imp", "faction": "b", "at": [1, 0, 0], "sheet": {"agi": "d4", "vpb": 2}},
    {
        "id": "bow",
        "faction": "a",
        "at": [0, 4, 0],
        "sheet": {
            "pre": "d6",
            "skills": {"uso archi": "d6"},
            "weapon": {"kind": "ranged", "skill": "uso archi", "damage": "1d6"},
        },
    },
    {"id": "ogre", "faction": "b", "at": [6, 4, 0], "sheet": "bruto"},
    {"id": "knight", "faction": "a", "at": [8, 0, 0], "sheet": "guerriero"},
]


def _ask(
    queries: list[dict[str, Any]],
    cells: list[dict[str, Any]] | None = None,
    entities: list[dict[str, Any]] | None = None,
) -> list[dict[str, Any]]:
    scenario = {
        "ruleset": "fantasy",
        "map": {"size": [10, 6, 1], "cells": cells or []},
        "entities": entities if entities is not None else ENTITIES,
        "queries": queries,
    }
    bf, qs = parse_scenario(scenario, Path.cwd())
    results: list[dict[str, Any]] = answer_all(bf, qs)["results"]
    return results


def test_a_melee_contest_d4_against_d4_over_dp_2_by_hand() -> None:
    # F-2 / 003:l.88-103, exploding d4s (F-1). Hit = P(A > max(2, D)) = 27/80 (worked in
    # tests/rules/fantasy/test_dice.py). Nothing = both <= 2 (1/2 x 1/2) + equal above 2
    # (P(A = D) = 1/5 less the ties at 1 and 2, 2/16): 1/4 + 3/40 = 13/40; miss = 27/80 by
    # symmetry. Critical (>= 4, i.e. >= 5, and > D): A >= 5 with D <= 4 (1/4 x 3/4) or both >= 5
    # and A' > D' (1/16 x 2/5): 3/16 + 1/40 = 17/80. Critical failure (003:l.201): A = 1 (1/4) and
    # D >= 10 (4, 4, then 2..4: 1/16 x 3/4 = 3/64): 3/256.
    (a,) = _ask([{"q": "attack", "attacker": "kid", "target": "imp"}])
    assert (a["attack_dice"], a["defence_dice"], a["dp"], a["contest"]) == (["d4"], ["d4"], 2, True)
    assert a["success_chance"] == "27/80" and a["chance"] is None
    assert a["outcomes"] == {"hit": "27/80", "miss": "27/80", "nothing": "13/40"}
    assert a["critical_chance"] == "17/80" and a["critical_failure_chance"] == "3/256"
    assert "F-2" in a["rules"]


def test_an_unaware_target_is_a_check_with_a_chance() -> None:
    # 003:l.110: a check against the DP (8: VPB 8, 003:l.77; the open map gives no cover).
    # PRE d6 + skill d6 > 8: 41/108 (by hand in test_dice).
    (a,) = _ask(
        [{"q": "attack", "attacker": "bow", "target": "ogre", "situation": {"unaware": True}}]
    )
    assert a["contest"] is False and a["defence_dice"] is None and a["dp"] == 8
    assert a["attack_dice"] == ["d6", "d6"] and a["chance"] == "41/108"


def test_a_fleeing_target_is_attacked_without_defence() -> None:
    # 003:l.67: the back attack on a fleeing target: no defence.
    (a,) = _ask(
        [{"q": "attack", "attacker": "kid", "target": "imp", "situation": {"fleeing": True}}]
    )
    assert a["contest"] is False and a["chance"] == a["success_chance"]


def test_given_dice_resolve_the_attack_with_a_critical_location() -> None:
    # kid d4: 4, 4, 1 = 9 against imp d4: 3; DP 2: both pass, 9 > 3: hit. 9 >= 2 x 2: critical
    # (003:l.192); location 25 -> torso (F-3 assumed), critical table at 52 (003:l.193).
    (a,) = _ask(
        [
            {
                "q": "attack",
                "attacker": "kid",
                "target": "imp",
                "dice": {"attack": [[4, 4, 1]], "defence": [[3]], "location": 25},
            }
        ]
    )
    assert a["result"] == {
        "attack_total": 9,
        "defence_total": 3,
        "outcome": "hit",
        "critical": True,
        "critical_failure": False,
        "location": "torso",
        "critical_roll": 52,
    }


@pytest.mark.parametrize(
    ("query", "reason"),
    [
        ({"q": "attack", "attacker": "kid", "target": "ogre"}, "out_of_reach"),
        (
            {
                "q": "attack",
                "attacker": "knight",
                "target": "imp",
                "situation": {"two_weapons": True},
            },
            "out_of_reach",
        ),
        (
            {"q": "attack", "attacker": "kid", "target": "imp", "situation": {"two_weapons": True}},
            "cannot_two_weapons",
        ),
    ],
)
def test_attacks_that_cannot_be_made_give_the_reason(query: dict[str, Any], reason: str) -> None:
    (a,) = _ask([query])
    assert a["chance"] is None and a["reason"] == reason


def test_a_ranged_attacker_in_melee_is_engaged() -> None:
    # 003:l.61: "Un personaggio non impegnato in una mischia"; F-2: an enemy adjacent.
    entities = [*ENTITIES[:4], {"id": "rat", "faction": "b", "at": [1, 4, 0]}]
    (a,) = _ask([{"q": "attack", "attacker": "bow", "target": "ogre"}], entities=entities)
    assert a["reason"] == "engaged"


def test_a_ranged_target_in_melee_with_another_is_taken_by_surprise() -> None:
    # 003:l.109: "il bersaglio di un attacco a distanza è impegnato in un corpo a corpo con un
    # altro avversario": a check, no defence.
    entities = [*ENTITIES[:4], {"id": "pal", "faction": "a", "at": [6, 5, 0]}]
    (a,) = _ask([{"q": "attack", "attacker": "bow", "target": "ogre"}], entities=entities)
    assert a["contest"] is False


def test_a_wall_blocks_the_line_of_sight() -> None:
    (a,) = _ask(
        [{"q": "attack", "attacker": "bow", "target": "ogre"}],
        cells=[{"at": [3, 4, 0], "obstacle": "full"}],
    )
    assert a["reason"] == "no_los"


def test_damage_through_armour_into_the_body_sections() -> None:
    # 003:l.179: the ogre's torso armour 4 (the bruto sample) takes 6: destroyed, 2 to the
    # body, which fills nothing yet (Lieve has 3 boxes). A d100 of 25 is the torso (F-3): 3
    # there leave 1 of its armour and reach no body point.
    a, b = _ask(
        [
            {"q": "damage", "target": "ogre", "damage": 6, "location": "torso"},
            {"q": "damage", "target": "ogre", "damage": 3, "location": 25},
        ]
    )
    assert (
        a["armour_left"],
        a["armour_destroyed"],
        a["body_lost"],
        a["full_sections"],
        a["dead"],
    ) == (0, True, 2, [], False)
    assert b["location"] == "torso" and b["armour_left"] == 1 and b["body_lost"] == 0


def test_initiative_by_agi_then_des_then_together() -> None:
    # F-1: bow (defaults: AGI d6, DES d6), kid (d6, d6), imp (AGI d4), ogre (bruto: d4, d4),
    # knight (guerriero: d6, d6). AGI d6: kid, bow, knight all DES d6 -> together; then d4s:
    # imp DES d6 before ogre DES d4.
    (a,) = _ask([{"q": "initiative"}])
    assert a["order"] == ["kid", "bow", "knight", "imp", "ogre"]
    assert a["simultaneous"] == [["kid", "bow", "knight"]]


@pytest.mark.parametrize(
    ("query", "place"),
    [
        (
            {"q": "attack", "attacker": "kid", "target": "imp", "situation": {"cover": "half"}},
            "situation: unknown field 'cover'",
        ),
        (
            {
                "q": "attack",
                "attacker": "kid",
                "target": "imp",
                "dice": {"attack": [[4]], "defence": [[3]]},
            },
            "rolled again",
        ),
        (
            {"q": "damage", "target": "ogre", "damage": 3, "location": "tail"},
            "unknown value 'tail'",
        ),
        ({"q": "initiative", "entities": ["nobody"]}, "no entity 'nobody'"),
    ],
)
def test_bad_queries_are_refused_by_name(query: dict[str, Any], place: str) -> None:
    (a,) = _ask([query])
    assert place in a["error"]


@pytest.mark.parametrize("name", ["hull_breach", "station_interior", "surface_outpost"])
def test_every_shipped_map_is_answered_under_fantasy(name: str) -> None:
    scenario = {"ruleset": "fantasy", "map": f"maps/{name}.tmx", "queries": [{"q": "initiative"}]}
    bf, qs = parse_scenario(scenario, ROOT)
    order = answer_all(bf, qs)["results"][0]["order"]
    assert bf.ruleset == "fantasy" and sorted(order) == sorted(e.id for e in bf.entities)


def test_a_shipped_maps_sample_sheets_decide_the_initiative() -> None:
    # surface_outpost: Dusk is a scavenger -> arciere (AGI d8) and acts before the humans
    # (popolano, AGI d6).
    scenario = {
        "ruleset": "fantasy",
        "map": "maps/surface_outpost.tmx",
        "queries": [{"q": "initiative", "entities": ["Halvorsen", "Dusk"]}],
    }
    bf, qs = parse_scenario(scenario, ROOT)
    assert answer_all(bf, qs)["results"][0]["order"] == ["Dusk", "Halvorsen"]
