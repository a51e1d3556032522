"""The battle's events and refusals are worded for players in English and Italian, every kind."""

from __future__ import annotations

import pytest

from game.battle.events import Event
from game.battle.outcome import Refusal
from game.battle.reasons import Happened, Why
from game.rules.dice import Roller
from game.text.explain_battle import event_details, event_text, refusal_text, why_text
from game.text.i18n import speaking

#: Data as the engine emits it for each kind (game/battle/engine.py, handlers.py).
SAMPLES: dict[Happened, dict[str, object]] = {
    Happened.COMBAT_STARTED: {"round": 1},
    Happened.ROUND_STARTED: {"round": 2},
    Happened.INITIATIVE: {"unit": "Ada", "total": 17},
    Happened.INITIATIVE_REORDERED: {"order": ["Ada", "Bo"]},
    Happened.INITIATIVE_RESTARTED: {"round": 3},
    Happened.TURN_STARTED: {"unit": "Ada", "round": 1},
    Happened.TURN_SKIPPED: {"unit": "Ada", "because": "stunned"},
    Happened.TURN_ENDED: {"unit": "Ada"},
    Happened.TURN_CUT_SHORT: {"unit": "Ada"},
    Happened.TURN_PASSED: {"unit": "Ada", "to": "Bo"},
    Happened.MOVED: {"unit": "Ada", "from": [1, 2, 0], "to": [3, 4, 0], "cost": 2, "spent": 2},
    Happened.MOVE_STOPPED: {"unit": "Ada", "why": "unreachable"},
    Happened.AMBUSHED: {"unit": "Ada", "by": "Bo", "at": [2, 2, 0]},
    Happened.FLYING: {"unit": "Ada", "toward": [9, 1, 0], "velocity": [8, 0, 0]},
    Happened.DRIFTED: {
        "unit": "Ada",
        "from": [1, 1, 0],
        "to": [9, 1, 0],
        "velocity": [0, 0, 0],
        "landed": True,
        "stopped": False,
    },
    Happened.COASTING: {"unit": "Ada", "velocity": [2, -2, 0]},
    Happened.JUMP_CHECK: {
        "unit": "Ada",
        "kind": "drop",
        "height": 3,
        "n_max": 2,
        "dc": 12,
        "success": False,
    },
    Happened.COLLIDED: {
        "unit": "Ada",
        "with": "Bo",
        "at": [9, 1, 0],
        "unit_saved": True,
        "with_saved": False,
    },
    Happened.STEPPED_ASIDE: {"unit": "Ada", "from": [9, 1, 0], "to": [9, 2, 0]},
    Happened.FIVE_FOOT_STEP: {"unit": "Ada", "from": [9, 1, 0], "to": [8, 2, 0]},
    Happened.DYING: {
        "unit": "Ada", "roll": 57, "stabilised": False, "hit_points": -4, "state": "dying",
    },
    Happened.DASHED: {"unit": "Ada"},
    Happened.ATTACK: {
        "unit": "Ada", "target": "Bo", "weapon": "pistol", "hit_chance": 52, "hit": True,
        "cover": "light", "why": [],
    },
    Happened.REACTION_ATTACK: {
        "unit": "Bo", "target": "Ada", "weapon": "combat_knife", "hit_chance": 60, "hit": False,
        "cover": None, "why": [],
    },
    Happened.THROW: {
        "unit": "Ada", "size": "light", "weapon": None, "target": None, "aim": [5, 5, 0],
        "landed": [6, 5, 0], "hit": False, "hit_chance": 45, "why": [],
    },
    Happened.DAMAGE: {
        "unit": "Bo", "source": "Ada", "type": "perforante", "rolled": 7, "damage": 5,
        "effects": ["light_wound"], "wounds": {}, "why": [],
    },
    Happened.MARGIN_WON: {
        "unit": "Ada", "target": "Bo", "units": 3, "rolled": 1,
        "caps": {"strength": 1, "minimum": 3, "reduce": 3},
    },
    Happened.MARGIN_SPENT: {
        "unit": "Ada", "target": "Bo", "uses": {"strength": 1, "minimum": 2, "reduce": 0},
        "damage": 3, "why": [],
    },
    Happened.DEFENCE_MARGIN: {
        "unit": "Bo", "against": "Ada", "margin": 24, "units": 1, "taken": ["counterattack"],
        "counter_attack_total": 50, "counter_defence_total": 44, "counter_margin": 6,
        "hit": True,
    },
    Happened.DEFENCE_PLAN: {"unit": "Bo", "moves": ["counterattack", "priority"]},
    Happened.CLOSED_DEFENCE: {"unit": "Bo"},
    Happened.BROKE_OFF: {"unit": "Bo", "against": "Ada", "at": [2, 2, 0], "to": [3, 3, 0]},
    Happened.GRAB_BREAK: {
        "unit": "Ada", "holder": "Bo", "total": 61, "holder_total": 58, "broken": True,
    },
    Happened.GRAB_ENDED: {"holder": "Bo", "grabbed": "Ada", "why": "let_go"},
    Happened.UNBALANCE_LAPSED: {"unit": "Ada", "penalty": 7},
    Happened.DIED: {"unit": "Bo", "at": [6, 2, 0]},
    Happened.DAMAGE_DEFERRED: {"unit": "Bo", "source": "Ada", "rolled": 6},
    Happened.RELOADED: {"unit": "Ada", "left": 1},
    Happened.DEATH_SAVE: {"unit": "Bo", "result": "two_failures", "wounds": {}},
    Happened.STANCE: {"unit": "Ada", "stance": "crouched"},
    Happened.DODGE: {"unit": "Ada"},
    Happened.DISENGAGE: {"unit": "Ada"},
    Happened.HELP: {"unit": "Ada", "ally": "Cy"},
    Happened.READY: {"unit": "Ada", "trigger": "enemy_enters_sight"},
    Happened.HIDE: {"unit": "Ada", "success": True},
    Happened.SEARCH: {"unit": "Ada", "found": 1},
    Happened.STEALTH_CHECK: {"unit": "Ada", "against": "Bo", "success": False},
    Happened.MEDKIT: {
        "unit": "Ada", "target": "Cy", "wound": "grave", "result": "healed", "wounds": {},
    },
    Happened.IMPROVISE: {"unit": "Ada", "text": "kick the crate"},
    Happened.IMPROVISE_RULED: {
        "unit": "Ada", "text": "kick the crate", "verdict": "check", "success": True, "by": "gm",
    },
    Happened.REACTION_OFFERED: {
        "unit": "Bo", "mover": "Ada", "kind": "opportunity", "at": [2, 2, 0],
    },
    Happened.REACTION_DECLINED: {"unit": "Bo", "mover": "Ada"},
    Happened.REACTION_LOST: {"unit": "Bo", "mover": "Ada"},
    Happened.SIGHTED: {"faction": "raiders", "unit": "Bo", "at": [6, 2, 0]},
    Happened.REVEALED: {"unit": "Bo", "to": ["raiders"]},
    Happened.CONCEALED: {"unit": "Bo", "from": ["raiders"]},
    Happened.DISCOVERED: {"unit": "Bo", "by": ["raiders"]},
    Happened.SURPRISED: {"unit": "Bo"},
    Happened.ARRIVED: {"unit": "Bo", "at": [0, 0, 0]},
    Happened.REINFORCEMENT_CALLED: {"unit": "Bo", "round": 3},
    Happened.DICE_ENTERED: {"faces": [17, 4]},
    Happened.CONDITION: {"unit": "Bo", "add": ["burning"], "remove": [], "by": "gm"},
    Happened.CELL_EDITED: {"at": [3, 3, 0], "obstacle": "full", "terrain": None, "floor": None},
    Happened.FIELD_CONDITIONS: {
        "darkness": "low", "smoke": "dense", "weather": "none", "changed": ["darkness", "smoke"]
    },
    Happened.CONTROLLER: {"faction": "raiders", "controller": "computer"},
    Happened.COMBAT_OVER: {"winner": "raiders"},
    Happened.AIMED: {"unit": "Ada", "target": "Bo"},
    Happened.HASTY: {"unit": "Ada", "round": 3},
    Happened.DELAYED: {"unit": "Ada", "after": "Bo", "round": 2},
    Happened.REACT_STANCE: {"unit": "Ada", "now": "after_acting"},
    Happened.FIRE_MODE: {"unit": "Ada", "now": "burst"},
    Happened.REACTED: {"unit": "Bo", "reaction": "dodge", "against": "Ada", "initiative": -2,
                       "round": 2},
    Happened.SUPPRESSION_FIRE: {"unit": "Ada", "target": "Bo", "chance": "15/36", "total": 12,
                                "effect": 4, "hit": True, "why": []},
    Happened.SUPPRESSED: {"unit": "Bo", "by": "Ada", "initiative": -4, "round": 1},
    Happened.GAIT_DECLARED: {"unit": "Ada", "gait": "canter"},
    Happened.STRIKE_HORSE: {"unit": "Ada", "horse": True},
    Happened.RIDING_CHECK: {"unit": "Ada", "total": 51, "difficulty": 74, "failed_by": 23},
    Happened.UNHORSED: {
        "unit": "Ada", "why": "horse_down", "gait": "gallop", "total": 62, "difficulty": 70,
        "failed_by": 8, "limbs": 1, "damage": 4,
    },
    Happened.GALLOP_DEFENDED: {"unit": "Bo", "unit_gait": "gallop"},
    Happened.COUP_DE_GRACE_BEGUN: {"unit": "Ada", "target": "Bo"},
    Happened.COUP_DE_GRACE: {"unit": "Ada", "target": "Bo", "damage": 5, "why": []},
    Happened.COUP_DE_GRACE_LOST: {"unit": "Ada", "target": "Bo", "why": "dead"},
    Happened.FORTITUDE_SAVE: {"unit": "Bo", "natural": 12, "total": 14, "dc": 15,
                              "survived": False, "hit_points": -10},
}  # fmt: skip


def test_every_kind_of_event_has_a_sample_here() -> None:
    assert set(SAMPLES) == set(Happened)


@pytest.mark.parametrize("language", ["en", "it"])
@pytest.mark.parametrize("kind", sorted(Happened))
def test_every_kind_of_event_is_worded_in_both_languages_with_its_values(
    kind: Happened, language: str
) -> None:
    with speaking(language):
        text = event_text(Event(kind, SAMPLES[kind]))
    assert text and "{" not in text
    for key in ("unit", "target", "mover"):
        value = SAMPLES[kind].get(key)
        if isinstance(value, str):
            assert value in text


@pytest.mark.parametrize("code", sorted(Why))
def test_every_refusal_code_reads_as_a_sentence_in_both_languages(code: Why) -> None:
    values = {"unit": "Ada", "at": (3, 4, 0), "left": 2, "used": "attack", "stance": "prone"}
    values.update({"reactor": "Bo", "ally": "Cy", "active": "Bo", "apex": 3, "depth": 5})
    english = why_text(code, values)
    with speaking("it"):
        italian = why_text(code, values)
    assert english and "{" not in english and "{" not in italian
    assert italian != english


def test_a_move_reads_with_its_cells_and_points() -> None:
    text = event_text(Event(Happened.MOVED, SAMPLES[Happened.MOVED]))
    assert text == "Ada moves (1, 2, 0) → (3, 4, 0): 2 points (2 this turn)"


def test_an_attack_reads_with_its_chance_result_and_cover() -> None:
    text = event_text(Event(Happened.ATTACK, SAMPLES[Happened.ATTACK]))
    assert text == "Ada attacks Bo with Sidearm pistol: 52% — hit (cover: light)"
    with speaking("it"):
        italian = event_text(Event(Happened.ATTACK, SAMPLES[Happened.ATTACK]))
    assert italian == "Ada attacca Bo con Pistola d'ordinanza: 52% — colpito (copertura: leggera)"


def test_p_mov_8_a_landing_on_a_unit_reads_with_both_saves() -> None:
    text = event_text(Event(Happened.COLLIDED, SAMPLES[Happened.COLLIDED]))
    assert text == "Ada lands on Bo at (9, 1, 0): Ada keeps its feet, Bo falls, stunned (P-MOV-8)."


def test_a_refusal_fills_in_its_values_and_names_the_action_already_used() -> None:
    assert (
        refusal_text(Refusal("action_used", used="attack"))
        == "The action of this turn is already used (attack)."
    )
    assert refusal_text(Refusal("unreachable", at=(3, 4, 0), left=2)) == (
        "(3, 4, 0) is out of reach: 2 movement points left."
    )
    with speaking("it"):
        assert (
            refusal_text(Refusal("action_used", used="attack"))
            == "L'azione di questo turno è già usata (attacco)."
        )


def test_an_events_details_are_its_dice_then_its_rulings() -> None:
    roller = Roller(3)
    record = roller.d100("attack Ada", p=52)
    event = Event(Happened.ATTACK, SAMPLES[Happened.ATTACK], rolls=(record,), rules=("P-HIT-1",))
    details = event_details(event)
    assert details[0].startswith("attack Ada: d100")
    assert details[-1] == "[P-HIT-1]"


# --- unseen events (issue 17: words for players, never "?") ---------------------------------


def _told(kind: Happened, data: dict[str, object], units=(), fields=()) -> str:
    """The event as game/battle/view.py gives it to side "red", then worded."""
    from game.battle.events import Withheld
    from game.battle.view import told

    event = Event(kind, data, withheld={"red": Withheld(frozenset(units), frozenset(fields))})
    return event_text(told(event, frozenset({"red"})))


def test_a_move_that_ends_out_of_sight_reads_moves_out_of_sight_not_question_marks() -> None:
    data = {"unit": "Vidal", "from": [1, 2, 0], "to": [3, 4, 0], "cost": 2, "spent": 2}
    fields = ("to", "cost", "spent", "velocity")
    with speaking("en"):
        text = _told(Happened.MOVED, data, fields=fields)
        assert text == "Vidal moves out of sight."
    with speaking("it"):
        assert _told(Happened.MOVED, data, fields=fields) == "Vidal si muove fuori dalla vista."


def test_an_attack_by_an_unseen_unit_names_someone_unseen_in_the_line_and_its_dice() -> None:
    from game.battle.view import told

    roller = Roller(3)
    roll = roller.d100("attack Ada", p=52)
    data = {"unit": "Ada", "target": "Bo", "weapon": "pistol", "hit_chance": 52, "hit": True}
    from game.battle.events import Withheld

    event = Event(
        Happened.ATTACK, data, rolls=(roll,), withheld={"blue": Withheld(frozenset({"Ada"}))}
    )
    seen = told(event, frozenset({"blue"}))
    with speaking("en"):
        text = event_text(seen)
        details = event_details(seen)
    assert text.startswith("someone unseen attacks Bo with Sidearm pistol: 52%")
    assert details[0].startswith("attack someone unseen: d100")
    assert "?" not in text + " ".join(details)


@pytest.mark.parametrize("language", ["en", "it"])
def test_no_unseen_event_is_worded_with_a_question_mark(language: str) -> None:
    """Every kind, with each unit blanked and a move's end withheld, reads without "?"."""
    from game.battle.events import Withheld
    from game.battle.view import told

    with speaking(language):
        for kind, data in SAMPLES.items():
            names = {v for v in data.values() if isinstance(v, str) and v[:1].isupper()}
            withheld = Withheld(frozenset(names), frozenset({"to", "cost", "spent", "velocity"}))
            if kind not in (Happened.MOVED, Happened.DRIFTED, Happened.COASTING):
                withheld = Withheld(frozenset(names))
            event = told(Event(kind, data, withheld={"red": withheld}), frozenset({"red"}))
            text = event_text(event)
            assert "?" not in text, (kind, text)


def test_a_hidden_units_initiative_reads_rolled_in_secret() -> None:
    with speaking("en"):
        text = event_text(Event(Happened.INITIATIVE, {"unit": "Wisp", "total": None}))
    assert text == "Wisp rolls initiative in secret."


def test_sides_weapons_and_damage_types_are_named_not_given_by_id() -> None:
    over = Event(Happened.COMBAT_OVER, {"winner": "station_security"})
    damage = Event(
        Happened.DAMAGE,
        {"unit": "Bo", "damage": 4, "type": "perforante", "rolled": 7, "effects": []},
    )
    with speaking("en"):
        assert event_text(over) == "The combat is over: Station security win."
        assert "4 piercing damage" in event_text(damage)
    with speaking("it"):
        assert "Sicurezza stazione" in event_text(over)
        assert "perforante" in event_text(damage)


def test_d2_the_dying_roll_reads_its_result_in_both_languages() -> None:
    # A d% of 57 loses a hit point; 10 stabilises; a roll that reaches -10 kills (D-2).
    bled = {"unit": "Ada", "roll": 57, "stabilised": False, "hit_points": -4, "state": "dying"}
    stable = {**bled, "roll": 10, "stabilised": True, "hit_points": -3}
    dead = {**bled, "roll": 99, "hit_points": -10, "state": "dead"}
    assert event_text(Event(Happened.DYING, bled)) == (
        "Ada is dying and rolls 57 on d%: down to -4 hit points."
    )
    assert event_text(Event(Happened.DYING, stable)) == (
        "Ada is dying and rolls 10 on d%: stable at -3 hit points."
    )
    with speaking("it"):
        assert event_text(Event(Happened.DYING, dead)) == (
            "Ada è morente e tira 99 con d%: scende a -10 punti ferita, morto."
        )


def test_a_fantasy_initiative_reads_as_its_agi_and_des_dice_as_the_tracker_shows_it() -> None:
    # F-1 (003:l.12-13): fantasy's order key packs the AGI die and the DES die, AGI first
    # (fantasy_battle.AGI_WEIGHT 16): 102 = 6 x 16 + 6 is AGI d6, DES d6, never "102".
    from game.tactics.rulesets.fantasy_battle import BATTLE

    event = Event(Happened.INITIATIVE, {"unit": "Ada", "total": 102})
    assert BATTLE.initiative_text(102) == "AGI d6 · DES d6"
    text = event_text(event, initiative=BATTLE.initiative_text)
    assert text == "Ada rolls initiative: AGI d6 · DES d6"
    assert event_text(event, details=False, initiative=BATTLE.initiative_text) == text
    with speaking("it"):
        italian = event_text(event, initiative=BATTLE.initiative_text)
    assert italian == "Ada tira l'iniziativa: AGI d6 · DES d6"
    # A ruleset whose total is its own words (periferie, the default) keeps the plain number.
    assert event_text(event) == "Ada rolls initiative: 102"


def test_a_secret_initiative_stays_secret_whatever_the_rulesets_words() -> None:
    event = Event(Happened.INITIATIVE, {"unit": "Ada", "total": "?"})
    assert event_text(event, initiative=lambda total: "never") == (
        "Ada rolls initiative in secret."
    )


def test_an_attack_with_a_ruleset_sheets_weapon_names_it_not_the_maps_weapon() -> None:
    # Myst and fantasy fight with their sheet's weapon: the event's "weapon_name" (from
    # BattleRules.attack_weapon) is named, periferie's weapon id is not.
    data = {
        "unit": "Ada", "target": "Bo", "weapon": "pistol", "weapon_name": "Spada",
        "chance": "1/2", "hit": True, "cover": None, "why": [],
    }  # fmt: skip
    assert event_text(Event(Happened.ATTACK, data)) == "Ada attacks Bo with Spada: 50% — hit"
    with speaking("it"):
        italian = event_text(Event(Happened.ATTACK, data))
    assert italian.startswith("Ada attacca Bo con Spada: ")
    assert "pistol" not in italian.lower() and "Pistola" not in italian


def test_myst_damage_reads_its_weapons_type_in_both_languages() -> None:
    # game/data/myst/weapons.toml's types: impatto, taglio, punta.
    data = {
        "unit": "Bo", "source": "Ada", "type": "punta", "rolled": 4, "damage": 4,
        "effects": [], "wounds": {}, "why": [],
    }  # fmt: skip
    assert event_text(Event(Happened.DAMAGE, data)).startswith("Bo takes 4 thrusting damage")
    with speaking("it"):
        italian = event_text(Event(Happened.DAMAGE, data))
    assert "danni da punta" in italian and "da da" not in italian


def test_damage_to_a_rulesets_own_health_does_not_read_no_effect_but_periferie_s_table_may() -> (
    None
):
    # M-2: damage lowers Status Globale (the sheet), no wound-table effect; the log read "no
    # effect" after every Myst, fantasy or d20 hit that did not end the target. P-VUL-1's
    # table read at a low D may really do nothing.
    data = {
        "unit": "Bo", "source": "Ada", "type": "punta", "rolled": 5, "damage": 5,
        "effects": [], "wounds": {}, "why": ["Status Globale 30 - 5 = 25"],
    }  # fmt: skip
    myst = Event(Happened.DAMAGE, data, rules=("M-2",))
    assert event_text(myst, details=False) == "Bo takes 5 thrusting damage (5 rolled)."
    periferie = Event(Happened.DAMAGE, {**data, "type": "taglio"}, rules=("P-DMG-1", "P-VUL-1"))
    assert event_text(periferie, details=False) == (
        "Bo takes 5 cutting damage (5 rolled): no effect"
    )


def test_fantasy_damage_names_its_hit_location_not_a_damage_type() -> None:
    # F-3: the hit's d100 location is the damage event's "type" (tactics fantasy_battle.damage).
    data = {
        "unit": "Bo", "source": "Ada", "type": "legs", "rolled": 6, "damage": 4,
        "effects": ["armour_destroyed"], "wounds": {}, "why": [],
    }  # fmt: skip
    event = Event(Happened.DAMAGE, data, rules=("F-2", "F-3"))
    assert event_text(event, details=False) == (
        "Bo takes 4 damage to the legs (6 rolled): armour destroyed"
    )
    with speaking("it"):
        assert "gambe" in event_text(event, details=False)


@pytest.mark.parametrize(
    ("grade", "english", "italian"),
    [("normal", "normal", "normale"), ("soft", "soft", "leggera"),
     ("improved", "improved", "migliorata"), ("total", "total", "totale")],
)  # fmt: skip
def test_d1_d20s_cover_grades_are_worded_in_both_languages(
    grade: str, english: str, italian: str
) -> None:
    # D-1, D-3 (004:l.52-70): "copertura", "copertura leggera", "copertura migliorata",
    # "copertura totale".
    data = {
        "unit": "Ada", "target": "Bo", "weapon": "pistol", "chance": "1/2", "hit": False,
        "cover": grade, "why": [],
    }  # fmt: skip
    assert event_text(Event(Happened.ATTACK, data)).endswith(f"(cover: {english})")
    with speaking("it"):
        assert event_text(Event(Happened.ATTACK, data)).endswith(f"(copertura: {italian})")


def test_plain_log_words_an_exact_chance_as_its_percentage_and_alt_keeps_the_fraction() -> None:
    # the table's complaint: "909349/1000000 ≈ 90.9%" in the plain log; 909349/1000000 is
    # 90.9349%, shown to one decimal as 90.9% (the fraction stays behind Alt, the details mode)
    data = {
        "unit": "Ada",
        "target": "Bo",
        "weapon": "sword",
        "chance": "909349/1000000",
        "hit": True,
        "cover": None,
        "why": [],
    }
    event = Event(Happened.ATTACK, data, rules=("M-1",))
    plain = event_text(event, details=False)
    assert "90.9%" in plain and "909349" not in plain
    assert "909349/1000000 ≈ 90.9%" in event_text(event, details=True)
    # a thrown object and suppression fire word their chance the same way
    throw = {
        "unit": "Ada",
        "size": "light",
        "weapon": None,
        "target": None,
        "aim": [5, 5, 0],
        "landed": [5, 5, 0],
        "hit": False,
        "chance": "7/12",
        "why": [],
    }
    assert "58.3%" in event_text(Event(Happened.THROW, throw), details=False)
    assert "7/12" not in event_text(Event(Happened.THROW, throw), details=False)
    fire = dict(SAMPLES[Happened.SUPPRESSION_FIRE])
    assert "41.7%" in event_text(Event(Happened.SUPPRESSION_FIRE, fire), details=False)
    assert "15/36" not in event_text(Event(Happened.SUPPRESSION_FIRE, fire), details=False)
    # a chance that is a whole percentage reads as one in both modes
    half = dict(data, chance="1/2")
    assert "50%" in event_text(Event(Happened.ATTACK, half), details=False)
