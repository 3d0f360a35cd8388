"""Loading a game's data files (boards, decks, tables), with a user override.

A player who owns the printed game can write the real board into a file of the same
schema and point `TIANXIA_DATA_DIR` at a folder holding `<game>/<file>.toml`; that file
is then read instead of the shipped one.
"""

from __future__ import annotations

import os
import tomllib
from pathlib import Path
from typing import Any

ENV_VAR = "TIANXIA_DATA_DIR"


def data_file(game: str, filename: str, package_dir: str | Path) -> Path:
    """The file to read: the user's override if present, else the shipped one."""
    override = os.environ.get(ENV_VAR)
    if override:
        candidate = Path(override) / game / filename
        if candidate.is_file():
            return candidate
    return Path(package_dir) / "data" / filename


def load_toml(game: str, filename: str, package_dir: str | Path) -> dict[str, Any]:
    """Parse `data/<filename>` of a game package (or its override). Errors name the file."""
    path = data_file(game, filename, package_dir)
    try:
        with path.open("rb") as f:
            return tomllib.load(f)
    except (OSError, tomllib.TOMLDecodeError) as e:
        raise ValueError(f"cannot read data file {path}: {e}") from e
