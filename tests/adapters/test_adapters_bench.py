"""The interface benchmark's shape and input checks (its figures go to RESULTS.md)."""

from __future__ import annotations

import pytest

from tianxia.adapters import bench


def test_every_interface_is_measured_on_the_same_games() -> None:
    result = bench.run("highcard", seconds=0.01, players=3)
    assert result["game"] == "highcard" and result["players"] == 3
    assert set(result["interfaces"]) == set(bench.INTERFACES)
    for row in result["interfaces"].values():
        assert row["games"] >= 1
        assert row["steps_per_s"] > 0
        # high card: three deals, three decisions, and a redeal after each swap
        assert 6 <= row["mean_length"] <= 9
    assert result["interfaces"]["engine"]["vs_engine"] == 1.0
    assert "| openspiel |" in bench.to_markdown(result)
    assert result["machine"]["cores"]


def test_bad_requests_are_refused() -> None:
    with pytest.raises(ValueError, match="seconds"):
        bench.run("highcard", seconds=0)
    with pytest.raises(ValueError, match="interface"):
        bench.run("highcard", seconds=0.01, interfaces=("engine", "rllib"))
    with pytest.raises(ValueError, match="no game"):
        bench.run("no_such_game", seconds=0.01)
