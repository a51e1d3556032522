"""`tessera summary` prints the demo map's sides, initiative and a worked attack (gettext)."""

from __future__ import annotations

import ast
import os
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CATALOGUE = ROOT / "game" / "text" / "locale" / "it" / "LC_MESSAGES" / "tessera.po"


def _demo(**env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "game", "summary"],
        capture_output=True,
        text=True,
        env={**os.environ, **env},
        cwd=ROOT,
    )


def test_the_demo_prints_the_station_map_its_sides_and_a_worked_attack() -> None:
    done = _demo(TESSERA_LANG="en")
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert out.startswith("Tessera demo battle: Ardea Station")
    assert "40×30 cells, 2 levels, gravity 0.2 g" in out
    # Wisp is hidden and Brann a round-2 reinforcement in maps/station_interior.tmx
    assert "Wisp (hidden)" in out
    assert "Brann (arrives round 2)" in out
    assert "P-HIT-2" in out


def test_the_demo_speaks_italian_with_tessera_lang_it() -> None:
    done = _demo(TESSERA_LANG="it")
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("Battaglia dimostrativa di Tessera: Ardea Station")
    assert "Wisp (nascosto)" in done.stdout


def _translatable_strings() -> set[str]:
    found: set[str] = set()
    for path in (ROOT / "game").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Name)
                and node.func.id == "_"
                and node.args
                and isinstance(node.args[0], ast.Constant)
            ):
                found.add(str(node.args[0].value))
    return found


def test_the_italian_catalogue_translates_exactly_the_strings_the_game_marks() -> None:
    msgids = set(re.findall(r'^msgid "(.+)"$', CATALOGUE.read_text(encoding="utf-8"), re.M))
    assert msgids == _translatable_strings()


def test_the_compiled_italian_catalogue_matches_its_source() -> None:
    import gettext

    pairs = re.findall(
        r'^msgid "(.+)"\nmsgstr "(.*)"$', CATALOGUE.read_text(encoding="utf-8"), re.M
    )
    with CATALOGUE.with_suffix(".mo").open("rb") as mo:
        compiled = gettext.GNUTranslations(mo)
    assert pairs
    assert all(compiled.gettext(msgid) == msgstr for msgid, msgstr in pairs)


def test_summary_heads_another_map_with_its_own_name_and_names_its_sides() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "game", "summary", "maps/surface_outpost.tmx"],
        capture_output=True,
        text=True,
        env={**os.environ, "TESSERA_LANG": "en"},
        cwd=ROOT,
    )
    assert done.returncode == 0, done.stderr
    first = done.stdout.splitlines()[0]
    assert first == "Vesta-9 crater: the Ostrava claim"  # the map's `name` property
    assert "demo" not in first
    assert "Claim jumpers: " in done.stdout and "claim_jumpers" not in done.stdout


def test_f1_the_keep_is_summarised_under_its_own_fantasy_ruleset_agi_and_des_dice_no_d20() -> None:
    # maps/keep_gate.tmx defaults to fantasy: its order is the AGI die, then DES (F-1, 003:l.12-
    # 13), no roll; its twelve "human" units are the sample popolano (AGI d6, DES d6), all equal,
    # so all act together and their harm is counted after all of them (003:l.13).
    done = subprocess.run(
        [sys.executable, "-m", "game", "summary", "maps/keep_gate.tmx"],
        capture_output=True,
        text=True,
        env={**os.environ, "TESSERA_LANG": "en"},
        cwd=ROOT,
    )
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "Ruleset: Il Combattimento (sistema a dadi)" in out
    order = [line for line in out.splitlines() if line.startswith("  AGI ")]
    assert len(order) == 12 and all(line.startswith("  AGI d6 · DES d6  ") for line in order)
    assert "acting together, harm counted after all of them: Dunstan, Elspeth" in out


def test_the_ruleset_option_summarises_the_station_under_fantasy_and_refuses_an_unknown_one() -> (
    None
):
    def summary(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "game", "summary", *args],
            capture_output=True,
            text=True,
            env={**os.environ, "TESSERA_LANG": "en"},
            cwd=ROOT,
        )

    done = summary("--ruleset", "fantasy")
    assert done.returncode == 0, done.stderr
    # Wisp is the scavenger, the sample arciere (AGI d8, DES d10): first (F-1). Its sheet as the
    # fantasy object words it: PRE d10 + "uso balestre" d8 for its CAD 2 crossbow (003:l.82,
    # 140), DP 8 (VPB 8, no shield, 003:l.76), 8 body points (2/2/2/1/1, assumed).
    assert "  AGI d8 · DES d10  Wisp" in done.stdout
    # Issue 16: the sample is named in the interface's language (names.sample_name), not by its
    # Italian data id.
    assert (
        "  Archer: AGI d8 · DES d10 · POT d6 · PRE d10; Crossbow d10+d8, damage 1d10, CAD 2; DP 8;"
        " 8 body points — Wisp"
    ) in done.stdout
    assert "arciere" not in done.stdout
    italian = subprocess.run(
        [sys.executable, "-m", "game", "summary", "--ruleset", "fantasy"],
        capture_output=True,
        text=True,
        env={**os.environ, "TESSERA_LANG": "it"},
        cwd=ROOT,
    )
    assert "  Arciere: AGI d8 · DES d10" in italian.stdout
    # Kask's pitchfork needs contact (F-2): the fantasy object's answer, not periferie's P.
    assert "a melee attack needs an adjacent cell; Okafor is 12 away" in done.stdout
    assert "P-HIT-2" not in done.stdout
    assert "(walk 6; swim 6; climb 6)" in done.stdout  # F-3: 6 cells a turn
    wrong = summary("--ruleset", "nope")
    assert wrong.returncode == 2 and "unknown ruleset 'nope'" in wrong.stderr
