"""The one observation encoding: each title's declared layout, seats relative to the
observer, and every face handing out the same tensor."""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest

pytest.importorskip("gymnasium")

import tianxia
import tianxia.adapters
from tianxia.adapters.encoding import ENCODING_VERSION, encoding, tables
from tianxia.core import Game, Match, State

TITLES = ["china", "greatwall", "emperor", "mandarin", "silkroad"]
DOC = Path(__file__).resolve().parents[2] / "docs" / "research.md"

pytestmark = pytest.mark.filterwarnings("ignore::UserWarning")


def counts(name: str) -> list[int]:
    info = tianxia.load_game(name).info
    return list(range(info.min_players, info.max_players + 1))


def decisions(game: Game, seed: int, every: int = 7, limit: int = 12) -> Iterator[State]:
    """Every `every`-th decision state of a seeded random game, at most `limit` of them."""
    rng = random.Random(seed)
    m = Match(game, seed=seed)
    k = 0
    while not m.state.is_terminal() and limit:
        if m.state.is_chance_node():
            m.resolve_chance()
            continue
        if k % every == 0:
            limit -= 1
            yield m.state
        k += 1
        m.play(rng.choice(m.state.legal_actions()))


def start_of(rows: list[tuple[int, int, str]], prefix: str) -> list[int]:
    found = [a for a, _, meaning in rows if meaning.startswith(prefix)]
    assert found, f"no row starts {prefix!r}"
    return found


@pytest.mark.parametrize("name", TITLES)
def test_every_title_declares_a_layout_covering_its_tensor_at_every_count(name: str) -> None:
    for n in counts(name):
        game = tianxia.load_game(name, players=n)
        rows = tianxia.adapters.layout(game)
        assert rows[0][0] == 0 and rows[-1][1] == game.observation_tensor_size()
        assert all(a < b for a, b, _ in rows)
        assert all(rows[i][1] == rows[i + 1][0] for i in range(len(rows) - 1))
        assert not any("no layout declared" in m for _, _, m in rows)
    assert tianxia.adapters.layout(name, players=counts(name)[-1]) == tianxia.adapters.layout(
        tianxia.load_game(name, players=counts(name)[-1])
    )


@pytest.mark.parametrize("name", TITLES)
def test_the_observer_is_seat_0_and_the_mover_is_counted_from_it(name: str) -> None:
    for n in counts(name)[:2]:
        game = tianxia.load_game(name, players=n)
        enc = encoding(game)
        rows = enc.layout()
        observer = -1 if name == "silkroad" else start_of(rows, "observer")[0]
        mover = next(
            a for a, _, m in rows if m.startswith(("to move", "to decide", "seat to decide"))
        )
        seen_other_mover = False
        for state in decisions(game, seed=n):
            cp = state.current_player()
            for me in range(n):
                v = enc.encode(state, me)
                if name != "silkroad":  # the Silk Road has no observer block
                    assert v[observer] == 1 and not v[observer + 1 : observer + n].any()
                assert v[mover + (cp - me) % n] == 1, (me, cp)
                seen_other_mover |= cp != me
            assert np.array_equal(
                enc.encode(state, None), np.asarray(state.observation_tensor(None), np.float32)
            )
        assert seen_other_mover


def _china(state: Any, v: np.ndarray, me: int, rows: list[tuple[int, int, str]]) -> None:
    n = state.game.players
    points = {m: a for a, _, m in rows if m.endswith("points /100")}
    for r in range(n):
        assert v[points[f"seat +{r}: points /100"]] == pytest.approx(
            state.points[(me + r) % n] / 100
        )
    houses = start_of(rows, "house owner")[0]
    for f, owner in enumerate(state.houses):
        row = v[houses + f * n : houses + (f + 1) * n]
        assert (row.sum() == 0) if owner < 0 else row[(owner - me) % n] == 1


def _greatwall(state: Any, v: np.ndarray, me: int, rows: list[tuple[int, int, str]]) -> None:
    n = state.game.players
    hand = {m.split(":")[0]: a for a, _, m in rows if m.endswith("cards gone /7 by kind")}
    for r in range(n):
        assert v[hand[f"seat +{r}"]] == pytest.approx(sum(state.hands[(me + r) % n]) / 20)
    on_turn = start_of(rows, "seat on turn")[0]
    assert v[on_turn + (state.seat - me) % n] == 1


def _emperor(state: Any, v: np.ndarray, me: int, rows: list[tuple[int, int, str]]) -> None:
    n = state.game.players
    for p, owner in enumerate(state.owner):
        at = start_of(rows, f"province {p}: owner")[0]
        assert v[at + (0 if owner < 0 else 1 + (owner - me) % n)] == 1
    status = {m.split(":")[0]: a for a, _, m in rows if m.startswith("seat +") and "status" in m}
    width = len(state.game.search.STATUSES)
    for r in range(n):
        assert v[status[f"seat +{r}"] + width + 1] == pytest.approx(
            sum(state.hands[(me + r) % n]) / 10
        )


def _mandarin(state: Any, v: np.ndarray, me: int, rows: list[tuple[int, int, str]]) -> None:
    n = state.game.players
    pos = {m.split(":")[0]: a for a, _, m in rows if m.endswith("one-hot of the square")}
    squares = state.game.rules.SQUARES
    for r in range(n):
        at, square = pos[f"seat +{r}"], state.pos[(me + r) % n]
        row = v[at : at + squares]
        assert (row.sum() == 0) if square < 0 else row[square] == 1  # -1: not placed yet
    tiles = start_of(rows, "where each of the 72 tiles")[0]
    for t, owner in enumerate(state.owner):
        if owner >= 0:
            assert v[tiles + t * (n + 2) + (owner - me) % n] == 1


def _silkroad(state: Any, v: np.ndarray, me: int, rows: list[tuple[int, int, str]]) -> None:
    n = state.game.players
    seat = {m.split(":")[0]: a for a, _, m in rows if "silver /100" in m}
    for r in range(n):
        assert v[seat[f"seat +{r}"] + 1] == pytest.approx(state.silver[(me + r) % n] / 100)


CHECKS: dict[str, Callable[[Any, np.ndarray, int, list[tuple[int, int, str]]], None]] = {
    "china": _china,
    "greatwall": _greatwall,
    "emperor": _emperor,
    "mandarin": _mandarin,
    "silkroad": _silkroad,
}


@pytest.mark.parametrize("name", TITLES)
def test_per_seat_blocks_are_counted_from_the_observer(name: str) -> None:
    n = counts(name)[1] if len(counts(name)) > 1 else counts(name)[0]
    game = tianxia.load_game(name, players=n)
    enc = encoding(game)
    rows = enc.layout()
    for state in decisions(game, seed=11, every=5):
        for me in range(n):
            CHECKS[name](state, enc.encode(state, me), me, rows)


def test_every_face_hands_out_the_one_encoding() -> None:
    pyspiel = pytest.importorskip("pyspiel")
    from tianxia.adapters import openspiel
    from tianxia.adapters.gym import TianxiaEnv
    from tianxia.adapters.pettingzoo import env as aec_env

    gym_env = TianxiaEnv("greatwall", players=3, seat=2)
    obs, _ = gym_env.reset(seed=5)
    enc = encoding(gym_env.game)
    assert np.array_equal(obs["observation"], enc.encode(gym_env.engine_state, 2))
    assert gym_env.metadata["encoding_version"] == ENCODING_VERSION == 2

    aec = aec_env("greatwall", players=3)
    aec.reset(seed=5)
    for seat, agent in enumerate(aec.possible_agents):
        assert np.array_equal(aec.observe(agent), enc.encode(aec.engine_state, seat))

    openspiel.register(["greatwall"])
    game = pyspiel.load_game("tianxia_greatwall(players=3)")
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    for seat in range(3):
        got = np.asarray(state.observation_tensor(seat), np.float32)
        assert np.array_equal(got, enc.encode(state.tianxia_state, seat))
        info = np.asarray(state.information_state_tensor(seat), np.float32)
        assert np.array_equal(info[: enc.size], got)


def test_the_docs_show_the_generated_layouts() -> None:
    text = DOC.read_text(encoding="utf-8")
    found = re.search(r"<!-- layouts: begin -->\n(.*?)<!-- layouts: end -->", text, re.S)
    assert found, "docs/research.md has no generated layout section"
    assert found.group(1) == tables(), (
        "docs/research.md's layouts differ from the code: regenerate them with "
        "`python -m tianxia.adapters.encoding --docs`"
    )
