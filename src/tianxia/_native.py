"""Which engine modules run compiled (mypyc), and the guard that keeps them honest.

The build (`setup.py`, run by `pip install -e .` / `make install`) compiles the modules
listed in `COMPILED` and writes `_native.json` beside them: the sha256 of each source
it compiled. Python would load a module's `.so` in preference to its `.py` whatever the
`.py` says, so the package installs an import hook (`install`, called first thing by
`tianxia/__init__.py`) that uses the compiled modules only when

- TIANXIA_PURE is not set (to anything but ``0``), and
- the record exists and lists them, and
- every recorded source still has its recorded hash.

Otherwise every module of the package loads from its `.py` (the reference), and when a
source changed since the build a warning says so. It is all or nothing because compiled
modules call each other's functions directly, not through the module: one edited module
loaded from source beside compiled callers would still run its old code.

This module is never compiled itself (it decides what is).
"""

from __future__ import annotations

import hashlib
import importlib.abc
import importlib.machinery
import importlib.util
import json
import os
import sys
import warnings
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType
from typing import Any

RECORD = "_native.json"
PACKAGE_DIR = Path(__file__).resolve().parent

# What a random playout and a search spend their time in, by profile: each game's rules
# (legal actions, apply) and search (resampling for IS-MCTS), and the engine's State
# methods around them; and the batched learning environment's loop (core.batch). The rest of each game (data tables, views, the Game class,
# position setup) is run seldom or once, and compiling it would double the build (about
# 330,000 lines of C for everything, 190,000 for these). Left interpreted as well:
# - tianxia.core.value: the state metaclass, run once per class (nothing to gain);
# - tianxia.core.actions: its `action` decorator carries `dataclass_transform`, which
#   cannot mark a compiled function (and the codec is off the hot path);
# - each game's state.py and actions.py: their classes are built at run time from their
#   annotations (the state metaclass, the `action` dataclass decorator), and a compiled
#   class body keeps only the outer type of each annotation (``tuple`` for
#   ``tuple[int, ...]``), which the JSON codecs and dataclass fields need in full; for
#   the same reason the Great Wall's section.py (a dataclass held in its state);
# - tianxia.core.errors, tianxia.core.match, tianxia.core.registry: exceptions and the
#   match are subclassed and extended outside the engine (a compiled class is closed).
# Compiled in groups, each its own C extension, so that a build on several cores
# compiles them side by side (setup.py); a group's modules call each other directly.
GROUPS: dict[str, tuple[str, ...]] = {
    "tianxia_native_a": (
        "tianxia.core.constants",
        "tianxia.core.events",
        "tianxia.core.game",
        "tianxia.core.log",
        "tianxia.core.winmodel",
        "tianxia.core.batch",
        *(f"tianxia.games.{g}.{m}" for g in ("emperor", "mandarin") for m in ("rules", "search")),
    ),
    "tianxia_native_b": tuple(
        f"tianxia.games.{g}.{m}"
        for g in ("china", "greatwall", "silkroad")
        for m in ("rules", "search")
    ),
}
COMPILED: tuple[str, ...] = tuple(m for group in GROUPS.values() for m in group)


def source_path(package_dir: Path, module: str) -> Path:
    """The `.py` of `module` (a ``tianxia.`` name) under the package directory."""
    parts = module.split(".")
    return package_dir.joinpath(*parts[1:]).with_suffix(".py")


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def digests(package_dir: Path, modules: Sequence[str]) -> dict[str, str]:
    """The sha256 of each module's source, taken before the build reads them (so an edit
    made while it runs leaves a record that no longer matches, not one that wrongly does)."""
    return {m: _digest(source_path(package_dir, m)) for m in modules}


def write_record(where: Path, built: dict[str, str], reason: str) -> None:
    """Write the build record into `where` (the package directory the build filled):
    `built` maps each compiled module to the digest of the source it was compiled from."""
    record = {
        "modules": built,
        "reason": reason,
        "python": sys.implementation.cache_tag,
    }
    (where / RECORD).write_text(json.dumps(record, indent=1) + "\n", encoding="utf-8")


def _check(package_dir: Path) -> tuple[frozenset[str], str]:
    """The modules to load compiled, or none and why."""
    if os.environ.get("TIANXIA_PURE", "") not in ("", "0"):
        return frozenset(), "TIANXIA_PURE is set"
    path = package_dir / RECORD
    try:
        record: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return frozenset(), "no compiled build (no build record)"
    modules: dict[str, str] = record.get("modules") or {}
    if not modules:
        return frozenset(), f"no compiled build ({record.get('reason') or 'nothing was built'})"
    if record.get("python") != sys.implementation.cache_tag:
        return frozenset(), f"built for {record.get('python')}, not {sys.implementation.cache_tag}"
    changed = []
    for module, digest in modules.items():
        try:
            if _digest(source_path(package_dir, module)) != digest:
                changed.append(module)
        except OSError:
            changed.append(module)
    if changed:
        more = f" and {len(changed) - 1} more" if len(changed) > 1 else ""
        reason = (
            f"{changed[0]}{more} changed since the compiled build; "
            "running the pure-Python modules (rebuild: make compile)"
        )
        return frozenset(), reason
    return frozenset(modules), ""


class _Finder(importlib.abc.MetaPathFinder):
    """Sends every ``tianxia.*`` module that is not to run compiled to its `.py`."""

    def __init__(self, compiled: frozenset[str]) -> None:
        self.compiled = compiled

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        if not fullname.startswith("tianxia.") or fullname in self.compiled:
            return None
        spec = importlib.machinery.PathFinder.find_spec(fullname, path)
        if spec is None or not isinstance(spec.loader, importlib.machinery.ExtensionFileLoader):
            return None  # the normal finders handle it as they always would
        assert spec.origin is not None
        origin = Path(spec.origin)
        source = origin.with_name(origin.name.split(".", 1)[0] + ".py")
        if not source.exists():
            return None
        return importlib.util.spec_from_file_location(fullname, source)


_state: dict[str, Any] = {"compiled": frozenset(), "reason": "not checked", "finder": None}


def install() -> None:
    """Check the build record and put the guard in front of the import system (once)."""
    if _state["finder"] is not None:
        return
    compiled, reason = _check(PACKAGE_DIR)
    finder = _Finder(compiled)
    sys.meta_path.insert(0, finder)
    _state.update(compiled=compiled, reason=reason, finder=finder)
    if reason and "changed since" in reason:
        warnings.warn(f"tianxia: {reason}", RuntimeWarning, stacklevel=3)


def compiled() -> tuple[str, ...]:
    """The modules of the package that run compiled in this process (empty: pure Python)."""
    return tuple(sorted(_state["compiled"]))


def why_pure() -> str:
    """Why nothing runs compiled ('' when the compiled build is in use)."""
    reason: str = _state["reason"]
    return reason


def summary() -> str:
    """One line for a header: what runs compiled, or why nothing does."""
    mods = compiled()
    if not mods:
        return f"pure Python ({why_pure()})"
    by_part: dict[str, int] = {}
    for m in mods:
        part = m.split(".")[2] if m.startswith("tianxia.games.") else m.split(".")[1]
        by_part[part] = by_part.get(part, 0) + 1
    parts = ", ".join(f"{k} {v}" for k, v in by_part.items())
    return f"compiled with mypyc: {len(mods)} modules ({parts})"
