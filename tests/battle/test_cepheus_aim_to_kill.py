"""Cepheus's aiming to kill in battle (000:l.89-91, C-5): "funziona come il normale mirare, ma non
si somma all'MD per colpire ... ottiene un bonus ... al suo danno" (+1 a minor action, at most
+6, C-5); "Non può schivare ... mentre sta mirando. Perde inoltre il suo bonus di Mira se è
colpito". Numbers worked out by hand from the sample sheets (game/data/cepheus/sheets.toml)."""

from __future__ import annotations

from collections.abc import Iterator
from fractions import Fraction

import pytest

from game.battle import commands as cmd
from game.battle.engine import GM, Battle
from game.battle.setup import BattleSetup, UnitSpec
from game.ecs.components import RulesetSheet
from game.rules.cepheus.sheet import Sheet
from game.rules.data import load_rules
from game.text.explain_battle import event_text
from tests.battle.conftest import OPEN_FIELD, ascii_grid


@pytest.fixture
def made() -> Iterator[list[Battle]]:
    battles: list[Battle] = []
    yield battles
    for battle in battles:
        battle.close()


def _battle(made: list[Battle]) -> Battle:
    # A guard (pistol: Armi da Fuoco 1, DEX DM +1, 3d6-3) 7 cells (Breve: a pistol is Media,
    # 000:l.52) from a civilian with a pistol; initiative 6+6+1 = 13 and 1+1 = 2.
    setup = BattleSetup(
        map_path="<test>",
        map_sha256="",
        seed=5,
        units=(
            UnitSpec("ada", "blue", (2, 5, 0), template="station_guard", weapon="pistol"),
            UnitSpec("foe", "red", (9, 5, 0), template="human", weapon="pistol"),
        ),
        initiative_dice=(6, 6, 1, 1),
        ruleset="cepheus",
    )
    battle = Battle(setup, ascii_grid(OPEN_FIELD), load_rules())
    made.append(battle)
    return battle


def _ok(battle: Battle, command: cmd.Command) -> None:
    outcome = battle.apply(command, GM)
    assert outcome.refusal is None, outcome.refusal


def _aim_kill(battle: Battle, unit: str) -> tuple[int, bool]:
    own = battle.world.get(unit, RulesetSheet).sheet
    assert isinstance(own, Sheet)
    return own.tempo.aim, own.tempo.aim_kill


def test_000_l91_aiming_to_kill_adds_1_damage_and_nothing_to_hit(made) -> None:
    battle = _battle(made)
    _ok(battle, cmd.Aim("ada", "foe", kill=True))
    answer = battle.ruleset.attack(battle.bf, battle.sheet("ada"), battle.sheet("foe"))
    codes = {m.code for m in answer.modifiers}
    assert "dm_aim" not in codes
    # 2d6 + 1 + 1 + 0 - 1 (the civilian's dodge) >= 8: 2d6 >= 7, 21/36, as without aiming.
    assert answer.chance == Fraction(21, 36)
    assert answer.detail.extra_damage == "1"
    # (6, 6): 13, Effect 5; 3d6-3 with (1, 1, 1) + 5 + 1 (aim to kill) = 6 rolled.
    battle.roller.supply(6, 6, 1, 1, 1)
    _ok(battle, cmd.Attack("ada", "foe"))
    damage = [e.data["rolled"] for e in battle.log if e.kind == "damage"]
    assert damage == [6]
    assert _aim_kill(battle, "ada") == (0, False)  # the attack spent it
    aimed = [e for e in battle.log if e.kind == "aimed"]
    assert aimed[0].data == {"unit": "ada", "target": "foe", "kill": True}
    assert "C-5" in aimed[0].rules
    assert event_text(aimed[0]) == "ada aims to kill foe: +1 damage, no dodging."


def test_000_l91_aiming_to_kill_it_takes_no_dodge_and_a_hit_loses_the_aim(made) -> None:
    battle = _battle(made)
    _ok(battle, cmd.Aim("ada", "foe", kill=True))
    _ok(battle, cmd.EndTurn("ada"))  # the aim is kept across turns (000:l.87)
    assert _aim_kill(battle, "ada") == (1, True)
    dms = battle.ruleset.attack(battle.bf, battle.sheet("foe"), battle.sheet("ada")).modifiers
    assert "dm_dodge" not in {m.code for m in dms}  # it would dodge -1 otherwise
    # civilian: 2d6 (6, 6) + 0 + 0 + 0 = 12, Effect 4: a hit; (1, 1, 1) - 3 + 4 = 4 rolled.
    battle.roller.supply(6, 6, 1, 1, 1)
    _ok(battle, cmd.Attack("foe", "ada"))
    assert [e for e in battle.log if e.kind == "reacted"] == []
    assert _aim_kill(battle, "ada") == (0, False)


def test_a_plain_aim_is_not_aiming_to_kill_and_switching_starts_again(made) -> None:
    battle = _battle(made)
    _ok(battle, cmd.Aim("ada", "foe"))
    assert _aim_kill(battle, "ada") == (1, False)
    _ok(battle, cmd.Aim("ada", "foe", kill=True))  # the other way: from 1 again
    assert _aim_kill(battle, "ada") == (1, True)
    assert cmd.Aim("ada", "foe").to_json() == {"cmd": "aim", "unit": "ada", "target": "foe"}
