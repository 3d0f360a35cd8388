"""The win model a game's evaluation hook can be: each seat's chance of winning.

A game's search room that uses it names its per-seat features (`WIN_FEATURES`), computes
them with `win_features(state)` (the rows, and the share of the game still to play, 1 at
the start and 0 at the end) and keeps `WIN_WEIGHTS`: per number of seats, a base and a
slope per feature. Seat i wins with chance softmax_i(sum_f (base_f + share * slope_f)
x_if), a conditional logit whose weights move with the game's progress, so that reserves
can count for more early on and points for more late. benchmarks/bots/fit_hook.py fits
the table to finished games and prints it.
"""

from __future__ import annotations

import math

Weights = dict[int, tuple[tuple[float, ...], tuple[float, ...]]]


def weights(table: Weights, players: int, share: float) -> list[float]:
    """The weights for `players` seats with `share` of the game still to play; a table
    size without its own uses the largest fitted one (docs/bots.md)."""
    base, slope = table.get(players) or table[max(table)]
    return [b + share * c for b, c in zip(base, slope)]


def logits(rows: list[list[float]], w: list[float]) -> list[float]:
    out: list[float] = []
    for row in rows:
        x = 0.0
        for wi, f in zip(w, row):
            x += wi * f
        out.append(x)
    return out


def chances(table: Weights, rows: list[list[float]], share: float, players: int = 0) -> list[float]:
    """Each row's chance of winning: the softmax of its logit over the rows. `players`,
    the table size whose weights apply, defaults to one seat a row (a game where some
    seats are out of the running passes its own)."""
    z = logits(rows, weights(table, players or len(rows), share))
    top = max(z)
    e = [math.exp(x - top) for x in z]
    total = sum(e)
    return [v / total for v in e]


def terms(
    table: Weights, names: tuple[str, ...], rows: list[list[float]], share: float, seat: int
) -> dict[str, float]:
    """What each feature adds to `seat`'s logit."""
    w = weights(table, len(rows), share)
    return {name: wi * f for name, wi, f in zip(names, w, rows[seat])}


def expected_returns(c: list[float]) -> list[float]:
    """Each seat's expected return when a lone winner gets 1 and every loser -1/(n-1):
    a seat with chance c expects (n c - 1) / (n - 1)."""
    n = len(c)
    return [(n * ci - 1.0) / (n - 1) for ci in c]


def winners_chances(returns: list[float]) -> list[float]:
    """A finished game's chances: its winners share 1."""
    best = max(returns)
    won = [r == best for r in returns]
    k = sum(won)
    return [1.0 / k if w else 0.0 for w in won]
