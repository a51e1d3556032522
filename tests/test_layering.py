"""The architecture's import rules: layers point one way, no import loop, no private member used
across modules, pygame only in the window layer, no global random anywhere."""

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


# What each package (or module) may import of the game, as docs/architecture.md draws it: the
# arrows point one way. Rules and grid answer with codes and numbers; only game/text words them.
PACKAGES = {
    "rules", "grid", "maps", "text", "tactics", "ecs", "battle", "scenario", "app", "ui", "bench",
    "cli",
}  # fmt: skip
MAY_IMPORT = {
    "rules": set(),
    "grid": {"rules"},
    "maps": {"grid", "rules"},
    "text/i18n.py": set(),
    "text/bounds.py": set(),
    "text/explain.py": {"grid", "rules", "text"},
    # The battle's records (events, refusals, reasons) are worded here; the battle engine is not.
    "text/explain_battle.py": {"battle", "grid", "rules", "text"},
    "tactics": {"grid", "rules", "text"},
    "ecs": {"grid", "rules", "tactics"},
    "battle": {"ecs", "tactics", "maps", "grid", "rules", "text"},
    "scenario": {"battle", "ecs", "tactics", "maps", "grid", "rules", "text"},
    "app": {"battle", "ecs", "tactics", "maps", "grid", "rules", "text"},
    "ui": {"app", "battle", "ecs", "tactics", "maps", "grid", "rules", "text"},
    "bench": PACKAGES - {"cli"},
}


@pytest.mark.parametrize("layer", sorted(MAY_IMPORT))
def test_each_layer_imports_only_the_layers_below_it(layer: str) -> None:
    files = [GAME / layer] if layer.endswith(".py") else sorted((GAME / layer).rglob("*.py"))
    own = layer.split("/")[0]
    wrong = {
        f"{p.relative_to(GAME)} imports game.{name}"
        for p in files
        for name in _game_imports(p) - MAY_IMPORT[layer] - {own}
    }
    assert sorted(wrong) == []


def test_every_game_package_has_its_import_rule() -> None:
    packages = {p.name for p in GAME.iterdir() if (p / "__init__.py").exists()}
    assert packages == PACKAGES - {"cli"}
    assert {layer.split("/")[0] for layer in MAY_IMPORT} == PACKAGES - {"cli"}


@pytest.mark.parametrize(
    "package",
    [
        "game.rules",
        "game.grid",
        "game.maps",
        "game.text",
        "game.tactics",
        "game.scenario",
        "game.ecs",
        "game.battle",
        "game.app",
    ],
)
def test_importing_a_headless_package_in_a_fresh_interpreter_does_not_load_pygame(
    package: str,
) -> None:
    """Nothing headless loads pygame; below the world layer nothing loads esper either (the
    app layer sits above the battle, so it may)."""
    banned = ("pygame", "pygame_gui") + (
        () if package in ("game.ecs", "game.battle", "game.app") else ("esper",)
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


# --- no import loop --------------------------------------------------------------------------

ROOT = GAME.parent


def _module_name(path: Path, root: Path = ROOT) -> str:
    """game/battle/engine.py -> game.battle.engine; a package's __init__.py is the package."""
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _is_type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _run_time_imports(tree: ast.AST) -> list[ast.Import | ast.ImportFrom]:
    """Every import that runs, at module level or inside a function (a loop through a function's
    import is still a loop: it only waits for the call); `if TYPE_CHECKING:` blocks never run."""
    found: list[ast.Import | ast.ImportFrom] = []
    pending = list(ast.iter_child_nodes(tree))
    while pending:
        node = pending.pop()
        if isinstance(node, ast.If) and _is_type_checking(node):
            pending.extend(node.orelse)
            continue
        if isinstance(node, ast.Import | ast.ImportFrom):
            found.append(node)
        pending.extend(ast.iter_child_nodes(node))
    return found


def import_graph(paths: list[Path], root: Path = ROOT) -> dict[str, set[str]]:
    """Module -> the game modules it imports. `from game.x import y` points at game.x.y when y
    is a module, else at game.x; the packages an import passes through are not counted (their
    __init__.py files import nothing of their own)."""
    names = {_module_name(p, root): p for p in paths}
    graph: dict[str, set[str]] = {}
    for name, path in names.items():
        targets: set[str] = set()
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for node in _run_time_imports(tree):
            if isinstance(node, ast.Import):
                targets.update(alias.name for alias in node.names)
            elif node.module and node.level == 0:
                for alias in node.names:
                    sub = f"{node.module}.{alias.name}"
                    targets.add(sub if sub in names else node.module)
        graph[name] = {t for t in targets if t in names and t != name}
    return graph


def import_loops(graph: dict[str, set[str]]) -> list[tuple[str, ...]]:
    """The groups of modules that import one another round a loop (strongly connected
    components of more than one module), each sorted, sorted (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    loops: list[tuple[str, ...]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                loops.append(tuple(sorted(group)))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return sorted(loops)


#: Import loops allowed: none. Kept as a list so that a loop taken on knowingly is named here
#: with its reason; a listed one that is gone fails too.
KNOWN_LOOPS: list[tuple[str, ...]] = []


def test_import_loops_finds_a_loop_through_a_function_and_ignores_type_checking(
    tmp_path: Path,
) -> None:
    pkg = tmp_path / "game"
    pkg.mkdir()
    (pkg / "a.py").write_text("def f():\n    from game import b\n", encoding="utf-8")
    (pkg / "b.py").write_text("from game.a import f\n", encoding="utf-8")
    (pkg / "c.py").write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from game import a\n",
        encoding="utf-8",
    )
    (pkg / "d.py").write_text("from game import c\n", encoding="utf-8")
    graph = import_graph(sorted(pkg.glob("*.py")), root=tmp_path)
    assert graph == {
        "game.a": {"game.b"},
        "game.b": {"game.a"},
        "game.c": set(),
        "game.d": {"game.c"},
    }
    assert import_loops(graph) == [("game.a", "game.b")]


def test_no_game_module_imports_itself_round_a_loop() -> None:
    loops = import_loops(import_graph(_sources()))
    assert [loop for loop in loops if loop not in KNOWN_LOOPS] == [], "a new import loop"
    assert [loop for loop in KNOWN_LOOPS if loop not in loops] == [], "gone: drop it from the list"


# --- no private member used across modules ---------------------------------------------------

TESTS = ROOT / "tests"
#: Underscore names that are public by convention: gettext's `_`, namedtuple's methods.
PUBLIC_UNDERSCORE = {"_", "_asdict", "_fields", "_make", "_replace"}


def _private(name: str) -> bool:
    dunder = name.startswith("__") and name.endswith("__")
    return name.startswith("_") and not dunder and name not in PUBLIC_UNDERSCORE


def _own_members(tree: ast.AST) -> set[str]:
    """The private names this module's own classes define (methods, class attributes, what
    their methods assign through self): `other._x` on one of them stays inside the module."""
    own: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef):
            for item in node.body:
                if isinstance(item, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                    own.add(item.name)
                elif isinstance(item, ast.AnnAssign) and isinstance(item.target, ast.Name):
                    own.add(item.target.id)
                elif isinstance(item, ast.Assign):
                    own.update(t.id for t in item.targets if isinstance(t, ast.Name))
        elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store):
            base = node.value
            while isinstance(base, ast.Attribute):
                base = base.value
            if isinstance(base, ast.Name) and base.id in ("self", "cls"):
                own.add(node.attr)  # self._x = ..., and self._widget._x = ... as well
    return own


def _names_module(node: ast.expr, modules: set[str]) -> bool:
    return isinstance(node, ast.Name) and node.id in modules


def private_uses(source: str) -> set[str]:
    """The private members of other modules `source` uses: `from m import _x`, `m._x` on an
    imported module, `obj._x` where obj is neither self nor cls (unless this module's own
    classes define `_x`), and setattr/getattr/monkeypatch.setattr naming `"_x"`."""
    tree = ast.parse(source)
    own = _own_members(tree)
    modules: set[str] = set()
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            modules.update((a.asname or a.name).split(".")[0] for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            found.update(a.name for a in node.names if _private(a.name))
            modules.update(a.asname or a.name for a in node.names)
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and _private(node.attr):
            target = node.value
            if isinstance(target, ast.Name) and target.id in ("self", "cls"):
                continue
            if _names_module(target, modules) or node.attr not in own:
                found.add(node.attr)
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name | ast.Attribute)
            and (node.func.id if isinstance(node.func, ast.Name) else node.func.attr)
            in ("setattr", "getattr", "delattr", "hasattr")
            and len(node.args) >= 2
            and isinstance(node.args[1], ast.Constant)
            and isinstance(node.args[1].value, str)
            and _private(node.args[1].value)
            and (node.args[1].value not in own or _names_module(node.args[0], modules))
        ):
            found.add(node.args[1].value)
    return found


#: Private members used across modules, as "path:member", one a line, sorted: none since the
#: battle's public context and the split of the window (issue 14). A use not listed fails, and
#: so does a listed one that is gone.
KNOWN_VIOLATIONS: list[str] = []


def _violations() -> list[str]:
    paths = [*_sources(), *sorted(TESTS.rglob("*.py"))]
    return sorted(
        f"{p.relative_to(ROOT)}:{name}"
        for p in paths
        for name in private_uses(p.read_text(encoding="utf-8"))
    )


def test_private_uses_finds_each_way_of_reaching_another_modules_private_member() -> None:
    source = (
        "from game.rules import dice\n"
        "from game.rules.dice import _roll\n"
        "import game.grid.los as los\n"
        "class Own:\n"
        "    _kept = 1\n"
        "    def same(self, other): return self._x, other._kept, other.__dict__\n"
        "def use(battle, monkeypatch):\n"
        "    dice._seed, los._cache, battle._turn, _('text')\n"
        "    monkeypatch.setattr(dice, '_current', None)\n"
        "    return battle._asdict()\n"
    )
    assert private_uses(source) == {"_roll", "_seed", "_cache", "_turn", "_current"}


def test_no_private_member_is_used_across_modules() -> None:
    found = _violations()
    assert [v for v in found if v not in KNOWN_VIOLATIONS] == [], "use a public entry point"
    gone = [v for v in KNOWN_VIOLATIONS if v not in found]
    assert gone == [], "gone: drop it from KNOWN_VIOLATIONS"
    assert sorted(set(KNOWN_VIOLATIONS)) == KNOWN_VIOLATIONS, "one entry a line, sorted"


def test_the_battles_wording_reads_only_the_battles_records_not_its_engine() -> None:
    """game/text/explain_battle.py words events, refusals and reasons; importing the engine
    would put the text above the battle that imports it (battle/cli.py words refusals)."""
    graph = import_graph(_sources())
    records = {"game.battle.events", "game.battle.outcome", "game.battle.reasons"}
    battle = {m for m in graph["game.text.explain_battle"] if m.startswith("game.battle")}
    assert battle <= records
    below = {
        dep
        for record in records
        for dep in graph[record]
        if dep not in records and not dep.startswith(("game.rules.", "game.grid."))
    }
    assert below == set()
