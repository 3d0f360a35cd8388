"""Tournaments: seat rotation, reproducibility over processes, ratings, saved results."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

import tianxia
from tianxia.core import Match
from tianxia.play import Tournament


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
    refused = runner.invoke(
        app, ["tournament", "highcard", "--bots", "oracle", "--out", str(tmp_path / "u")]
    )
    assert refused.exit_code != 0 and "no bot called" in refused.output
    assert not (tmp_path / "u").exists()
