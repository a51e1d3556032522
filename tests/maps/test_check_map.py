"""`tessera check-map`: a summary and exit 0 for a good map, one error line and exit 2 otherwise."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from game.maps.check import run_check_map

REPO = Path(__file__).parents[2]
DATA = Path(__file__).parent / "data"

# Worked out from depot.tmx by hand (see test_loader.py for the arithmetic of each count).
DEPOT_SUMMARY = """\
map: tests/maps/data/depot.tmx
name: Depot 7 — A supply depot with a loft
size: 8×6 cells, 2 levels (tiles 16×16 px)
gravity: 0.38 g; pressurised: no; ruleset: periferie
levels:
  0 ground (group 1): backdrop, floor, walls, collision (hidden), clutter, units
  1 loft (group 8): loft floor, loft walls, units
obstacles (full / thin / half):
  level 0: 25 / 2 / 1
  level 1: 0 / 0 / 1
terrain:
  level 0: rough 2, water 2, climbable 1, stairs 1, floor 0
  level 1: rough 0, water 0, climbable 0, stairs 0, floor 6
units: 8
  red (3):
    ada at (1, 1, 0)
    bo at (2, 4, 0)
    fay at (0, 3, 1)
  blue (4):
    cy at (5, 4, 0) [hidden]
    blue-1 at (6, 1, 0) [surprised]
    eve at (1, 2, 0) [arrives round 2]
    dan at (1, 1, 1)
  wildlife (1):
    rat at (3, 4, 0)
notices: 0
"""


def _check_map(*paths: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "game", "check-map", *paths],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_check_map_summarises_a_good_map_and_exits_0() -> None:
    result = _check_map("tests/maps/data/depot.tmx")
    assert result.returncode == 0, result.stderr
    assert result.stdout == DEPOT_SUMMARY
    assert result.stderr == ""


def test_check_map_prints_one_error_line_on_stderr_nothing_on_stdout_and_exits_2(
    tmp_path: Path,
) -> None:
    bad = tmp_path / "bad.tmx"
    bad.write_text((DATA / "depot.tmx").read_text().replace('"orthogonal"', '"hexagonal"'))
    result = _check_map(str(bad))
    assert result.returncode == 2
    assert result.stdout == ""
    assert result.stderr == (
        f"error: {bad}: only orthogonal maps are supported; this map is hexagonal\n"
    )


def test_check_map_on_a_missing_file_exits_2_with_one_line(tmp_path: Path) -> None:
    result = _check_map(str(tmp_path / "nowhere.tmx"))
    assert (result.returncode, result.stdout) == (2, "")
    assert result.stderr.count("\n") == 1 and result.stderr.startswith("error: ")


def test_check_map_summarises_each_of_several_maps_and_exits_2_if_any_failed(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(REPO)
    plain = "tests/maps/data/plain.tmx"
    assert run_check_map([plain]) == 0
    plain_summary = capsys.readouterr().out
    assert plain_summary.startswith(f"map: {plain}\n")

    result = _check_map("tests/maps/data/depot.tmx", "tests/maps/data/nowhere.tmx", plain)

    assert result.returncode == 2
    # Each map's summary is headed by its `map:` line, a blank line between two; the one that
    # failed is said on stderr, and the map after it is still summarised.
    assert result.stdout == DEPOT_SUMMARY + "\n" + plain_summary
    assert result.stderr.count("\n") == 1
    assert result.stderr.startswith("error: tests/maps/data/nowhere.tmx: ")


def test_check_map_of_several_good_maps_exits_0(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(REPO)
    assert run_check_map(["tests/maps/data/depot.tmx", "tests/maps/data/depot.tmx"]) == 0
    out, err = capsys.readouterr()
    assert (out, err) == (DEPOT_SUMMARY + "\n" + DEPOT_SUMMARY, "")


def test_a_multi_line_error_is_printed_on_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # A property name may hold a line break; the error line must not.
    bad = tmp_path / "bad.tmx"
    bad.write_text(
        (DATA / "plain.tmx")
        .read_text()
        .replace(
            ' <tileset firstgid="1"',
            ' <properties>\n  <property name="gra\nvity" type="int" value="x"/>\n'
            ' </properties>\n <tileset firstgid="1"',
        )
    )
    assert run_check_map(str(bad)) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1
    assert "property 'gra vity': 'x' is not a whole number" in err


def test_check_map_never_loads_pygame() -> None:
    code = (
        "import sys\n"
        "from game.maps.check import run_check_map\n"
        "run_check_map('tests/maps/data/depot.tmx')\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] == 'pygame'), file=sys.stderr)\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True, timeout=120
    )
    assert result.stderr.strip() == "[]"


def test_the_worked_example_in_the_map_makers_guide_prints_what_the_guide_shows() -> None:
    guide = (REPO / "docs" / "maps.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```text\n(map: tests/maps/data/depot\.tmx\n.*?)```", guide, re.DOTALL)
    assert len(blocks) == 1
    assert blocks[0] == DEPOT_SUMMARY
