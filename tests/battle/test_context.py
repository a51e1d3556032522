"""The battle's public context (game/battle/context.py): handlers are (check, do) pairs, the action
bar and the engine answer with the same check, and no module but the engine touches a private
member of `Battle`."""

from __future__ import annotations

import ast
from pathlib import Path

from game.battle import commands as cmd
from game.battle import context, handlers
from game.battle.engine import GM, Battle
from game.battle.options import options_for, who_may_order
from game.battle.setup import UnitSpec
from tests.battle.conftest import MakeBattle

ROOT = Path(__file__).resolve().parents[2]

#: Ada (side a, no weapon) and Bo (side b, pistol) four cells apart; Ada acts first.
UNITS = [
    UnitSpec("Ada", "a", (2, 2, 0)),
    UnitSpec("Bo", "b", (6, 2, 0), weapon="pistol"),
]
FACES = (20, 10)


def _battle_privates(make_battle: MakeBattle) -> set[str]:
    battle = make_battle(UNITS, initiative=FACES)
    names = {n for n in vars(Battle) if n.startswith("_") and not n.startswith("__")}
    return names | {n for n in vars(battle) if n.startswith("_") and not n.startswith("__")}


def test_no_module_but_the_engine_touches_a_private_member_of_battle(
    make_battle: MakeBattle,
) -> None:
    """Every `x._name` outside game/battle/engine.py where `_name` is one of Battle's own
    private members and `x` is not `self` or `cls` (an object's own members are its own)."""
    privates = _battle_privates(make_battle)
    assert {"_emit", "_set", "_use_action", "_fall", "_bf"} <= privates  # the scan can find some
    found = []
    for folder in ("game/battle", "game/ui", "tests/battle"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            if path == ROOT / "game/battle/engine.py":
                continue
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if not isinstance(node, ast.Attribute) or node.attr not in privates:
                    continue
                if isinstance(node.value, ast.Name) and node.value.id in ("self", "cls"):
                    continue
                found.append(f"{path.relative_to(ROOT)}:{node.lineno} {node.attr}")
    assert found == []


def test_every_command_kind_has_a_handler_that_is_a_check_and_a_do() -> None:
    kinds = {c for c in vars(cmd).values() if isinstance(c, type) and issubclass(c, cmd.Command)}
    kinds.discard(cmd.Command)
    assert set(handlers.HANDLERS) == kinds
    for handler in handlers.HANDLERS.values():
        assert isinstance(handler, handlers.Handler) and callable(handler.check)


def test_the_context_documents_every_effect_a_handler_may_use() -> None:
    """The surface a rule system plugs into is named and documented, method by method."""
    for protocol in (context.BattleState, context.BattleContext):
        assert protocol.__doc__
    undocumented = [
        name
        for name, member in vars(context.BattleContext).items()
        if not name.startswith("_") and not (getattr(member, "__doc__", None) or "").strip()
    ]
    assert undocumented == []


def test_the_bar_and_the_engine_refuse_an_unarmed_attack_after_the_action_alike(
    make_battle: MakeBattle,
) -> None:
    """Two reasons at once (no weapon, the action used: P-TURN-1): the check answers the first
    in one order, "action_used", for the action bar and for the engine alike."""
    battle = make_battle(UNITS, initiative=FACES)
    assert battle.apply(cmd.Dash("Ada"), "a").accepted
    option = {o.kind: o for o in options_for(battle, "a", "Ada")}["attack"]
    assert option.refusal is not None and option.refusal.code == "action_used"
    outcome = battle.apply(cmd.Attack("Ada", target="Bo"), "a")
    assert outcome.refusal is not None and outcome.refusal.code == "action_used"


def test_the_bar_and_the_engine_refuse_an_unarmed_attack_as_no_weapon(
    make_battle: MakeBattle,
) -> None:
    battle = make_battle(UNITS, initiative=FACES)
    option = {o.kind: o for o in options_for(battle, "a", "Ada")}["attack"]
    assert option.refusal is not None and option.refusal.code == "no_weapon"
    before = battle.state_hash()
    outcome = battle.apply(cmd.Attack("Ada", target="Bo"), "a")
    assert outcome.refusal is not None and outcome.refusal.code == "no_weapon"
    assert battle.state_hash() == before


def test_who_may_order_is_the_engines_authorise(make_battle: MakeBattle) -> None:
    """Not the player's unit, not its turn, an unknown unit: the bar's answer is the one
    `Battle.authorise` gives a command."""
    battle = make_battle(UNITS, initiative=FACES)
    cases = {
        ("b", "Ada"): "not_your_unit",
        ("b", "Bo"): "not_active",
        ("a", "Nobody"): "unknown_unit",
        (GM, "Bo"): "not_active",
    }
    for (by, unit), code in cases.items():
        answer = who_may_order(battle, by, unit)
        outcome = battle.apply(cmd.Dodge(unit), by)
        assert answer is not None and outcome.refusal is not None
        assert answer.code == outcome.refusal.code == code, (by, unit)
    assert who_may_order(battle, "a", "Ada") is None
