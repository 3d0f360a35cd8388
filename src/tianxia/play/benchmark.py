"""The bots' strength and speed targets of issue 8, measured per game and player count.

- greedy against random: at least 80% of the wins with two seats, or at least twice its
  fair share with more (one greedy bot, the other seats random);
- ismcts at `time_limit` seconds a move against greedy: at least 65% with two seats, or
  1.6 times its fair share with more (one ismcts bot, the other seats greedy);
- ismcts simulations per second at the first decision and in mid-game.

These runs are long; `benchmarks/bots.py` drives them and tests never do.
"""

from __future__ import annotations

import datetime as dt
import json
import os
import platform
import random
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import tianxia
from tianxia.bots import make
from tianxia.core import CHANCE, Game, Match, State
from tianxia.play.tournament import Tournament, TournamentResult


@dataclass
class StrengthRow:
    """One strength measurement: the first entrant against the others."""

    game: str
    players: int
    bot: str
    opponent: str
    games: int
    wins: float
    win_rate: float
    share_ratio: float
    target: str
    met: bool
    seconds_per_move: float
    simulations_per_second: float


def open_report(store: Path, **run: Any) -> tuple[dict[str, Any], dict[str, Any]]:
    """The benchmark report kept in `store` (JSON; a new one if absent) and a new run
    appended to it: when and where it ran, then `run`'s own fields."""
    report: dict[str, Any] = (
        json.loads(store.read_text(encoding="utf-8")) if store.exists() else {"runs": []}
    )
    entry: dict[str, Any] = {
        "date": dt.datetime.now(dt.UTC).strftime("%Y-%m-%d %H:%M UTC"),
        "machine": " ".join(platform.uname()),
        "cores": os.cpu_count(),
        "python": platform.python_version(),
        **run,
    }
    report["runs"].append(entry)
    return report, entry


def save_report(store: Path, report: dict[str, Any], markdown: str) -> None:
    """`report` as JSON in `store`, and its table as Markdown beside it."""
    store.write_text(json.dumps(report, indent=1) + "\n", encoding="utf-8")
    store.with_suffix(".md").write_text(markdown, encoding="utf-8")


def typical_players(game_name: str) -> list[int]:
    """The smallest player count and a typical one (four, or the nearest allowed)."""
    cls = type(tianxia.load_game(game_name))
    typical = min(cls.MAX_PLAYERS, max(cls.MIN_PLAYERS, 4))
    return sorted({cls.MIN_PLAYERS, typical})


def strength(
    game: Game,
    bot: str,
    opponent: str,
    games: int,
    seed: int = 0,
    workers: int = 1,
    on_game: Callable[[Any], None] | None = None,
) -> tuple[StrengthRow, TournamentResult]:
    """`bot` in one seat, `opponent` in the others, seats rotated, against the targets."""
    result = Tournament(game, [bot, opponent], games, seed=seed).run(workers, on_game)
    mine = result.standings[0]
    two = game.players == 2
    searching = bot.startswith(("ismcts", "pimc"))
    if two:
        goal = 0.65 if searching else 0.80
        target, met = f">= {goal:.0%} of games", mine.win_rate >= goal
    else:
        goal = 1.6 if searching else 2.0
        target, met = f">= {goal}x fair share", mine.share_ratio >= goal
    row = StrengthRow(
        game=game.info.name,
        players=game.players,
        bot=bot,
        opponent=opponent,
        games=games,
        wins=mine.wins,
        win_rate=mine.win_rate,
        share_ratio=mine.share_ratio,
        target=target,
        met=met,
        seconds_per_move=mine.seconds_per_decision,
        simulations_per_second=mine.simulations_per_second,
    )
    return row, result


def decision_states(game: Game, seed: int) -> tuple[State, State]:
    """The first decision with a real choice, and one halfway through a random game."""
    match = Match(game, seed=seed)
    chooser = random.Random(seed)
    found: list[State] = []
    while not match.state.is_terminal():
        if match.state.current_player() == CHANCE:
            match.resolve_chance()
            continue
        legal = match.state.legal_actions()
        if len(legal) > 1:
            found.append(match.state)
        match.play(chooser.choice(legal))
    if not found:
        raise ValueError(f"{game!r}: a random game offered no choice at all")
    return found[0], found[len(found) // 2]


def search_speed(game: Game, seconds: float, seed: int = 0, bot: str = "ismcts") -> dict[str, Any]:
    """Simulations per second of a search bot given `seconds`, at the first and mid decision."""
    out: dict[str, Any] = {}
    for where, state in zip(("first", "mid"), decision_states(game, seed), strict=True):
        searcher: Any = make(bot, game, state.current_player(), seed=seed, time_limit=seconds)
        searcher.act(state)
        out[where] = {
            "simulations": searcher.last_simulations,
            "seconds": searcher.last_seconds,
            "per_second": searcher.simulations_per_second,
            "legal_actions": len(state.legal_actions()),
        }
    return out
