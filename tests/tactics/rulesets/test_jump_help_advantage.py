"""Jumps, help, advantage and the computer's first aid asked of each ruleset (issue 15,
game/tactics/ruleset.py BattleRules.can_jump, roll_leap, can_help, advantage, aid_wanted):
seed 001's answers are its rules (P-JUMP-1..3, P-CHK-2, P-HEAL-1); no other seed has jumps,
help or advantage (docs/rules.md, "Jumps, help and advantage under each ruleset")."""

from __future__ import annotations

from pathlib import Path

import pytest

from game.rules import checknames
from game.rules.dice import Advantage, Roller
from game.rules.ruleset_answers import NOT_OFFERED
from game.scenario.parse import parse_scenario
from game.tactics.battlefield import Battlefield
from game.tactics.ruleset import battle_rules, playable_ids
from game.tactics.rulesets.cepheus_battle import BATTLE as CEPHEUS
from tests.tactics.rulesets.cepheus_fields import plain_field

OTHERS = tuple(r for r in playable_ids() if r != "periferie")


def _periferie(*entities: dict[str, object]) -> Battlefield:
    bf, _ = parse_scenario({"map": {"size": [6, 6, 1]}, "entities": list(entities)}, Path.cwd())
    return bf


# ---------------------------------------------------------------- periferie: as before


def test_p_chk_2_help_gives_advantage_a_dodging_target_or_a_shared_cell_disadvantage_both_cancel():
    # P-CHK-2: "Both at once cancel"; P-MOV-8: "Tutte le azioni svolte dalle entità nella
    # stessa casella sono svolte con svantaggio".
    rules = battle_rules("periferie")
    assert rules.advantage(helped=False, dodging=False, crowded=False) is Advantage.NONE
    assert rules.advantage(helped=True, dodging=False, crowded=False) is Advantage.ADVANTAGE
    assert rules.advantage(helped=False, dodging=True, crowded=False) is Advantage.DISADVANTAGE
    assert rules.advantage(helped=False, dodging=False, crowded=True) is Advantage.DISADVANTAGE
    assert rules.advantage(helped=True, dodging=True, crowded=True) is Advantage.NONE


def test_p_jump_1_periferies_leap_check_is_a_d20_plus_athletics_against_the_dc() -> None:
    # P-JUMP-1: a `gravità muscolare (atletica)` check (P-CHK-1: d20 + bonus, meeting the DC
    # succeeds): a face of 9 + the bonus 2 = 11 meets DC 11; with advantage (P-CHK-2) the
    # better of 3 and 12 is kept: 14.
    bf = _periferie(
        {"id": "ada", "faction": "blue", "at": [1, 1, 0], "checks": {checknames.ATHLETICS: 2}}
    )
    rules = battle_rules("periferie")
    assert rules.can_jump(bf, bf.entity("ada")) is None
    roller = Roller(1)
    roller.supply(9)
    record = rules.roll_leap(roller, bf, bf.entity("ada"), 11, Advantage.NONE, "jump ada")
    assert (record.total, record.outcome, record.purpose) == (11, "success", "jump ada")
    roller.supply(3, 12)
    record = rules.roll_leap(roller, bf, bf.entity("ada"), 15, Advantage.ADVANTAGE, "drop ada")
    assert (record.total, record.outcome) == (14, "failure")


def test_p_chk_2_periferie_offers_help_and_p_heal_1_its_computer_treats_only_a_dying_ally() -> None:
    # P-HEAL-1/P-DEATH-1: a mortal wound not yet stabilised is dying, the wound the medkit
    # treats; a grave wound is not the computer's first care.
    bf = _periferie(
        {"id": "ada", "faction": "blue", "at": [1, 1, 0]},
        {"id": "bo", "faction": "blue", "at": [2, 1, 0], "wounds": {"mortal": 1}},
        {"id": "cy", "faction": "blue", "at": [3, 1, 0], "wounds": {"grave": 1}},
    )
    rules = battle_rules("periferie")
    assert rules.can_help(bf, bf.entity("ada")) is None
    assert rules.aid_wanted(bf, bf.entity("bo")) == "mortal"
    assert rules.aid_wanted(bf, bf.entity("cy")) is None
    assert rules.aid_wanted(bf, bf.entity("ada")) is None


# ---------------------------------------------------------------- the other rulesets


@pytest.mark.parametrize("ruleset_id", OTHERS)
def test_no_other_seed_has_jumps_help_or_advantage_so_each_is_not_offered(ruleset_id: str) -> None:
    # 000: Atletica only for thrown attacks (l.134, 353), Tactics an initiative bonus at the
    # start of combat (l.66, 347); 004: "aiutare" only of flanking (l.102, D-1), no aid
    # another in D-2's base; 002: Atletica only for falls from a horse (l.158); 003: nothing.
    rules = battle_rules(ruleset_id)
    bf = plain_field({"id": "g", "faction": "blue", "at": [1, 1, 0]})  # any field will do
    assert rules.can_jump(bf, bf.entity("g")) == NOT_OFFERED
    assert rules.can_help(bf, bf.entity("g")) == NOT_OFFERED
    assert rules.advantage(helped=True, dodging=False, crowded=False) is Advantage.NONE
    assert rules.advantage(helped=False, dodging=True, crowded=True) is Advantage.NONE
    with pytest.raises(ValueError, match="no jumps"):
        rules.roll_leap(Roller(1), bf, bf.entity("g"), 10, Advantage.NONE, "jump g")
    assert "help" in rules.turn_budget().commands  # listed only to be greyed on the bar


def test_c4_a_cepheus_move_has_no_jump_mode_only_its_4_cells_a_minor_action() -> None:
    # C-4: 4 cells a minor action of movement; seed 000 has no jump rule, so no jump budget
    # (no drop off an edge either) and a request in mode jump walks.
    bf = plain_field({"id": "g", "faction": "blue", "at": [1, 1, 0]})
    for mode in (None, "jump"):
        request, allowance = CEPHEUS.move_request(
            bf, bf.entity("g"), mode, dash=False, stealth=False
        )
        assert dict(request.budgets) == {"walk": 4, "swim": 4, "climb": 4}
        assert dict(allowance.budgets) == {"walk": 4, "swim": 4, "climb": 4}
        assert request.mode == "walk"


def _cepheus_ally(chars: dict[str, int]) -> Battlefield:
    sheet = {"chars": chars, "max": {"str": 7, "dex": 7, "end": 7}, "weapon": "pugni"}
    return plain_field({"id": "c", "faction": "blue", "at": [1, 1, 0], "sheet": sheet})


def test_000_l398_the_cepheus_computer_gives_first_aid_to_a_seriously_wounded_ally_only():
    # 000:l.363-368: "Almeno una caratteristica danneggiata: ferito; tutte e tre danneggiate:
    # gravemente ferito; 2 caratteristiche a zero: privo di sensi; 3: morto". First aid
    # (l.398) goes where periferie's goes to a dying ally: to the worst state it can still
    # treat back into the fight; a merely wounded one fights on, an unconscious one wakes
    # only after minutes (l.380), a dead one is past it.
    def wanted(end: int, str_: int, dex: int) -> str | None:
        bf = _cepheus_ally({"end": end, "str": str_, "dex": dex})
        return CEPHEUS.aid_wanted(bf, bf.entity("c"))

    assert wanted(7, 7, 7) is None  # uninjured
    assert wanted(0, 5, 7) is None  # wounded: END and STR damaged
    assert wanted(0, 5, 3) == "seriously_wounded"  # all three damaged
    assert wanted(0, 0, 3) is None  # unconscious, two at 0: out of the fight (l.380)
    assert wanted(0, 0, 0) is None  # dead
