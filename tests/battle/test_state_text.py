"""The state hash's text is written from kept pieces: it must stay exactly the JSON of the state."""

from __future__ import annotations

import json
from pathlib import Path

from game.battle import commands as cmd
from game.battle.engine import GM
from game.battle.session import Session
from game.battle.setup import setup_from_map
from game.ecs.components import Position, Turn
from game.ecs.world import BattleWorld
from game.maps import load_map

STATION = Path(__file__).resolve().parents[2] / "maps" / "station_interior.tmx"


def test_the_state_text_is_the_sorted_json_of_the_state_after_every_computer_command() -> None:
    loaded = load_map(STATION)
    factions = tuple(sorted({u.faction for u in loaded.units}))
    session = Session.new(setup_from_map(loaded, seed=5, computer=factions), None)
    b = session.battle
    try:
        assert b.state_text() == json.dumps(b.state_json(), sort_keys=True)
        for _ in range(40):
            if not session.play_computer(limit=1):
                break
            assert b.state_text() == json.dumps(b.state_json(), sort_keys=True)
        # Free text a player typed lands in the state too, quotes and accents included (by the
        # first unit in turn whose action is still free: the computer's game decides which).
        for _ in range(len(loaded.units)):
            active = b.active
            assert active is not None
            typed = session.submit(cmd.Improvise(active, 'salta sul "bancone", poi giù'), GM)
            if typed.accepted:
                break
            assert session.submit(cmd.EndTurn(active), GM).accepted
        assert typed.accepted
        assert b.state_text() == json.dumps(b.state_json(), sort_keys=True)
    finally:
        session.close()


def test_the_world_text_follows_replaced_components_and_the_turn_changed_in_place() -> None:
    world = BattleWorld()
    try:
        world.add_unit("ada", Position((1, 2, 0)), Turn())
        world.add_unit("bo", Position((3, 3, 0)), Turn())
        assert world.to_json_text() == json.dumps(world.to_json(), sort_keys=True)
        world.set("ada", Position((2, 2, 0)))
        turn = world.get("bo", Turn).state
        turn.start_turn()
        turn.use_action("dodge")
        assert world.to_json_text() == json.dumps(world.to_json(), sort_keys=True)
        assert '"cell": [2, 2, 0]' in world.to_json_text()
        world.remove("bo", Position)
        assert world.to_json_text() == json.dumps(world.to_json(), sort_keys=True)
    finally:
        world.close()
