"""The learned search against `ismcts` at equal time per move, with Wilson intervals.

    .venv/bin/python benchmarks/bots/learned.py greatwall --players 2 --games 40 --seconds 0.1
    .venv/bin/python benchmarks/bots/learned.py greatwall --learned path=w.npz:hook=0.25

Each line is a tournament (seats rotated, the same deals for every line of one seed)
between `learned` with the given options and `ismcts` with the game's defaults, both
limited to `--seconds` a move, so the comparison is at equal time whatever either does
with it. `--lines` picks lines: `weights` (the shipped or given network, leaf values
blended with the hook as the bot's default), `prior` (the network's prior, the hook's
values alone: `hook=1`), `untrained` (the guided search with a uniform prior and the
hook: what training starts from). Targets as in the issue: 60% at two seats, 1.5x the
fair share at more. Rows are appended to `learned.json` and `learned.md` beside this
script, with the machine, its load and the date; journals under --runs resume a line.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
import time
from pathlib import Path
from typing import Any

import tianxia
from tianxia.bots.learned import weights_path
from tianxia.play import Tournament
from tianxia.play.benchmark import open_report, save_report

sys.path.insert(0, str(Path(__file__).parent))
from lines import wilson

HERE = Path(__file__).parent
LINES = ("weights", "prior", "untrained")


def entrant(line: str, seconds: float, weights: Path, extra: str) -> str:
    """The learned entrant of `line`."""
    more = f":{extra}" if extra else ""
    if line == "untrained":
        return f"learned:path=none:time_limit={seconds}{more}"
    hook = ":hook=1" if line == "prior" else ""
    return f"learned:path={weights}:time_limit={seconds}{hook}{more}"


def markdown(report: dict[str, Any]) -> str:
    lines = [
        "# The learned search against ismcts at equal time per move",
        "",
        "Written by `benchmarks/bots/learned.py`; win rates with 95% Wilson intervals,"
        " ties counted half.",
        "",
        "| date | machine, load | game | players | line | learned | opponent | games "
        "| win % [95%] | share x fair | target | met | learned sims/s | ismcts sims/s |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for run in report["runs"]:
        for r in run["rows"]:
            p = r["players"]
            lines.append(
                f"| {run['date']} | {run['cores']} cores, load {run.get('load', '?')} "
                f"| {r['game']} | {p} | {r['line']} | `{r['bot']}` | `{r['opponent']}` "
                f"| {r['games']} | {100 * r['win_rate']:.0f} [{100 * r['low']:.0f}, "
                f"{100 * r['high']:.0f}] | {r['share_ratio']:.2f} | {r['target']} "
                f"| {'yes' if r['met'] else 'no'} | {r['bot_sims_per_second']:.0f} "
                f"| {r['opponent_sims_per_second']:.0f} |"
            )
    lines += ["", "Runs (date, machine, Python, load averages over 1, 5, 15 minutes, command):", ""]
    for run in report["runs"]:
        lines.append(
            f"- {run['date']}: {run['machine']}, {run['cores']} cores, Python {run['python']}, "
            f"load {run.get('load', '?')}: `{run['command']}`"
        )
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("name", metavar="GAME")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--seconds", type=float, default=0.1, help="time per move, both")
    parser.add_argument("--lines", nargs="*", default=["weights"], choices=LINES)
    parser.add_argument("--weights", type=Path, default=None, help="default: the shipped file")
    parser.add_argument("--learned", default="", metavar="OPTIONS", help="more learned options")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--runs", type=Path, default=HERE / "runs")
    parser.add_argument("--out", type=Path, default=HERE)
    args = parser.parse_args(argv)
    game = tianxia.load_game(args.name, players=args.players)
    weights = args.weights or weights_path(game)
    # Rows name the file as the repository does, not as this machine's folders do.
    with contextlib.suppress(ValueError):
        weights = weights.resolve().relative_to(Path.cwd())
    store = args.out / "learned.json"
    report, run = open_report(
        store,
        command=" ".join(["benchmarks/bots/learned.py", *(argv or sys.argv[1:])]),
        load=" ".join(f"{x:.1f}" for x in os.getloadavg()),
        rows=[],
    )
    for line in args.lines:
        bot = entrant(line, args.seconds, weights, args.learned)
        opponent = f"ismcts:time_limit={args.seconds}"
        started = time.perf_counter()
        plan = Tournament(game, [bot, opponent], args.games, seed=args.seed)
        tag = f"{args.name}-{args.players}p-{line}-{args.seconds}s"
        if args.learned:
            tag += "-" + args.learned.replace(":", "-").replace("=", "-").replace("/", "_")
        folder = args.runs / "learned" / tag
        result = plan.run(workers=args.workers, journal=folder / "games.jsonl")
        mine, other = result.standings
        low, high = wilson(mine.wins, mine.seat_games)
        n = args.players
        row = {
            "game": args.name,
            "players": n,
            "line": line,
            "bot": bot,
            "opponent": opponent,
            "games": args.games,
            "seat_games": mine.seat_games,
            "wins": mine.wins,
            "win_rate": mine.win_rate,
            "low": low,
            "high": high,
            "share_ratio": mine.share_ratio,
            "target": ">= 60%" if n == 2 else ">= 1.5x fair",
            "met": mine.win_rate >= 0.6 if n == 2 else mine.share_ratio >= 1.5,
            "bot_sims_per_second": mine.simulations_per_second,
            "opponent_sims_per_second": other.simulations_per_second,
            "wall_seconds": time.perf_counter() - started,
        }
        run["rows"].append(row)
        save_report(store, report, markdown(report))
        print(
            f"{args.name} {n}p {line}: {mine.wins:g}/{mine.seat_games} = {mine.win_rate:.0%} "
            f"[{low:.0%}, {high:.0%}] against {opponent} "
            f"({'met' if row['met'] else 'missed'}), {row['wall_seconds']:.0f}s",
            flush=True,
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
