"""`tessera run/play --ruleset ID`: a new battle under another ruleset than the map's, recorded
in the journal's header; a ruleset that answers queries only is refused by name, never with a
traceback (docs/battle.md, "Rulesets").

Two rulesets are listed for these tests only (monkeypatched into the registry): `twin`, a
playable copy of periferie (its object and data), and `quiet`, an object without a battle side,
as cepheus and d20 are while only their queries exist.
"""

from __future__ import annotations

import io
import json
import sys
import types
from dataclasses import replace
from pathlib import Path
from types import MappingProxyType

import pytest

from game.app.draft import rulesets
from game.battle.cli import run_battle
from game.battle.journal import JournalError, read_journal
from game.battle.session import Session
from game.battle.setup import setup_from_map, with_ruleset
from game.cli import main
from game.maps import load_map
from game.rules import registry
from game.tactics.ruleset import NotPlayable, battle_rules, playable_ids, ruleset_for

REPO = Path(__file__).resolve().parents[2]
STATION = REPO / "maps" / "station_interior.tmx"


class _Quiet:
    """A ruleset object written before the battle side existed: no `battle` at all."""

    id = "quiet"
    entity_fields = ()
    queries = MappingProxyType({})

    def read_entity(self, spec, where, base, rules):  # type: ignore[no-untyped-def]
        return base

    def unit_fields(self, template, weapon, armour):  # type: ignore[no-untyped-def]
        return {}


class _Twin:
    """periferie under another id: its object's answers, its data."""

    id = "twin"

    def __getattr__(self, name: str) -> object:
        return getattr(ruleset_for("periferie"), name)


@pytest.fixture
def listed(monkeypatch: pytest.MonkeyPatch) -> None:
    periferie = registry.ruleset("periferie")
    extra = (
        registry.Ruleset("twin", "Twin", periferie.directory),
        registry.Ruleset("quiet", "Quiet", periferie.directory),
    )
    monkeypatch.setattr(registry, "RULESETS", (*registry.RULESETS, *extra))
    monkeypatch.setattr(registry, "IDS", tuple(r.id for r in registry.RULESETS))
    for ruleset_id, obj in (("twin", _Twin()), ("quiet", _Quiet())):
        module = types.ModuleType(f"game.tactics.rulesets.{ruleset_id}")
        module.RULESET = obj  # type: ignore[attr-defined]
        monkeypatch.setitem(sys.modules, module.__name__, module)


def _run(
    journal: Path, ruleset: str | None, lines: str = ""
) -> tuple[int, list[dict[str, object]]]:
    out = io.StringIO()
    status = run_battle(
        str(STATION),
        str(journal),
        computer=[],
        ruleset=ruleset,
        stdin=io.StringIO(lines),
        stdout=out,
    )
    return status, [json.loads(line) for line in out.getvalue().splitlines()]


@pytest.mark.usefixtures("listed")
def test_a_ruleset_without_a_battle_side_is_query_only_and_named_in_the_refusal() -> None:
    assert playable_ids()[0] == "periferie" and playable_ids()[-1] == "twin"
    assert "quiet" not in playable_ids()
    with pytest.raises(NotPlayable, match=r"'quiet' answers queries only.*periferie, .*twin"):
        battle_rules("quiet")
    with pytest.raises(registry.UnknownRuleset, match="gurps"):
        battle_rules("gurps")


@pytest.mark.usefixtures("listed")
def test_the_new_battle_screen_lists_the_playable_rulesets_and_leaves_out_a_query_only_one() -> (
    None
):
    listed = rulesets()
    assert listed["periferie"] == "Le Periferie del Vuoto" and listed["twin"] == "Twin"
    assert "quiet" not in listed


@pytest.mark.usefixtures("listed")
def test_run_with_a_query_only_ruleset_is_refused_by_name_and_writes_no_journal(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    journal = tmp_path / "b.jsonl"
    status, lines = _run(journal, "quiet")
    assert status == 2 and lines == []
    err = capsys.readouterr().err
    assert err.startswith("error: --ruleset quiet: the ruleset 'quiet' answers queries only")
    assert "Traceback" not in err and not journal.exists()


@pytest.mark.usefixtures("listed")
def test_a_map_whose_own_ruleset_is_query_only_is_refused_when_the_battle_starts(
    tmp_path: Path,
) -> None:
    loaded = load_map(STATION)
    setup = replace(setup_from_map(loaded, seed=1), ruleset="quiet")
    with pytest.raises(ValueError, match=r"station_interior.tmx: ruleset: .*queries only"):
        with_ruleset(setup, None)
    with pytest.raises(JournalError, match="answers queries only"):
        Session.new(setup, tmp_path / "b.jsonl")
    assert not (tmp_path / "b.jsonl").exists()


@pytest.mark.usefixtures("listed")
def test_run_ruleset_overrides_the_maps_and_the_journal_header_records_it(tmp_path: Path) -> None:
    assert load_map(STATION).properties.ruleset == "periferie"
    journal = tmp_path / "b.jsonl"
    status, lines = _run(journal, "twin")
    assert status == 0 and lines[-1]["event"] == "end"
    assert read_journal(journal).setup.ruleset == "twin"
    # Continued, it keeps its ruleset: another one is refused by name, the same one is fine.
    status, _lines = _run(journal, "periferie")
    assert status == 2
    status, _lines = _run(journal, "twin")
    assert status == 0
    status, _lines = _run(journal, None)
    assert status == 0


def test_the_command_line_takes_ruleset_for_run_and_play(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status = main(["run", str(STATION), "--journal", str(tmp_path / "j"), "--ruleset", "gurps"])
    assert status == 2
    assert "error: --ruleset gurps: unknown ruleset 'gurps' (known: periferie" in (
        capsys.readouterr().err
    )
    status = main(["play", str(STATION), "--ruleset", "gurps", "--frames", "0"])
    assert status == 2
    assert "--ruleset gurps: unknown ruleset" in capsys.readouterr().err
