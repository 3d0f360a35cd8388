"""Non-interference: two games that differ only in what viewer V may not see, driven by
the same public actions, must send V the same bytes.

A pair is built through the engine, step by step, for V (a seat or a spectator): game A
plays at random; game B takes the same player actions, and at every chance event an
outcome chosen among B's own so that V's envelope and V's sentence of the event come
out exactly as in A, another outcome than A's wherever one does (another card to
another seat's hand, another tile into the bag). The deal goes into the database as
each game's first rows; later chance is handed to the server through a test route
before the action that triggers it; player actions go over the websockets of the seats.
The pair ends where it cannot go on with V's engine view equal (a chance event V sees
whose outcome the hidden difference decides, or a seat whose hidden hand leaves it no
action legal in both games), at the end of the game, or after `MOVES` actions.

Every frame V received in A must equal the frame at the same place in B, byte for byte.
One field is allowed to differ, and counted apart: the `state_hash` of an `accepted`
answer to V's own action, which with the test hooks on is the plain hash of the whole
state; without them it is keyed with the game's secret (docs/reliability.md)."""

from __future__ import annotations

import asyncio
import json
import random
import uuid
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

from .bots import Conn
from .harness import TITLES, hooked, recorded, running, size, unhandled

PAIRS = 40  # per database at CI size; 400 in make test-long
MOVES = 24  # player actions at most per pair
LANES = 8  # pairs driven side by side
DEAL_TRIES = 8


def _seen(state: Any, seq: int, viewer: int | None) -> str:
    return json.dumps(state.envelope(viewer, seq), sort_keys=True)


def _told(before: Any, action: Any, after: Any, seq: int, viewer: int | None) -> str:
    from tianxia.core import CHANCE

    who = before.current_player()
    ev = before.event(action, after).to_json(
        seq, None if who == CHANCE else who, str(action), viewer
    )
    return json.dumps(ev, sort_keys=True)


def _twin_chance(
    a: Any, oa: Any, b: Any, seq: int, viewer: int | None, rng: random.Random
) -> Any | None:
    """B's outcome for A's chance outcome `oa` that V cannot tell from it, another one
    than A's if there is such; None if none keeps V's view."""
    after_a = a.apply_unchecked(oa)
    target = (_seen(after_a, seq, viewer), _told(a, oa, after_a, seq, viewer))
    outcomes = [o for o, p in b.chance_outcomes() if p > 0]
    rng.shuffle(outcomes)
    same = None
    for o in outcomes:
        after_b = b.apply_unchecked(o)
        if (_seen(after_b, seq, viewer), _told(b, o, after_b, seq, viewer)) == target:
            if str(o) != str(oa):
                return o
            same = o
    return same


@dataclass
class Pair:
    title: str
    viewer: int | None
    seed: int
    a: Any  # State
    b: Any
    seq: int
    deal_a: list[str]
    deal_b: list[str]
    differ: bool  # the states differ (hidden from V)
    ended: str = ""
    moves: int = 0
    ids: tuple[str, str] = ("", "")
    secrets: list[list[str]] = field(default_factory=list)  # per game, per seat


def _chance_run(
    p: Pair, a: Any, b: Any, seq: int, rng: random.Random
) -> tuple[Any, Any, int, list[str], list[str]] | None:
    """Resolve chance in both games from seq on, B's outcomes twinned to A's."""
    from tianxia.core import CHANCE
    from tianxia.core.match import sample_chance

    out_a: list[str] = []
    out_b: list[str] = []
    while a.current_player() == CHANCE:
        oa = sample_chance(a, rng)
        ob = _twin_chance(a, oa, b, seq + 1, p.viewer, rng)
        if ob is None:
            return None
        a, b, seq = a.apply_unchecked(oa), b.apply_unchecked(ob), seq + 1
        out_a.append(str(oa))
        out_b.append(str(ob))
    return a, b, seq, out_a, out_b


def make_pair(title: str, rng: random.Random) -> Pair:
    import tianxia

    game = tianxia.load_game(title, players=TITLES[title])
    viewer = rng.choice([None, *range(TITLES[title])])
    seed = rng.getrandbits(48)
    start = game.new_initial_state()
    pair = Pair(title, viewer, seed, start, start, 0, [], [], False)
    for _ in range(DEAL_TRIES):
        dealt = _chance_run(pair, start, start, 0, random.Random(rng.getrandbits(64)))
        if dealt is not None:
            a, b, seq, deal_a, deal_b = dealt
            return Pair(title, viewer, seed, a, b, seq, deal_a, deal_b, deal_a != deal_b)
    raise AssertionError(f"no deal of {title} twinned for viewer {viewer}")


def next_step(p: Pair, rng: random.Random) -> tuple[str, int, list[str], list[str]] | None:
    """The next player action both games take and the chance after it in each, or None
    (and `p.ended` says why) where the pair cannot go on with V's view equal."""
    a, b = p.a, p.b
    mover = a.current_player()
    legal_b = {str(x) for x in b.legal_actions()}
    choices = [x for x in a.legal_actions() if str(x) in legal_b]
    if mover == p.viewer and len(choices) != len(a.legal_actions()):
        p.ended = "V's own legal actions differ"  # the engine would tell V the difference
        return None
    rng.shuffle(choices)
    for x in choices[:6]:
        xb = b.to_action(str(x))
        na, nb = a.apply_unchecked(x), b.apply_unchecked(xb)
        seq = p.seq + 1
        if (_seen(na, seq, p.viewer), _told(a, x, na, seq, p.viewer)) != (
            _seen(nb, seq, p.viewer),
            _told(b, xb, nb, seq, p.viewer),
        ):
            continue
        run = _chance_run(p, na, nb, seq, rng)
        if run is None:
            continue
        p.a, p.b, p.seq, out_a, out_b = run
        if not p.differ and out_a != out_b:
            p.differ = True
        return str(x), mover, out_a, out_b
    p.ended = "no action keeps V's view equal" if choices else "no action legal in both"
    return None


def _store(url: str, p: Pair) -> None:
    """Both games of the pair in the database, dealt, every seat taken."""
    import tianxia
    from tianxia.core import Match
    from tianxia.server.live import state_hash
    from tianxia.server.storage import Row, Store, hash_secret

    store = Store(url)
    try:
        game = tianxia.load_game(p.title, players=TITLES[p.title])
        for gid, deal, secrets in zip(p.ids, (p.deal_a, p.deal_b), p.secrets, strict=True):
            store.create_game(
                gid,
                p.title,
                game.players,
                {},
                game.VERSION,
                p.seed,
                [("human", None)] * game.players,
                None,
            )
            for s in range(game.players):
                store.update_seat(gid, s, name=f"P{s + 1}", secret_hash=hash_secret(secrets[s]))
            m = Match(game, seed=p.seed)
            rows = []
            for i, o in enumerate(deal):
                m.play(o)
                rows.append(Row(i + 1, None, None, o, state_hash(m.state), False))
            if rows:
                store.append(gid, rows, None)
    finally:
        store.close()


def _telling(frames: list[str], seq: object) -> list[str]:
    """The frames that tell the viewer something of the game. A view that brings no new
    seq and no event only says who is connected now: presence is public, and when the
    other seats' sockets open and close differs between the two games of a pair, so it
    is left out of the comparison (and so is each seat's `present` in every view)."""
    out: list[str] = []
    for frame in frames:
        msg = json.loads(frame)
        if msg.get("type") == "view":
            if msg.get("seq") == seq and not msg.get("events"):
                continue
            seq = msg.get("seq")
            for player in [*(msg.get("players") or []), *(msg.get("seats") or [])]:
                player.pop("present", None)
            frame = json.dumps(msg, sort_keys=True)
        out.append(frame)
    return out


async def _drive(base: str, p: Pair, rng: random.Random) -> dict[str, Any]:
    """Play the pair on the server; V's frames in both games, compared."""
    players = TITLES[p.title]
    conns = [
        [await Conn.open(base, gid, secrets[s]) for s in range(players)]
        for gid, secrets in zip(p.ids, p.secrets, strict=True)
    ]
    watch = [
        c[p.viewer] if p.viewer is not None else await Conn.open(base, gid, None)
        for c, gid in zip(conns, p.ids, strict=True)
    ]
    # Frames from here on; the hello views are compared apart.
    hello = [json.dumps(w.view, sort_keys=True) for w in watch]
    for w in watch:
        w.frames = []
    async with httpx.AsyncClient(base_url=base, timeout=30) as http:
        while p.moves < MOVES:
            before = p.seq
            step = next_step(p, rng)
            if step is None:
                break
            action, mover, out_a, out_b = step
            if p.a.is_terminal():
                # The end shows every event whole to everyone: the legitimate reveal.
                p.ended = "the end (every event is shown whole)"
                break
            for gid, outs in zip(p.ids, (out_a, out_b), strict=True):
                if outs:
                    (await http.post(f"/api/test/games/{gid}/chance", json=outs)).raise_for_status()
            aid = uuid.UUID(int=rng.getrandbits(128)).hex
            for g in range(2):
                c = conns[g][mover]
                await c.wait(lambda c=c, before=before: c.view.get("seq") == before)
                await c.send(
                    {"type": "act", "action_id": aid, "expected_seq": before, "action": action}
                )
            for g in range(2):
                (reply,) = await conns[g][mover].answers_to(aid)
                assert reply["type"] == "accepted", reply
                await watch[g].wait(lambda w=watch[g]: w.view.get("seq") == p.seq)
            p.moves += 1
        else:
            p.ended = f"{MOVES} actions"
    for row in conns:
        for c in row:
            await c.close()
    if p.viewer is None:
        for w in watch:
            await w.close()
    frames_a, frames_b = (
        _telling(w.frames or [], json.loads(h).get("seq"))
        for w, h in zip(watch, hello, strict=True)
    )
    differing, ack_hash = [], 0
    for fa, fb in zip(frames_a, frames_b, strict=False):
        if fa == fb:
            continue
        ja, jb = json.loads(fa), json.loads(fb)
        if ja.get("type") == jb.get("type") == "accepted":
            ja.pop("state_hash"), jb.pop("state_hash")
            if ja == jb:
                ack_hash += 1
                continue
        differing.append((fa[:300], fb[:300]))
    if hello[0] != hello[1]:
        differing.append((hello[0][:300], hello[1][:300]))
    if len(frames_a) != len(frames_b):
        n = min(len(frames_a), len(frames_b))
        extra = (frames_a[n:] or frames_b[n:])[0][:300]
        differing.append(
            (f"{len(frames_a)} frames", f"{len(frames_b)} frames, first extra {extra}")
        )
    return {
        "frames": len(frames_a) + 1,
        "differing": differing,
        "ack_hash_differs": ack_hash,
    }


def run_pairs(url: str, folder: Path, count: int, seed: int) -> dict[str, Any]:
    rng = random.Random(seed)
    titles = list(TITLES)
    pairs = []
    for i in range(count):
        p = make_pair(titles[i % len(titles)], random.Random(rng.getrandbits(64)))
        p.ids = (f"ni{i:04d}a", f"ni{i:04d}b")
        p.secrets = [
            [f"ni{i:04d}{g}-{s}-{rng.getrandbits(64):x}" for s in range(TITLES[p.title])]
            for g in "ab"
        ]
        pairs.append(p)
    from tianxia.server.storage import migrate

    migrate(url)
    for p in pairs:
        _store(url, p)
    with running(hooked(url, folder, tap=False)) as server:

        async def main() -> list[dict[str, Any]]:
            queue = list(pairs)
            out: list[dict[str, Any]] = []

            async def lane(sub: random.Random) -> None:
                while queue:
                    p = queue.pop()
                    out.append(await _drive(server.base, p, sub))

            await asyncio.gather(*(lane(random.Random(rng.getrandbits(64))) for _ in range(LANES)))
            return out

        results = asyncio.run(main())
        bad = unhandled(server)
    ended = Counter(p.ended for p in pairs)
    by_title: dict[str, list[int]] = {}
    for p in pairs:
        by_title.setdefault(p.title, []).append(p.moves)
    return {
        "pairs": len(pairs),
        "pairs_whose_states_differ": sum(1 for p in pairs if p.differ),
        "frames_compared": sum(r["frames"] for r in results),
        "frames_differing": sum(len(r["differing"]) for r in results),
        "examples": [d for r in results for d in r["differing"]][:3],
        "acks_whose_state_hash_differs": sum(r["ack_hash_differs"] for r in results),
        "moves_per_pair_by_title": {
            t: {"mean": round(sum(m) / len(m), 1), "max": max(m)} for t, m in by_title.items()
        },
        "pair_ended": dict(ended),
        "unhandled": bad,
    }


def test_a_viewer_cannot_tell_apart_what_it_may_not_see(
    url: str, backend: str, tmp_path: Path
) -> None:
    report = recorded("noninterference", backend, lambda: run_pairs(url, tmp_path, size(PAIRS), 12))
    assert report["pairs"] == size(PAIRS)
    assert report["pairs_whose_states_differ"] >= report["pairs"] // 2, report
    assert report["frames_differing"] == 0, report
    assert report["unhandled"] == 0, report
