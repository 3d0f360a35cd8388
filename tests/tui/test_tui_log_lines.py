"""The terminal's log tells a Silk Road card played or given by its number, title and
merchant, as the browser's log does: the card's whole text is on the card."""

from __future__ import annotations

import random
import re

import pytest

pytest.importorskip("textual")

from scripts import random_step
from tianxia.core import Match, load_game
from tianxia.tui.screens import log_entries


def _events(name: str, seed: int, players: int = 3) -> list[dict[str, object]]:
    match = Match(load_game(name, players), seed=seed)
    rng = random.Random(seed)
    while not match.state.is_terminal() and len(match.log) < 400:
        random_step(match, rng)
    return list(match.events_for(None))


def test_a_silk_road_card_played_or_given_is_one_short_line() -> None:
    events = _events("silkroad", 3)
    long = [str(e["text"]) for e in events]
    told = [text for _, _, text, _ in log_entries(events, "silkroad")]
    plays = [t for t in told if re.match(r"P\d plays #\d+ '[^']+' for \w+$", t)]
    gives = [t for t in told if re.match(r"P\d gives #\d+ '[^']+' to \w+$", t)]
    bazaars = [t for t in told if re.match(r"P\d calls bazaar \d$", t)]
    assert plays and gives and bazaars
    for before, after in zip(long, told, strict=True):
        if "carries it out" in before or "calls bazaar" in before:
            assert len(after) < len(before) and after.split()[0] == before.split(":")[0]
        else:
            assert after == before
    assert "P1 plays #5 'Steppe road' for purple" in told


def test_other_titles_keep_their_lines() -> None:
    events = _events("mandarin", 2, players=2)
    assert [t for _, _, t, _ in log_entries(events, "mandarin")] == [e["text"] for e in events]


def test_the_line_players_log_tells_a_card_short_too() -> None:
    from typer.testing import CliRunner

    from tianxia.cli.app import app
    from tianxia.cli.main import _load_commands

    _load_commands()
    out = CliRunner().invoke(
        app, ["play", "silkroad", "-p", "2", "--seats", "random,random", "--seed", "3"], input=""
    )
    assert out.exit_code == 0, out.output
    assert re.search(r"P\d plays #\d+ '[^']+' for \w+\n", out.output)
    assert "face up and carries it out" not in out.output
