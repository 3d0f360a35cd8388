"""Strength and speed of the bots per game (issue 8); results go to benchmarks/bots/.

    .venv/bin/python benchmarks/bots.py                      # every game, full targets
    .venv/bin/python benchmarks/bots.py china --games 20 --time-limit 0.2 --workers 1

Each game is measured at its smallest and a typical player count: greedy against random,
ismcts at --time-limit seconds a move against greedy, and ismcts simulations per second
at the first decision and mid-game. Runs are long: one process unless --workers says more.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import platform
import sys
import time
from dataclasses import asdict
from pathlib import Path

import tianxia
from tianxia.play.benchmark import search_speed, strength, typical_players

OUT = Path(__file__).parent / "bots"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games_", nargs="*", metavar="GAME", help="games (default: every game)")
    parser.add_argument("--games", type=int, default=100, help="games per pairing")
    parser.add_argument("--time-limit", type=float, default=1.0, help="ismcts seconds a move")
    parser.add_argument("--players", type=int, nargs="*", help="player counts (default: 2)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--skip-ismcts", action="store_true", help="greedy and speed only")
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args(argv)
    names = args.games_ or tianxia.list_games()
    args.out.mkdir(parents=True, exist_ok=True)
    stamp = dt.datetime.now(dt.UTC).strftime("%Y-%m-%dT%H:%MZ")
    report: dict[str, object] = {
        "date": stamp,
        "machine": " ".join(platform.uname()),
        "python": platform.python_version(),
        "settings": {k: v for k, v in vars(args).items() if k != "out"} | {"out": str(args.out)},
        "strength": [],
        "speed": [],
    }
    for name in names:
        for n in args.players or typical_players(name):
            game = tianxia.load_game(name, players=n)
            started = time.perf_counter()
            speed = search_speed(game, args.time_limit, seed=args.seed)
            report["speed"].append({"game": name, "players": n, **speed})  # type: ignore[attr-defined]
            print(
                f"{name} {n}p ismcts sims/s: first {speed['first']['per_second']:.0f}, "
                f"mid {speed['mid']['per_second']:.0f}",
                flush=True,
            )
            pairings = [("greedy", "random")]
            if not args.skip_ismcts:
                pairings.append((f"ismcts:time_limit={args.time_limit}", "greedy"))
            for bot, opponent in pairings:
                row, result = strength(game, bot, opponent, args.games, args.seed, args.workers)
                report["strength"].append(asdict(row))  # type: ignore[attr-defined]
                result.save(args.out / "runs" / f"{name}-{n}p-{bot.split(':')[0]}")
                print(
                    f"{name} {n}p {bot} vs {opponent}: {row.win_rate:.0%} of seats won, "
                    f"{row.share_ratio:.2f}x fair ({row.target}: "
                    f"{'met' if row.met else 'MISSED'}), {time.perf_counter() - started:.0f}s",
                    flush=True,
                )
            path = args.out / f"results-{stamp[:10]}.json"
            path.write_text(json.dumps(report, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
