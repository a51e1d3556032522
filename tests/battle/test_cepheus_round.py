"""Cepheus's round in battle (C-1, C-4; seed 000 l.77-91, 158-170, 186, 243-256): the journaled
commands aim, hasty, delay, react_stance and fire_mode, the dodge a target takes by its standing
choice and what it costs, the scores the order keeps changing. Numbers worked out by hand from
the sample sheets (game/data/cepheus/sheets.toml)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from game.battle import commands as cmd
from game.battle import options as opts
from game.battle.engine import GM, Battle
from game.battle.setup import UnitSpec
from game.ecs.components import RulesetSheet
from game.rules.cepheus.sheet import Sheet
from tests.battle.cepheus_fields import cepheus_battle


def _ok(battle: Battle, command: cmd.Command) -> None:
    outcome = battle.apply(command, GM)
    assert outcome.refusal is None, outcome.refusal


def _refused(battle: Battle, command: cmd.Command) -> str:
    outcome = battle.apply(command, GM)
    assert outcome.refusal is not None
    return outcome.refusal.code


def _sheet(battle: Battle, unit: str) -> Sheet:
    own = battle.world.get(unit, RulesetSheet).sheet
    assert isinstance(own, Sheet)
    return own


def _dms(battle: Battle, attacker: str, target: str) -> dict[str, int | Fraction]:
    answer = battle.ruleset.attack(battle.bf, battle.sheet(attacker), battle.sheet(target))
    return {m.code: m.value for m in answer.modifiers}


def _totals(battle: Battle) -> dict[str, int]:
    return {e.entity_id: e.total for e in battle.initiative.visible_order(for_gm=True)}


# A station guard (pistol: Armi da Fuoco 1, DEX DM +1) 7 cells from a civilian (fists): Breve,
# where a pistol is Media (000:l.52, DM 0). Initiative 2d6 + DEX DM: guard 6+6+1 = 13,
# civilian 1+1+0 = 2.
def _guard_and_civilian(made: list[Battle]) -> Battle:
    return cepheus_battle(
        made,
        [
            UnitSpec("ada", "blue", (2, 5, 0), template="station_guard", weapon="pistol"),
            UnitSpec("foe", "red", (9, 5, 0), template="human"),
        ],
        (6, 6, 1, 1),
    )


def test_c1_three_aims_then_next_turn_the_attack_has_plus_3_and_the_dodge_minus_1(made) -> None:
    battle = _guard_and_civilian(made)
    assert battle.active == "ada"
    for _ in range(3):
        _ok(battle, cmd.Aim("ada", "foe"))
    # C-4: three minor actions are the whole turn: the significant action went on aiming.
    assert battle.turn("ada").action == "aim"
    assert _refused(battle, cmd.Attack("ada", "foe")) == "action_used"
    assert _refused(battle, cmd.Aim("ada", "foe")) == "no_minor_action"
    _ok(battle, cmd.EndTurn("ada"))
    _ok(battle, cmd.EndTurn("foe"))
    assert battle.active == "ada" and battle.round == 2
    # 000:l.87 aim +3; the civilian dodges by default (l.166, -1 in the open):
    # 2d6 + 1 + 1 + 0 + 3 - 1 >= 8, i.e. 2d6 >= 4: 33 of 36.
    answer = battle.ruleset.attack(battle.bf, battle.sheet("ada"), battle.sheet("foe"))
    assert {m.code: m.value for m in answer.modifiers}["dm_aim"] == 3
    assert {m.code: m.value for m in answer.modifiers}["dm_dodge"] == -1
    assert answer.chance == Fraction(33, 36)
    _ok(battle, cmd.Attack("ada", "foe"))
    reacted = [e for e in battle.log if e.kind == "reacted"]
    assert [(e.data["unit"], e.data["reaction"], e.data["initiative"]) for e in reacted] == [
        ("foe", "dodge", -2)
    ]
    assert _sheet(battle, "ada").tempo.aim == 0  # the attack spent the aim
    assert _sheet(battle, "foe").tempo.reactions == 1


def test_c4_one_aim_leaves_the_attack_and_no_movement_and_moving_loses_the_aim(made) -> None:
    battle = _guard_and_civilian(made)
    _ok(battle, cmd.Aim("ada", "foe"))
    assert battle.turn("ada").action is None
    assert _dms(battle, "ada", "foe")["dm_aim"] == 1
    assert _refused(battle, cmd.Move("ada", (2, 6, 0))) in ("unreachable", "cannot_move")
    _ok(battle, cmd.EndTurn("ada"))
    _ok(battle, cmd.EndTurn("foe"))
    _ok(battle, cmd.Move("ada", (2, 6, 0)))  # 000:l.87: doing anything else loses the aim
    assert "dm_aim" not in _dms(battle, "ada", "foe")


def test_c1_the_reactions_score_and_own_dm_drop_this_round_and_come_back(made) -> None:
    # Two guards (13 and 12) shoot a civilian who acts last (2): each dodge -2 this round
    # (it has still to act, 000:l.77): 2 - 4 = -2; its own checks -1 each this round (C-4).
    battle = cepheus_battle(
        made,
        [
            UnitSpec("ada", "blue", (2, 5, 0), template="station_guard", weapon="pistol"),
            UnitSpec("bo", "blue", (2, 7, 0), template="station_guard", weapon="pistol"),
            UnitSpec("foe", "red", (9, 5, 0), template="station_guard", weapon="pistol"),
        ],
        (6, 6, 5, 6, 1, 1),
    )
    assert _totals(battle) == {"ada": 13, "bo": 12, "foe": 3}
    for shooter in ("ada", "bo"):
        battle.roller.supply(1, 1)  # a miss: the target stays to react again
        _ok(battle, cmd.Attack(shooter, "foe"))
        _ok(battle, cmd.EndTurn(shooter))
    assert len([e for e in battle.log if e.kind == "reacted"]) == 2
    assert _totals(battle)["foe"] == 3 - 4
    assert battle.active == "foe"
    assert _dms(battle, "foe", "ada")["dm_reactions"] == -2
    _ok(battle, cmd.EndTurn("foe"))
    assert battle.round == 2
    assert _totals(battle)["foe"] == 3
    assert "dm_reactions" not in _dms(battle, "foe", "ada")


def test_c1_hasty_gives_plus_2_initiative_and_minus_1_in_the_next_round_only(made) -> None:
    battle = _guard_and_civilian(made)
    _ok(battle, cmd.EndTurn("ada"))
    _ok(battle, cmd.Hasty("foe"))
    assert _refused(battle, cmd.Hasty("foe")) == "already_hasty"
    assert _totals(battle)["foe"] == 2  # 000:l.77: it has acted: the next round's
    _ok(battle, cmd.EndTurn("foe"))
    assert battle.round == 2 and _totals(battle)["foe"] == 4
    hasty = [e for e in battle.log if e.kind == "hasty"]
    assert hasty[0].data == {"unit": "foe", "round": 2}
    _ok(battle, cmd.EndTurn("ada"))
    assert _sheet(battle, "foe").tempo.hasty
    _ok(battle, cmd.EndTurn("foe"))
    assert battle.round == 3 and _totals(battle)["foe"] == 2
    assert not _sheet(battle, "foe").tempo.hasty


def test_l186_delay_acts_after_the_next_or_first_next_round(made) -> None:
    battle = _guard_and_civilian(made)
    _ok(battle, cmd.Delay("ada"))
    assert battle.active == "foe"
    assert _totals(battle) == {"foe": 2, "ada": 2}
    _ok(battle, cmd.EndTurn("foe"))
    assert battle.active == "ada" and battle.round == 1
    _ok(battle, cmd.Delay("ada"))  # the last of the round: first next round, highest + 1
    assert battle.round == 2 and battle.active == "ada"
    assert _totals(battle) == {"ada": 3, "foe": 2}
    _ok(battle, cmd.Move("ada", (2, 6, 0)))
    assert _refused(battle, cmd.Delay("ada")) == "turn_begun"
    _ok(battle, cmd.EndTurn("ada"))
    _ok(battle, cmd.EndTurn("foe"))
    _ok(battle, cmd.Aim("ada", "foe"))  # an aim is the turn begun too (C-4's minor action)
    assert _refused(battle, cmd.Delay("ada")) == "turn_begun"


def test_l245_an_automatic_weapon_fires_bursts_plus_1_and_plus_1d6_damage(made) -> None:
    # 000:l.253: a 4-round burst, +1 to hit and +1d6 damage; the sample SMG fires 4 (sample).
    battle = cepheus_battle(
        made,
        [
            UnitSpec("ada", "blue", (2, 5, 0), template="station_guard", weapon="smg"),
            UnitSpec("foe", "red", (9, 5, 0), template="human"),
        ],
        (6, 6, 1, 1),
    )
    assert "dm_burst" not in _dms(battle, "ada", "foe")
    _ok(battle, cmd.FireMode("ada"))
    assert _dms(battle, "ada", "foe")["dm_burst"] == 1
    battle.roller.supply(6, 6)  # a hit
    _ok(battle, cmd.Attack("ada", "foe"))
    damage = [e for e in battle.log if e.kind == "damage"]
    assert len(damage[0].rolls[0].dice) == 4  # the SMG's 3d6 and the burst's 1d6


def test_a_unit_without_automatic_fire_has_no_fire_mode_and_the_bar_says_why(made) -> None:
    battle = _guard_and_civilian(made)
    assert _refused(battle, cmd.FireMode("ada")) == "no_auto_fire"
    bar = {o.kind: o for o in opts.options_for(battle, GM, "ada")}
    for kind in ("aim", "hasty", "delay", "react_stance", "fire_mode"):
        assert kind in bar
    assert bar["fire_mode"].refusal is not None and bar["fire_mode"].refusal.code == (
        "no_auto_fire"
    )
    assert bar["aim"].allowed and bar["hasty"].allowed and bar["delay"].allowed


def test_a_standing_choice_of_never_takes_no_dodge(made) -> None:
    battle = _guard_and_civilian(made)
    _ok(battle, cmd.EndTurn("ada"))
    _ok(battle, cmd.ReactStance("foe"))  # always -> after acting
    _ok(battle, cmd.ReactStance("foe"))  # -> never
    assert [e.data["now"] for e in battle.log if e.kind == "react_stance"] == [
        "after_acting",
        "never",
    ]
    _ok(battle, cmd.EndTurn("foe"))
    assert "dm_dodge" not in _dms(battle, "ada", "foe")


def test_periferie_has_none_of_the_round_commands(make_battle) -> None:
    battle = make_battle([UnitSpec("ada", "blue", (5, 5, 0)), UnitSpec("bo", "red", (9, 5, 0))])
    active = battle.active
    assert active is not None
    for command in (cmd.Aim(active, "bo"), cmd.Hasty(active), cmd.Delay(active)):
        assert battle.apply(command, GM).refusal.code == "not_in_ruleset"  # type: ignore[union-attr]
    assert not {"aim", "hasty", "delay"} & {o.kind for o in opts.options_for(battle, GM, active)}
    assert "changes" not in battle.initiative.to_dict()


#: Situations of the guard's turn: what it did before the bar is read (C-4's minor actions).
SITUATIONS: dict[str, list[cmd.Command]] = {
    "turn start": [],
    "one aim": [cmd.Aim("ada", "foe")],
    "two aims": [cmd.Aim("ada", "foe"), cmd.Aim("ada", "foe")],
    "three aims": [cmd.Aim("ada", "foe")] * 3,
    "moved": [cmd.Move("ada", (2, 6, 0))],
    "attacked": [cmd.Attack("ada", "foe")],
    "hasty": [cmd.Hasty("ada")],
}


@pytest.mark.parametrize("situation", sorted(SITUATIONS))
def test_the_bars_round_options_are_accepted_and_refused_as_the_engine_does(
    made, situation: str
) -> None:
    commands = {
        "aim": cmd.Aim("ada", "foe"),
        "hasty": cmd.Hasty("ada"),
        "delay": cmd.Delay("ada"),
        "react_stance": cmd.ReactStance("ada"),
        "fire_mode": cmd.FireMode("ada"),
    }
    for kind, command in commands.items():
        battle = _guard_and_civilian(made)
        battle.roller.supply(1, 1)  # an attack in the situation misses: the target stays
        for given in SITUATIONS[situation]:
            _ok(battle, given)
        option = {o.kind: o for o in opts.options_for(battle, GM, "ada")}[kind]
        before = battle.state_hash()
        outcome = battle.apply(command, GM)
        if option.allowed:
            assert outcome.accepted, (kind, outcome.refusal)
        else:
            assert option.refusal is not None and outcome.refusal is not None
            assert outcome.refusal.code == option.refusal.code, kind
            assert battle.state_hash() == before


def _now(battle: Battle, unit: str) -> dict[str, str | None]:
    return {o.kind: o.now for o in opts.options_for(battle, GM, unit) if o.kind in opts.STANDING}


def test_the_bar_reads_each_standing_choices_value_from_the_battle_as_it_changes(made) -> None:
    # Issue 15/17: the table sees the value now, not only the log line after a change. The
    # stance cycles always -> after acting -> never -> always (C-4, tempo.REACT_MODES); a
    # Tempo starts at "always" and single shots (000:l.245: bursts are the player's choice).
    battle = cepheus_battle(
        made,
        [
            UnitSpec("ada", "blue", (2, 5, 0), template="station_guard", weapon="smg"),
            UnitSpec("foe", "red", (9, 5, 0), template="human"),
        ],
        (6, 6, 1, 1),
    )
    assert _now(battle, "ada") == {"react_stance": "always", "fire_mode": "single"}
    _ok(battle, cmd.FireMode("ada"))
    assert _now(battle, "ada")["fire_mode"] == "burst"
    seen = []
    for _ in range(3):
        _ok(battle, cmd.ReactStance("ada"))
        seen.append(_now(battle, "ada")["react_stance"])
    assert seen == ["after_acting", "never", "always"]
    # the value the bar shows is the one the command's log line told
    told = [e.data["now"] for e in battle.log if e.kind in opts.STANDING]
    assert told == ["burst", "after_acting", "never", "always"]
    # every other command has no value to show
    assert all(
        o.now is None for o in opts.options_for(battle, GM, "ada") if o.kind not in opts.STANDING
    )


def test_a_weapon_without_automatic_fire_has_no_fire_mode_value_to_show(made) -> None:
    battle = _guard_and_civilian(made)  # the guard's pistol fires no bursts
    assert _now(battle, "ada") == {"react_stance": "always", "fire_mode": None}


def test_periferie_shows_no_standing_choice(make_battle) -> None:
    battle = make_battle([UnitSpec("ada", "blue", (5, 5, 0)), UnitSpec("bo", "red", (9, 5, 0))])
    active = battle.active
    assert active is not None
    assert all(o.now is None for o in opts.options_for(battle, GM, active))
