"""The benchmark lines' entrants: what `benchmarks/bots/lines.py` pits against what."""

from __future__ import annotations

import json
from pathlib import Path
from types import ModuleType

import pytest

import tianxia
from scripts import load_benchmark
from tianxia.play.runner import BotSpec


def _lines() -> ModuleType:
    return load_benchmark("bots/lines.py")


def test_our_options_reach_our_entrant_only_and_every_entrant_is_a_bot() -> None:
    lines = _lines()
    ours, theirs = lines.entrants("vs-os-hook", 100, None, "rollout_depth=end")
    assert ours == "ismcts:simulations=100:rollout_depth=end"
    assert theirs == "openspiel-ismcts:simulations=100:rollouts=hook"
    timed, _ = lines.entrants("vs-os-time", 100, 0.25, "rollout_depth=end")
    assert timed == "ismcts:time_limit=0.2500:rollout_depth=end"
    assert lines.entrants("greedy-random", 100, None, "rollout_depth=end") == ("greedy", "random")
    game = tianxia.load_game("greatwall", players=2)
    bot = BotSpec.parse(ours).make(game, 0, 0)
    assert bot.rollout_depth == game.info.max_game_length


def test_wilson_interval_holds_the_rate_and_narrows_with_games() -> None:
    lines = _lines()
    low, high = lines.wilson(30, 50)
    assert low < 0.6 < high
    low2, high2 = lines.wilson(300, 500)
    assert low < low2 < 0.6 < high2 < high


def test_two_runs_saving_in_turn_keep_each_others_rows(tmp_path: Path) -> None:
    lines = _lines()
    store = tmp_path / "lines.json"
    first = {"id": "a", "date": "d", "machine": "m", "cores": 2, "python": "3", "command": "x"}
    second = {**first, "id": "b"}
    row = {
        "game": "china",
        "players": 3,
        "line": "vs-os-hook",
        "bot": "ismcts",
        "opponent": "openspiel-ismcts",
        "games": 1,
        "win_rate": 1.0,
        "low": 0.2,
        "high": 1.0,
        "share_ratio": 3.0,
        "target": ">= 1.5x fair",
        "met": True,
        "bot_ms_per_move": 1.0,
        "bot_sims_per_second": 1.0,
        "opponent_ms_per_move": 1.0,
        "opponent_sims_per_second": 1.0,
    }
    lines._save(store, {**first, "rows": [row]})
    lines._save(store, {**second, "rows": [row]})
    lines._save(store, {**first, "rows": [row, {**row, "line": "vs-os-time"}]})
    runs = json.loads(store.read_text(encoding="utf-8"))["runs"]
    assert [r["id"] for r in runs] == ["a", "b"]
    assert [len(r["rows"]) for r in runs] == [2, 1]
    # three rows in the runs, and the two lines once more in the standing above them
    assert store.with_suffix(".md").read_text(encoding="utf-8").count("| china |") == 5


def test_the_standing_shows_each_line_at_its_largest_run_the_latest_of_equal_size() -> None:
    lines = _lines()

    def row(line: str, games: int, wins: float) -> dict[str, object]:
        low, high = lines.wilson(wins, games)
        return {
            "game": "greatwall",
            "players": 2,
            "line": line,
            "bot": "ismcts",
            "opponent": "greedy",
            "games": games,
            "win_rate": wins / games,
            "low": low,
            "high": high,
            "share_ratio": 2 * wins / games,
            "target": ">= 65%",
            "met": wins / games >= 0.65,
        }

    report = {
        "runs": [
            {
                "date": "first",
                "rows": [row("ismcts-greedy", 100, 57), row("greedy-random", 40, 39)],
            },
            {"date": "second", "rows": [row("ismcts-greedy", 20, 18)]},
            {"date": "third", "rows": [row("greedy-random", 40, 38), row("vs-os-hook", 6, 3)]},
        ]
    }
    standing = [(date, r["line"], r["games"]) for date, r in lines.standing(report)]
    assert standing == [
        ("third", "greedy-random", 40),
        ("first", "ismcts-greedy", 100),
        ("third", "vs-os-hook", 6),
    ]
    text = lines.markdown({**report, "runs": []})
    assert "Standing" in text and "| greatwall |" not in text


def test_a_run_into_a_new_folder_creates_it(tmp_path: Path) -> None:
    lines = _lines()
    out = tmp_path / "new" / "report"
    argv = ["greatwall", "--players", "2", "--lines", "greedy-random", "--games", "1"]
    argv += ["--workers", "1", "--runs", str(tmp_path / "runs"), "--out", str(out)]
    assert lines.main(argv) == 0
    rows = json.loads((out / "lines.json").read_text(encoding="utf-8"))["runs"][0]["rows"]
    assert [(r["game"], r["line"], r["games"]) for r in rows] == [("greatwall", "greedy-random", 1)]
    # The Great Wall's hook is its second: the row and the journal's folder say so.
    assert rows[0]["hook"] == 2
    assert (tmp_path / "runs" / "greatwall-2p-greedy-random-hook2" / "games.jsonl").exists()


def test_a_line_replayed_whole_from_its_journal_adds_no_second_row(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    lines = _lines()
    out = tmp_path / "report"
    argv = ["greatwall", "--players", "2", "--lines", "greedy-random", "--games", "2"]
    argv += ["--workers", "1", "--runs", str(tmp_path / "runs"), "--out", str(out)]
    assert lines.main(argv) == 0
    first = capsys.readouterr().out
    assert lines.main(argv) == 0
    again = capsys.readouterr().out
    runs = json.loads((out / "lines.json").read_text(encoding="utf-8"))["runs"]
    assert sum(len(run["rows"]) for run in runs) == 1
    # the replay reports the same result, and says where it came from
    assert "replayed from its journal" in again and "replayed" not in first
    assert first.rsplit(",", 1)[0] in again  # all but the seconds it took
    # one more game asked for is played, and that longer line is recorded
    argv[argv.index("--games") + 1] = "3"
    assert lines.main(argv) == 0
    runs = json.loads((out / "lines.json").read_text(encoding="utf-8"))["runs"]
    assert sorted(row["games"] for run in runs for row in run["rows"]) == [2, 3]


def test_the_standing_takes_a_line_under_its_latest_hook_however_small_the_run() -> None:
    lines = _lines()
    row = {
        "game": "greatwall",
        "players": 4,
        "line": "vs-os-hook",
        "bot": "ismcts",
        "opponent": "openspiel-ismcts",
        "win_rate": 0.3,
        "low": 0.2,
        "high": 0.4,
        "share_ratio": 1.2,
        "target": ">= 1.5x fair",
        "met": False,
    }
    report = {
        "runs": [
            {"date": "old hook", "rows": [{**row, "games": 400}]},
            {"date": "new hook", "rows": [{**row, "games": 200, "hook": 2}]},
            {"date": "old hook again", "rows": [{**row, "games": 800, "hook": 1}]},
        ]
    }
    assert [date for date, _ in lines.standing(report)] == ["new hook"]
    shown = lines._table_row(lines.standing(report)[0][1])
    assert shown.startswith("| greatwall | 4 | vs-os-hook | 2 | `ismcts` |")


def test_equal_time_against_random_rollouts_times_openspiel_by_its_own_line() -> None:
    lines = _lines()
    ours, theirs = lines.entrants("vs-os-random-time", 100, 0.5)
    assert (ours, theirs) == (
        "ismcts:time_limit=0.5000",
        "openspiel-ismcts:simulations=100:rollouts=random",
    )
    assert lines.entrants("vs-os-time", 100, 0.5)[1].endswith(":rollouts=hook")


def test_an_equal_time_line_without_the_line_that_times_it_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    lines = _lines()
    argv = ["greatwall", "--players", "2", "--lines", "vs-os-random-time", "--games", "1"]
    argv += ["--runs", str(tmp_path / "runs"), "--out", str(tmp_path / "out")]
    with pytest.raises(SystemExit):
        lines.main(argv)
    assert "vs-os-random-time needs vs-os-random" in capsys.readouterr().err
    assert not (tmp_path / "out" / "lines.json").exists()
