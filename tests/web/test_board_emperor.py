"""The Emperor of China board: every seat's view of seeded games, pieces where the
observation puts them, hidden yang cards kept hidden, actions on their provinces."""

from __future__ import annotations

import json
import random
import re
import xml.etree.ElementTree as ET
from collections.abc import Callable

import pytest

from tianxia.core import load_game
from tianxia.core.match import Match
from tianxia.web.boards import Board, BoardInput, render
from tianxia.web.boards.emperor import KIND_NAME, confirm, parse

from .board_checks import SVG, check_board, check_labels_apart, check_phone, play_and_check

# Phases whose every action names one province: all of them must be on the board.
ALL_PLACED = {"start", "growth", "assign yang", "assign yin"}
NO_MERGERS = ("merge", "accept", "offer")


def _fighting(match: Match, rng: random.Random) -> None:
    """One step of a game that refuses mergers and likes to attack, so it lasts."""
    state = match.state
    if state.is_chance_node():
        outcomes = state.chance_outcomes()
        match.play(rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0])
        return
    legal = [a for a in state.legal_actions() if str(a).split()[0] not in NO_MERGERS]
    legal = legal or list(state.legal_actions())
    keen = [a for a in legal if str(a).split()[0] in ("attack", "roll", "colonise", "grow")]
    match.play(rng.choice(keen if keen and rng.random() < 0.7 else legal))


def _play_until(players: int, seed: int, stop: Callable[[Match], bool], steps: int = 3000) -> Match:
    game = load_game("emperor", players)
    match = Match(game, seed=seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if match.state.is_terminal() or stop(match):
            return match
        _fighting(match, rng)
    raise AssertionError("the position looked for never came")


def _board(
    match: Match,
    seat: int | None,
    names: tuple[str, ...] = (),
    recent: tuple[tuple[int | None, str], ...] = (),
) -> Board:
    state = match.state
    legal = [str(a) for a in state.legal_actions()] if seat == state.current_player() else []
    board = render(match.game, state.envelope(seat, match.seq), legal, names=names, recent=recent)
    check_board(board, legal)
    return board


def _province(root: ET.Element, pid: str) -> ET.Element:
    for g in root.iter(f"{SVG}g"):
        if g.get("id") == f"em-province-{pid}":
            return g
    raise AssertionError(f"no province {pid}")


def _texts(node: ET.Element) -> list[str]:
    return ["".join(t.itertext()) for t in node.iter(f"{SVG}text")]


def _spot_of(root: ET.Element, action: str) -> ET.Element:
    """The place an action goes to (not the province it is picked up from): a plain spot,
    or a pick that is a place too (`data-into`)."""
    for g in root.iter(f"{SVG}g"):
        if "spot" not in (g.get("class") or "").split():
            continue
        key = "data-into" if g.get("data-pick") is not None else "data-actions"
        if action in json.loads(g.get(key) or "[]"):
            return g
    raise AssertionError(f"{action} is on no spot")


def _pick_of(root: ET.Element, action: str) -> ET.Element:
    """The thing an action is picked up with."""
    for g in root.iter(f"{SVG}g"):
        if g.get("data-pick") is not None and action in json.loads(g.get("data-actions") or "[]"):
            return g
    raise AssertionError(f"{action} is picked up nowhere")


@pytest.mark.parametrize("players", [2, 3, 4, 5])
# The second seed's games in make test-long.
@pytest.mark.parametrize("seed", [1, pytest.param(2, marks=pytest.mark.slow)])
def test_random_games_render_for_every_seat(players: int, seed: int) -> None:
    totals = play_and_check("emperor", players, seed, steps=80)
    assert totals["placed"] > 0
    # Only answers, dice questions and "done" are left to the list.
    assert totals["placed"] >= totals["listed"]


@pytest.mark.parametrize("players", [2, 3, 5])
def test_every_action_of_a_province_phase_is_on_the_board(players: int) -> None:
    game = load_game("emperor", players)
    match = Match(game, seed=players)
    rng = random.Random(players)
    seen: set[str] = set()
    for _ in range(400):
        state = match.state
        if state.is_terminal():
            break
        if not state.is_chance_node():
            seat = state.current_player()
            board = _board(match, seat)
            phase = str(state.observation(seat)["phase"])
            legal = {str(a) for a in state.legal_actions()}
            if phase in ALL_PLACED:
                assert board.placed == legal, phase
                seen.add(phase)
            # Every action naming a province, in any phase, is placed.
            assert {a for a in legal if parse(a).target is not None} <= board.placed
        _fighting(match, rng)
    assert seen == ALL_PLACED


def test_pieces_stand_where_the_observation_puts_them() -> None:
    match = _play_until(3, 7, lambda m: m.state.observation(None)["turn"] >= 9)
    body = match.state.observation(None)
    root = ET.fromstring(_board(match, None).svg)
    owned = [p for p in body["provinces"] if p["owner"] is not None]
    assert len(owned) >= 3
    for p in body["provinces"]:
        g = _province(root, p["id"])
        pieces = [e.get("class") for e in g.iter(f"{SVG}g") if "piece" in (e.get("class") or "")]
        if p["owner"] is not None:
            assert pieces == [f"piece seat{p['owner']}"], p
            assert f"×{p['units']}" in _texts(g)
        elif p["influence"] is not None:
            assert pieces == [f"piece seat{p['influence']}"], p
            assert "infl." in _texts(g)
        else:
            assert pieces == [] and "empty" in _texts(g)
        for kind, n in p["markers"].items():
            markers = [e for e in g.iter(f"{SVG}g") if e.get("class") == f"marker {kind}"]
            assert len(markers) == (1 if n else 0)


def _kept_card(match: Match) -> bool:
    """Some seat keeps an attack or defence card another seat does not hold."""
    state = match.state
    n = match.game.players
    for seat in range(n):
        for kind in state.observation(seat)["my_cards"] or {}:
            if kind in ("water", "mountains", "great_wall", "hunger", "flood") and any(
                kind not in (state.observation(o)["my_cards"] or {}) for o in range(n) if o != seat
            ):
                return True
    return False


def test_a_kept_yang_card_is_seen_by_its_owner_only() -> None:
    match = _play_until(3, 3, _kept_card)
    state = match.state
    n = match.game.players
    holder, kind = next(
        (s, k)
        for s in range(n)
        for k in state.observation(s)["my_cards"] or {}
        if k in ("water", "mountains", "great_wall", "hunger", "flood")
        and any(k not in (state.observation(o)["my_cards"] or {}) for o in range(n) if o != s)
    )
    mine = ET.fromstring(_board(match, holder).svg)
    hand = next(g for g in mine.iter(f"{SVG}g") if g.get("class") == "hand")
    word = KIND_NAME.get(kind, kind)
    assert word in _texts(hand)
    for other in [None, *range(n)]:
        if other == holder or (other is not None and kind in state.observation(other)["my_cards"]):
            continue
        svg = _board(match, other).svg
        root = ET.fromstring(svg)
        # The legend names the Great Wall border in the same words as the card.
        shown = [t for g in root if g.get("class") != "legend" for t in _texts(g)]
        assert word not in shown, (other, kind)
        assert not [g for g in root.iter() if (g.get("id") or "").startswith(f"em-card-{kind}")]
        if other is None:
            assert 'class="hand"' not in svg
        # The holder's cards still show, as a count on card backs.
        count = state.observation(other)["players"][holder]["yang_cards"]
        row = next(
            g
            for g in ET.fromstring(svg).iter(f"{SVG}g")
            if g.get("class") == f"seat-row seat{holder}"
        )
        shown = sum(state.observation(other)["players"][holder]["shown_cards"].values())
        assert f"×{count - shown}" in _texts(row)


def test_the_start_province_spot_carries_its_action() -> None:
    game = load_game("emperor", 2)
    match = Match(game, seed=5)
    board = _board(match, 0)
    assert "start hopeh" in board.placed
    spot = _spot_of(ET.fromstring(board.svg), "start hopeh")
    assert json.loads(spot.get("data-actions") or "[]") == ["start hopeh"]
    assert spot.get("aria-label", "").startswith("Hopeh")
    _province(spot, "hopeh")
    # Nobody else is offered anything.
    assert not _board(match, 1).placed and not _board(match, None).placed


def test_attacks_and_moves_are_grouped_on_the_province_they_lead_into() -> None:
    def attacking(m: Match) -> bool:
        legal = [str(a) for a in m.state.legal_actions()] if not m.state.is_chance_node() else []
        return any(a.startswith("attack") for a in legal)

    match = _play_until(3, 11, attacking)
    board = _board(match, match.state.current_player())
    root = ET.fromstring(board.svg)
    attacks = [str(a) for a in match.state.legal_actions() if str(a).startswith("attack")]
    for action in attacks:
        target = action.split(">")[1]
        spot = _spot_of(root, action)
        _province(spot, target)
        offered = json.loads(spot.get("data-actions") or "[]")
        assert all(parse(a).target == target for a in offered)
    assert "done" not in board.placed


def _moving(m: Match) -> bool:
    """A movement phase where some province both sends and receives units."""
    state = m.state
    if state.is_chance_node() or str(state.observation(None)["phase"]) != "movement":
        return False
    moves = [parse(str(a)) for a in state.legal_actions() if str(a).startswith("move")]
    return bool({a.source for a in moves} & {a.target for a in moves})


def test_a_move_of_units_is_picked_where_it_leaves_and_placed_where_it_enters() -> None:
    match = _play_until(3, 11, _moving)
    seat = match.state.current_player()
    legal = [str(a) for a in match.state.legal_actions()]
    board = _board(match, seat)
    root = ET.fromstring(board.svg)
    moves = [a for a in legal if a.startswith("move")]
    assert moves and set(moves) <= board.placed
    sources = {parse(a).source for a in moves}
    for action in moves:
        move = parse(action)
        pick = _pick_of(root, action)
        _province(pick, str(move.source))
        assert pick.get("data-pick") == f"em-move-{move.source}"
        # The pick offers every move out of its province and nothing else.
        offered = json.loads(pick.get("data-actions") or "[]")
        assert sorted(offered) == sorted(a for a in moves if parse(a).source == move.source)
        place = _spot_of(root, action)
        _province(place, str(move.target))
        # A province that sends units too is picked on a click, and is a place only for
        # a thing picked before it.
        assert (place.get("data-pick") is not None) == (move.target in sources)
    # What the place says when it is tapped: where units come in from, how many in words.
    both = next(pid for pid in sources if any(parse(a).target == pid for a in moves))
    label = _spot_of(root, next(a for a in moves if parse(a).target == both)).get("aria-label")
    assert "move units from here" in str(label) and "move in from" in str(label)


def test_a_merger_offer_sits_on_the_row_of_the_seat_it_is_made_to() -> None:
    def offering(m: Match) -> bool:
        legal = [str(a) for a in m.state.legal_actions()] if not m.state.is_chance_node() else []
        return any(a.startswith("merge ") for a in legal)

    match = _play_until(3, 4, offering)
    board = _board(match, match.state.current_player())
    offer = next(str(a) for a in match.state.legal_actions() if str(a).startswith("merge "))
    seat = int(offer.split()[1])
    root = ET.fromstring(board.svg)
    row = next(g for g in root.iter(f"{SVG}g") if g.get("class") == f"seat-row seat{seat}")
    assert _spot_of(row, offer) is _spot_of(root, offer)
    assert any(t.startswith(f"P{seat + 1} ·") for t in _texts(row))


def test_the_same_view_draws_the_same_svg() -> None:
    match = _play_until(4, 9, lambda m: m.state.observation(None)["turn"] >= 6)
    assert _board(match, 1).svg == _board(match, 1).svg


NAMES = ("Anna", "Bert", "Cora", "Dirk", "Emma")


@pytest.mark.parametrize(("players", "seed"), [(2, 1), (3, 2), (5, 3)])
def test_every_view_reads_and_taps_on_a_phone(players: int, seed: int) -> None:
    """Text of 12 px and tap targets of 44 px on a 390 px phone, no label over another,
    and the players' names where P-numbers were."""
    game = load_game("emperor", players)
    match = Match(game, seed=seed)
    rng = random.Random(seed)
    for _ in range(140):
        state = match.state
        for seat in {None, state.current_player() if state.current_player() >= 0 else None}:
            svg = _board(match, seat, NAMES[:players]).svg
            check_phone(svg)
            check_labels_apart(svg)
            words = " ".join(_texts(ET.fromstring(svg)))
            assert not re.search(r"\bP\d\b", words), words
        if state.is_terminal():
            break
        _fighting(match, rng)


def test_attacks_and_colonies_are_picked_up_where_they_leave_from() -> None:
    def attacking(m: Match) -> bool:
        legal = [str(a) for a in m.state.legal_actions()] if not m.state.is_chance_node() else []
        return any(a.startswith("attack") for a in legal)

    match = _play_until(3, 11, attacking)
    board = _board(match, match.state.current_player())
    root = ET.fromstring(board.svg)
    legal = [str(a) for a in match.state.legal_actions()]
    picks = [g for g in root.iter(f"{SVG}g") if g.get("data-pick") is not None]
    assert picks
    for g in picks:
        source = str(g.get("data-pick")).removeprefix("em-from-")
        _province(g, source)
        offered = json.loads(g.get("data-actions") or "[]")
        # All the moves leaving from there, and only those.
        assert offered == [a for a in legal if parse(a).source == source]


def test_the_last_moves_of_others_are_marked_on_what_they_changed() -> None:
    match = _play_until(3, 11, lambda m: m.state.observation(None)["turn"] >= 4)
    root = ET.fromstring(_board(match, 0, recent=((1, "attack hopeh>honan"), (2, "merge 0"))).svg)
    marked = {g.get("id") for g in root.iter() if "recent" in (g.get("class") or "").split()}
    assert marked == {"em-province-hopeh", "em-province-honan", "em-seat-0", "em-seat-2"}
    ids = [g.get("id") for g in root.iter() if g.get("id")]
    assert "em-province-hopeh" in ids and "em-seat-1" in ids and "em-hand" in ids


def _answering(players: int, seed: int) -> Match:
    def merger_asked(m: Match) -> bool:
        legal = [str(a) for a in m.state.legal_actions()] if not m.state.is_chance_node() else []
        return "accept" in legal

    game = load_game("emperor", players)
    match = Match(game, seed=seed)
    rng = random.Random(seed)
    for _ in range(3000):
        if match.state.is_terminal():
            break
        if merger_asked(match):
            return match
        state = match.state
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            match.play(rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0])
        else:
            legal = list(state.legal_actions())
            offers = [a for a in legal if str(a).startswith("merge ")]
            match.play(offers[0] if offers and rng.random() < 0.5 else rng.choice(legal))
    raise AssertionError("no merger was offered")


def test_accepting_a_merger_asks_first_and_says_when_it_ends_the_game() -> None:
    match = _answering(2, 4)
    seat = match.state.current_player()
    view = match.state.envelope(seat, match.seq)
    board = BoardInput(match.game, match.game.layout(), view, ["accept", "refuse"])
    asked = confirm("accept", board)
    assert asked and "game ends" in asked
    assert confirm("refuse", board) is None
    match.play(next(a for a in match.state.legal_actions() if str(a) == "accept"))
    assert match.state.is_terminal()  # as the question said

    match = _answering(4, 5)
    view = match.state.envelope(match.state.current_player(), match.seq)
    asked = confirm("accept", BoardInput(match.game, match.game.layout(), view, ["accept"]))
    assert asked and "game ends" not in asked and "cannot be undone" in asked


@pytest.mark.parametrize("lang", ["en", "nl", "de"])
def test_the_end_says_who_won_in_words(lang: str) -> None:
    """Not "Result: Anna -1, Bot +1", the returns a bot learns from: who won."""
    from tianxia.web.i18n import gettext_for

    game = load_game("emperor", 2)
    match = Match(game, seed=8)
    rng = random.Random(8)
    while not match.state.is_terminal():
        match.play(rng.choice(match.state.legal_actions()))
    board = render(game, match.state.envelope(0, match.seq), [], gettext_for(lang), ["Anna", "Bo"])
    words = " ".join("".join(t.itertext()) for t in ET.fromstring(board.svg).iter(f"{SVG}text"))
    returns = match.state.returns()
    winners = [n for n, r in zip(["Anna", "Bo"], returns, strict=True) if r == max(returns)]
    said = gettext_for(lang)("Game over: {seats} won").format(seats=", ".join(winners))
    assert said in words
    assert not re.search(r"(Anna|Bo) [+-]\d", words), words
