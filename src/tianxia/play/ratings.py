"""Ratings with openskill (Plackett-Luce), updated game by game in tournament order."""

from __future__ import annotations

from collections.abc import Sequence


def rate_games(
    entrants: int, games: Sequence[tuple[Sequence[int], Sequence[float]]]
) -> list[tuple[float, float]]:
    """`(mu, sigma)` per entrant after rating `games` in order.

    Each game is `(entrant at each seat, return of each seat)`; seats are ranked by
    return, ties sharing a rank. An entrant seated twice in one game (a bot filling the
    empty seats) takes the mean of its seats' updates, so it is not rated twice.
    """
    from openskill.models import PlackettLuce

    model = PlackettLuce()
    ratings = [model.rating() for _ in range(entrants)]
    for seats, returns in games:
        ranks = [1.0 + sum(1 for o in returns if o > r) for r in returns]
        teams = [[ratings[e]] for e in seats]
        updated = model.rate(teams, ranks=ranks)
        for e in set(seats):
            mine = [updated[s][0] for s, who in enumerate(seats) if who == e]
            mu = sum(r.mu for r in mine) / len(mine)
            sigma = sum(r.sigma for r in mine) / len(mine)
            ratings[e] = model.rating(mu=mu, sigma=sigma)
    return [(r.mu, r.sigma) for r in ratings]
