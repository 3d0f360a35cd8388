"""Resident memory per finished game held in memory, with the match's states bounded
(`tianxia.core.match.History`) and, for comparison, with every state kept beside it (what
`Match.history` was, a list of every state).

Run: `.venv/bin/python benchmarks/server/match_memory.py [--games N] [--record FILE]`.
Each title with four players plays N seeded random games to the end; the
matches are kept (as a server keeps games in memory), with every event read once as a
spectator (as a server's views do), and the growth of the process's resident memory is
divided by N. Each title and mode runs in a fresh process so that one's freed memory
does not serve another's.
"""

from __future__ import annotations

import argparse
import datetime
import gc
import json
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

TITLES = {"china": 4, "emperor": 4, "greatwall": 4, "mandarin": 4, "silkroad": 4}


def _rss_kib() -> int:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def measure(title: str, players: int, games: int, every_state: bool) -> dict[str, Any]:
    import tianxia
    from tianxia.core.constants import CHANCE
    from tianxia.core.match import Match, sample_chance

    game = tianxia.load_game(title, players=players)
    held: list[Any] = []

    def play(seed: int) -> tuple[Match, list[Any]]:
        m = Match(game, seed=seed)
        rng = random.Random(seed)
        # The very states the match goes through, as the old `history` list held them.
        states = [m.state] if every_state else []
        while not m.state.is_terminal():
            if m.state.current_player() == CHANCE:
                m.play(sample_chance(m.state, m.rng))
            else:
                m.play(rng.choice(m.state.legal_actions()))
            if every_state:
                states.append(m.state)
        m.events_for(None)
        return m, states

    play(10_000)  # data, caches and code paths built outside the count
    gc.collect()
    before = _rss_kib()
    lengths = []
    for seed in range(games):
        m, states = play(seed)
        lengths.append(m.seq)
        held.append((m, states))
    gc.collect()
    after = _rss_kib()
    return {
        "title": title,
        "players": players,
        "games": games,
        "mean_actions": round(sum(lengths) / len(lengths)),
        "every_state_kept": every_state,
        "kib_per_game": round((after - before) / games),
    }


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--record", type=Path)
    ap.add_argument("--one", nargs=3, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.one:
        title, players, every = args.one
        print(json.dumps(measure(title, int(players), args.games, every == "1")))
        return
    from tianxia.machine import machine

    rows = []
    for title, players in TITLES.items():
        for every in ("1", "0"):
            out = subprocess.run(
                [
                    sys.executable,
                    __file__,
                    "--games",
                    str(args.games),
                    "--one",
                    title,
                    str(players),
                    every,
                ],
                check=True,
                capture_output=True,
                text=True,
            ).stdout
            rows.append(json.loads(out.strip().splitlines()[-1]))
            print(rows[-1], flush=True)
    result = {
        "date": datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"),
        "machine": machine(),
        "rows": rows,
    }
    if args.record:
        args.record.parent.mkdir(parents=True, exist_ok=True)
        args.record.write_text(json.dumps(result, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
