"""Cepheus's battle object (game/tactics/rulesets/cepheus_battle.py) against numbers worked out by
hand from seed 000 and RULINGS C-1..C-5: the exact chance, the 2d6 roll and its Effect, the damage
to END then the higher of STR and DEX, the wound states' effects, initiative, the turn and the
movement allowance."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

from game.rules.cepheus.sheet import Sheet
from game.rules.dice import Advantage, Roller
from game.rules.initiative import Combatant
from game.tactics.battlefield import Battlefield
from game.tactics.ruleset import BattleRules, battle_rules, playable_ids
from game.tactics.rulesets.cepheus_battle import BATTLE, sheet_of
from tests.tactics.rulesets.cepheus_fields import plain_field

ROOT = Path(__file__).resolve().parents[3]
GUARD = {
    "chars": {"str": 7, "dex": 9, "end": 8},
    "dm": {"dex": 1},
    "skills": {"armi da fuoco": 1},
    "weapon": "pistola_automatica",
}
CIVILIAN = {"chars": {"str": 7, "dex": 7, "end": 7}, "weapon": "pugni"}


def _field(*entities: dict[str, object]) -> Battlefield:
    return plain_field(*entities)


def _duel(distance: int = 7) -> Battlefield:
    return _field(
        {"id": "g", "faction": "blue", "at": [0, 0, 0], "sheet": GUARD},
        {"id": "c", "faction": "red", "at": [distance, 0, 0], "sheet": CIVILIAN},
    )


def test_cepheus_is_playable_and_its_object_satisfies_the_battle_protocol() -> None:
    rules: BattleRules = BATTLE  # mypy checks the protocol here
    assert battle_rules("cepheus") is rules
    assert "cepheus" in playable_ids()


def test_c1_the_chance_is_2d6_plus_skill_dex_dm_and_difficulty_at_least_8_exactly() -> None:
    # C-1: Armi da Fuoco 1 + DEX DM +1; 7 cells = 10.5 m is Breve, where a pistol is Media
    # (000:l.45-56, DM 0): 2d6 + 2 >= 8, i.e. 2d6 >= 6, 26 of 36.
    bf = _duel()
    attack = BATTLE.attack(bf, bf.entity("g"), bf.entity("c"))
    assert attack.chance == Fraction(26, 36)
    assert [(m.code, m.value) for m in attack.modifiers] == [
        ("dm_skill", 1),
        ("dm_characteristic", 1),
        ("dm_difficulty", 0),
    ]
    assert attack.reason is None and "C-1" in attack.rules


def test_c2_fists_have_no_attack_where_the_table_says_dash_dash() -> None:
    # 000:l.49: Corpo a corpo is "--" from Breve on; 3 cells = 4.5 m is Breve.
    bf = _duel(distance=3)
    attack = BATTLE.attack(bf, bf.entity("c"), bf.entity("g"))
    assert attack.chance is None and attack.reason == "out_of_band"
    assert BATTLE.attack(bf, bf.entity("g"), bf.entity("c")).chance is not None


def test_c1_the_roll_is_2d6_with_the_battles_roller_and_its_effect_is_total_minus_8() -> None:
    bf = _duel()
    attack = BATTLE.attack(bf, bf.entity("g"), bf.entity("c"))
    roller = Roller(1)
    roller.supply(3, 4)  # 7 + 2 = 9: Effect 1, a hit
    rolled = BATTLE.roll_attack(roller, attack, Advantage.NONE, "attack g")
    assert rolled.hit and rolled.record.dice == (3, 4)
    assert rolled.logged == {"chance": "13/18", "total": 9, "effect": 1}
    roller.supply(2, 3)  # 5 + 2 = 7: Effect -1, a miss
    assert not BATTLE.roll_attack(roller, attack, Advantage.NONE, "attack g").hit


def test_c5_damage_is_the_weapons_dice_plus_bonus_plus_effect() -> None:
    # The automatic pistol is 3d6-3 (game/data/cepheus/sheets.toml): 2+5+4 - 3 + Effect 1 = 9.
    bf = _duel()
    attack = BATTLE.attack(bf, bf.entity("g"), bf.entity("c"))
    roller = Roller(1)
    roller.supply(3, 4, 2, 5, 4)
    rolled = BATTLE.roll_attack(roller, attack, Advantage.NONE, "attack g")
    weapon = bf.rules.weapons["pistol"]
    damage = BATTLE.roll_damage(roller, bf, bf.entity("g"), weapon, attack, rolled)
    assert damage.record.dice == (2, 5, 4) and damage.rolled == 9


def test_c5_damage_goes_to_end_then_the_higher_of_str_and_dex() -> None:
    # 000:l.357-359, C-5: 9 on 7/7/7 without armour: END 7 -> 0, the other 2 to STR (the tie
    # goes to STR, the first named); END and STR damaged, one at 0: wounded.
    bf = _duel()
    harm = BATTLE.damage(bf, bf.entity("c"), "perforante", 9)
    assert harm.damage == 9
    assert dict(harm.after.chars) == {"end": 0, "str": 5, "dex": 7}
    assert harm.effects == ("wounded",) and harm.rules == ("C-5",)
    # With armour 5 the same 9 is 4 (C-5: armour comes off the damage).
    armoured = _field(
        {"id": "c", "faction": "red", "at": [0, 0, 0], "sheet": {**CIVILIAN, "armour": 5}}
    )
    assert dict(BATTLE.damage(armoured, armoured.entity("c"), "x", 9).after.chars) == {
        "end": 3,
        "str": 7,
        "dex": 7,
    }


def test_c5_wound_states_do_what_the_seed_says_to_the_turn() -> None:
    maximum = {"str": 7, "dex": 7, "end": 7}
    unconscious = Sheet(chars={"end": 0, "str": 0, "dex": 7}, maximum=maximum)
    effects = BATTLE.condition_effects(unconscious)
    assert effects.turn_lost == "unconscious" and effects.out_of_combat and not effects.dead
    dead = BATTLE.condition_effects(Sheet(chars={"end": 0, "str": 0, "dex": 0}, maximum=maximum))
    assert dead.dead and dead.turn_lost == "dead"
    serious = BATTLE.condition_effects(Sheet(chars={"end": 6, "str": 6, "dex": 6}, maximum=maximum))
    assert serious.speed_cap == 1 and serious.turn_lost is None  # 000:l.386: 1 cell a round
    assert BATTLE.condition_effects(Sheet(chars=maximum)).turn_lost is None


def test_c1_initiative_is_2d6_plus_dex_dm_ties_to_the_higher_dex() -> None:
    g = Combatant("g", "blue", 0, sheet=Sheet(chars={"dex": 9}, dm={"dex": 1}))
    c = Combatant("c", "red", 0, sheet=Sheet(chars={"dex": 7}))
    roller = Roller(1)
    roller.supply(4, 3, 3, 3)  # c listed first: 7 + 0; g: 6 + 1 = 7, and DEX 9 beats 7
    order = BATTLE.start_initiative(roller, [c, g])
    assert [(e.entity_id, e.total) for e in order.visible_order(True)] == [("g", 7), ("c", 7)]
    bf = _duel()
    entries = BATTLE.initiative_order(bf, {"c": 7, "g": 6})
    assert [(e.entity_id, e.total) for e in entries] == [("g", 7), ("c", 7)]


def test_c4_the_turn_offers_movement_an_attack_a_dash_and_stances_and_no_reaction() -> None:
    budget = BATTLE.turn_budget()
    round_commands = {"aim", "hasty", "delay", "react_stance", "fire_mode"}  # C-1/C-4's own
    round_commands.add("reload")  # 000:l.99: a minor action the round rules count
    # issue 15: throws (000:l.134), first aid (l.398), hiding and searching (assumed, C-3)
    assert budget.commands == {
        "move", "attack", "dash", "throw", "use_object", "hide", "search", "crouch", "prone",
        "stand", "end_turn", "help", *round_commands,  # help: only greyed (issue 15)
        "improvise",  # "fare qualcosa d'altro come azione significativa" (000:l.121)
    }  # fmt: skip
    assert all(budget.costs[kind] == "" for kind in round_commands)  # the round rules count
    assert budget.spending("action") == {
        "attack", "dash", "throw", "use_object", "hide", "search", "help", "improvise",
    }  # fmt: skip
    assert BATTLE.reactions == frozenset()


def test_c4_movement_is_4_cells_a_minor_action_one_walking_three_dashing() -> None:
    bf = _duel()
    g = bf.entity("g")
    walk, _ = BATTLE.move_request(bf, g, None, dash=False, stealth=False)
    run, _ = BATTLE.move_request(bf, g, None, dash=True, stealth=False)
    assert walk.budgets["walk"] == 4 and run.budgets["walk"] == 12
    crouched = _field(
        {"id": "g", "faction": "blue", "at": [0, 0, 0], "sheet": GUARD, "stance": "crouched"}
    )
    low, _ = BATTLE.move_request(bf, crouched.entity("g"), None, dash=False, stealth=False)
    assert low.budgets["walk"] == 2  # C-4: crouching halves it


def test_the_computers_expected_harm_is_exact_an_effect_of_6_always_hurts() -> None:
    # Fists (1d6) at DM +2 against armour 100: only an Effect of 6+ (2d6 = 12, 1 in 36) does
    # anything, and then exactly 1 (000:l.372).
    fighter = {"chars": {"str": 7, "dex": 12, "end": 7}, "dm": {"dex": 2}, "weapon": "pugni"}
    bf = _field(
        {"id": "f", "faction": "blue", "at": [0, 0, 0], "sheet": fighter},
        {"id": "t", "faction": "red", "at": [1, 0, 0], "sheet": {**CIVILIAN, "armour": 100}},
    )
    attack = BATTLE.attack(bf, bf.entity("f"), bf.entity("t"))
    assert attack.detail.total_dm == 2
    assert BATTLE.expected_harm(bf, bf.entity("f"), bf.entity("t"), attack) == Fraction(1, 36)
    assert sheet_of(bf.entity("t")).armour == 100
