"""The Great Wall's board: the checks every board passes, and concrete things read from
the SVG (cards where the observation puts them, hidden hands, actions on their places)."""

from __future__ import annotations

import json
import random
import xml.etree.ElementTree as ET
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from tianxia.core import load_game
from tianxia.core.match import Match
from tianxia.web.boards import Board, render

from .board_checks import SVG, check_board, play_and_check


def positions(players: int, seed: int, steps: int = 400) -> Iterator[tuple[Any, Any, int]]:
    """(game, state, seq) at every step of a seeded random game."""
    game = load_game("greatwall", players)
    match = Match(game, seed=seed)
    rng = random.Random(seed)
    for _ in range(steps):
        state = match.state
        yield game, state, match.seq
        if state.is_terminal():
            return
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            match.play(rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0])
        else:
            match.play(rng.choice(state.legal_actions()))


def board_for(game: Any, state: Any, seq: int, seat: int | None) -> Board:
    deciding = state.current_player()
    legal = [str(a) for a in state.legal_actions()] if seat == deciding else []
    board = render(game, state.envelope(seat, seq), legal)
    check_board(board, legal)
    return board


def texts(svg: str) -> list[str]:
    root = ET.fromstring(svg)
    return ["".join(t.itertext()) for t in root.iter(f"{SVG}text")]


def groups(svg: str, cls: str) -> list[ET.Element]:
    root = ET.fromstring(svg)
    return [g for g in root.iter(f"{SVG}g") if cls in (g.get("class") or "").split()]


def seat_row(svg: str, seat: int) -> list[str]:
    """The texts of seat `seat`'s row below the wall."""
    row = [g for g in groups(svg, "seat") if f"seat{seat}" in (g.get("class") or "").split()]
    assert len(row) == 1
    return ["".join(t.itertext()) for t in row[0].iter(f"{SVG}text")]


def spot_of(svg: str, action: str) -> ET.Element:
    found = [g for g in groups(svg, "spot") if action in json.loads(g.get("data-actions") or "[]")]
    assert len(found) == 1, f"{action} is on {len(found)} spots"
    return found[0]


def find(players: int, seed: int, test: Callable[[Any, Any], bool]) -> tuple[Any, Any, int]:
    """The first position of a seeded game where `test(state, body of seat 0)` holds."""
    for game, state, seq in positions(players, seed):
        if test(state, state.envelope(0, seq)["body"]):
            return game, state, seq
    raise AssertionError("no such position in the game")


@pytest.mark.parametrize("players", [2, 3, 4, 5])
@pytest.mark.parametrize("seed", [1, 2])
def test_every_seat_and_a_spectator_at_every_step(players: int, seed: int) -> None:
    totals = play_and_check("greatwall", players, seed, steps=220)
    assert totals["placed"] > 0
    # Only `pass` is left to the list, and it is rare.
    assert totals["placed"] > 5 * totals["listed"], totals


@pytest.mark.parametrize("players", [2, 4])
def test_every_action_but_pass_has_its_place(players: int) -> None:
    decisions = 0
    for game, state, seq in positions(players, 7, steps=300):
        seat = state.current_player()
        if state.is_terminal() or state.is_chance_node():
            continue
        legal = {str(a) for a in state.legal_actions()}
        board = board_for(game, state, seq, seat)
        assert board.placed == legal - {"pass"}, legal - board.placed
        decisions += 1
    assert decisions > 50


def test_each_card_lies_on_its_section_and_place_as_observed() -> None:
    game, state, seq = find(3, 1, lambda s, b: sum(len(sec["cards"]) for sec in b["sections"]) >= 6)
    body = state.envelope(None, seq)["body"]
    svg = board_for(game, state, seq, None).svg
    places = {g.get("data-place"): g for g in groups(svg, "place")}
    for section in body["sections"]:
        for number, stack in enumerate(section["cards"], 1):
            place = places[f"{section['name']}{number}"]
            cards = [g for g in place.iter(f"{SVG}g") if "card" in (g.get("class") or "").split()]
            assert [g.get("class", "").split()[1:3] for g in cards] == [
                [f"seat{seat}", kind] for seat, kind in stack
            ]
            seat, kind = stack[-1]
            assert f"piece seat{seat}" in {g.get("class") for g in cards[-1].iter(f"{SVG}g")}
            assert kind in "".join(cards[-1].itertext())


def test_a_dragon_covers_its_card_and_the_covered_card_stays_visible() -> None:
    game, state, seq = find(
        4, 2, lambda s, b: any(len(st) > 1 for sec in b["sections"] for st in sec["cards"])
    )
    body = state.envelope(None, seq)["body"]
    name, number, stack = next(
        (sec["name"], i, st)
        for sec in body["sections"]
        for i, st in enumerate(sec["cards"], 1)
        if len(st) > 1
    )
    svg = board_for(game, state, seq, None).svg
    place = next(g for g in groups(svg, "place") if g.get("data-place") == f"{name}{number}")
    cards = [g for g in place.iter(f"{SVG}g") if "card" in (g.get("class") or "").split()]
    assert len(cards) == len(stack)
    assert all("covered" in (g.get("class") or "") for g in cards[:-1])
    assert "covered" not in (cards[-1].get("class") or "")
    assert stack[-1][1] == "dragon"


def test_the_fame_tile_on_a_card_is_drawn_on_that_card() -> None:
    game, state, seq = find(3, 1, lambda s, b: any(sec["placed"] for sec in b["sections"]))
    body = state.envelope(None, seq)["body"]
    section = next(sec for sec in body["sections"] if sec["placed"])
    where = f"{section['name']}{section['placed']['card']}"
    svg = board_for(game, state, seq, None).svg
    place = next(g for g in groups(svg, "place") if g.get("data-place") == where)
    tiles = [g for g in place.iter(f"{SVG}g") if g.get("class") == "tile"]
    assert ["".join(t.itertext()) for t in tiles] == [str(section["placed"]["value"])]


def test_another_seats_hand_stays_hidden() -> None:
    def hidden_kind(game: Any, state: Any, seq: int) -> str | None:
        """A kind in seat 1's hand that nothing in seat 0's view names."""
        theirs = state.envelope(1, seq)["body"]["hand"]
        seen = set(texts(board_for(game, state, seq, 0).svg))
        for kind, count in theirs.items():
            if count and kind not in seen:
                return str(kind)
        return None

    for game, state, seq in positions(3, 4):
        if state.is_chance_node() or state.is_terminal():
            continue
        kind = hidden_kind(game, state, seq)
        if kind is None:
            continue
        owner = board_for(game, state, seq, 1).svg
        hand = groups(owner, "hand-card")
        assert kind in [next(g.iter(f"{SVG}text")).text for g in hand]
        assert kind not in texts(board_for(game, state, seq, 0).svg)
        assert kind not in texts(board_for(game, state, seq, None).svg)
        # Its size is public: seat 0 sees how many cards seat 1 holds.
        size = state.envelope(0, seq)["body"]["players"][1]["hand_size"]
        assert str(size) in seat_row(board_for(game, state, seq, 0).svg, 1)
        return
    raise AssertionError("no position with a hidden kind in seat 1's hand")


def test_actions_are_on_their_places() -> None:
    seen: set[str] = set()
    for game, state, seq in positions(3, 1):
        seat = state.current_player()
        if state.is_terminal() or state.is_chance_node():
            continue
        legal = [str(a) for a in state.legal_actions()]
        svg = board_for(game, state, seq, seat).svg
        for action in legal:
            words = action.split()
            if words[0] == "dragon" and words[1] == "on":
                inner = spot_of(svg, action).find(f"{SVG}g")
                assert inner is not None and inner.get("data-place") == words[2]
                seen.add("dragon on")
            elif words[0] == "lay":
                where = words[3]
                g = spot_of(svg, action)
                inner = g.find(f"{SVG}g")
                assert inner is not None and inner.get("data-place") == where
                # Every tile value that may go on this card is one spot.
                same = [a for a in legal if a.startswith("lay") and a.endswith(f" on {where}")]
                assert json.loads(g.get("data-actions") or "[]") == same
                seen.add("lay")
            elif words[0] == "take":
                inner = spot_of(svg, action).find(f"{SVG}g")
                assert inner is not None and inner.get("class") == "tiles"
                seen.add("take")
            elif words[0] in ("play", "horseman"):
                g = spot_of(svg, action)
                # All cards for one section are offered by that section's open slot.
                same = [a for a in legal if a.split()[0] in ("play", "horseman")]
                same = [a for a in same if a.split()[-1] == words[-1]]
                assert json.loads(g.get("data-actions") or "[]") == same
                seen.add(words[0])
            elif action == "draw":
                inner = spot_of(svg, action).find(f"{SVG}g")
                assert inner is not None and inner.get("class") == "deck"
                seen.add("draw")
    assert seen >= {"dragon on", "lay", "take", "play", "horseman", "draw"}, seen


def test_turn_and_viewer_are_marked() -> None:
    game, state, seq = find(3, 1, lambda s, b: b["phase"] == "actions" and b["turn_of"] == 1)
    svg = board_for(game, state, seq, 2).svg
    rows = {i: seat_row(svg, i) for i in (1, 2)}
    assert "▶" in rows[1] and "▶" not in rows[2]
    assert "P3 (you)" in rows[2] and "P2" in rows[1]


def test_same_input_same_svg() -> None:
    game, state, seq = find(4, 3, lambda s, b: sum(len(sec["cards"]) for sec in b["sections"]) > 4)
    seat = state.current_player()
    assert board_for(game, state, seq, seat).svg == board_for(game, state, seq, seat).svg
