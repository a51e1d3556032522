"""C-1 initiative (000:l.62-79, 160), worked by hand."""

from __future__ import annotations

import pytest

from game.rules.cepheus.data import Tables
from game.rules.cepheus.initiative import Contender, order, score
from game.rules.cepheus.sheet import MissingCharacteristic


def test_initiative_is_2d6_plus_dex_dm(tables: Tables) -> None:
    # 000:l.64 "ogni persona tira 2d6 e somma il suo MD di Destrezza": 8 + 1 = 9.
    assert score(Contender("a", 8, dex_dm=1), tables)[0] == 9


def test_the_aware_side_of_an_ambush_scores_12_plus_dex_dm(tables: Tables) -> None:
    # 000:l.64 "un 12 automatico sul loro tiro, ricevendo così un'Iniziativa pari a 12 + MD di
    # Destrezza": 12 + 1 = 13, whatever was rolled.
    assert score(Contender("a", None, dex_dm=1, aware=True), tables)[0] == 13


def test_hasty_plus_2_and_each_reaction_minus_2(tables: Tables) -> None:
    # l.79 "+2 alla sua Iniziativa"; l.160 "Ogni reazione abbassa l'Iniziativa di 2":
    # 9 + 0 + 2 - 2 x 2 = 7.
    assert score(Contender("a", 9, hasty=True, reactions=2), tables)[0] == 7


def test_ties_go_to_the_higher_dex_then_act_simultaneously(tables: Tables) -> None:
    # l.70 "il personaggio con la Destrezza più alta va per primo. Se sono ancora pari, i
    # personaggi agiscono simultaneamente". a, b, c, d all score 9; b has DEX 10, c and d 7.
    result = order(
        [
            Contender("a", 9, dex=8),
            Contender("b", 9, dex=10),
            Contender("c", 9, dex=7),
            Contender("d", 9, dex=7),
            Contender("e", 11, dex=2),
        ],
        tables,
    )
    assert result.order == ("e", "b", "a", "c", "d")
    assert result.simultaneous == (("c", "d"),)


def test_a_tie_needs_dex_and_names_it(tables: Tables) -> None:
    with pytest.raises(MissingCharacteristic, match=r"sheet\.chars\.dex"):
        order([Contender("a", 9, dex=8), Contender("b", 9)], tables)


def test_a_2d6_roll_is_2_to_12(tables: Tables) -> None:
    with pytest.raises(ValueError, match=r"2\.\.12"):
        score(Contender("a", 13), tables)
