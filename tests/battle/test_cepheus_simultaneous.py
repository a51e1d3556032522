"""Cepheus's initiative ties (000:l.70, C-1): "Se due personaggi hanno la stessa Iniziativa, il
personaggio con la Destrezza più alta va per primo. Se sono ancora pari, i personaggi agiscono
simultaneamente" — the battle's simultaneous groups (`acts_with`, the `Deferred` harm fantasy's
F-1 uses): the harm done while the group acts lands when the last of it ends its turn. Numbers
worked out by hand from the sample sheets (game/data/cepheus/sheets.toml)."""

from __future__ import annotations

from game.battle import commands as cmd
from game.battle.engine import GM, Battle
from game.battle.setup import UnitSpec
from game.ecs.components import RulesetSheet
from game.rules.cepheus.sheet import Sheet
from tests.battle.cepheus_fields import cepheus_battle


def _ok(battle: Battle, command: cmd.Command) -> None:
    outcome = battle.apply(command, GM)
    assert outcome.refusal is None, outcome.refusal


def _end(battle: Battle, unit: str) -> None:
    _ok(battle, cmd.EndTurn(unit))


def _end_now(battle: Battle, sheet_of: str) -> int:
    own = battle.world.get(sheet_of, RulesetSheet).sheet
    assert isinstance(own, Sheet)
    return own.chars["end"]


def _two_guards(made: list[Battle]) -> Battle:
    # Two station guards (DEX 9, DEX DM +1) 7 cells apart: 3+4+1 = 8 and 4+3+1 = 8, the same
    # DEX: simultaneous (000:l.70).
    return cepheus_battle(
        made,
        [
            UnitSpec("ada", "blue", (2, 5, 0), template="station_guard", weapon="pistol"),
            UnitSpec("cat", "red", (9, 5, 0), template="station_guard", weapon="pistol"),
        ],
        (3, 4, 4, 3),
    )


def test_000_l70_equal_scores_and_dex_act_as_one_group_equal_scores_go_to_the_higher_dex(
    made,
) -> None:
    battle = _two_guards(made)
    order = battle.initiative.visible_order(True)
    assert [(e.entity_id, e.total, e.tie) for e in order] == [("ada", 8, 9), ("cat", 8, 9)]
    assert battle.ruleset.acts_with(order, "cat") == ("ada", "cat")
    # A guard (DEX 9, DM +1) rolling 7 and a civilian (DEX 7) rolling 8 both score 8: the
    # guard goes first, alone (the civilian is listed first).
    other = cepheus_battle(
        made,
        [
            UnitSpec("civ", "red", (9, 5, 0), template="human"),
            UnitSpec("gua", "blue", (2, 5, 0), template="station_guard", weapon="pistol"),
        ],
        (4, 4, 3, 4),
    )
    order = other.initiative.visible_order(True)
    assert [(e.entity_id, e.total) for e in order] == [("gua", 8), ("civ", 8)]
    assert other.ruleset.acts_with(order, "gua") == ()


def test_000_l70_a_simultaneous_groups_hits_land_when_the_last_of_it_ends_its_turn(made) -> None:
    battle = _two_guards(made)
    for unit in ("ada", "cat"):  # round 1: both give up dodging (no score change, no -1)
        _ok(battle, cmd.ReactStance(unit))
        _ok(battle, cmd.ReactStance(unit))
        _end(battle, unit)
    assert battle.round == 2 and battle.active == "ada"
    # C-1: 2d6 (6, 6) + Armi da Fuoco 1 + DEX DM 1 + Media 0 = 14, Effect 6. C-5: 3d6-3 with
    # (1, 1, 1) + 6 = 6 rolled; armour 5 leaves 1, off END 8 -> 7.
    battle.roller.supply(6, 6, 1, 1, 1)
    _ok(battle, cmd.Attack("ada", "cat"))
    deferred = [e for e in battle.log if e.kind == "damage_deferred"]
    assert [(e.data["unit"], e.data["rolled"], e.rules) for e in deferred] == [("cat", 6, ("C-1",))]
    _end(battle, "ada")
    assert battle.active == "cat" and _end_now(battle, "cat") == 8  # it acts unhurt
    battle.roller.supply(6, 6, 1, 1, 1)
    _ok(battle, cmd.Attack("cat", "ada"))
    assert _end_now(battle, "ada") == 8
    _end(battle, "cat")
    assert battle.round == 3
    assert _end_now(battle, "ada") == 7 and _end_now(battle, "cat") == 7
    damage = [e.data["unit"] for e in battle.log if e.kind == "damage"]
    assert sorted(damage) == ["ada", "cat"]  # both at once, after cat's turn_ended
    kinds = [e.kind for e in battle.log]
    assert kinds.index("damage") > max(i for i, k in enumerate(kinds) if k == "turn_ended")


def test_c1_a_dodge_lowers_the_score_so_the_dodger_leaves_the_group_and_is_hurt_at_once(
    made,
) -> None:
    # 000:l.160: a reaction is -2 initiative, this round while it has still to act: cat's 8
    # becomes 6, no longer tied with ada; the hit lands as it is made.
    battle = _two_guards(made)
    battle.roller.supply(6, 6, 1, 1, 1)  # 14 - 1 (dodge) = 13, Effect 5: 3 - 3 + 5 - 5 = 0
    _ok(battle, cmd.Attack("ada", "cat"))
    assert [e.data["initiative"] for e in battle.log if e.kind == "reacted"] == [-2]
    assert [e for e in battle.log if e.kind == "damage_deferred"] == []
    assert battle.ruleset.acts_with(battle.initiative.visible_order(True), "ada") == ()
