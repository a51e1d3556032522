"""Cepheus first aid (000:l.398, "Pronto Soccorso") as a medkit in battle.

"Prestare pronto soccorso fa recuperare un numero di punti caratteristica pari al doppio
dell'Effetto della prova di Medico ... divisi come si desidera tra tutte le caratteristiche
fisiche danneggiate ... Prestare pronto soccorso a se stessi è un compito Difficile (-2)."
A battle lasts minutes at most, so the treatment is always within the five minutes of the
wound: twice the Effect. The seed names no characteristic for the Medico check and the sheets
carry only END, STR and DEX: the check is 2d6 + Medico (+ −2 on oneself) ≥ 8 (assumed).
"""

from __future__ import annotations

from dataclasses import replace
from types import MappingProxyType
from typing import Final

from game.rules.cepheus.sheet import CHARS, Sheet

#: 000:l.398: first aid on oneself is Difficile (C-2's DM).
SELF_DM: Final = -2
#: 000:l.398: points restored per point of Effect within five minutes of the wound.
PER_EFFECT: Final = 2


def first_aid_dm(medic: Sheet, on_self: bool) -> int:
    """The check's DMs: the Medico skill, −2 when treating oneself."""
    return medic.skill("medico") + (SELF_DM if on_self else 0)


def restored_points(effect: int) -> int:
    """000:l.398: twice the Effect of a successful check; nothing on a failure (Effect < 0)."""
    return PER_EFFECT * effect if effect > 0 else 0


def damaged(sheet: Sheet) -> bool:
    """A physical characteristic below its maximum: something for first aid to treat."""
    return any(sheet.chars.get(c, 0) < sheet.max_of(c) for c in CHARS if c in sheet.chars)


def restore(sheet: Sheet, points: int) -> tuple[Sheet, int]:
    """The sheet with up to `points` back, one at a time to the damaged characteristic with
    the fewest points (ties in C-5's order, END, STR, DEX), none above its maximum: the points
    go first where a characteristic at 0 keeps its owner down (the seed lets the player
    divide them; this is the computer's choice for everyone). Also the points used."""
    chars = dict(sheet.chars)
    used = 0
    while used < points:
        low = [c for c in CHARS if c in chars and chars[c] < sheet.max_of(c)]
        if not low:
            break
        pick = min(low, key=lambda c: (chars[c], CHARS.index(c)))
        chars[pick] += 1
        used += 1
    return replace(sheet, chars=MappingProxyType(chars)), used
