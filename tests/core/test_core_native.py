"""The compiled build (mypyc) against the pure-Python modules, and the guard between them.

`make test` runs the golden playthroughs and the conformance suite once on each path;
these tests check that the package really runs what `tianxia.compiled()` says, that both
paths play the same games, and that an edited source is never shadowed by an old build.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import tianxia
from tianxia import _native
from tianxia.play import golden

SRC = Path(tianxia.__file__).resolve().parents[1]


def _record() -> dict[str, str]:
    try:
        data = json.loads((_native.PACKAGE_DIR / _native.RECORD).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    modules: dict[str, str] = data.get("modules") or {}
    return modules


needs_build = pytest.mark.skipif(
    not _record(), reason="no compiled build here (pure install: nothing to compare)"
)


def _python(code: str, src: Path = SRC, **env: str) -> subprocess.CompletedProcess[str]:
    """Run `code` in a fresh interpreter importing tianxia from `src`."""
    full = {k: v for k, v in os.environ.items() if k != "TIANXIA_PURE"}
    full.update(PYTHONPATH=str(src), **env)
    return subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=full, check=True
    )


def test_pure_mode_loads_every_engine_module_from_its_source() -> None:
    out = _python(
        "import json, tianxia, tianxia.games.silkroad.rules as r, tianxia.core.game as g\n"
        "print(json.dumps([tianxia.compiled(), r.__file__, g.__file__]))",
        TIANXIA_PURE="1",
    )
    compiled, rules_file, game_file = json.loads(out.stdout)
    assert compiled == []
    assert rules_file.endswith("rules.py") and game_file.endswith("game.py")


@needs_build
def test_a_current_build_runs_every_module_it_compiled() -> None:
    out = _python(
        "import importlib, json, tianxia\n"
        "mods = tianxia.compiled()\n"
        "print(json.dumps({m: importlib.import_module(m).__file__ for m in mods}))"
    )
    files = json.loads(out.stdout)
    assert set(files) == set(_record()) == set(_native.COMPILED)
    assert all(not f.endswith(".py") for f in files.values()), files


@needs_build
def test_both_paths_play_every_title_alike() -> None:
    # One recorded playthrough per title, recorded again in each path: decisions,
    # legal-action counts and observation digests step by step.
    firsts = {c.game: c for c in reversed(golden.cases())}
    code = (
        "import json, sys, tianxia\n"
        "from tianxia.play import golden\n"
        "cases = {c.game: c for c in reversed(golden.cases())}\n"
        "print(json.dumps({'compiled': tianxia.compiled(),"
        " 'runs': {g: golden.record(c) for g, c in cases.items()}}))"
    )
    compiled = json.loads(_python(code).stdout)
    pure = json.loads(_python(code, TIANXIA_PURE="1").stdout)
    assert compiled["compiled"] and not pure["compiled"]
    assert set(compiled["runs"]) == set(firsts)
    for name in firsts:
        a, b = compiled["runs"][name], pure["runs"][name]
        assert golden.first_difference(a, b) is None, name
        assert a == b


@needs_build
def test_an_edited_source_is_run_instead_of_its_old_build(tmp_path: Path) -> None:
    # A copy of the package with its build, then one compiled module edited after it.
    copy = tmp_path / "src"
    shutil.copytree(SRC, copy, ignore=shutil.ignore_patterns("__pycache__"))
    rules = copy / "tianxia" / "games" / "silkroad" / "rules.py"
    rules.write_text(rules.read_text() + "\nEDITED = True\n", encoding="utf-8")
    out = _python(
        "import json, warnings\n"
        "with warnings.catch_warnings(record=True) as w:\n"
        "    warnings.simplefilter('always')\n"
        "    import tianxia\n"
        "import tianxia.games.silkroad.rules as r, tianxia.core.game as g\n"
        "print(json.dumps([tianxia.compiled(), r.EDITED, r.__file__, g.__file__,"
        " [str(x.message) for x in w], tianxia._native.why_pure()]))",
        src=copy,
    )
    compiled, edited, rules_file, game_file, warned, why = json.loads(out.stdout)
    # All or nothing: compiled callers would still call the old code of the edited one.
    assert compiled == [] and edited is True
    assert rules_file.endswith("rules.py") and game_file.endswith("game.py")
    assert "tianxia.games.silkroad.rules changed since the compiled build" in why
    assert any("changed since the compiled build" in m for m in warned)


def test_the_record_is_checked_module_by_module(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("TIANXIA_PURE", raising=False)
    pkg = tmp_path / "tianxia"
    (pkg / "core").mkdir(parents=True)
    (pkg / "core" / "game.py").write_text("X = 1\n", encoding="utf-8")
    digests = _native.digests(pkg, ["tianxia.core.game"])
    _native.write_record(pkg, digests, "")
    assert _native._check(pkg) == (frozenset({"tianxia.core.game"}), "")
    (pkg / "core" / "game.py").write_text("X = 2\n", encoding="utf-8")
    modules, why = _native._check(pkg)
    assert modules == frozenset() and why.startswith("tianxia.core.game changed")
    _native.write_record(pkg, {}, "mypyc was not installed at build time")
    assert _native._check(pkg) == (
        frozenset(),
        "no compiled build (mypyc was not installed at build time)",
    )
