"""A finished game's replay reads any step from a match that keeps only some of its
states: each step's view is the one the log's prefix gives, in any order of asking."""

from __future__ import annotations

import json
import random
import time
from pathlib import Path

import httpx
import pytest

import tianxia
from serving import Server

from .conftest import NO_QUOTAS

pytest.importorskip("fastapi")


def test_every_step_of_a_replay_is_the_state_its_log_gives(tmp_path: Path) -> None:
    srv = Server(f"sqlite:///{tmp_path / 'tianxia.sqlite3'}", tmp_path, *NO_QUOTAS, forked=True)
    srv.start()
    try:
        r = httpx.post(
            f"{srv.base}/api/games",
            json={"game": "greatwall", "players": 2, "seats": ["bot:random", "bot:random"]},
            timeout=60,
        )
        assert r.status_code == 201, r.text
        gid = r.json()["id"]
        deadline = time.monotonic() + 120
        while httpx.get(f"{srv.base}/api/games/{gid}", timeout=30).json()["status"] != "finished":
            assert time.monotonic() < deadline, "the bots' game did not end"
            time.sleep(0.2)
        saved = httpx.get(f"{srv.base}/api/games/{gid}/log", timeout=30).json()
        game = tianxia.load_game("greatwall", players=2)
        log = saved["log"]
        assert len(log) > 130  # past two of the match's checkpoints (every 64 actions)
        steps = list(range(len(log) + 1))
        rng = random.Random(5)
        rng.shuffle(steps)
        for step in [*steps[:40], 0, len(log)]:
            got = httpx.get(
                f"{srv.base}/api/games/{gid}/replay", params={"step": step, "seat": 1}, timeout=30
            ).json()
            want = tianxia.replay(game, log[:step]).envelope(1, step)
            assert got["view"] == json.loads(json.dumps(want)), step
    finally:
        srv.stop()
