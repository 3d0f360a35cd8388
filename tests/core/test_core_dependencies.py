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
