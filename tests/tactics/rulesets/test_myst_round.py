"""Myst's battle object with a turn's run-up and a round's defences (M-1, M-2, seed 002:
l.77-79 the defence margin's moves, l.118-128 mounted, l.187-193 the charge on foot, l.232-238
the two-handed grip): the exchange, its margin's Strength cap and the breakdown's lines,
numbers worked out by hand."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

from game.rules.dice import Advantage, Roller
from game.scenario.parse import parse_scenario
from game.tactics.battlefield import Battlefield, EntitySheet
from game.tactics.ruleset import round_rules
from game.tactics.rulesets.myst_battle import BATTLE, MystAttack, sheet_of
from game.tactics.rulesets.myst_round import ROUND
from game.text.explain import modifier_line
from game.text.i18n import speaking


def _field(entities: list[dict[str, object]]) -> Battlefield:
    scenario = {"ruleset": "myst", "map": {"size": [8, 3, 1]}, "entities": entities}
    return parse_scenario(scenario, Path.cwd())[0]


def _fighter(id_: str, faction: str, x: int, **sheet: object) -> dict[str, object]:
    return {"id": id_, "faction": faction, "at": [x, 0, 0], "sheet": sheet}


def _with(bf: Battlefield, unit: str, **state: Any) -> Battlefield:
    """The battlefield with `unit`'s Myst sheet changed (the battle's state: run-up, defences)."""
    entities = tuple(
        replace(e, sheet=replace(sheet_of(e), **state)) if e.id == unit else e for e in bf.entities
    )
    return Battlefield(bf.grid, entities, bf.rules, bf.ruleset)


def _duel(**attacker: object) -> Battlefield:
    # Strength 30 is +1 on the table (26-37, 002:l.30-40), the cap before what raises it.
    return _field(
        [
            _fighter("a", "x", 0, attack=40, strength=30, weapon="spada", **attacker),
            _fighter("b", "y", 1, defence=40, status=30),
        ]
    )


def _codes(bf: Battlefield) -> list[tuple[str, int]]:
    attack = BATTLE.attack(bf, bf.entity("a"), bf.entity("b"))
    return [(m.code, int(m.value)) for m in attack.modifiers]


def test_m1_a_charge_after_4_cells_raises_the_strength_cap_by_2_in_the_margins_plans() -> None:
    # 40 + (10+10+10) = 70 against 40 + (1+1+1) = 43: margin 27, five units (002:l.42). The
    # cap: table +1, charge +2 (002:l.193 "guadagna un +2 al suo bonus di Forza") = 3; the
    # computer's spend: 3 on Strength, 2 on the minimum; the spada's 1d8 shows 6: 6 + 3 = 9.
    # Without the run-up: 1 on Strength, 4 on the minimum: 6 + 1 = 7.
    for run_up, cap, damage in ((4, 3, 9), (3, 1, 7)):
        bf = _with(_duel(), "a", run_up=run_up)
        attack = BATTLE.attack(bf, bf.entity("a"), bf.entity("b"))
        detail: MystAttack = attack.detail
        assert detail.situation.charge is (run_up == 4)
        roller = Roller(1)
        roller.supply(10, 10, 10, 1, 1, 1, 6)
        rolled = BATTLE.roll_attack(roller, attack, Advantage.NONE, "attack a")
        assert rolled.logged["margin"] == 27
        hit = BATTLE.roll_damage(
            roller, bf, bf.entity("a"), bf.rules.weapons["pistol"], attack, rolled
        )
        assert hit.rolled == damage
        choice = BATTLE.damage_choice(hit.choice)
        assert dict(choice.caps)["strength"] == cap
        # spend_margin's validation uses the same cap (002:l.20, 46).
        over = BATTLE.spend_damage(hit.choice, {"strength": cap + 1})
        assert over.refused == "over_strength_cap" and over.values["cap"] == cap
        assert BATTLE.spend_damage(hit.choice, {"strength": cap}).refused is None
    charged = _with(_duel(), "a", run_up=4)
    assert ("myst_charge", 2) in _codes(charged)
    assert rolled.logged.get("situation") is None  # the 3-cell run: nothing new to log


def test_m1_a_charge_is_logged_with_its_run_up_and_explained_in_both_languages() -> None:
    bf = _with(_duel(), "a", run_up=5)
    attack = BATTLE.attack(bf, bf.entity("a"), bf.entity("b"))
    roller = Roller(1)
    roller.supply(10, 10, 10, 1, 1, 1)
    rolled = BATTLE.roll_attack(roller, attack, Advantage.NONE, "attack a")
    assert (rolled.logged["situation"], rolled.logged["run_up"]) == (["charge"], 5)
    assert any("charge after a run-up of 5 cells (7.5 m" in w for w in attack.why)
    line = next(m for m in attack.modifiers if m.code == "myst_charge")
    assert modifier_line(line) == "charge: Strength cap +2; a won defence adds to its margin (M-1)"
    with speaking("it"):
        assert modifier_line(line).startswith("carica: tetto del bonus di Forza +2")


def test_m1_a_defence_that_beats_a_charge_adds_10_to_its_margin_and_buys_a_counter_move() -> None:
    # 40 + (1+1+1) = 43 against 40 + (10+10+1) = 61: the defence wins by 18, short of a move
    # (20, 002:l.76); against a charge 18 + 10 = 28 (002:l.193 "potrà aggiungere 10 punti allo
    # Scarto di Difesa"): one unit, the counterattack by default.
    for run_up, margin in ((0, 18), (4, 28)):
        bf = _with(_duel(), "a", run_up=run_up)
        attack = BATTLE.attack(bf, bf.entity("a"), bf.entity("b"))
        roller = Roller(1)
        roller.supply(1, 1, 1, 10, 10, 1, 5, 5, 5, 5, 5, 5)
        rolled = BATTLE.roll_attack(roller, attack, Advantage.NONE, "attack a")
        assert rolled.logged["winner"] == "defence" and rolled.logged["margin"] == margin
        won = BATTLE.defence_won(roller, bf, bf.entity("a"), bf.entity("b"), attack, rolled, None)
        assert (won is not None) is (margin >= 20)
        assert won is None or won.taken == ("counterattack",)


def test_m1_a_sheets_two_handed_grip_raises_the_cap_by_1() -> None:
    # 002:l.234 "un bonus di Forza di +1": table +1 with the grip = 2; margin 27 (five units):
    # 2 on Strength, 3 on the minimum, the die's 6 stays 6: 6 + 2 = 8.
    bf = _duel(two_handed=True)
    attack = BATTLE.attack(bf, bf.entity("a"), bf.entity("b"))
    assert attack.detail.situation.two_handed
    assert ("myst_two_handed", 1) in _codes(bf)
    roller = Roller(1)
    roller.supply(10, 10, 10, 1, 1, 1, 6)
    rolled = BATTLE.roll_attack(roller, attack, Advantage.NONE, "attack a")
    assert rolled.logged["situation"] == ["two_handed"]
    pistol = bf.rules.weapons["pistol"]  # the map's weapon: a Myst fighter uses its sheet's
    hit = BATTLE.roll_damage(roller, bf, bf.entity("a"), pistol, attack, rolled)
    assert hit.rolled == 8 and dict(BATTLE.damage_choice(hit.choice).caps)["strength"] == 2
    # A charge on top: 1 + 1 + 2 = 4 (both raise the cap, M-1).
    both = _with(bf, "a", run_up=4)
    assert {c for c, _v in _codes(both)} >= {"myst_two_handed", "myst_charge"}


def test_m1_mounted_is_plus_10_to_the_riders_attack_and_defence_in_the_breakdown() -> None:
    # 002:l.128 "un bonus di +10 applicabile a tutte le Azioni di Attacco e a tutte le Manovre
    # di Difesa": a mounted attacker 40 + 10 = 50; a mounted target's defence 40 + 10 = 50.
    bf = _duel(mounted=True)
    attack = BATTLE.attack(bf, bf.entity("a"), bf.entity("b"))
    assert attack.detail.exchange.attack == 50
    assert ("myst_mounted", 10) in _codes(bf)
    line = next(m for m in attack.modifiers if m.code == "myst_mounted")
    assert modifier_line(line) == "mounted: attack +10 (M-1)"
    rider = _field(
        [_fighter("a", "x", 0, attack=40), _fighter("b", "y", 1, defence=40, mounted=True)]
    )
    answer = BATTLE.attack(rider, rider.entity("a"), rider.entity("b"))
    assert answer.detail.exchange.defence == 50 and ("myst_target_mounted", -10) in _codes(rider)
    with speaking("it"):
        assert modifier_line(line) == "a cavallo: attacco +10 (M-1)"
    # A rider does not charge on foot (its charge is the gallop, 002:l.140-145).
    assert not BATTLE.attack(*_pair(_with(bf, "a", run_up=6))).detail.situation.charge


def _pair(bf: Battlefield) -> tuple[Battlefield, EntitySheet, EntitySheet]:
    return bf, bf.entity("a"), bf.entity("b")


def test_m2_a_targets_second_defence_this_round_is_20_lower_unless_cancelled() -> None:
    # RULESETS.md "-20 second defence (base)": defence 40 - 20 = 20 for its second defence;
    # a defence margin's "cancel the -20" (002:l.77) spares that one: 40 again.
    bf = _with(_duel(), "b", defences=1)
    attack = BATTLE.attack(bf, bf.entity("a"), bf.entity("b"))
    assert attack.detail.exchange.defence == 20
    assert ("myst_second_defence", 20) in _codes(bf)
    cancelled = _with(bf, "b", cancel_penalty=True)
    answer = BATTLE.attack(*_pair(cancelled))
    assert answer.detail.exchange.defence == 40
    assert ("myst_penalty_cancelled", 0) in _codes(cancelled)
    line = next(m for m in attack.modifiers if m.code == "myst_second_defence")
    assert modifier_line(line) == "second defence this round: defence -20 (M-2)"
    with speaking("it"):
        assert modifier_line(line) == "seconda difesa del round: difesa -20 (M-2)"
    roller = Roller(1)
    roller.supply(1, 1, 1, 1, 1, 1)
    rolled = BATTLE.roll_attack(roller, answer, Advantage.NONE, "attack a")
    assert rolled.logged["situation"] == ["penalty_cancelled"]


def test_m2_a_defence_counts_for_the_round_and_a_step_for_the_turn_and_both_end_with_them() -> None:
    bf = _duel()
    sheet = sheet_of(bf.entity("b"))
    attack = BATTLE.attack(*_pair(bf))
    after = BATTLE.after_defence(sheet, attack)
    assert after.defences == 1
    assert BATTLE.after_step(BATTLE.after_step(sheet)).run_up == 2
    assert isinstance(round_rules(BATTLE), type(ROUND))  # myst_mounted.ROUND: a MystRound
    assert ROUND.start_round(after) == replace(after, defences=0)
    assert ROUND.start_turn(replace(sheet, run_up=5)) == sheet
    assert ROUND.start_turn(sheet) is sheet and ROUND.start_round(sheet) is sheet


def test_m1_cancel_the_20_and_priority_next_round_are_what_a_won_defence_hands_the_battle() -> None:
    # 40 + (1+1+1) = 43 against 40 + (10+10+10) = 70: a defence margin of 27 buys one move
    # of 20 (002:l.76-79): of the plan's two, the first. The battle hands the defender's
    # sheet with this defence counted already (after_defence).
    bf = _with(_duel(), "b", defences=1)
    attack = BATTLE.attack(*_pair(_duel()))
    roller = Roller(1)
    roller.supply(1, 1, 1, 10, 10, 10)
    rolled = BATTLE.roll_attack(roller, attack, Advantage.NONE, "attack a")
    assert rolled.logged["margin"] == 27
    plan = ("cancel_penalty", "priority")
    won = BATTLE.defence_won(roller, bf, bf.entity("a"), bf.entity("b"), attack, rolled, plan)
    assert won is not None and won.taken == ("cancel_penalty",)
    assert won.after is not None and won.after.cancel_penalty and won.after.defences == 1
    assert won.priority_over is None
    won = BATTLE.defence_won(
        roller, bf, bf.entity("a"), bf.entity("b"), attack, rolled, ("priority",)
    )
    assert won is not None and won.priority_over == "a" and won.after is None


def test_m1_the_computer_expects_more_harm_from_a_charge() -> None:
    # The cap raised by 2 turns margin units that went to the die's minimum into sure points.
    plain = _duel()
    charged = _with(plain, "a", run_up=4)
    harm = BATTLE.expected_harm(*_pair(plain), BATTLE.attack(*_pair(plain)))
    more = BATTLE.expected_harm(*_pair(charged), BATTLE.attack(*_pair(charged)))
    assert more > harm > 0
