"""game/data/d20: the seed's two tables copied row by row, D-2's base, the sample data marked."""

from __future__ import annotations

from pathlib import Path

import pytest

from game.rules.d20.data import DIRECTORY, D20DataError, load_d20
from game.rules.d20.sheet import CONDITIONS

# The seed's rows as printed (004:l.9-17 and l.27-40), typed here from the text, not the TOML:
# (melee, ranged), None where the seed prints "-".
ATTACK_TABLE = {
    "abbagliato": (10, -1, -1),  # "Abbagliato -1 -1"
    "flanking": (11, 2, None),  # "Ai fianchi del difensore +2 -"
    "higher_ground": (12, 1, 0),  # "In posizione sopraelevata +1 +0"
    "intralciato": (13, -2, -2),  # "Intralcio -2 ¹ -2 ¹"
    "invisibile": (14, 2, 2),  # "Invisibile +2 ² +2 ²"
    "prone": (15, -4, 0),  # "Prono -4 - ³" (note 3: crossbow and shuriken with no penalty)
    "ristretto": (16, -4, -4),  # "Ristretto in uno spazio -4 -4"
    "scosso": (17, -2, -2),  # "Scosso o spaventato -2 -2"
    "spaventato": (17, -2, -2),
}
AC_TABLE = {
    "accecato": (28, -2, -2),  # "Accecato -2 ¹ -2 ¹"
    "colto_alla_sprovvista": (29, 0, 0),  # "+0 ¹ +0 ¹"
    "immobilizzato": (30, -4, 0),  # "Immobilizzato -4 ² +0 ²"
    "kneeling": (31, -2, 2),  # "In ginocchio o seduto -2 +2"
    "in_lotta": (32, 0, 0),  # "In lotta (ma l'attaccante non lo è) +0 ¹ +0 ¹,³"
    "indifeso": (33, -4, 0),  # "Indifeso -4 ² +0 ²"
    "intralciato": (34, 0, 0),  # "Intralcio +0 ⁴ +0 ⁴"
    "cover": (36, 4, 4),  # "Oltre una copertura +4 +4"
    "prone": (37, -4, 4),  # "Prono -4 +4"
    "ristretto": (38, -4, -4),  # "Ristretto in uno spazio -4 -4"
    "stordito": (39, -2, -2),  # "Stordito -2 ¹ -2 ¹"
    "tremante": (40, -2, -2),  # "Tremante -2 ¹ -2 ¹"
}
# Note 1 (l.42) "perde qualsiasi bonus di Destrezza": rows marked ¹; note 2 (l.44) Dex 0: ².
DEX_LOST = {"accecato", "colto_alla_sprovvista", "in_lotta", "stordito", "tremante"}
DEX_ZERO = {"immobilizzato", "indifeso"}


def test_the_attack_table_is_the_seeds_row_by_row_004_l7_23() -> None:
    rows = load_d20().attack
    assert set(rows) == set(ATTACK_TABLE)
    for name, (line, melee, ranged) in ATTACK_TABLE.items():
        assert (rows[name].line, rows[name].melee, rows[name].ranged) == (line, melee, ranged)
    assert rows["prone"].ranged_only_with == ("crossbow", "shuriken")  # l.23
    assert rows["intralciato"].dex_penalty == -4  # l.19


def test_the_ac_table_is_the_seeds_row_by_row_with_its_dex_notes_004_l25_48() -> None:
    rows = load_d20().ac
    assert set(rows) == set(AC_TABLE)
    for name, (line, melee, ranged) in AC_TABLE.items():
        assert (rows[name].line, rows[name].melee, rows[name].ranged) == (line, melee, ranged)
    assert {n for n, r in rows.items() if r.dex == "lost"} == DEX_LOST
    assert {n for n, r in rows.items() if r.dex == "zero"} == DEX_ZERO
    assert rows["intralciato"].dex_penalty == -4  # l.48


def test_every_sheet_condition_is_a_row_of_one_of_the_tables() -> None:
    data = load_d20()
    assert all(c in data.attack or c in data.ac for c in CONDITIONS)


def test_the_base_numbers_are_the_seeds_and_d2s() -> None:
    base = load_d20().base
    # l.36 +4, l.70 +8, l.56 6 cells, l.80 20 %, l.84 50 %, l.116 DC 10, l.44 -5; D-2 the rest.
    assert (base.cover_normal, base.cover_soft, base.cover_improved) == (4, 4, 8)
    assert base.low_obstacle_range == 6
    assert (base.concealment_normal, base.concealment_total) == (20, 50)
    assert base.coup_de_grace_dc == 10
    assert base.dex_zero_modifier == -5
    assert (base.natural_miss, base.natural_hit, base.critical_multiplier) == (1, 20, 2)
    assert (base.hp_disabled, base.hp_dead, base.stabilise_percent) == (0, -10, 10)
    assert (base.speed, base.five_foot_step, base.reach) == (6, 1, 1)
    # ASSUMED, the 3.5 SRD's disabled creature ([disabled]; D-2 says only "one action").
    assert base.disabled_strenuous_damage == 1
    assert base.disabled_strenuous == ("attack", "opportunity_attack")
    assert base.disabled_speed_divisor == 2


def test_every_sample_sheet_and_weapon_says_it_is_sample_data() -> None:
    data = load_d20()
    assert all(s.sample for s in data.sheets.values())
    assert all(w.sample for w in data.weapons.values())
    # One sheet for every periferie template (the shipped maps name them).
    assert {"human", "station_guard", "void_marine", "scavenger", "maintenance_drone"} <= set(
        data.sheets
    )


def test_a_bad_data_file_is_refused_naming_the_file_the_entry_and_the_key(tmp_path: Path) -> None:
    for name in ("modifiers.toml", "base.toml", "weapons.toml", "sheets.toml"):
        source = DIRECTORY / name
        (tmp_path / name).write_text(source.read_text(encoding="utf-8"), encoding="utf-8")
    weapons = tmp_path / "weapons.toml"
    weapons.write_text(
        weapons.read_text(encoding="utf-8") + '\n[spear]\nkind = "pole"\n', encoding="utf-8"
    )
    with pytest.raises(D20DataError, match=r"weapons.toml: \[spear\].kind: unknown value 'pole'"):
        load_d20(tmp_path)


def test_the_disabled_creatures_strenuous_acts_are_checked_by_name(tmp_path: Path) -> None:
    for name in ("modifiers.toml", "base.toml", "weapons.toml", "sheets.toml"):
        (tmp_path / name).write_text((DIRECTORY / name).read_text(encoding="utf-8"), "utf-8")
    base = tmp_path / "base.toml"
    text = base.read_text(encoding="utf-8")
    base.write_text(text.replace('"opportunity_attack"]', '"sprint"]'), encoding="utf-8")
    with pytest.raises(D20DataError, match=r"base.toml: \[disabled\].strenuous: expected a list"):
        load_d20(tmp_path)
    base.write_text(text.replace("speed_divisor = 2", "speed_divisor = 0"), encoding="utf-8")
    with pytest.raises(D20DataError, match=r"\[disabled\].speed_divisor: 1 or more, got 0"):
        load_d20(tmp_path)
