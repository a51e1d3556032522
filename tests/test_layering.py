"""The architecture's import rules: pygame only in the window layer, no global random anywhere."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

GAME = Path(__file__).resolve().parents[1] / "game"
# The window layer and the entry point may use pygame; so may the window's bench (it opens the
# window headless, and draws the same map with pyscroll); nothing else may.
PYGAME_ALLOWED = ("ui/", "__main__.py", "cli.py", "bench/window.py")


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module.split(".")[0])
    return names


def _sources() -> list[Path]:
    return sorted(GAME.rglob("*.py"))


def test_no_module_outside_the_window_layer_imports_pygame() -> None:
    leaks = [
        str(p.relative_to(GAME))
        for p in _sources()
        if not str(p.relative_to(GAME)).startswith(PYGAME_ALLOWED)
        and {"pygame", "pygame_gui"} & _imports(p)
    ]
    assert leaks == []


def test_no_module_imports_the_global_random_module() -> None:
    """One seeded RNG per battle is passed in; `from random import Random` builds one."""
    offenders = []
    for p in _sources():
        tree = ast.parse(p.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Import) and any(a.name == "random" for a in node.names):
                offenders.append(str(p.relative_to(GAME)))
            if (
                isinstance(node, ast.ImportFrom)
                and node.module == "random"
                and any(a.name != "Random" for a in node.names)
            ):
                offenders.append(str(p.relative_to(GAME)))
    assert offenders == []


def _game_imports(path: Path) -> set[str]:
    """The game packages (and top-level modules) a source file imports, e.g. {"grid", "tactics"}."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    found: set[str] = set()
    for node in ast.walk(tree):
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names = [node.module]
        for name in names:
            parts = name.split(".")
            if parts[0] == "game" and len(parts) > 1:
                found.add(parts[1])
    return found


def test_esper_is_imported_only_by_the_world_layer() -> None:
    leaks = [
        str(p.relative_to(GAME))
        for p in _sources()
        if not str(p.relative_to(GAME)).startswith("ecs/") and "esper" in _imports(p)
    ]
    assert leaks == []


# What each layer may not import: the arrows of docs/architecture.md point one way.
FORBIDDEN = {
    # Rules and grid answer with codes and numbers; only game/text words them.
    "rules": {"grid", "maps", "tactics", "ecs", "battle", "scenario", "ui", "text", "app"},
    "grid": {"maps", "tactics", "ecs", "battle", "scenario", "ui", "text", "app"},
    "text/explain.py": {"tactics", "ecs", "battle", "scenario", "ui", "app"},
    "maps": {"tactics", "ecs", "battle", "scenario", "ui", "text", "app"},
    "tactics": {"scenario", "ecs", "battle", "ui", "app"},
    "ecs": {"battle", "scenario", "ui", "app"},
    "battle": {"ui", "app"},
    "scenario": {"ui", "app"},
}


@pytest.mark.parametrize("layer", sorted(FORBIDDEN))
def test_each_layer_imports_only_the_layers_below_it(layer: str) -> None:
    files = [GAME / layer] if layer.endswith(".py") else sorted((GAME / layer).rglob("*.py"))
    wrong = {
        f"{p.relative_to(GAME)} imports game.{name}"
        for p in files
        for name in _game_imports(p) & FORBIDDEN[layer]
    }
    assert sorted(wrong) == []


@pytest.mark.parametrize(
    "package", ["game.rules", "game.grid", "game.maps", "game.scenario", "game.ecs", "game.battle"]
)
def test_importing_a_headless_package_in_a_fresh_interpreter_does_not_load_pygame(
    package: str,
) -> None:
    """Nothing headless loads pygame; below the world layer nothing loads esper either."""
    banned = ("pygame", "pygame_gui") + (
        () if package in ("game.ecs", "game.battle") else ("esper",)
    )
    code = (
        "import importlib, pkgutil, sys\n"
        f"pkg = importlib.import_module({package!r})\n"
        "for m in pkgutil.walk_packages(pkg.__path__, pkg.__name__ + '.'):\n"
        "    importlib.import_module(m.name)\n"
        f"print(sorted(n for n in sys.modules if n.split('.')[0] in {banned!r}))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout.strip()
    assert out == "[]"
