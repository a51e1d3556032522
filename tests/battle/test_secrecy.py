"""Secrecy: what a player is shown never holds a unit hidden from all of that player's sides.

What is tested: after every command of a computer-against-computer battle on each shipped map
(each side its own player), for each player, the view (`view_for`, `player_view`) and the
previews (`reach`, `path`, `attack`) name only units that player's sides may know of:
- a unit none of the player's sides has ever seen appears nowhere: not in the units, the order,
  the active unit, the ghosts, the JSON of any visible event or of its roll records, nor any
  preview;
- units, order and active name only the player's own units and those its sides see now (a unit
  hidden from them, P-INIT-4 and hiding, is not among them);
- a ghost is a unit out of sight, at the cell where the player's sides last saw it;
- every event a command newly shows the player names only units its sides saw before or after
  that command, or caught sight of during it (a sneaking unit's failed check, P-STL-1); no
  secret roll (a hidden unit's initiative) is shown.
The test's own record of what each player has seen comes from the sides' sightings after each
command; nothing about hidden units is read from the view under test.
"""

from __future__ import annotations

import json
import re
from dataclasses import replace
from pathlib import Path

import pytest

from game.battle import commands as cmd
from game.battle import preview
from game.battle.ai import choose
from game.battle.engine import GM, Battle
from game.battle.session import Session
from game.battle.setup import BattleSetup, UnitSpec, setup_from_map
from game.battle.view import UNSEEN, player_view, view_for
from game.ecs.components import Motion, Position, Status, Visibility
from game.maps import load_map
from game.tactics import answers as tactics
from game.tactics.battlefield import Battlefield

MAPS = Path(__file__).resolve().parents[2] / "maps"
SHIPPED = ("station_interior", "surface_outpost", "hull_breach")


def _mentions(text: str, unit: str) -> bool:
    return re.search(rf"(?<![\w-]){re.escape(unit)}(?![\w-])", text) is not None


def _event_text(event: object) -> str:
    data = event.to_json()  # type: ignore[attr-defined]
    data["audience"] = None  # who may see it is not what it says
    return json.dumps(data, sort_keys=True, default=str)


class Watcher:
    """What one player's sides have seen, as the battle goes, and the checks of their view."""

    def __init__(self, b: Battle, player: str) -> None:
        self.player = player
        self.factions = b.factions_of(player)
        assert self.factions, player
        self.ever_seen: set[str] = set()
        self.last_seen: dict[str, tuple[int, int, int]] = {}
        self.shown = 0  # log events already checked
        self.visible = self._visible(b)
        self._remember(b)

    def own(self, b: Battle, unit: str) -> bool:
        return b.faction_of(unit) in self.factions

    def _visible(self, b: Battle) -> set[str]:
        seen: set[str] = set()
        for faction in self.factions:
            seen |= b.vision.factions[faction].units
        return {u for u in seen if b.on_map(u)}

    def _glimpsed(self, b: Battle) -> set[str]:
        """Units the player's sides caught sight of during the last command only (P-STL-1)."""
        return {u for f in self.factions for u in b.vision.factions[f].glimpsed}

    def _remember(self, b: Battle) -> None:
        for faction in sorted(self.factions):
            for unit, cell in b.vision.factions[faction].glimpsed.items():
                self.ever_seen.add(unit)
                self.last_seen[unit] = cell
        for unit in self.visible:
            if not self.own(b, unit):
                self.ever_seen.add(unit)
                self.last_seen[unit] = b.world.get(unit, Position).cell

    def check(self, b: Battle) -> None:
        before = self.visible
        self.visible = self._visible(b)
        self._remember(b)
        others = [u for u in b.world.unit_ids if not self.own(b, u)]
        never_seen = [u for u in others if u not in self.ever_seen]
        hidden_now = [
            u
            for u in others
            if b.on_map(u) and self.factions <= b.world.get(u, Visibility).hidden_from
        ]
        assert not set(hidden_now) & self.visible, "a side sees a unit hidden from it"
        view = view_for(b, self.player)
        # Units, order, active: own units and those seen now.
        allowed = self.visible | {u for u in b.world.unit_ids if self.own(b, u)}
        assert {u.id for u in view.units} <= allowed
        # The order also keeps enemies seen before and lost (their ghosts): their place was seen.
        assert {u for u, _total in view.order} <= allowed | {g for g, _cell in view.ghosts}
        assert view.active is None or view.active in allowed
        for u in view.units:
            assert u.cell == b.world.get(u.id, Position).cell
        # Ghosts: out of sight, ever seen, where last seen.
        for unit, cell in view.ghosts:
            assert unit in self.ever_seen and unit not in self.visible, unit
            assert cell == self.last_seen[unit], (unit, cell, self.last_seen[unit])
        # The log: nothing about a never-seen unit; new events only about units seen around
        # them (older events were checked when they were new, and read the same now).
        shown = [i for i, e in enumerate(b.log) if e.visible_to(self.factions)]
        assert len(shown) == len(view.log)
        for i, event in zip(shown, view.log, strict=True):
            if i < self.shown:
                continue
            text = _event_text(event)
            assert not any(r.secret for r in event.rolls), f"a secret roll shown: {text}"
            leaked = [u for u in never_seen if _mentions(text, u)]
            assert not leaked, f"{self.player} is shown {leaked} in {text}"
            seen = before | self.visible | self._glimpsed(b)
            strangers = [u for u in others if u not in seen and _mentions(text, u)]
            assert not strangers, f"{self.player} is shown {strangers}, out of sight, in {text}"
            if event.kind in ("moved", "drifted") and event.data["unit"] not in self.visible:
                # It went out of sight: where it went is not told.
                assert event.data["unit"] in before or self.own(b, event.data["unit"])
                assert not self.own(b, event.data["unit"]) and event.data["to"] == UNSEEN
        self.shown = len(b.log)
        # The JSON view, whole.
        whole = json.dumps(player_view(b, self.player), default=str)
        leaked = [u for u in never_seen if _mentions(whole, u)]
        assert not leaked, f"{self.player}'s JSON view names {leaked}"
        for unit in hidden_now:
            assert preview.reach(b, self.player, unit) is None
        self._check_previews(b, never_seen, hidden_now)

    def _check_previews(self, b: Battle, never_seen: list[str], hidden_now: list[str]) -> None:
        active = b.active
        if active is None or not self.own(b, active) or not b.on_map(active):
            return
        secret = set(never_seen) | set(hidden_now)
        for unit in secret:
            if b.on_map(unit):
                assert preview.attack(b, self.player, active, unit) is None
        reach = preview.reach(b, self.player, active)
        assert reach is not None
        # The reach is what the player's sides know: the same search on a field holding only
        # the units they know of, built here from scratch.
        known = tuple(e for e in b.bf.entities if self.own(b, e.id) or e.id in self.visible)
        field = Battlefield(b.grid, known, b.rules, b.setup.ruleset)
        me = field.entity(active)
        turn = b.turn(active)
        if turn.movement_spent == 0 and not turn.dashed:
            expected, _allow = tactics.reachable_cells(
                field, me, None, helped=b.world.get(active, Status).helped_by is not None
            )
            if not b.world.get(active, Motion).stealthy:
                assert dict(reach.cells) == expected
        for cell in sorted(reach.cells)[:2]:
            path = preview.path(b, self.player, active, cell)
            assert path is not None
            names = {w.enemy for w in path.warnings} | set(path.seen_by)
            assert not names & secret, names & secret
            if path.refusal is not None:
                text = json.dumps(path.refusal.to_json(), default=str)
                assert not any(_mentions(text, u) for u in secret)


def _per_side(setup: BattleSetup) -> BattleSetup:
    """Each faction its own player (named after it), nobody for the computer: the test drives
    the computer's choices itself, so that every side has a view of its own."""
    return replace(setup, players={f"p_{f}": (f,) for f in setup.factions}, computer=())


@pytest.mark.parametrize(
    "name, dampers_off", [*((name, False) for name in SHIPPED), ("hull_breach", True)]
)
def test_no_player_is_ever_shown_a_unit_hidden_from_its_sides_in_a_whole_battle(
    name, dampers_off
) -> None:
    """With `dampers_off`, every other thrusters move keeps its velocity (P-ZERO-2): drifts
    out of a side's sight must not tell it where they end either."""
    loaded = load_map(MAPS / f"{name}.tmx")
    setup = _per_side(setup_from_map(loaded, seed=5))
    session = Session.new(setup, None)
    try:
        b = session.battle
        watchers = [Watcher(b, f"p_{f}") for f in setup.factions]
        for w in watchers:
            w.check(b)
        given = 0
        while not session.battle.over and given < 1500:
            b = session.battle
            actor = b.pending.reactor if b.pending is not None else b.active
            assert actor is not None
            command = choose(b, actor)
            if dampers_off and isinstance(command, cmd.Move) and command.mode == "thrusters":
                command = replace(command, dampers=given % 2 == 0)
            outcome = session.submit(command, b.controller_of(b.faction_of(actor)))
            assert outcome.accepted, outcome.refusal
            given += 1
            for w in watchers:
                w.check(session.battle)
        assert session.battle.over
        # The battle did keep secrets: some unit was hidden from some side at the start.
        assert any(u.hidden for u in setup.units)
    finally:
        session.close()


# ---------------------------------------------------------------- ghosts


RED = UnitSpec("ada", "red", (1, 1, 0), weapon="pistol")
BLUE = UnitSpec("bo", "blue", (6, 1, 0))
#: A wall at x = 3 from y = 2 down: from (1, 4) ada sees neither (6, 1) nor (6, 4); from
#: (1, 1) she sees (6, 1) but not (6, 4).
WALLED = "\n".join(
    [
        "..........",
        "..........",
        "...#......",
        "...#......",
        "...#......",
    ]
)


def test_a_ghost_stays_where_the_enemy_was_last_seen_and_goes_once_that_cell_is_seen_empty(
    make_battle,
) -> None:
    b: Battle = make_battle([RED, BLUE], picture=WALLED, initiative=(15, 5))
    assert b.sees("red", "bo")
    # ada goes behind the wall: bo is out of sight; its ghost is where she saw it.
    assert b.apply(cmd.Move("ada", (1, 4, 0)), "red").accepted
    assert not b.sees("red", "bo")
    assert view_for(b, "red").ghosts == (("bo", (6, 1, 0)),)
    assert b.apply(cmd.EndTurn("ada"), "red").accepted
    # bo goes behind the wall too, unseen: the ghost stays where bo was seen.
    assert b.apply(cmd.Move("bo", (6, 4, 0)), "blue").accepted
    assert b.apply(cmd.EndTurn("bo"), "blue").accepted
    assert not b.sees("red", "bo")
    assert view_for(b, "red").ghosts == (("bo", (6, 1, 0)),)
    # ada steps back and sees (6, 1) empty: red knows bo has gone from there, the ghost goes
    # (and the computer no longer walks to an empty cell it is looking at).
    assert b.apply(cmd.Move("ada", (1, 1, 0)), "red").accepted
    assert b.vision.factions["red"].seen[6, 1, 0] and not b.sees("red", "bo")
    assert view_for(b, "red").ghosts == ()
    assert "bo" not in b.vision.factions["red"].last_known


# ---------------------------------------------------------------- what the log withholds


def _told(b: Battle, player: str, kind: str) -> dict[str, object]:
    events = [e for e in view_for(b, player).log if e.kind == kind]
    assert events, f"{player} is shown no {kind}"
    return dict(events[-1].to_json())


def test_p_los_3_a_shot_through_the_shooters_ally_does_not_name_the_shooter_to_the_target(
    make_battle,
) -> None:
    # ada shoots bo through her ally cy (allies are transparent to her, P-LOS-3), but cy, an
    # enemy to bo, blocks bo's sight of ada: blue never sees ada, so blue's log reads the
    # attack and the damage as from an unseen unit; red's log and the GM's name her.
    ada = UnitSpec("ada", "red", (1, 3, 0), weapon="pistol")
    cy = UnitSpec("cy", "red", (5, 3, 0))
    bo = UnitSpec("bo", "blue", (9, 3, 0))
    b: Battle = make_battle([ada, cy, bo], initiative=(15, 10, 5))
    assert not b.sees("blue", "ada") and b.sees("blue", "cy")
    assert b.apply(cmd.EnterRoll((1, 3, 4)), GM).accepted  # a hit, 2d6 = 7
    assert b.apply(cmd.Attack("ada", "bo"), "red").accepted
    assert not b.sees("blue", "ada")
    attack, damage = _told(b, "blue", "attack"), _told(b, "blue", "damage")
    assert (attack["unit"], attack["target"], damage["source"]) == (UNSEEN, "bo", UNSEEN)
    assert attack["rolls"][0]["purpose"] == f"attack {UNSEEN}"  # type: ignore[index]
    assert "ada" not in json.dumps(player_view(b, "blue"))
    assert _told(b, "red", "attack")["unit"] == "ada"
    assert _told(b, GM, "attack")["unit"] == "ada"


def test_a_move_out_of_sight_shows_where_it_began_but_not_where_it_ended(make_battle) -> None:
    b: Battle = make_battle([RED, BLUE], picture=WALLED, initiative=(5, 15))
    assert b.active == "bo" and b.sees("red", "bo")
    assert b.apply(cmd.Move("bo", (6, 4, 0)), "blue").accepted
    assert not b.sees("red", "bo")
    moved = _told(b, "red", "moved")
    assert (moved["unit"], moved["from"], moved["to"], moved["cost"]) == (
        "bo",
        [6, 1, 0],
        UNSEEN,
        UNSEEN,
    )
    assert _told(b, "blue", "moved")["to"] == [6, 4, 0]
    # ada still sees (6, 1), empty: no ghost either.
    assert view_for(b, "red").ghosts == ()


# ---------------------------------------------------------------- a sneaking unit discovered

# A wall along row 4 with one gap at (5, 4): bo, south of it at (5, 10), sees north only through
# the gap, (5, 3) but not (4, 3) nor (6, 3). Gus (green), at the far corner, sees none of the row.
GAP = "\n".join("#####.##############" if y == 4 else "." * 20 for y in range(12))


@pytest.mark.parametrize("face", [9, 10])
def test_p_stl_1_a_sneaking_unit_spotted_on_the_way_is_told_to_the_spotting_side_only(
    make_battle, face: int
) -> None:
    # Ada, hidden, sneaks (4, 3) -> (6, 3) through the gap's sight: d20 `face` against bo's
    # passive perception 10 (P-CHK-3). 9 fails: blue is told and sees her there (a glimpse),
    # green learns nothing; 10 holds: nobody but red hears of it. Every player's view, log and
    # previews are checked as in a whole battle.
    units = [
        UnitSpec("ada", "red", (4, 3, 0), hidden=True),
        UnitSpec("bo", "blue", (5, 10, 0)),
        UnitSpec("gus", "green", (19, 11, 0)),
    ]
    b: Battle = make_battle(units, GAP, initiative=(15, 5, 1))
    watchers = [Watcher(b, side) for side in ("red", "blue", "green")]
    for command in (cmd.EnterRoll((face,)), cmd.Move("ada", (6, 3, 0), stealth=True)):
        assert b.apply(command, GM if isinstance(command, cmd.EnterRoll) else "red").accepted
        for w in watchers:
            w.check(b)
    blue = json.dumps(player_view(b, "blue"), default=str)
    assert ("ada" in blue) is (face == 9)
    assert "ada" not in json.dumps(player_view(b, "green"), default=str)
    if face == 9:
        assert ("ada", (5, 3, 0)) in view_for(b, "blue").ghosts
        told = [e.kind for e in view_for(b, "blue").log if "ada" in json.dumps(e.to_json())]
        assert told == ["stealth_check", "revealed"]


def test_a_reveal_to_a_side_that_does_not_see_the_unit_tells_it_nothing_yet(make_battle) -> None:
    # The GM reveals ada, behind the wall at (4, 3), to blue: she is no longer hidden from blue,
    # but bo does not see her, so blue's log and view say nothing of her until he does.
    units = [UnitSpec("ada", "red", (4, 3, 0), hidden=True), UnitSpec("bo", "blue", (5, 10, 0))]
    b: Battle = make_battle(units, GAP, initiative=(15, 5))
    assert b.apply(cmd.Reveal("ada", ("blue",)), GM).accepted
    assert "blue" not in b.world.get("ada", Visibility).hidden_from
    assert not any(e.kind == "revealed" for e in view_for(b, "blue").log)
    assert "ada" not in json.dumps(player_view(b, "blue"), default=str)
