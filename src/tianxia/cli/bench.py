"""`tianxia bench`: how fast each game runs, against OpenSpiel's reference games.

For every game: random-playout steps and playouts per second through the public API
(`legal_actions` + `apply`), the cost of one `apply` and one `legal_actions` on fresh
states, and the peak memory of one playout. When `open_spiel` is installed the same
loop runs over its pure-Python tic-tac-toe and its C++ chess in the same process, and
each game's rate is printed as a ratio to tic-tac-toe's.
"""

from __future__ import annotations

import json
import random
import time
import tracemalloc
from pathlib import Path
from typing import Any

import typer
from rich.console import Console
from rich.table import Table

import tianxia
from tianxia.cli.app import app
from tianxia.core import CHANCE, Action, Game, State, choose_outcome, sample_chance
from tianxia.machine import machine


def random_playouts(game: Game, seconds: float, seed: int = 0) -> dict[str, float]:
    """Random playouts for `seconds`: steps/s and playouts/s (whole playouts only)."""
    rng = random.Random(seed)
    steps = playouts = 0
    start = time.perf_counter()
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
        if time.perf_counter() >= deadline:
            break
    elapsed = time.perf_counter() - start
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
    t0 = time.perf_counter()
    fresh = [s.apply(a) for s, a in pairs]
    t1 = time.perf_counter()
    for s in fresh:
        s.legal_actions()
    t2 = time.perf_counter()
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
    start = time.perf_counter()
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
        if time.perf_counter() >= deadline:
            break
    elapsed = time.perf_counter() - start
    return {"steps_per_s": steps / elapsed, "playouts_per_s": playouts / elapsed}


def run_bench(names: list[str], seconds: float, players: int | None = None) -> dict[str, Any]:
    results: dict[str, Any] = {"machine": machine(), "seconds": seconds, "games": {}}
    ttt = openspiel_playouts("python_tic_tac_toe", seconds)
    chess = openspiel_playouts("chess", seconds)
    results["openspiel"] = {"python_tic_tac_toe": ttt, "chess": chess}
    for name in names:
        cls_game = tianxia.load_game(name, players=players)
        row: dict[str, Any] = {"players": cls_game.players}
        row.update(random_playouts(cls_game, seconds))
        row.update(operation_costs(cls_game))
        row["peak_kib"] = peak_memory_kib(cls_game)
        if ttt:
            row["ratio_to_python_ttt"] = row["steps_per_s"] / ttt["steps_per_s"]
        results["games"][name] = row
    return results


def render(results: dict[str, Any]) -> Table:
    table = Table(
        title=f"tianxia bench ({results['machine']['date']}, {results['machine']['cpu']})"
    )
    cols = (
        "game",
        "players",
        "steps/s",
        "playouts/s",
        "mean length",
        "apply µs",
        "legal µs",
        "peak KiB",
        "× py-ttt",
    )
    for c in cols:
        table.add_column(c, justify="right")
    for name, r in results["games"].items():
        ratio = r.get("ratio_to_python_ttt")
        table.add_row(
            name,
            str(r["players"]),
            f"{r['steps_per_s']:,.0f}",
            f"{r['playouts_per_s']:,.1f}",
            f"{r['mean_length']:.0f}",
            f"{r['apply_us']:.1f}",
            f"{r['legal_actions_us']:.1f}",
            f"{r['peak_kib']:,.0f}",
            f"{ratio:.2f}" if ratio is not None else "-",
        )
    for name, r in results["openspiel"].items():
        if r:
            table.add_row(
                f"open_spiel {name}",
                "2",
                f"{r['steps_per_s']:,.0f}",
                f"{r['playouts_per_s']:,.1f}",
                "",
                "",
                "",
                "",
                "",
            )
    return table


@app.command()
def bench(
    game: list[str] = typer.Option([], "--game", "-g", help="games to measure (default: all)"),
    seconds: float = typer.Option(3.0, "--seconds", help="playout time per game"),
    players: int = typer.Option(
        0, "--players", "-p", help="player count (default: each game's smallest)"
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
) -> None:
    """Measure every game's speed (and OpenSpiel's, when installed)."""
    if server:
        _bench_server(loads, seconds, record)
        return
    names = game or tianxia.list_games()
    if seconds <= 0:
        raise typer.BadParameter("--seconds must be positive")
    results = run_bench(names, seconds, players or None)
    console = Console()
    console.print(render(results))
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
