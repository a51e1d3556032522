"""Myst's mounted combat as pure rules (game/rules/myst/mounted.py; seed 002, l.118-185; M-1),
numbers worked by hand from the seed (002:l.N = shared/seeds/002_41e7330db40f429a.txt) and the
assumptions of game/data/myst/mounted.toml (marked there `assumed = true`)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from game.rules.myst import combat, mounted
from game.rules.myst.data import MystDataError, MystRules, Sheet, load, read_sheet


@pytest.fixture(scope="module")
def rules() -> mounted.MountedRules:
    return mounted.load()


@pytest.fixture(scope="module")
def data() -> MystRules:
    return load()


def _knight(data: MystRules, **changes: object) -> Sheet:
    # The sample cavaliere: attack 50, defence 52 with a shield of 12, riding (Cavalcare) 46,
    # Atletica 44, Status Globale 34 (game/data/myst/sheets.toml).
    return replace(data.samples["cavaliere"], **changes)  # type: ignore[arg-type]


def _foot(data: MystRules) -> Sheet:
    return data.samples["soldato"]  # attack 45, defence 50 with a shield of 10


# ---------------------------------------------------------------- falls (002:l.156-185)


def test_m1_a_fall_at_a_walk_that_reaches_50_does_no_damage(rules: mounted.MountedRules) -> None:
    # 002:l.162-164 "La Difficoltà del Tiro è pari a 50. Successo: nessun danno": 40 + 3 + 3 + 4
    # = 50 reaches it.
    done = mounted.fall_check(rules, "walk", 40, (3, 3, 4))
    assert (done.total, done.difficulty, done.failed_by, done.band) == (50, 50, 0, "success")
    assert done.row == mounted.FallRow("0", "0")


def test_m1_a_fall_at_a_walk_missed_by_1_is_1d3_to_status_globale(
    rules: mounted.MountedRules,
) -> None:
    # 002:l.165 "Fallimento con Scarto di 1-9: 1d3 danni allo Status Globale": 40 + 9 = 49.
    done = mounted.fall_check(rules, "walk", 40, (2, 3, 4))
    assert (done.failed_by, done.band) == (1, "fail_1_9")
    assert done.row == mounted.FallRow("1d3", "0")
    assert mounted.limbs_fixed(done.row) == 1  # Status Globale once


def test_m1_a_fall_at_a_canter_missed_by_17_is_1d4_on_1d3_limbs(
    rules: mounted.MountedRules,
) -> None:
    # 002:l.171, 175: difficulty 60; 40 + 1 + 1 + 1 = 43, a margin of 17: "1d4 danni a 1d3 arti".
    done = mounted.fall_check(rules, "canter", 40, (1, 1, 1))
    assert (done.difficulty, done.failed_by, done.band) == (60, 17, "fail_10_19")
    assert done.row == mounted.FallRow("1d4", "1d3")
    assert mounted.limbs_fixed(done.row) is None  # the limbs are rolled


def test_m1_a_fall_at_a_canter_that_succeeds_still_costs_1d4(rules: mounted.MountedRules) -> None:
    # 002:l.173 "Successo: 1d4 danni allo Status Globale": 44 + 6 + 6 + 4 = 60 reaches 60.
    done = mounted.fall_check(rules, "canter", 44, (6, 6, 4))
    assert (done.total, done.band, done.row) == (60, "success", mounted.FallRow("1d4", "0"))


def test_m1_a_fall_at_a_gallop_missed_by_20_is_1d8_on_1d3_limbs(
    rules: mounted.MountedRules,
) -> None:
    # 002:l.180, 185: difficulty 70; 44 + 1 + 2 + 3 = 50, a margin of 20: "1d8 danni a 1d3 arti".
    done = mounted.fall_check(rules, "gallop", 44, (1, 2, 3))
    assert (done.difficulty, done.failed_by, done.band) == (70, 20, "fail_20")
    assert done.row == mounted.FallRow("1d8", "1d3")


def test_m1_a_fall_at_a_gallop_missed_by_9_is_1d6_on_one_limb(
    rules: mounted.MountedRules,
) -> None:
    # 002:l.183 "Fallimento con Scarto di 1-9: 1d6 danni a un arto": 40 + 7 + 7 + 7 = 61, 9 short.
    done = mounted.fall_check(rules, "gallop", 40, (7, 7, 7))
    assert (done.failed_by, done.row) == (9, mounted.FallRow("1d6", "1"))
    assert mounted.limbs_fixed(done.row) == 1


def test_m2_limb_damage_lowers_status_globale_once_per_limb(data: MystRules) -> None:
    # M-2 has no limbs: 1d4 on 3 limbs showing 2, 4 and 1 is 7 off Status Globale; the rider is
    # then on foot (002:l.158 "disarcionamento"), not on the ground (the seed names no fall
    # to the ground): 34 - 7 = 27.
    row = mounted.FallRow("1d4", "1d3")
    assert mounted.fall_damage(row, 3, (2, 4, 1)) == 7
    with pytest.raises(combat.MystInputError):
        mounted.fall_damage(row, 3, (2, 4))
    after = mounted.dismounted(_knight(data, gait="canter"), 7)
    assert (after.mounted, after.gait, after.status) == (False, "walk", 27)


# ---------------------------------------------------------------- staying in the saddle


def test_m1_a_violent_blow_failed_by_20_or_more_unhorses_the_rider(
    rules: mounted.MountedRules,
) -> None:
    # 002:l.154: Cavalcare against "difficoltà pari a quella del colpo subito"; "una penalità
    # pari allo Scarto ... in caso di scarto pari o superiore a 20, comporterà la caduta".
    # Riding 46 + 1 + 1 + 1 = 49 against a blow of 88: 39 short, thrown.
    thrown = mounted.riding_check(rules, 46, (1, 1, 1), 88)
    assert (thrown.total, thrown.failed_by, thrown.unhorsed) == (49, 39, True)
    # 46 + 30 = 76 against 88: 12 short, a penalty of 12, still in the saddle.
    shaken = mounted.riding_check(rules, 46, (10, 10, 10), 88)
    assert (shaken.failed_by, shaken.unhorsed) == (12, False)
    # 46 + 23 = 69 reaches a blow of 69.
    assert mounted.riding_check(rules, 46, (10, 10, 3), 69).failed_by == 0
    # Assumed: a blow is violent from a margin of 20 (mounted.toml).
    assert not mounted.violent(rules, 19) and mounted.violent(rules, 20)


# ---------------------------------------------------------------- the horse as a target


def test_m1_a_ranged_hit_strikes_the_horse_on_60_or_less(rules: mounted.MountedRules) -> None:
    # 002:l.150 "l'attaccante avrà il 60% di colpire il cavallo e il 40% di colpire il suo
    # cavaliere": a d100 of 1-60 is the horse, 61-100 the rider.
    assert mounted.struck(rules, 1) == mounted.struck(rules, 60) == "horse"
    assert mounted.struck(rules, 61) == mounted.struck(rules, 100) == "rider"
    with pytest.raises(combat.MystInputError):
        mounted.struck(rules, 0)


def test_m2_the_horse_has_its_own_status_globale_and_falls_at_0(
    rules: mounted.MountedRules, data: MystRules
) -> None:
    # Assumed 40 (mounted.toml): 40 - 7 = 33; then 33 more brings it down (002:l.156).
    knight = _knight(data)
    hurt = mounted.horse_hurt(rules, knight, 7)
    assert (hurt.horse, hurt.status) == (33, 34)  # the rider untouched
    assert not mounted.horse_down(rules, hurt)
    assert mounted.horse_down(rules, mounted.horse_hurt(rules, hurt, 40))


# ---------------------------------------------------------------- the exchange


def test_m1_at_a_canter_the_rider_attacks_with_the_lower_of_skill_and_cavalcare(
    rules: mounted.MountedRules, data: MystRules
) -> None:
    # 002:l.136 "l'Abilità avente il punteggio più basso tra quella normalmente utilizzata a tale
    # scopo e Cavalcare": attack 50, Cavalcare 46, so 46: -4. At a walk (002:l.132) the skill.
    canter = _knight(data, gait="canter")
    mods = mounted.modifiers(rules, canter, _foot(data), melee=True)
    assert mods == (combat.Modifier("riding_attack", -4, ("M-1",)),)
    assert mounted.modifiers(rules, _knight(data), _foot(data), melee=True) == ()


def test_m1_against_a_rider_at_a_gallop_a_canter_rider_fights_by_the_gallops_rules(
    data: MystRules,
) -> None:
    # 002:l.152 "si utilizzeranno le regole/eccezioni previste in caso di Carica / Galoppo".
    assert mounted.exchange_gait(_knight(data, gait="canter"), _knight(data, gait="gallop")) == (
        "gallop"
    )
    assert mounted.exchange_gait(_foot(data), _knight(data, gait="canter")) == "canter"
    assert mounted.galloping(_foot(data), _knight(data, gait="gallop"))


def test_m1_a_ranged_attack_at_horse_and_rider_is_a_large_target_defended_without_the_shield(
    rules: mounted.MountedRules, data: MystRules
) -> None:
    # 002:l.150: "sempre da considerarsi come rivolti al cavallo ai fini delle Manovre di
    # Difesa" -> 002:l.149: the lower of skill and Cavalcare, and from an attacker on the
    # ground "non sarà però possibile utilizzare il bonus dello Scudo"; "bersaglio grande"
    # (assumed +10). Skill 52 - 12 = 40 < Cavalcare 46: only the shield's 12 is lost.
    archer = data.samples["arciere"]
    mods = mounted.modifiers(rules, archer, _knight(data), melee=False)
    assert mods == (
        combat.Modifier("target_horse_no_shield", 12, ("M-1",)),
        combat.Modifier("large_target", 10, ("M-1",)),
    )
    # A worse rider (Cavalcare 30) defends the horse with 30: 40 - 30 = 10 more.
    poor = _knight(data, riding=30)
    assert combat.Modifier("target_riding_defence", 10, ("M-1",)) in mounted.modifiers(
        rules, archer, poor, melee=False
    )
    # A mounted archer keeps the shield (the rule is for "un avversario a terra").
    riding_archer = replace(archer, mounted=True, riding=40)
    codes = [m.code for m in mounted.modifiers(rules, riding_archer, _knight(data), melee=False)]
    assert "target_horse_no_shield" not in codes


def test_m1_a_melee_blow_named_at_the_horse_is_defended_as_the_horses(
    rules: mounted.MountedRules, data: MystRules
) -> None:
    # 002:l.150 "il Personaggio attaccante è sempre obbligato a specificare chi intende
    # colpire": at the rider, the usual defence; at the horse, without the shield (l.149).
    at_rider = mounted.modifiers(rules, _foot(data), _knight(data), melee=True)
    assert at_rider == ()
    horseman = replace(_foot(data), at_horse=True)
    assert mounted.at_horse(horseman, _knight(data), melee=True)
    assert mounted.modifiers(rules, horseman, _knight(data), melee=True) == (
        combat.Modifier("target_horse_no_shield", 12, ("M-1",)),
    )


def test_m1_the_gallop_raises_the_strength_cap_by_3(data: MystRules) -> None:
    # 002:l.142 "ha diritto a un bonus di Forza pari a +3": Strength 38 is +2 on the table
    # (002:l.30-40, 38-45), +3 at a gallop: a cap of 5.
    gallop = _knight(data, gait="gallop")
    assert mounted.gallop_cap(gallop, melee=True)
    assert not mounted.gallop_cap(_knight(data, gait="canter"), melee=True)
    cap, _ = combat.strength_cap(data, 38, two_handed=False, charge=False, gallop=True)
    assert cap == 5


def test_m1_at_a_canter_a_melee_blow_is_struck_in_passing(
    rules: mounted.MountedRules, data: MystRules
) -> None:
    # 002:l.138 "Al termine del suddetto Round il cavallo sfilerà via": assumed one cell ridden
    # this turn before a canter's or gallop's melee blow (mounted.toml `pass_cells`).
    canter = _knight(data, gait="canter")
    assert mounted.pass_refused(rules, canter, _foot(data), melee=True)
    assert not mounted.pass_refused(rules, replace(canter, run_up=1), _foot(data), melee=True)
    assert not mounted.pass_refused(rules, _knight(data), _foot(data), melee=True)  # a walk


# ---------------------------------------------------------------- gaits (002:l.153)


def test_m1_a_change_of_gait_is_declared_one_step_and_taken_at_the_next_turn(
    data: MystRules,
) -> None:
    # 002:l.153 "Il passaggio da passo a canter e da canter a galoppo (e viceversa) non può
    # avvenire nel giro di un istante. Il Personaggio dovrà dichiarare le sue intenzioni".
    knight = _knight(data)
    assert mounted.declare_gait(knight, "gallop") == (None, "gait_too_far")
    declared, refused = mounted.declare_gait(knight, "canter")
    assert refused is None and declared is not None
    assert (declared.gait, declared.gait_next) == ("walk", "canter")
    taken = mounted.turn_begins(declared)
    assert (taken.gait, taken.gait_next) == ("canter", None)
    assert mounted.declare_gait(taken, "gallop")[0] is not None
    assert mounted.declare_gait(_foot(data), "canter") == (None, "not_mounted")
    assert mounted.declare_gait(knight, "walk") == (None, "same_gait")
    assert mounted.declare_gait(knight, "trot") == (None, "unknown_gait")


def test_m1_no_action_after_a_gallops_defence_ends_with_the_round(data: MystRules) -> None:
    # 002:l.144 "nessun Personaggio coinvolto nello scontro potrà effettuare la propria Azione
    # dopo aver effettuato una Manovra di Difesa": the flag lives for the round.
    flagged = replace(_foot(data), gallop_defended=True)
    assert not mounted.round_begins(flagged).gallop_defended


# ---------------------------------------------------------------- data


def test_a_gait_needs_a_mounted_sheet_and_is_refused_by_name(data: MystRules) -> None:
    with pytest.raises(MystDataError, match=r"here\.gait.*needs a mounted sheet"):
        read_sheet({"gait": "canter"}, "here", data.defaults, data.weapons, data.samples)
    with pytest.raises(MystDataError, match=r"here\.gait.*unknown value 'trot'"):
        read_sheet({"sample": "cavaliere", "gait": "trot"}, "here", data.defaults, data.weapons,
                   data.samples)  # fmt: skip
    knight = read_sheet(
        {"sample": "cavaliere", "gait": "gallop", "horse": 25, "athletics": 50},
        "here",
        data.defaults,
        data.weapons,
        data.samples,
    )
    assert (knight.gait, knight.horse, knight.athletics) == ("gallop", 25, 50)


def test_a_bad_mounted_file_is_named_with_its_key(tmp_path: Path) -> None:
    bad = tmp_path / "mounted.toml"
    bad.write_text("[split]\nhorse_percent = 160\n", encoding="utf-8")
    with pytest.raises(MystDataError, match=r"mounted\.toml \[fall\.walk\]\.difficulty: missing"):
        mounted.load(bad)
    bad.write_text("[split\n", encoding="utf-8")
    with pytest.raises(MystDataError, match=r"mounted\.toml"):
        mounted.load(bad)
