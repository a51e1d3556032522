"""`tessera query` under Myst reads a rider's sheet keys `gait` as the battle does (issue 16,
RULESETS.md section 4): a query that does not name `situation.gait` fights the exchange at the
sheets' gait (a rider's own, the faster rider's, 002:l.152), and the damage query's `gallop` cap
is the attacker's galloping sheet unless the query names it; `horse` and `athletics` are read
into the sheet (the battle's horse and fall) and refused by name when out of range. Numbers
worked out by hand from seed 002:
- l.128 (rules.toml [mounted] bonus 10): a rider +10 against one on foot.
- l.136 "l'Abilità avente il punteggio più basso tra quella normalmente utilizzata a tale scopo
  e Cavalcare": at a canter a rider with attack 50 and Cavalcare 40 attacks with 40.
- l.142 "un bonus di Forza pari a +3" at the gallop; l.20-22 one unit per 5 points of margin;
  Strength 35 -> the table's +1 (l.30-40).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from game.rules.reader import ScenarioError
from game.scenario.parse import parse_scenario
from game.scenario.queries import answer_all


def _answers(knight: dict[str, Any], queries: list[dict[str, Any]]) -> list[dict[str, Any]]:
    scenario = {
        "ruleset": "myst",
        "map": {"size": [8, 3, 1]},
        "entities": [
            {"id": "knight", "faction": "a", "at": [0, 0, 0], "sheet": knight},
            {"id": "foot", "faction": "b", "at": [1, 0, 0], "sheet": {"defence": 40}},
        ],
        "queries": queries,
    }
    bf, qs = parse_scenario(scenario, Path.cwd())
    results: list[dict[str, Any]] = answer_all(bf, qs)["results"]
    return results


#: A rider: attack 50, Cavalcare 40, Strength 35, a lance (1d6, melee).
RIDER = {"attack": 50, "riding": 40, "strength": 35, "weapon": "lancia", "mounted": True}
ATTACK = {"q": "attack", "attacker": "knight", "target": "foot"}


def test_002_l136_the_sheets_canter_makes_the_attack_the_lower_of_skill_and_cavalcare() -> None:
    # At a canter: min(50, 40) = 40, + 10 mounted (l.128) = 50 against defence 40. At a walk
    # (the query naming it, the GM's word): 50 + 10 = 60.
    sheet_gait, asked_walk = _answers(
        {**RIDER, "gait": "canter"}, [ATTACK, {**ATTACK, "situation": {"gait": "walk"}}]
    )
    assert (sheet_gait["attack"], sheet_gait["defence"]) == (50, 40)
    assert "at a canter (from the sheets)" in sheet_gait["why"]
    assert (asked_walk["attack"], asked_walk["defence"]) == (60, 40)


def test_002_l152_on_foot_against_a_galloping_rider_the_exchange_follows_the_gallop() -> None:
    # The foot soldier attacks the knight: the rider's gait is the exchange's (l.152, on foot
    # against a rider); the rider's +10 (l.128) is listed against the attacker as -10.
    (answer,) = _answers(
        {**RIDER, "gait": "gallop"}, [{"q": "attack", "attacker": "foot", "target": "knight"}]
    )
    assert "at a gallop (from the sheets)" in answer["why"]
    assert answer["modifiers"]["target_mounted"] == -10


def _damage(margin: int, spend: dict[str, int], **situation: object) -> dict[str, Any]:
    query: dict[str, Any] = {
        "q": "damage",
        "attacker": "knight",
        "margin": margin,
        "rolled": 1,
        "spend": spend,
    }
    if situation:
        query["situation"] = situation
    return query


def test_002_l142_a_galloping_sheet_raises_the_strength_cap_by_3_unless_the_query_says_no() -> None:
    # Margin 20 = 4 units, all on Strength: at the gallop the cap is 1 + 3 = 4, bonus 4, a
    # rolled 1 + 4 = 5. At a canter (no +3) or with `gallop: false` named: cap 1, refused.
    galloping, named_off = _answers(
        {**RIDER, "gait": "gallop"},
        [_damage(20, {"strength": 4}), _damage(20, {"strength": 4}, gallop=False)],
    )
    assert "error" not in galloping, galloping
    assert (galloping["strength_cap"], galloping["damage"]) == (4, 5)
    assert galloping["cap_parts"] == {"table": 1, "gallop": 3}
    assert "above the Strength cap 1" in named_off["error"]
    (cantering,) = _answers({**RIDER, "gait": "canter"}, [_damage(20, {"strength": 4})])
    assert "above the Strength cap 1" in cantering["error"]


def test_the_horse_and_athletics_sheet_keys_are_read_and_refused_by_name_out_of_range() -> None:
    _answers({**RIDER, "horse": 32, "athletics": 44}, [])
    with pytest.raises(ScenarioError, match=r"entities\[0\]\.sheet\.horse"):
        _answers({**RIDER, "horse": -1}, [])
    with pytest.raises(ScenarioError, match=r"entities\[0\]\.sheet\.athletics"):
        _answers({**RIDER, "athletics": 400}, [])
