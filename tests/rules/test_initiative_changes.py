"""Scores that change during a round in the shared order (game/rules/initiative.py): C-1's
dynamic initiative (000:l.73-79, 160, 186) — a change counts for one round only, this one if
the entity has still to act, else the next; delay. A battle that never changes a score keeps
its saved order exactly as before (periferie's journals)."""

from __future__ import annotations

import json

import pytest

from game.rules.dice import Roller
from game.rules.initiative import Combatant, Initiative, InitiativeEntry, InitiativeError


def _order(*scores: tuple[str, int]) -> Initiative:
    """ada, bo, cy... with these d20 faces and no bonus: totals = faces."""
    roller = Roller(0)
    roller.supply(*(face for _, face in scores))
    return Initiative.start(roller, [Combatant(e, "crew", 0) for e, _ in scores])


def _totals(initiative: Initiative) -> list[tuple[str, int]]:
    return [(e.entity_id, e.total) for e in initiative.visible_order(for_gm=True)]


def test_c1_two_reactions_before_acting_lower_this_rounds_score_by_4_then_it_comes_back() -> None:
    # 000:l.160 "Ogni reazione abbassa l'Iniziativa di 2"; l.77 "solo per un round – il round
    # corrente, se dovete ancora agire". cy 9 reacts twice while ada (15) acts: 9 - 4 = 5,
    # below bo's 7; next round 9 again.
    initiative = _order(("ada", 15), ("bo", 7), ("cy", 9))
    assert initiative.advance() == "ada"
    assert initiative.adjust("cy", -2) == 1
    assert initiative.adjust("cy", -2) == 1
    assert _totals(initiative) == [("ada", 15), ("bo", 7), ("cy", 5)]
    assert [initiative.advance(), initiative.advance()] == ["bo", "cy"]
    assert initiative.advance() == "ada" and initiative.round == 2
    assert _totals(initiative) == [("ada", 15), ("cy", 9), ("bo", 7)]


def test_c1_a_reaction_after_acting_counts_in_the_next_round_only() -> None:
    # l.77: "o quello seguente se avete già agito". ada (15) has acted and reacts: round 2
    # 15 - 2 = 13, still first (bo 7); round 3 back to 15.
    initiative = _order(("ada", 15), ("bo", 7))
    initiative.advance()
    initiative.advance()  # bo acts
    assert initiative.adjust("ada", -2) == 2
    assert _totals(initiative) == [("ada", 15), ("bo", 7)]
    initiative.advance()  # round 2
    assert _totals(initiative) == [("ada", 13), ("bo", 7)]
    initiative.advance()
    initiative.advance()  # round 3
    assert _totals(initiative) == [("ada", 15), ("bo", 7)]


def test_c1_hasty_is_plus_2_in_the_next_round_and_may_take_the_lead() -> None:
    # 000:l.79 "+2 alla sua Iniziativa solo per quel round": bo 14 + 2 = 16 passes ada's 15.
    initiative = _order(("ada", 15), ("bo", 14))
    initiative.advance()
    assert initiative.advance() == "bo"
    assert initiative.adjust("bo", 2) == 2
    assert initiative.advance() == "bo" and initiative.round == 2
    assert _totals(initiative) == [("bo", 16), ("ada", 15)]
    initiative.advance()
    assert initiative.advance() == "ada" and initiative.round == 3


def test_l186_delay_acts_after_the_next_one_at_its_score() -> None:
    # 000:l.186: "Può agire in qualsiasi momento successivo durante il round ... la sua
    # Iniziativa è fissata al conteggio in cui ha agito."
    initiative = _order(("ada", 15), ("bo", 9), ("cy", 4))
    assert initiative.advance() == "ada"
    assert initiative.delay("ada") == "bo"
    assert initiative.active is None
    assert _totals(initiative) == [("bo", 9), ("ada", 9), ("cy", 4)]
    assert [initiative.advance(), initiative.advance(), initiative.advance()] == ["bo", "ada", "cy"]


def test_l186_the_last_to_delay_acts_first_next_round_at_the_highest_plus_1() -> None:
    # l.186: "può scegliere di agire per primo nel round successivo ... La sua nuova Iniziativa
    # è considerata superiore di un punto a quella della attuale Iniziativa più alta."
    initiative = _order(("ada", 15), ("bo", 9))
    initiative.advance()
    assert initiative.advance() == "bo"
    assert initiative.delay("bo") is None
    assert initiative.round_over
    assert initiative.advance() == "bo" and initiative.round == 2
    assert _totals(initiative) == [("bo", 16), ("ada", 15)]
    initiative.advance()
    assert initiative.advance() == "bo" and initiative.round == 3  # a lasting score
    with pytest.raises(InitiativeError):
        initiative.delay("ada")  # only the acting entity delays


def test_changes_are_saved_and_a_battle_without_them_saves_as_before() -> None:
    plain = _order(("ada", 15), ("bo", 9))
    plain.advance()
    assert "changes" not in plain.to_dict()  # periferie's snapshots and hashes are unchanged
    plain.adjust("bo", -2)
    plain.adjust("ada", -2)
    saved = json.loads(json.dumps(plain.to_dict()))
    assert saved["changes"] == {"undo": {"bo": 2}, "later": {"ada": -2}, "first_next": []}
    again = Initiative.from_dict(saved)
    assert again.to_dict() == plain.to_dict()
    plain.advance()
    again.advance()
    assert again.to_dict() == plain.to_dict()


def _tied(*entries: tuple[str, int, int]) -> Initiative:
    """(id, total, tie) entries in this order, as Cepheus's opening roll makes them."""
    return Initiative.from_dict(
        {
            "order": [
                InitiativeEntry(Combatant(e, "crew", 0), total, total, i, tie=tie).to_dict()
                for i, (e, total, tie) in enumerate(entries)
            ],
            "pending": [],
            "round": 1,
            "started": False,
            "reached": 0,
            "active": None,
            "skip": [],
            "next_listed": len(entries),
        }
    )


def test_c1_a_tie_break_is_saved_only_when_given_so_other_orders_keep_their_bytes() -> None:
    entry = InitiativeEntry(Combatant("ada", "crew", 0), 8, 8, 0)
    assert "tie" not in entry.to_dict()
    tied = _tied(("ada", 8, 9), ("bo", 8, 7))
    assert [e.tie for e in tied.visible_order(for_gm=True)] == [9, 7]
    again = Initiative.from_dict(json.loads(json.dumps(tied.to_dict())))
    assert [e.tie for e in again.visible_order(for_gm=True)] == [9, 7]


def test_c1_a_lowered_score_goes_after_equal_scores_of_a_higher_dex_only() -> None:
    # 000:l.70 "il personaggio con la Destrezza più alta va per primo": cy (10, DEX 8) reacts
    # to 8 while ada acts; it goes after bo (8, DEX 9) but before dan (8, DEX 7).
    initiative = _tied(("ada", 12, 7), ("cy", 10, 8), ("bo", 8, 9), ("dan", 8, 7))
    assert initiative.advance() == "ada"
    initiative.adjust("cy", -2)
    assert [e.entity_id for e in initiative.visible_order(for_gm=True)] == [
        "ada", "bo", "cy", "dan",
    ]  # fmt: skip


def test_c1_a_new_round_sorts_equal_scores_by_the_higher_dex_again() -> None:
    # ada (8, DEX 9) reacted after acting: 6 in round 2, after bo (8, DEX 7); round 3 both 8
    # again and ada, of the higher DEX, first again (not "as they stood").
    initiative = _tied(("ada", 8, 9), ("bo", 8, 7))
    initiative.advance()
    initiative.advance()
    initiative.adjust("ada", -2)
    initiative.advance()  # round 2
    assert [e.entity_id for e in initiative.visible_order(for_gm=True)] == ["bo", "ada"]
    initiative.advance()
    assert initiative.advance() == "ada" and initiative.round == 3
    assert [e.entity_id for e in initiative.visible_order(for_gm=True)] == ["ada", "bo"]


def test_l186_a_delayed_entry_takes_the_next_ones_score_below_its_tie_break() -> None:
    # Delaying acts after the next one, not with it (C-1's simultaneous ties): its tie-break
    # is one below the followed one's.
    initiative = _tied(("ada", 12, 9), ("bo", 8, 9))
    initiative.advance()
    assert initiative.delay("ada") == "bo"
    assert [(e.entity_id, e.total, e.tie) for e in initiative.visible_order(for_gm=True)] == [
        ("bo", 8, 9),
        ("ada", 8, 8),
    ]
