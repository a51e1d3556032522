"""The battle asks its ruleset object (game/tactics/ruleset.py, BattleRules): a fake ruleset that
changes one answer changes what the battle, the preview, the action bar and the computer do.

The fake is periferie's own battle side with one answer replaced, so every other number stays
seed 001's; each test checks the periferie answer first, so that it can fail.
"""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction
from types import MappingProxyType

from game.battle import commands as cmd
from game.battle import preview
from game.battle.ai import choose
from game.battle.engine import GM, Battle
from game.battle.handlers import check
from game.battle.options import options_for
from game.battle.setup import UnitSpec
from game.grid.los import LosResult
from game.grid.model import Cell
from game.grid.movement import MoveRequest
from game.rules.data import Weapon
from game.rules.dice import Advantage, Roller
from game.rules.movement import MoveAllowance
from game.rules.ruleset_answers import (
    Attack,
    AttackRoll,
    ConditionEffects,
    TurnBudget,
    TurnEffects,
    TurnStep,
)
from game.rules.wounds import Health
from game.tactics.battlefield import Battlefield, EntitySheet
from game.tactics.ruleset import NO_TURN_EFFECTS, BattleRules, turn_rules
from game.tactics.rulesets.periferie_battle import BATTLE, PeriferieBattle
from game.text.explain_battle import event_text
from game.text.i18n import speaking

THIRD = Fraction(1, 3)


class OneInThree(PeriferieBattle):
    """Every attack with a chance hits one time in three: a d6 showing 5 or 6."""

    def attack(
        self,
        bf: Battlefield,
        attacker: EntitySheet,
        target: EntitySheet,
        weapon: Weapon | None = None,
        los: LosResult | None = None,
        *,
        worded: bool = True,
    ) -> Attack:
        found = super().attack(bf, attacker, target, weapon, los, worded=worded)
        return found if found.chance is None else replace(found, chance=THIRD, modifiers=())

    def roll_attack(
        self, roller: Roller, attack: Attack, advantage: Advantage, purpose: str
    ) -> AttackRoll:
        record = roller.roll("1d6", purpose)
        return AttackRoll(record.total >= 5, record, {"chance": "1/3"})


def _duel(make_battle, ruleset: BattleRules | None = None) -> Battle:
    ada = UnitSpec("ada", "blue", (5, 5, 0), weapon="pistol")
    foe = UnitSpec("foe", "red", (9, 5, 0), weapon="pistol")
    battle: Battle = make_battle([ada, foe], initiative=(20, 1))
    if ruleset is None:
        return battle
    # The same setup with the fake: Battle takes its ruleset object (default: the registry's).
    return Battle(battle.setup, battle.grid, battle.rules, ruleset=ruleset)


def test_periferies_object_satisfies_the_battle_protocol_and_is_the_battles_default(
    make_battle,
) -> None:
    rules: BattleRules = BATTLE  # mypy checks the protocol here
    battle = _duel(make_battle)
    assert battle.ruleset is rules


def test_the_preview_and_the_battle_take_the_chance_and_the_roll_from_the_ruleset(
    make_battle,
) -> None:
    plain = _duel(make_battle)
    shot = preview.attack(plain, GM, "ada", "foe")
    assert shot is not None and shot.attack.chance is not None
    assert shot.attack.chance == Fraction(shot.answer.hit.p, 100)  # periferie: P-HIT-2's P
    fake = _duel(make_battle, OneInThree())
    try:
        shot = preview.attack(fake, GM, "ada", "foe")
        assert shot is not None and shot.attack.chance == THIRD
        fake.apply(cmd.EnterRoll((6,)), GM)
        outcome = fake.apply(cmd.Attack("ada", "foe"), "blue")
        assert outcome.accepted
        attack = next(e for e in outcome.events if e.kind == "attack")
        assert attack.data["chance"] == "1/3" and "hit_chance" not in attack.data
        assert attack.data["hit"] is True
        assert attack.rolls[0].expression == "d6" and attack.rolls[0].total == 6
        assert any(e.kind == "damage" for e in outcome.events)
        with speaking("en"):
            assert event_text(attack) == (
                "ada attacks foe with Sidearm pistol: 1/3 ≈ 33.3% — hit (cover: high exposure)"
            )
    finally:
        fake.close()


class NoHiding(PeriferieBattle):
    """A turn budget without hide and search."""

    def turn_budget(self) -> TurnBudget:
        costs = dict(BATTLE.turn_budget().costs)
        del costs["hide"], costs["search"]
        return TurnBudget(BATTLE.turn_budget().slots, MappingProxyType(costs))


def test_the_action_bar_and_the_checks_offer_only_the_rulesets_commands(make_battle) -> None:
    plain = _duel(make_battle)
    assert "hide" in {o.kind for o in options_for(plain, GM, "ada")}
    fake = _duel(make_battle, NoHiding())
    try:
        kinds = [o.kind for o in options_for(fake, GM, "ada")]
        assert "hide" not in kinds and "search" not in kinds and "attack" in kinds
        refusal = check(fake, "ada", "hide")
        assert refusal is not None and refusal.code == "not_in_ruleset"
        outcome = fake.apply(cmd.Hide("ada"), "blue")
        assert outcome.refusal is not None and outcome.refusal.code == "not_in_ruleset"
    finally:
        fake.close()


class PrefersAmy(PeriferieBattle):
    """Expects twice the harm against amy as against anyone else."""

    def expected_harm(
        self, bf: Battlefield, attacker: EntitySheet, target: EntitySheet, attack: Attack
    ) -> Fraction:
        base = super().expected_harm(bf, attacker, target, attack)
        return base if target.id == "amy" else base / 2


def test_the_computer_shoots_where_the_ruleset_expects_the_most_harm(make_battle) -> None:
    # amy and zed stand 3 cells either side of ada in the open: the same P for both, so
    # periferie's computer takes the later id on a tie (zed); the fake's harm picks amy.
    units = [
        UnitSpec("ada", "blue", (5, 5, 0), weapon="pistol"),
        UnitSpec("amy", "red", (8, 5, 0), weapon="pistol"),
        UnitSpec("zed", "red", (2, 5, 0), weapon="pistol"),
    ]
    plain: Battle = make_battle(units, initiative=(20, 1, 1))
    assert choose(plain, "ada") == cmd.Attack("ada", "zed")
    fake = Battle(plain.setup, plain.grid, plain.rules, ruleset=PrefersAmy())
    try:
        assert choose(fake, "ada") == cmd.Attack("ada", "amy")
    finally:
        fake.close()


class Blind(PeriferieBattle):
    """Nobody sees anybody."""

    def sight(self, bf: Battlefield, frm: EntitySheet | Cell, to: EntitySheet | Cell) -> LosResult:
        return LosResult(False, None, (), ("TEST",))


def test_the_preview_reads_sight_from_the_ruleset(make_battle) -> None:
    plain = _duel(make_battle)
    shot = preview.attack(plain, GM, "ada", "foe")
    assert shot is not None and shot.los.clear
    fake = _duel(make_battle, Blind())
    try:
        shot = preview.attack(fake, GM, "ada", "foe")
        assert shot is not None and not shot.los.clear
        assert shot.attack.chance is None and shot.attack.reason == "no_los"
    finally:
        fake.close()


class OneCell(PeriferieBattle):
    """Every movement allowance is one cell."""

    def move_request(
        self,
        bf: Battlefield,
        entity: EntitySheet,
        mode: str | None,
        *,
        dash: bool,
        stealth: bool,
        helped: bool = False,
    ) -> tuple[MoveRequest, MoveAllowance]:
        request, allow = super().move_request(
            bf, entity, mode, dash=dash, stealth=stealth, helped=helped
        )
        return replace(request, budgets={m: 1 for m in request.budgets}), allow


def test_the_reach_and_the_move_follow_the_rulesets_allowance(make_battle) -> None:
    plain = _duel(make_battle)
    reach = preview.reach(plain, GM, "ada")
    assert reach is not None and (5, 8, 0) in reach.cells  # P-MOV-1: a walk of 5 cells
    fake = _duel(make_battle, OneCell())
    try:
        reach = preview.reach(fake, GM, "ada")
        assert reach is not None and reach.cells
        assert max(abs(x - 5) + abs(y - 5) for x, y, _z in reach.cells) <= 2  # one step
        outcome = fake.apply(cmd.Move("ada", (5, 8, 0)), "blue")
        assert outcome.refusal is not None
        assert fake.apply(cmd.Move("ada", (5, 6, 0)), "blue").accepted
    finally:
        fake.close()


class Barred(PeriferieBattle):
    """Everyone's health bars attacking (as blinded does in periferie)."""

    def condition_effects(self, health: object) -> ConditionEffects:
        return replace(super().condition_effects(health), attack_barred="blinded")


class NoReactions(PeriferieBattle):
    reactions = frozenset[str]()


def test_condition_effects_and_reactions_come_from_the_ruleset(make_battle) -> None:
    plain = _duel(make_battle)
    assert check(plain, "ada", "attack") is None
    assert plain.can_react("foe", melee=True)
    barred = _duel(make_battle, Barred())
    quiet = _duel(make_battle, NoReactions())
    try:
        refusal = check(barred, "ada", "attack")
        assert refusal is not None and refusal.code == "blinded"
        assert not quiet.can_react("foe", melee=True)
        assert not quiet.can_react("foe", melee=False)
    finally:
        barred.close()
        quiet.close()


class CountsInitiative(PeriferieBattle):
    def __init__(self) -> None:
        self.asked: list[str] = []

    def start_initiative(self, roller: Roller, combatants):  # type: ignore[no-untyped-def]
        self.asked = [c.entity_id for c in combatants]
        return super().start_initiative(roller, combatants)


def test_the_opening_initiative_is_the_rulesets(make_battle) -> None:
    counting = CountsInitiative()
    battle = _duel(make_battle, counting)
    try:
        assert counting.asked == ["ada", "foe"]
        assert battle.active == "ada"
    finally:
        battle.close()


class Doomed(PeriferieBattle):
    """The start of every turn rolls a d6 and, on a 6, kills the unit whose turn it is."""

    def turn_start(self, roller, bf, unit, health):  # type: ignore[no-untyped-def]
        record = roller.roll("1d6", f"doom {unit.id}")
        if record.total < 6:
            return super().turn_start(roller, bf, unit, health)
        dead = Health(conditions=frozenset({"dead"}))
        data = {"unit": unit.id, "result": "dead", "wounds": dead.to_dict()}
        return TurnEffects(dead, (TurnStep("death_save", data, dead, (record,), ("X-1",)),))


def test_the_start_of_a_turn_is_the_rulesets_and_a_step_that_kills_makes_the_unit_fall(
    make_battle,
) -> None:
    # Periferie's own start of turn rolls nothing for a healthy unit: ada acts.
    plain = _duel(make_battle)
    assert plain.active == "ada" and plain.on_map("ada")
    # The fake's d6 (a 6 entered after the initiative faces) kills ada as her first turn
    # starts: the step's event, then she falls, and red is left alone: it wins.
    ada = UnitSpec("ada", "blue", (5, 5, 0), weapon="pistol")
    foe = UnitSpec("foe", "red", (9, 5, 0), weapon="pistol")
    entered: Battle = make_battle([ada, foe], initiative=(20, 1, 6))
    battle = Battle(entered.setup, entered.grid, entered.rules, ruleset=Doomed())
    try:
        kinds = [e.kind for e in battle.log]
        assert kinds[kinds.index("turn_started") :][:3] == ["turn_started", "death_save", "died"]
        assert not battle.on_map("ada") and battle.over and battle.winner == "red"
    finally:
        battle.close()


def test_a_ruleset_without_turn_effects_gets_the_default_that_has_none() -> None:
    class Bare:
        pass

    assert turn_rules(Bare()) is NO_TURN_EFFECTS  # type: ignore[arg-type]
    assert turn_rules(BATTLE) is BATTLE
    same = NO_TURN_EFFECTS.turn_start(Roller(1), None, None, "health")  # type: ignore[arg-type]
    assert same.after == "health" and same.steps == () and same.turn_lost is None
