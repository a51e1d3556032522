"""A hit's margin spent by its attacker once the dice are known (game/battle/combat.py, Myst M-1):
the attack's `margin`, the waiting hit, the journaled `spend_margin` and its refusals by name,
the computer's choice, the journal and a snapshot replayed to the same state hash.

The numbers are seed 002's worked example (002:l.44): "Josh colpisce Desmond con una mazza
effettuando un tiro [...] pari a 62; Desmond difende con un tiro [...] pari a 46. La differenza
[...] è pari a 16". Here Josh is the sample `soldato` (attack 45, Strength 30: +1 on the table's
26-37 row, as the seed's 35 is; a spada 1d8) and Desmond the `popolano` (defence 32, Status
Globale 22): attack dice 5+6+6 make 62, defence dice 4+5+5 make 46, the margin is 16, three
units of 5; the damage die shows 1.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest

from game.battle import commands as cmd
from game.battle.ai import choose
from game.battle.engine import GM, Battle
from game.battle.session import Session
from game.battle.setup import BattleSetup, UnitSpec, setup_from_map
from game.ecs.components import RulesetSheet
from game.maps import load_map
from game.rules.data import load_rules
from game.text.explain_battle import event_text
from game.text.i18n import speaking
from tests.battle.conftest import OPEN_FIELD, MakeBattle, ascii_grid

REPO = Path(__file__).resolve().parents[2]
STATION = REPO / "maps" / "station_interior.tmx"
#: 002:l.44: 45 + 5 + 6 + 6 = 62 against 32 + 4 + 5 + 5 = 46; then the spada's 1d8 shows 1.
SEED_DICE = (5, 6, 6, 4, 5, 5, 1)
UNITS = (
    UnitSpec("josh", "a", (0, 0, 0), template="station_guard"),  # sample sheet `soldato`
    UnitSpec("desmond", "b", (1, 0, 0), template="human", weapon="combat_knife"),  # `popolano`
)


@pytest.fixture
def duel() -> Iterator[Battle]:
    """Josh and Desmond side by side under Myst, Josh acting first (priority 12 + 10 against
    9 + 1, M-2)."""
    setup = BattleSetup(
        map_path="<test>",
        map_sha256="",
        seed=7,
        units=UNITS,
        initiative_dice=(10, 1),
        ruleset="myst",
    )
    battle = Battle(setup, ascii_grid(OPEN_FIELD), load_rules())
    yield battle
    battle.close()


def _status(b: Battle, unit: str) -> int:
    sheet = b.world.get(unit, RulesetSheet).sheet
    assert hasattr(sheet, "status")
    return int(sheet.status)


def _josh_hits_with_62_against_46(b: Battle, margin: str | None = "ask") -> None:
    assert b.active == "josh"
    assert b.apply(cmd.EnterRoll(SEED_DICE), GM).accepted
    outcome = b.apply(cmd.Attack("josh", "desmond", margin=margin), GM)
    assert outcome.accepted
    attack = next(e for e in outcome.events if e.kind == "attack")
    assert (attack.data["attack_total"], attack.data["defence_total"]) == (62, 46)
    assert attack.data["margin"] == 16


def test_m1_an_attack_that_asks_waits_with_the_seeds_three_units_before_any_damage(
    duel: Battle,
) -> None:
    _josh_hits_with_62_against_46(duel)
    won = [e for e in duel.log if e.kind == "margin_won"]
    assert [(e.data["units"], e.data["rolled"]) for e in won] == [(3, 1)]
    assert not [e for e in duel.log if e.kind == "damage"]
    assert _status(duel, "desmond") == 22
    assert duel.margin_waiting() == "josh"
    choice = duel.damage_choice("josh")
    assert choice is not None and choice.units == 3 and choice.rolled == 1
    # 002:l.46: Strength 30 (like the seed's 35) allows only +1; a 1d8's minimum up to 8.
    assert dict(choice.caps) == {"strength": 1, "minimum": 3, "reduce": 3}
    # One plan per damage the margin can make of the 1, most first: 1 + 1 raised to 2 is the
    # seed's 3 (002:l.58 "infliggerebbe comunque un totale di 3 danni"), then Strength alone
    # 1 + 1 = 2, nothing spent 1, the die reduced by 1 to 0.
    assert [(dict(p.uses), p.damage) for p in choice.plans] == [
        ({"strength": 1, "minimum": 2, "reduce": 0}, 3),
        ({"strength": 1, "minimum": 0, "reduce": 0}, 2),
        ({"strength": 0, "minimum": 0, "reduce": 0}, 1),
        ({"strength": 0, "minimum": 0, "reduce": 1}, 0),
    ]


def test_m1_spending_the_seeds_16_as_one_strength_and_a_minimum_of_two_does_3(
    duel: Battle,
) -> None:
    _josh_hits_with_62_against_46(duel)
    outcome = duel.apply(cmd.SpendMargin("josh", strength=1, minimum=2), GM)
    assert outcome.accepted and not outcome.rolls  # no die: the choice alone
    spent = next(e for e in outcome.events if e.kind == "margin_spent")
    assert spent.data["damage"] == 3
    damage = next(e for e in outcome.events if e.kind == "damage")
    assert damage.data["damage"] == 3 and damage.data["unit"] == "desmond"
    assert _status(duel, "desmond") == 19  # M-2: 22 - 3
    assert duel.margin_waiting() is None
    assert duel.apply(cmd.EndTurn("josh"), GM).accepted


def test_m1_the_reduction_may_spare_the_target_after_the_die_is_known(duel: Battle) -> None:
    # 002:l.70: "avrebbe potuto aspettare di conoscere l'esito del tiro ed impiegare
    # eventualmente i 15 punti per ridurre un danno": the 1 reduced by one is 0.
    _josh_hits_with_62_against_46(duel)
    assert duel.apply(cmd.SpendMargin("josh", reduce=1), GM).accepted
    assert _status(duel, "desmond") == 22


@pytest.mark.parametrize(
    ("uses", "code", "values"),
    [
        ({"strength": 2}, "over_strength_cap", {"strength": 2, "cap": 1}),
        ({"strength": 1, "minimum": 3}, "margin_overspent", {"used": 4, "units": 3}),
        ({"reduce": 4}, "margin_overspent", {"used": 4, "units": 3}),
        ({"minimum": -1}, "negative_spend", {"minimum": -1}),
    ],
)
def test_m1_a_spend_that_does_not_fit_the_margin_is_refused_by_name_and_changes_nothing(
    duel: Battle, uses: dict[str, int], code: str, values: dict[str, int]
) -> None:
    _josh_hits_with_62_against_46(duel)
    before = duel.state_hash()
    outcome = duel.apply(cmd.SpendMargin("josh", **uses), GM)
    assert outcome.refusal is not None and outcome.refusal.code == code
    assert {k: outcome.refusal.values[k] for k in values} == values
    assert duel.state_hash() == before and duel.margin_waiting() == "josh"


def test_m1_while_a_margin_waits_nothing_else_is_done_and_only_its_attacker_spends_it(
    duel: Battle,
) -> None:
    _josh_hits_with_62_against_46(duel)
    for command in (cmd.EndTurn("josh"), cmd.Move("josh", (0, 2, 0))):
        refusal = duel.apply(command, GM).refusal
        assert refusal is not None and refusal.code == "margin_waiting"
    refusal = duel.apply(cmd.SpendMargin("desmond"), GM).refusal
    assert refusal is not None and refusal.code == "no_margin_to_spend"


def test_m1_nothing_waits_without_a_margin_to_spend(duel: Battle) -> None:
    refusal = duel.apply(cmd.SpendMargin("josh"), GM).refusal
    assert refusal is not None and refusal.code == "no_margin_to_spend"


@pytest.mark.parametrize(("margin", "damage"), [(None, 3), ("most", 3), ("least", 0)])
def test_m1_an_attack_that_does_not_ask_spends_at_once_the_most_or_the_least(
    duel: Battle, margin: str | None, damage: int
) -> None:
    # Absent is the computer's choice, the most damage (1 Strength + minimum 2: 3); "least"
    # reduces the 1 by one: 0.
    _josh_hits_with_62_against_46(duel, margin)
    assert duel.margin_waiting() is None
    assert [e.data["damage"] for e in duel.log if e.kind == "damage"] == [damage]
    assert _status(duel, "desmond") == 22 - damage


def test_m1_the_computer_spends_a_waiting_margin_on_the_most_damage(duel: Battle) -> None:
    _josh_hits_with_62_against_46(duel)
    assert choose(duel, "josh") == cmd.SpendMargin("josh", strength=1, minimum=2, reduce=0)


def test_m1_the_attacks_margin_and_spend_margin_are_commands_read_and_written_as_json() -> None:
    attack = cmd.parse_command({"cmd": "attack", "unit": "josh", "target": "d", "margin": "ask"})
    assert attack == cmd.Attack("josh", "d", margin="ask")
    assert attack.to_json() == {"cmd": "attack", "unit": "josh", "target": "d", "margin": "ask"}
    assert cmd.Attack("josh", "d").to_json() == {"cmd": "attack", "unit": "josh", "target": "d"}
    spend = {"cmd": "spend_margin", "unit": "josh", "strength": 1, "minimum": 2, "reduce": 0}
    assert cmd.parse_command(spend).to_json() == spend
    with pytest.raises(cmd.CommandError, match=r"command\.margin: 'all' is not one of ask"):
        cmd.parse_command({"cmd": "attack", "unit": "josh", "target": "d", "margin": "all"})
    with pytest.raises(cmd.CommandError, match=r"command\.strength"):
        cmd.parse_command({"cmd": "spend_margin", "unit": "josh", "strength": "two"})
    with pytest.raises(cmd.CommandError, match=r"unknown field 'extra'"):
        cmd.parse_command({"cmd": "spend_margin", "unit": "josh", "extra": 1})


def test_periferie_has_no_margin_an_attack_that_asks_resolves_at_once(
    make_battle: MakeBattle,
) -> None:
    b = make_battle(
        [
            UnitSpec("ada", "a", (0, 0, 0), weapon="combat_knife"),
            UnitSpec("bo", "b", (1, 0, 0), weapon="pistol"),
        ],
        initiative=(20, 1),
    )
    assert b.apply(cmd.Attack("ada", "bo", margin="ask"), GM).accepted
    assert b.margin_waiting() is None and b.damage_choice("ada") is None


def test_m1_a_snapshot_taken_while_a_margin_waits_restores_to_the_same_hash(duel: Battle) -> None:
    _josh_hits_with_62_against_46(duel)
    snapshot = json.loads(json.dumps(duel.snapshot()))
    again = Battle.restore(duel.setup, duel.grid, duel.rules, snapshot)
    try:
        assert again.state_hash() == duel.state_hash()
        assert again.damage_choice("josh") == duel.damage_choice("josh")
        assert again.apply(cmd.SpendMargin("josh", strength=1), GM).accepted
        assert duel.apply(cmd.SpendMargin("josh", strength=1), GM).accepted
        assert again.state_hash() == duel.state_hash()
    finally:
        again.close()


def test_m1_a_journal_with_a_spent_margin_replays_to_the_same_hash(tmp_path: Path) -> None:
    loaded = load_map(STATION)
    base = setup_from_map(loaded, seed=3, players={"p": ("a", "b")})
    cells = [u.cell for u in loaded.units][:1]
    x, y, z = cells[0]
    units = (replace(UNITS[0], cell=(x, y, z)), replace(UNITS[1], cell=(x + 1, y, z)))
    setup = replace(base, units=units, initiative_dice=(10, 1), ruleset="myst")
    journal = tmp_path / "margin.jsonl"
    session = Session.new(setup, journal)
    try:
        for command, by in (
            (cmd.EnterRoll(SEED_DICE), GM),
            (cmd.Attack("josh", "desmond", margin="ask"), "p"),
            (cmd.SpendMargin("josh", strength=1, minimum=2), "p"),
            (cmd.EndTurn("josh"), "p"),
        ):
            outcome = session.submit(command, by)
            assert outcome.accepted, outcome.refusal
        assert _status(session.battle, "desmond") == 19
        final = session.battle.state_hash()
    finally:
        session.close()
    lines = [json.loads(line) for line in journal.read_text(encoding="utf-8").splitlines()[1:]]
    given = [line["cmd"] for line in lines if "cmd" in line]
    assert given[2] == {"cmd": "spend_margin", "unit": "josh", "strength": 1, "minimum": 2,
                        "reduce": 0}  # fmt: skip
    assert given[1]["margin"] == "ask"
    reopened = Session.open(journal, for_append=False)
    try:
        assert reopened.battle.state_hash() == final
    finally:
        reopened.close()


# --- the defence margin's counter-moves (M-1, 002:l.72-116) --------------------------------------

#: Desmond (attack 30) strikes at Josh (defence 50): 30 + 1 + 1 + 1 = 33 against 50 + 30 = 80,
#: a defence margin of 47: two counter-moves of 20 (002:l.76-79). Josh's counterattack, a punch
#: (002:l.91: Corpo a Corpo, here the attack totals 45 and 30): 45 + 15 = 60 against 30 + 15 =
#: 45, margin 15: three units, Strength 30 caps them at +1 and the punch's fixed 1 takes no
#: minimum above 1: 1 + 1 = 2 damage.
DEFENCE_DICE = (1, 1, 1, 10, 10, 10, 5, 5, 5, 5, 5, 5)


@pytest.fixture
def desmond_first() -> Iterator[Battle]:
    """The duel with Desmond acting first (9 + 10 against 12 + 1, M-2)."""
    setup = BattleSetup(
        map_path="<test>",
        map_sha256="",
        seed=7,
        units=UNITS,
        initiative_dice=(1, 10),
        ruleset="myst",
    )
    battle = Battle(setup, ascii_grid(OPEN_FIELD), load_rules())
    assert battle.active == "desmond"
    yield battle
    battle.close()


def test_m1_a_defence_won_by_47_counterattacks_by_default_and_the_punch_does_2(
    desmond_first: Battle,
) -> None:
    b = desmond_first
    assert b.apply(cmd.EnterRoll(DEFENCE_DICE), GM).accepted
    outcome = b.apply(cmd.Attack("desmond", "josh"), GM)
    assert outcome.accepted
    won = next(e for e in outcome.events if e.kind == "defence_margin")
    assert (won.data["margin"], won.data["units"], won.data["taken"]) == (47, 2, ["counterattack"])
    assert (won.data["counter_attack_total"], won.data["counter_defence_total"]) == (60, 45)
    assert won.data["hit"] is True
    assert _status(b, "desmond") == 20  # 22 - 2


def test_m1_a_standing_plan_set_on_its_own_turn_decides_the_counter_moves(
    desmond_first: Battle,
) -> None:
    b = desmond_first
    # Not Josh's turn: the plan is set on its own turn (the defender is not at the screen
    # when it is attacked).
    refusal = b.apply(cmd.DefencePlan("josh", ("priority",)), GM).refusal
    assert refusal is not None and refusal.code == "not_active"
    assert b.apply(cmd.EndTurn("desmond"), GM).accepted
    for moves in (("bogus",), ("priority", "priority")):
        refusal = b.apply(cmd.DefencePlan("josh", moves), GM).refusal
        assert refusal is not None and refusal.code == "unknown_counter_move"
    told = b.apply(cmd.DefencePlan("josh", ("priority", "break_off")), GM)
    assert told.accepted and told.events[0].audience == frozenset({"a"})  # its own side only
    assert b.apply(cmd.EndTurn("josh"), GM).accepted
    assert b.active == "desmond"
    assert b.apply(cmd.EnterRoll(DEFENCE_DICE[:6]), GM).accepted
    outcome = b.apply(cmd.Attack("desmond", "josh"), GM)
    won = next(e for e in outcome.events if e.kind == "defence_margin")
    # Two units: the plan's two moves, no counterattack, so no more dice and no damage.
    assert won.data["taken"] == ["priority", "break_off"] and not won.rolls
    assert _status(b, "desmond") == 22


def test_m1_a_defence_margin_under_20_buys_nothing(desmond_first: Battle) -> None:
    # 30 + 10 + 10 + 1 = 51 against 50 + 1 + 1 + 1 = 53: a defence margin of 2 buys no move
    # (002:l.76: 20 points each).
    b = desmond_first
    assert b.apply(cmd.EnterRoll((10, 10, 1, 1, 1, 1)), GM).accepted
    outcome = b.apply(cmd.Attack("desmond", "josh"), GM)
    assert not [e for e in outcome.events if e.kind == "defence_margin"]
    assert not any(e.kind == "damage" for e in outcome.events)


def test_m1_a_counterattack_that_puts_the_attacker_out_of_the_fight_ends_its_turn_there(
    desmond_first: Battle,
) -> None:
    # The same exchange as above, but Desmond has only 2 points of Status left: the punch's 2
    # puts him out of the fight in his own turn, which ends at once (as P-OA-1 cuts a turn
    # short; here the fight too, Desmond being his side's only one); before, the computer went
    # on acting with a unit out of the fight.
    snapshot = json.loads(json.dumps(desmond_first.snapshot()))
    snapshot["units"]["desmond"]["RulesetSheet"]["sheet"]["fields"]["status"] = 2
    b = Battle.restore(desmond_first.setup, desmond_first.grid, desmond_first.rules, snapshot)
    try:
        assert b.apply(cmd.EnterRoll(DEFENCE_DICE), GM).accepted
        outcome = b.apply(cmd.Attack("desmond", "josh"), GM)
        assert outcome.accepted
        assert _status(b, "desmond") == 0
        assert "turn_cut_short" in [e.kind for e in outcome.events]
        assert b.over and b.winner == "a"  # Desmond was side b's only fighter
    finally:
        b.close()


def test_a_myst_attack_and_its_damage_name_the_sheets_spada_not_the_maps_weapon(
    duel: Battle,
) -> None:
    # Josh's sample `soldato` fights with its sheet's spada (game/data/myst/weapons.toml:
    # "Spada", 1d8 "da taglio", 002:l.62), whatever weapon the map's template gave him: the log
    # names the spada and cutting damage, not periferie's weapon and its type. The event keeps
    # the data's id and name; the log reads it in the interface's language (names.weapon_name).
    _josh_hits_with_62_against_46(duel, margin=None)
    attack = next(e for e in duel.log if e.kind == "attack")
    assert (attack.data["sheet_weapon"], attack.data["weapon_name"]) == ("spada", "Spada")
    damage = next(e for e in duel.log if e.kind == "damage")
    assert damage.data["type"] == "taglio"
    assert event_text(attack).startswith("josh attacks desmond with Sword: ")
    assert " cutting damage " in event_text(damage)
    with speaking("it"):
        assert event_text(attack).startswith("josh attacca desmond con Spada: ")
        assert " taglio " in event_text(damage)
