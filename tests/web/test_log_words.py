"""The log a player reads at the table: every event in words, telling no more than the
event it stands for tells that viewer."""

from __future__ import annotations

import json
import random
import re
import uuid
from typing import Any

import httpx
import pytest

from tianxia.core import Match, load_game, seat_name
from tianxia.play.table import SeatPlan, Table, event_words

pytest.importorskip("babel")

from serving import Server
from tianxia.web.tableview import log_words

TITLES = ["china", "greatwall", "emperor", "mandarin", "silkroad"]
COUNTS = {
    "china": (3, 5),
    "greatwall": (2, 4),
    "emperor": (2, 4),
    "mandarin": (2, 4),
    "silkroad": (3, 5),
}


def _notation(text: str, action: str | None) -> bool:
    """A line that is a seat (or chance) and then the move's notation."""
    if action is None:
        return False
    return bool(re.fullmatch(rf"(P[1-7]|chance): {re.escape(action)}", text))


def _table(title: str, players: int, seed: int) -> Table:
    return Table(Match(load_game(title, players=players), seed=seed), [SeatPlan()] * players)


@pytest.mark.parametrize("title", TITLES)
def test_a_sentence_in_words_tells_a_viewer_no_more_than_its_event(title: str) -> None:
    """Over seeded games, each event's words for a seat are the same in every state that
    seat's information allows (the describe of a state resampled from it); an event the
    seat may not read whole stays redacted, and a spectator reads what the seats read of
    a public event."""
    checked = 0
    for players in COUNTS[title]:
        seed = 5 + players
        t = _table(title, players, seed)
        rng = random.Random(seed)
        seen = 0
        for _ in range(160):
            if t.state.is_terminal():
                break
            t.play(rng.choice(t.state.legal_actions()))
            over = t.state.is_terminal()
            m = t.match
            for i in range(seen, m.seq):
                ev = m.event(i)
                before, action = m.history[i], m.log[i]
                public: tuple[str, str] | None = None
                for viewer in range(players):
                    words = t.words(i, viewer)
                    if not ev.visible_to(viewer) and not over:
                        assert words == ("", ev.others), (title, i, words)
                        continue
                    if ev.seen_by is None:
                        public = public or words
                        assert words == public  # one sentence for every seat
                    if words == ("", ev.text):
                        continue  # the event's own sentence
                    for _ in range(2):
                        other = before.resample_from_infostate(viewer, rng)
                        assert event_words(other, action, ev) == words, (title, i, viewer)
                        checked += 1
                spectator = t.words(i, None)
                if over or ev.seen_by is None:
                    assert spectator == (public if public is not None else spectator)
                else:
                    assert spectator == ("", ev.others)
            seen = m.seq
    assert checked > 100


@pytest.mark.parametrize("title", TITLES)
def test_every_log_line_reads_in_words(title: str) -> None:
    """No line of the log is a seat and notation: each player's move reads as its move
    button does, named after the seat that decided it."""
    for players in COUNTS[title]:
        t = _table(title, players, 3)
        rng = random.Random(3)
        for _ in range(300):
            if t.state.is_terminal():
                break
            t.play(rng.choice(t.state.legal_actions()))
        for viewer in (*range(players), None):
            for e in t.events_for(viewer):
                subject, sentence = t.words(e["seq"] - 1, viewer)
                text = log_words(subject, sentence, "en", title)
                assert not _notation(text, e["action"]), (title, e, text)
                assert not text.startswith(("chance:", "Chance:")), (title, e, text)
                if e["seat"] is not None:
                    assert text.startswith(seat_name(e["seat"])), (title, e, text)


def _view(ws: Any) -> dict[str, Any]:
    while True:
        msg: dict[str, Any] = json.loads(ws.recv(timeout=20))
        if msg["type"] == "view":
            return msg


@pytest.mark.parametrize(("title", "lang"), [(t, "en") for t in TITLES] + [("emperor", "de")])
def test_a_browsers_log_reads_in_words(site: Server, title: str, lang: str) -> None:
    """What a browser receives: each event carries `words`, a sentence rather than a
    seat and notation, in the page's language; the engine's text and notation stay."""
    from websockets.sync.client import connect

    players = COUNTS[title][0]
    seats = ["open"] + ["bot:random"] * (players - 1)
    gid = httpx.post(
        f"{site.base}/api/games", json={"game": title, "players": players, "seats": seats}
    ).json()["id"]
    secret = httpx.post(f"{site.base}/api/games/{gid}/join", json={"seat": 0}).json()["secret"]
    url = site.base.replace("http", "ws", 1) + f"/ws/games/{gid}"
    rng = random.Random(1)
    events: dict[int, dict[str, Any]] = {}
    with connect(url, ping_interval=None) as ws:
        ws.send(json.dumps({"type": "hello", "secret": secret, "board": True, "lang": lang}))
        view = _view(ws)
        for _ in range(40):
            for e in view["events"]:
                events[e["seq"]] = e
            if view["terminal"] or sum(e["seat"] is not None for e in events.values()) > 12:
                break
            if view["legal"]:
                action = rng.choice(view["legal"])["action"]
                ws.send(
                    json.dumps(
                        {
                            "type": "act",
                            "action_id": uuid.uuid4().hex,
                            "expected_seq": view["seq"],
                            "action": action,
                        }
                    )
                )
            view = _view(ws)
    assert events
    moves = [e for e in events.values() if e["seat"] is not None]
    assert moves, title
    for e in events.values():
        assert e["words"] and not _notation(e["words"], e["action"]), e
        assert not e["words"].startswith("chance:"), e
    # Most players' moves say more than the engine's line: a verb, not the notation.
    assert sum(e["words"] != e["text"] for e in moves) >= len(moves) // 2, moves
    if lang == "de":
        english = re.compile(r"\b(occupies|assigns|ends the|is drawn|the die shows)\b")
        assert not [e["words"] for e in events.values() if english.search(e["words"])]


def test_a_replays_log_reads_in_words(site: Server) -> None:
    """A finished game's replay carries each event's words, in the reader's language."""
    import time

    gid = httpx.post(
        f"{site.base}/api/games",
        json={"game": "emperor", "players": 2, "seats": ["bot:random", "bot:random"]},
    ).json()["id"]
    for _ in range(600):
        if httpx.get(f"{site.base}/api/games/{gid}").json()["status"] == "finished":
            break
        time.sleep(0.1)
    for lang in ("en", "nl"):
        r = httpx.get(f"{site.base}/api/games/{gid}/replay", params={"step": 30, "lang": lang})
        events = r.json()["events"]
        assert len(events) == min(30, r.json()["steps"])  # a merger may end it early
        for e in events:
            assert e["words"] and not _notation(e["words"], e["action"]), e
        moves = [e for e in events if e["seat"] is not None]
        assert sum(e["words"] != e["text"] for e in moves) >= len(moves) // 2
        if lang == "nl":
            assert any(e["words"].startswith("P1 bezet") for e in events), events
