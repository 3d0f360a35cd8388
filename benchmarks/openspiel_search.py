"""Milliseconds per move of OpenSpiel's search bots through our adapter, with a profile.

    .venv/bin/python benchmarks/openspiel_search.py                 # every game, 200 sims
    .venv/bin/python benchmarks/openspiel_search.py greatwall --profile --simulations 100

Each game (smallest player count, or --players) is played at random from a few seeds; at a handful of
real decisions along the way (processor time, so that other work on a shared machine
counts less) `openspiel-ismcts` and `openspiel-mcts` (hook rollouts, and
random rollouts for `openspiel-ismcts`) each choose a move. With --profile, the share of
the search spent in information-state strings, clones and deep copies is printed too.
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import random
import sys
import time

import tianxia
import tianxia.bots
from tianxia.core import Match, State

BOTS = (
    "openspiel-ismcts:rollouts=random",
    "openspiel-ismcts:rollouts=hook",
    "openspiel-mcts:rollouts=hook",
)
# Where the search's time goes, by the functions that pay for it.
PARTS = {
    "information-state strings": ("information_state_string", "string_from"),
    "clones": ("clone",),
    "deep copies": ("deepcopy",),
}


def decisions(name: str, count: int, seed: int, players: int | None = None) -> list[State]:
    """`count` states with a real choice, spread over the first half of seeded random games."""
    game = tianxia.load_game(name, players=players)
    found: list[State] = []
    k = 0
    while len(found) < 4 * count and k < 20:
        match = Match(game, seed=seed + k)
        chooser = random.Random(seed + k)
        seen: list[State] = []
        while True:
            match.resolve_chance()
            if match.state.is_terminal():
                break
            legal = match.state.legal_actions()
            if len(legal) > 1:
                seen.append(match.state)
            match.play(chooser.choice(legal))
        found += seen[: max(1, len(seen) // 2)]
        k += 1
    step = max(1, len(found) // count)
    return found[::step][:count]


def ms_per_move(spec: str, states: list[State], simulations: int) -> float:
    from tianxia.play.runner import BotSpec

    bot_spec = BotSpec.parse(spec)
    options = {**bot_spec.options, "simulations": simulations}
    # Processor time, not wall time: the machines this runs on are shared.
    start = time.process_time()
    for i, s in enumerate(states):
        bot = tianxia.bots.make(bot_spec.name, s.game, s.current_player(), i, **options)
        bot.act(s)
    return 1000 * (time.process_time() - start) / len(states)


def shares(stats: pstats.Stats) -> dict[str, float]:
    """Cumulative seconds of each part, as a share of the whole run."""
    table = stats.stats  # type: ignore[attr-defined]
    total = max(ct for (_, _, _), (_, _, _, ct, _) in table.items())
    out = {}
    for part, names in PARTS.items():
        # A part's outermost calls only: nested ones are inside their caller's time.
        seconds = 0.0
        for (_, _, func), (_, _, _, ct, callers) in table.items():
            if any(n in func for n in names) and not any(
                any(n in f for n in names) for (_, _, f) in callers
            ):
                seconds += ct
        out[part] = seconds / total
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("names", nargs="*", metavar="GAME")
    parser.add_argument("--simulations", type=int, default=200)
    parser.add_argument("--moves", type=int, default=4, help="decisions measured per game")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--players", type=int, default=None, help="seats (default: smallest)")
    parser.add_argument("--profile", action="store_true")
    parser.add_argument("--bots", nargs="*", default=list(BOTS), help="bot specs measured")
    args = parser.parse_args(argv)
    for name in args.names or tianxia.list_games():
        states = decisions(name, args.moves, args.seed, args.players)
        for spec in args.bots:
            ms = ms_per_move(spec, states, args.simulations)
            line = f"{name} {spec} {args.simulations} sims: {ms:.0f} ms/move"
            if args.profile:
                profile = cProfile.Profile()
                profile.runcall(ms_per_move, spec, states, args.simulations)
                parts = shares(pstats.Stats(profile))
                line += "; " + ", ".join(f"{p} {100 * v:.0f}%" for p, v in parts.items())
            print(line, flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
