"""The dependency rules of docs/architecture.md, checked on the source tree."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[2] / "src" / "tianxia"
HEAVY = ("pyspiel", "open_spiel", "pettingzoo", "gymnasium", "ray", "fastapi", "numpy", "textual")
FACES = ("bots", "play", "adapters", "server", "cli", "tui")


def imports_of(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    out: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out.extend(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            out.append(node.module)
    return out


def modules(sub: str) -> list[Path]:
    return sorted((SRC / sub).rglob("*.py")) if (SRC / sub).exists() else []


def test_core_imports_nothing_else_of_tianxia() -> None:
    for path in modules("core"):
        for name in imports_of(path):
            assert not name.startswith("tianxia.") or name.startswith("tianxia.core"), (path, name)


def test_games_never_import_each_other_or_the_faces() -> None:
    games = [p.name for p in (SRC / "games").iterdir() if p.is_dir() and p.name != "__pycache__"]
    for game in games:
        for path in modules(f"games/{game}"):
            for name in imports_of(path):
                if name.startswith("tianxia."):
                    assert name.startswith(("tianxia.core", f"tianxia.games.{game}")), (path, name)


@pytest.mark.parametrize("face", FACES)
def test_faces_never_import_a_games_internals(face: str) -> None:
    for path in modules(face):
        for name in imports_of(path):
            assert not name.startswith("tianxia.games."), (path, name)


def test_heavy_libraries_stay_out_of_core_and_games() -> None:
    for sub in ("core", "games"):
        for path in modules(sub):
            for name in imports_of(path):
                assert name.split(".")[0] not in HEAVY, (path, name)


def test_import_tianxia_stays_light() -> None:
    import subprocess
    import sys

    code = (
        "import sys, tianxia; tianxia.list_games(); "
        f"print(sorted(m for m in {HEAVY!r} if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def _runtime_nodes(tree: ast.AST) -> list[ast.AST]:
    """Every node except those under `if TYPE_CHECKING:` (annotations load nothing)."""
    out: list[ast.AST] = []
    stack = [tree]
    while stack:
        node = stack.pop()
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            stack.extend(node.orelse)
            continue
        out.append(node)
        stack.extend(ast.iter_child_nodes(node))
    return out


def _package_imports(path: Path, package: str) -> set[str]:
    """Modules of `package` that `path` imports when it runs, relative imports included."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    out: set[str] = set()
    for node in _runtime_nodes(tree):
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package if node.level == 1 else package.rsplit(".", node.level - 1)[0]
                mod = f"{base}.{node.module}" if node.module else base
                names = [mod] + [f"{mod}.{a.name}" for a in node.names]
            elif node.module:
                names = [node.module] + [f"{node.module}.{a.name}" for a in node.names]
        for n in names:
            if n.startswith(package + ".") and n.count(".") == package.count(".") + 1:
                out.add(n.rsplit(".", 1)[1])
    return out


def import_cycle(package_dir: Path, package: str) -> list[str] | None:
    """One cycle among the modules of a package, or None."""
    graph = {
        p.stem: _package_imports(p, package) - {p.stem}
        for p in package_dir.glob("*.py")
        if p.stem != "__init__"
    }
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(m: str) -> list[str] | None:
        state[m] = 1
        stack.append(m)
        for n in sorted(graph.get(m, ())):
            if n not in graph:
                continue
            if state.get(n) == 1:
                return [*stack[stack.index(n) :], n]
            if n not in state and (found := visit(n)):
                return found
        stack.pop()
        state[m] = 2
        return None

    for m in sorted(graph):
        if m not in state and (found := visit(m)):
            return found
    return None


GAME_DIRS = sorted(p for p in (SRC / "games").iterdir() if (p / "__init__.py").exists())


@pytest.mark.parametrize("game_dir", GAME_DIRS, ids=lambda p: p.name)
def test_no_import_circle_inside_a_game_package(game_dir: Path) -> None:
    cycle = import_cycle(game_dir, f"tianxia.games.{game_dir.name}")
    assert cycle is None, " -> ".join(cycle or [])


ROOMS = ("game", "state", "actions", "rules", "view", "search", "data", "position")


@pytest.mark.parametrize("game_dir", GAME_DIRS, ids=lambda p: p.name)
def test_every_game_has_the_same_rooms(game_dir: Path) -> None:
    have = {p.stem for p in game_dir.glob("*.py")}
    assert set(ROOMS) <= have, f"missing: {sorted(set(ROOMS) - have)}"


def test_the_cycle_finder_finds_a_cycle(tmp_path: Path) -> None:
    pkg = tmp_path / "pkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "a.py").write_text("from pkg import b\n")
    (pkg / "b.py").write_text("def f() -> None:\n    from pkg.a import x\n")
    (pkg / "c.py").write_text("from . import a\n")
    assert import_cycle(pkg, "pkg") == ["a", "b", "a"]
    (pkg / "b.py").write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from pkg.a import x\n"
    )
    assert import_cycle(pkg, "pkg") is None
