"""Undo at the table (`tianxia.play.table.Table`, the one rule every face uses): one's own
actions of the turn in progress, never past a hidden or random event, anything revealed,
or another seat's decision. Shown on a small game built for it, where a seat takes
several decisions in one turn and declares what each action tells each seat."""

from __future__ import annotations

import asyncio
import functools
from collections.abc import Callable, Coroutine, Sequence
from typing import Any

import pytest

from tianxia.core import (
    CHANCE,
    JSON,
    TERMINAL,
    Action,
    ActionCodec,
    Event,
    Game,
    IllegalActionError,
    Match,
    State,
    action,
    seat_name,
)
from tianxia.play.table import SeatPlan, Table
from tianxia.tui import TianxiaApp
from tianxia.tui.screens import GameScreen


@action
class Add(Action):
    def __str__(self) -> str:
        return "add"


@action
class Peek(Action):
    def __str__(self) -> str:
        return "peek"


@action
class Roll(Action):
    def __str__(self) -> str:
        return "roll"


@action
class End(Action):
    def __str__(self) -> str:
        return "end"


@action
class Coin(Action):
    side: int

    def __str__(self) -> str:
        return f"coin {self.side}"


@action
class Die(Action):
    pips: int

    def __str__(self) -> str:
        return f"die {self.pips}"


class Tallies(Game):
    """Two seats, two turns each. A hidden coin is dealt first. On a turn a seat may add
    one to its tally twice, peek at the coin, roll a die onto its tally, and then ends."""

    NAME = "tallies"
    TITLE = "Tallies (undo test game)"
    MIN_PLAYERS = 2
    MAX_PLAYERS = 2

    def _codec(self) -> ActionCodec:
        return ActionCodec([Add(), Peek(), Roll(), End()], [Coin(0), Coin(1), Die(1), Die(2)])

    def _max_game_length(self) -> int:
        return 40

    def new_initial_state(self) -> TalliesState:
        return TalliesState.make(
            self, coin=None, tally=(0, 0), turn=0, adds=0, peeked=(False, False), rolling=False
        )


class TalliesState(State):
    coin: int | None
    tally: tuple[int, ...]
    turn: int
    adds: int
    peeked: tuple[bool, ...]
    rolling: bool

    def current_player(self) -> int:
        if self.coin is None or self.rolling:
            return CHANCE
        return TERMINAL if self.turn >= 4 else self.turn % 2

    def chance_outcomes(self) -> list[tuple[Action, float]]:
        if self.coin is None:
            return [(Coin(0), 0.5), (Coin(1), 0.5)]
        return [(Die(1), 0.5), (Die(2), 0.5)]

    def _legal_actions(self) -> Sequence[Action]:
        seat = self.turn % 2
        out: list[Action] = [Add()] if self.adds < 2 else []
        if not self.peeked[seat]:
            out.append(Peek())
        return [*out, Roll(), End()]

    def _apply(self, a: Action) -> State:
        seat = self.turn % 2
        coin, tally, turn, adds = self.coin, list(self.tally), self.turn, self.adds
        peeked, rolling = list(self.peeked), False
        if isinstance(a, Coin):
            coin = a.side
        elif isinstance(a, Die):
            tally[seat] += a.pips
        elif isinstance(a, Add):
            tally[seat] += 1
            adds += 1
        elif isinstance(a, Peek):
            peeked[seat] = True
        elif isinstance(a, Roll):
            rolling = True
        else:
            turn, adds = turn + 1, 0
        return self.replace(
            coin=coin,
            tally=tuple(tally),
            turn=turn,
            adds=adds,
            peeked=tuple(peeked),
            rolling=rolling,
        )

    def event(self, a: Action, after: State) -> Event:
        who = seat_name(self.turn % 2)
        if isinstance(a, Coin):
            return Event("the coin is dealt: " + str(a.side), frozenset(), "a hidden coin is dealt")
        if isinstance(a, Die):
            return Event.public(f"the die shows {a.pips}", reveals=True)
        if isinstance(a, Peek):
            return Event.public(f"{who} peeks at the coin", reveals=True)
        return Event.public(f"{who}: {a}")

    def returns(self) -> list[float]:
        if not self.is_terminal() or self.tally[0] == self.tally[1]:
            return [0.0, 0.0]
        return [1.0, -1.0] if self.tally[0] > self.tally[1] else [-1.0, 1.0]

    def scores(self) -> list[float]:
        return [float(t) for t in self.tally]

    def observation(self, seat: int | None) -> JSON:
        sees = seat is not None and self.peeked[seat]
        return {
            "to_move": self.current_player(),
            "tally": list(self.tally),
            "turn": self.turn,
            "adds": self.adds,
            "coin": self.coin if sees else None,
        }

    def resample_from_infostate(self, seat: int, rng: object) -> State:
        if self.coin is None or self.peeked[seat]:
            return self
        import random

        assert isinstance(rng, random.Random)
        return self.replace(coin=rng.choice((0, 1)), rolling=False)


def sync(fn: Callable[..., Coroutine[Any, Any, None]]) -> Callable[..., None]:
    """Run an async test under plain pytest (no asyncio plugin is installed)."""

    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> None:
        asyncio.run(fn(*args, **kwargs))

    return wrapper


def session(seats: str = "human human", seed: int = 1) -> Table:
    plans = [SeatPlan.parse(s) for s in seats.split()]
    return Table(Match(Tallies(2), seed=seed), plans)


def test_own_actions_of_the_turn_are_taken_back_one_by_one() -> None:
    s = session()
    start = s.state
    assert not s.can_undo(), "the coin was dealt by chance: nothing of P1's to undo"
    s.play("add")
    s.play("add")
    assert s.can_undo()
    assert str(s.undo()) == "add"
    assert str(s.undo()) == "add"
    assert s.state == start
    with pytest.raises(IllegalActionError, match="chance event"):
        s.undo()
    assert s.state == start


def test_undo_stops_at_a_random_event() -> None:
    s = session()
    s.play("add")
    s.play("roll")
    assert s.match.seat_of(len(s.match.log) - 1) == CHANCE
    before = s.state
    assert not s.can_undo()
    with pytest.raises(IllegalActionError):
        s.undo()
    assert s.state is before


def test_undo_stops_at_what_was_revealed() -> None:
    s = session()
    s.play("add")
    s.play("peek")
    assert s.match.event(len(s.match.log) - 1).reveals
    assert not s.can_undo()
    with pytest.raises(IllegalActionError):
        s.undo()
    assert str(s.match.log[-1]) == "peek"


def test_undo_never_crosses_to_another_seats_decision() -> None:
    s = session()
    s.play("add")
    s.play("end")
    assert s.to_move() == 1
    assert not s.can_undo(), "P1's turn is over; P2 is to decide"
    s.play("add")
    assert s.can_undo()
    s.undo()
    assert not s.can_undo()
    assert str(s.match.log[-1]) == "end"


def test_a_bot_seat_cannot_be_undone() -> None:
    s = session("human random")
    s.play("end")
    assert s.bot_to_move()
    assert not s.can_undo()


def test_hidden_chance_is_hidden_in_the_log_and_public_chance_is_shown() -> None:
    s = session()
    s.play("roll")
    lines = s.events_for(0)
    assert lines[0]["action"] is None and lines[0]["text"] == "a hidden coin is dealt"
    assert lines[-1]["text"] == "the die shows " + lines[-1]["action"].split()[1]
    s.play("peek")
    assert s.events_for(1)[-1]["text"] == "P1 peeks at the coin", "P2 sees that P1 peeked"


def test_a_seat_other_than_the_one_to_move_cannot_undo() -> None:
    s = session()
    s.play("add")
    assert s.can_undo(0) and not s.can_undo(1)
    with pytest.raises(IllegalActionError):
        s.undo(1)
    assert str(s.match.log[-1]) == "add"


@sync
async def test_undo_key_in_the_app_takes_back_and_refuses_with_a_message() -> None:
    app = TianxiaApp(bot_delay=0)
    s = session("human random", seed=4)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        screen = GameScreen(s, bot_delay=0)
        await app.push_screen(screen)
        await pilot.pause()
        start = s.state
        await pilot.press("enter")  # the first legal action: add
        assert str(s.match.log[-1]) == "add"
        # The prompt names the key that undoes (letters type a move, so it is Ctrl-Z).
        assert "(Ctrl-Z undoes)" in str(screen.query_one("#prompt").render())
        await pilot.press("ctrl+z")
        assert s.state == start
        await pilot.press("ctrl+z")
        assert s.state == start
        message = str(screen.query_one("#message").render())
        assert "nothing of yours to undo" in message
