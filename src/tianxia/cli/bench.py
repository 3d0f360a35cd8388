"""`tianxia bench`: how fast each game runs, against OpenSpiel's reference games.

For every game: random-playout steps and playouts per second through the public API
(`legal_actions` + `apply`), the cost of one `apply` and one `legal_actions` on fresh
states, and the peak memory of one playout. When `open_spiel` is installed the same
loop runs over its pure-Python tic-tac-toe and its C++ chess in the same process, and
each game's rate is printed as a ratio to tic-tac-toe's.

Every figure but memory is measured `--repeats` times; the table shows the median and
how far the slowest and fastest repeat were from it, and `--record` keeps each repeat.
Times are the process's CPU time, so a machine shared with other work slows every row
alike instead of the row that happened to run during a busy spell; the ratios compare
figures of the same run. The title says which engine modules ran compiled
(`tianxia.compiled()`), since the same code runs at very different speeds either way.
"""

from __future__ import annotations

import json
import random
import statistics
import time
import tracemalloc
from pathlib import Path
from typing import Any

import typer
from rich import box
from rich.console import Console
from rich.table import Table

import tianxia
from tianxia import _native as native
from tianxia.cli.app import app
from tianxia.core import CHANCE, Action, Game, State, choose_outcome, sample_chance
from tianxia.core.registry import game_class
from tianxia.machine import machine


def random_playouts(game: Game, seconds: float, seed: int = 0) -> dict[str, float]:
    """Random playouts for `seconds`: steps/s and playouts/s (whole playouts only)."""
    rng = random.Random(seed)
    steps = playouts = 0
    start = time.process_time()
    deadline = start + seconds
    while True:
        s = game.new_initial_state()
        n = 0
        while not s.is_terminal():
            if s.current_player() == CHANCE:
                a = sample_chance(s, rng)
            else:
                a = rng.choice(s.legal_actions())
            s = s.apply(a)
            n += 1
        steps += n
        playouts += 1
        if time.process_time() >= deadline:
            break
    elapsed = time.process_time() - start
    return {
        "steps_per_s": steps / elapsed,
        "playouts_per_s": playouts / elapsed,
        "mean_length": steps / playouts,
        "playouts": playouts,
    }


def _sample_pairs(game: Game, count: int, seed: int) -> list[tuple[State, Action]]:
    rng = random.Random(seed)
    pairs: list[tuple[State, Action]] = []
    while len(pairs) < count:
        s = game.new_initial_state()
        while not s.is_terminal() and len(pairs) < count:
            a = (
                sample_chance(s, rng)
                if s.current_player() == CHANCE
                else rng.choice(s.legal_actions())
            )
            pairs.append((s, a))
            s = s.apply(a)
    return pairs


def operation_costs(game: Game, count: int = 2000, seed: int = 1) -> dict[str, float]:
    """Mean microseconds of `apply` (checked) and of `legal_actions` on a fresh state."""
    pairs = _sample_pairs(game, count, seed)
    t0 = time.process_time()
    fresh = [s.apply(a) for s, a in pairs]
    t1 = time.process_time()
    for s in fresh:
        s.legal_actions()
    t2 = time.process_time()
    return {"apply_us": 1e6 * (t1 - t0) / count, "legal_actions_us": 1e6 * (t2 - t1) / count}


def peak_memory_kib(game: Game, seed: int = 2) -> float:
    """Peak traced memory (KiB) over one random playout, history kept as a match would."""
    rng = random.Random(seed)
    tracemalloc.start()
    try:
        s = game.new_initial_state()
        history = [s]
        while not s.is_terminal():
            a = (
                sample_chance(s, rng)
                if s.current_player() == CHANCE
                else rng.choice(s.legal_actions())
            )
            s = s.apply(a)
            history.append(s)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    return peak / 1024


def search_positions(game: Game, count: int, seed: int) -> list[State]:
    """Up to `count` positions with a choice, spread over one seeded random playout, so
    that a search measured on them mixes openings, middle games and ends."""
    rng = random.Random(seed)
    states: list[State] = []
    s = game.new_initial_state()
    while not s.is_terminal():
        if s.current_player() == CHANCE:
            a = sample_chance(s, rng)
        else:
            if len(s.legal_actions()) > 1:
                states.append(s)
            a = rng.choice(s.legal_actions())
        s = s.apply(a)
    step = max(1, len(states) // count)
    return states[::step][:count]


def ismcts_rate(
    game: Game, simulations: int, decisions: int = 6, seed: int = 3
) -> dict[str, float]:
    """IS-MCTS simulations per CPU second over `decisions` seeded positions of one game.

    The positions are taken along a seeded random playout, spread over its length, so
    the figure mixes openings, middle games and ends; the bot searches each for exactly
    `simulations` simulations with its default options.
    """
    from tianxia.bots.ismcts import ISMCTSBot

    chosen = search_positions(game, decisions, seed)
    if not chosen:
        return {"simulations_per_s": 0.0, "decisions": 0}
    start = time.process_time()
    for i, s in enumerate(chosen):
        ISMCTSBot(game, s.current_player(), seed=seed + i, simulations=simulations).act(s)
    elapsed = time.process_time() - start
    return {
        "simulations_per_s": simulations * len(chosen) / elapsed,
        "decisions": len(chosen),
    }


def openspiel_playouts(name: str, seconds: float, seed: int = 0) -> dict[str, float] | None:
    """The same random-playout loop over an OpenSpiel game; None without open_spiel."""
    try:
        import pyspiel
        from open_spiel.python.games import tic_tac_toe  # noqa: F401  (registers python_*)
    except ImportError:
        return None
    game = pyspiel.load_game(name)
    rng = random.Random(seed)
    steps = playouts = 0
    start = time.process_time()
    deadline = start + seconds
    while True:
        s = game.new_initial_state()
        n = 0
        while not s.is_terminal():
            if s.is_chance_node():
                a = choose_outcome(s.chance_outcomes(), rng)
            else:
                a = rng.choice(s.legal_actions())
            s.apply_action(a)
            n += 1
        steps += n
        playouts += 1
        if time.process_time() >= deadline:
            break
    elapsed = time.process_time() - start
    return {"steps_per_s": steps / elapsed, "playouts_per_s": playouts / elapsed}


def run_bench(
    names: list[str],
    seconds: float,
    players: int | None = None,
    repeats: int = 3,
    largest: bool = False,
    ismcts: int = 0,
) -> dict[str, Any]:
    """Measure every game `repeats` times for `seconds` each; the figures are the medians.

    Each row keeps its per-repeat figures under ``"repeats"`` and the slowest and fastest
    steps/s under ``"steps_per_s_min"`` and ``"steps_per_s_max"``. `largest` plays each
    game at its largest player count (`players` at that count, else its smallest);
    `ismcts` > 0 also measures IS-MCTS at that many simulations a decision.
    """
    if repeats < 1:
        raise ValueError(f"repeats must be at least 1, not {repeats}")
    games = {
        name: tianxia.load_game(name, players=game_class(name).MAX_PLAYERS if largest else players)
        for name in names
    }
    runs: dict[str, list[dict[str, float]]] = {name: [] for name in names}
    spiel_runs: dict[str, list[dict[str, float]]] = {name: [] for name in OPENSPIEL_GAMES}
    # Repeats go round every game in turn rather than one game at a time, so that a
    # slow spell of a shared machine spreads over all the games instead of biasing one.
    for _ in range(repeats):
        for name in OPENSPIEL_GAMES:
            figures = openspiel_playouts(name, seconds)
            if figures is not None:
                spiel_runs[name].append(figures)
        for name, game in games.items():
            run = random_playouts(game, seconds)
            run.update(operation_costs(game))
            runs[name].append(run)
    results: dict[str, Any] = {
        "machine": machine(),
        "compiled": list(tianxia.compiled()),
        "engine": native.summary(),
        "seconds": seconds,
        "repeats": repeats,
        "games": {},
        "openspiel": {name: _summary(r) if r else None for name, r in spiel_runs.items()},
    }
    ttt = results["openspiel"]["python_tic_tac_toe"]
    chess = results["openspiel"]["chess"]
    for name, game in games.items():
        row: dict[str, Any] = {"players": game.players, **_summary(runs[name])}
        row["peak_kib"] = peak_memory_kib(game)
        if ttt:
            row["ratio_to_python_ttt"] = row["steps_per_s"] / ttt["steps_per_s"]
        if chess:
            row["ratio_to_chess"] = row["steps_per_s"] / chess["steps_per_s"]
        if ismcts:
            row["ismcts"] = ismcts_rate(game, ismcts)
        results["games"][name] = row
    if ttt and chess:
        chess["ratio_to_python_ttt"] = chess["steps_per_s"] / ttt["steps_per_s"]
    return results


OPENSPIEL_GAMES = ("python_tic_tac_toe", "chess")
_OPENSPIEL_LABELS = {"python_tic_tac_toe": "OpenSpiel ttt", "chess": "OpenSpiel chess"}


def _summary(runs: list[dict[str, float]]) -> dict[str, Any]:
    """Medians of the repeats, the range of steps/s, and the repeats themselves."""
    out: dict[str, Any] = {
        key: statistics.median(r[key] for r in runs)
        for key in runs[0]
        if key not in ("playouts", "mean_length")
    }
    steps = [r["steps_per_s"] for r in runs]
    out["steps_per_s_min"] = min(steps)
    out["steps_per_s_max"] = max(steps)
    if "mean_length" in runs[0]:
        playouts = sum(r["playouts"] for r in runs)
        out["playouts"] = playouts
        out["mean_length"] = sum(r["mean_length"] * r["playouts"] for r in runs) / playouts
    out["repeats"] = runs
    return out


def _spread(row: dict[str, Any]) -> str:
    """The slowest and fastest repeat against the median, in percent: ``-3/+5%``."""
    median = row["steps_per_s"]
    low = 100 * (row["steps_per_s_min"] / median - 1)
    high = 100 * (row["steps_per_s_max"] / median - 1)
    return f"{low:+.0f}/{high:+.0f}%"


def render(results: dict[str, Any]) -> Table:
    """The results as a table that fits 80 columns; the rest is in the `--record` JSON."""
    m = results["machine"]
    repeats = results.get("repeats", 1)
    table = Table(
        title=(
            f"tianxia bench: median of {repeats} × {results['seconds']:g} s CPU per game; "
            f"{results.get('engine', 'engine not recorded')}"
        ),
        caption=(
            f"{m['date']}; {m['cpu']}, {m['cores']} cores; Python {m['python']}. "
            "range: the slowest and fastest repeat against the median. "
            "apply µs, legal µs: one apply, one legal_actions on a fresh state. "
            "KiB: peak memory of one playout. "
            "× ttt, × chess: steps/s over OpenSpiel's Python tic-tac-toe, C++ chess "
            "(playouts/s in --record)."
        ),
        # One space between columns (the box's own) is what lets nine columns fit 80.
        box=box.SIMPLE_HEAD,
        show_edge=False,
        padding=0,
        pad_edge=False,
    )
    for col in ("game", "p", "steps/s", "range", "apply µs", "legal µs", "KiB", "× ttt"):
        table.add_column(col, justify="left" if col == "game" else "right", no_wrap=True)
    table.add_column("× chess", justify="right", no_wrap=True)
    for name, r in results["games"].items():
        ratio = r.get("ratio_to_python_ttt")
        to_chess = r.get("ratio_to_chess")
        table.add_row(
            name,
            str(r["players"]),
            f"{r['steps_per_s']:,.0f}",
            _spread(r),
            f"{r['apply_us']:.1f}",
            f"{r['legal_actions_us']:.1f}",
            f"{r['peak_kib']:,.0f}",
            f"{ratio:.2f}" if ratio is not None else "-",
            f"{to_chess:.2f}" if to_chess is not None else "-",
        )
    for name, r in results["openspiel"].items():
        if r:
            ratio = r.get("ratio_to_python_ttt", 1.0 if name == "python_tic_tac_toe" else None)
            table.add_row(
                _OPENSPIEL_LABELS.get(name, name),
                "2",
                f"{r['steps_per_s']:,.0f}",
                _spread(r),
                "",
                "",
                "",
                f"{ratio:.2f}" if ratio is not None else "",
                "1.00" if name == "chess" else "",
            )
    return table


def render_ismcts(results: dict[str, Any], simulations: int) -> Table:
    """IS-MCTS simulations per CPU second per game."""
    table = Table(
        title=f"IS-MCTS: {simulations} simulations a decision, seeded positions",
        box=box.SIMPLE_HEAD,
        show_edge=False,
    )
    for col in ("game", "p", "simulations/s", "decisions"):
        table.add_column(col, justify="left" if col == "game" else "right", no_wrap=True)
    for name, r in results["games"].items():
        ism = r.get("ismcts")
        if ism:
            table.add_row(
                name, str(r["players"]), f"{ism['simulations_per_s']:,.0f}", str(ism["decisions"])
            )
    return table


@app.command()
def bench(
    game: list[str] = typer.Option([], "--game", "-g", help="games to measure (default: all)"),
    seconds: float = typer.Option(
        3.0, "--seconds", help="playout time per game, split over the repeats"
    ),
    repeats: int = typer.Option(
        3, "--repeats", "-r", help="measurements per game; the table shows their median"
    ),
    players: int = typer.Option(
        0, "--players", "-p", help="player count (default: each game's smallest)"
    ),
    largest: bool = typer.Option(
        False, "--largest", help="each game at its largest player count (instead of -p)"
    ),
    ismcts: int = typer.Option(
        0,
        "--ismcts",
        help="also measure IS-MCTS simulations per CPU second at this many per decision",
    ),
    record: Path | None = typer.Option(
        None, "--record", help="also write the results as JSON here"
    ),
    interfaces: bool = typer.Option(
        False, "--interfaces", help="also measure OpenSpiel, PettingZoo and Gymnasium (extra rl)"
    ),
    server: bool = typer.Option(
        False, "--server", help="measure the game server under websocket load (extra server)"
    ),
    loads: str = typer.Option("10,100,500", "--loads", help="with --server: games at once"),
    processes: str = typer.Option(
        "",
        "--processes",
        help="with --server: server process counts to compare, e.g. 1,2,4, each behind "
        "nginx on one PostgreSQL (needs --database and Debian's nginx)",
    ),
    database: str = typer.Option(
        "",
        "--database",
        help="with --processes: a PostgreSQL server (postgresql+psycopg://...) where the "
        "bench may create and drop a database of its own for each run",
    ),
) -> None:
    """Measure every game's speed (and OpenSpiel's, when installed)."""
    if server:
        if processes:
            _bench_processes(processes, database, loads, seconds, record)
        else:
            _bench_server(loads, seconds, record)
        return
    names = game or tianxia.list_games()
    if seconds <= 0:
        raise typer.BadParameter("--seconds must be positive")
    if repeats < 1:
        raise typer.BadParameter("--repeats must be at least 1")
    if ismcts < 0:
        raise typer.BadParameter("--ismcts must be 0 (off) or a number of simulations")
    results = run_bench(names, seconds / repeats, players or None, repeats, largest, ismcts)
    console = Console()
    console.print(render(results))
    if ismcts:
        console.print(render_ismcts(results, ismcts))
    if interfaces:
        try:
            from tianxia.adapters import bench as interface_bench
        except ImportError as e:
            raise typer.BadParameter(f"--interfaces needs the extra 'rl' ({e})") from e
        results["interfaces"] = {}
        for name in names:
            result = interface_bench.run(name, seconds, players or None)
            results["interfaces"][name] = result
            console.print(interface_bench.to_markdown(result))
    if record is not None:
        record.parent.mkdir(parents=True, exist_ok=True)
        record.write_text(json.dumps(results, indent=1) + "\n", encoding="utf-8")


def _counts(text: str, option: str) -> tuple[int, ...]:
    try:
        counts = tuple(int(x) for x in text.split(",") if x.strip())
    except ValueError:
        raise typer.BadParameter(f"{option} is a comma list of counts, not {text!r}") from None
    if not counts or min(counts) < 1:
        raise typer.BadParameter(f"{option} needs at least one positive count")
    return counts


def _bench_processes(
    processes: str, database: str, loads: str, seconds: float, record: Path | None
) -> None:
    try:
        from tianxia.server import bench as server_bench
    except ImportError as e:
        raise typer.BadParameter(f"--server needs the extra 'server' ({e})") from e
    counts = _counts(processes, "--processes")
    games = _counts(loads, "--loads")
    if not database.startswith("postgresql"):
        raise typer.BadParameter(
            "--processes needs --database postgresql+psycopg://...: SQLite serves one process"
        )
    if server_bench.nginx_binary() is None:
        raise typer.BadParameter("--processes needs Debian's nginx (apt-get install nginx-light)")
    result = server_bench.run_processes(database, counts, games, seconds)
    typer.echo(server_bench.processes_markdown(result))
    if record is not None:
        record.parent.mkdir(parents=True, exist_ok=True)
        record.write_text(json.dumps(result, indent=1) + "\n", encoding="utf-8")


def _bench_server(loads: str, seconds: float, record: Path | None) -> None:
    try:
        from tianxia.server import bench as server_bench
    except ImportError as e:
        raise typer.BadParameter(f"--server needs the extra 'server' ({e})") from e
    try:
        counts = tuple(int(x) for x in loads.split(",") if x.strip())
    except ValueError:
        raise typer.BadParameter(f"--loads is a comma list of game counts, not {loads!r}") from None
    if not counts or min(counts) < 1:
        raise typer.BadParameter("--loads needs at least one positive game count")
    result = server_bench.run(counts, seconds)
    Console().print(server_bench.to_markdown(result))
    if record is not None:
        record.parent.mkdir(parents=True, exist_ok=True)
        record.write_text(json.dumps(result, indent=1) + "\n", encoding="utf-8")
