"""Tests for game.rules.initiative: order, ties, rounds, surprise, newcomers (P-INIT-1..7)."""

from __future__ import annotations

import json
from collections.abc import Sequence

import pytest
from hypothesis import given
from hypothesis import strategies as st

from game.rules.dice import Roller
from game.rules.initiative import (
    Combatant,
    Initiative,
    InitiativeEntry,
    InitiativeError,
    TieScope,
    default_tie_break,
    order_from_rolls,
)


def fighter(
    entity_id: str,
    faction: str = "crew",
    bonus: int = 0,
    *,
    hidden: bool = False,
    surprised: bool = False,
) -> Combatant:
    return Combatant(entity_id, faction, bonus, hidden=hidden, surprised=surprised)


def start(faces: Sequence[int], *combatants: Combatant, roller: Roller | None = None) -> Initiative:
    """Start with the given d20 faces, one per combatant in listing order."""
    roller = roller or Roller(0)
    roller.supply(*faces)
    return Initiative.start(roller, combatants)


def ids(entries: Sequence[InitiativeEntry]) -> list[str]:
    return [entry.entity_id for entry in entries]


def walk(initiative: Initiative, turns: int) -> list[tuple[int, str | None]]:
    """The (round, entity) of the next `turns` turns."""
    seen = []
    for _ in range(turns):
        active = initiative.advance()
        seen.append((initiative.round, active))
    return seen


def rolled(roller: Roller, *faces: int) -> Roller:
    roller.supply(*faces)
    return roller


# --- P-INIT-1, P-INIT-3: order and rounds -----------------------------------------------------


def test_p_init_1_order_is_by_descending_total() -> None:
    # ada 10 + 2 = 12, bo 15 + 1 = 16, cy 18 + 0 = 18 -> cy, bo, ada
    initiative = start(
        [10, 15, 18], fighter("ada", bonus=2), fighter("bo", "raiders", 1), fighter("cy")
    )
    order = initiative.visible_order(for_gm=True)
    assert ids(order) == ["cy", "bo", "ada"]
    assert [(entry.natural, entry.total) for entry in order] == [(18, 18), (15, 16), (10, 12)]
    assert [entry.listed for entry in order] == [2, 1, 0]


def test_p_init_1_everyone_rolls_a_logged_initiative_check_with_their_bonus() -> None:
    roller = Roller(0)
    start([10, 15], fighter("ada", bonus=2), fighter("bo", bonus=-1), roller=roller)
    assert [record.purpose for record in roller.log] == ["initiative ada", "initiative bo"]
    # 10 + 2 = 12, 15 - 1 = 14
    assert [record.total for record in roller.log] == [12, 14]


def test_p_init_1_nobody_is_active_before_the_first_advance() -> None:
    initiative = start([10], fighter("ada"))
    assert (initiative.round, initiative.active) == (1, None)


def test_p_init_3_order_is_kept_round_after_round() -> None:
    # ada 12, bo 16, cy 18 as above
    initiative = start(
        [10, 15, 18], fighter("ada", bonus=2), fighter("bo", "raiders", 1), fighter("cy")
    )
    assert walk(initiative, 7) == [
        (1, "cy"),
        (1, "bo"),
        (1, "ada"),
        (2, "cy"),
        (2, "bo"),
        (2, "ada"),
        (3, "cy"),
    ]
    assert initiative.active == "cy"


def test_p_init_3_gm_restart_rerolls_everyone_and_begins_a_new_round() -> None:
    roller = Roller(0)
    # ada 15, bo 10 -> ada, bo
    initiative = start([15, 10], fighter("ada"), fighter("bo"), roller=roller)
    assert walk(initiative, 1) == [(1, "ada")]
    # re-roll: ada 3, bo 17 -> bo, ada; the rest of round 1 (bo's turn) is dropped
    initiative.restart(rolled(roller, 3, 17))
    assert (initiative.round, initiative.active) == (2, None)
    assert walk(initiative, 3) == [(2, "bo"), (2, "ada"), (3, "bo")]


def test_p_init_3_restart_before_any_turn_stays_in_the_same_round() -> None:
    roller = Roller(0)
    initiative = start([15, 10], fighter("ada"), fighter("bo"), roller=roller)
    # re-roll: ada 3, bo 17 -> bo, ada
    initiative.restart(rolled(roller, 3, 17))
    assert walk(initiative, 2) == [(1, "bo"), (1, "ada")]


# --- P-INIT-2: ties ----------------------------------------------------------------------------


def test_p_init_2_default_tie_inside_a_faction_goes_to_the_higher_bonus() -> None:
    # ada 11 + 1 = 12, cy 9 + 3 = 12: tie, cy has the higher bonus
    initiative = start([11, 9], fighter("ada", bonus=1), fighter("cy", bonus=3))
    assert ids(initiative.visible_order(for_gm=True)) == ["cy", "ada"]


def test_p_init_2_default_tie_across_factions_with_equal_bonus_keeps_the_listing_order() -> None:
    # bo 10 + 2 = 12, ada 10 + 2 = 12; same bonus: bo was listed first
    initiative = start([10, 10], fighter("bo", "raiders", 2), fighter("ada", "crew", 2))
    assert ids(initiative.visible_order(for_gm=True)) == ["bo", "ada"]


def test_p_init_2_faction_player_orders_its_own_ties_then_the_gm_orders_across_factions() -> None:
    calls: list[tuple[TieScope, list[str]]] = []

    def table(tied: Sequence[InitiativeEntry], scope: TieScope) -> list[InitiativeEntry]:
        calls.append((scope, ids(tied)))
        if scope == "faction":
            return list(reversed(tied))  # the crew's player puts a2 before a1
        # the GM: raiders first, then the crew; the order inside the crew is not the GM's call
        return sorted(tied, key=lambda entry: entry.combatant.faction != "raiders")

    roller = Roller(0)
    roller.supply(10, 10, 10, 5)
    # a1, a2, r1 all 10 + 1 = 11; z 5 + 0 = 5 is not tied
    initiative = Initiative.start(
        roller,
        [fighter("a1", bonus=1), fighter("a2", bonus=1), fighter("r1", "raiders", 1), fighter("z")],
        tie_break=table,
    )
    assert calls == [("faction", ["a1", "a2"]), ("gm", ["a2", "a1", "r1"])]
    assert ids(initiative.visible_order(for_gm=True)) == ["r1", "a2", "a1", "z"]


def test_p_init_2_gm_answer_decides_only_which_faction_takes_each_place() -> None:
    def table(tied: Sequence[InitiativeEntry], scope: TieScope) -> list[InitiativeEntry]:
        by_id = {entry.entity_id: entry for entry in tied}
        if scope == "faction":
            return [by_id["a2"], by_id["a1"]]
        # the GM lists a1 before a2, against the crew's choice: only the factions count
        return [by_id["a1"], by_id["r1"], by_id["a2"]]

    roller = Roller(0)
    roller.supply(10, 10, 10)
    initiative = Initiative.start(
        roller, [fighter("a1"), fighter("a2"), fighter("r1", "raiders")], tie_break=table
    )
    # places: crew, raiders, crew -> a2, r1, a1
    assert ids(initiative.visible_order(for_gm=True)) == ["a2", "r1", "a1"]


def test_p_init_2_a_tie_break_that_loses_an_entry_is_a_clear_error() -> None:
    def broken(tied: Sequence[InitiativeEntry], scope: TieScope) -> list[InitiativeEntry]:
        return list(tied[:1])

    roller = Roller(0)
    roller.supply(10, 10)
    with pytest.raises(InitiativeError, match=r"faction tie-break must return a reordering"):
        Initiative.start(roller, [fighter("ada"), fighter("cy")], tie_break=broken)


def test_p_init_2_a_tie_break_that_repeats_an_entry_is_a_clear_error() -> None:
    def broken(tied: Sequence[InitiativeEntry], scope: TieScope) -> list[InitiativeEntry]:
        return [tied[0], tied[0]]

    roller = Roller(0)
    roller.supply(10, 10)
    with pytest.raises(InitiativeError, match=r"gm tie-break.*\['ada', 'ada'\]"):
        Initiative.start(roller, [fighter("ada"), fighter("bo", "raiders")], tie_break=broken)


def test_p_init_2_tie_break_is_not_asked_without_ties() -> None:
    def never(tied: Sequence[InitiativeEntry], scope: TieScope) -> list[InitiativeEntry]:
        raise AssertionError("asked without a tie")

    roller = Roller(0)
    roller.supply(10, 11)
    initiative = Initiative.start(roller, [fighter("ada"), fighter("bo")], tie_break=never)
    assert ids(initiative.visible_order(for_gm=True)) == ["bo", "ada"]


def test_p_init_2_order_from_rolls_for_the_initiative_query() -> None:
    # ada 10 + 2 = 12, bo 7 + 5 = 12, cy 15 + 0 = 15 -> cy; tie ada/bo: bo has the higher bonus
    order = order_from_rolls(
        [(fighter("ada", bonus=2), 10), (fighter("bo", "raiders", 5), 7), (fighter("cy"), 15)]
    )
    assert ids(order) == ["cy", "bo", "ada"]
    assert [entry.total for entry in order] == [15, 12, 12]
    assert all(entry.record is None for entry in order)


def test_p_init_2_order_from_rolls_equal_bonus_keeps_the_given_order() -> None:
    # all 8 + 1 = 9
    order = order_from_rolls(
        [(fighter("cy", bonus=1), 8), (fighter("ada", "x", 1), 8), (fighter("bo", bonus=1), 8)]
    )
    assert ids(order) == ["cy", "ada", "bo"]


def test_p_init_1_order_from_rolls_rejects_a_roll_that_is_no_d20_result() -> None:
    with pytest.raises(InitiativeError, match=r"21 of 'ada'"):
        order_from_rolls([(fighter("ada"), 21)])


def test_p_init_1_order_from_rolls_rejects_a_duplicate_entity() -> None:
    with pytest.raises(InitiativeError, match=r"'ada'.*twice"):
        order_from_rolls([(fighter("ada"), 3), (fighter("ada"), 4)])


@given(
    rolls=st.lists(
        st.tuples(st.integers(1, 20), st.integers(-3, 8), st.sampled_from(["crew", "raiders"])),
        min_size=1,
        max_size=12,
    )
)
def test_p_init_1_property_order_is_a_permutation_by_descending_total(
    rolls: list[tuple[int, int, str]],
) -> None:
    given_entries = [
        (fighter(f"e{i}", faction, bonus), natural)
        for i, (natural, bonus, faction) in enumerate(rolls)
    ]
    order = order_from_rolls(given_entries)
    assert sorted(ids(order)) == sorted(combatant.entity_id for combatant, _ in given_entries)
    keys = [(-entry.total, -entry.combatant.bonus, entry.listed) for entry in order]
    assert keys == sorted(keys)


# --- P-INIT-4: hidden entities -----------------------------------------------------------------


def test_p_init_4_hidden_entities_roll_and_act_but_only_the_gm_sees_them() -> None:
    roller = Roller(0)
    # ada 12, sly 15, bo 8 -> sly, ada, bo
    initiative = start(
        [12, 15, 8],
        fighter("ada"),
        fighter("sly", "raiders", hidden=True),
        fighter("bo", "raiders"),
        roller=roller,
    )
    assert ids(initiative.visible_order(for_gm=True)) == ["sly", "ada", "bo"]
    assert ids(initiative.visible_order(for_gm=False)) == ["ada", "bo"]
    assert [record.secret for record in roller.log] == [False, True, False]
    assert walk(initiative, 3) == [(1, "sly"), (1, "ada"), (1, "bo")]


def test_p_init_4_a_revealed_entity_shows_its_place_to_everyone() -> None:
    initiative = start([12, 15], fighter("ada"), fighter("sly", "raiders", hidden=True))
    initiative.reveal("sly")
    assert ids(initiative.visible_order(for_gm=False)) == ["sly", "ada"]


def test_p_init_4_revealing_an_unknown_entity_is_an_error() -> None:
    with pytest.raises(InitiativeError, match="'ghost'"):
        start([12], fighter("ada")).reveal("ghost")


# --- P-INIT-5: surprise ------------------------------------------------------------------------


def test_p_init_5_surprised_entity_skips_its_first_turn_and_cannot_react_until_then() -> None:
    # ada 15, bo 12 (surprised), cy 8 -> ada, bo, cy
    initiative = start(
        [15, 12, 8], fighter("ada"), fighter("bo", "raiders", surprised=True), fighter("cy")
    )
    assert initiative.can_react("bo") is False
    assert walk(initiative, 1) == [(1, "ada")]
    assert initiative.can_react("bo") is False
    assert initiative.can_react("ada") is True
    # bo's skipped turn passes when ada's turn ends
    assert walk(initiative, 1) == [(1, "cy")]
    assert initiative.can_react("bo") is True
    assert walk(initiative, 3) == [(2, "ada"), (2, "bo"), (2, "cy")]


def test_p_init_5_when_everyone_is_surprised_round_1_passes_without_turns() -> None:
    # ada 15, bo 12, both surprised
    initiative = start(
        [15, 12], fighter("ada", surprised=True), fighter("bo", "raiders", surprised=True)
    )
    assert walk(initiative, 3) == [(2, "ada"), (2, "bo"), (3, "ada")]


def test_p_init_5_can_react_of_an_unknown_entity_is_an_error() -> None:
    with pytest.raises(InitiativeError, match="'ghost'"):
        start([12], fighter("ada")).can_react("ghost")


# --- P-INIT-6: reinforcements -------------------------------------------------------------------


def test_p_init_6_reinforcements_join_at_the_start_of_the_next_round_and_act_in_it() -> None:
    roller = Roller(0)
    # ada 15, bo 8
    initiative = start([15, 8], fighter("ada"), fighter("bo", "raiders"), roller=roller)
    assert walk(initiative, 1) == [(1, "ada")]
    # rex 10 + 0 = 10: between ada (15) and bo (8), from round 2
    initiative.queue_reinforcements(rolled(roller, 10), [fighter("rex", "raiders")])
    assert ids(initiative.pending) == ["rex"]
    assert ids(initiative.visible_order(for_gm=True)) == ["ada", "bo"]
    assert initiative.can_react("rex") is False
    assert walk(initiative, 1) == [(1, "bo")]
    assert walk(initiative, 3) == [(2, "ada"), (2, "rex"), (2, "bo")]
    assert initiative.pending == ()
    assert ids(initiative.visible_order(for_gm=True)) == ["ada", "rex", "bo"]
    assert initiative.can_react("rex") is True


def test_p_init_6_reinforcements_placed_first_in_the_order_act_first_in_their_round() -> None:
    roller = Roller(0)
    initiative = start([15, 8], fighter("ada"), fighter("bo", "raiders"), roller=roller)
    walk(initiative, 2)
    # rex 18 + 2 = 20 > 15: first of round 2
    initiative.queue_reinforcements(rolled(roller, 18), [fighter("rex", "raiders", 2)])
    assert walk(initiative, 2) == [(2, "rex"), (2, "ada")]


def test_p_init_6_reinforcements_before_the_first_turn_join_round_1_at_once() -> None:
    roller = Roller(0)
    initiative = start([15, 8], fighter("ada"), fighter("bo", "raiders"), roller=roller)
    # rex 10 -> ada, rex, bo
    initiative.queue_reinforcements(rolled(roller, 10), [fighter("rex", "raiders")])
    assert initiative.pending == ()
    assert walk(initiative, 3) == [(1, "ada"), (1, "rex"), (1, "bo")]


def test_p_init_6_reinforcements_arrival_order_breaks_ties_after_the_listed() -> None:
    roller = Roller(0)
    # ada 10, bo 3
    initiative = start([10, 3], fighter("ada"), fighter("bo"), roller=roller)
    walk(initiative, 1)
    # rex 10 + 0 = 10 ties ada, same faction, same bonus: ada was listed first
    initiative.queue_reinforcements(rolled(roller, 10), [fighter("rex")])
    assert walk(initiative, 3) == [(1, "bo"), (2, "ada"), (2, "rex")]
    assert [entry.listed for entry in initiative.visible_order(for_gm=True)] == [0, 2, 1]


def test_p_init_6_a_reinforcement_with_a_taken_id_is_an_error() -> None:
    roller = Roller(0)
    initiative = start([15], fighter("ada"), roller=roller)
    with pytest.raises(InitiativeError, match=r"'ada'.*twice"):
        initiative.queue_reinforcements(rolled(roller, 5), [fighter("ada")])


# --- P-INIT-7: discovered entities --------------------------------------------------------------


def three_in_a_row(roller: Roller) -> Initiative:
    """ada 15, bo 10, cy 5, all +0."""
    return start(
        [15, 10, 5], fighter("ada"), fighter("bo", "raiders"), fighter("cy"), roller=roller
    )


def test_p_init_7_discovered_before_the_active_place_acts_from_the_next_round() -> None:
    roller = Roller(0)
    initiative = three_in_a_row(roller)
    assert walk(initiative, 2) == [(1, "ada"), (1, "bo")]
    # dex 12 + 0 = 12: between ada (15) and bo (10), the active one
    initiative.discover(rolled(roller, 12), fighter("dex", "raiders"))
    assert initiative.active == "bo"
    assert ids(initiative.visible_order(for_gm=True)) == ["ada", "dex", "bo", "cy"]
    assert walk(initiative, 5) == [(1, "cy"), (2, "ada"), (2, "dex"), (2, "bo"), (2, "cy")]


def test_p_init_7_discovered_after_the_active_place_acts_this_round() -> None:
    roller = Roller(0)
    initiative = three_in_a_row(roller)
    walk(initiative, 2)
    # eve 7 + 0 = 7: between bo (10, active) and cy (5)
    initiative.discover(rolled(roller, 7), fighter("eve", "raiders"))
    assert (initiative.round, initiative.active) == (1, "bo")
    assert walk(initiative, 3) == [(1, "eve"), (1, "cy"), (2, "ada")]


def test_p_init_7_discovered_tied_with_the_active_entity_follows_the_tie_break() -> None:
    roller = Roller(0)
    initiative = three_in_a_row(roller)
    walk(initiative, 2)
    # dex 7 + 3 = 10 ties bo (10 + 0); across factions, default: higher bonus first -> dex, bo
    initiative.discover(rolled(roller, 7), fighter("dex", "crew", 3))
    assert ids(initiative.visible_order(for_gm=True)) == ["ada", "dex", "bo", "cy"]
    assert walk(initiative, 3) == [(1, "cy"), (2, "ada"), (2, "dex")]


def test_p_init_7_discovered_and_surprised_skips_its_first_turn() -> None:
    roller = Roller(0)
    initiative = three_in_a_row(roller)
    walk(initiative, 1)
    # eve 7: after ada (active); surprised, so its turn in round 1 is skipped
    initiative.discover(rolled(roller, 7), fighter("eve", "raiders", surprised=True))
    assert initiative.can_react("eve") is False
    assert walk(initiative, 3) == [(1, "bo"), (1, "cy"), (2, "ada")]
    assert initiative.can_react("eve") is True
    assert walk(initiative, 3) == [(2, "bo"), (2, "eve"), (2, "cy")]


def test_p_init_3_newcomers_never_reorder_entities_already_in_the_order() -> None:
    answers = iter(
        [
            ["a2", "a1"],  # at the start the crew's player puts a2 first
            ["a1", "a3", "a2"],  # later the answer would swap a1 and a2: only a3's place counts
        ]
    )

    def table(tied: Sequence[InitiativeEntry], scope: TieScope) -> list[InitiativeEntry]:
        by_id = {entry.entity_id: entry for entry in tied}
        return [by_id[entity_id] for entity_id in next(answers)]

    roller = Roller(0)
    roller.supply(10, 10)
    initiative = Initiative.start(roller, [fighter("a1"), fighter("a2")], tie_break=table)
    # a3 10 + 0 = 10 ties both; its place is the middle one
    initiative.discover(rolled(roller, 10), fighter("a3"))
    assert ids(initiative.visible_order(for_gm=True)) == ["a2", "a3", "a1"]


# --- removal, state ------------------------------------------------------------------------------


def test_remove_the_active_entity_ends_its_turn_and_the_round_goes_on() -> None:
    roller = Roller(0)
    initiative = three_in_a_row(roller)
    walk(initiative, 2)
    initiative.remove("bo")
    assert initiative.active is None
    assert walk(initiative, 3) == [(1, "cy"), (2, "ada"), (2, "cy")]


def test_remove_an_entity_that_already_acted_keeps_the_turn_in_place() -> None:
    roller = Roller(0)
    initiative = three_in_a_row(roller)
    walk(initiative, 2)
    initiative.remove("ada")
    assert initiative.active == "bo"
    assert walk(initiative, 2) == [(1, "cy"), (2, "bo")]


def test_remove_a_waiting_reinforcement() -> None:
    roller = Roller(0)
    initiative = three_in_a_row(roller)
    walk(initiative, 1)
    initiative.queue_reinforcements(rolled(roller, 20), [fighter("rex")])
    initiative.remove("rex")
    assert walk(initiative, 3) == [(1, "bo"), (1, "cy"), (2, "ada")]


def test_when_everyone_is_removed_advance_returns_none() -> None:
    initiative = start([15], fighter("ada"))
    initiative.advance()
    initiative.remove("ada")
    assert initiative.advance() is None
    assert initiative.round == 1


def test_remove_an_unknown_entity_is_an_error() -> None:
    with pytest.raises(InitiativeError, match="'ghost'"):
        start([15], fighter("ada")).remove("ghost")


def test_start_without_combatants_is_an_error() -> None:
    with pytest.raises(InitiativeError, match="at least one"):
        Initiative.start(Roller(0), [])


def test_start_with_a_duplicate_entity_is_an_error() -> None:
    with pytest.raises(InitiativeError, match=r"'ada'.*twice"):
        start([1, 2], fighter("ada"), fighter("ada", "raiders"))


def test_p_init_5_p_init_6_state_survives_a_json_round_trip_mid_round() -> None:
    roller = Roller(0)
    initiative = start(
        [15, 10, 5],
        fighter("ada"),
        fighter("bo", "raiders", surprised=True),
        fighter("sly", "raiders", hidden=True),
        roller=roller,
    )
    walk(initiative, 1)
    initiative.queue_reinforcements(rolled(roller, 12), [fighter("rex", "raiders")])
    restored = Initiative.from_dict(json.loads(json.dumps(initiative.to_dict())))
    assert restored.to_dict() == initiative.to_dict()
    assert restored.visible_order(for_gm=True) == initiative.visible_order(for_gm=True)
    assert restored.can_react("bo") is False
    # bo skipped, then sly; round 2: ada, rex, bo, sly
    expected = [(1, "sly"), (2, "ada"), (2, "rex"), (2, "bo"), (2, "sly")]
    assert walk(restored, 5) == expected
    assert walk(initiative, 5) == expected


def test_from_dict_with_a_missing_field_names_it() -> None:
    data = start([15], fighter("ada")).to_dict()
    del data["reached"]
    with pytest.raises(InitiativeError, match="reached"):
        Initiative.from_dict(data)


def test_from_dict_with_an_active_entity_out_of_place_is_an_error() -> None:
    initiative = start([15, 10], fighter("ada"), fighter("bo"))
    initiative.advance()
    data = initiative.to_dict()
    data["active"] = "bo"
    with pytest.raises(InitiativeError, match="'bo' out of place"):
        Initiative.from_dict(data)


def test_from_dict_with_an_unsorted_order_is_an_error() -> None:
    data = start([15, 10], fighter("ada"), fighter("bo")).to_dict()
    data["order"].reverse()
    with pytest.raises(InitiativeError, match="descending total"):
        Initiative.from_dict(data)


def test_default_tie_break_ignores_the_scope() -> None:
    order = order_from_rolls([(fighter("ada"), 5), (fighter("bo", bonus=2), 3)])
    assert default_tie_break(order, "gm") == default_tie_break(order, "faction")
