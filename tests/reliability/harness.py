"""What the reliability harnesses share: sizes, servers with test hooks, clients over
real websockets, the stored log read back, and the JSON summaries.

Sizes are the CI sizes of docs/reliability.md times ``TIANXIA_RELIABILITY_SCALE``
(default 1; `make test-long` sets the nightly factor). Every figure a summary reports is
what ran.
"""

from __future__ import annotations

import datetime
import json
import os
import platform
import re
import sqlite3
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx

from serving import Server, free_port, reset_postgres

ROOT = Path(__file__).resolve().parents[2]
RUNS = ROOT / "runs" / "reliability"
SCALE = float(os.environ.get("TIANXIA_RELIABILITY_SCALE", "1"))
TITLES = {"china": 3, "greatwall": 2, "emperor": 2, "mandarin": 2, "silkroad": 2}
# What an unhandled exception or a crash leaves in a server's output.
TRACE = re.compile(r"Traceback \(most recent call last\)|Exception in ASGI|^ERROR", re.M)


def size(ci: int) -> int:
    """The count to run: the CI size times the scale, at least 1."""
    return max(1, round(ci * SCALE))


def database(backend: str, folder: Path, postgres: str | None) -> str:
    if backend == "sqlite":
        return f"sqlite:///{folder / 'tianxia.sqlite3'}"
    assert postgres is not None
    reset_postgres(postgres)
    return postgres


def hooked(url: str, folder: Path, tap: bool = True, fixed_port: bool = False) -> Server:
    """A server with the test hooks on (and its tap writing to `folder/tap.jsonl`)."""
    env = {"TIANXIA_TEST_HOOKS": "1"}
    if tap:
        env["TIANXIA_TEST_TAP"] = str(folder / "tap.jsonl")
    # Forked from a warm parent: a start costs a few tenths of a second, not seconds,
    # and the crash and duplicates harnesses start servers dozens of times.
    # No quotas: a harness makes many games from one address (its attacks are on what a
    # stranger may do within them).
    return Server(
        url,
        folder,
        "--games-per-minute",
        "0",
        "--open-games",
        "0",
        "--connections-per-address",
        "0",
        env=env,
        port=free_port() if fixed_port else 0,
        forked=True,
    )


@contextmanager
def running(server: Server) -> Iterator[Server]:
    server.start()
    try:
        yield server
    finally:
        server.stop()


def unhandled(server: Server) -> int:
    """Tracebacks and ASGI errors in everything the server wrote."""
    return len(TRACE.findall(server.output()))


def rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def ws_url(base: str, game_id: str) -> str:
    return base.replace("http", "ws", 1) + f"/ws/games/{game_id}"


def new_game(
    base: str, game: str, players: int, seats: list[str] | None = None
) -> tuple[str, list[str]]:
    """A game with every open seat taken: its id and the seats' secrets (open seats only)."""
    plan = seats or ["open"] * players
    r = httpx.post(f"{base}/api/games", json={"game": game, "players": players, "seats": plan})
    r.raise_for_status()
    gid = str(r.json()["id"])
    secrets = []
    for seat, kind in enumerate(plan):
        if kind == "open":
            j = httpx.post(
                f"{base}/api/games/{gid}/join", json={"seat": seat, "name": f"P{seat + 1}"}
            )
            j.raise_for_status()
            secrets.append(str(j.json()["secret"]))
    return gid, secrets


def server_state(base: str, game_id: str) -> dict[str, Any]:
    """The referee's window (a test hook): seq, state hash, status."""
    r = httpx.get(f"{base}/api/test/games/{game_id}", timeout=30)
    r.raise_for_status()
    return dict(r.json())


def sqlite_ok(url: str) -> bool | None:
    """SQLite's `PRAGMA integrity_check` on a database no server holds (None: not SQLite)."""
    if not url.startswith("sqlite:///"):
        return None
    con = sqlite3.connect(url[len("sqlite:///") :])
    try:
        return bool(con.execute("PRAGMA integrity_check").fetchone()[0] == "ok")
    finally:
        con.close()


@dataclass
class Tap:
    scanned: int
    leaks: list[dict[str, Any]]
    kinds: dict[str, int]


def read_tap(folder: Path) -> Tap:
    path = folder / "tap.jsonl"
    scanned, leaks = 0, []
    kinds: dict[str, int] = {}
    if path.exists():
        with path.open() as f:
            for line in f:
                rec = json.loads(line)
                if rec["kind"] == "leak":
                    leaks.append(rec)
                else:
                    scanned += 1
                    kinds[rec["kind"]] = kinds.get(rec["kind"], 0) + 1
    return Tap(scanned, leaks, kinds)


def recorded(harness: str, backend: str, run: Callable[[], dict[str, Any]]) -> dict[str, Any]:
    """Run a harness, keep its figures (`write_summary`, timed) and return them."""
    started = time.monotonic()
    report = run()
    write_summary(harness, backend, report, started)
    return report


def write_summary(harness: str, backend: str, figures: dict[str, Any], started: float) -> Path:
    """`runs/reliability/<harness>-<backend>.json`: the figures with sizes, time, machine."""
    RUNS.mkdir(parents=True, exist_ok=True)
    data = {
        "harness": harness,
        "backend": backend,
        "scale": SCALE,
        "seconds": round(time.monotonic() - started, 1),
        "date": datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"),
        "machine": f"{platform.machine()}, {os.cpu_count()} cores, {platform.python_implementation()} {platform.python_version()}",
        **figures,
    }
    path = RUNS / f"{harness}-{backend}.json"
    path.write_text(json.dumps(data, indent=2) + "\n")
    return path


@dataclass
class Stored:
    """One game as the database holds it, replayed through the engine."""

    game: str
    status: str
    rows: list[Any]  # tianxia.server.storage.Row, live rows in seq order
    replay_mismatch: int | None  # the first seq whose stored hash the replay does not give
    terminal: bool


def read_back(url: str) -> dict[str, Stored]:
    """Every game of a database no server holds, its log replayed from its seed."""
    from tianxia.core import Match
    from tianxia.server.live import state_hash
    from tianxia.server.storage import Store

    store = Store(url)
    out = {}
    try:
        for row in store.list_games():
            rows = store.log(row["id"])
            game = _game(row["game"], row["players"], row["options"], row["rules_version"])
            match = Match(game, seed=row["seed"])
            mismatch = None
            for r in rows:
                match.play(r.action)
                if mismatch is None and state_hash(match.state) != r.state_hash:
                    mismatch = r.seq
            out[row["id"]] = Stored(
                row["game"], row["status"], rows, mismatch, match.state.is_terminal()
            )
    finally:
        store.close()
    return out


_games: dict[tuple[str, int, str, int], Any] = {}


def _game(name: str, players: int, options: str, version: int) -> Any:
    """The variant as the server plays it: an older rules version under the options
    that keep its rules."""
    import tianxia
    from tianxia.core.registry import game_class

    key = (name, players, options, version)
    if key not in _games:
        kept = game_class(name).options_of_version(version, json.loads(options))
        _games[key] = tianxia.load_game(name, players=players, **kept)
    return _games[key]
