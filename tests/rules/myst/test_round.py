"""Myst's battle state within a turn and a round (game/rules/myst/round.py): the charge's run-up
(002:l.187-193), the second defence's -20 (M-2's base) and the defence margin's "cancel the
-20" (002:l.77); the sheet's two-handed grip (002:l.232-238); a closed defence (002:l.81-83,
137) and the answer to a counterattack as a defence (002:l.91). Numbers worked out by hand."""

from __future__ import annotations

from dataclasses import replace

import pytest

from game.ecs.components import sheet_from_json, sheet_to_json
from game.rules.myst import combat
from game.rules.myst import round as state
from game.rules.myst.data import MystDataError, Sheet, load, read_sheet


def _sheet(**changes: object) -> Sheet:
    data = load()
    return read_sheet(dict(changes), "here", data.defaults, data.weapons, data.samples)


def test_m1_a_run_up_of_5_metres_is_4_cells_of_the_1_5_metre_grid() -> None:
    # 002:l.189 "una rincorsa di almeno 5 metri"; G-4: metres = cells x 1.5. Three cells are
    # 4.5 m (short), four are 6 m.
    assert state.run_up_cells(load()) == 4
    assert not combat.charge_run_up_ok(load(), 3, state.CELL_METRES)


@pytest.mark.parametrize(
    ("run_up", "weapon", "mounted", "charging"),
    [
        (4, "spada", False, True),  # 6 m on foot with a melee weapon: a charge
        (9, "spada", False, True),
        (3, "spada", False, False),  # 4.5 m: too short
        (0, "spada", False, False),
        (4, "arco", False, False),  # "un colpo ... inferto": a melee blow, not a shot
        (4, "spada", True, False),  # mounted: the gallop's rules (002:l.140-145), not on foot
    ],
)
def test_m1_a_charge_on_foot_is_a_melee_blow_after_4_cells_walked_this_turn(
    run_up: int, weapon: str, mounted: bool, charging: bool
) -> None:
    sheet = replace(_sheet(weapon=weapon, mounted=mounted), run_up=run_up)
    assert state.charging(load(), sheet) is charging
    assert state.situation(load(), sheet, _sheet()).charge is charging


def test_m1_each_cell_walked_counts_and_a_new_turn_starts_from_none() -> None:
    sheet = _sheet()
    for _ in range(4):
        sheet = state.walked(sheet)
    assert sheet.run_up == 4
    assert state.turn_begins(sheet).run_up == 0
    fresh = _sheet()
    assert state.turn_begins(fresh) is fresh  # nothing to change: the same value


def test_m2_the_second_defence_in_a_round_takes_20_and_a_cancelled_one_does_not() -> None:
    first = _sheet()
    assert not state.second_defence(first) and not state.penalty_cancelled(first)
    once = state.defended(first)
    assert once.defences == 1 and state.second_defence(once)
    # 002:l.77: "Annullare la penalità di -20 al Tiro per la prossima Manovra di Difesa
    # all'interno dello stesso Round".
    cancelled = state.after_counter_moves(once, ("counterattack", "cancel_penalty"))
    assert cancelled is not None and cancelled.cancel_penalty
    assert not state.second_defence(cancelled) and state.penalty_cancelled(cancelled)
    # The cancelled -20 is that one defence's: the third takes it again.
    twice = state.defended(cancelled)
    assert twice.defences == 2 and not twice.cancel_penalty and state.second_defence(twice)
    assert state.after_counter_moves(once, ("counterattack", "priority")) is None


def test_m2_a_new_round_forgets_its_defences_and_a_cancel_not_used() -> None:
    used = replace(_sheet(), defences=3, cancel_penalty=True)
    after = state.round_begins(used)
    assert (after.defences, after.cancel_penalty) == (0, False)
    fresh = _sheet()
    assert state.round_begins(fresh) is fresh


def test_m1_the_exchange_of_a_second_defence_is_20_lower_for_the_defender() -> None:
    # M-2's base (RULESETS.md "-20 second defence"): defence 40 - 20 = 20.
    data = load()
    target = state.defended(_sheet(defence=40))
    done = combat.exchange(data, _sheet(attack=40), target, state.situation(data, _sheet(), target))
    assert (done.attack, done.defence) == (40, 20)


def test_m1_a_sheet_may_hold_a_one_handed_weapon_in_two_hands_for_a_strength_cap_plus_1() -> None:
    # 002:l.238: Strength 35 allows +1 with a sword; "impugnando l'arma a 2 mani, il bonus
    # massimo che potrà applicare aumenterà di 1 e diventerà quindi pari a +2".
    data = load()
    devon = _sheet(strength=35, weapon="spada", two_handed=True)
    assert devon.two_handed
    cap, _notes = combat.strength_cap(data, 35, two_handed=True, charge=False, gallop=False)
    assert cap == 2
    assert state.situation(data, devon, _sheet()).two_handed


@pytest.mark.parametrize(
    ("sheet", "problem"),
    [
        ({"weapon": "pugnale"}, "cannot be held in two hands"),  # 002:l.235: not daggers
        ({"weapon": "ascia_bipenne"}, "is a two-handed weapon already"),
        ({"sample": "soldato"}, "leave none for a shield"),  # soldato's shield 10
    ],
)
def test_a_two_handed_grip_is_refused_by_name_where_the_weapon_or_a_shield_forbids_it(
    sheet: dict[str, object], problem: str
) -> None:
    with pytest.raises(MystDataError, match=rf"here\.two_handed: .*{problem}"):
        _sheet(**sheet, two_handed=True)


def test_the_battle_state_of_a_sheet_is_written_only_when_it_is_not_at_its_default() -> None:
    # A sheet as the battle stored it before the charge and the round's defences existed
    # writes the same JSON (so older journals' state hashes stand until one of them changes).
    plain = sheet_to_json(_sheet())
    assert not {"two_handed", "run_up", "defences", "cancel_penalty", "closed_defence"} & set(
        plain["fields"]
    )
    used = replace(_sheet(), run_up=4, defences=1, cancel_penalty=True)
    written = sheet_to_json(used)
    assert {k: written["fields"][k] for k in ("run_up", "defences", "cancel_penalty")} == {
        "run_up": 4,
        "defences": 1,
        "cancel_penalty": True,
    }
    assert sheet_from_json(written) == used and sheet_from_json(plain) == _sheet()


def test_m1_closing_into_defence_lasts_until_the_fighters_next_turn_begins() -> None:
    # 002:l.137 "chiudersi in difesa rinunciando alla propria azione": the action given up is
    # this turn's, so the closed defence holds until the next one begins, across a new round.
    fresh = _sheet()
    closed = state.closed(fresh)
    assert closed.closed_defence and state.closed(closed) is closed
    assert state.round_begins(state.defended(closed)).closed_defence
    assert not state.turn_begins(closed).closed_defence
    assert state.situation(load(), _sheet(), closed).closed_defence
    assert not state.situation(load(), _sheet(), fresh).closed_defence


def test_m1_a_closed_defence_is_10_higher_and_a_second_one_still_takes_20() -> None:
    # The base's +10 (assumed, rules.toml `closed_defence_bonus`): defence 40 + 10 = 50; as
    # a second defence of the round (M-2) 40 + 10 - 20 = 30. Attack 40 against 50: 3d10 - 3d10
    # must be at least 11.
    data = load()
    target = state.closed(_sheet(defence=40))
    done = combat.exchange(data, _sheet(attack=40), target, state.situation(data, _sheet(), target))
    assert (done.attack, done.defence) == (40, 50)
    assert [(m.code, m.value) for m in done.modifiers] == [("closed_defence", -10)]
    again = state.defended(target)
    done = combat.exchange(data, _sheet(attack=40), again, state.situation(data, _sheet(), again))
    assert (done.attack, done.defence) == (40, 30)


def test_m2_the_answer_to_a_counterattack_is_one_more_defence_of_the_round() -> None:
    # 002:l.91 "che può rispondere con un tiro di Corpo a Corpo a sua volta": the countered
    # attacker's Defence Manoeuvre. Its first answer: nothing logged, one defence counted;
    # a second: "second_defence" (-20); a second whose -20 a margin cancelled (002:l.77).
    first = _sheet()
    assert state.counter_logged(first) == {}
    assert state.countered(first).defences == 1
    once = state.countered(first)
    assert state.counter_logged(once) == {"counter_situation": ["second_defence"]}
    spared = replace(once, cancel_penalty=True)
    assert state.counter_logged(spared) == {"counter_situation": ["penalty_cancelled"]}
    after = state.countered(spared)
    assert (after.defences, after.cancel_penalty) == (2, False)
