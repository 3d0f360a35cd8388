"""Game-agnostic bots. Game knowledge enters only through each game's evaluation hook.

bot = tianxia.bots.make("ismcts", game, seat=0, seed=1, simulations=500)
action = bot.act(state)   # state: any state where seat 0 is to move
print(bot.explain())      # the alternatives weighed and the evaluation's terms
"""

from __future__ import annotations

from typing import Any

from tianxia.bots.base import Bot
from tianxia.bots.random_bot import RandomBot
from tianxia.core import Game

_BOTS: dict[str, type[Bot]] = {RandomBot.NAME: RandomBot}


def _register_builtin() -> None:
    # The search bots are imported here (not at the top) so a partial checkout still loads.
    try:
        from tianxia.bots.greedy import GreedyBot
        from tianxia.bots.ismcts import ISMCTSBot, PIMCBot
    except ImportError:
        return
    _BOTS[GreedyBot.NAME] = GreedyBot
    _BOTS[ISMCTSBot.NAME] = ISMCTSBot
    _BOTS[PIMCBot.NAME] = PIMCBot
    # pyspiel itself is imported only when one of these is made (extra `rl`).
    from tianxia.bots.reference import OpenSpielISMCTSBot, OpenSpielMCTSBot

    _BOTS[OpenSpielISMCTSBot.NAME] = OpenSpielISMCTSBot
    _BOTS[OpenSpielMCTSBot.NAME] = OpenSpielMCTSBot
    try:  # the learned bot's network runs in NumPy (extra `rl`)
        from tianxia.bots.learned import LearnedBot
        from tianxia.bots.learned_policy import PolicyBot
    except ImportError:
        return
    _BOTS[LearnedBot.NAME] = LearnedBot
    _BOTS[PolicyBot.NAME] = PolicyBot


def available() -> list[str]:
    """Names accepted by `make`."""
    _register_builtin()
    return list(_BOTS)


def make(name: str, game: Game, seat: int, seed: int = 0, **options: Any) -> Bot:
    """A bot called `name` playing `seat` of `game`, with its own stream seeded by `seed`.

    Args:
        name: `random`, `greedy`, `ismcts`, `pimc`, `openspiel-ismcts`,
            `openspiel-mcts`, `learned` or `policy` (see `available()`).
        game: the loaded variant.
        seat: the seat it plays.
        seed: seeds the bot's random stream; the same seed gives the same decisions.
        options: per bot, e.g. `simulations=`, `time_limit=` for `ismcts` and `pimc`.

    Raises:
        ValueError: an unknown bot, an unknown option or a value out of range.
    """
    _register_builtin()
    if not isinstance(name, str) or name not in _BOTS:
        raise ValueError(f"no bot called {name!r} (bots: {', '.join(_BOTS)})")
    return _BOTS[name](game, seat, seed=seed, **options)


__all__ = ["Bot", "available", "make"]
