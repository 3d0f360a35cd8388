"""The Great Wall's board: the checks every board passes, and concrete things read from
the SVG (cards where the observation puts them, hidden hands, actions on their places)."""

from __future__ import annotations

import json
import random
import re
import xml.etree.ElementTree as ET
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from tianxia.core import load_game
from tianxia.core.match import Match
from tianxia.web.boards import Board, render

from .board_checks import SVG, check_board, play_and_check

# Players' names as long as people give them: a board cuts them short, never overlaps them.
NAMES = ["Anna", "Bernhard-Alexander von Hohenstein", "Chen Jing", "Dirk-Jan", "Elisabeth"]


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
    """The place (not the hand card picked first) that offers `action`."""
    found = [
        g
        for g in groups(svg, "spot")
        if action in json.loads(g.get("data-actions") or "[]") and g.get("data-pick") is None
    ]
    assert len(found) == 1, f"{action} is on {len(found)} spots"
    return found[0]


def find(players: int, seed: int, test: Callable[[Any, Any], bool]) -> tuple[Any, Any, int]:
    """The first position of a seeded game where `test(state, body of seat 0)` holds."""
    for game, state, seq in positions(players, seed):
        if test(state, state.envelope(0, seq)["body"]):
            return game, state, seq
    raise AssertionError("no such position in the game")


@pytest.mark.parametrize("players", [2, 3, 4, 5])
# The second seed's games in make test-long.
@pytest.mark.parametrize("seed", [1, pytest.param(2, marks=pytest.mark.slow)])
def test_every_seat_and_a_spectator_at_every_step(players: int, seed: int) -> None:
    totals = play_and_check(
        "greatwall", players, seed, steps=220, phone=True, labels=True, names=NAMES[:players]
    )
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
    marks = {
        i: [e for e in g.iter() if e.get("class") == "turn-mark"]
        for i in (1, 2)
        for g in groups(svg, f"seat{i}")
        if "seat" in (g.get("class") or "").split()
    }
    assert marks[1] and not marks[2]
    assert "P3 (you)" in rows[2] and "P2" in rows[1]


def test_same_input_same_svg() -> None:
    game, state, seq = find(4, 3, lambda s, b: sum(len(sec["cards"]) for sec in b["sections"]) > 4)
    seat = state.current_player()
    assert board_for(game, state, seq, seat).svg == board_for(game, state, seq, seat).svg


def test_hand_cards_are_picks_offering_every_move_that_plays_them() -> None:
    picked: set[str] = set()
    for game, state, seq in positions(3, 5, steps=300):
        seat = state.current_player()
        if state.is_terminal() or state.is_chance_node():
            continue
        legal = [str(a) for a in state.legal_actions()]
        svg = board_for(game, state, seq, seat).svg
        picks = {g.get("data-pick"): g for g in groups(svg, "spot") if g.get("data-pick")}
        hand = state.envelope(seat, seq)["body"]["hand"]
        for kind in hand:
            plays = [
                a
                for a in legal
                if (a.startswith("play ") and a.split()[-2] == kind)
                or (kind == "horseman" and a.startswith("horseman "))
                or (kind == "dragon" and a.startswith("dragon on "))
            ]
            pick = picks.get(f"card-{kind}")
            if not plays:
                assert pick is None
                continue
            assert pick is not None and pick.get("id") == f"gw-hand-{kind}"
            assert json.loads(pick.get("data-actions") or "[]") == plays
            picked.add(kind)
    assert {"wall", "dragon", "horseman"} <= picked, picked


def test_ids_last_and_the_others_last_moves_are_marked_recent() -> None:
    game, state, seq = find(3, 2, lambda s, b: sum(len(sec["cards"]) for sec in b["sections"]) >= 4)
    body = state.envelope(0, seq)["body"]
    section = next(sec for sec in body["sections"] if sec["cards"])
    last = f"{section['name']}{len(section['cards'])}"
    kind = section["cards"][-1][-1][1]
    recent = [(1, f"play {kind} {section['name']}"), (2, "draw"), (1, "take Z")]
    board = render(game, state.envelope(0, seq), [], names=["Ann", "Bo", "Cy"], recent=recent)
    check_board(board, [])
    root = ET.fromstring(board.svg)
    ids = {e.get("id") for e in root.iter() if e.get("id")}
    for sec in body["sections"]:
        assert f"gw-section-{sec['name']}" in ids
        for n, stack in enumerate(sec["cards"], 1):
            assert (f"gw-place-{sec['name']}{n}" in ids) == bool(stack)
    assert {"gw-seat-0", "gw-seat-1", "gw-seat-2", "gw-bag", "gw-legend", "gw-deck"} <= ids
    marked = [e for e in root.iter() if "recent" in (e.get("class") or "").split()]
    assert sorted(e.get("data-place") or e.get("id") or "" for e in marked) == sorted(
        [last, "gw-seat-1", "gw-seat-2"]
    )
    # Names, not P-numbers, where the players' names are known.
    assert "Ann (you)" in seat_row(board.svg, 0)
    assert not [t for t in texts(board.svg) if re.search(r"\bP[1-3]\b", t)]


def test_playing_the_last_card_asks_to_be_confirmed() -> None:
    from tianxia.web.boards import BoardInput
    from tianxia.web.boards.greatwall import confirm

    def last_cards(state: Any, body: Any) -> bool:
        seat = state.current_player()
        if seat < 0 or body["final_round"]:
            return False
        mine = state.envelope(seat, 0)["body"]
        return mine["players"][seat]["deck_size"] == 0 and sum(mine["hand"].values()) == 1

    game, state, seq = find(2, 3, last_cards)
    seat = state.current_player()
    legal = [str(a) for a in state.legal_actions()]
    board = BoardInput(game, {}, state.envelope(seat, seq), legal)
    plays = [a for a in legal if a.startswith(("play ", "horseman ", "dragon on "))]
    assert plays
    for a in plays:
        sentence = confirm(a, board)
        assert sentence and "last card" in sentence
    for a in legal:
        if a not in plays:
            assert confirm(a, board) is None


def test_the_legend_explains_the_walls_symbols() -> None:
    game, state, seq = find(3, 1, lambda s, b: b["phase"] == "actions")
    (legend,) = groups(board_for(game, state, seq, 0).svg, "legend")
    words = " ".join("".join(t.itertext()) for t in legend.iter(f"{SVG}text"))
    for term in ("fame tile", "dragon", "total", "play here"):
        assert term in words


@pytest.mark.parametrize("lang", ["nl", "de"])
def test_the_prompt_is_in_the_readers_words_in_every_phase(lang: str) -> None:
    """The awaited decision is written from the observation in words, through the
    catalogue: in Dutch and German no prompt is the English one, and none is the
    engine's notation or its own English `pending` sentence."""
    from tianxia.web.i18n import gettext_for

    def prompt(svg: str) -> str:
        root = ET.fromstring(svg)
        (g,) = [e for e in root.iter(f"{SVG}g") if e.get("class") == "prompt"]
        return " ".join("".join(t.itertext()) for t in g.iter(f"{SVG}text"))

    game = load_game("greatwall", 3)
    match = Match(game, seed=4)
    rng = random.Random(4)
    phases: set[str] = set()
    for _ in range(250):
        state = match.state
        if state.is_terminal():
            break
        seat = state.current_player()
        viewer = seat if seat >= 0 else None
        view = state.envelope(viewer, match.seq)
        english = prompt(render(game, view, [], names=NAMES[:3]).svg)
        translated = prompt(render(game, view, [], gettext_for(lang), NAMES[:3]).svg)
        assert translated != english, english
        assert str(view["body"].get("pending") or "\0") not in translated
        phases.add(str(view["body"]["phase"]))
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            match.play(rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0])
        else:
            match.play(rng.choice(state.legal_actions()))
    assert len(phases) >= 3, phases
