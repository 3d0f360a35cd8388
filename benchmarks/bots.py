"""Strength and speed of the bots per game (issue 8); results go to benchmarks/bots/.

    .venv/bin/python benchmarks/bots.py                      # every game, full targets
    .venv/bin/python benchmarks/bots.py china --games 20 --search-games 10 --time-limit 0.2

Each game is measured at its smallest and a typical player count: greedy against random,
ismcts at --time-limit seconds a move against greedy, and ismcts simulations per second
at the first decision and mid-game. Runs are long: one process unless --workers says more.
Every finished measurement is appended to `results.json` and `results.md` in --out.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from dataclasses import asdict
from pathlib import Path
from typing import Any

import tianxia
from tianxia.play.benchmark import (
    open_report,
    save_report,
    search_speed,
    strength,
    typical_players,
)

OUT = Path(__file__).parent / "bots"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("names", nargs="*", metavar="GAME", help="games (default: every game)")
    parser.add_argument("--games", type=int, default=100, help="games of greedy vs random")
    parser.add_argument("--search-games", type=int, default=100, help="games of ismcts vs greedy")
    parser.add_argument("--time-limit", type=float, default=1.0, help="ismcts seconds a move")
    parser.add_argument("--players", type=int, nargs="*", help="player counts (default: typical)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--out", type=Path, default=OUT)
    parser.add_argument(
        "--runs", type=Path, default=None, help="tournament logs and charts (default: OUT/runs)"
    )
    args = parser.parse_args(argv)
    names = args.names or tianxia.list_games()
    args.out.mkdir(parents=True, exist_ok=True)
    store = args.out / "results.json"
    report, run = open_report(
        store,
        settings={k: v for k, v in vars(args).items() if k not in ("out", "runs")},
        strength=[],
        speed=[],
    )
    for name in names:
        for n in args.players or typical_players(name):
            game = tianxia.load_game(name, players=n)
            speed = search_speed(game, args.time_limit, seed=args.seed)
            run["speed"].append({"game": name, "players": n, **speed})
            _say(
                f"{name} {n}p ismcts sims/s: first {speed['first']['per_second']:.0f}, "
                f"mid {speed['mid']['per_second']:.0f}"
            )
            _save(store, report)
            pairings = [("greedy", "random", args.games)]
            if args.search_games > 0:
                bot = f"ismcts:time_limit={args.time_limit}"
                pairings.append((bot, "greedy", args.search_games))
            for bot, opponent, games in pairings:
                started = time.perf_counter()
                row, result = strength(game, bot, opponent, games, args.seed, args.workers)
                entry = asdict(row) | {"wall_seconds": time.perf_counter() - started}
                run["strength"].append(entry)
                runs = args.runs or args.out / "runs"
                result.save(runs / f"{name}-{n}p-{bot.split(':')[0]}")
                _say(
                    f"{name} {n}p {bot} vs {opponent}: {row.win_rate:.0%} of seats won, "
                    f"{row.share_ratio:.2f}x fair ({row.target}: "
                    f"{'met' if row.met else 'MISSED'}), {entry['wall_seconds']:.0f}s"
                )
                _save(store, report)
    return 0


def _say(text: str) -> None:
    print(text, flush=True)


def _save(store: Path, report: dict[str, Any]) -> None:
    save_report(store, report, markdown(report))


def markdown(report: dict[str, Any]) -> str:
    """Every run's figures as Markdown tables."""
    out = []
    for run in report["runs"]:
        out.append(f"## Run of {run['date']}\n")
        out.append(f"Machine: `{run['machine']}`, {run['cores']} cores, Python {run['python']}.")
        out.append(f"Settings: `{json.dumps(run['settings'])}`\n")
        out.append(
            "| game | players | bot | vs | games | wins | win % | × fair | target | met "
            "| s/move | sims/s |"
        )
        out.append("|---|---|---|---|---|---|---|---|---|---|---|---|")
        for r in run["strength"]:
            sims = f"{r['simulations_per_second']:.0f}" if r["simulations_per_second"] else "-"
            out.append(
                f"| {r['game']} | {r['players']} | {r['bot']} | {r['opponent']} | {r['games']} "
                f"| {r['wins']:g} | {100 * r['win_rate']:.0f} | {r['share_ratio']:.2f} "
                f"| {r['target']} | {'yes' if r['met'] else 'no'} "
                f"| {r['seconds_per_move']:.3f} | {sims} |"
            )
        out.append("\n| game | players | sims/s first decision (legal) | sims/s mid-game (legal) |")
        out.append("|---|---|---|---|")
        for s in run["speed"]:
            f, m = s["first"], s["mid"]
            out.append(
                f"| {s['game']} | {s['players']} | {f['per_second']:.0f} ({f['legal_actions']}) "
                f"| {m['per_second']:.0f} ({m['legal_actions']}) |"
            )
        out.append("")
    return "\n".join(out) + "\n"


if __name__ == "__main__":
    sys.exit(main())
