"""Entry point of the `tianxia` command: gathers the sub-command modules."""

from __future__ import annotations

import importlib
import sys

import typer

import tianxia
from tianxia.cli.app import app

_COMMAND_MODULES = (
    "serve",
    "games",
    "play",
    "simulate",
    "replay",
    "bench",
    "tournament",
    "tui",
    "train",
)


def _load_commands() -> None:
    for name in _COMMAND_MODULES:
        module = f"tianxia.cli.{name}"
        try:
            importlib.import_module(module)
        except ModuleNotFoundError as e:
            if e.name != module:
                raise


@app.callback(invoke_without_command=True)
def _root(
    version: bool = typer.Option(False, "--version", help="print the version and exit"),
) -> None:
    """Five board games of old China: play, simulate, replay, benchmark."""
    if version:
        typer.echo(f"tianxia {tianxia.__version__}")
        raise typer.Exit()


def main() -> None:
    _load_commands()
    from tianxia.cli.tournament import ray_address_optional

    sys.argv[1:] = ray_address_optional(sys.argv[1:])
    app()
