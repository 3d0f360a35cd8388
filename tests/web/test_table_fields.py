"""The fields a browser's view carries beside the engine's: moves in words, recent moves,
confirmations, the summary at the end, replay marks, the rematch."""

from __future__ import annotations

import random
import time

import pytest

from tianxia.core import CHANCE, Match, load_game
from tianxia.web.boards import BoardInput
from tianxia.web.tableview import (
    confirmations,
    move_text,
    recent_moves,
    replay_marks,
    summary,
)

TITLES = ["china", "greatwall", "emperor", "mandarin", "silkroad"]


def _played(title: str, seed: int, limit: int = 4000) -> Match:
    m = Match(load_game(title, players=3), seed=seed)
    rng = random.Random(seed)
    for _ in range(limit):
        if m.state.is_terminal():
            break
        m.play(rng.choice(m.state.legal_actions()))
    return m


def test_a_move_reads_without_its_prefix_and_its_movers_seat() -> None:
    assert (
        move_text("legal: P1 places a house on Chu.1, paying one violet card", "en")
        == "Places a house on Chu.1, paying one violet card"
    )
    assert (
        move_text("toegestaan: P2 zet een landhuis op Chu.1", "nl") == "Zet een landhuis op Chu.1"
    )
    assert move_text("legal: occupies hopeh", "en") == "Occupies hopeh"


@pytest.mark.parametrize("title", TITLES)
def test_recent_moves_are_the_others_since_the_viewers_last_move(title: str) -> None:
    rng = random.Random(11)
    m = Match(load_game(title, players=3), seed=11)
    for _ in range(60):
        if m.state.is_terminal():
            break
        m.play(rng.choice(m.state.legal_actions()))
        for viewer in (0, 1, 2):
            recent = recent_moves(m, viewer)
            assert all(seat != viewer for seat, _ in recent)
            # Exactly the visible moves after the viewer's own last decision.
            last = max((i for i in range(m.seq) if m.seat_of(i) == viewer), default=-1)
            if m.seq - (last + 1) <= 40:
                expected = [
                    (e["seat"], e["action"])
                    for e in m.events_for(viewer, since=last + 1)
                    if e["action"] is not None
                ]
                assert recent == expected
        spectator = [seat for seat, _ in recent_moves(m, None) if seat is not None]
        assert len(spectator) == len(set(spectator))  # one round: no seat twice


def test_a_move_that_ends_the_game_asks_first() -> None:
    found = 0
    for seed in range(40):
        m = Match(load_game("emperor", players=2), seed=seed)
        rng = random.Random(seed)
        for _ in range(400):
            st = m.state
            if st.is_terminal():
                break
            if st.current_player() != CHANCE:
                legal = [str(a) for a in st.legal_actions()]
                seat = st.current_player()
                board = BoardInput(m.game, m.game.layout(), st.envelope(seat, m.seq), legal)
                asks = confirmations("emperor", st, legal, board, lambda s: s)
                for action in legal:
                    if st.apply(st.to_action(action)).is_terminal():
                        found += 1
                        assert action in asks
            m.play(rng.choice(st.legal_actions()))
        if found >= 3:
            break
    assert found >= 1


@pytest.mark.parametrize("title", TITLES)
def test_the_summary_ranks_every_seat(title: str) -> None:
    m = _played(title, 5)
    assert m.state.is_terminal()
    env = m.state.envelope(0, m.seq)
    s = summary(m.state, env)
    returns = m.state.returns()
    best = max(returns)
    assert [r == 1 for r in s["ranks"]] == [r == best for r in returns]
    assert len(s["scores"]) == 3
    if title == "china":
        # China's observation gives the parts of each score: they add up to it.
        assert s["parts"] is not None
        for parts, score in zip(s["parts"], s["scores"], strict=True):
            assert sum(parts.values()) == score


@pytest.mark.parametrize("title", ["china", "greatwall", "emperor"])
def test_the_summary_ranks_the_others_by_their_scores(title: str) -> None:
    # China's returns say only who won: the seats behind the winner are ranked by their
    # points, as a player reads the table, not all placed second.
    for seed in range(12):
        m = _played(title, seed)
        s = summary(m.state, m.state.envelope(0, m.seq))
        returns, scores = m.state.returns(), m.state.scores()
        for a in range(3):
            for b in range(3):
                if returns[a] == returns[b] and scores[a] > scores[b]:
                    assert s["ranks"][a] < s["ranks"][b], (seed, s, scores)
                if (returns[a], scores[a]) == (returns[b], scores[b]):
                    assert s["ranks"][a] == s["ranks"][b]


@pytest.mark.parametrize("players", [2, 3])
def test_the_emperors_summary_says_what_each_score_is_made_of(players: int) -> None:
    # Provinces, units, yang cards and markers (EM-9.1): they add up to each score, and
    # a junior partner who keeps nothing shows nothing.
    for seed in range(6):
        m = Match(load_game("emperor", players=players), seed=seed)
        rng = random.Random(seed)
        while not m.state.is_terminal():
            m.play(rng.choice(m.state.legal_actions()))
        s = summary(m.state, m.state.envelope(0, m.seq))
        assert s["parts"] is not None
        for parts, score in zip(s["parts"], s["scores"], strict=True):
            assert sum(parts.values()) == score, (seed, s)
            assert all(v >= 0 for v in parts.values()), (seed, s)
        assert set(s["labels"]) == {"provinces, 2 each", "units", "yang cards", "markers"}


@pytest.mark.parametrize("title", TITLES)
def test_replay_marks_fold_chance_into_the_decision_before_it(title: str) -> None:
    m = _played(title, 7)
    marks = replay_marks(m)
    steps = marks["decisions"]
    assert steps == sorted(set(steps)) and steps[-1] == m.seq
    for step in steps[:-1]:
        assert m.seat_of(step) != CHANCE  # each stop waits for a decision
    decided = [i for i in range(m.seq) if m.seat_of(i) != CHANCE]
    assert len(steps) - 1 == len(decided)
    assert [m.seat_of(i) for i in decided] == marks["seats"][1:]
    assert set(marks["rounds"]) <= set(steps) and marks["rounds"][0] == steps[0]


@pytest.mark.timeout(120)
def test_a_rematch_has_the_same_title_options_and_seats(site: object) -> None:
    import httpx

    base = site.base  # type: ignore[attr-defined]
    r = httpx.post(
        f"{base}/api/games",
        json={"game": "greatwall", "players": 2, "seats": ["open", "bot:random"]},
    )
    gid = r.json()["id"]
    joined = httpx.post(f"{base}/api/games/{gid}/join", json={"seat": 0, "name": "Anna"}).json()
    early = httpx.post(f"{base}/api/games/{gid}/rematch", json={"secret": joined["secret"]})
    assert early.status_code == 409  # not before the end
    httpx.post(f"{base}/api/games/{gid}/resign", json={"secret": joined["secret"]})
    for _ in range(600):
        if httpx.get(f"{base}/api/games/{gid}").json()["status"] == "finished":
            break
        time.sleep(0.1)
    wrong = httpx.post(f"{base}/api/games/{gid}/rematch", json={"secret": "x" * 20})
    assert wrong.status_code == 403
    first = httpx.post(f"{base}/api/games/{gid}/rematch", json={"secret": joined["secret"]})
    again = httpx.post(f"{base}/api/games/{gid}/rematch", json={"secret": joined["secret"]})
    assert first.status_code == 200 and first.json() == again.json()
    new = httpx.get(f"{base}/api/games/{first.json()['game']}").json()
    old = httpx.get(f"{base}/api/games/{gid}").json()
    assert new["game"] == "greatwall" and new["options"] == old["options"]
    assert [s["kind"] for s in new["seats"]] == ["open", "bot"]
    assert new["seats"][1]["strength"] == "random"


@pytest.mark.parametrize("title", TITLES)
def test_a_board_patch_rebuilds_the_next_board_exactly(title: str) -> None:
    from tianxia.web.boards import render
    from tianxia.web.tableview import apply_patch, board_patch

    m = Match(load_game(title, players=3), seed=13)
    rng = random.Random(13)
    before = ""
    smaller = 0
    for _ in range(40):
        if m.state.is_terminal():
            break
        m.play(rng.choice(m.state.legal_actions()))
        legal = [str(a) for a in m.state.legal_actions()] if m.state.current_player() == 0 else []
        board = render(m.game, m.state.envelope(0, m.seq), legal).svg
        ops = board_patch(before, board)
        assert apply_patch(before, ops) == board
        assert apply_patch(board, board_patch(board, board)) == board  # a view unchanged
        smaller += len(str(ops)) * 2 < len(board)
        before = board
    assert smaller > 20  # a move changes a small part of the board
