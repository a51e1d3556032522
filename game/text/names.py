"""Display names of what the rules data and the maps call by id — sides, weapons, armour,
templates, damage types, checks, dice purposes, levels — in the language spoken now.

The ids (`station_security`, `perforante`, `combat_knife`) are the journal's and the query's
words and never change; players read these names instead. They go through gettext like every
other sentence (one catalogue, game/text/locale/it), so that the English interface shows no
Italian rule term and the Italian one no English item name. An id this catalogue does not know
(a new map's side, a new ruleset's weapon) is shown by the record's own `name` when there is one,
else humanised ("red_team" -> "Red team"): never as a raw id. Rulesets add their words in their
own block below.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from game.text.bounds import clip
from game.text.i18n import _

Words = Mapping[str, Callable[[], str]]


def humanised(name: str) -> str:
    """An id made readable: underscores as spaces, the first letter upper case."""
    text = " ".join(name.replace("_", " ").split())
    return text[:1].upper() + text[1:] if text else name


def _named(words: Words, key: str, fallback: str | None = None) -> str:
    word = words.get(key)
    if word is not None:
        return word()
    return fallback if fallback else humanised(key)


# ---------------------------------------------------------------- periferie (seed 001)

_SIDES: dict[str, Callable[[], str]] = {
    "raiders": lambda: _("Raiders"),
    "station_security": lambda: _("Station security"),
    "miners": lambda: _("Miners"),
    "claim_jumpers": lambda: _("Claim jumpers"),
}

_WEAPONS: dict[str, Callable[[], str]] = {
    "pistol": lambda: _("Sidearm pistol"),
    "smg": lambda: _("Submachine gun"),
    "carbine": lambda: _("Carbine"),
    "shotgun": lambda: _("Shotgun"),
    "stun_baton": lambda: _("Stun baton"),
    "combat_knife": lambda: _("Combat knife"),
    "frag_grenade": lambda: _("Frag grenade"),
    "incendiary_grenade": lambda: _("Incendiary grenade"),
    "flash_grenade": lambda: _("Flash grenade"),
    "flamethrower": lambda: _("Flamethrower"),
    "rad_emitter": lambda: _("Rad emitter"),
}

_ARMOUR: dict[str, Callable[[], str]] = {
    "padded_vest": lambda: _("Padded vest"),
    "void_suit": lambda: _("Void suit"),
    "riot_armour": lambda: _("Riot armour"),
    "marine_plate": lambda: _("Void marine plate"),
}

_TEMPLATES: dict[str, Callable[[], str]] = {
    "human": lambda: _("Human"),
    "station_guard": lambda: _("Station guard"),
    "void_marine": lambda: _("Void marine"),
    "scavenger": lambda: _("Scavenger"),
    "maintenance_drone": lambda: _("Maintenance drone"),
    "knight": lambda: _("Knight"),
}

#: P-DMG-1's damage types: their ids are the seed's Italian names, which the Italian interface
#: keeps; the English one reads them in English.
_DAMAGE_TYPES: dict[str, Callable[[], str]] = {
    "taglio": lambda: _("cutting"),
    "perforante": lambda: _("piercing"),
    "impatto": lambda: _("impact"),
    "elettrico": lambda: _("electric"),
    "ustione": lambda: _("burn"),
    "radiazione": lambda: _("radiation"),
}

#: P-CHK-1's checks (game/rules/checknames.py): the seed's Italian names in Italian.
_CHECKS: dict[str, Callable[[], str]] = {
    "multitasking (iniziativa)": lambda: _("multitasking (initiative)"),
    "multitasking (percezione)": lambda: _("multitasking (perception)"),
    "multitasking (attenzione suddivisa)": lambda: _("multitasking (divided attention)"),
    "precisione (armi a distanza)": lambda: _("precision (ranged weapons)"),
    "precisione (furtività)": lambda: _("precision (stealth)"),
    "gravità muscolare (atletica)": lambda: _("muscle gravity (athletics)"),
    "ossatura (sopravvivenza)": lambda: _("frame (survival)"),
    "ossatura (radiazione)": lambda: _("frame (radiation)"),
    "applicazione (medicina)": lambda: _("application (medicine)"),
    "acrobatica": lambda: _("acrobatics"),
    # the other rulesets' improvised checks (game/tactics/rulesets/improvised.py)
    "end": lambda: _("END"),
    "str": lambda: _("STR"),
    "dex": lambda: _("DEX"),
    "plain": lambda: _("no modifier"),
    "attack": lambda: _("attack total"),
    "defence": lambda: _("defence total"),
    "brawl": lambda: _("brawl total"),
    "agi": lambda: _("AGI die"),
    "des": lambda: _("DES die"),
    "pot": lambda: _("POT die"),
    "pre": lambda: _("PRE die"),
}

#: The first words of a roll's purpose (game/battle, game/rules): "attack ada", "death save bo".
_PURPOSES: dict[str, Callable[[], str]] = {
    "attack": lambda: _("attack"),
    "reaction_attack": lambda: _("reaction attack"),
    "damage": lambda: _("damage"),
    "throw": lambda: _("throw"),
    "death_save": lambda: _("death save"),
    "burning": lambda: _("burning"),
    "collision": lambda: _("collision"),
    "stealth": lambda: _("stealth"),
    "vs": lambda: _("vs"),
    "hide": lambda: _("hide"),
    "search": lambda: _("search"),
    "medicine": lambda: _("medicine"),
    "improvise": lambda: _("improvise"),
    "initiative": lambda: _("initiative"),
    "jump": lambda: _("jump"),
    "drop": lambda: _("drop"),
}

# ---------------------------------------------------------------- (other rulesets add theirs here)

#: The keep's sides (maps/keep_gate.tmx, played under fantasy by default).
_SIDES.update(
    {
        "garrison": lambda: _("Garrison"),
        "besiegers": lambda: _("Besiegers"),
    }
)
#: The fantasy system's hit locations (F-3's assumed d100 table): a hit's damage "type" there.
HIT_LOCATIONS = frozenset({"head", "torso", "arms", "legs"})
_DAMAGE_TYPES.update(
    {
        "head": lambda: _("head"),
        "torso": lambda: _("torso"),
        "arms": lambda: _("arms"),
        "legs": lambda: _("legs"),
    }
)
#: Myst's weapon types (game/data/myst/weapons.toml; impatto and taglio are P-DMG-1's words).
_DAMAGE_TYPES["punta"] = lambda: _("thrusting")
#: A hit on a Myst rider's horse lands as the horse's damage (002:l.150).
_DAMAGE_TYPES["horse"] = lambda: _("horse")
#: The other rulesets' weapons by their data ids (the TOML keeps its own Italian or English
#: `name`; players read these): Myst's game/data/myst/weapons.toml, the fantasy sample sheets'
#: `weapon.id` (game/data/fantasy), Cepheus's [weapons.<id>] and d20's weapons.toml (whose
#: periferie ids are named above). An id two rulesets share means the same weapon in both.
_WEAPONS.update(
    {
        # Myst (seed 002): the samples, then the improvised weapons of 002:l.203-212
        "pugno": lambda: _("Punch or kick"),
        "spada": lambda: _("Sword"),
        "mazza": lambda: _("Mace"),
        "pugnale": lambda: _("Dagger"),
        "ascia_bipenne": lambda: _("Double-bladed axe"),
        "lancia": lambda: _("Spear"),
        "arco": lambda: _("Bow"),
        "balestra": lambda: _("Crossbow"),
        "boccale": lambda: _("Tankard"),
        "bottiglia": lambda: _("Bottle"),
        "bottiglia_spaccata": lambda: _("Broken bottle"),
        "forcone": lambda: _("Pitchfork"),
        "pala_zappa": lambda: _("Shovel or hoe"),
        "pentola": lambda: _("Cooking pot"),
        "sedia": lambda: _("Chair"),
        "trave": lambda: _("Beam"),
        # fantasy (seed 003) besides those
        "ascia": lambda: _("Axe"),
        # Cepheus (seed 000)
        "pugni": lambda: _("Fists (unarmed)"),
        "coltello": lambda: _("Combat knife"),
        "manganello": lambda: _("Stun baton"),
        "pistola_automatica": lambda: _("Automatic pistol"),
        "pistola_laser": lambda: _("Laser pistol"),
        "carabina": lambda: _("Carbine"),
        "fucile": lambda: _("Rifle"),
        "doppietta": lambda: _("Shotgun"),
        "mitraglietta": lambda: _("Machine pistol"),
        "fucile_d_assalto": lambda: _("Assault rifle"),
        "granata": lambda: _("Grenade (impact, no blast)"),
        "granata_a_frammentazione": lambda: _("Frag grenade"),
        "lanciarazzi": lambda: _("Rocket launcher"),
        # d20 (seed 004) besides periferie's ids
        "unarmed": lambda: _("Unarmed strike"),
        "longsword": lambda: _("Longsword"),
        "shortbow": lambda: _("Shortbow"),
        "light_crossbow": lambda: _("Light crossbow"),
        "shuriken": lambda: _("Shuriken"),
    }
)
#: The other rulesets' sample sheets by their data ids (`tessera summary` names a fantasy
#: sample by it): the seeds have no character lists, so these are Tessera's sample fighters.
_SAMPLES: dict[str, Callable[[], str]] = {
    # fantasy (game/data/fantasy/sheets.toml)
    "guerriero": lambda: _("Warrior"),
    "arciere": lambda: _("Archer"),
    "duellante": lambda: _("Duellist"),
    "bruto": lambda: _("Brute"),
    "popolano": lambda: _("Commoner"),
    # Myst (game/data/myst/sheets.toml) besides those
    "soldato": lambda: _("Soldier"),
    "cavaliere": lambda: _("Knight"),
}
#: The fantasy and Myst rolls' further words: "attack ada defence", "attack ada location".
_PURPOSES.update(
    {
        "defence": lambda: _("defence"),
        "location": lambda: _("location"),
    }
)


# ---------------------------------------------------------------- the names


def side_name(faction: str) -> str:
    """A side as players read it ("Station security"), clipped like every map-given name."""
    return clip(_named(_SIDES, faction))


def weapon_name(weapon: str, fallback: str | None = None) -> str:
    """A weapon by its id; `fallback` (the record's own name) for an id not listed here."""
    return _named(_WEAPONS, weapon, fallback)


def armour_name(armour: str, fallback: str | None = None) -> str:
    return _named(_ARMOUR, armour, fallback)


def template_name(template: str, fallback: str | None = None) -> str:
    return _named(_TEMPLATES, template, fallback)


def sample_name(sample: str) -> str:
    """A ruleset's sample sheet by its id ("Warrior"; "Guerriero" in Italian)."""
    return _named(_SAMPLES, sample)


def damage_type_name(damage_type: str) -> str:
    """A damage type of P-DMG-1 ("piercing"; "perforante" in Italian)."""
    return _named(_DAMAGE_TYPES, damage_type, damage_type)


def check_name(check: str) -> str:
    """A check of P-CHK-1 ("precision (ranged weapons)"; the seed's name in Italian)."""
    return _named(_CHECKS, check, check)


def purpose_text(purpose: str) -> str:
    """A roll's purpose with its words translated and weapon ids named; unit ids kept."""
    words = []
    for word in purpose.replace("death save", "death_save").split():
        if word in _PURPOSES:
            words.append(_PURPOSES[word]())
        elif word in _WEAPONS:
            words.append(_WEAPONS[word]())
        elif word == "?":  # game.battle.events.UNSEEN: a unit the player never saw
            words.append(_("someone unseen"))
        else:
            words.append(word)
    return " ".join(words)


def level_name(level: int, count: int) -> str:
    """A level as players count it: from 1, the ground first."""
    return _("Level {n} of {count}").format(n=level + 1, count=count)


def known_ids() -> frozenset[str]:
    """Every id this catalogue names (tests look for them left raw on screen)."""
    return frozenset(
        {*_SIDES, *_WEAPONS, *_ARMOUR, *_TEMPLATES, *_DAMAGE_TYPES, *_CHECKS} - {"human"}
    )
