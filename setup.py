"""The compiled build: the engine's hot modules through mypyc, when it can be had.

`pip install -e .` (and `make install`) runs this. With mypyc importable and a C compiler
it compiles the modules of `tianxia._native.COMPILED` and records, beside them, the hash
of every source it compiled (`tianxia/_native.json`); `tianxia` loads a compiled module
only while its source still has that hash, so an edited `.py` is never shadowed by an old
`.so`. Without mypyc, without a compiler, with TIANXIA_PURE=1 set, or when the build fails,
the install goes on with the pure-Python modules (the reference) and records why.
"""

from __future__ import annotations

import importlib.util
import os
import sys
import traceback
from pathlib import Path
from typing import Any

from setuptools import setup
from setuptools.command.build_ext import build_ext

ROOT = Path(__file__).resolve().parent
PACKAGE = ROOT / "src" / "tianxia"


def _native_module() -> Any:
    """`tianxia._native` loaded by its path: the module list and the record's format,
    without importing the package (whose dependencies need not be installed yet)."""
    spec = importlib.util.spec_from_file_location("_tianxia_native", PACKAGE / "_native.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


native = _native_module()


def _say(text: str) -> None:
    print(f"tianxia build: {text}", file=sys.stderr)


def _extensions() -> tuple[list[Any], str]:
    """The mypyc extensions, or none and the reason."""
    if os.environ.get("TIANXIA_PURE", "") not in ("", "0"):
        return [], "TIANXIA_PURE was set at build time"
    try:
        from mypyc.build import mypycify
    except ImportError:
        return [], "mypyc was not installed at build time"
    global sources
    sources = native.digests(PACKAGE, native.COMPILED)
    groups = [
        ([str(native.source_path(PACKAGE, m).relative_to(ROOT)) for m in modules], name)
        for name, modules in native.GROUPS.items()
    ]
    paths = [path for group, _ in groups for path in group]
    try:
        # mypycify type-checks the package first; a type error makes it exit, which
        # falls back to the pure modules like any other failure.
        exts: list[Any] = mypycify(paths, opt_level="3", debug_level="0", separate=groups)
    except (Exception, SystemExit):
        traceback.print_exc()
        return [], "mypyc could not compile the modules"
    for ext in exts:
        # A failed C build skips the extension instead of failing the install.
        ext.optional = True
    return exts, ""


class BuildExt(build_ext):
    """Builds the extensions, then records which were built and from what sources."""

    def finalize_options(self) -> None:
        # The groups' C files compile side by side, one per core (the build's wall time
        # is what `make install` waits for); `--parallel` / -j on the command line wins.
        if self.parallel is None:
            self.parallel = os.cpu_count() or 1
        super().finalize_options()

    def run(self) -> None:
        super().run()
        # Where the extensions went: the source tree (in place, editable) or build/lib.
        where = Path(self.get_ext_fullpath("tianxia._probe")).parent
        missing = [
            e.name for e in self.extensions if not Path(self.get_ext_fullpath(e.name)).exists()
        ]
        if missing:
            built: dict[str, str] = {}
            reason = f"the C build failed ({missing[0]})"
        else:
            built, reason = sources, ""
        native.write_record(where, built, reason)
        _say(f"compiled {len(built)} modules" if built else f"pure Python: {reason}")


sources: dict[str, str] = {}
extensions, pure_reason = _extensions()
if not extensions:
    # Nothing to build: say so where the package is found, so `tianxia.compiled()`
    # can tell a pure install from a build that was never run.
    native.write_record(PACKAGE, {}, pure_reason)
    _say(f"pure Python: {pure_reason}")

setup(ext_modules=extensions, cmdclass={"build_ext": BuildExt})
