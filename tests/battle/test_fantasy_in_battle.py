"""The dice-step fantasy system's own turn rules in a battle (seed 003, F-1..F-3): the free attack
on a fleeing fighter, the cadence of fire (CAD) of a ranged weapon, and equal initiatives acting
as one simultaneous group. Dice are entered as a GM would (`Roller.supply`); the sample sheets
are game/data/fantasy/sheets.toml's (a map unit's template picks one)."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from fractions import Fraction
from pathlib import Path

import pytest

from game.battle import commands as cmd
from game.battle.engine import Battle
from game.battle.options import options_for
from game.battle.setup import BattleSetup, UnitSpec
from game.ecs.components import Deferred, RulesetSheet
from game.rules.data import load_rules
from game.rules.fantasy.data import Sheet, Weapon
from game.scenario.parse import parse_scenario
from game.tactics.battlefield import Battlefield
from game.tactics.rulesets.fantasy_battle import BATTLE
from game.text.explain_battle import refusal_text
from tests.battle.conftest import OPEN_FIELD, ascii_grid


@pytest.fixture
def battles() -> Iterator[list[Battle]]:
    made: list[Battle] = []
    yield made
    for b in made:
        b.close()


def _battle(made: list[Battle], *units: UnitSpec) -> Battle:
    setup = BattleSetup(
        map_path="<test>", map_sha256="", seed=7, units=tuple(units), ruleset="fantasy"
    )
    b = Battle(setup, ascii_grid(OPEN_FIELD), load_rules())
    made.append(b)
    return b


def _sheet(b: Battle, unit: str) -> Sheet:
    own = b.world.get(unit, RulesetSheet).sheet
    assert isinstance(own, Sheet)
    return own


def _field(entities: list[dict[str, object]]) -> Battlefield:
    """A query's battlefield of fantasy fighters on an open 10 x 4 map."""
    scenario = {"ruleset": "fantasy", "map": {"size": [10, 4, 1]}, "entities": entities}
    return parse_scenario(scenario, Path.cwd())[0]


def _fighter(id_: str, faction: str, x: int, **sheet: object) -> dict[str, object]:
    return {"id": id_, "faction": faction, "at": [x, 0, 0], "sheet": sheet}


def _ok(b: Battle, command: cmd.Command) -> list[str]:
    out = b.apply(command, "gm")
    assert out.accepted, out.refusal and out.refusal.code
    return [e.kind for e in out.events]


# ---------------------------------------------------------------- fleeing (003:l.66-67)


def test_003_l67_leaving_an_enemys_reach_gives_it_a_free_attack_the_fugitive_cannot_defend(
    battles: list[Battle],
) -> None:
    # 003:l.67 "L'avversario guadagna un attacco alle spalle verso il fuggitivo, senza che questi
    # possa in alcun modo difendersi". The popolano (AGI d6, DES d6) acts before the bruto (AGI
    # d4, F-1) and ends its turn; the bruto walks away from it: leaving its reach is fleeing.
    b = _battle(
        battles,
        UnitSpec("pia", "x", (0, 0, 0), template="human", weapon="combat_knife"),
        UnitSpec("bru", "y", (1, 0, 0), template="void_marine"),
    )
    assert b.active == "pia"
    _ok(b, cmd.EndTurn("pia"))
    assert b.active == "bru"
    kinds = _ok(b, cmd.Move("bru", (4, 0, 0)))
    assert kinds[-1] == "reaction_offered" and b.pending is not None
    assert b.pending.reactor == "pia" and b.sheet("bru").cell == (1, 0, 0)
    # Taken: POT d6 + "uso forcone" d6 against the bruto's DP 8 (VPB 8, no shield, 003:l.76) as
    # a check, not a contest (003:l.110: no defence dice). 5 + 4 = 9 > 8: a hit (003:l.117).
    # d100 60: the arms (F-3: head 1-10, torso 11-50, arms 51-70), armour 2 there; the
    # Forcone's 1d6 shows 6: the armour is destroyed and 6 - 2 = 4 body points are lost
    # (003:l.179).
    b.roller.supply(5, 4, 60, 6)
    out = b.apply(cmd.React("pia", take=True), "gm")
    assert out.accepted
    strike = next(e for e in out.events if e.kind == "reaction_attack")
    assert strike.data["defence_total"] is None and strike.data["attack_total"] == 9
    assert strike.data["outcome"] == "hit" and strike.data["location"] == "arms"
    bru = _sheet(b, "bru")
    assert bru.body_lost == 4 and "arms" not in bru.armour
    # Not killed (10 body points): the flight goes on to where it was going.
    assert b.sheet("bru").cell == (4, 0, 0) and b.active == "bru"


def test_003_l67_the_free_attack_is_a_check_against_the_dp_with_no_defence() -> None:
    # The same pair as the query asks it: the ordinary attack is a contest (the bruto has no
    # defence skill: AGI d4 alone, 003:l.75); the reaction's is not.
    bf = _field([_fighter("a", "x", 0, pot="d6"), _fighter("b", "y", 1, agi="d4")])
    weapon = bf.rules.weapons["pistol"]  # periferie's record, as the battle passes it
    plain = BATTLE.attack(bf, bf.entity("a"), bf.entity("b"))
    fleeing = BATTLE.reaction_attack(bf, bf.entity("a"), bf.entity("b"), weapon)
    assert plain.detail.plan.defence_dice == ("d4",)
    assert fleeing.detail.plan.defence_dice is None
    # POT d6 alone (the bare fist has no skill, 003:l.79): d6! > 8 needs a 6 then 3..6 on the
    # die rolled again (6 + 3 = 9; a second 6 is past 8 already): 1/6 x 4/6 = 1/9.
    assert fleeing.chance == Fraction(1, 9)


# ---------------------------------------------------------------- CAD (003:l.136-140)


def test_003_l140_a_cad_2_crossbow_shoots_one_turn_and_reloads_the_next(
    battles: list[Battle],
) -> None:
    # 003:l.140 "molte di esse hanno una cadenza pari a 2 (cioè tirano un turno sì e uno no,
    # utilizzato per ricaricare)" and "deve utilizzare l'azione Preparare l'Arma per il numero di
    # turni necessari": the arciere's sample Balestra has CAD 2 (assumed): after a shot, one
    # turn of reloading before it fires again. The arciere (AGI d8) acts before the bruto (d4).
    b = _battle(
        battles,
        UnitSpec("arc", "x", (0, 0, 0), template="scavenger"),
        UnitSpec("bru", "y", (10, 0, 0), template="void_marine"),
    )
    assert _sheet(b, "arc").weapon.cad == 2 and b.active == "arc"
    reload_option = {o.kind: o for o in options_for(b, "gm", "arc")}["reload"]
    assert reload_option.refusal is not None
    assert reload_option.refusal.code == "nothing_to_reload"
    _ok(b, cmd.Attack("arc", "bru"))
    assert _sheet(b, "arc").reload == 1
    _ok(b, cmd.EndTurn("arc"))
    _ok(b, cmd.EndTurn("bru"))
    # The next turn: the attack is greyed with its reason, and refused alike.
    attack = {o.kind: o for o in options_for(b, "gm", "arc")}["attack"]
    assert attack.refusal is not None and attack.refusal.code == "reloading"
    assert attack.refusal.values["turns"] == 1
    assert refusal_text(attack.refusal) == "Reloading (1 turns)."
    refused = b.apply(cmd.Attack("arc", "bru"), "gm")
    assert refused.refusal is not None and refused.refusal.code == "reloading"
    out = b.apply(cmd.Reload("arc"), "gm")
    assert out.accepted
    reloaded = next(e for e in out.events if e.kind == "reloaded")
    assert reloaded.data == {"unit": "arc", "left": 0}
    assert _sheet(b, "arc").reload == 0
    _ok(b, cmd.EndTurn("arc"))
    _ok(b, cmd.EndTurn("bru"))
    assert {o.kind: o for o in options_for(b, "gm", "arc")}["attack"].allowed


def test_003_l140_cad_3_fires_then_takes_the_two_following_turns_to_reload() -> None:
    # "alcune perfino di 3 (tirano in un turno, impiegano i 2 seguenti per ricaricare)".
    heavy = {"name": "Balestra pesante", "kind": "ranged", "damage": "1d10", "cad": 3}
    bf = _field([_fighter("a", "x", 0, weapon=heavy), _fighter("b", "y", 6)])
    a, target = bf.entity("a"), bf.entity("b")
    shot = BATTLE.attack(bf, a, target)
    after = BATTLE.after_attack(a.sheet, shot)
    assert BATTLE.reloading(after) == 2
    once = BATTLE.reload(after)
    assert BATTLE.reloading(once) == 1 and BATTLE.reloading(BATTLE.reload(once)) == 0
    assert BATTLE.attack(bf, replace(a, sheet=after), target).reason == "reloading"
    # A CAD 1 weapon (003:l.140 "non può generalmente tirare più di un proietto per turno")
    # and any melee weapon never need it.
    bow = replace(a.sheet, weapon=Weapon("Arco", "ranged", None, "1d6", 1))
    archer = replace(a, sheet=bow)
    assert BATTLE.reloading(BATTLE.after_attack(bow, BATTLE.attack(bf, archer, target))) == 0


# ---------------------------------------------------------------- simultaneous (003:l.13, F-1)


def test_f1_equal_agi_and_des_act_together_and_both_die_when_the_group_has_acted(
    battles: list[Battle],
) -> None:
    # 003:l.13 "In caso di ulteriore parità, agiscono in contemporanea (in questo caso i
    # risultati del combattimento, come le ferite e i colpi critici, vengono segnati a parte e
    # conteggiati dopo che ognuno di loro ha agito)". Two popolani (AGI d6, DES d6) are one
    # group. Each attack: POT d6 + "uso forcone" d6 = 5 + 5 = 10 > DP 8, the defence (AGI d6
    # alone, 003:l.75) shows 2, under 8: only the attacker passes, a hit (003:l.94); d100 30 is
    # the torso (no armour). Round 1: the Forcone's 1d6 shows 3 of the 8 body points (2 lieve,
    # 2 serio, 2 grave, 1 critico, 1 mortale, assumed): Lieve full, -1 to every action (F-3
    # assumed), so round 2's 10 - 1 = 9 still passes 8 and its 6 fills all 8: dead (003:l.184).
    b = _battle(
        battles,
        UnitSpec("pia", "x", (0, 0, 0), template="human", weapon="combat_knife"),
        UnitSpec("ugo", "y", (1, 0, 0), template="human", weapon="combat_knife"),
    )
    order = b.initiative.visible_order(True)
    assert BATTLE.acts_with(order, "pia") == ("pia", "ugo")
    for lost_before, damage in ((0, 3), (3, 6)):
        hit = (5, 5, 2, 30, damage)
        b.roller.supply(*hit)
        kinds = _ok(b, cmd.Attack("pia", "ugo"))
        assert "damage_deferred" in kinds and "damage" not in kinds
        assert _sheet(b, "ugo").body_lost == lost_before
        _ok(b, cmd.EndTurn("pia"))
        # ugo acts although the hit it took in the second round fells it.
        assert b.active == "ugo"
        b.roller.supply(*hit)
        _ok(b, cmd.Attack("ugo", "pia"))
        assert b.world.has("pia", Deferred) and b.world.has("ugo", Deferred)
        kinds = _ok(b, cmd.EndTurn("ugo"))
        # The group's last unit has ended its turn: the results are counted together.
        assert kinds.count("damage") == 2
    assert not b.world.has("pia", Deferred) and not b.world.has("ugo", Deferred)
    assert _sheet(b, "pia").dead and _sheet(b, "ugo").dead
    assert b.over and b.winner is None


def test_f1_a_unit_acting_alone_takes_its_harm_at_once(battles: list[Battle]) -> None:
    # The arciere (AGI d8) acts alone: the popolano's hit on it lands at once, as in every
    # ruleset without simultaneous groups (periferie's order is unchanged: no group at all).
    b = _battle(
        battles,
        UnitSpec("arc", "x", (0, 0, 0), template="scavenger"),
        UnitSpec("pia", "y", (1, 0, 0), template="human", weapon="combat_knife"),
    )
    assert BATTLE.acts_with(b.initiative.visible_order(True), "pia") == ()
    _ok(b, cmd.EndTurn("arc"))
    b.roller.supply(5, 5, 2, 1, 30, 6)  # the arciere defends with AGI d8 + "schivare" d6
    kinds = _ok(b, cmd.Attack("pia", "arc"))
    assert "damage" in kinds and "damage_deferred" not in kinds


def test_a_fantasy_attack_names_the_sheets_balestra_and_its_initiative_its_dice(
    battles: list[Battle],
) -> None:
    # The arciere's sample weapon is its "balestra" (game/data/fantasy/sheets.toml), not the
    # map template's; its initiative line reads its AGI and DES dice as the tracker does (F-1),
    # not the order key packed from them.
    from game.text.explain_battle import event_text

    b = _battle(
        battles,
        UnitSpec("arc", "x", (0, 0, 0), template="scavenger"),
        UnitSpec("bru", "y", (10, 0, 0), template="void_marine"),
    )
    _ok(b, cmd.Attack("arc", "bru"))
    attack = next(e for e in b.log if e.kind == "attack")
    assert (attack.data["sheet_weapon"], attack.data["weapon_name"]) == ("balestra", "Balestra")
    assert event_text(attack).startswith("arc attacks bru with Crossbow: ")
    rolled = next(e for e in b.log if e.kind == "initiative" and e.data["unit"] == "arc")
    words = b.ruleset.initiative_text(rolled.data["total"])
    assert words.startswith("AGI d") and " · DES d" in words
    assert event_text(rolled, initiative=b.ruleset.initiative_text) == (
        f"arc rolls initiative: {words}"
    )
