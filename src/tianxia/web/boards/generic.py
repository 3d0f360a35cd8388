"""A plain board for a game without a drawing of its own: whose turn, and the scores."""

from __future__ import annotations

from tianxia.web.boards import Board, BoardInput
from tianxia.web.boards.svg import document, seat_marker, text


def render(board: BoardInput) -> Board:
    view = board.view
    players = board.game.players
    parts = [text(200, 30, board.game.info.title, size=20)]
    for seat in range(players):
        y = 70 + 40 * seat
        parts.append(seat_marker(seat, 40, y, 12))
        score = view["scores"][seat] if view.get("scores") else ""
        mark = " ◀" if view.get("to_move") == seat else ""
        parts.append(text(70, y + 5, f"P{seat + 1} {score}{mark}", size=16, anchor="start"))
    return Board(document(400, 80 + 40 * players, parts, board.game.info.title))
