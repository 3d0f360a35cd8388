"""The `tianxia` command, driven through typer's test runner."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import Result
from rich.cells import cell_len
from rich.console import Console
from typer.testing import CliRunner

import tianxia
from tianxia.cli.app import app
from tianxia.cli.main import _load_commands
from tianxia.core import Match

_load_commands()
runner = CliRunner()


def test_games_lists_every_registered_game() -> None:
    out = runner.invoke(app, ["games"])
    assert out.exit_code == 0, out.output
    assert "highcard" in out.output


def test_simulate_reports_and_saves_logs(tmp_path: Path) -> None:
    out = runner.invoke(
        app,
        ["simulate", "highcard", "-n", "6", "-p", "3", "--seed", "4", "--log-dir", str(tmp_path)],
    )
    assert out.exit_code == 0, out.output
    assert "mean score" in out.output
    files = sorted(tmp_path.glob("*.json"))
    assert len(files) == 6
    replayed = runner.invoke(app, ["replay", str(files[0]), "--board"])
    assert replayed.exit_code == 0, replayed.output
    assert "final returns" in replayed.output


def test_simulate_is_reproducible(tmp_path: Path) -> None:
    for d in ("a", "b"):
        runner.invoke(
            app, ["simulate", "highcard", "-n", "3", "--seed", "9", "--log-dir", str(tmp_path / d)]
        )
    for f in (tmp_path / "a").glob("*.json"):
        assert json.loads(f.read_text()) == json.loads((tmp_path / "b" / f.name).read_text())


def test_bad_game_and_options_give_clear_errors() -> None:
    out = runner.invoke(app, ["simulate", "nosuchgame"])
    assert out.exit_code != 0 and "no game called" in out.output
    out = runner.invoke(app, ["simulate", "highcard", "-o", "swaps"])
    assert out.exit_code != 0 and "name=value" in out.output


def test_replay_of_a_broken_file_fails_cleanly(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text('{"game": "highcard", "players": 2, "log": ["deal 1", "deal 1"]}')
    out = runner.invoke(app, ["replay", str(bad)])
    assert out.exit_code == 1 and "cannot replay" in out.output
    assert "entry 2" in out.output


def play(*args: str, keys: str = "") -> Result:
    return runner.invoke(app, ["play", "highcard", *args], input=keys)


def test_play_refuses_then_accepts_and_finishes(tmp_path: Path) -> None:
    save = tmp_path / "g.json"
    keys = "twist\nexplain swap\nlist\n0\n"
    out = play("-p", "2", "--seats", "human,random", "--seed", "2", "--save", str(save), keys=keys)
    assert out.exit_code == 0, out.output
    assert "refused 'twist'" in out.output and "legal:" in out.output
    assert "Final scores" in out.output and save.exists()


def test_play_names_seats_p1_p2_and_draws_the_board_not_json() -> None:
    out = play("--seats", "human,random", "--seed", "2", keys="0\n")
    assert out.exit_code == 0, out.output
    assert "P1> " in out.output and "seat 0" not in out.output
    assert "P1 to decide" in out.output and "P1 is dealt a" in out.output
    assert "my_card" in out.output and '"my_card"' not in out.output
    shown = play("--seats", "human,random", "--seed", "2", "--json", keys="0\n")
    assert '"my_card"' in shown.output and '"rules_version"' in shown.output


def test_a_refusal_echoes_the_input_names_the_rule_and_suggests_the_closest() -> None:
    out = play("-o", "swaps=off", "--seats", "human,random", keys="swap\nstya\n9\nquit\n")
    assert "refused 'swap': rule HC-2: swapping is switched off" in out.output
    assert "refused 'stya'" in out.output and "closest legal actions: stay" in out.output
    assert "refused '9': 1 legal action, numbered 0 to 0" in out.output


def test_quitting_by_ctrl_d_or_quit_writes_the_save_file(tmp_path: Path) -> None:
    for keys, name in (("", "eof.json"), ("quit\n", "quit.json")):
        save = tmp_path / name
        out = play("--seats", "human,random", "--save", str(save), keys=keys)
        assert out.exit_code == 0, out.output
        assert "the game stops here" in out.output or keys
        assert Match.load(save).log, "the deals were saved"


def test_play_with_no_input_stops_gracefully() -> None:
    out = play("-p", "2", keys="")
    assert out.exit_code == 0 and "input ended" in out.output


def test_play_undo_follows_the_tables_rule(tmp_path: Path) -> None:
    # P1's first decision follows the deal (chance): the table refuses to undo it.
    out = play("--seats", "human,random", keys="undo\nquit\n")
    assert "cannot undo: rule TABLE-2: nothing of yours to undo" in out.output


def test_replay_draws_the_board_and_names_seats(tmp_path: Path) -> None:
    save = tmp_path / "g.json"
    play("--seats", "human,random", "--seed", "2", "--save", str(save), keys="0\n")
    out = runner.invoke(app, ["replay", str(save), "--board"])
    assert out.exit_code == 0, out.output
    assert "P1 is dealt a" in out.output and "seat 0" not in out.output
    assert "hands" in out.output and "{" not in out.output
    out = runner.invoke(app, ["replay", str(save), "--board", "--json"])
    assert '"body"' in out.output


def test_a_bad_or_edited_save_is_named_without_a_traceback(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text('{"game": "highcard"}')
    out = runner.invoke(app, ["replay", str(bad)])
    assert out.exit_code == 1 and "names its 'players'" in out.output
    assert out.exception is None or isinstance(out.exception, SystemExit)
    save = tmp_path / "g.json"
    play("--seats", "human,random", "--seed", "2", "--save", str(save), keys="0\n")
    data = json.loads(save.read_text())
    data["log"][2] = "swap" if data["log"][2] == "stay" else "stay"
    save.write_text(json.dumps(data))
    out = runner.invoke(app, ["replay", str(save)])
    assert out.exit_code == 1 and "but the log says" in out.output


def test_bench_measures_a_game(tmp_path: Path) -> None:
    rec = tmp_path / "bench.json"
    out = runner.invoke(app, ["bench", "-g", "highcard", "--seconds", "0.2", "--record", str(rec)])
    assert out.exit_code == 0, out.output
    data = json.loads(rec.read_text())
    row = data["games"]["highcard"]
    assert row["steps_per_s"] > 0 and row["apply_us"] > 0 and row["peak_kib"] > 0
    assert data["machine"]["cores"]


def test_bench_through_the_research_interfaces(tmp_path: Path) -> None:
    rec = tmp_path / "bench.json"
    out = runner.invoke(
        app, ["bench", "-g", "highcard", "--seconds", "0.1", "--interfaces", "--record", str(rec)]
    )
    assert out.exit_code == 0, out.output
    rows = json.loads(rec.read_text())["interfaces"]["highcard"]["interfaces"]
    assert set(rows) >= {"engine", "openspiel", "pettingzoo", "gym"}
    assert all(r["steps_per_s"] > 0 for r in rows.values())


def test_play_undoes_by_the_tables_one_rule_and_shows_the_seats_events(tmp_path: Path) -> None:
    save = tmp_path / "game.json"
    # P1 lays a wall card (an action of the turn still in progress: undoable), takes it
    # back, then draws (chance follows: no undo past it).
    keys = "play wall A\nundo\nundo\ndraw\nundo\nquit\n"
    out = runner.invoke(
        app,
        [
            "play",
            "greatwall",
            "-p",
            "2",
            "--seats",
            "human,random",
            "--seed",
            "3",
            "--save",
            str(save),
        ],
        input=keys,
    )
    assert out.exit_code == 0, out.output
    assert "took back play wall A" in out.output
    assert out.output.count("TABLE-2: nothing of yours to undo") == 2
    saved = json.loads(save.read_text())
    assert saved["log"][-2:] == ["draw", saved["log"][-1]] and saved["log"][-1].startswith("deal")


def _bench_row(players: int, steps: float) -> dict[str, Any]:
    return {
        "players": players,
        "steps_per_s": steps,
        "steps_per_s_min": steps / 2,
        "steps_per_s_max": steps * 9.99,
        "playouts_per_s": 99_999.9,
        "apply_us": 9_999.9,
        "legal_actions_us": 9_999.9,
        "peak_kib": 999_999.0,
        "ratio_to_python_ttt": 99.99,
        "ratio_to_chess": 88.88,
    }


def test_the_bench_table_fits_80_columns_without_cutting_a_word() -> None:
    from tianxia.cli.bench import render

    # The widest figures a fast machine or a big game could give, for every game.
    results: dict[str, Any] = {
        "machine": {
            "date": "2026-11-23 10:49 UTC",
            "cpu": "Intel(R) Xeon(R) Platinum 8375C CPU @ 2.90GHz",
            "cores": 128,
            "python": "3.11.7",
        },
        "seconds": 1.0,
        "repeats": 3,
        # The longest engine line the title can carry: every module compiled.
        "engine": "compiled with mypyc: 13 modules (core 3, china 2, emperor 2, greatwall 2, "
        "mandarin 2, silkroad 2)",
        "games": {name: _bench_row(7, 9_999_999.0) for name in tianxia.list_games()},
        "openspiel": {
            "python_tic_tac_toe": _bench_row(2, 9_999_999.0),
            "chess": _bench_row(2, 9_999_999.0),
        },
    }
    console = Console(width=80, record=True, file=io.StringIO())
    table = render(results)
    console.print(table)
    text = console.export_text()
    assert max(cell_len(line) for line in text.splitlines()) <= 80
    assert "…" not in text
    lines = text.splitlines()
    for cell in ("9,999,999", "-50/+899%", " 9999.9", "999,999", "99.99", "88.88"):
        assert text.count(cell) >= len(results["games"]), cell
    for name in [*tianxia.list_games(), "OpenSpiel ttt", "OpenSpiel chess"]:
        assert any(line.startswith(f"{name} ") for line in lines), name
    for header in ("game", "steps/s", "range", "apply µs", "legal µs", "× ttt", "× chess"):
        assert header in text
    words = str(table.caption).split() + str(table.title).split()
    assert all(word in text for word in words)


def test_bench_repeats_each_game_and_records_every_repeat(tmp_path: Path) -> None:
    rec = tmp_path / "bench.json"
    out = runner.invoke(
        app,
        ["bench", "-g", "highcard", "--seconds", "0.3", "--repeats", "3", "--record", str(rec)],
    )
    assert out.exit_code == 0, out.output
    assert max(cell_len(line) for line in out.output.splitlines()) <= 80
    assert "median of 3" in out.output
    data = json.loads(rec.read_text())
    assert data["repeats"] == 3 and data["seconds"] == pytest.approx(0.1)
    row = data["games"]["highcard"]
    runs = row["repeats"]
    assert len(runs) == 3 and all(r["steps_per_s"] > 0 and r["apply_us"] > 0 for r in runs)
    steps = sorted(r["steps_per_s"] for r in runs)
    assert row["steps_per_s"] == steps[1]
    assert (row["steps_per_s_min"], row["steps_per_s_max"]) == (steps[0], steps[-1])
    assert row["playouts"] == sum(r["playouts"] for r in runs)
    bad = runner.invoke(app, ["bench", "-g", "highcard", "--repeats", "0"])
    assert bad.exit_code != 0 and "--repeats" in bad.output


def test_bench_largest_player_count_and_ismcts_rate(tmp_path: Path) -> None:
    rec = tmp_path / "bench.json"
    args = ["bench", "-g", "highcard", "--seconds", "0.2", "--repeats", "1", "--largest"]
    out = runner.invoke(app, [*args, "--ismcts", "8", "--record", str(rec)])
    assert out.exit_code == 0, out.output
    data = json.loads(rec.read_text())
    row = data["games"]["highcard"]
    assert row["players"] == 3  # highcard's MAX_PLAYERS
    assert row["ismcts"]["decisions"] > 0 and row["ismcts"]["simulations_per_s"] > 0
    assert "IS-MCTS: 8 simulations" in out.output
    # The title says what ran: compiled modules, or pure Python and why.
    assert data["compiled"] == list(tianxia.compiled())
    assert ("compiled with mypyc" in data["engine"]) == bool(data["compiled"])
    bad = runner.invoke(app, ["bench", "-g", "highcard", "--ismcts", "-1"])
    assert bad.exit_code != 0 and "--ismcts" in bad.output


def test_version_is_printed() -> None:
    import tianxia

    out = runner.invoke(app, ["--version"])
    assert out.exit_code == 0 and out.output.strip() == f"tianxia {tianxia.__version__}"


def test_tournaments_and_autosaves_write_where_git_ignores() -> None:
    import inspect
    import subprocess

    from tianxia.cli.tournament import tournament

    out = inspect.signature(tournament).parameters["out"].default.default
    root = Path(__file__).resolve().parents[2]
    for path in (Path(out) / "results.json", Path("tianxia-game.json")):
        done = subprocess.run(["git", "check-ignore", "-q", str(path)], cwd=root, check=False)
        assert done.returncode == 0, f"{path} is not git-ignored"
