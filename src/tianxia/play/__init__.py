"""Matches between any mix of players, tournaments over processes, ratings and charts.

    from tianxia.play import Tournament
    result = Tournament(game, ["greedy", "random"], games=100, seed=1).run(workers=2)
    result.save("out/")   # logs/, results.json, results.md, chart.png, chart.svg

openskill and matplotlib are imported only when ratings or charts are made.
"""

from tianxia.play.runner import BotSpec, Player, play_match, shares_of_win
from tianxia.play.tournament import GameRecord, Seating, Standing, Tournament, TournamentResult

__all__ = [
    "BotSpec",
    "GameRecord",
    "Player",
    "Seating",
    "Standing",
    "Tournament",
    "TournamentResult",
    "play_match",
    "shares_of_win",
]
