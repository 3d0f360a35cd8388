"""Issue 19's lines: our bots against OpenSpiel's IS-MCTS and the field, with intervals.

    .venv/bin/python benchmarks/bots/lines.py                       # the full size (hours)
    .venv/bin/python benchmarks/bots/lines.py greatwall --games 12 --players 2 --workers 2
    .venv/bin/python benchmarks/bots/lines.py --ray HEAD:6379       # on a Ray cluster
    .venv/bin/python benchmarks/bots/lines.py china --players 3 --ours rollout_depth=end

Per game and player count (the smallest and a typical one), with seats rotated and one
bot against the other entrant in every other seat:

- `vs-os-random`: ismcts against OpenSpiel's ISMCTSBot with random rollouts to the end,
  both at --simulations a move;
- `vs-os-hook`: the same against OpenSpiel's ISMCTSBot with our hook after 4 random steps;
- `vs-os-time`: ismcts given, as a time limit, OpenSpiel's (hook) measured seconds per
  search in `vs-os-hook`, against it at --simulations (equal time per move);
- `vs-os-random-time`: the same against OpenSpiel with random rollouts, its seconds per
  search measured in `vs-os-random`;
- `greedy-random`, `ismcts-greedy`: the targets of issue 8, ismcts at --simulations.

Targets: 60% of games (two seats) or 1.5 times the fair share (more) against OpenSpiel;
80% / 2x for greedy against random, 65% / 1.6x for ismcts against greedy. Every win rate
has its 95% Wilson interval (ties count half a win, or a share of one). Each line is a
tournament with a journal under --runs, so an interrupted run resumes where it stopped.
Results are appended to `lines.json` and `lines.md` next to this script; `lines.md`
opens with the standing, each line at its largest run (the latest of equal size) under
the game's current evaluation hook: a game's search room declares `HOOK_VERSION` (1 when
it does not), every row records it, and a journal made under one hook is never resumed
under another (its folder name carries the version from 2 on). A line replayed whole from
its journal (an equal-simulation line rerun to time OpenSpiel for its equal-time line) is
printed but adds no second row.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import math
import os
import sys
import time
from pathlib import Path
from typing import Any

import tianxia
from tianxia.play import Tournament
from tianxia.play.benchmark import open_report, save_report, typical_players
from tianxia.play.tournament import Journal

HERE = Path(__file__).parent
LINES = (
    "greedy-random",
    "ismcts-greedy",
    "vs-os-random",
    "vs-os-hook",
    "vs-os-time",
    "vs-os-random-time",
)
# An equal-time line and the equal-simulation line that times OpenSpiel's search for it.
TIMED_BY = {"vs-os-time": "vs-os-hook", "vs-os-random-time": "vs-os-random"}
TARGETS = {
    "greedy-random": (0.80, 2.0),
    "ismcts-greedy": (0.65, 1.6),
    "vs-os-random": (0.60, 1.5),
    "vs-os-hook": (0.60, 1.5),
    "vs-os-time": (0.60, 1.5),
    "vs-os-random-time": (0.60, 1.5),
}


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of a proportion `wins / n`."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def entrants(
    line: str, sims: int, per_search: float | None, extra: str = "", bot: str = "ismcts"
) -> tuple[str, str]:
    """Our entrant and its opponent in `line`; `extra` adds options to ours (`a=1:b=2`),
    `bot` names ours with any options of its own (`learned:path=w.npz`)."""
    more = f":{extra}" if extra else ""
    ours = f"{bot}:simulations={sims}{more}"
    theirs = f"openspiel-ismcts:simulations={sims}"
    if line == "greedy-random":
        return "greedy", "random"
    if line == "ismcts-greedy":
        return ours, "greedy"
    if line == "vs-os-random":
        return ours, f"{theirs}:rollouts=random"
    if line == "vs-os-hook":
        return ours, f"{theirs}:rollouts=hook"
    # An equal-time line meets the opponent of the line that timed that opponent's search.
    assert per_search is not None and line in TIMED_BY
    _, opponent = entrants(TIMED_BY[line], sims, None)
    return f"{bot}:time_limit={per_search:.4f}{more}", opponent


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("names", nargs="*", metavar="GAME", help="games (default: every game)")
    parser.add_argument("--lines", nargs="*", default=list(LINES), choices=LINES)
    parser.add_argument("--games", type=int, default=100, help="games a line")
    parser.add_argument("--simulations", type=int, default=200)
    parser.add_argument(
        "--ours",
        default="",
        metavar="OPTIONS",
        help="options added to our ismcts, e.g. rollout_depth=end (journals kept apart)",
    )
    parser.add_argument(
        "--bot",
        default="ismcts",
        metavar="SPEC",
        help="our entrant in place of ismcts, e.g. learned:path=w.npz (journals kept apart)",
    )
    parser.add_argument("--players", type=int, nargs="*", help="player counts (default: typical)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--ray", nargs="?", const="local", default=None, metavar="ADDRESS")
    parser.add_argument("--runs", type=Path, default=HERE / "runs")
    parser.add_argument("--out", type=Path, default=HERE)
    args = parser.parse_args(argv)
    for line in args.lines:
        if line in TIMED_BY and TIMED_BY[line] not in args.lines:
            parser.error(f"{line} needs {TIMED_BY[line]} in --lines: it times OpenSpiel's search")
    args.lines = sorted(set(args.lines), key=LINES.index)
    args.out.mkdir(parents=True, exist_ok=True)
    store = args.out / "lines.json"
    _, run = open_report(
        store,
        command=" ".join(["benchmarks/bots/lines.py", *(argv or sys.argv[1:])]),
        id=f"{os.getpid()}-{time.time_ns()}",
        rows=[],
    )
    with contextlib.ExitStack() as stack:
        pool = None
        if args.ray is not None:
            from tianxia.play.cluster import RayPool

            pool = stack.enter_context(RayPool(args.ray, cpus=args.workers))
        for name in args.names or tianxia.list_games():
            for n in args.players or typical_players(name):
                game = tianxia.load_game(name, players=n)
                hook = hook_version(game)
                # OpenSpiel's seconds per search, by the equal-simulation line that timed it
                timed: dict[str, float] = {}
                for line in args.lines:
                    per_search = timed.get(TIMED_BY.get(line, ""))
                    if line in TIMED_BY and per_search is None:
                        print(f"{name} {n}p {line}: not run, OpenSpiel's search untimed")
                        continue
                    bot, opponent = entrants(
                        line, args.simulations, per_search, args.ours, args.bot
                    )
                    started = time.perf_counter()
                    plan = Tournament(game, [bot, opponent], args.games, seed=args.seed)
                    variant = args.ours.replace(":", "-").replace("=", "-")
                    if args.bot != "ismcts":
                        ours = args.bot.replace(":", "-").replace("=", "-").replace("/", "_")
                        variant = f"{ours}-{variant}" if variant else ours
                    folder = args.runs / "-".join(
                        [
                            f"{name}-{n}p-{line}",
                            *([variant] if variant else []),
                            *([f"hook{hook}"] if hook > 1 else []),
                        ]
                    )
                    journal = folder / "games.jsonl"
                    # a line its journal already holds whole was recorded by the run that
                    # finished it; replaying it (to time OpenSpiel again) adds no second row
                    replayed = len(Journal(journal, plan).load()) >= args.games
                    result = plan.run(workers=args.workers, journal=journal, pool=pool)
                    result.save(folder)
                    mine, other = result.standings
                    if line in TIMED_BY.values() and other.simulations:
                        searches = other.simulations / args.simulations
                        timed[line] = other.search_seconds / searches
                    goal2, goal_more = TARGETS[line]
                    low, high = wilson(mine.wins, mine.seat_games)
                    row = {
                        "game": name,
                        "players": n,
                        "line": line,
                        "hook": hook,
                        "bot": bot,
                        "opponent": opponent,
                        "games": args.games,
                        "seat_games": mine.seat_games,
                        "wins": mine.wins,
                        "win_rate": mine.win_rate,
                        "low": low,
                        "high": high,
                        "share_ratio": mine.share_ratio,
                        "target": f">= {goal2:.0%}" if n == 2 else f">= {goal_more}x fair",
                        "met": mine.win_rate >= goal2 if n == 2 else mine.share_ratio >= goal_more,
                        "bot_ms_per_move": 1000 * mine.seconds_per_decision,
                        "bot_sims_per_second": mine.simulations_per_second,
                        "opponent_ms_per_move": 1000 * other.seconds_per_decision,
                        "opponent_sims_per_second": other.simulations_per_second,
                        "wall_seconds": time.perf_counter() - started,
                    }
                    if replayed:
                        print(f"{_row_text(row)} (replayed from its journal)", flush=True)
                        continue
                    run["rows"].append(row)
                    print(_row_text(row), flush=True)
                    _save(store, run)
    return 0


def _save(store: Path, run: dict[str, Any]) -> None:
    """This run written into the report as it is on disk now, not as it was when the run
    began: two runs at once share the files, and the later save must keep the other's rows."""
    report = json.loads(store.read_text(encoding="utf-8")) if store.exists() else {"runs": []}
    runs = report["runs"]
    mine = next((i for i, r in enumerate(runs) if r.get("id") == run["id"]), None)
    if mine is None:
        runs.append(run)
    else:
        runs[mine] = run
    save_report(store, report, markdown(report))


def _row_text(r: dict[str, Any]) -> str:
    return (
        f"{r['game']} {r['players']}p {r['line']}: {r['bot']} vs {r['opponent']}: "
        f"{r['wins']:g}/{r['seat_games']} = {r['win_rate']:.0%} "
        f"[{r['low']:.0%}, {r['high']:.0%}], {r['share_ratio']:.2f}x fair "
        f"({r['target']}: {'met' if r['met'] else 'MISSED'}), {r['wall_seconds']:.0f}s"
    )


def hook_version(game: tianxia.Game) -> int:
    """The version of `game`'s evaluation hook (1 for a hook never changed)."""
    return int(getattr(game.search, "HOOK_VERSION", 1))


def standing(report: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    """Each line (game, player count, line) at its largest run under the latest hook the
    line was run with, the latest of equal size, with that run's date: what the lines say
    now, when runs were repeated or extended, or the game's hook changed."""
    best: dict[tuple[str, int, str], tuple[int, int, int, str, dict[str, Any]]] = {}
    for order, run in enumerate(report["runs"]):
        for r in run["rows"]:
            key = (r["game"], r["players"], r["line"])
            rank = (r.get("hook", 1), r["games"], order)
            if key not in best or rank >= best[key][:3]:
                best[key] = (*rank, run["date"], r)
    games = tianxia.list_games()

    def place(key: tuple[str, int, str]) -> tuple[int, int, int]:
        name, n, line = key
        known = games.index(name) if name in games else len(games)
        return known, n, LINES.index(line) if line in LINES else len(LINES)

    return [(best[k][3], best[k][4]) for k in sorted(best, key=place)]


def _table_row(r: dict[str, Any]) -> str:
    p = r["players"]
    return (
        f"| {r['game']} | {p} | {r['line']} | {r.get('hook', 1)} | `{r['bot']}` | `{r['opponent']}` "
        f"| {r['games']} | {100 * r['win_rate']:.0f} [{100 * r['low']:.0f}, "
        f"{100 * r['high']:.0f}] | {r['share_ratio']:.2f} [{p * r['low']:.2f}, "
        f"{p * r['high']:.2f}] | {r['target']} | {'yes' if r['met'] else 'no'} "
    )


def markdown(report: dict[str, Any]) -> str:
    """The standing of every line, then every run, as Markdown tables."""
    out = [
        "## Standing: every line at its largest run\n",
        "| game | p | line | hook | bot | vs | games | win % [95% CI] | × fair [95% CI] | target "
        "| met | run of |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    out += [f"{_table_row(r)}| {date} |" for date, r in standing(report)]
    out.append("")
    for run in report["runs"]:
        out.append(f"## Run of {run['date']}\n")
        out.append(f"Machine: `{run['machine']}`, {run['cores']} cores, Python {run['python']}.")
        out.append(f"Command: `{run['command']}`\n")
        out.append(
            "| game | p | line | hook | bot | vs | games | win % [95% CI] | × fair [95% CI] | target "
            "| met | bot ms/move | bot sims/s | vs ms/move | vs sims/s |"
        )
        out.append("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
        for r in run["rows"]:
            out.append(
                f"{_table_row(r)}| {r['bot_ms_per_move']:.0f} | {r['bot_sims_per_second']:.0f} "
                f"| {r['opponent_ms_per_move']:.0f} | {r['opponent_sims_per_second']:.0f} |"
            )
        out.append("")
    return "\n".join(out) + "\n"


if __name__ == "__main__":
    sys.exit(main())
