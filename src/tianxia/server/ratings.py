"""Who a finished game rates, and as whom (docs/server.md, Ratings).

Only accounts and bots have ratings: a person's is keyed `account:<account id>` and
named by the account, never by anything a client sends; a bot's is its strength's,
`bot:<strength>`, however many seats it holds. A guest's seat takes part as an opponent
at the default rating that nothing updates, as does a person whose seat a stand-in
played too much of (`STAND_IN_SHARE`). A seat that gave up, by resigning or on time,
before `OWN_MOVES` decisions of its own makes the game unrated for everyone: what a
rigged game (a throwaway seat that resigns at once) would need.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

# A person is not rated for a game in which a stand-in made more than this share of
# their seat's decisions: a quarter lets a player who lost a connection for a few moves
# of a long game keep it rated, while a game mostly played by a stand-in (a player who
# let the bank run out and left a medium bot to win or lose it) says little about them.
STAND_IN_SHARE = 0.25
# A seat that resigned or ran out of time before this many decisions of its own makes
# the game unrated for everyone. Lichess aborts a game in which a player has not moved;
# a decision here is often smaller than a chess move (a turn of China may be three), so
# three of them are about one turn's worth in every title.
OWN_MOVES = 3
# A return below any game's own (`State.returns()` lies in [-1, 1]): a seat that gave up
# ranks last.
GAVE_UP = -2.0


@dataclass(frozen=True)
class Rated:
    """A game's ranking for the ratings: `(identity, name, return)` per seat, and the
    identities that take part at the default rating without being updated."""

    ranked: list[tuple[str, str | None, float]]
    fixed: frozenset[str]


def identity(seat: Mapping[str, Any]) -> str | None:
    """The rating identity a seat plays as: its account's, its bot strength's, or None
    for a guest."""
    if seat["kind"] == "bot":
        return f"bot:{seat['strength']}"
    if seat.get("account_id"):
        return f"account:{seat['account_id']}"
    return None


def moves_of(marks: Mapping[int, tuple[int, bool]], seat: int) -> tuple[int, int]:
    """A person's seat's decisions: `(own, by a stand-in)`, from the marks of the log
    (seq -> (seat, made by a stand-in))."""
    own = stand_in = 0
    for who, by_stand_in in marks.values():
        if who == seat:
            if by_stand_in:
                stand_in += 1
            else:
                own += 1
    return own, stand_in


def ranking(
    seats: Sequence[Mapping[str, Any]],
    returns: Sequence[float],
    marks: Mapping[int, tuple[int, bool]],
    names: Mapping[str, str],
) -> Rated | None:
    """What a finished game rates, or None when it rates nobody.

    Args:
        seats: the game's seats' rows (kind, strength, account_id, resigned).
        returns: each seat's return at the end.
        marks: seq -> (seat, by a stand-in) for every decision of a person's seat.
        names: account id -> the account's name now (an account deleted since has none
            and is not rated).
    """
    ranked: list[tuple[str, str | None, float]] = []
    fixed: set[str] = set()
    accounts: list[str] = []
    for s in seats:
        seat = int(s["seat"])
        r = GAVE_UP if s["resigned"] else float(returns[seat])
        if s["kind"] == "bot":
            ranked.append((f"bot:{s['strength']}", f"bot ({s['strength']})", r))
            continue
        own, stand_in = moves_of(marks, seat)
        if s["resigned"] and own < OWN_MOVES:
            return None  # given up before playing: a throwaway seat, or an abort
        who = identity(s)
        account = str(s["account_id"]) if who is not None else ""
        if who is not None:
            accounts.append(who)
        total = own + stand_in
        played = total == 0 or stand_in / total <= STAND_IN_SHARE
        if who is not None and account in names and played:
            ranked.append((who, names[account], r))
        else:
            # A guest, or a person this game says too little of: an opponent at the
            # default rating, one team per seat, never updated.
            stand = f"fixed:{seat}"
            fixed.add(stand)
            ranked.append((stand, None, r))
    if len(set(accounts)) != len(accounts):
        return None  # one account in two seats (a hotseat game)
    if not any(who.startswith("account:") for who, _, _ in ranked):
        return None  # no account is rated: bots are rated against accounts only
    if len(ranked) < 2:
        return None
    return Rated(ranked, frozenset(fixed))
