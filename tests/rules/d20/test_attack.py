"""d20 attacks worked by hand from seed 004's tables and D-2's base (hit when d20 + bonus >= AC,
a natural 1 misses, a natural 20 hits). Each case says the sentence it rests on and its sums."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

import pytest

from game.rules.d20.attack import Reason, Situation, attack, critical_dice, resolve
from game.rules.d20.data import Weapon, load_d20
from game.rules.d20.sheet import Sheet
from game.rules.stance import Stance

DATA = load_d20()
MELEE = Weapon("sword", "sword", "melee", "1d8")
RANGED = Weapon("bow", "bow", "bow", "1d6")
PISTOL = Weapon("pistol", "pistol", "ranged", "2d6")
CROSSBOW = Weapon("xbow", "xbow", "crossbow", "1d8")


def sheet(**kw: object) -> Sheet:
    conditions = frozenset(kw.pop("conditions", ()))  # type: ignore[arg-type]
    return replace(Sheet(), conditions=conditions, **kw)  # type: ignore[arg-type]


def test_the_base_roll_needs_ac_minus_bonus_d2() -> None:
    # D-2: hit when d20 + 5 >= 15, so a face of 10..20: 11 faces of 20.
    out = attack(DATA, sheet(attack_melee=5), sheet(ac=15), Situation(MELEE))
    assert (out.attack_bonus, out.ac, out.needed, out.chance) == (5, 15, 10, Fraction(11, 20))
    assert out.attack_modifiers == {} and out.ac_modifiers == {}


def test_a_natural_1_always_misses_and_a_natural_20_always_hits_d2() -> None:
    # +20 against AC 10 would hit on any face, but a 1 misses: 19/20.
    easy = attack(DATA, sheet(attack_melee=20), sheet(ac=10), Situation(MELEE))
    assert (easy.needed, easy.chance) == (2, Fraction(19, 20))
    # +0 against AC 30 would never hit, but a 20 hits: 1/20.
    hard = attack(DATA, sheet(), sheet(ac=30), Situation(MELEE))
    assert (hard.needed, hard.chance) == (20, Fraction(1, 20))


def test_flanking_gives_plus_2_in_melee_only_004_l11() -> None:
    # l.11 "Ai fianchi del difensore +2 -": +3 + 2 = 5 vs AC 14 needs 9: 12/20 = 3/5.
    out = attack(DATA, sheet(attack_melee=3), sheet(ac=14), Situation(MELEE, flanking=True))
    assert out.attack_modifiers == {"flanking": 2}
    assert (out.attack_bonus, out.needed, out.chance) == (5, 9, Fraction(3, 5))
    ranged = attack(DATA, sheet(attack_ranged=3), sheet(ac=14), Situation(RANGED, flanking=True))
    assert ranged.attack_modifiers == {} and ranged.attack_bonus == 3


def test_higher_ground_is_plus_1_in_melee_and_plus_0_at_range_004_l12() -> None:
    # l.12 "In posizione sopraelevata +1 +0" (D-3: the attacker on a higher level).
    up = attack(DATA, sheet(attack_melee=2), sheet(ac=12), Situation(MELEE, higher_ground=True))
    assert up.attack_modifiers == {"higher_ground": 1} and up.attack_bonus == 3
    shot = attack(DATA, sheet(attack_ranged=2), sheet(ac=12), Situation(RANGED, higher_ground=True))
    assert shot.attack_modifiers == {"higher_ground": 0} and shot.attack_bonus == 2


def test_a_prone_attacker_is_minus_4_in_melee_and_shoots_only_a_crossbow_004_l15_l23() -> None:
    # l.15 "Prono -4 - ³"; l.23: "non può usare la maggior parte delle armi a distanza, ma può
    # comunque usare una balestra o le shuriken da posizione prona senza alcuna penalità".
    prone = Situation(MELEE, attacker_stance=Stance.PRONE)
    assert attack(DATA, sheet(attack_melee=4), sheet(ac=10), prone).attack_bonus == 0
    pistol = attack(DATA, sheet(), sheet(), Situation(PISTOL, attacker_stance=Stance.PRONE))
    assert (pistol.reason, pistol.chance) == (Reason.CANNOT_ATTACK_PRONE, None)
    xbow = attack(
        DATA,
        sheet(attack_ranged=4),
        sheet(ac=10),
        Situation(CROSSBOW, attacker_stance=Stance.PRONE),
    )
    assert xbow.reason is None and xbow.attack_bonus == 4 and xbow.needed == 6


def test_an_entangled_attacker_loses_2_and_2_more_at_range_from_dex_004_l13_l19() -> None:
    # l.13 "Intralcio -2 -2"; l.19: "-4 alla Destrezza, che può influenzare il suo tiro per
    # colpire": a ranged attack adds Dex (D-2's 3.5 base), -4 Dex = -2. Melee: +5 - 2 = 3;
    # ranged: +5 - 2 - 2 = 1.
    a = sheet(attack_melee=5, attack_ranged=5, conditions={"intralciato"})
    assert attack(DATA, a, sheet(), Situation(MELEE)).attack_bonus == 3
    ranged = attack(DATA, a, sheet(), Situation(RANGED))
    assert ranged.attack_modifiers == {"intralciato": -2, "intralciato_dex": -2}
    assert ranged.attack_bonus == 1


def test_dazzled_shaken_and_squeezed_attackers_004_l10_l16_l17() -> None:
    # l.10 -1, l.16 -4, l.17 -2: +10 - 1 - 4 - 2 = 3.
    a = sheet(attack_melee=10, conditions={"abbagliato", "ristretto", "scosso"})
    out = attack(DATA, a, sheet(), Situation(MELEE))
    assert out.attack_modifiers == {"abbagliato": -1, "ristretto": -4, "scosso": -2}
    assert out.attack_bonus == 3


def test_an_invisible_attacker_gets_2_and_the_defender_loses_its_dex_bonus_004_l14_l21() -> None:
    # l.21 "Il difensore perde qualsiasi bonus di Destrezza alla CA": AC 16 with Dex +3 -> 13;
    # +4 + 2 = 6; needs 13 - 6 = 7: 14/20 = 7/10.
    out = attack(
        DATA,
        sheet(attack_melee=4, conditions={"invisibile"}),
        sheet(ac=16, dex_ac=3),
        Situation(MELEE),
    )
    assert out.attack_modifiers == {"invisibile": 2}
    assert out.ac_modifiers == {"dex_lost": -3} and out.dex_lost
    assert (out.attack_bonus, out.ac, out.needed, out.chance) == (6, 13, 7, Fraction(7, 10))


def test_an_invisible_attacker_gets_no_2_against_a_blinded_target_004_l21_l28() -> None:
    # l.21 "Questo bonus non si applica se il bersaglio è accecato"; l.28 blinded -2 and no
    # Dex bonus (note 1): AC 16 - 2 - 3 = 11, bonus stays +4: needs 7.
    out = attack(
        DATA,
        sheet(attack_melee=4, conditions={"invisibile"}),
        sheet(ac=16, dex_ac=3, conditions={"accecato"}),
        Situation(MELEE),
    )
    assert out.attack_modifiers == {}
    assert out.ac_modifiers == {"accecato": -2, "dex_lost": -3}
    assert (out.ac, out.needed) == (11, 7)


def test_a_prone_defender_is_easier_in_melee_and_harder_at_range_004_l37() -> None:
    # l.37 "Prono -4 +4": AC 14 -> 10 in melee, 18 at range.
    target = sheet(ac=14)
    melee = attack(DATA, sheet(), target, Situation(MELEE, target_stance=Stance.PRONE))
    ranged = attack(DATA, sheet(), target, Situation(RANGED, target_stance=Stance.PRONE))
    assert (melee.ac, ranged.ac) == (10, 18)
    assert melee.ac_modifiers == {"prone": -4} and ranged.ac_modifiers == {"prone": 4}


def test_a_crouched_defender_counts_as_kneeling_d3_004_l31() -> None:
    # D-3 "Crouched counts as the table's kneeling"; l.31 "In ginocchio o seduto -2 +2".
    target = sheet(ac=14)
    melee = attack(DATA, sheet(), target, Situation(MELEE, target_stance=Stance.CROUCHED))
    ranged = attack(DATA, sheet(), target, Situation(RANGED, target_stance=Stance.CROUCHED))
    assert (melee.ac, ranged.ac) == (12, 16)
    assert melee.ac_modifiers == {"kneeling": -2}


def test_a_helpless_defender_is_minus_4_in_melee_with_dex_0_004_l33_l44_l110_l112() -> None:
    # l.110 "-4 alla CA contro gli attacchi in mischia, ma nessuna penalità contro gli attacchi
    # a distanza"; l.112 Dex "come se fosse -5". AC 15 with Dex +2: melee 15 - 4 - 2 - 5 = 4;
    # ranged 15 - 2 - 5 = 8. Attack +0 in melee needs 4: 17/20.
    target = sheet(ac=15, dex_ac=2, conditions={"indifeso"})
    melee = attack(DATA, sheet(), target, Situation(MELEE))
    assert melee.ac_modifiers == {"indifeso": -4, "dex_zero": -7}
    assert (melee.ac, melee.needed, melee.chance) == (4, 4, Fraction(17, 20))
    assert attack(DATA, sheet(), target, Situation(RANGED)).ac == 8


def test_a_pinned_defender_at_range_keeps_its_ac_but_for_dex_0_004_l30() -> None:
    # l.30 "Immobilizzato -4 ² +0 ²": AC 13 with Dex +1 at range: 13 + 0 - 1 - 5 = 7.
    target = sheet(ac=13, dex_ac=1, conditions={"immobilizzato"})
    out = attack(DATA, sheet(), target, Situation(RANGED))
    assert out.ac_modifiers == {"immobilizzato": 0, "dex_zero": -6} and out.ac == 7


def test_stunned_and_cowering_defenders_lose_2_and_their_dex_bonus_004_l39_l40() -> None:
    # l.39 "Stordito -2 ¹", l.40 "Tremante -2 ¹": AC 16 with Dex +3 -> 16 - 2 - 2 - 3 = 9
    # (the Dex bonus is lost once).
    target = sheet(ac=16, dex_ac=3, conditions={"stordito", "tremante"})
    out = attack(DATA, sheet(), target, Situation(MELEE))
    assert out.ac_modifiers == {"stordito": -2, "tremante": -2, "dex_lost": -3}
    assert out.ac == 9


def test_a_grappling_defender_loses_its_dex_only_if_the_attacker_is_not_grappling_004_l32() -> None:
    # l.32 "In lotta (ma l'attaccante non lo è) +0 ¹": AC 14 with Dex +2 -> 12; an attacker
    # itself grappling gets nothing of the row: 14.
    target = sheet(ac=14, dex_ac=2, conditions={"in_lotta"})
    assert attack(DATA, sheet(), target, Situation(MELEE)).ac == 12
    both = attack(DATA, sheet(conditions={"in_lotta"}), target, Situation(MELEE))
    assert both.ac == 14 and not both.dex_lost


def test_an_entangled_defender_loses_2_ac_through_dex_004_l34_l48() -> None:
    # l.48: "-4 alla Destrezza" = -2 Dex modifier: AC 15 with Dex +3 -> 13. Flat-footed too
    # (l.29, note 1): the Dex bonus left, +1, is lost as well: 12.
    out = attack(
        DATA, sheet(), sheet(ac=15, dex_ac=3, conditions={"intralciato"}), Situation(MELEE)
    )
    assert out.ac_modifiers == {"intralciato": 0, "intralciato_dex": -2} and out.ac == 13
    both = attack(
        DATA,
        sheet(),
        sheet(ac=15, dex_ac=3, conditions={"intralciato", "colto_alla_sprovvista"}),
        Situation(MELEE),
    )
    assert both.ac == 12
    assert both.ac_modifiers["dex_lost"] == -1


@pytest.mark.parametrize(("grade", "ac"), [("normal", 18), ("soft", 18), ("improved", 22)])
def test_cover_adds_4_and_improved_cover_8_004_l36_l64_l70(grade: str, ac: int) -> None:
    # l.36 "+4", l.64 soft cover "+4 alla CA", l.70 "si possono raddoppiare (a +8": AC 14.
    out = attack(DATA, sheet(), sheet(ac=14), Situation(RANGED, cover=grade))
    assert out.ac == ac and out.cover == grade


def test_concealment_multiplies_the_chance_by_its_miss_chance_004_l80_l84() -> None:
    # +5 vs AC 15: 11/20; 20 % miss (l.80): 11/20 * 4/5 = 11/25; 50 % (l.84): 11/40.
    base = (sheet(attack_ranged=5), sheet(ac=15))
    assert attack(DATA, *base, Situation(RANGED, concealment=20)).chance == Fraction(11, 25)
    total = attack(DATA, *base, Situation(RANGED, concealment=50))
    assert (total.hit, total.chance) == (Fraction(11, 20), Fraction(11, 40))


def test_no_line_of_sight_is_total_cover_and_no_attack_004_l68() -> None:
    out = attack(DATA, sheet(), sheet(), Situation(RANGED, cover="total"))
    assert (out.reason, out.chance) == (Reason.NO_LOS, None)


def test_no_attack_of_opportunity_against_cover_or_total_concealment_004_l58_l86() -> None:
    # l.58 "non può portare un attacco di opportunità contro un avversario che è sotto
    # copertura"; l.86 "... sotto occultamento totale".
    cover = attack(DATA, sheet(), sheet(), Situation(MELEE, cover="normal", opportunity=True))
    assert cover.reason is Reason.COVER_BLOCKS_OPPORTUNITY
    hidden = attack(DATA, sheet(), sheet(), Situation(MELEE, concealment=50, opportunity=True))
    assert hidden.reason is Reason.CONCEALMENT_BLOCKS_OPPORTUNITY
    # 20 % concealment does not stop it: +0 vs AC 10 needs 10, 11/20 * 4/5 = 11/25.
    seen = attack(DATA, sheet(), sheet(), Situation(MELEE, concealment=20, opportunity=True))
    assert seen.chance == Fraction(11, 25)


def test_a_coup_de_grace_hits_automatically_as_a_critical_only_on_the_helpless_004_l114_l116() -> (
    None
):
    # l.116 "colpisce automaticamente e mette a segno un colpo critico".
    helpless = sheet(conditions={"indifeso"})
    out = attack(DATA, sheet(), helpless, Situation(MELEE, coup_de_grace=True))
    assert (out.automatic, out.critical, out.chance, out.rounds) == (True, True, Fraction(1), 1)
    awake = attack(DATA, sheet(), sheet(), Situation(MELEE, coup_de_grace=True))
    assert awake.reason is Reason.NOT_HELPLESS
    # l.114: "anche usare un arco o una balestra, purché si trovi adiacente al bersaglio".
    far = attack(DATA, sheet(), helpless, Situation(RANGED, coup_de_grace=True, adjacent=False))
    assert far.reason is Reason.OUT_OF_REACH
    near = attack(DATA, sheet(), helpless, Situation(RANGED, coup_de_grace=True))
    assert near.automatic
    gun = attack(DATA, sheet(), helpless, Situation(PISTOL, coup_de_grace=True))
    assert gun.reason is Reason.WEAPON_CANNOT_COUP_DE_GRACE
    # l.120: not against a creature immune to criticals; two full rounds vs total concealment.
    immune = replace(helpless, crit_immune=True)
    assert attack(DATA, sheet(), immune, Situation(MELEE, coup_de_grace=True)).reason is (
        Reason.IMMUNE_TO_CRITICAL
    )
    hidden = attack(DATA, sheet(), helpless, Situation(MELEE, coup_de_grace=True, concealment=50))
    assert hidden.rounds == 2


def test_a_melee_attack_beyond_reach_is_refused() -> None:
    out = attack(DATA, sheet(), sheet(), Situation(MELEE, in_reach=False))
    assert out.reason is Reason.OUT_OF_REACH


def test_resolving_given_dice_d2() -> None:
    # +3 vs AC 15: 12 + 3 = 15 hits, 11 + 3 = 14 misses; a 20 hits and is the critical even
    # at -5 vs AC 30; a 1 misses at +30.
    assert resolve(DATA, 3, 15, 12).hit and not resolve(DATA, 3, 15, 11).hit
    twenty = resolve(DATA, -5, 30, 20)
    assert twenty.hit and twenty.critical
    assert not resolve(DATA, 30, 10, 1).hit
    assert not resolve(DATA, 30, 10, 20, crit_immune=True).critical
    # 004:l.80: after a hit, a d100 at or below the miss chance misses: 20 misses, 21 hits.
    assert resolve(DATA, 3, 15, 12, concealment=20, percentile=20).concealed
    assert resolve(DATA, 3, 15, 12, concealment=20, percentile=21).hit
    with pytest.raises(ValueError, match="d20 face"):
        resolve(DATA, 0, 10, 21)


def test_a_critical_doubles_the_weapon_dice_not_the_bonus_d2() -> None:
    assert critical_dice(DATA, "1d8+2") == "2d8+2"
    assert critical_dice(DATA, "2d6") == "4d6"


def test_d2_a_dying_defender_is_helpless_004_l110_without_the_condition_on_its_sheet() -> None:
    # l.110 "privo di sensi": D-2's dying (-1..-9) is unconscious. AC 15 with Dex bonus 2:
    # melee -4 (l.33), Dex 0 = -5 in place of +2: -7 (l.44); AC 4. A disabled one (0) is
    # conscious: no row.
    dying = attack(DATA, sheet(), sheet(ac=15, dex_ac=2, hit_points=-3), Situation(MELEE))
    assert dying.ac_modifiers == {"indifeso": -4, "dex_zero": -7} and dying.ac == 4
    disabled = attack(DATA, sheet(), sheet(ac=15, dex_ac=2, hit_points=0), Situation(MELEE))
    assert disabled.ac_modifiers == {} and disabled.ac == 15
    # A coup de grâce needs no "indifeso" on the sheet of a dying target (l.114).
    blow = attack(DATA, sheet(), sheet(hit_points=-1), Situation(MELEE, coup_de_grace=True))
    assert blow.automatic and blow.critical


def test_004_l29_a_defender_before_its_first_turn_is_flat_footed_losing_its_dex_bonus() -> None:
    # l.29 "Colto alla sprovvista +0 (1)", note 1 (l.42): AC 15 with Dex bonus 2 -> 13.
    out = attack(DATA, sheet(), sheet(ac=15, dex_ac=2, before_first_turn=True), Situation(MELEE))
    assert out.ac_modifiers == {"colto_alla_sprovvista": 0, "dex_lost": -2} and out.ac == 13
