"""Soak test of battles that end: hundreds of seeded computer-against-computer battles on small
maps, each played to its end under a hard cap, and the shipped maps' seeds that once never ended.

What is tested: that every battle the computer plays ends — by a side winning or by the
stalemate rule (docs/battle.md, "Battles that end") — within MAX_ROUNDS rounds, a cap well past
the latest a stalemate can come, so that a regression fails instead of hanging; that the
computer's every command is accepted; and, so that the test can fail both ways, that most battles
on maps where the sides can reach each other are won, while two sides walled apart always end in
a stalemate. `TESSERA_SOAK_BATTLES` sets how many small battles are played (default 240: about
half a minute on one core).
"""

from __future__ import annotations

import os
import random
from collections import Counter
from pathlib import Path

import pytest

from game.battle.ai import choose
from game.battle.engine import STALEMATE_ROUNDS, Battle
from game.battle.session import Session
from game.battle.setup import BattleSetup, UnitSpec, setup_from_map
from game.maps import load_map
from game.rules.data import load_rules
from tests.battle.conftest import ascii_grid

MAPS = Path(__file__).resolve().parents[2] / "maps"
#: No battle here runs this long unless it fails to end: a stalemate comes 10 quiet rounds after
#: the last contact, and the small battles' fights are over well within 30 rounds.
MAX_ROUNDS = 60
BATTLES = int(os.environ.get("TESSERA_SOAK_BATTLES", "240"))

#: Small maps ('.' open, 'h' half obstacle, '#' full, as tests/battle/conftest.py draws them);
#: red starts in the left third, blue in the right third.
LAYOUTS = {
    "hall": """
        ..............
        ..h.....#.....
        ..h.....#..h..
        ..............
        .....h........
        ..#......h....
        ..#.......##..
        ..............
        """,
    "two_rooms": """
        ......#.......
        ......#.......
        ..h...#...h...
        ..............
        ......#.......
        ......#.......
        ..h...#...h...
        ......#.......
        """,
    "corridors": """
        ....#.....#...
        ....#.##..#...
        ....#..#......
        .......#..#...
        ###.####..###.
        ..........#...
        ....#.....#...
        ....#..h......
        """,
    # No way and no line of sight between the two halves: only the stalemate can end it.
    "walled_apart": """
        ......#.......
        ......#.......
        ..h...#...h...
        ......#.......
        ......#.......
        ......#.......
        ..h...#...h...
        ......#.......
        """,
}
#: A unit's weapon (None: the plain human template, which has none) and template.
ARMS = [
    ("pistol", "human"),
    ("smg", "human"),
    ("carbine", "human"),
    ("shotgun", "human"),
    ("combat_knife", "human"),
    ("stun_baton", "human"),
    (None, "station_guard"),  # the template's pistol and vest
    (None, "scavenger"),  # the template's knife, stealthy
    (None, "human"),  # no weapon at all
]


def small_battle(seed: int) -> tuple[str, Battle]:
    """A seeded small battle: a layout, two or three units a side with seeded arms and cells,
    now and then one placed hidden."""
    draw = random.Random(seed)
    name = sorted(LAYOUTS)[seed % len(LAYOUTS)]
    grid = ascii_grid(LAYOUTS[name])
    width = grid.shape[0]
    cells = [
        (x, y, 0) for x in range(width) for y in range(grid.shape[1]) if grid.standable[x, y, 0]
    ]
    units = []
    for faction, xs in (("red", range(0, width // 3)), ("blue", range(width - width // 3, width))):
        spots = draw.sample([c for c in cells if c[0] in xs], draw.randint(2, 3))
        for i, cell in enumerate(spots):
            weapon, template = draw.choice(ARMS)
            units.append(
                UnitSpec(
                    f"{faction}{i}",
                    faction,
                    cell,
                    template=template,
                    weapon=weapon,
                    hidden=draw.random() < 0.1,
                )
            )
    setup = BattleSetup(
        map_path="<soak>",
        map_sha256="",
        seed=seed,
        units=tuple(units),
        computer=("blue", "red"),
    )
    return name, Battle(setup, grid, load_rules())


def play_to_the_end(b: Battle, where: str) -> None:
    """The computer plays every side until the combat is over; every command must be accepted."""
    while not b.over:
        assert b.round <= MAX_ROUNDS, f"{where}: no end after {MAX_ROUNDS} rounds"
        actor = b.pending.reactor if b.pending is not None else b.active
        assert actor is not None, f"{where}: nobody to act and the battle goes on"
        command = choose(b, actor)
        outcome = b.apply(command, b.controller_of_unit(actor))
        assert outcome.accepted, f"{where}: the computer's {command} was refused: {outcome.refusal}"


def ended_by(b: Battle) -> str:
    over = [e for e in b.log if e.kind == "combat_over"]
    assert len(over) == 1
    return "stalemate" if over[0].data.get("because") == "stalemate" else "won"


def test_hundreds_of_small_computer_battles_all_end_most_won_and_walled_apart_in_stalemate() -> (
    None
):
    assert MAX_ROUNDS > 3 * STALEMATE_ROUNDS
    ends: Counter[tuple[str, str]] = Counter()
    for seed in range(BATTLES):
        name, b = small_battle(seed)
        try:
            play_to_the_end(b, f"{name} seed {seed}")
            ends[name, ended_by(b)] += 1
        finally:
            b.close()
    assert sum(ends.values()) == BATTLES
    # Walled apart, nobody can be hurt: every one ends in a stalemate, as round 11 does.
    assert ends["walled_apart", "won"] == 0 and ends["walled_apart", "stalemate"] > 0
    # Where the sides can meet, a stalemate is the exception (a side with no weapon, or one
    # that hides well): most battles are fought to a winner.
    for name in ("hall", "two_rooms", "corridors"):
        won, stalemate = ends[name, "won"], ends[name, "stalemate"]
        assert won >= 4 * stalemate, (name, won, stalemate)


#: Shipped battles that once never ended: the units only ended their turns (issue 13).
NEVER_ENDED = [("hull_breach", 290), ("station_interior", 184), ("station_interior", 339)]
NEVER_ENDED += [("station_interior", 467)]


@pytest.mark.parametrize(("name", "seed"), NEVER_ENDED, ids=[f"{n}-{s}" for n, s in NEVER_ENDED])
def test_the_shipped_battles_that_never_ended_now_end(name: str, seed: int) -> None:
    loaded = load_map(MAPS / f"{name}.tmx")
    factions = tuple(sorted({u.faction for u in loaded.units}))
    session = Session.new(setup_from_map(loaded, seed=seed, computer=factions), None)
    try:
        play_to_the_end(session.battle, f"{name} seed {seed}")
        assert session.battle.over
    finally:
        session.close()
