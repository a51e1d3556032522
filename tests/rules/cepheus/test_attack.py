"""A Cepheus attack's DMs and chance (C-1..C-5, 000:l.123-353), numbers worked by hand."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

import pytest

from game.rules.cepheus.attack import (
    CANNOT_BE_HIT,
    OUT_OF_RANGE,
    PRONE_NO_MELEE,
    Geometry,
    Situation,
    SituationError,
    attack,
    resolve,
)
from game.rules.cepheus.data import Tables
from game.rules.cepheus.sheet import Sheet, Weapon

PISTOL = Weapon("pistola", "firearm", 3, -3, recoil=True)
RIFLE = Weapon("fucile", "firearm", 3, recoil=True)
LASER = Weapon("pistola", "firearm", 3, laser=True)
KNIFE = Weapon("corpo_a_corpo", "melee", 2)
GRENADE = Weapon("lancio", "thrown", 3)
SHOOTER = Sheet(
    chars={"str": 7, "dex": 9, "end": 8},
    dm={"dex": 1},
    skills={"armi da fuoco": 1},
    weapon=PISTOL,
)
TARGET = Sheet(chars={"str": 8, "dex": 6, "end": 7}, skills={"mischia": 2})
# Breve (5 cells = 7.5 m), no cover: pistol at Breve is Media, DM 0 (000:l.52).
OPEN = Geometry(cells=5, cover="none")


def _dms(result: object) -> dict[str, int]:
    return {s.code: s.value for s in result.modifiers}  # type: ignore[attr-defined]


def test_guard_aiming_twice_at_breve_has_eleven_in_twelve(tables: Tables) -> None:
    # Armi da Fuoco 1 + DEX DM 1 + Media 0 + aim 2 (000:l.87: +1 per minor action) = +4:
    # 2d6 >= 4 fails only on 2 and 3 (1 + 2 = 3 ways) -> 33/36 = 11/12.
    result = attack(SHOOTER, TARGET, PISTOL, OPEN, Situation(aim=2), tables)
    assert (result.band, result.difficulty) == ("breve", "media")
    assert _dms(result) == {"skill": 1, "characteristic": 1, "difficulty": 0, "aim": 2}
    assert result.total_dm == 4
    assert result.chance == Fraction(11, 12)


def test_aim_is_capped_at_plus_6_and_a_laser_sight_adds_1_only_when_aiming(
    tables: Tables,
) -> None:
    # 000:l.87 "un massimo MD di mirare di +6"; l.144 "Mirino Laser +1 quando si mira".
    aimed = attack(SHOOTER, TARGET, PISTOL, OPEN, Situation(aim=8, laser_sight=True), tables)
    assert _dms(aimed)["aim"] == 6
    assert _dms(aimed)["laser_sight"] == 1
    unaimed = attack(SHOOTER, TARGET, PISTOL, OPEN, Situation(laser_sight=True), tables)
    assert "laser_sight" not in _dms(unaimed)


@pytest.mark.parametrize(("cells", "dm"), [(6, None), (7, -1), (14, -2)])
def test_target_movement_is_minus_1_per_full_10_metres(
    tables: Tables, cells: int, dm: int | None
) -> None:
    # 000:l.145 "-1 per ogni 10 metri completi": 6 cells = 9 m (none), 7 = 10.5 m (-1),
    # 14 = 21 m (-2).
    result = attack(SHOOTER, TARGET, PISTOL, OPEN, Situation(target_moved_cells=cells), tables)
    assert _dms(result).get("target_movement") == dm


@pytest.mark.parametrize(
    ("cells", "weapon", "dm"),
    [(1, KNIFE, 2), (2, PISTOL, 0), (5, PISTOL, -2)],
)
def test_prone_target_is_minus_2_at_range_0_ravvicinata_plus_2_personale(
    tables: Tables, cells: int, weapon: Weapon, dm: int
) -> None:
    # 000:l.343: ranged attacks -2; "A gittata Ravvicinata, la penalità è ridotta a +0"; at
    # Personale "+2 agli attacchi contro di lui".
    geo = Geometry(cells=cells, cover="none", target_stance="prone")
    assert _dms(attack(SHOOTER, TARGET, weapon, geo, Situation(), tables))["prone"] == dm


def test_dodge_is_minus_1_in_the_open_and_minus_2_in_cover(tables: Tables) -> None:
    # 000:l.166: "DM di -1 ... Se il personaggio è al riparo ... aumentato a -2". Even 1/4
    # cover (DM -0) counts as being "al riparo".
    open_dodge = attack(SHOOTER, TARGET, PISTOL, OPEN, Situation(dodge=True), tables)
    assert _dms(open_dodge)["dodge"] == -1
    corner = replace(OPEN, cover="1/4")
    covered = attack(SHOOTER, TARGET, PISTOL, corner, Situation(dodge=True), tables)
    assert _dms(covered)["dodge"] == -2
    assert _dms(covered)["cover"] == 0


def test_parry_applies_the_defenders_mischia_and_only_in_melee(tables: Tables) -> None:
    # 000:l.170: "applicando la sua abilità Mischia come MD al tiro di attacco": Mischia 2 -> -2.
    near = Geometry(cells=1, cover="none")
    assert _dms(attack(SHOOTER, TARGET, KNIFE, near, Situation(parry=True), tables))["parry"] == -2
    with pytest.raises(SituationError, match="parry"):
        attack(SHOOTER, TARGET, PISTOL, OPEN, Situation(parry=True), tables)


def test_a_prone_target_cannot_dodge_and_a_prone_attacker_cannot_melee(tables: Tables) -> None:
    # 000:l.343: "Un personaggio prono non può effettuare attacchi di mischia o schivare."
    prone_target = replace(OPEN, target_stance="prone")
    with pytest.raises(SituationError, match="dodge"):
        attack(SHOOTER, TARGET, PISTOL, prone_target, Situation(dodge=True), tables)
    prone_attacker = Geometry(cells=1, cover="none", attacker_stance="prone")
    result = attack(SHOOTER, TARGET, KNIFE, prone_attacker, Situation(), tables)
    assert result.chance is None and result.reason == PRONE_NO_MELEE


def test_smoke_counts_double_for_lasers_and_conditions_touch_ranged_attacks_only(
    tables: Tables,
) -> None:
    # 000:l.213-217: dense smoke -2, doubled for lasers -> -4; total darkness -4; weather -1
    # visibility and -1 disturbance -> -2; all "agli attacchi a distanza".
    s = Situation(smoke="dense", darkness="total", weather=True)
    laser = _dms(attack(SHOOTER, TARGET, LASER, OPEN, s, tables))
    assert (laser["smoke"], laser["darkness"], laser["weather"]) == (-4, -4, -2)
    assert _dms(attack(SHOOTER, TARGET, PISTOL, OPEN, Situation(smoke="light"), tables)) == {
        "skill": 1, "characteristic": 1, "difficulty": 0, "smoke": -1,
    }  # fmt: skip
    melee = _dms(attack(SHOOTER, TARGET, KNIFE, Geometry(cells=1, cover="none"), s, tables))
    assert not {"smoke", "darkness", "weather"} & set(melee)


def test_burst_table_and_uncontrolled_burst(tables: Tables) -> None:
    # 000:l.254 "| 10 colpi | +2 | +2D6 danni |"; l.311: an uncontrolled burst takes the
    # burst's damage but not its accuracy, and -2 to hit.
    burst = attack(SHOOTER, TARGET, PISTOL, OPEN, Situation(burst=10), tables)
    assert _dms(burst)["burst"] == 2 and burst.extra_damage == "2d6"
    wild = attack(
        SHOOTER, TARGET, PISTOL, OPEN, Situation(burst=10, uncontrolled_burst=True), tables
    )
    assert "burst" not in _dms(wild)
    assert _dms(wild)["uncontrolled_burst"] == -2 and wild.extra_damage == "2d6"
    # l.252 "| 3 colpi | +1 | +1 punto di danno |"
    assert attack(SHOOTER, TARGET, PISTOL, OPEN, Situation(burst=3), tables).extra_damage == "1"
    with pytest.raises(SituationError, match="burst"):
        attack(SHOOTER, TARGET, PISTOL, OPEN, Situation(burst=5), tables)


def test_aim_to_kill_adds_damage_not_aim_at_most_6(tables: Tables) -> None:
    # C-5: "aim to kill: +1 per minor action aimed, at most +6"; l.91: "non si somma all'MD per
    # colpire". A 4-round burst (+1D6, l.253) and 3 actions aiming to kill: "1d6+3"; 8 -> "6".
    result = attack(SHOOTER, TARGET, PISTOL, OPEN, Situation(burst=4, aim_to_kill=3), tables)
    assert "aim" not in _dms(result) and result.extra_damage == "1d6+3"
    assert (
        attack(SHOOTER, TARGET, PISTOL, OPEN, Situation(aim_to_kill=8), tables).extra_damage == "6"
    )


def test_firing_into_melee_is_minus_2_for_firearms_only(tables: Tables) -> None:
    # 000:l.287: "sparando con un'arma da fuoco ad un bersaglio che si trova a gittata Personale
    # con un altro combattente, l'attacco subisce un MD di -2".
    beside = replace(OPEN, beside_target=True)
    assert _dms(attack(SHOOTER, TARGET, PISTOL, beside, Situation(), tables))["into_melee"] == -2
    thrown = replace(beside, cells=3)
    assert "into_melee" not in _dms(attack(SHOOTER, TARGET, GRENADE, thrown, Situation(), tables))
    override = Situation(into_melee=False)
    assert "into_melee" not in _dms(attack(SHOOTER, TARGET, PISTOL, beside, override, tables))


def test_zero_g_caps_the_skill_at_g_zero_and_recoil_is_minus_2(tables: Tables) -> None:
    # 000:l.283: Armi da Fuoco 2 and G-Zero 1 -> skill 1; "armi con rinculo ... MD-2".
    veteran = replace(SHOOTER, skills={"armi da fuoco": 2, "g-zero": 1})
    result = attack(veteran, TARGET, PISTOL, replace(OPEN, zero_g=True), Situation(), tables)
    assert _dms(result)["skill"] == 1 and _dms(result)["zero_g_recoil"] == -2
    laser = attack(veteran, TARGET, LASER, replace(OPEN, zero_g=True), Situation(), tables)
    assert "zero_g_recoil" not in _dms(laser)


def test_melee_takes_the_better_of_str_and_dex_dm_and_thrown_uses_atletica(
    tables: Tables,
) -> None:
    # 000:l.130 "MD di Forza o Destrezza (a scelta dell'attaccante)"; l.134 Atletica + DEX DM.
    brawler = Sheet(dm={"str": 2, "dex": 1}, skills={"mischia": 1, "atletica": 3})
    near = Geometry(cells=1, cover="none")
    melee = attack(brawler, TARGET, KNIFE, near, Situation(), tables)
    assert (melee.modifiers[1].detail, _dms(melee)["characteristic"]) == ("str", 2)
    throw = attack(brawler, TARGET, GRENADE, Geometry(cells=2, cover="none"), Situation(), tables)
    assert _dms(throw)["skill"] == 3 and _dms(throw)["characteristic"] == 1


def test_out_of_range_where_the_table_says_dash_dash_and_extreme_range(tables: Tables) -> None:
    # 000:l.52: a pistol has "--" at Molto Lunga (167 cells = 250.5 m).
    far = attack(SHOOTER, TARGET, PISTOL, Geometry(cells=167, cover="none"), Situation(), tables)
    assert far.chance is None and far.reason == OUT_OF_RANGE
    # 000:l.277: beyond Distante, the Distante difficulty (rifle: Molto Difficile -4, l.53)
    # and -2 more, for skill 3+ only.
    sniper = replace(SHOOTER, skills={"armi da fuoco": 3})
    geo = Geometry(cells=400, cover="none")
    shot = attack(sniper, TARGET, RIFLE, geo, Situation(extreme_range=True), tables)
    assert _dms(shot)["difficulty"] == -4 and _dms(shot)["extreme_range"] == -2
    novice = attack(SHOOTER, TARGET, RIFLE, geo, Situation(extreme_range=True), tables)
    assert novice.reason == OUT_OF_RANGE


def test_full_cover_and_a_low_stance_cannot_be_hit(tables: Tables) -> None:
    # 000:l.260 "Se un personaggio dietro un riparo totale è accucciato o prono, non può essere
    # colpito"; C-3. Standing behind full cover: -4 (l.269).
    crouched = Geometry(cells=5, cover="none", target_stance="crouched")
    hidden = attack(SHOOTER, TARGET, PISTOL, crouched, Situation(cover="full"), tables)
    assert hidden.chance is None and hidden.reason == CANNOT_BE_HIT
    standing = attack(SHOOTER, TARGET, PISTOL, OPEN, Situation(cover="full"), tables)
    assert _dms(standing)["cover"] == -4


def test_own_reactions_hasty_suppression_and_the_roll(tables: Tables) -> None:
    # 000:l.79 hasty -1; l.160 each reaction -1; l.319 suppressive fire -2 and a suppressed
    # shooter -1. 1 + 1 + 0 - 1 - 2 - 2 - 1 = -4: 2d6 >= 12, 1/36. Dice 6 + 6 - 4 = 8: Effect 0.
    s = Situation(hasty=True, reactions=2, suppression=True, suppressed=True)
    result = attack(SHOOTER, TARGET, PISTOL, OPEN, s, tables)
    assert result.total_dm == -4
    assert result.chance == Fraction(1, 36)
    rolled = resolve(result, (6, 6), tables)
    assert (rolled.total, rolled.effect, rolled.success) == (8, 0, True)
