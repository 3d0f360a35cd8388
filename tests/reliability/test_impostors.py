"""Impostors: every message type, over the websocket and the lobby, sent with the wrong
credentials: seat A's secret while seat B decides, a spectator, no hello, a forged
secret, another game's secret, a secret whose seat changed hands, and forged ids in the
payload. None may be accepted, and the game's state hash must not move."""

from __future__ import annotations

import json
import time
import uuid
from pathlib import Path
from typing import Any

import httpx
from websockets.sync.client import connect

from .harness import (
    TITLES,
    hooked,
    new_game,
    running,
    server_state,
    unhandled,
    write_summary,
    ws_url,
)

ACCEPTED = {"accepted", "undone", "chat"}


class _Socket:
    def __init__(self, base: str, gid: str) -> None:
        self._cm = connect(ws_url(base, gid), ping_interval=None, open_timeout=10)
        self.ws = self._cm.__enter__()

    def ask(self, msg: dict[str, Any]) -> dict[str, Any]:
        """Send and return the first answer that is not a view."""
        self.ws.send(json.dumps(msg))
        while True:
            reply: dict[str, Any] = json.loads(self.ws.recv(timeout=10))
            if reply["type"] != "view":
                return reply

    def hello(self, **fields: Any) -> dict[str, Any]:
        self.ws.send(json.dumps({"type": "hello", **fields}))
        reply: dict[str, Any] = json.loads(self.ws.recv(timeout=10))
        return reply

    def close(self) -> None:
        self._cm.__exit__(None, None, None)


def _messages(seq: int, action: str) -> dict[str, dict[str, Any]]:
    aid = uuid.uuid4().hex
    return {
        "act": {"type": "act", "action_id": aid, "expected_seq": seq, "action": action},
        "undo": {"type": "undo", "action_id": aid + "u", "expected_seq": seq},
        "chat": {"type": "chat", "text": "I am someone else"},
    }


def _matrix(base: str, title: str) -> dict[str, dict[str, str]]:
    """Each (credential, message) cell: the answer's type and code."""
    players = TITLES[title]
    gid, secrets = new_game(base, title, players)
    other_gid, other_secrets = new_game(base, title, players)
    # A seat that changed hands: joined, left before the start, taken by someone else.
    plan = ["open"] * players
    r = httpx.post(f"{base}/api/games", json={"game": title, "players": players, "seats": plan})
    moved = r.json()["id"]
    old = httpx.post(f"{base}/api/games/{moved}/join", json={"seat": 0}).json()["secret"]
    httpx.post(f"{base}/api/games/{moved}/leave", json={"secret": old}).raise_for_status()
    for seat in range(players):
        httpx.post(f"{base}/api/games/{moved}/join", json={"seat": seat}).raise_for_status()

    state = server_state(base, gid)
    mover = state["to_move"]
    idle = (mover + 1) % players
    view = _view_of(base, gid, secrets[mover])
    action = view["legal"][0]["action"]
    seq = view["seq"]
    out: dict[str, dict[str, str]] = {}

    def cell(name: str, sock: _Socket, forge: dict[str, Any] | None = None) -> None:
        for kind, msg in _messages(seq, action).items():
            if kind == "chat" and name.startswith("seat A"):
                continue  # A's chat is A speaking, not an impostor
            if forge:
                msg = {**msg, **forge}
            reply = sock.ask(msg)
            out.setdefault(name, {})[kind] = f"{reply['type']}:{reply.get('code', '')}"

    s = _Socket(base, gid)
    s.hello(secret=secrets[idle])
    cell("seat A while B decides (act, undo)", s)
    s.close()
    s = _Socket(base, gid)
    s.hello(spectator=True)
    cell("spectator", s)
    s.close()
    s = _Socket(base, gid)
    cell("no hello", s)
    s.close()
    for name, secret in (
        ("forged secret", "x" * 22),
        ("another game's secret", other_secrets[0]),
        ("secret of a seat that changed hands", old),
    ):
        target = moved if name.startswith("secret of a seat") else gid
        s = _Socket(base, target)
        reply = s.hello(secret=secret)
        out.setdefault(name, {})["hello"] = f"{reply['type']}:{reply.get('code', '')}"
        cell(name, s)
        s.close()
    for name, forge in (
        ("forged seat in the payload", {"seat": mover}),
        ("forged game id in the payload", {"game_id": other_gid}),
        ("forged secret in the payload", {"secret": secrets[mover]}),
    ):
        s = _Socket(base, gid)
        s.hello(secret=secrets[idle])
        cell(name, s, forge)
        s.close()
    s = _Socket(base, gid)
    reply = s.hello(secret=secrets[idle], seat=mover)
    out.setdefault("hello naming another seat", {})["hello"] = (
        f"{reply['type']}:{reply.get('code', '')}"
    )
    s.close()
    # The lobby's seat-bound requests.
    for name, body in (
        ("forged secret", {"secret": "x" * 22}),
        ("another game's secret", {"secret": other_secrets[0]}),
        ("no secret", {}),
        ("forged seat in the payload", {"secret": "x" * 22, "seat": mover}),
    ):
        for path in ("resign", "leave"):
            r = httpx.post(f"{base}/api/games/{gid}/{path}", json=body)
            out.setdefault(name, {})[f"http {path}"] = f"http:{r.status_code}"
    for path in ("resign", "leave"):
        r = httpx.post(f"{base}/api/games/{moved}/{path}", json={"secret": old})
        out["secret of a seat that changed hands"][f"http {path}"] = f"http:{r.status_code}"
    after = server_state(base, gid)
    assert after["state_hash"] == state["state_hash"], (title, out)
    summary = httpx.get(f"{base}/api/games/{gid}").json()
    assert not any(s["resigned"] for s in summary["seats"]), summary
    moved_summary = httpx.get(f"{base}/api/games/{moved}").json()
    assert not any(s["resigned"] for s in moved_summary["seats"]), moved_summary
    assert moved_summary["status"] == "running", moved_summary
    return out


def _view_of(base: str, gid: str, secret: str) -> dict[str, Any]:
    s = _Socket(base, gid)
    view = s.hello(secret=secret)
    s.close()
    return view


def test_no_impostor_is_accepted(url: str, backend: str, tmp_path: Path) -> None:
    started = time.monotonic()
    cells = attempts = accepted = 0
    answers: dict[str, dict[str, str]] = {}
    with running(hooked(url, tmp_path, tap=False)) as server:
        for title in TITLES:
            matrix = _matrix(server.base, title)
            for cred, row in matrix.items():
                for kind, answer in row.items():
                    cells += 1
                    attempts += 1
                    ok = answer.split(":")[0] in ACCEPTED or answer in ("http:200",)
                    accepted += ok
                    answers.setdefault(cred, {})[kind] = answer
        bad = unhandled(server)
    report = {
        "titles": len(TITLES),
        "cells_per_title": cells // len(TITLES),
        "attempts": attempts,
        "accepted": accepted,
        "unhandled": bad,
        "answers": answers,
    }
    write_summary("impostors", backend, report, started)
    assert accepted == 0, answers
    assert bad == 0
