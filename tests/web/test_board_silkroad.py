"""The Silk Road board: every seat's view over seeded games, and the things the SVG must
show where the observation puts them."""

from __future__ import annotations

import json
import random
import re
import xml.etree.ElementTree as ET
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from scripts import random_step
from tianxia.core import State, load_game
from tianxia.core.match import Match
from tianxia.games.silkroad.data import load_data
from tianxia.games.silkroad.game import SilkroadGame
from tianxia.games.silkroad.position import position
from tianxia.games.silkroad.state import SilkroadState
from tianxia.web.boards import Board, BoardInput, render
from tianxia.web.boards.silkroad import DESK_WIDTH, WIDTH, confirm

from .board_checks import SVG, check_board, check_labels_apart, check_phone, play_and_check

TRANSLATE = re.compile(r"translate\(([-\d.]+),([-\d.]+)\)")


def positions(players: int, seed: int, steps: int = 2000) -> Iterator[tuple[Match, State]]:
    """The states of a seeded random game, from the first to the last (or `steps`)."""
    game = load_game("silkroad", players)
    match = Match(game, seed=seed)
    rng = random.Random(seed)
    for _ in range(steps):
        state = match.state
        yield match, state
        if state.is_terminal():
            return
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            match.play(rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0])
        else:
            match.play(rng.choice(state.legal_actions()))


def first(players: int, seed: int, wanted: Callable[[State], bool]) -> tuple[Match, State]:
    for match, state in positions(players, seed):
        if wanted(state):
            return match, state
    raise AssertionError("no such position in the game")


def view(match: Match, state: State, seat: int | None) -> tuple[Board, list[str]]:
    legal = [str(a) for a in state.legal_actions()] if seat == state.current_player() else []
    return render(match.state.game, state.envelope(seat, match.seq), legal), legal


def phase(state: State) -> str:
    return str(state.observation(None)["phase"])


def spot_things(svg: str, picks: bool = False) -> dict[str, ET.Element]:
    """Each placed action and the first marked thing (a group with a class) in its spot:
    the place it goes to, or (`picks`) the thing picked up to play it."""
    out: dict[str, ET.Element] = {}
    for g in ET.fromstring(svg).iter(f"{SVG}g"):
        if "spot" not in (g.get("class") or "").split():
            continue
        if (g.get("data-pick") is not None) != picks:
            continue
        thing = next(e for e in g.iter(f"{SVG}g") if e is not g and e.get("class"))
        for action in json.loads(g.get("data-actions") or "[]"):
            out[action] = thing
    return out


def texts(svg: str) -> list[str]:
    return [t.text or "" for t in ET.fromstring(svg).iter(f"{SVG}text")]


@pytest.mark.parametrize("players", range(2, 8))
# The second seed's games in make test-long, as for the other titles' boards.
@pytest.mark.parametrize("seed", [1, pytest.param(2, marks=pytest.mark.slow)])
def test_random_games_render_for_every_seat(players: int, seed: int) -> None:
    totals = play_and_check("silkroad", players, seed, steps=100 // players + 25)
    assert totals["placed"] > 0
    assert totals["placed"] >= 9 * totals["listed"]


def test_a_whole_two_player_game_renders_to_its_end() -> None:
    totals = play_and_check("silkroad", 2, 5, steps=2000)
    assert totals["placed"] > 0
    assert totals["placed"] >= 9 * totals["listed"]


@pytest.mark.parametrize(("players", "seed"), [(2, 3), (3, 4), (5, 6)])
def test_every_action_but_wait_has_its_place(players: int, seed: int) -> None:
    """Start fields, hand cards, cards before you, the bazaar card, the card's alternatives
    and the merchants: only `wait` is left to the page's list."""
    seen: set[str] = set()
    for match, state in positions(players, seed):
        seat = state.current_player()
        if state.is_terminal() or state.is_chance_node():
            continue
        board, legal = view(match, state, seat)
        assert set(legal) - board.placed <= {"wait"}, phase(state)
        things = spot_things(board.svg)
        picked = spot_things(board.svg, picks=True)
        for action in board.placed:
            verb, *words = action.split()
            seen.add(verb)
            thing = things.get(action, picked.get(action))
            assert thing is not None
            cls = thing.get("class") or ""
            if verb in ("play", "give", "lay", "drop"):
                # A card is picked first, then (but to lay or drop a dead one) its merchant.
                kind = "hand" if verb in ("play", "lay") else "display"
                card = picked[action]
                assert card.get("class") == f"card {kind}"
                assert card.get("data-card") == str(int(words[0][1:]) - 1)
                if verb in ("play", "give"):
                    assert cls.split()[0] == "merchant-card"
                    assert thing.get("data-colour") == words[1]
                else:
                    assert action not in things
                continue
            if verb == "start":
                # A, B, C lie one behind another before field 1: fields -2, -1, 0.
                assert cls == "start"
                assert thing.get("data-field") == str("ABC".index(words[0]) - 2)
            elif verb == "bazaar":
                assert cls == "bazaar-card" and thing.get("data-seat") == str(seat)
            elif verb == "carry":
                assert cls == "alternative" and thing.get("data-numeral") == words[0]
            elif verb in ("pick", "miles"):
                assert cls.split()[0] == "merchant-card" and thing.get("data-colour") == words[0]
            else:
                raise AssertionError(f"placed {action}")
    assert {"start", "play", "carry", "pick"} <= seen


def test_merchants_stand_on_the_fields_the_observation_gives() -> None:
    match, state = first(3, 7, lambda s: s.observation(None)["turn"] >= 12)
    board, _ = view(match, state, 0)
    root = ET.fromstring(board.svg)
    cells = {}
    for g in root.iter(f"{SVG}g"):
        if g.get("class") == "field":
            rect = g.find(f"{SVG}rect")
            assert rect is not None
            box = [float(rect.get(k) or 0) for k in ("x", "y", "width", "height")]
            cells[int(g.get("data-field") or 0)] = box
    tokens = {g.get("data-colour"): g for g in root.iter(f"{SVG}g") if g.get("class") == "merchant"}
    merchants = state.observation(0)["merchants"]
    assert len(tokens) == len(merchants) == 6
    fields = set()
    for m in merchants:
        token = tokens[m["colour"]]
        assert token.get("data-field") == str(m["field"])
        found = TRANSLATE.search(token.get("transform") or "")
        assert found
        x, y = float(found.group(1)), float(found.group(2))
        cx, cy, w, h = cells[m["field"]]
        assert cx <= x <= cx + w and cy <= y <= cy + h, (m, x, y, cells[m["field"]])
        fields.add(m["field"])
    assert len(fields) > 1  # the game has moved them apart


def test_merchants_not_yet_placed_wait_in_xian() -> None:
    match, state = first(4, 1, lambda s: phase(s) == "place")
    board, legal = view(match, state, state.current_player())
    assert legal == ["start A", "start B", "start C"]
    assert board.placed == set(legal)
    tokens = [g for g in ET.fromstring(board.svg).iter(f"{SVG}g") if g.get("class") == "merchant"]
    assert [t.get("data-field") for t in tokens] == [""] * 4
    assert "Xi'an" in texts(board.svg)


def test_another_seats_hand_card_is_not_in_the_view() -> None:
    def titles(state: State) -> tuple[list[str], list[str]]:
        layout = state.game.layout()
        obs = state.observation(0)
        shown = set(obs["hand"]) | {k for d in obs["displays"] for k in d}
        if obs["pending"]["card"] is not None:
            shown.add(obs["pending"]["card"])
        names = [c["title"] for c in layout["cards"]]
        visible = [names[k] for k in shown]
        hidden = [
            names[k]
            for k in state.observation(1)["hand"]
            if k not in shown and not any(names[k] in v for v in visible)
        ]
        return hidden, visible

    match, state = first(4, 3, lambda s: phase(s) == "turn" and bool(titles(s)[0]))
    hidden = titles(state)[0][0]
    own, _ = view(match, state, 1)
    # A title may wrap over two lines of a card.
    assert hidden in " ".join(texts(own.svg))
    for seat in (0, None):
        other, _ = view(match, state, seat)
        assert hidden not in other.svg and hidden not in " ".join(texts(other.svg))
    spectator, _ = view(match, state, None)
    assert "Your hand" not in texts(spectator.svg)


def test_the_cards_before_a_player_are_open_to_everyone() -> None:
    match, state = first(4, 3, lambda s: any(s.observation(None)["displays"]))
    obs = state.observation(None)
    seat = next(i for i, d in enumerate(obs["displays"]) if d)
    kind = obs["displays"][seat][0]
    for viewer in (None, *range(4)):
        board, _ = view(match, state, viewer)
        cards = [
            g
            for g in ET.fromstring(board.svg).iter(f"{SVG}g")
            if g.get("class") == "displays" and g.get("data-seat") == str(seat)
        ]
        assert len(cards) == 1
        words = [t.text or "" for t in cards[0].iter(f"{SVG}text")]
        assert words[0].split()[0] == f"#{kind + 1}"


def test_the_spot_of_a_hand_card_offers_its_plays() -> None:
    match, state = first(2, 4, lambda s: phase(s) == "turn" and s.current_player() == 0)
    board, legal = view(match, state, 0)
    plays = [a for a in legal if a.startswith("play ")]
    assert plays
    card = plays[0].split()[1]
    things = spot_things(board.svg, picks=True)
    spot_of = {a: id(things[a]) for a in board.placed if a in things}
    same_card = {a for a in plays if a.split()[1] == card}
    # The colour choices of one card share the card's spot (the page asks which).
    assert len({spot_of[a] for a in same_card}) == 1
    assert len(same_card) == 3  # two players: three merchants each
    assert things[plays[0]].get("data-card") == str(int(card[1:]) - 1)


def test_the_viewer_the_turn_and_the_wind_rose_are_marked() -> None:
    match, state = first(5, 2, lambda s: phase(s) == "turn" and s.current_player() == 2)
    board, _ = view(match, state, 2)
    words = texts(board.svg)
    assert any("your move" in w for w in words)
    assert "P3 · you · decides" in words
    marked = state.observation(None)["wind_rose"]
    stones = [
        c.get("data-colour")
        for c in ET.fromstring(board.svg).iter(f"{SVG}circle")
        if c.get("class") == "rose-stone"
    ]
    assert stones == sorted(marked, key=["white", "yellow", "blue", "purple", "green"].index)


def test_the_board_is_the_same_for_the_same_view() -> None:
    match, state = first(3, 9, lambda s: phase(s) == "turn")
    a, _ = view(match, state, state.current_player())
    b, _ = view(match, state, state.current_player())
    assert a.svg == b.svg and a.placed == b.placed


PRINTED = Path(__file__).parents[1] / "data" / "silkroad-printed-bazaar"


def past_track_note(board: Board) -> list[str]:
    """The note under the bazaar table, its wrapped lines joined."""
    return [
        " ".join(t.text or "" for t in g.iter(f"{SVG}text"))
        for g in ET.fromstring(board.svg).iter(f"{SVG}g")
        if g.get("class") == "bazaar-past-track"
    ]


def test_a_bazaar_track_shorter_than_the_cards_is_drawn_and_played(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("TIANXIA_DATA_DIR", str(PRINTED))
    load_data.cache_clear()
    try:
        totals = play_and_check("silkroad", 7, 3, steps=60)
        assert totals["placed"] > 0

        def run_out(s: State) -> bool:
            assert isinstance(s, SilkroadState)
            return s.marker > 6 and sum(s.bazaar_cards) > 0

        # A seeded seven-player game on six rows: a bazaar card is left when the track ends.
        match, state = first(7, 3, run_out)
        for seat in (None, *range(7)):
            board, legal = view(match, state, seat)
            check_board(board, legal)
            assert "bazaar" not in legal
            assert past_track_note(board) == ["the bazaar track has run out"]
        game = match.state.game
        assert isinstance(game, SilkroadGame)
        on_track = position(game, [10, 20, 19, 5, 0, 0, 0], marker=6, deck_bazaars=0)
        board = render(game, on_track.envelope(0, 0), [])
        markers = ET.fromstring(board.svg).iter(f"{SVG}g")
        assert [g for g in markers if g.get("class") == "bazaar-marker"]
        assert not past_track_note(board)
    finally:
        monkeypatch.delenv("TIANXIA_DATA_DIR")
        load_data.cache_clear()


def test_all_bazaars_held_past_the_shipped_track() -> None:
    game = load_game("silkroad", 4)
    assert isinstance(game, SilkroadGame)
    done = position(game, [10, 20, 19, 5], marker=8, deck_bazaars=0, bazaar_cards=(0, 0, 0, 0))
    assert past_track_note(render(game, done.envelope(0, 0), [])) == ["all bazaars held"]


def test_a_click_inside_a_ringed_merchant_names_it(page: Any) -> None:
    """The highlight ring is drawn without fill; a click in its middle, where the small
    token leaves paper showing, once fell through to the board and did nothing."""
    pytest.importorskip("playwright")
    match, state = first(
        3,
        4,
        lambda s: (
            not s.is_chance_node()
            and not s.is_terminal()
            and any(str(a).startswith(("pick", "miles")) for a in s.legal_actions())
        ),
    )
    board, _ = view(match, state, state.current_player())
    css = (Path(__file__).resolve().parents[2] / "src/tianxia/web/static/style.css").read_text()
    page.set_content(
        f"<html><head><style>{css}</style></head><body><div class=board-wrap>"
        f"{board.svg}</div></body></html>"
    )
    page.evaluate(
        "() => { window.hits = []; for (const s of document.querySelectorAll('.spot'))"
        " s.addEventListener('click', () => window.hits.push(s.dataset.actions)); }"
    )
    rings = page.locator(".board-wrap .spot .merchant-card > rect:first-of-type")
    assert rings.count() >= 1
    for k in range(rings.count()):
        rings.nth(k).scroll_into_view_if_needed()
        box = rings.nth(k).bounding_box()
        assert box is not None
        # A hand's click in the ring's middle: wherever it lands of the spot, it counts.
        page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    hits = page.evaluate("window.hits")
    assert len(hits) == rings.count()
    assert all(json.loads(h)[0].startswith(("pick", "miles")) for h in hits)


NAMES = ("Anna", "Bert", "Cora", "Dirk", "Emma", "Finn", "Gina")


@pytest.mark.parametrize(("players", "seed"), [(2, 1), (3, 4), (5, 2)])
def test_every_view_reads_and_taps_on_a_phone(players: int, seed: int) -> None:
    """Text of 12 px and tap targets of 44 px on a 390 px phone, no label over another,
    and the players' names where P-numbers were."""
    for n, (match, state) in enumerate(positions(players, seed, steps=160)):
        mover = state.current_player()
        for seat in {None, mover if mover >= 0 else None, n % players}:
            legal = [str(a) for a in state.legal_actions()] if seat == mover else []
            board = render(
                match.game, state.envelope(seat, match.seq), legal, names=NAMES[:players]
            )
            check_board(board, legal)
            check_phone(board.svg)
            check_labels_apart(board.svg)
            assert not re.search(r"\bP\d\b", " ".join(texts(board.svg)))


def _top(g: ET.Element) -> float:
    return min(float(r.get("y") or 0) for r in g.iter(f"{SVG}rect"))


def test_the_hand_lies_just_above_the_merchants_it_is_played_on() -> None:
    """A card is picked in the hand, then the merchant tapped: both in one view, a
    phone's screen or less apart, whatever the track holds."""
    match, state = first(4, 3, lambda s: phase(s) == "turn" and s.current_player() == 1)
    board, legal = view(match, state, 1)
    root = ET.fromstring(board.svg)
    picks = [g for g in root.iter(f"{SVG}g") if g.get("data-pick", "").startswith("sr-hand-")]
    chips = [g for g in root.iter(f"{SVG}g") if "merchant-card" in (g.get("class") or "")]
    assert picks and len(chips) == len(state.observation(None)["merchants"])
    lowest_chip = max(_top(g) for g in chips) + 46
    highest_card = min(_top(g) for g in picks)
    # On a desk the board is shown at most DESK_WIDTH px wide: hand and merchants then
    # fit in a 1280x900 window together with the page's head.
    assert f'class="board desk-{DESK_WIDTH:.0f}"' in board.svg
    assert 0 < (lowest_chip - highest_card) * DESK_WIDTH / WIDTH < 700
    # A picked card offers every play of it; each play's merchant offers it too.
    for g in picks:
        offered = json.loads(g.get("data-actions") or "[]")
        kind = f"#{str(g.get('data-pick')).removeprefix('sr-hand-')}"
        assert offered and all(a.split()[1] == f"#{int(kind[1:]) + 1}" for a in offered)
    for g in chips:
        colour = g.get("data-colour")
        spot_ = next(
            (s for s in root.iter(f"{SVG}g") if g in list(s) and s.get("data-actions")), None
        )
        wanted = [a for a in legal if a.split()[-1] == colour and a.startswith(("play", "give"))]
        got = json.loads(spot_.get("data-actions") or "[]") if spot_ is not None else []
        assert got == wanted


def test_the_last_moves_of_others_are_marked_on_what_they_changed() -> None:
    match, state = first(3, 4, lambda s: phase(s) == "turn" and s.current_player() == 0)
    recent = ((1, "play #3 white"), (2, "bazaar"))
    board = render(match.game, state.envelope(0, match.seq), [], recent=recent)
    root = ET.fromstring(board.svg)
    marked = {g.get("id") for g in root.iter() if "recent" in (g.get("class") or "").split()}
    assert marked == {"sr-merchant-white", "sr-chip-white", "sr-seat-1", "sr-seat-2"}
    ids = [e.get("id") for e in root.iter() if e.get("id")]
    assert len(ids) == len(set(ids)) and "sr-track" in ids and "sr-field-12" in ids


def test_laying_a_dead_card_asks_first() -> None:
    match, state = first(3, 4, lambda s: phase(s) == "turn")
    view_ = state.envelope(state.current_player(), match.seq)
    board = BoardInput(match.game, match.game.layout(), view_, [])
    asked = confirm("lay #3", board)
    assert asked and "#3" in asked and "turn ends" in asked
    assert confirm("drop #3", board) and confirm("play #3 white", board) is None


@pytest.mark.parametrize(
    ("lang", "title"),
    [("en", "The Silk Road"), ("nl", "De Zijderoute"), ("de", "Die Seidenstraße")],
)
def test_the_game_has_one_name_in_each_language(lang: str, title: str) -> None:
    """The game's title (pages, lobby card, learn page) and its board's agree: English in
    English, the German original in German."""
    from tianxia.web.i18n import gettext_for

    game = load_game("silkroad", 3)
    _ = gettext_for(lang)
    assert _(game.info.title) == title
    match = Match(game, seed=1)
    board = render(game, match.state.envelope(None, match.seq), [], _)
    root = ET.fromstring(board.svg)
    assert root.get("aria-label") == title
    assert title in texts(board.svg)


def test_a_log_line_names_the_card_and_where_it_went_not_its_whole_text() -> None:
    """The log tells a card played or given, or a bazaar called, in one short line in
    every language (the card's text is on the card, the payout on the board), speaking
    to nobody as "you"."""
    from tianxia.play.table import event_words
    from tianxia.web.tableview import log_words

    game = load_game("silkroad", 3)
    seen: set[str] = set()
    for seed in (1, 2):
        match = Match(game, seed=seed)
        rng = random.Random(seed)
        for _ in range(300):
            state = match.state
            if state.is_terminal():
                break
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                action = rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0]
            else:
                action = rng.choice(state.legal_actions())
            match.play(action)
            subject, sentence = event_words(state, action, match.event(match.seq - 1))
            for lang in ("en", "nl", "de"):
                line = log_words(subject, sentence, lang, "silkroad")
                assert len(line) <= 80, line
                assert not re.search(r"\b(your|je|deine?)\b", line, re.IGNORECASE), line
            seen.add(sentence.split()[0])
    assert {"lays", "passes", "calls"} <= seen


def test_the_ends_summary_says_that_silver_decides_not_venice() -> None:
    """Whose merchant reached Venice is what the board shows last; the summary says the
    score is silver and silver wins."""
    from tianxia.web.i18n import gettext_for
    from tianxia.web.tableview import summary

    match = Match(load_game("silkroad", 2), seed=5)
    rng = random.Random(5)
    while not match.state.is_terminal():
        random_step(match, rng)
    end = match.state
    said = summary(end, end.envelope(None, match.seq), gettext_for("de"))
    assert said["parts"] is None
    assert "Silber" in said["note"] and "Venedig" in said["note"]
    english = summary(end, end.envelope(None, match.seq))
    assert "most silver wins" in english["note"]
