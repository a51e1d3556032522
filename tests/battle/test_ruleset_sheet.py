"""The units' own ruleset sheet in the battle (docs/architecture.md, "The ruleset interface"):
under a ruleset that is not periferie-shaped each unit's sheet comes from the ruleset object
(`unit_fields` + `read_entity`, as the scenario reads a map's units), lives in the ECS
(`RulesetSheet`), reaches `Battle.sheet(...).sheet`, travels in snapshots, and takes
`Harm.after` back after damage; periferie's units have none, so its state is as it was.

These tests plug periferie's battle object with one answer replaced into a battle whose setup
names cepheus, so they hold whatever Cepheus's own battle object answers.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from game.battle import commands as cmd
from game.battle.engine import GM, Battle
from game.battle.setup import UnitSpec
from game.ecs.components import RulesetSheet, sheet_from_json, sheet_to_json
from game.rules.cepheus.sheet import Sheet
from game.rules.ruleset_answers import ConditionEffects, Harm
from game.tactics.battlefield import Battlefield, EntitySheet
from game.tactics.ruleset import ruleset_for
from game.tactics.rulesets.periferie_battle import PeriferieBattle


class EndLoss(PeriferieBattle):
    """Damage comes off the Cepheus sheet's END; END 0 is out of the fight, -5 dead."""

    def damage(self, bf: Battlefield, target: EntitySheet, damage_type: str, rolled: int) -> Harm:
        sheet: Sheet = target.sheet  # type: ignore[assignment]
        chars = {**sheet.chars, "end": sheet.chars["end"] - rolled}
        return Harm(rolled, replace(sheet, chars=chars), (), ("C-5",), ())

    def condition_effects(self, health: Any) -> ConditionEffects:
        if not isinstance(health, Sheet):
            return super().condition_effects(health)
        end = health.chars["end"]
        return ConditionEffects(dead=end <= -5, out_of_combat=end <= 0)


def _cepheus_duel(make_battle, ruleset: PeriferieBattle) -> Battle:
    ada = UnitSpec("ada", "blue", (5, 5, 0), weapon="pistol")
    foe = UnitSpec("foe", "red", (9, 5, 0), weapon="pistol")
    plain: Battle = make_battle([ada, foe], initiative=(20, 1))
    setup = replace(plain.setup, ruleset="cepheus")
    return Battle(setup, plain.grid, plain.rules, ruleset=ruleset)


def test_a_cepheus_battles_units_carry_the_sheet_its_object_reads_from_the_map_unit(
    make_battle,
) -> None:
    battle = _cepheus_duel(make_battle, EndLoss())
    try:
        reader = ruleset_for("cepheus")
        expected = reader.read_entity(
            reader.unit_fields("human", "pistol", None),
            "unit",
            EntitySheet("ada", "blue", (5, 5, 0)),
            battle.rules,
        ).sheet
        assert isinstance(expected, Sheet)
        assert battle.world.get("ada", RulesetSheet).sheet == expected
        assert battle.sheet("ada").sheet == expected
        assert "RulesetSheet" in battle.state_json()["units"]["ada"]
    finally:
        battle.close()


def test_a_periferie_battles_units_have_no_ruleset_sheet_so_its_state_is_unchanged(
    make_battle,
) -> None:
    battle = make_battle([UnitSpec("ada", "blue", (5, 5, 0))])
    assert not battle.world.has("ada", RulesetSheet)
    assert battle.sheet("ada").sheet is None
    assert "RulesetSheet" not in battle.state_json()["units"]["ada"]


def test_a_ruleset_sheet_is_written_in_a_fixed_order_and_read_back_equal() -> None:
    sheet = Sheet(chars={"str": 7, "end": 8, "dex": 9}, dm={"dex": 1}, armour=3)
    data = sheet_to_json(sheet)
    assert sheet_from_json(data) == sheet
    same = Sheet(chars={"dex": 9, "end": 8, "str": 7}, dm={"dex": 1}, armour=3)
    assert sheet_to_json(same) == data  # the keys in a fixed order, not the sheet's


def test_damage_stores_harm_after_in_the_sheet_and_a_snapshot_restores_it(make_battle) -> None:
    battle = _cepheus_duel(make_battle, EndLoss())
    restored = None
    try:
        end = battle.sheet("foe").sheet.chars["end"]  # type: ignore[attr-defined]
        battle.apply(cmd.EnterRoll((1, 1, 1, 1)), GM)  # d100 01 hits; the pistol's dice 1s
        outcome = battle.apply(cmd.Attack("ada", "foe"), "blue")
        assert outcome.accepted
        damage = next(e for e in outcome.events if e.kind == "damage")
        after = battle.sheet("foe").sheet.chars["end"]  # type: ignore[attr-defined]
        assert after == end - damage.data["damage"] and damage.data["damage"] > 0
        restored = Battle.restore(
            battle.setup, battle.grid, battle.rules, battle.snapshot(), ruleset=battle.ruleset
        )
        assert restored.state_hash() == battle.state_hash()
        assert restored.sheet("foe").sheet == battle.sheet("foe").sheet
    finally:
        battle.close()
        if restored is not None:
            restored.close()
