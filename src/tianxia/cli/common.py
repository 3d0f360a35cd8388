"""Helpers shared by the sub-commands: reading options, choosing seats' policies."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import typer

import tianxia
from tianxia import bots
from tianxia.core import Action, Game, State

Policy = Callable[[State], Action]


def parse_options(pairs: Sequence[str]) -> dict[str, Any]:
    """`["board=4-5", "fortifications=on"]` -> a dict (values are read by the game)."""
    out: dict[str, Any] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            raise typer.BadParameter(f"options are written name=value, not {pair!r}")
        out[key.strip()] = value.strip()
    return out


def load(name: str, players: int | None, options: Sequence[str]) -> Game:
    try:
        return tianxia.load_game(name, players=players, **parse_options(options))
    except ValueError as e:
        raise typer.BadParameter(str(e)) from e


def bot_policy(name: str, game: Game, seat: int, seed: int) -> tuple[Policy, Any]:
    """A policy for `seat` played by bot `name`, and the bot (for its explanations)."""
    try:
        bot = bots.make(name, game, seat, seed=seed)
    except (ValueError, KeyError) as e:
        raise typer.BadParameter(str(e)) from e
    return bot.act, bot
