"""The browser table, measured: from a click that plays a move to the next drawn board
(p50, p95) and the bytes a page receives per move, for every title.

A real server (`tianxia serve`, SQLite) and Debian's Chromium (Playwright, headless):
a person plays seat 1 against easy bots by clicking, as `tests/web/clicking.py` does.
The page marks `tianxia-send` when a move leaves and `tianxia-drawn` at the first frame
after the next board is drawn (User Timing marks in static/table.js).

    .venv/bin/python benchmarks/web/table.py [--moves 30] [--titles china,greatwall]

Bytes are the view messages' JSON as sent; "deflated" is each message compressed on
its own with DEFLATE (what permessage-deflate sends at most: the websocket of uvicorn
and Chromium negotiates it, and with its shared window sends less).
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import statistics
import sys
import tempfile
import time
import zlib
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests"))

TITLES = ["china", "greatwall", "emperor", "mandarin", "silkroad"]


def deflated(text: str) -> int:
    c = zlib.compressobj(6, zlib.DEFLATED, -15)
    return len(c.compress(text.encode()) + c.flush(zlib.Z_SYNC_FLUSH))


def percentile(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, round(q * (len(xs) - 1)))]


def run_title(browser: Any, base: str, title: str, moves: int) -> dict[str, Any]:
    import httpx

    from web.clicking import click_a_move, look, my_turn

    seats = ["open", "bot:easy", "bot:easy"] if title == "china" else ["open", "bot:easy"]
    gid = httpx.post(
        f"{base}/api/games", json={"game": title, "players": len(seats), "seats": seats}
    ).json()["id"]
    secret = httpx.post(f"{base}/api/games/{gid}/join", json={"seat": 0, "name": "Anna"}).json()[
        "secret"
    ]
    ctx = browser.new_context(viewport={"width": 1280, "height": 900})
    page = ctx.new_page()
    frames: list[str] = []

    def on_ws(ws: Any) -> None:
        ws.on(
            "framereceived",
            lambda payload: frames.append(payload) if isinstance(payload, str) else None,
        )

    page.on("websocket", on_ws)
    page.goto(f"{base}/?lang=en")
    page.evaluate(
        "([g, s]) => localStorage.setItem('tianxia.seats', JSON.stringify({[g]: {0: s}}))",
        [gid, secret],
    )
    page.goto(f"{base}/games/{gid}?lang=en")
    page.wait_for_selector(".board-wrap svg")
    rng = random.Random(1)
    latencies: list[float] = []
    start_seq = None
    for _ in range(moves * 40):
        if len(latencies) >= moves:
            break
        seen = look(page)
        if seen["over"]:
            break
        if not my_turn(page, seen):
            page.wait_for_timeout(20)
            continue
        if start_seq is None:
            start_seq = page.evaluate("conns.get(shown).view.seq")
        if not click_a_move(page, rng, seen):
            continue
        try:
            page.wait_for_function(
                "() => performance.getEntriesByName('tianxia-send').length &&"
                " performance.getEntriesByName('tianxia-drawn').length",
                timeout=10000,
            )
        except Exception:
            continue
        ms = page.evaluate(
            "() => performance.getEntriesByName('tianxia-drawn')[0].startTime -"
            " performance.getEntriesByName('tianxia-send')[0].startTime"
        )
        latencies.append(float(ms))
    end_seq = page.evaluate("conns.get(shown) ? conns.get(shown).view.seq : 0")
    ctx.close()
    views = [f for f in frames if f.startswith('{"type":"view"')]
    raw = sum(len(f.encode()) for f in views)
    packed = sum(deflated(f) for f in views)
    played = max(1, end_seq - (start_seq or 0))
    return {
        "title": title,
        "clicks": len(latencies),
        "p50_ms": round(percentile(latencies, 0.5), 1) if latencies else None,
        "p95_ms": round(percentile(latencies, 0.95), 1) if latencies else None,
        "views": len(views),
        "moves": played,
        "bytes_per_move": round(raw / played),
        "deflated_per_move": round(packed / played),
        "largest_view": max((len(f.encode()) for f in views), default=0),
        "mean_view": round(statistics.mean(len(f.encode()) for f in views)) if views else 0,
    }


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--moves", type=int, default=30)
    ap.add_argument("--titles", default=",".join(TITLES))
    ap.add_argument("--out", type=Path, default=None)
    args = ap.parse_args()
    from playwright.sync_api import sync_playwright

    from serving import Server

    folder = Path(tempfile.mkdtemp())
    srv = Server(f"sqlite:///{folder / 'bench.sqlite3'}", folder)
    srv.start()
    rows = []
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(
                executable_path="/usr/bin/chromium", args=["--no-sandbox", "--disable-gpu"]
            )
            for title in args.titles.split(","):
                row = run_title(browser, srv.base, title, args.moves)
                print(json.dumps(row), flush=True)
                rows.append(row)
            browser.close()
    finally:
        srv.stop()
    record = {
        "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
        "machine": f"{platform.node()} {platform.machine()} {platform.processor() or ''}".strip(),
        "python": platform.python_version(),
        "rows": rows,
    }
    if args.out:
        args.out.write_text(json.dumps(record, indent=1) + "\n")


if __name__ == "__main__":
    main()
