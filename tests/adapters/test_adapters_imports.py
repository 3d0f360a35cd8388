"""The adapters stay at the edge: heavy libraries load only with them, and they reach the
games only through the engine contract."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import tianxia.adapters

HEAVY = ("pyspiel", "pettingzoo", "gymnasium", "numpy")


def test_import_tianxia_stays_light() -> None:
    code = (
        "import sys, tianxia\n"
        "tianxia.list_games()\n"
        "import tianxia.adapters\n"
        f"print([m for m in {HEAVY!r} if m in sys.modules])\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout
    assert out.strip() == "[]"


def test_adapters_never_import_a_game_package() -> None:
    folder = Path(tianxia.adapters.__file__).parent
    for path in folder.glob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            names: list[str] = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module]
            for name in names:
                assert not name.startswith("tianxia.games"), f"{path.name} imports {name}"
