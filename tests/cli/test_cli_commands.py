"""The `tianxia` command, driven through typer's test runner."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from tianxia.cli.app import app
from tianxia.cli.main import _load_commands

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


def test_play_refuses_then_accepts_and_finishes(tmp_path: Path) -> None:
    save = tmp_path / "g.json"
    keys = "twist\nexplain swap\nlist\n0\n"
    out = runner.invoke(
        app,
        [
            "play",
            "highcard",
            "-p",
            "2",
            "--seats",
            "human,random",
            "--seed",
            "2",
            "--save",
            str(save),
        ],
        input=keys,
    )
    assert out.exit_code == 0, out.output
    assert "refused" in out.output and "legal:" in out.output
    assert "returns" in out.output and save.exists()


def test_play_with_no_input_stops_gracefully() -> None:
    out = runner.invoke(app, ["play", "highcard", "-p", "2"], input="")
    assert out.exit_code == 0 and "input ended" in out.output


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
