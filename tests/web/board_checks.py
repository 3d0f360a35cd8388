"""What every board must satisfy, checked over seeded random games at every step."""

from __future__ import annotations

import json
import random
import xml.etree.ElementTree as ET
from collections import Counter

from tianxia.core import load_game
from tianxia.core.match import Match
from tianxia.web.boards import Board, render

SVG = "{http://www.w3.org/2000/svg}"


def spots(svg: str) -> list[list[str]]:
    """The actions of each clickable spot, in document order."""
    root = ET.fromstring(svg)
    out = []
    for g in root.iter(f"{SVG}g"):
        if "spot" in (g.get("class") or "").split():
            out.append(json.loads(g.get("data-actions") or "[]"))
    return out


def check_board(board: Board, legal: list[str]) -> None:
    root = ET.fromstring(board.svg)  # well-formed, or this raises
    assert root.tag == f"{SVG}svg"
    assert root.get("viewBox")
    found = spots(board.svg)
    placed = Counter(a for actions in found for a in actions)
    assert all(n == 1 for n in placed.values()), f"an action on two spots: {placed}"
    assert set(placed) == board.placed
    assert board.placed <= set(legal), board.placed - set(legal)
    for actions in found:
        assert actions, "a spot offers nothing"


def play_and_check(
    name: str, players: int, seed: int, steps: int = 400, **options: object
) -> dict[str, int]:
    """Play a seeded random game of `name`, rendering every seat and a spectator at every
    step; returns how many legal actions were placed and listed in all."""
    game = load_game(name, players, **options)
    match = Match(game, seed=seed)
    rng = random.Random(seed)
    totals = {"placed": 0, "listed": 0}
    for _ in range(steps):
        state = match.state
        deciding = state.current_player()
        for seat in [None, *range(players)]:
            view = state.envelope(seat, match.seq)
            legal = [str(a) for a in state.legal_actions()] if seat == deciding else []
            board = render(game, view, legal)
            check_board(board, legal)
            if seat == deciding:
                totals["placed"] += len(board.placed)
                totals["listed"] += len(legal) - len(board.placed)
        if state.is_terminal():
            break
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            match.play(rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0])
        else:
            match.play(rng.choice(state.legal_actions()))
    return totals
