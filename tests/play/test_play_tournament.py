"""Tournaments: seat rotation, reproducibility over processes, ratings, saved results."""

from __future__ import annotations

import io
import json
import time
from pathlib import Path

import pytest
from rich.console import Console
from typer.testing import CliRunner

import tianxia
from tianxia.core import Match
from tianxia.play import GameRecord, Tournament
from tianxia.play.tournament import Forecast, SeatStats, format_seconds


def _highcard(players: int = 2) -> tianxia.Game:
    return tianxia.load_game("highcard", players=players)


def test_seats_rotate_between_games() -> None:
    t = Tournament(_highcard(3), ["greedy", "random", "ismcts"], 3)
    assert [s.seats for s in t.seatings()] == [(0, 1, 2), (2, 0, 1), (1, 2, 0)]


def test_the_last_entrant_fills_empty_seats() -> None:
    t = Tournament(_highcard(3), ["greedy", "random"], 3)
    assert [s.seats for s in t.seatings()] == [(0, 1, 1), (1, 0, 1), (1, 1, 0)]


def test_more_entrants_than_seats_take_turns() -> None:
    t = Tournament(_highcard(2), ["greedy", "random", "ismcts"], 3)
    assert [s.seats for s in t.seatings()] == [(0, 1), (1, 2), (2, 0)]
    assert len({s.seed for s in t.seatings()}) == 3


def test_the_same_bot_entered_twice_gets_two_names() -> None:
    assert Tournament(_highcard(), ["random", "random"], 1).labels == ["random", "random#2"]


@pytest.mark.parametrize(
    ("entrants", "games", "message"),
    [
        ([], 2, "at least one entrant"),
        (["random"], 0, "at least one game"),
        (["oracle"], 2, "no bot called 'oracle'"),
        (["ismcts:simulations=-3"], 2, "simulations must be >= 1"),
        (["ismcts:"], 2, "key=value"),
    ],
)
def test_bad_tournaments_are_refused_before_any_game(
    entrants: list[str], games: int, message: str
) -> None:
    with pytest.raises(ValueError, match=message):
        Tournament(_highcard(), entrants, games)


def test_results_do_not_depend_on_the_number_of_processes() -> None:
    entrants = ["ismcts:simulations=20", "greedy", "random"]
    one = Tournament(_highcard(3), entrants, 9, seed=5).run(workers=1)
    two = Tournament(_highcard(3), entrants, 9, seed=5).run(workers=2)
    assert one.to_json()["results"] == two.to_json()["results"]
    assert [s.mu for s in one.standings] == [s.mu for s in two.standings]


def test_greedy_outplays_random_at_high_card_and_is_rated_above_it() -> None:
    result = Tournament(_highcard(), ["greedy", "random"], 200, seed=1).run()
    greedy, rand = result.standings
    assert greedy.seat_games == rand.seat_games == 200
    assert greedy.wins + rand.wins == 200
    assert greedy.win_rate > 0.55
    assert greedy.mu > rand.mu
    assert greedy.share_ratio == pytest.approx(2 * greedy.win_rate)


def test_ismcts_counts_its_simulations_in_the_standings() -> None:
    result = Tournament(_highcard(), ["ismcts:simulations=25", "random"], 4, seed=0).run()
    search = result.standings[0]
    assert search.simulations == 25 * search.decisions > 0
    assert result.standings[1].simulations == 0


@pytest.mark.parametrize("name", tianxia.list_games())
def test_saved_logs_replay_to_the_recorded_results(name: str, tmp_path: Path) -> None:
    game = tianxia.load_game(name)
    result = Tournament(game, ["random"], 2, seed=2).run()
    result.save(tmp_path)
    saved = json.loads((tmp_path / "results.json").read_text())
    for row in saved["results"]:
        match = Match.load(tmp_path / "logs" / f"game-{row['index']:05d}.json")
        assert match.state.is_terminal()
        assert match.state.returns() == row["returns"]
    for chart in ("chart.png", "chart.svg"):
        assert (tmp_path / chart).stat().st_size > 1000
    assert "| random |" in (tmp_path / "results.md").read_text()


def test_the_tournament_command_writes_its_results(tmp_path: Path) -> None:
    from tianxia.cli.main import _load_commands, app

    _load_commands()
    runner = CliRunner()
    args = ["tournament", "highcard", "--bots", "greedy,random", "-n", "4", "-j", "1"]
    done = runner.invoke(app, [*args, "--out", str(tmp_path / "t")])
    assert done.exit_code == 0, done.output
    assert "greedy" in done.output and (tmp_path / "t" / "chart.svg").exists()
    first_results = (tmp_path / "t" / "results.json").read_text()
    said = " ".join(done.output.split())
    assert "first game:" in said
    assert "left for 3 more games on 1 process; per move: greedy " in said
    again = runner.invoke(app, [*args, "--out", str(tmp_path / "t")])
    assert again.exit_code == 0, again.output
    said = " ".join(again.output.split())
    assert "resuming from" in said and "4 games already played" in said
    assert (tmp_path / "t" / "results.json").read_text() == first_results
    refused = runner.invoke(
        app, ["tournament", "highcard", "--bots", "oracle", "--out", str(tmp_path / "u")]
    )
    assert refused.exit_code != 0 and "no bot called" in refused.output
    assert not (tmp_path / "u").exists()


def _record(index: int, seats: tuple[int, ...], moves: int, seconds: list[float]) -> GameRecord:
    stats = [SeatStats(decisions=moves, seconds=s) for s in seconds]
    return GameRecord(
        index=index,
        seed=index,
        seats=seats,
        returns=[0.0] * len(seats),
        scores=[0.0] * len(seats),
        shares=[0.5] * len(seats),
        length=2 * moves,
        stats=stats,
        log={},
        seconds=sum(seconds) + 0.4,
    )


def test_the_forecast_prices_every_game_left_by_who_sits_in_it() -> None:
    plan = Tournament(_highcard(2), ["greedy", "random", "ismcts:simulations=5"], 6)
    forecast = Forecast(plan, workers=2)
    assert forecast.remaining() is None
    # Game 0 seats greedy (0.1 s a move) and random (0.01 s a move), ten moves each.
    forecast.add(_record(0, (0, 1), 10, [1.0, 0.1]))
    assert forecast.seconds_per_move(0) == pytest.approx(0.1)
    assert forecast.seconds_per_move(2) is None
    per_move = {0: 0.1, 1: 0.01, 2: (0.1 + 0.01) / 2}  # ismcts unseen: the mean of the seen
    left = [0.4 + sum(10 * per_move[e] for e in s.seats) for s in plan.seatings()[1:]]
    assert [forecast.game_seconds(s) for s in plan.seatings()[1:]] == pytest.approx(left)
    assert forecast.remaining() == pytest.approx(sum(left) / 2)
    # A probe prices ismcts until a finished game does.
    forecast.probed[2] = 1.0
    per_move[2] = 1.0
    left = [0.4 + sum(10 * per_move[e] for e in s.seats) for s in plan.seatings()[1:]]
    assert forecast.remaining() == pytest.approx(sum(left) / 2)
    assert forecast.game_seconds(plan.seatings()[1]) > forecast.game_seconds(plan.seatings()[3])
    assert "about 23 s left for 5 more games on 2 processes" in forecast.summary()
    forecast.add(_record(1, (1, 2), 10, [0.1, 3.0]))
    assert forecast.seconds_per_move(2) == pytest.approx(0.3)
    # With one game left, it takes as long as that game, whatever the processes.
    for i in range(2, 5):
        forecast.add(_record(i, plan.seatings()[i].seats, 10, [0.1, 0.1]))
    assert forecast.remaining() == pytest.approx(forecast.game_seconds(plan.seatings()[5]))
    forecast.add(_record(5, plan.seatings()[5].seats, 10, [0.1, 0.1]))
    assert forecast.remaining() == 0.0


def test_the_probe_and_a_real_run_feed_the_forecast() -> None:
    plan = Tournament(_highcard(2), ["ismcts:simulations=30", "random"], 4, seed=1)
    forecast = Forecast(plan)
    forecast.probe()
    assert all(p is not None and p > 0 for p in forecast.probed)
    seen: list[float | None] = []

    def on_game(record: GameRecord) -> None:
        assert record.seconds >= sum(st.seconds for st in record.stats) > 0
        forecast.add(record)
        seen.append(forecast.remaining())

    plan.run(workers=1, on_game=on_game)
    assert seen[0] is not None and seen[0] > 0
    assert seen[-1] == 0.0


def test_seconds_are_written_as_precisely_as_a_forecast_deserves() -> None:
    cases = {0.0031: "3 ms", 0.27: "0.27 s", 41.2: "41 s", 1190: "20 min", 7500: "2 h 05 min"}
    assert {s: format_seconds(s) for s in cases} == cases


def test_the_progress_bar_shows_games_done_and_time_left() -> None:
    from tianxia.cli.tournament import progress_bar

    console = Console(width=80, file=io.StringIO(), force_terminal=True, record=True)
    bar = progress_bar(console)
    task = bar.add_task("silkroad 2p", total=60, left=None, at=0.0)
    console.print(bar.get_renderable())
    text = console.export_text()
    assert "0/60 games" in text and "timing a game" in text
    bar.update(task, advance=3, left=1200.0, at=time.monotonic())
    console.print(bar.get_renderable())
    text = console.export_text()
    assert "3/60 games" in text and "~20 min left" in text
    assert max(len(line) for line in text.splitlines()) <= 80


def test_a_tournament_resumes_from_its_journal_without_replaying(tmp_path: Path) -> None:
    journal = tmp_path / "games.jsonl"
    entrants = ["ismcts:simulations=10", "greedy", "random"]
    whole = Tournament(_highcard(3), entrants, 6, seed=4).run()
    first = Tournament(_highcard(3), entrants, 3, seed=4).run(workers=2, journal=journal)
    assert len(first.records) == 3
    with journal.open("a") as f:
        f.write('{"index": 5, "seed"')  # a line cut short when the run was stopped
    told: list[int] = []
    rest = Tournament(_highcard(3), entrants, 6, seed=4).run(
        journal=journal, on_game=lambda r: told.append(r.index)
    )
    assert told[:3] == [0, 1, 2] and sorted(told) == list(range(6))
    assert rest.to_json()["results"] == whole.to_json()["results"]
    assert len(journal.read_text().splitlines()) == 7  # the header and six games, once each


def test_a_journal_of_another_tournament_is_refused(tmp_path: Path) -> None:
    journal = tmp_path / "games.jsonl"
    Tournament(_highcard(), ["greedy", "random"], 1, seed=1).run(journal=journal)
    with pytest.raises(ValueError, match="another tournament"):
        Tournament(_highcard(), ["greedy", "random"], 1, seed=2).run(journal=journal)


def test_a_bare_ray_option_means_a_private_local_cluster() -> None:
    from tianxia.cli.tournament import ray_address_optional

    assert ray_address_optional(["t", "--ray"]) == ["t", "--ray=local"]
    assert ray_address_optional(["--ray", "-n", "4"]) == ["--ray=local", "-n", "4"]
    assert ray_address_optional(["--ray", "10.0.0.5:6379"]) == ["--ray", "10.0.0.5:6379"]
