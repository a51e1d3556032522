"""C-1/C-4 within the round (game/rules/cepheus/tempo.py), worked out by hand from seed 000:
aiming (l.87), the reactions (l.158-170, 343), acting hastily (l.79)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from game.rules.cepheus import tempo
from game.rules.cepheus.attack import Geometry, Situation, attack
from game.rules.cepheus.data import Tables
from game.rules.cepheus.sheet import Sheet, Weapon
from game.rules.ruleset_answers import RulesRefusal

PISTOL = Weapon(type="pistola", kind="firearm", dice=3, bonus=-3, recoil=True)
LASER_SIGHTED = Weapon(type="fucile", kind="firearm", dice=3, bonus=-3, laser_sight=True)
KNIFE = Weapon(type="corpo_a_corpo", kind="melee", dice=2)
SHOOTER = Sheet(chars={"str": 7, "dex": 9, "end": 8}, dm={"dex": 1}, skills={"armi da fuoco": 1})


def _react(t: tempo.Tempo, tables: Tables, **given: object) -> str | None:
    args: dict[str, object] = {
        "aware": True,
        "prone": False,
        "melee": False,
        "in_cover": False,
        "mischia": 0,
        "able": True,
    }
    args.update(given)
    return tempo.choose_reaction(t, tables=tables, **args)  # type: ignore[arg-type]


def test_c1_three_aims_at_one_target_give_plus_3_and_the_exact_chance(tables: Tables) -> None:
    # 000:l.87 "ottiene un MD di +1 al suo attacco successivo sul bersaglio": three minor
    # actions (C-4: the whole turn) give +3. Armi da Fuoco 1 + DEX DM 1 + Media 0 (a pistol
    # at Breve, 7 cells) + aim 3 = +5: 2d6 + 5 >= 8 is 2d6 >= 3, 35 of 36.
    t = tempo.Tempo()
    for _ in range(3):
        t = tempo.aim(t, "foe", None, tables)
    assert (t.aim, t.aim_at, t.aimed_this_turn) == (3, "foe", 3)
    result = attack(SHOOTER, Sheet(), PISTOL, Geometry(7, "none"), Situation(aim=t.aim), tables)
    assert result.dm("aim") == 3
    assert result.chance == Fraction(35, 36)


def test_c4_aiming_spends_the_minor_action_then_the_significant_one(tables: Tables) -> None:
    # C-4: "one minor and one significant action, or three minor".
    t = tempo.aim(tempo.Tempo(), "foe", None, tables)
    assert not tempo.aim_spends_action(t, tables)  # one minor: the attack is still there
    t = tempo.aim(t, "foe", None, tables)
    assert tempo.aim_spends_action(t, tables)  # two minor: the significant action is gone
    t = tempo.aim(t, "foe", "aim", tables)
    with pytest.raises(RulesRefusal) as refused:
        tempo.aim(t, "foe", "aim", tables)
    assert refused.value.code == "no_minor_action"


def test_l386_seriously_wounded_the_first_aim_already_takes_the_significant_action(
    tables: Tables,
) -> None:
    # 000:l.386: it loses the minor action: one significant, or two minor (C-4, assumed).
    once = tempo.aim(tempo.Tempo(), "foe", None, tables, lost=1)
    assert tempo.aim_spends_action(once, tables, lost=1)
    twice = tempo.aim(once, "foe", "aim", tables, lost=1)
    with pytest.raises(RulesRefusal):
        tempo.aim(twice, "foe", "aim", tables, lost=1)


def test_c4_after_moving_and_attacking_no_minor_action_is_left_to_aim(tables: Tables) -> None:
    moved = tempo.after_command(tempo.Tempo(), "move")
    assert tempo.minor_left(moved, None, tables) == 2  # the three-minor turn: two more
    assert tempo.minor_left(moved, "attack", tables) == 0
    with pytest.raises(RulesRefusal):
        tempo.aim(moved, "foe", "attack", tables)


def test_c1_aim_is_at_most_plus_6_over_two_turns_and_starts_again_on_another_target(
    tables: Tables,
) -> None:
    # 000:l.87: "un massimo MD di mirare di +6 se spende sei azioni minori mirando".
    t = tempo.Tempo()
    for _turn in range(2):
        t = tempo.start_turn(t)
        for _ in range(3):
            t = tempo.aim(t, "foe", "aim" if t.aimed_this_turn >= 2 else None, tables)
    assert t.aim == 6
    t = tempo.start_turn(t)
    with pytest.raises(RulesRefusal) as refused:
        tempo.aim(t, "foe", None, tables)
    assert refused.value.code == "aim_at_most" and refused.value.values == {"most": 6}
    other = tempo.aim(t, "other", None, tables)
    assert (other.aim, other.aim_at) == (1, "other")


def test_c1_the_aim_is_lost_on_doing_anything_else_and_kept_across_declarations(
    tables: Tables,
) -> None:
    # 000:l.87: "finché il personaggio non fa altro che mirare fino a quando effettua l'attacco".
    aimed = tempo.aim(tempo.Tempo(), "foe", None, tables)
    for kept in ("aim", "hasty", "react_stance", "fire_mode", "end_turn", "delay"):
        assert tempo.after_command(aimed, kept).aim == 1
    for lost in ("move", "stance", "attack", "dash"):
        assert tempo.after_command(aimed, lost).aim == 0
    assert tempo.reacted(aimed).aim == 0  # a dodge is doing something else


def test_c1_laser_sight_adds_1_only_when_aiming(tables: Tables) -> None:
    # 000:l.144 "Mirino Laser +1 quando si mira". A rifle at Breve is Media (0).
    plain = attack(SHOOTER, Sheet(), LASER_SIGHTED, Geometry(7, "none"),
                   Situation(laser_sight=True), tables)  # fmt: skip
    aimed = attack(SHOOTER, Sheet(), LASER_SIGHTED, Geometry(7, "none"),
                   Situation(aim=1, laser_sight=True), tables)  # fmt: skip
    assert plain.dm("laser_sight") is None
    assert aimed.dm("aim") == 1 and aimed.dm("laser_sight") == 1
    assert aimed.total_dm == plain.total_dm + 2


def test_l166_dodge_is_minus_1_in_the_open_and_minus_2_in_cover(tables: Tables) -> None:
    # 000:l.166: "dando al suo attaccante un DM di -1 ... Se il personaggio è al riparo ... -2".
    assert _react(tempo.Tempo(), tables) == tempo.DODGE
    open_field = attack(SHOOTER, Sheet(), PISTOL, Geometry(7, "none"), Situation(dodge=True),
                        tables)  # fmt: skip
    in_cover = attack(SHOOTER, Sheet(), PISTOL, Geometry(7, "1/2"), Situation(dodge=True),
                      tables)  # fmt: skip
    assert open_field.dm("dodge") == -1
    assert in_cover.dm("dodge") == -2 and in_cover.dm("cover") == -1
    # 2d6 + 2 - 2 (the dodge, in cover) - 1 (1/2 cover) >= 8: 2d6 >= 9, 10 of 36.
    assert in_cover.chance == Fraction(10, 36)


def test_l170_parry_is_minus_mischia_in_melee_only_and_chosen_when_better(
    tables: Tables,
) -> None:
    # 000:l.170: "applicando la sua abilità Mischia come MD al tiro di attacco".
    assert _react(tempo.Tempo(), tables, melee=True, mischia=2) == tempo.PARRY
    assert _react(tempo.Tempo(), tables, melee=True, mischia=1) == tempo.DODGE  # a tie: dodge
    assert _react(tempo.Tempo(), tables, melee=False, mischia=3) == tempo.DODGE
    brawler = Sheet(chars={"str": 9, "dex": 7, "end": 7}, skills={"mischia": 2})
    parried = attack(SHOOTER, brawler, KNIFE, Geometry(1, "none"), Situation(parry=True), tables)
    assert parried.dm("parry") == -2


def test_l343_a_prone_unit_cannot_dodge_but_may_still_parry(tables: Tables) -> None:
    # 000:l.343: "Un personaggio prono non può ... schivare ... e può comunque parare".
    assert _react(tempo.Tempo(), tables, prone=True) is None
    assert _react(tempo.Tempo(), tables, prone=True, melee=True, mischia=1) == tempo.PARRY


def test_l162_only_attacks_it_is_aware_of_and_only_as_its_standing_choice_says(
    tables: Tables,
) -> None:
    # 000:l.162: "Un personaggio può reagire solo ad attacchi di cui è consapevole."
    assert _react(tempo.Tempo(), tables, aware=False) is None
    assert _react(tempo.Tempo(), tables, able=False) is None
    never = tempo.Tempo(react="never")
    assert _react(never, tables) is None
    later = tempo.Tempo(react="after_acting")
    assert _react(later, tables) is None
    assert _react(tempo.start_turn(later), tables) == tempo.DODGE
    modes = [tempo.Tempo().react]
    t = tempo.Tempo()
    for _ in range(3):
        t = tempo.next_react_mode(t)
        modes.append(t.react)
    assert modes == ["always", "after_acting", "never", "always"]


def test_l160_each_reaction_is_minus_1_to_own_checks_this_round_only(tables: Tables) -> None:
    # 000:l.160 and C-4: "-1 to checks this round", cumulative.
    t = tempo.reacted(tempo.reacted(tempo.Tempo()))
    assert t.reactions == 2
    own = attack(SHOOTER, Sheet(), PISTOL, Geometry(7, "none"), Situation(reactions=2), tables)
    assert own.dm("reactions") == -2
    assert tempo.start_round(t).reactions == 0


def test_l79_hasty_is_declared_for_the_next_round_once(tables: Tables) -> None:
    # 000:l.79: "+2 alla sua Iniziativa solo per quel round, ma tutte le sue azioni ricevono
    # un MD di -1. Un personaggio può affrettarsi una sola volta" (once a round: no +4).
    t = tempo.declare_hasty(tempo.Tempo())
    assert not t.hasty and t.hasty_next
    with pytest.raises(RulesRefusal) as refused:
        tempo.declare_hasty(t)
    assert refused.value.code == "already_hasty"
    t = tempo.start_round(t)
    assert t.hasty and not t.hasty_next
    hasty = attack(SHOOTER, Sheet(), PISTOL, Geometry(7, "none"), Situation(hasty=True), tables)
    assert hasty.dm("hasty") == -1
    assert not tempo.start_round(t).hasty


def test_000_l319_a_suppression_takes_its_effect_off_the_initiative_and_lasts_two_rounds() -> None:
    # "una penalità sul tiro di iniziativa pari all'Effetto ... MD-1 ... sia in questo turno
    # che nel successivo"; l.321 "l'Effetto più alto ha la precedenza".
    t, change = tempo.suppress(tempo.Tempo(aim=2, aim_at="bo"), 3)
    assert change == -3 and t.suppressed == 2 and t.suppression == 3
    assert t.aim == 0  # forced to dodge: it does something else than aiming (l.87)
    lower, change = tempo.suppress(t, 2)
    assert change == 0 and lower.suppression == 3
    higher, change = tempo.suppress(t, 5)
    assert change == -2 and higher.suppression == 5
    acted = tempo.start_turn(higher)
    assert acted.suppression == 0 and acted.suppressed == 2
    assert tempo.start_round(acted).suppressed == 1
    assert tempo.start_round(tempo.start_round(acted)).suppressed == 0


def test_000_l91_aiming_to_kill_reaches_6_and_is_lost_on_a_hit(tables: Tables) -> None:
    # C-5: "+1 per minor action aimed, at most +6".
    t = tempo.Tempo()
    for _ in range(3):
        t = tempo.aim(t, "bo", "aim", tables, kill=True)
    t = tempo.start_turn(t)
    for _ in range(3):
        t = tempo.aim(t, "bo", "aim", tables, kill=True)
    assert t.aim == 6 and t.aim_kill and tempo.aiming_to_kill(t)
    t = tempo.start_turn(t)
    with pytest.raises(RulesRefusal) as refused:
        tempo.aim(t, "bo", None, tables, kill=True)
    assert refused.value.code == "aim_at_most"
    lost = tempo.hit_while_aiming(t)
    assert lost.aim == 0 and not lost.aim_kill
    plain = tempo.aim(tempo.Tempo(), "bo", None, tables)
    assert tempo.hit_while_aiming(plain) is plain  # a plain aim is not lost on a hit
