"""game/text/explain.py: the one place where structured results become English or Italian text."""

from __future__ import annotations

import re
from collections.abc import Iterator
from enum import StrEnum
from pathlib import Path

import pytest

from game.grid.cover import CoverNote, CoverResult, HiddenSample
from game.grid.los import LosResult
from game.grid.movement import CostNote, PathResult, SearchNote, Step, StepKind
from game.rules.damage import damage_breakdown
from game.rules.data import load_rules
from game.rules.dice import Advantage, Roller
from game.rules.heal import MedkitResult, use_medkit
from game.rules.hit import NoChance, hit_chance
from game.rules.movement import AllowanceNote, SpeedStep
from game.rules.notes import Note
from game.rules.stance import Stance
from game.rules.turn import RefusalCode, Refused, TurnState
from game.rules.wounds import Health, take_hit
from game.scenario.parse import parse_scenario
from game.tactics import answers as tactics
from game.tactics.battlefield import Battlefield
from game.text import explain
from game.text.i18n import _, set_language, speaking

CATALOGUE = Path(__file__).resolve().parents[2] / "game" / "text" / "locale" / "it" / "LC_MESSAGES"
RANGED = "precisione (armi a distanza)"


@pytest.fixture(autouse=True)
def english() -> Iterator[None]:
    with speaking("en"):
        yield


def field(entities: list[dict[str, object]], **map_spec: object) -> Battlefield:
    spec = {"size": [12, 12, 1], **map_spec}
    battlefield, _queries = parse_scenario({"map": spec, "entities": entities}, Path.cwd())
    return battlefield


# --- languages ---------------------------------------------------------------------------------


def test_speaking_switches_the_language_for_a_block_and_then_restores_it() -> None:
    assert _("no effect") == "no effect"
    with speaking("it"):
        assert _("no effect") == "nessun effetto"
        with speaking("en"):
            assert _("no effect") == "no effect"
        assert _("no effect") == "nessun effetto"
    assert _("no effect") == "no effect"


def test_set_language_changes_what_later_calls_say(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TESSERA_LANG", "en")
    try:
        set_language("it")
        assert _("not reachable this turn") == "non raggiungibile in questo turno"
    finally:
        set_language(None)  # back to TESSERA_LANG
    assert _("not reachable this turn") == "not reachable this turn"


def test_every_italian_translation_keeps_the_placeholders_of_its_english_text() -> None:
    text = (CATALOGUE / "tessera.po").read_text(encoding="utf-8")
    pairs = re.findall(r'^msgid "(.+)"\nmsgstr "(.*)"$', text, re.M)
    assert len(pairs) > 100
    wrong = [
        msgid
        for msgid, msgstr in pairs
        if not msgstr
        or sorted(re.findall(r"\{\w*\}", msgid)) != sorted(re.findall(r"\{\w*\}", msgstr))
    ]
    assert wrong == []


# --- every code has a text ----------------------------------------------------------------------

# Values enough for any note's placeholders.
ANY_VALUES = {
    "distance": 3,
    "near": 9,
    "levels": 0,
    "reach": 8,
    "mode": "walk",
    "condition": "stunned",
    "points": 2,
    "velocity": (1, 0, 0),
    "run_up": 1,
    "n_max": 2,
    "gravity": 0.2,
    "cell": (4, 4, 0),
    "relation": "ally",
    "id": "bo",
    "apex": 2,
    "depth": 3,
    "dc": 12,
    "length": 3,
    "attacker": "ada",
    "long_range": 9,
    "left": 1,
    "limit": 5,
    "cost": 2,
    "action": "attack",
    "stance": "prone",
}


def _text_of(code: StrEnum) -> str:
    note = Note(code, ANY_VALUES, (Note(SpeedStep.BASE, {"speed": 5}),))
    if isinstance(code, CoverNote):
        return explain.cover_note_text(note)
    if isinstance(code, AllowanceNote):
        return explain.allowance_note_text(note)
    if isinstance(code, SearchNote):
        return explain.search_note_text(note)
    if isinstance(code, CostNote):
        return explain.part_text(Note(code, ANY_VALUES, (Note(CostNote.ROUGH),)))
    if isinstance(code, StepKind):
        return explain.step_kind_name(code)
    if isinstance(code, NoChance):
        return explain.no_chance_text(code, ANY_VALUES)
    if isinstance(code, RefusalCode):
        return explain.refusal_text(Refused(code, ANY_VALUES))
    raise AssertionError(code)


CODES = [
    *CoverNote,
    *AllowanceNote,
    *SearchNote,
    *CostNote,
    *StepKind,
    *NoChance,
    *RefusalCode,
]


@pytest.mark.parametrize("language", ["en", "it"])
def test_every_code_of_the_rules_and_grid_has_a_text_in_english_and_italian(
    language: str,
) -> None:
    with speaking(language):
        texts = {code: _text_of(code) for code in CODES}
    assert all(texts.values())
    assert not [t for t in texts.values() if "{" in t]  # every placeholder was filled


def test_every_medkit_result_has_a_text() -> None:
    health = Health(light=1)
    outcome = use_medkit(health, "light", self_target=True, adjacent=False)
    assert outcome.reason == MedkitResult.HEALED
    assert explain.medkit_text(outcome) == "wound healed"
    kept = use_medkit(Health(), "grave", self_target=False, adjacent=False)
    assert kept.reason == "not_adjacent"
    assert explain.medkit_text(kept).endswith("the kit is kept")


# --- hit chance -------------------------------------------------------------------------------


def test_p_hit_2_hit_lines_in_italian_keep_the_seed_terms_and_the_formula() -> None:
    # armour 10 × 0.9625 = 9.625; 70 × (100 + (3 − 1)×5 − 9.625 − 25)/100 = 52.7625 → 52
    chance = hit_chance(70, 3, 1, 10, "light", "perforante", 8, RANGED)
    with speaking("it"):
        lines = explain.hit_lines(chance)
    assert lines == [
        "arma 70%",
        "bonus di attacco +3 (precisione (armi a distanza))",
        "bonus di difesa +1 (multitasking (attenzione suddivisa))",
        "armatura 10% × efficacia 0.9625 (perforante a 8 caselle) = 9.625%",
        "copertura leggera 25%",
        "P = 70 × (100 + (3 − 1)×5 − 9.625 − 25)/100 = 52.7625 → 52",
    ]


def test_p_hit_2_an_attack_bonus_without_a_named_check_is_shown_alone() -> None:
    # 60 × (100 + 2×5)/100 = 66
    chance = hit_chance(60, 2, 0, 0, "none", "impatto", 3)
    assert explain.hit_lines(chance)[1] == "attack bonus +2"
    assert explain.hit_lines(chance)[3] == "armour 0% (impact)"


# --- cover and sight ---------------------------------------------------------------------------


def test_p_cov_3_cover_lines_group_samples_by_cell_and_end_with_the_rulings() -> None:
    half = Note(CoverNote.HALF, {"distance": 1, "near": 7, "levels": 0, "reach": 6})
    hidden = (
        HiddenSample((0.1, 0.1, 0.1), (8, 3, 0), "half", True, half),
        HiddenSample((0.1, 0.5, 0.1), (8, 3, 0), "half", True, half),
    )
    result = CoverResult("light", 25, hidden, ("P-COV-2", "P-COV-3", "P-COV-1"))
    # The total is said once, at the grade; each hiding cell says which samples it hides.
    assert explain.cover_lines(result) == [
        "cover: light (+25%), 2 of 27 samples hidden",
        "the half obstacle at (8, 3, 0) hides 2 samples (2 low): half obstacle 1 from the"
        " target <= ceil(7/(1+0)) - 1 = 6: light cover (P-COV-3)",
        "rulings: P-COV-2, P-COV-3, P-COV-1",
    ]
    with speaking("it"):
        assert explain.cover_lines(result)[:2] == [
            "copertura: leggera (+25%), 2 campioni nascosti su 27",
            "l'ostacolo a mezz'altezza in (8, 3, 0) nasconde 2 campioni (2 in basso): ostacolo"
            " a mezz'altezza a 1 dal bersaglio <= ceil(7/(1+0)) - 1 = 6:"
            " copertura leggera (P-COV-3)",
        ]


def test_p_cov_1_each_obstacle_says_which_samples_it_hides_by_height() -> None:
    full = Note(CoverNote.FULL)
    hidden = (
        HiddenSample((0.1, 0.1, 0.1), (8, 3, 0), "full", True, full),
        HiddenSample((0.1, 0.1, 0.5), (8, 3, 0), "full", True, full),
        HiddenSample((0.1, 0.1, 0.9), (8, 3, 0), "full", True, full),
        HiddenSample((0.5, 0.5, 0.1), (8, 4, 0), "full", True, full),
    )
    lines = explain.cover_lines(CoverResult("heavy", 40, hidden, ("P-COV-2",)))
    assert lines[0].endswith("4 of 27 samples hidden")
    assert lines[1].startswith(
        "the full obstacle at (8, 3, 0) hides 3 samples (1 low, 1 middle, 1 high)"
    )
    assert lines[2].startswith("the full obstacle at (8, 4, 0) hides 1 sample (1 low)")
    assert sum("of 27" in line for line in lines) == 1


def test_p_cov_4_a_target_next_to_an_obstacle_is_said_not_highly_exposed() -> None:
    result = CoverResult("none", 0, (), ("P-COV-2", "P-COV-4"), (Note(CoverNote.NOT_EXPOSED),))
    assert explain.cover_lines(result)[:2] == [
        "cover: none (+0%)",
        "an obstacle stands next to the target: not highly exposed (P-COV-4)",
    ]


def test_p_los_sight_lines_name_the_blocker_or_the_grazed_cells() -> None:
    assert explain.sight_lines(LosResult(False, (4, 3, 0), (), ("P-LOS-1",))) == [
        "the segment between the cell centres enters [4, 3, 0]"
    ]
    grazed = LosResult(True, None, ((1, 0, 0),), ("P-LOS-1", "P-LOS-2"))
    assert explain.sight_lines(grazed) == ["grazes [[1, 0, 0]]: one side stays free"]
    assert explain.sight_lines(LosResult(True, None, (), ("P-LOS-1",))) == []
    blind = LosResult(False, None, (), ("P-VUL-3",))
    with speaking("it"):
        assert explain.sight_lines(blind) == ["chi guarda non può vedere (accecato o morto)"]


# --- movement ----------------------------------------------------------------------------------


def test_p_mov_7_allowance_lines_in_italian_name_the_modes_and_modifiers() -> None:
    bf = field([{"id": "a", "faction": "r", "at": [3, 3, 0], "stance": "crouched"}])
    allow = tactics.move_allowance(bf, bf.entity("a"), dash=True)
    # walk 5 → crouched 2 → dash 4; jump 4 → 2 → 4
    with speaking("it"):
        lines = explain.allowance_lines(allow)
    assert lines[0] == "camminare 5 → accovacciato 2 → scatto 4"
    assert lines[3] == "balzo 4 → accovacciato 2 → scatto 4"


def test_p_vul_3_an_entity_out_of_combat_is_told_it_skips_its_turn() -> None:
    bf = field([{"id": "a", "faction": "r", "at": [3, 3, 0], "conditions": ["out_of_combat"]}])
    _request, allow = tactics.move_request(bf, bf.entity("a"), None, dash=False, stealth=False)
    assert allow.explanation[-1] == Note(AllowanceNote.TURN_LOST, {"condition": "out_of_combat"})
    assert explain.allowance_lines(allow)[-1] == (
        "out of combat: skips its turn, no movement (P-VUL-3)"
    )


def test_p_vul_3_a_helped_blinded_entity_is_told_it_has_no_cell_limit() -> None:
    bf = field([{"id": "a", "faction": "r", "at": [3, 3, 0], "conditions": ["blinded"]}])
    allow = tactics.move_allowance(bf, bf.entity("a"), helped=True)
    assert explain.allowance_lines(allow)[-1] == "blinded but helped: no cell limit (P-VUL-3)"


def test_p_jump_1_a_jump_step_gives_its_apex_and_horizontal_reach() -> None:
    parts = (
        Note(CostNote.APEX, {"apex": 2, "n_max": 2}),
        Note(CostNote.HORIZONTAL, {"length": 3, "apex": 2, "run_up": 1}),
    )
    step = Step((0, 0, 0), (3, 0, 0), StepKind.JUMP, "jump", parts, 2, 2, ("P-JUMP-1",))
    assert explain.step_line(step) == (
        "(0,0,0)→(3,0,0) jump (jump), apex 2 (n_max 2), horizontal 3 ≤ 2 + 2×1: 2, total 2"
        " [P-JUMP-1]"
    )
    with speaking("it"):
        assert explain.step_line(step).startswith("(0,0,0)→(3,0,0) balzo (balzo), apice 2")


def test_p_mov_3_a_corner_lists_its_own_extras_after_its_cell() -> None:
    corner = Note(
        CostNote.CORNER, {"cell": (1, 2, 0)}, (Note(CostNote.ROUGH), Note(CostNote.WATER))
    )
    assert explain.part_text(corner) == "corner (1,2,0) rough +1 water +1"
    with speaking("it"):
        assert explain.part_text(corner) == "angolo (1,2,0) terreno accidentato +1 acqua +1"


def test_p_turn_1_an_unreachable_path_says_so_after_the_search_notes() -> None:
    path = PathResult(None, (), notes=(Note(SearchNote.SPENT, {"points": 3}),))
    assert explain.path_lines(path) == [
        "3 points already spent this turn [P-TURN-1]",
        "not reachable this turn",
    ]


def test_p_jump_2_the_jump_line_names_the_gravity() -> None:
    assert explain.jump_line(0.2, microgravity=False) == "gravity 0.2 g"
    assert explain.jump_line(0.01, microgravity=True) == (
        "gravity 0.01 g is microgravity: jumps fly to a surface"
    )


# --- damage ------------------------------------------------------------------------------------


def test_p_dmg_1_and_p_vul_1_damage_why_reads_the_table_with_readable_effect_names() -> None:
    rules = load_rules()
    armour = rules.armour["padded_vest"]  # perforante: damage 20%
    steps = damage_breakdown(12, "perforante", armour, {"ossatura (sopravvivenza)": 1})
    # floor(12 × 80/100) − 1 = 8 → perforante 6–9: grave wound
    outcome = take_hit(Health(), rules.vulnerabilities["human"], "perforante", steps.damage)
    line = explain.vulnerability_line("human", "perforante", steps.damage, outcome)
    assert line == "table human/piercing read at 8: grave wound"
    with speaking("it"):
        assert explain.vulnerability_line("human", "perforante", steps.damage, outcome) == (
            "tabella human/perforante letta a 8: ferita grave"
        )
        assert explain.damage_lines(steps)[-1] == "danno D = 8 (P-DMG-1, almeno 0)"


def test_p_vul_2_no_damage_is_no_effect() -> None:
    outcome = take_hit(Health(), load_rules().vulnerabilities["human"], "taglio", 0)
    assert explain.vulnerability_line("human", "taglio", 0, outcome) == "no effect: damage 0"


# --- turns and dice ----------------------------------------------------------------------------


def test_p_turn_2_refusals_in_italian_name_the_stance_and_the_action() -> None:
    state = TurnState()
    state.start_turn()
    same = state.change_stance(Stance.CROUCHED, Stance.CROUCHED)
    state.use_action("dash")
    second = state.use_action("attack")
    assert isinstance(same, Refused) and isinstance(second, Refused)
    with speaking("it"):
        assert explain.refusal_text(same) == "Già accovacciato."
        assert explain.refusal_text(second) == "L'azione di questo turno è già usata (scatto)."


def test_p_chk_4_roll_line_in_italian() -> None:
    roller = Roller(0)
    roller.supply(37, 82)
    # advantage on d100 keeps the lower face (P-CHK-2): 37 ≤ 52 hits
    record = roller.d100("to-hit ada→bo", advantage=Advantage.ADVANTAGE, p=52)
    with speaking("it"):
        assert explain.roll_line(record) == (
            "to-hit ada→bo: d100 [37, 82] tiene 37 ≤ 52: colpito (dadi dello Station Master)"
        )


def test_the_d20_headline_lists_each_row_behind_the_ac_and_the_attack_and_concealment() -> None:
    # D-2/D-3: AC 15 + cover 4 = 19; flanking +2 on the attack; 20% concealment (004:l.80).
    values = {
        "needed": 16,
        "ac": 19,
        "ac_rows": (("cover", 4),),
        "attack_rows": (("flanking", 2),),
        "concealment": 20,
    }
    assert explain.headline_text("d20_ac", values) == (
        "needs 16+ on d20 vs AC 19 (cover +4, flanking +2, concealment 20%)"
    )
    with speaking("it"):
        assert explain.headline_text("d20_ac", values) == (
            "16+ su d20 contro CA 19 (copertura +4, ai fianchi +2, occultamento 20%)"
        )


def test_the_fantasy_headline_adds_the_attack_modifier_to_the_dice_and_names_no_defence() -> None:
    # F-2/F-3: attack d8+d6 with +1 against DP 8, no defence roll (not a contest).
    values = {"dice": ("d8", "d6"), "modifier": 1, "dp": 8, "defence": None}
    assert explain.headline_text("dice_dp", values) == "d8+d6+1 vs DP 8"


def test_the_cepheus_headline_names_every_band_of_the_table_in_both_languages() -> None:
    values = {"band": "molto_lunga", "dm": 0, "target": 8, "dice": 2}
    assert explain.headline_text("band_2d6", values) == "Very long range · DM +0 · 8+ on 2d6"
    with speaking("it"):
        assert explain.headline_text("band_2d6", values) == (
            "Distanza molto lunga · MD +0 · 8+ su 2d6"
        )


def test_every_cepheus_band_of_the_data_has_words_not_its_id() -> None:
    from game.rules.cepheus.data import default_data

    for band in default_data().tables.band_ids:
        values = {"band": band, "dm": -1, "target": 8, "dice": 2}
        for language in ("en", "it"):
            with speaking(language):
                text = explain.headline_text("band_2d6", values)
                name = text.split(" · ")[0]
                assert name.endswith(" range") if language == "en" else name.startswith("Distanza ")
                assert name != band  # never the table's raw id


def test_d1_every_d20_cover_grade_has_its_own_words_in_both_languages() -> None:
    # The aim panel's "Cover: {grade}" line read "Copertura: normal": d20's grades (D-1, D-3,
    # game/rules/d20/attack.py COVER_GRADES) are words in English and Italian (004:l.52-70).
    from game.rules.d20.attack import COVER_GRADES

    italian = {"none": "nessuna", "normal": "normale", "soft": "leggera"}
    italian |= {"improved": "migliorata", "total": "totale"}
    for grade in COVER_GRADES:
        assert explain.cover_name(grade) == grade
        with speaking("it"):
            assert explain.cover_name(grade) == italian[grade], grade
