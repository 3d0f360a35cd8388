"""The China board: every seat's view of seeded games, pieces where the observation puts
them, hidden hands kept hidden, and each placing action on its field, dragon or card."""

from __future__ import annotations

import json
import random
import re
import xml.etree.ElementTree as ET
from collections.abc import Callable
from typing import Any

import pytest

from scripts import random_step
from tianxia.core import Game, State, load_game
from tianxia.core.match import Match
from tianxia.web.boards import Board, render

from .board_checks import SVG, check_board, play_and_check

COLOURS = ("violet", "yellow", "orange", "red", "green")
UNPLACED = {"done", "pass"}  # no place on the board: the page lists them

# Players' names as long as people give them: a board cuts them short, never overlaps them.
NAMES = ["Anna", "Bernhard-Alexander von Hohenstein", "Chen Jing", "Dirk-Jan", "Elisabeth"]


def _play_until(
    players: int, seed: int, found: Callable[[State], bool], **options: object
) -> tuple[Game, Match]:
    """A seeded random game of China, played on until `found` holds for its state."""
    game = load_game("china", players, **options)
    match = Match(game, seed=seed)
    rng = random.Random(seed)
    for _ in range(2000):
        if found(match.state):
            return game, match
        if match.state.is_terminal():
            break
        random_step(match, rng)
    raise AssertionError("no such position in this game")


def _built(state: State) -> int:
    return sum(owner >= 0 for owner in state.observation(None)["fields"])


def _envoys(state: State) -> int:
    return sum(sum(p["emissaries"]) for p in state.observation(None)["provinces"])


def _board(game: Game, match: Match, seat: int | None) -> tuple[Board, dict[str, Any]]:
    state = match.state
    view = state.envelope(seat, match.seq)
    legal = [str(a) for a in state.legal_actions()] if seat == state.current_player() else []
    board = render(game, view, legal)
    check_board(board, legal)
    return board, view["body"]


def _groups(svg: str, cls: str) -> list[ET.Element]:
    root = ET.fromstring(svg)
    return [g for g in root.iter(f"{SVG}g") if cls in (g.get("class") or "").split()]


def _texts(element: ET.Element) -> list[str]:
    return [t.text or "" for t in element.iter(f"{SVG}text")]


def _pieces(element: ET.Element) -> list[int]:
    """The seats of the pieces drawn inside `element`."""
    out = []
    for g in element.iter(f"{SVG}g"):
        classes = (g.get("class") or "").split()
        if "piece" in classes:
            out += [int(c[4:]) for c in classes if c.startswith("seat")]
    return out


def _spot_of(svg: str, inner_cls: str, attr: str = "", value: str = "") -> list[str]:
    """The actions of the spot around the `inner_cls` group whose `attr` is `value`."""
    for spot in _groups(svg, "spot"):
        for g in spot.iter(f"{SVG}g"):
            if inner_cls in (g.get("class") or "").split() and (g.get(attr) or "") == value:
                actions: list[str] = json.loads(spot.get("data-actions") or "[]")
                return actions
    return []


# `make test` draws each player count once and each option (fortifications, the 3-4
# side) at least once; the other three games run in `make test-long`.
@pytest.mark.parametrize(
    ("players", "seed", "options"),
    [
        pytest.param(3, 1, {}, marks=pytest.mark.slow),
        (3, 2, {"fortifications": True}),
        pytest.param(4, 1, {}, marks=pytest.mark.slow),
        (4, 2, {"board": "3-4", "fortifications": True}),
        (5, 1, {}),
        pytest.param(5, 2, {"fortifications": True}, marks=pytest.mark.slow),
    ],
)
def test_seeded_games_render_for_every_seat(
    players: int, seed: int, options: dict[str, object]
) -> None:
    # The first 100 steps: the deal and some 20 turns; whole games are played below.
    totals = play_and_check(
        "china", players, seed, steps=100, phone=True, labels=True, names=NAMES, **options
    )
    assert totals["placed"] > 0
    # Only `done` and `pass` are listed, and `done` is one choice among many placements.
    assert totals["placed"] > 5 * totals["listed"], totals


def test_every_action_but_done_and_pass_has_a_place() -> None:
    for players, seed in ((3, 5), (5, 6)):
        game = load_game("china", players, fortifications=True)
        match = Match(game, seed=seed)
        rng = random.Random(seed)
        phases = set()
        while not match.state.is_terminal():
            seat = match.state.current_player()
            if not match.state.is_chance_node():
                board, body = _board(game, match, seat)
                legal = {str(a) for a in match.state.legal_actions()}
                assert board.placed == legal - UNPLACED, body["phase"]
                phases.add(body["phase"])
            random_step(match, rng)
        assert {"turn", "place", "refill"} <= phases
        for seat in [None, *range(players)]:
            board, body = _board(game, match, seat)
            assert body["phase"] == "over" and body["final"]
            (status,) = [t for t in _texts(ET.fromstring(board.svg)) if "Game over" in t]
            assert all(f"P{w + 1}" in status for w in body["winners"])


def test_houses_and_forts_are_drawn_on_their_fields() -> None:
    game, match = _play_until(
        4,
        7,
        lambda s: bool(s.observation(None)["forts"]) and _built(s) >= 12,
        fortifications=True,
    )
    board, body = _board(game, match, 2)
    fields = {g.get("data-field"): g for g in _groups(board.svg, "field")}
    layout = game.layout()
    assert len(fields) == len(layout["fields"])
    for f, owner in enumerate(body["fields"]):
        name = layout["fields"][f]["name"]
        assert _pieces(fields[name]) == ([owner] if owner >= 0 else []), name
        forts = [r for r in fields[name].iter(f"{SVG}rect") if r.get("class") == "fort"]
        assert len(forts) == (1 if name in body["forts"] else 0), name


def test_emissaries_are_drawn_at_their_dragon() -> None:
    game, match = _play_until(5, 8, lambda s: _envoys(s) >= 6)
    board, body = _board(game, match, None)
    dragons = {g.get("data-province"): g for g in _groups(board.svg, "dragon")}
    for prov in body["provinces"]:
        drawn = _pieces(dragons[prov["name"]])
        assert sorted(drawn) == [s for s, n in enumerate(prov["emissaries"]) for _ in range(n)]
        assert prov["name"] in _texts(dragons[prov["name"]])


def _hidden(state: State) -> bool:
    """Seat 1 holds a colour the table has not seen it take and seat 0 does not hold."""
    if state.is_chance_node() or state.is_terminal():
        return False
    o1, o0 = state.observation(1), state.observation(0)
    return any(o1["hand"][c] and not o1["known"][1][c] and not o0["hand"][c] for c in COLOURS)


def test_another_seats_hand_stays_hidden() -> None:
    game, match = _play_until(4, 9, _hidden)
    owner, body1 = _board(game, match, 1)
    viewer, body0 = _board(game, match, 0)
    colour = next(
        c for c in COLOURS if body1["hand"][c] and not body1["known"][1][c] and not body0["hand"][c]
    )
    # The owner sees the card face up in its hand, named by its colour.
    (hand,) = _groups(owner.svg, "hand")
    assert hand.get("data-seat") == "1"
    cards = [g for g in hand.iter(f"{SVG}g") if g.get("data-colour") == colour]
    assert cards and colour in _texts(cards[0])
    # Seat 0 sees only its own hand, and seat 1's row shows no card of that colour.
    assert [g.get("data-seat") for g in _groups(viewer.svg, "hand")] == ["0"]
    (row,) = [g for g in _groups(viewer.svg, "seat-row") if g.get("data-seat") == "1"]
    assert not [g for g in row.iter(f"{SVG}g") if g.get("data-colour") == colour]
    assert colour[0].upper() not in _texts(row)
    assert str(body0["hand_sizes"][1]) in _texts(row)
    (own,) = _groups(viewer.svg, "hand")
    assert colour not in _texts(own)


def test_a_spectator_sees_no_hand() -> None:
    game, match = _play_until(3, 4, lambda s: s.observation(None)["phase"] == "turn")
    board, _body = _board(game, match, None)
    assert _groups(board.svg, "hand") == []
    assert board.placed == set()


def test_placing_actions_sit_on_their_field_and_dragon() -> None:
    game, match = _play_until(
        4,
        10,
        lambda s: (
            not s.is_chance_node()
            and any(str(a).startswith("emissary") for a in s.legal_actions())
            and any(" joker " in str(a) for a in s.legal_actions())
        ),
    )
    seat = match.state.current_player()
    board, _body = _board(game, match, seat)
    legal = [str(a) for a in match.state.legal_actions()]
    house = next(a for a in legal if a.startswith("house ") and " joker " not in a)
    field = house.split()[1]
    on_field = _spot_of(board.svg, "field", "data-field", field)
    assert house in on_field
    assert on_field == [a for a in legal if a.split()[:2] == ["house", field]]
    emissary = next(a for a in legal if a.startswith("emissary "))
    province = emissary.split()[1]
    assert emissary in _spot_of(board.svg, "dragon", "data-province", province)
    joker = next(a for a in legal if " joker " in a)
    assert joker in board.placed
    # Each hand card is a pick offering every move it pays for: by its own province's
    # colour, as a joker pair, or its exchange (never played by the pick alone).
    colour_of = {p["name"]: p["colour"] for p in _body["provinces"]}
    picks = {g.get("data-pick") or "": g for g in _groups(board.svg, "spot") if g.get("data-pick")}
    assert picks
    for key, pick in picks.items():
        colour = key.removeprefix("card-")
        paid = [
            a
            for a in legal
            if a == f"exchange {colour}"
            or (" joker " in a and a.split()[3] == colour)
            or (
                a.split()[0] in ("house", "fortify", "emissary")
                and " joker " not in a
                and colour_of[a.split()[1].partition(".")[0]] == colour
            )
        ]
        assert json.loads(pick.get("data-actions") or "[]") == paid
        assert pick.get("id") == f"ch-hand-{colour}"
    assert {a for a in legal if a.startswith("exchange ")} <= board.placed


def test_refill_takes_sit_on_the_display_and_the_deck() -> None:
    game, match = _play_until(
        3,
        11,
        lambda s: (
            s.observation(None)["phase"] == "refill"
            and any(str(a) == "draw" for a in s.legal_actions())
        ),
    )
    seat = match.state.current_player()
    board, body = _board(game, match, seat)
    legal = [str(a) for a in match.state.legal_actions()]
    assert board.placed == set(legal)
    assert _spot_of(board.svg, "deck") == ["draw"]
    for colour in COLOURS:
        if body["display"][colour]:
            assert _spot_of(board.svg, "card", "data-colour", colour) == [f"take {colour}"]
    (deck,) = _groups(board.svg, "deck")
    assert str(body["deck"]) in _texts(deck)


def test_turn_emperor_and_own_seat_are_marked() -> None:
    game, match = _play_until(4, 12, lambda s: s.observation(None)["turn"]["seat"] == 2)
    board, _body = _board(game, match, 3)
    rows = {g.get("data-seat"): g for g in _groups(board.svg, "seat-row")}
    marks = {
        seat: [e for e in row.iter() if e.get("class") == "turn-mark"] for seat, row in rows.items()
    }
    assert marks["2"] and not marks["3"]
    assert any("(you)" in t for t in _texts(rows["3"]))
    assert _groups(board.svg, "emperor") and "Emperor" in _texts(rows["0"])


def test_same_input_same_svg() -> None:
    game, match = _play_until(5, 13, lambda s: _built(s) >= 8)
    first, _ = _board(game, match, 1)
    again, _ = _board(game, match, 1)
    assert first.svg == again.svg


def _ids(svg: str) -> set[str]:
    return {e.get("id") or "" for e in ET.fromstring(svg).iter() if e.get("id")}


def test_lasting_things_keep_their_ids_from_view_to_view() -> None:
    game, match = _play_until(4, 14, lambda s: _built(s) >= 6 and _envoys(s) >= 2)
    before, body = _board(game, match, 1)
    ids = _ids(before.svg)
    for f in game.layout()["fields"]:
        assert f"ch-field-{f['name'].replace('.', '-')}" in ids
    for p in body["provinces"]:
        assert f"ch-dragon-{p['name']}" in ids
    assert {"ch-deck", "ch-emperor", "ch-legend"} <= ids
    assert {f"ch-seat-{n}" for n in range(4)} <= ids
    built = {
        f"ch-house-{game.layout()['fields'][i]['name'].replace('.', '-')}"
        for i, owner in enumerate(body["fields"])
        if owner >= 0
    }
    assert built <= ids
    rng = random.Random(14)
    for _ in range(6):
        random_step(match, rng)
    after, _body = _board(game, match, 1)
    # Fields, dragons, houses once built and the seats stay, under the same ids.
    lasting = {i for i in ids if i.startswith(("ch-field-", "ch-dragon-", "ch-seat-"))}
    assert lasting | built <= _ids(after.svg)


def test_the_others_last_moves_are_marked_recent() -> None:
    game, match = _play_until(
        3, 15, lambda s: s.observation(None)["phase"] == "turn" and _built(s) >= 1
    )
    state = match.state
    seat = state.current_player()
    house = next(str(a) for a in state.legal_actions() if str(a).startswith("house "))
    field = house.split()[1]
    view = state.envelope((seat + 1) % 3, match.seq)
    board = render(game, view, [], recent=[(seat, house), (seat, "take red"), (None, "card red")])
    check_board(board, [])
    marked = [g for g in ET.fromstring(board.svg).iter() if "recent" in (g.get("class") or "")]
    kinds = {(g.get("class") or "").split()[0] for g in marked}
    assert kinds == {"field", "seat-row", "card"} - (
        set() if view["body"]["display"]["red"] else {"card"}
    )
    assert any(g.get("data-field") == field for g in marked)
    assert [g.get("data-seat") for g in marked if "seat-row" in (g.get("class") or "")] == [
        str(seat)
    ]
    # Without recent moves nothing is marked.
    plain = render(game, view, [])
    assert "recent" not in plain.svg


def test_seats_are_named_by_their_players_names() -> None:
    game, match = _play_until(3, 16, lambda s: s.observation(None)["phase"] == "turn")
    state = match.state
    seat = state.current_player()
    names = ["Anna", "Bernhard", "Chen Jing"]
    legal = [str(a) for a in state.legal_actions()]
    board = render(game, state.envelope(seat, match.seq), legal, names=names)
    check_board(board, legal)
    texts = _texts(ET.fromstring(board.svg))
    assert any(t.startswith(f"{names[seat]}: ") for t in texts), texts[:4]
    rows = {g.get("data-seat"): g for g in _groups(board.svg, "seat-row")}
    for n, name in enumerate(names):
        assert any(t.startswith(name) for t in _texts(rows[str(n)]))
    assert not any(t in ("P1", "P2", "P3") for t in texts)
    # A piece's title names its player too, and the board does not stretch on a desk.
    root = ET.fromstring(board.svg)
    titles = {
        (g.find(f"{SVG}title").text or "")  # type: ignore[union-attr]
        for g in root.iter(f"{SVG}g")
        if "piece" in (g.get("class") or "").split()
    }
    assert titles <= set(names) and titles
    assert "desk-640" in (root.get("class") or "").split()


def test_the_card_exchange_asks_to_be_confirmed() -> None:
    from tianxia.web.boards import BoardInput
    from tianxia.web.boards.china import confirm

    game, match = _play_until(
        3,
        17,
        lambda s: (
            not s.is_chance_node() and any(str(a).startswith("exchange") for a in s.legal_actions())
        ),
    )
    state = match.state
    seat = state.current_player()
    legal = [str(a) for a in state.legal_actions()]
    board = BoardInput(game, game.layout(), state.envelope(seat, match.seq), legal)
    exchange = next(a for a in legal if a.startswith("exchange "))
    sentence = confirm(exchange, board)
    assert sentence and exchange.split()[1] in sentence and "turn ends" in sentence
    house = next(a for a in legal if a.startswith("house "))
    assert confirm(house, board) is None


def test_the_legend_explains_the_maps_symbols() -> None:
    game, match = _play_until(3, 18, lambda s: s.observation(None)["phase"] == "turn")
    board, _body = _board(game, match, 0)
    (legend,) = _groups(board.svg, "legend")
    words = " ".join(_texts(legend))
    for term in ("house field", "road", "alliance", "scored", "emissaries"):
        assert term in words


@pytest.mark.parametrize("lang", ["en", "nl", "de"])
def test_the_title_fits_the_board_in_every_language(lang: str) -> None:
    """ "China · speelbordzijde 4-5 · gereconstrueerd speelbord" is wider than the board:
    it takes two lines rather than running off its edge, and nothing drawn under it meets
    it."""
    from tianxia.web.i18n import gettext_for

    from .board_checks import check_labels_apart, check_phone

    game = load_game("china", 4)
    match = Match(game, seed=3)
    board = render(game, match.state.envelope(0, match.seq), [], gettext_for(lang), NAMES[:4])
    root = ET.fromstring(board.svg)
    width = float((root.get("viewBox") or "").split()[2])
    titles = [t for t in root.iter(f"{SVG}text") if t.get("font-weight") == "bold"][:2]
    assert "China" in "".join(titles[0].itertext())
    for t in root.iter(f"{SVG}text"):
        words = "".join(t.itertext())
        if t.get("text-anchor") != "start":
            continue
        # As board_checks measures a label: near enough to how the common fonts set it.
        factor = 0.6 if t.get("font-weight") == "bold" else 0.55
        right = float(t.get("x") or 0) + len(words) * float(t.get("font-size") or 0) * factor
        assert right <= width, f"{words!r} runs off the board ({right:.0f} > {width:.0f})"
    check_labels_apart(root)
    check_phone(root)


@pytest.mark.parametrize(
    ("lang", "marks"),
    [
        ("en", {"violet": "V", "yellow": "Y", "orange": "O", "red": "R", "green": "G"}),
        ("nl", {"violet": "P", "yellow": "Ge", "orange": "O", "red": "R", "green": "Gr"}),
        ("de", {"violet": "V", "yellow": "Ge", "orange": "O", "red": "R", "green": "Gr"}),
    ],
)
def test_a_card_is_marked_in_the_readers_language(lang: str, marks: dict[str, str]) -> None:
    """Paars, geel, groen: the colour's own start, two letters where two colours share
    one, never the English initial."""
    from tianxia.web.i18n import gettext_for

    game = load_game("china", 3)
    match = Match(game, seed=2)
    board = render(game, match.state.envelope(0, match.seq), [], gettext_for(lang))
    root = ET.fromstring(board.svg)
    for colour, mark in marks.items():
        (pile,) = [g for g in root.iter(f"{SVG}g") if g.get("id") == f"ch-discard-{colour}"]
        assert _texts(pile)[0] == mark


@pytest.mark.parametrize("lang", ["en", "nl", "de"])
def test_a_bots_name_is_whole_in_its_seat_row(lang: str) -> None:
    """Bots of every strength, named as the table names them in the reader's language
    ("bot B (makkelijk)", "Bot A (schwierig)"), fit their seat rows uncut beside the
    points and the Emperor's badge."""
    from tianxia.server.live import seat_names
    from tianxia.web.i18n import gettext_for, seat_label

    from .board_checks import check_labels_apart

    game, match = _play_until(3, 16, lambda s: s.observation(None)["phase"] == "turn")
    state = match.state
    for strengths in (("easy", "easy"), ("medium", "hard"), ("hard", "hard")):
        plan = [{"seat": 0, "kind": "human", "name": "Joost", "strength": None}] + [
            {"seat": k + 1, "kind": "bot", "name": f"bot ({st})", "strength": st}
            for k, st in enumerate(strengths)
        ]
        names = [seat_label(n, lang) for n in seat_names(plan)]
        for viewer in (0, 1):
            view = state.envelope(viewer, match.seq)
            board = render(game, view, [], gettext_for(lang), names)
            rows = {g.get("data-seat"): g for g in _groups(board.svg, "seat-row")}
            for seat, name in enumerate(names):
                texts = _texts(rows[str(seat)])
                assert any(t.startswith(name) for t in texts), (name, texts)
                assert not any("…" in t for t in texts), texts
            check_labels_apart(ET.fromstring(board.svg))


@pytest.mark.parametrize("lang", ["en", "nl", "de"])
def test_the_deck_that_ran_out_says_so_apart_from_the_discards(lang: str) -> None:
    from tianxia.web.i18n import gettext_for

    from .board_checks import check_labels_apart

    game, match = _play_until(
        3, 19, lambda s: s.observation(None).get("exhaustions", 0) >= 2 and not s.is_chance_node()
    )
    board = render(game, match.state.envelope(0, match.seq), [], gettext_for(lang), NAMES[:3])
    words = gettext_for(lang)("ran out {n}×").format(n=match.state.observation(None)["exhaustions"])
    assert words in board.svg
    check_labels_apart(ET.fromstring(board.svg))


@pytest.mark.parametrize("lang", ["en", "nl", "de"])
def test_each_seat_row_adds_up_to_its_points_at_the_end(lang: str) -> None:
    """Not "28 points" over "3 + 2 + 0": the points scored during play are a part too."""
    from tianxia.web.i18n import gettext_for

    from .board_checks import check_labels_apart

    game, match = _play_until(3, 21, lambda s: s.is_terminal())
    board = render(game, match.state.envelope(0, match.seq), [], gettext_for(lang), NAMES[:3])
    heading = gettext_for(lang)("provinces + alliances + roads + during play")
    assert heading in board.svg
    scores = match.state.scores()
    for seat, row in enumerate(_groups(board.svg, "seat-row")):
        sums = [t for t in _texts(row) if re.fullmatch(r"\d+( \+ \d+){2} \+ -?\d+", t)]
        assert len(sums) == 1, _texts(row)
        assert sum(int(n) for n in sums[0].split(" + ")) == scores[seat]
    check_labels_apart(ET.fromstring(board.svg))
