"""How `tessera query` starts: plain Python kernels for a short scenario, numba never imported,
nothing of the window or the battle engine loaded; the same answers as the compiled kernels."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from game.scenario.cli import (
    PYTHON_KERNELS_QUERIES,
    PYTHON_KERNELS_SEARCHES,
    few_kernel_calls,
)

DATA = Path(__file__).resolve().parent / "data"
GOOD = sorted(p.name for p in DATA.glob("*.json") if not p.name.startswith("bad_"))


def _loaded_after_query(scenario: str) -> set[str]:
    """The top-level packages (and game's subpackages) loaded by one query in a fresh process."""
    code = (
        "import sys\n"
        "from game.cli import main\n"
        f"status = main(['query', {scenario!r}])\n"
        "sys.stdout.flush()\n"
        "print('\\nLOADED', ' '.join(sorted(sys.modules)), file=sys.stderr)\n"
        "sys.exit(status)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    return set(done.stderr.split("LOADED", 1)[1].split())


@pytest.mark.parametrize(
    ("name", "also_unused"),
    [("contract_example.json", {"game.maps"}), ("movement.json", {"game.maps"}),
     ("station_tmx.json", set())],
)  # fmt: skip
def test_a_short_query_loads_neither_numba_nor_the_window_nor_the_battle_engine(
    name: str, also_unused: set[str]
) -> None:
    """An inline map does not load the Tiled reader either."""
    loaded = _loaded_after_query(str(DATA / name))
    heavy = {"numba", "scipy", "pygame", "pygame_gui", "esper", "game.battle", "game.ui"}
    heavy |= also_unused
    assert {m for m in loaded if m in heavy or m.rsplit(".", 1)[0] in heavy} == set()
    assert {m.split(".")[0] for m in loaded} & {"numba", "scipy", "pygame", "esper"} == set()
    assert "game.grid.los" in loaded  # the kernels ran, as plain Python


def test_a_short_scenario_is_answered_with_plain_python_kernels() -> None:
    queries = [{"q": "los", "from": "a", "to": "b"}] * PYTHON_KERNELS_QUERIES
    assert few_kernel_calls({"map": {"size": [3, 3, 1]}, "queries": queries})
    searches = [{"q": "reachable", "entity": "a"}] * PYTHON_KERNELS_SEARCHES
    assert few_kernel_calls({"map": "x.tmx", "queries": searches})


def test_many_queries_many_searches_or_a_battle_journal_use_the_compiled_kernels() -> None:
    los = {"q": "los", "from": "a", "to": "b"}
    assert not few_kernel_calls({"queries": [los] * (PYTHON_KERNELS_QUERIES + 1)})
    path = {"q": "path", "entity": "a", "to": [0, 0, 0]}
    assert not few_kernel_calls({"queries": [path] * (PYTHON_KERNELS_SEARCHES + 1)})
    assert not few_kernel_calls({"battle": "b.jsonl", "queries": [los]})


def test_a_scenario_that_will_be_refused_never_needs_the_compiled_kernels() -> None:
    assert few_kernel_calls([1, 2])
    assert few_kernel_calls({"queries": "all"})


def _answers(compiled: bool) -> dict[str, object]:
    """Every good scenario's answers from one child process, with the kernels compiled (a kernel
    module imported first: `use_python_kernels` then comes too late) or in plain Python."""
    code = (
        "import contextlib, io, json, sys\n"
        + ("import game.grid.los\n" if compiled else "")
        + "from game.grid import jit\n"
        "from game.scenario.cli import run_query\n"
        "out = {}\n"
        f"for name in {GOOD!r}:\n"
        "    buf = io.StringIO()\n"
        "    with contextlib.redirect_stdout(buf):\n"
        f"        run_query({str(DATA)!r} + '/' + name)\n"
        "    out[name] = buf.getvalue()\n"
        "print(json.dumps({'jit': jit.JIT_ENABLED, 'answers': out}))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    result: dict[str, object] = json.loads(done.stdout)
    return result


def test_plain_python_kernels_give_the_compiled_kernels_answers_byte_for_byte() -> None:
    python, compiled = _answers(compiled=False), _answers(compiled=True)
    assert python["jit"] is False
    if os.environ.get("NUMBA_DISABLE_JIT", "0") == "0":
        assert compiled["jit"] is True
    assert python["answers"] == compiled["answers"]
    assert len(GOOD) >= 8
