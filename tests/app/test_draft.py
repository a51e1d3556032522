"""The new battle's draft and what keeps it from starting, without a window (game/app/draft.py)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from game.app.draft import (
    COMPUTER,
    DEMO_MAP,
    MAPS,
    SPLIT,
    Draft,
    battle_setup,
    dice_problems,
    problems,
    shipped_maps,
)
from game.maps import load_map
from game.text.i18n import speaking

# The demo map's units (maps/station_interior.tmx): raiders Kask, Rook, Sable, Wisp (hidden),
# Brann and Tallow (arriving in round 2); station security Bruno (hidden), Ferri and Lang
# (arriving in round 3), Okafor, Vidal, Marchetti.
STARTING = ["Bruno", "Kask", "Rook", "Sable", "Wisp", "Okafor", "Vidal", "Marchetti"]


@pytest.fixture(autouse=True)
def english() -> Iterator[None]:
    with speaking("en"):
        yield


def _demo(*names: str) -> Draft:
    """A draft on the demo map with these players, as the screen makes it."""
    draft = Draft(seed="4242")
    for name in names:
        draft.add_player(name)
    draft.use_map(DEMO_MAP, load_map(DEMO_MAP), None)
    return draft


def test_the_shipped_maps_are_the_repository_s_tmx_files_and_include_the_demo() -> None:
    maps = shipped_maps()
    assert DEMO_MAP in maps and all(p.suffix == ".tmx" for p in maps)


def test_without_a_map_the_only_problem_is_the_map_or_the_error_that_kept_it_from_loading() -> None:
    assert problems(Draft(seed="1")) == {"map": "Choose a map."}
    broken = Draft(seed="1")
    broken.use_map(Path("bad.tmx"), None, "bad.tmx: not a map")
    assert problems(broken) == {"map": "bad.tmx: not a map"}


def test_on_a_map_the_first_player_takes_the_raiders_and_the_computer_the_rest() -> None:
    draft = _demo("Anna")
    assert draft.controllers == {"raiders": "p0", "station_security": COMPUTER}
    assert problems(draft) == {}


def test_a_second_player_takes_the_first_side_the_computer_plays() -> None:
    draft = _demo("Anna")
    bruno = draft.add_playing("Bruno")
    assert draft.controllers == {"raiders": "p0", "station_security": bruno.key}


def test_a_player_who_leaves_gives_their_sides_to_the_computer_and_their_units_to_the_first() -> (
    None
):
    draft = _demo("Anna", "Bruno")
    draft.set_controller("raiders", SPLIT)
    draft.unit_controllers["Rook"] = "p1"
    draft.remove_player("p1")
    assert draft.controllers["station_security"] == COMPUTER
    assert draft.unit_controllers["Rook"] == "p0"


def test_splitting_a_side_hands_its_units_to_the_first_player_and_says_the_rows_change() -> None:
    draft = _demo("Anna")
    assert draft.set_controller("raiders", SPLIT) is True
    assert draft.split_units() == ["Kask", "Rook", "Sable", "Wisp", "Brann", "Tallow"]
    assert set(draft.unit_controllers.values()) == {"p0"}
    assert draft.set_controller("raiders", SPLIT) is False  # no change: no new rows
    assert draft.set_controller("raiders", "p0") is True


@pytest.mark.parametrize(
    ("names", "said"),
    [
        (("Anna", " "), "Every player needs a name."),
        (("Anna", "anna"), "Two players are called Anna."),
        (("Anna", "GM"), "GM is kept for the game; choose another name."),
        (("Anna", "Computer"), "Computer is kept for the game; choose another name."),
    ],
)
def test_players_need_distinct_names_that_the_game_does_not_keep(
    names: tuple[str, ...], said: str
) -> None:
    draft = _demo(*names)
    draft.controllers["station_security"] = "p1"
    assert problems(draft) == {"players": said}


def test_a_player_who_plays_no_side_is_named() -> None:
    draft = _demo("Anna", "Bruno")
    draft.controllers["station_security"] = COMPUTER
    assert problems(draft) == {"players": "Bruno plays no side: give them one or remove them."}


def test_the_computer_may_not_play_every_side_unless_a_gm_sits_at_the_table() -> None:
    draft = _demo()
    assert problems(draft) == {
        "sides": "The computer plays every side: let a person play one, or seat a GM."
    }
    draft.gm = True
    assert problems(draft) == {}


def test_a_split_side_with_a_unit_nobody_plays_is_named() -> None:
    draft = _demo("Anna")
    draft.set_controller("raiders", SPLIT)
    draft.unit_controllers["Sable"] = COMPUTER
    assert problems(draft) == {"sides": "Nobody plays Raiders."}


@pytest.mark.parametrize("seed", ["", "x", "-1", str(2**63), "1.5"])
def test_the_seed_is_a_whole_number_from_0_below_2_to_the_63(seed: str) -> None:
    draft = _demo("Anna")
    draft.seed = seed
    assert problems(draft) == {"seed": "The seed is a whole number."}


def test_the_dice_name_the_first_starting_unit_without_a_d20_face() -> None:
    draft = _demo("Anna")
    draft.dice_mode = True
    assert [u for u, _f, _h in draft.starting_units()] == STARTING
    draft.dice = dict.fromkeys(STARTING, "20")
    assert dice_problems(draft) == {}
    draft.dice["Kask"] = "21"
    assert dice_problems(draft) == {"dice": "Kask: a d20 shows a whole number from 1 to 20."}
    draft.dice["Kask"] = "1"
    draft.dice["Vidal"] = " "
    assert dice_problems(draft) == {"dice": "Vidal: a d20 shows a whole number from 1 to 20."}


def test_players_on_the_map_when_it_is_chosen_take_its_sides_in_turn() -> None:
    assert _demo("Anna", "Bruno").controllers == {"raiders": "p0", "station_security": "p1"}


def test_the_setup_seats_the_players_the_computer_and_the_gm_with_the_dice_in_listing_order() -> (
    None
):
    draft = _demo("Anna", "Bruno", "Cara")
    draft.controllers["station_security"] = "p1"
    draft.set_controller("raiders", SPLIT)
    draft.unit_controllers["Rook"] = "p2"
    draft.gm = True
    draft.dice_mode = True
    draft.dice = {u: str(i + 1) for i, u in enumerate(STARTING)}
    assert problems(draft) == {} and dice_problems(draft) == {}
    setup = battle_setup(draft)
    # A split side belongs to the player of its first unit (Kask: Anna); Rook is Cara's.
    assert setup.players == {"Anna": ("raiders",), "Bruno": ("station_security",), "Cara": ()}
    assert setup.unit_players["Rook"] == "Cara" and setup.unit_players["Kask"] == "Anna"
    assert setup.computer == () and setup.gm is True and setup.seed == 4242
    assert setup.initiative_dice == tuple(range(1, len(STARTING) + 1))
    assert setup.ruleset == "periferie"


def test_choosing_a_map_chooses_its_own_ruleset_which_the_dropdown_then_overrides() -> None:
    # maps/keep_gate.tmx names `ruleset = fantasy`: the new battle plays it as `tessera play`
    # does; the demo's station names none (periferie, the registry's default).
    keep = MAPS / "keep_gate.tmx"
    draft = _demo("Anna")
    assert draft.ruleset == "periferie"
    draft.use_map(keep, load_map(keep), None)
    assert draft.ruleset == "fantasy" and battle_setup(draft).ruleset == "fantasy"
    draft.ruleset = "myst"  # the dropdown, after the map
    assert battle_setup(draft).ruleset == "myst"
    draft.use_map(DEMO_MAP, load_map(DEMO_MAP), None)
    assert draft.ruleset == "periferie"
