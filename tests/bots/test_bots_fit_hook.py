"""The win-model fit: `benchmarks/bots/fit_hook.py` recovers weights and reads journals."""

from __future__ import annotations

import json
import random
from pathlib import Path
from types import ModuleType

import numpy as np
import pytest

import tianxia
from scripts import load_benchmark, play_out
from tianxia.core import Match


def _fit() -> ModuleType:
    return load_benchmark("bots/fit_hook.py")


def test_the_fit_recovers_the_weights_that_drew_the_winners() -> None:
    fit = _fit()
    rng = np.random.default_rng(3)
    truth = np.array([1.5, -0.8, 0.3])
    x = rng.normal(size=(6000, 4, 3))
    z = x @ truth
    p = np.exp(z - z.max(axis=1, keepdims=True))
    p /= p.sum(axis=1, keepdims=True)
    y = np.zeros_like(p)
    for i, row in enumerate(p):
        y[i, rng.choice(4, p=row)] = 1.0
    w = fit.fit(x, y, ridge=0.0)
    assert w == pytest.approx(truth, abs=0.1)
    # The fitted model explains the winners better than a guess, and better than the truth
    # with its signs turned.
    assert fit.log_loss(x, y, w) < np.log(4) < fit.log_loss(x, y, -truth)


def test_the_fit_reads_each_game_of_a_journal_once(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    fit = _fit()
    game = tianxia.load_game("greatwall", players=2)
    journal = tmp_path / "games.jsonl"
    lines = [json.dumps({"tournament": {"game": "greatwall"}})]
    for seed in range(6):
        m = Match(game, seed=seed)
        play_out(m, random.Random(seed))
        shares = [1.0 if r == max(m.state.returns()) else 0.0 for r in m.state.returns()]
        lines.append(json.dumps({"index": seed, "shares": shares, "log": m.to_json()}))
    journal.write_text("\n".join([*lines, lines[1]]) + "\n", encoding="utf-8")
    data = fit.positions("greatwall", [journal, journal], every=1)
    x, _, ids = data[2]
    assert sorted(set(ids.tolist())) == [1, 2, 3, 4, 5, 6]
    search = game.search
    assert x.shape[1:] == (2, 2 * len(search.WIN_FEATURES))
    assert fit.main(["greatwall", str(journal), "--every", "1"]) == 0
    printed = capsys.readouterr()
    assert "2 seats: 6 games" in printed.err
    assert printed.out.startswith("WIN_WEIGHTS: winmodel.Weights = {")
