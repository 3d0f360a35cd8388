"""Entry point of the `tianxia` command: gathers the sub-command modules."""

from __future__ import annotations

import importlib

from tianxia.cli.app import app

_COMMAND_MODULES = ("serve", "games", "play", "simulate", "replay", "bench", "tournament", "tui")


def _load_commands() -> None:
    for name in _COMMAND_MODULES:
        module = f"tianxia.cli.{name}"
        try:
            importlib.import_module(module)
        except ModuleNotFoundError as e:
            if e.name != module:
                raise


def main() -> None:
    _load_commands()
    app()
