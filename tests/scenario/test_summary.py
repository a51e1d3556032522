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
