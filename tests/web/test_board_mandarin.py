"""The Mandarin board: seeded games at every player count, and concrete positions read
back from the SVG."""

from __future__ import annotations

import json
import math
import random
import re
import xml.etree.ElementTree as ET
from typing import Any

import pytest

from tianxia.core import State, load_game
from tianxia.core.match import Match
from tianxia.games.mandarin.data import TABLES
from tianxia.games.mandarin.game import Mandarin
from tianxia.games.mandarin.state import MandarinState, Phase
from tianxia.web.boards import Board, mandarin, render

from .board_checks import SVG, check_board, play_and_check

# Phases in which every action open to the deciding seat has a place on the board.
ALL_PLACED = {"sign", "start", "take", "seize", "choose"}
LOT = -2

# Players' names as long as people give them: a board cuts them short, never overlaps them.
NAMES = ["Anna", "Bernhard-Alexander von Hohenstein", "Chen Jing", "Dirk-Jan", "Elisabeth"]


def tile(name: str) -> int:
    return TABLES.tile_names.index(name)


def board_of(state: State, seat: int | None) -> Board:
    legal = [str(a) for a in state.legal_actions()] if state.current_player() == seat else []
    board = render(state.game, state.envelope(seat, 1), legal)
    check_board(board, legal)
    return board


def texts(svg: str) -> list[str]:
    return [t.text or "" for t in ET.fromstring(svg).iter(f"{SVG}text")]


def spot_of(svg: str, action: str) -> ET.Element:
    for g in ET.fromstring(svg).iter(f"{SVG}g"):
        if "spot" in (g.get("class") or "").split() and action in json.loads(
            g.get("data-actions") or "[]"
        ):
            return g
    raise AssertionError(f"no spot offers {action!r}")


def mid_game(players: int = 4, **fields: Any) -> MandarinState:
    """Seat 0 (rabbit) holds the ox sector with three ox tiles, the pagoda among them."""
    game = load_game("mandarin", players)
    assert isinstance(game, Mandarin)
    owner = [-1] * len(TABLES.tile_names)
    holdings = {
        "ox-red": 0,
        "ox-pink": 0,
        "ox-blue": 0,
        "pig-green": 0,
        "tiger-yellow": 1,
        "tiger-red": 1,
        "goat-pink": 1,
        "rooster-blue": 2,
        "snake-red": 3,
    }
    for name, seat in holdings.items():
        if seat < players:
            owner[tile(name)] = seat
    values: dict[str, Any] = {
        "sign": (3, 9, 8, 3)[:players],
        "pos": (4, 29, 29, 17)[:players],
        "money": (2700, 4100, 3300, 1500)[:players],
        "owner": owner,
        "seat": 1,
        "turns": 37,
    }
    values.update(fields)
    if isinstance(values.get("phase"), str):
        values["phase"] = Phase[values["phase"].upper()]
    return game.position(**values)


@pytest.mark.parametrize("players", [2, 3, 4, 5])
# The second seed's games in make test-long.
@pytest.mark.parametrize("seed", [1, pytest.param(2, marks=pytest.mark.slow)])
def test_random_games_render_for_every_seat(players: int, seed: int) -> None:
    totals = play_and_check(
        "mandarin", players, seed, steps=150, phone=True, labels=True, names=NAMES[:players]
    )
    assert totals["placed"] > 0
    assert totals["placed"] + totals["listed"] > 0


def test_every_action_of_the_placed_phases_is_on_the_board() -> None:
    seen: set[str] = set()
    for players, seed in ((2, 5), (4, 6)):
        game = load_game("mandarin", players, money=True)
        match = Match(game, seed=seed)
        rng = random.Random(seed)
        for _ in range(500):
            state = match.state
            if state.is_terminal():
                break
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                match.play(rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0])
                continue
            seat = state.current_player()
            view = state.envelope(seat, match.seq)
            phase = view["body"]["phase"]
            legal = [str(a) for a in state.legal_actions()]
            board = render(game, view, legal)
            if phase in ALL_PLACED:
                seen.add(phase)
                assert board.placed == set(legal), (phase, set(legal) - board.placed)
            elif phase == "auction":
                # Bids are not on the board; the player on turn may cash in on his tiles.
                assert all(a.startswith("cash ") for a in board.placed)
                assert board.placed == {a for a in legal if a.startswith("cash ")}
            match.play(rng.choice(state.legal_actions()))
    assert {"sign", "start", "choose"} <= seen


def test_stones_stand_on_their_squares_and_the_turn_is_marked() -> None:
    state = mid_game(phase="start", actor=1)
    root = ET.fromstring(board_of(state, 1).svg)
    pieces = [g for g in root.iter(f"{SVG}g") if "piece" in (g.get("class") or "")]
    # Each mandarin on the ring, and one marker per seat in the collections.
    for seat in range(4):
        assert sum(f"seat{seat}" in (g.get("class") or "") for g in pieces) >= 2
    words = texts(board_of(state, 1).svg)
    assert "P2 (you) may cash in tiles, then rolls" in words
    assert any("you" in w and "turn" in w for w in words)


def centres(svg: str, seat: int) -> set[tuple[int, int]]:
    """Where the pieces of `seat` stand (P1 is a circle, P2 a square)."""
    out = set()
    for g in ET.fromstring(svg).iter(f"{SVG}g"):
        if (g.get("class") or "") != f"piece seat{seat}":
            continue
        for c in g.iter(f"{SVG}circle"):
            out.add((round(float(c.get("cx") or 0)), round(float(c.get("cy") or 0))))
        for r in g.iter(f"{SVG}rect"):
            x = float(r.get("x") or 0) + float(r.get("width") or 0) / 2
            y = float(r.get("y") or 0) + float(r.get("height") or 0) / 2
            out.add((round(x), round(y)))
    return out


def test_a_stone_is_drawn_where_the_observation_puts_it() -> None:
    state = mid_game(players=2, pos=(4, 19), phase="start", actor=1)
    svg = board_of(state, None).svg
    for seat, square in enumerate((4, 19)):
        # Square 1 (the rat's character) is at the top, ten degrees a square clockwise.
        a = math.radians(-90 + (square - 1) * 10)
        x = mandarin.CX + mandarin.R_SQUARE * math.cos(a)
        y = mandarin.CY + mandarin.R_SQUARE * math.sin(a)
        assert any(abs(cx - x) <= 1 and abs(cy - y) <= 1 for cx, cy in centres(svg, seat))


def test_others_money_is_hidden_and_ones_own_is_shown() -> None:
    state = mid_game(phase="start", actor=1)
    mine = texts(board_of(state, 1).svg)
    theirs = texts(board_of(state, 0).svg)
    watching = texts(board_of(state, None).svg)
    assert "4100 yuan" in mine
    assert not any("4100" in t for t in theirs)
    assert not any("4100" in t for t in watching)
    assert "2700 yuan" in theirs and "2700 yuan" not in mine


def test_every_purse_is_shown_once_the_game_is_over() -> None:
    state = mid_game(phase="over", actor=-1, winners=(1,), end="cap")
    words = texts(board_of(state, 0).svg)
    for amount in (2700, 4100, 3300, 1500):
        assert f"{amount} yuan" in words
    assert "won by P2" in words


def test_face_down_tiles_of_the_lot_are_backs() -> None:
    owner = list(mid_game().owner)
    owner[tile("goat-yellow")] = LOT
    state = mid_game(
        phase="auction",
        actor=0,
        owner=owner,
        lot=(tile("goat-yellow"),),
        holes=2,
        seller=-1,
        high=600,
        bidder=2,
        out=0b1000,
        last_roll=5,
        rolls=1,
    )
    board = board_of(state, 0)
    words = texts(board.svg)
    (lot,) = [g for g in ET.fromstring(board.svg).iter(f"{SVG}g") if g.get("id") == "mn-lot"]
    assert [t.text for t in lot.iter(f"{SVG}text")].count("?") == 2
    assert "yellow" in words
    assert "high bid 600 yuan by P3" in words
    assert "Auction for the bank" in words
    # Bids and pass go to the list.
    assert not board.placed


def test_signs_are_chosen_on_the_ring() -> None:
    game = load_game("mandarin", 3)
    state = game.new_initial_state()
    board = board_of(state, 0)
    assert board.placed == {str(a) for a in state.legal_actions()}
    spot = spot_of(board.svg, "sign goat")
    assert "goat" in (spot.get("aria-label") or "")
    assert json.loads(spot.get("data-actions") or "[]") == ["sign goat"]


def test_cashing_in_is_on_ones_own_tiles_and_rolling_on_the_die() -> None:
    state = mid_game(phase="start", actor=0, seat=0)
    board = board_of(state, 0)
    assert board.placed == {str(a) for a in state.legal_actions()}
    cash = spot_of(board.svg, "cash ox-pink")
    assert "pagoda" in (cash.get("aria-label") or "")
    roll = spot_of(board.svg, "roll")
    assert json.loads(roll.get("data-actions") or "[]") == ["roll"]
    # Nobody else sees anything to click.
    assert not board_of(state, 1).placed


def test_taking_after_passing_is_on_the_passed_players_tiles() -> None:
    state = mid_game(phase="take", actor=1, passed=(0,), last_roll=4, rolls=1)
    board = board_of(state, 1)
    takes = {"take ox-red", "take ox-pink", "take ox-blue", "take pig-green"}
    # The mover may also cash in his own tiles (MA-2.1): those are on his tiles.
    assert board.placed == {str(a) for a in state.legal_actions()}
    assert {a for a in board.placed if a.startswith("take ")} == takes
    assert "P1" in (spot_of(board.svg, "take pig-green").get("aria-label") or "")
    assert "passed" in " ".join(texts(board.svg))


def test_a_creditor_takes_from_the_bankrupts_tiles() -> None:
    state = mid_game(phase="seize", actor=1, seat=0, debtor=0, last_roll=3, rolls=1)
    board = board_of(state, 1)
    assert board.placed == {str(a) for a in state.legal_actions()}
    assert "take ox-blue" in board.placed
    assert "bankrupt" in " ".join(texts(board.svg))
    # The debtor watches: nothing of his to click.
    assert not board_of(state, 0).placed


def test_keep_and_draw_are_on_the_lot_and_the_dispenser() -> None:
    owner = list(mid_game().owner)
    owner[tile("goat-yellow")] = LOT
    state = mid_game(
        phase="choose", actor=0, seat=0, owner=owner, lot=(tile("goat-yellow"),), rolls=1
    )
    board = board_of(state, 0)
    assert board.placed == {str(a) for a in state.legal_actions()}
    assert {a for a in board.placed if not a.startswith("cash ")} == {"keep", "draw"}
    assert json.loads(spot_of(board.svg, "keep").get("data-actions") or "[]") == ["keep"]
    assert json.loads(spot_of(board.svg, "draw").get("data-actions") or "[]") == ["draw"]


def test_the_same_input_gives_the_same_svg() -> None:
    state = mid_game(phase="start", actor=1)
    assert board_of(state, 1).svg == board_of(state, 1).svg


def test_the_status_says_when_cashing_in_is_open_after_the_roll() -> None:
    from tianxia.web.i18n import gettext_for

    g = load_game("mandarin", players=3)
    assert isinstance(g, Mandarin)
    owner = [-1] * len(TABLES.tile_names)
    owner[tile("rat-red")] = owner[tile("rat-blue")] = 0
    s: State = g.position(sign=(0, 6, 10), pos=(1, 19, 31), phase=Phase.DIE, owner=owner)
    for action in ("die 2", "face up", "tile ox-red"):
        s = s.apply(action)
    assert s.current_player() == 0 and "cash rat-red" in [str(a) for a in s.legal_actions()]
    mine = texts(board_of(s, 0).svg)
    # Too long for one line of the board, the prompt takes two.
    said = " ".join(mine)
    assert "P1 (you) keeps the drawn tiles or draws again; you may cash in tiles first" in said
    assert said.count("P1 (you)") == 1  # the seat once, then "you"
    # A watcher is offered nothing to click, so is not told of it.
    assert "P1 keeps the drawn tiles or draws again" in texts(board_of(s, 1).svg)
    legal = [str(a) for a in s.legal_actions()]
    dutch = render(g, s.envelope(0, 1), legal, gettext_for("nl"))
    # The prompt's lines, read together.
    assert "; je mag eerst stenen verzilveren" in " ".join(texts(dutch.svg))


def test_the_prompt_stays_inside_the_board_in_every_language() -> None:
    from tianxia.core.game import sample_chance
    from tianxia.web.i18n import gettext_for

    g = load_game("mandarin", players=3)
    room = mandarin.WIDTH - 2 * mandarin.MARGIN
    longest = 0.0
    for lang in ("en", "nl", "de"):
        rng = random.Random(8)
        s = g.new_initial_state()
        for _ in range(120):
            if s.is_terminal():
                break
            if s.is_chance_node():
                s = s.apply(sample_chance(s, rng))
                continue
            seat = s.current_player()
            legal = [str(a) for a in s.legal_actions()]
            svg = render(g, s.envelope(seat, 0), legal, gettext_for(lang)).svg
            prompt = next(
                e for e in ET.fromstring(svg).iter(f"{SVG}g") if e.get("class") == "prompt"
            )
            for line in prompt.iter(f"{SVG}text"):
                # A bold sans-serif letter is at most about 0.7 of the size wide.
                width = len(line.text or "") * float(line.get("font-size", "0")) * 0.7
                longest = max(longest, width)
                assert width <= room, (lang, line.text)
            s = s.apply(rng.choice(s.legal_actions()))
    assert longest > room / 2  # long prompts were met


def _marked(svg: str) -> list[str]:
    """The ids (or, inside a spot, the spot's id) of the elements marked recent."""
    out = []
    root = ET.fromstring(svg)
    for g in root.iter():
        for child in g:
            if "recent" in (child.get("class") or "").split():
                out.append(child.get("id") or g.get("id") or "")
    return sorted(out)


def test_ids_last_and_the_others_last_moves_are_marked_recent() -> None:
    state = mid_game(phase="start", actor=1)
    names = ["Anna", "Bernhard", "Chen", "Dirk"]
    recent = [(0, "cash ox-red"), (None, "die 4"), (3, "sign snake")]
    board = render(state.game, state.envelope(1, 1), [], names=names, recent=recent)
    check_board(board, [])
    ids = {e.get("id") for e in ET.fromstring(board.svg).iter() if e.get("id")}
    assert {f"mn-sector-{a}" for a in TABLES.animals} <= ids
    assert {f"mn-seat-{n}" for n in range(4)} | {f"mn-stone-{n}" for n in range(4)} <= ids
    assert {"mn-dispenser", "mn-die", "mn-legend", "mn-tile-ox-pink", "mn-tile-snake-red"} <= ids
    # Chance's die moved the mandarin of the seat on turn (seat 1).
    assert _marked(board.svg) == sorted(
        ["mn-tile-ox-red", "mn-dispenser", "mn-die", "mn-stone-1", "mn-sector-snake"]
    )
    words = " ".join(texts(board.svg))
    assert "Bernhard (you)" in words and "Anna" in words
    assert not re.search(r"\bP[1-4]\b", words)
    assert "recent" not in render(state.game, state.envelope(1, 1), []).svg


def test_cashing_in_and_passing_an_auction_ask_to_be_confirmed() -> None:
    from tianxia.web.boards import BoardInput
    from tianxia.web.boards.mandarin import confirm

    state = mid_game(phase="start", actor=0, seat=0)
    legal = [str(a) for a in state.legal_actions()]
    board = BoardInput(state.game, state.game.layout(), state.envelope(0, 1), legal)
    pagoda = confirm("cash ox-pink", board)
    assert pagoda and "400 yuan" in pagoda
    plain = confirm("cash ox-red", board)
    assert plain and "200 yuan" in plain
    assert confirm("roll", board) is None
    owner = list(mid_game().owner)
    owner[tile("goat-yellow")] = LOT
    auction = mid_game(
        phase="auction",
        actor=0,
        owner=owner,
        lot=(tile("goat-yellow"),),
        seller=-1,
        high=600,
        bidder=2,
        last_roll=5,
        rolls=1,
    )
    legal = [str(a) for a in auction.legal_actions()]
    board = BoardInput(auction.game, auction.game.layout(), auction.envelope(0, 1), legal)
    sentence = confirm("pass", board)
    assert "pass" in legal and sentence and "auction" in sentence


def test_the_legend_explains_the_pagoda_and_the_rings_marks() -> None:
    board = board_of(mid_game(phase="start", actor=1), 1)
    (legend,) = [g for g in ET.fromstring(board.svg).iter(f"{SVG}g") if g.get("id") == "mn-legend"]
    words = " ".join(t.text or "" for t in legend.iter(f"{SVG}text"))
    for term in ("pagoda", "face down", "holds the sector", "whose turn"):
        assert term in words


@pytest.mark.parametrize("lang", ["en", "nl", "de"])
def test_the_lot_heading_stays_inside_its_box(lang: str) -> None:
    """One tile drawn is narrower than "drawn this turn": the box grows to its words (on
    a phone and a desk alike, as the board scales as one drawing)."""
    from tianxia.web.i18n import gettext_for

    owner = list(mid_game().owner)
    owner[tile("goat-yellow")] = LOT
    state = mid_game(
        phase="auction",
        actor=0,
        owner=owner,
        lot=(tile("goat-yellow"),),
        holes=0,
        seller=-1,
        high=600,
        bidder=2,
        out=0b1000,
        last_roll=5,
        rolls=1,
    )
    board = render(state.game, state.envelope(0, 1), [], gettext_for(lang))
    root = ET.fromstring(board.svg)
    (lot,) = [g for g in root.iter(f"{SVG}g") if g.get("id") == "mn-lot"]
    box = next(lot.iter(f"{SVG}rect"))
    left = float(box.get("x") or 0)
    right = left + float(box.get("width") or 0)
    heading = next(
        t for t in lot.iter(f"{SVG}text") if t.text == gettext_for(lang)("drawn this turn")
    )
    size = float(heading.get("font-size") or 0)
    # As board_checks measures a label: wide enough for the common sans-serif fonts.
    half = len(heading.text or "") * size * 0.55 / 2
    centre = float(heading.get("x") or 0)
    assert left <= centre - half and centre + half <= right, (lang, left, right, half)


@pytest.mark.parametrize("seat", [0, 1])
def test_a_collections_tiles_stay_inside_the_seats_box(seat: int) -> None:
    """The sixth animal's tiles (pig, snake), and the outline of one that may be cashed
    in, stay clear of the seat's box and its border."""
    owner = list(mid_game().owner)
    owner[tile("snake-pink")] = 0
    state = mid_game(phase="start", actor=0, seat=0, owner=owner)
    board = board_of(state, seat)
    assert "cash pig-green" in board.placed or seat != 0
    root = ET.fromstring(board.svg)
    (panel,) = [g for g in root.iter(f"{SVG}g") if g.get("id") == "mn-seat-0"]
    rects = list(panel.iter(f"{SVG}rect"))
    box = rects[0]
    border = float(box.get("stroke-width") or 1) / 2
    left = float(box.get("x") or 0) + border
    right = float(box.get("x") or 0) + float(box.get("width") or 0) - border
    drawn = [r for r in rects[1:] if r.get("fill") != "transparent" and "opacity" not in r.attrib]
    assert len(drawn) >= 6
    for r in drawn:
        x, w = float(r.get("x") or 0), float(r.get("width") or 0)
        assert left < x and x + w < right, (r.attrib, left, right)


@pytest.mark.parametrize("end", ["collection", "cap"])
def test_the_ends_summary_splits_each_score_into_money_and_tiles(end: str) -> None:
    """The score is wealth: the summary shows its money and its tiles' worth, and says
    how the winner was found, since a collection wins over a higher score."""
    from tianxia.web.i18n import gettext_for
    from tianxia.web.tableview import summary

    state = mid_game(players=3, phase="over", winners=(1,), end=end)
    envelope = state.envelope(None, 1)
    said = summary(state, envelope, gettext_for("de"))
    money = (2700, 4100, 3300)
    held = {
        0: ["ox-red", "ox-pink", "ox-blue", "pig-green"],
        1: ["tiger-yellow", "tiger-red", "goat-pink"],
        2: ["rooster-blue"],
    }
    tiles = tuple(
        sum(400 if tile(n) in TABLES.pagoda_tiles else 200 for n in held[seat]) for seat in range(3)
    )
    assert tiles[0] == 1000  # ox-red is a pagoda tile
    assert said["parts"] == [{"money": m, "tiles": t} for m, t in zip(money, tiles, strict=True)]
    assert said["scores"] == [m + t for m, t in zip(money, tiles, strict=True)]
    assert said["labels"] == {"money": "Geld", "tiles": "Plättchen"}
    assert ("Sammlung" in said["note"]) == (end == "collection")
    assert "400" in said["note"]
    # Before the end no purse is shown, and nothing is split.
    running = mid_game(players=3)
    assert summary(running, running.envelope(None, 1))["parts"] is None


def test_only_a_seat_is_told_what_the_dashed_outline_means() -> None:
    """A spectator (a replay seen by everyone, the lobby's picture) clicks nothing."""
    state = mid_game()
    seat = " ".join(texts(board_of(state, 0).svg))
    watcher = " ".join(texts(board_of(state, None).svg))
    assert "you may click this now" in seat
    assert "you may click this now" not in watcher
    assert "whose turn it is" in watcher
