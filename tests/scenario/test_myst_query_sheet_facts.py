"""`tessera query` under Myst reads the two-handed grip and the charge as the battle does
(issue 16, RULESETS.md section 4): `situation.two_handed` / `charge` stay query fields, but a
query that does not name them takes the sheet's grip and the run-up walked, through the same
function the battle asks (`game.rules.myst.round.situation`). Numbers worked out by hand from
seed 002:
- l.46 "Josh colpisce Desmond con una mazza ... pari a 62; Desmond difende ... pari a 46. La
  differenza ... è pari a 16 ... avendo un punteggio pari a 35 dovrà limitarsi ad applicare
  soltanto un bonus di +1": margin 16 = 3 units of 5, Strength 35 -> table bonus +1.
- l.234 "Ciascun colpo sferrato impugnando con due mani un'arma a una mano darà diritto a un
  bonus di Forza di +1" (l.238: Devon's cap +1 becomes +2).
- l.189 "sfruttando una rincorsa di almeno 5 metri"; l.193 "guadagna un +2 al suo bonus di Forza
  ... potrà aggiungere 10 punti allo Scarto di Difesa": 4 cells = 6 m (G-4), 3 cells = 4.5 m.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

from game.scenario.parse import parse_scenario
from game.scenario.queries import answer_all
from game.tactics.battlefield import Battlefield
from game.tactics.rulesets.myst import sheet_of
from game.tactics.rulesets.myst_battle import BATTLE


def _field(josh: dict[str, Any]) -> tuple[Battlefield, list[Any]]:
    scenario = {
        "ruleset": "myst",
        "map": {"size": [8, 3, 1]},
        "entities": [
            {"id": "josh", "faction": "a", "at": [0, 0, 0], "sheet": josh},
            {"id": "desmond", "faction": "b", "at": [1, 0, 0], "sheet": {"defence": 40}},
        ],
        "queries": [],
    }
    bf, _qs = parse_scenario(scenario, Path.cwd())
    return bf, _qs


def _ask(bf: Battlefield, queries: list[dict[str, Any]]) -> list[dict[str, Any]]:
    scenario = {"ruleset": "myst", "map": {"size": [8, 3, 1]}, "entities": [], "queries": queries}
    _bf, qs = parse_scenario(scenario, Path.cwd())
    results: list[dict[str, Any]] = answer_all(bf, qs)["results"]
    return results


#: Josh of 002:l.46: attack 50 (+ 4+4+4 = 62), Strength 35, a mazza (1d6, one hand, grip).
JOSH = {"attack": 50, "strength": 35, "weapon": "mazza"}
WORKED = {
    "q": "attack",
    "attacker": "josh",
    "target": "desmond",
    "dice": {"attack": [4, 4, 4], "defence": [2, 2, 2]},
}


def _damage(spend: dict[str, int], **situation: object) -> dict[str, Any]:
    query: dict[str, Any] = {
        "q": "damage",
        "attacker": "josh",
        "margin": 16,
        "rolled": 1,
        "spend": spend,
    }
    if situation:
        query["situation"] = situation
    return query


def test_m1_the_worked_example_without_grip_or_charge_keeps_cap_1() -> None:
    # 62 - 46 = 16: 3 units; cap +1 (Strength 35); 1 unit on Strength, 2 on the minimum:
    # a rolled 1 becomes 2, + 1 = 3 (002:l.58). Nothing raises the cap: the situation says so.
    bf, _ = _field(JOSH)
    attack, damage = _ask(bf, [WORKED, _damage({"strength": 1, "minimum": 2})])
    assert attack["result"]["margin"] == 16
    assert attack["situation"] == {"charge": False, "two_handed": False, "second_defence": False}
    assert (damage["units"], damage["strength_cap"], damage["damage"]) == (3, 1, 3)
    assert damage["cap_parts"] == {"table": 1}


def test_m1_the_sheets_two_handed_grip_raises_the_damage_cap_to_2_without_asking() -> None:
    # 002:l.234/238: the cap +1 becomes +2. Margin 16 = 3 units: 2 on Strength, 1 on the
    # minimum: a rolled 1 stays max(1, 1) = 1, + 2 = 3. Before this the query read only its own
    # flag: cap 1, and 2 units on Strength were refused.
    bf, _ = _field({**JOSH, "two_handed": True})
    attack, damage = _ask(bf, [WORKED, _damage({"strength": 2, "minimum": 1})])
    assert attack["situation"]["two_handed"] is True and attack["situation"]["charge"] is False
    assert "two-handed grip (from the sheets)" in attack["why"]
    # The exchange itself does not change: 62 against 46, margin 16 (the grip is damage only).
    assert (attack["attack"], attack["defence"], attack["result"]["margin"]) == (50, 40, 16)
    assert "error" not in damage, damage
    assert (damage["strength_cap"], damage["strength_bonus"], damage["damage"]) == (2, 2, 3)
    assert damage["cap_parts"] == {"table": 1, "two_handed": 1}


def test_m1_a_query_that_names_two_handed_false_overrides_the_sheets_grip() -> None:
    # The GM's word wins: one hand on the mazza, cap +1, so 2 units on Strength are refused.
    bf, _ = _field({**JOSH, "two_handed": True})
    (damage,) = _ask(bf, [_damage({"strength": 2, "minimum": 1}, two_handed=False)])
    assert "above the Strength cap 1" in damage["error"]


def test_m1_the_grip_of_the_sheets_weapon_is_not_carried_to_a_dagger_the_query_names() -> None:
    # 002:l.235: "pugnali ... non lo consentono": with the query's pugnale the grip is gone
    # (cap 1), where naming two_handed for it is refused by name.
    bf, _ = _field({**JOSH, "two_handed": True})
    plain, asked = _ask(
        bf,
        [
            {**WORKED, "weapon": "pugnale"},
            {**WORKED, "weapon": "pugnale", "situation": {"two_handed": True}},
        ],
    )
    assert plain["situation"]["two_handed"] is False
    assert "situation.two_handed" in asked["error"] and "cannot be held" in asked["error"]


def test_m1_a_run_up_of_4_cells_is_a_charge_cap_plus_2_and_3_cells_is_not() -> None:
    # 4 cells = 6 m >= 5 m: charge, cap 1 + 2 = 3; all 3 units on Strength: 1 + 3 = 4.
    # 3 cells = 4.5 m: no charge, cap 1, 3 units on Strength refused.
    bf, _ = _field(JOSH)
    charged, short = _ask(
        bf, [_damage({"strength": 3}, run_up=4), _damage({"strength": 3}, run_up=3)]
    )
    assert (charged["strength_cap"], charged["damage"]) == (3, 4)
    assert charged["cap_parts"] == {"table": 1, "charge": 2}
    assert "above the Strength cap 1" in short["error"]


def test_m1_the_attack_query_counts_a_charge_from_the_run_up_and_its_won_defence_adds_10() -> None:
    # Attack 50 + 1+1+1 = 53 against 40 + 6+6+6 = 58: the defence wins by 5; against a charge
    # (run-up 4 cells) it adds 10 (002:l.193): 15. Without the run-up: 5.
    bf, _ = _field(JOSH)
    dice = {"attack": [1, 1, 1], "defence": [6, 6, 6]}
    charged, plain = _ask(
        bf,
        [
            {**WORKED, "dice": dice, "situation": {"run_up": 4}},
            {**WORKED, "dice": dice},
        ],
    )
    assert charged["situation"]["charge"] is True and plain["situation"]["charge"] is False
    assert charged["result"]["margin"] == 15 and plain["result"]["margin"] == 5
    assert "charge (from the sheets)" in charged["why"]


def test_m1_grip_and_charge_together_make_cap_4() -> None:
    # 002:l.193 + l.234: 1 + 1 + 2 = 4; the margin's 3 units all go on Strength: 1 + 3 = 4.
    bf, _ = _field({**JOSH, "two_handed": True})
    (damage,) = _ask(bf, [_damage({"strength": 3}, run_up=4)])
    assert (damage["strength_cap"], damage["damage"]) == (4, 4)


def test_m1_the_query_on_a_battles_sheet_agrees_with_the_battle_on_charge_and_grip() -> None:
    # A battle journal's sheet carries the run-up walked this turn (4 cells) and the grip:
    # the query with no situation counts exactly what the battle's attack counts.
    bf, _ = _field({**JOSH, "two_handed": True})
    entities = tuple(
        replace(e, sheet=replace(sheet_of(e), run_up=4)) if e.id == "josh" else e
        for e in bf.entities
    )
    walked = Battlefield(bf.grid, entities, bf.rules, bf.ruleset)
    battle = BATTLE.attack(walked, walked.entity("josh"), walked.entity("desmond"))
    (query,) = _ask(walked, [{"q": "attack", "attacker": "josh", "target": "desmond"}])
    assert battle.detail.situation.charge is True and battle.detail.situation.two_handed is True
    assert query["situation"] == {"charge": True, "two_handed": True, "second_defence": False}
    (damage,) = _ask(walked, [_damage({"strength": 3})])
    assert damage["strength_cap"] == 4


def test_m2_a_second_defence_in_the_round_comes_from_the_targets_sheet() -> None:
    # M-2's base: a second defence in the round is at -20 (the target defended once already):
    # defence 40 - 20 = 20, listed as +20 for the attacker.
    bf, _ = _field(JOSH)
    entities = tuple(
        replace(e, sheet=replace(sheet_of(e), defences=1)) if e.id == "desmond" else e
        for e in bf.entities
    )
    tired = Battlefield(bf.grid, entities, bf.rules, bf.ruleset)
    (a,) = _ask(tired, [{"q": "attack", "attacker": "josh", "target": "desmond"}])
    assert a["defence"] == 20 and a["modifiers"] == {"second_defence": 20}
    assert a["situation"]["second_defence"] is True


def test_m1_a_named_charge_with_a_short_run_up_is_still_refused() -> None:
    # 3 cells = 4.5 m < 5 m (002:l.189): the query named the charge, so it is checked.
    bf, _ = _field(JOSH)
    (a,) = _ask(bf, [{**WORKED, "situation": {"charge": True, "run_up": 3}}])
    assert a["chance"] is None and a["reason"] == "short_run_up"


def test_m1_a_gallop_is_not_also_a_charge_on_foot() -> None:
    # 002:l.142 "ha diritto a un bonus di Forza pari a +3" is the rider's charge (l.140 "In
    # Carica / al Galoppo"); 002:l.187's charge is on foot. Run-up 4 cells with a gallop:
    # cap 1 + 3 = 4, not 1 + 3 + 2 = 6.
    bf, _ = _field(JOSH)
    (damage,) = _ask(bf, [_damage({"strength": 3}, run_up=4, gallop=True)])
    assert damage["strength_cap"] == 4 and damage["cap_parts"] == {"table": 1, "gallop": 3}
