"""Playing one game between any mix of players: bots, people, or any `act(state)` callable."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from tianxia.core import Action, Game, Match, State


class Player(Protocol):
    """Anything that can take a seat: a bot, a terminal front end, a scripted test player."""

    def act(self, state: State) -> Action: ...


@dataclass(frozen=True)
class BotSpec:
    """A bot and its options, written `name` or `name:key=value:key=value`.

    >>> BotSpec.parse("ismcts:simulations=200:time_limit=0.5")
    BotSpec(name='ismcts', options={'simulations': 200, 'time_limit': 0.5})
    """

    name: str
    options: dict[str, Any] = field(default_factory=dict)

    @classmethod
    def parse(cls, text: str) -> BotSpec:
        """Read `name:key=value:...`; numbers become numbers, `none` becomes None.

        Raises:
            ValueError: empty text, an empty name, or an option not written key=value.
        """
        if not isinstance(text, str) or not text.strip():
            raise ValueError(f"a bot is written name or name:key=value, not {text!r}")
        name, *pairs = (part.strip() for part in text.strip().split(":"))
        if not name:
            raise ValueError(f"a bot is written name or name:key=value, not {text!r}")
        options: dict[str, Any] = {}
        for pair in pairs:
            key, sep, value = pair.partition("=")
            if not sep or not key.strip():
                raise ValueError(f"bot options are written key=value, not {pair!r} in {text!r}")
            options[key.strip()] = _read_value(value.strip())
        return cls(name, options)

    def __str__(self) -> str:
        return ":".join([self.name, *(f"{k}={v}" for k, v in self.options.items())])

    def make(self, game: Game, seat: int, seed: int) -> Any:
        """The bot itself (a ValueError for an unknown bot or option)."""
        from tianxia import bots

        return bots.make(self.name, game, seat, seed=seed, **self.options)


def _read_value(text: str) -> Any:
    if text.lower() == "none":
        return None
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text


def play_match(
    game: Game,
    players: Sequence[Player | Callable[[State], Action]],
    seed: int = 0,
    on_action: Callable[[Match, int, Action], None] | None = None,
) -> Match:
    """Play one game to its end; seat i is `players[i]`, chance comes from `seed`.

    Args:
        game: the variant.
        players: one per seat, each an object with `act(state)` or a plain callable.
        seed: the match's chance stream.
        on_action: called after every player action with the match, the seat and action.

    Returns:
        The finished `Match` (its log replays the game; `match.save` writes it).

    Raises:
        ValueError: the wrong number of players, or a player answered with an action
            that is not legal (the match is left as it was before that action).
    """
    if len(players) != game.players:
        raise ValueError(f"{game!r} needs {game.players} players, not {len(players)}")
    policies = [_policy(p) for p in players]
    match = Match(game, seed=seed)
    limit = game.info.max_game_length
    while True:
        match.resolve_chance()
        if match.state.is_terminal():
            return match
        if len(match.log) >= limit:
            raise ValueError(f"{game!r} ran past its max_game_length of {limit}")
        seat = match.state.current_player()
        action = policies[seat](match.state)
        match.play(action)
        if on_action is not None:
            on_action(match, seat, match.log[-1])


def _policy(player: Player | Callable[[State], Action]) -> Callable[[State], Action]:
    act = getattr(player, "act", None)
    if callable(act):
        return act
    if callable(player):
        return player
    raise ValueError(f"a player needs an act(state) method, and {player!r} has none")


def shares_of_win(returns: Sequence[float]) -> list[float]:
    """Each seat's share of the win: 1 for a lone best return, split evenly among ties."""
    best = max(returns)
    winners = [s for s, r in enumerate(returns) if r == best]
    return [1.0 / len(winners) if s in winners else 0.0 for s in range(len(returns))]
