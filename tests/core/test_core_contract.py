"""The core pieces on their own: options, codec, errors, Match, replay, data override."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import tianxia
from tianxia.core import ActionCodec, IllegalActionError, Match, NotationError
from tianxia.core.data import load_toml
from toygame import Deal, Stay, Swap


def test_options_read_from_text_and_refused_when_unknown() -> None:
    assert tianxia.load_game("highcard", players=2, swaps="off").options["swaps"] is False
    with pytest.raises(ValueError, match="no option 'speed'"):
        tianxia.load_game("highcard", players=2, speed=3)
    with pytest.raises(ValueError, match="2-3 players"):
        tianxia.load_game("highcard", players=4)
    with pytest.raises(ValueError, match="no game called"):
        tianxia.load_game("go")


def test_codec_round_trips_and_refuses_foreign_ids() -> None:
    codec = ActionCodec([Stay(), Swap()], [Deal(1), Deal(2)])
    assert [codec.encode(a) for a in (Stay(), Swap(), Deal(1), Deal(2))] == [0, 1, 2, 3]
    assert codec.decode(3) == Deal(2)
    for bad in (-1, 4, True, "1"):
        with pytest.raises(ValueError):
            codec.decode(bad)  # type: ignore[arg-type]
    with pytest.raises(NotationError):
        codec.parse("twist")
    with pytest.raises(ValueError):
        ActionCodec([Stay(), Stay()])


def test_chance_node_refuses_player_actions_with_engine_rule() -> None:
    s = tianxia.load_game("highcard", players=2).new_initial_state()
    with pytest.raises(IllegalActionError) as err:
        s.apply(Stay())
    assert err.value.rule == "ENGINE-3"


def test_terminal_state_refuses_everything() -> None:
    g = tianxia.load_game("highcard", players=2, swaps=False)
    s = g.new_initial_state().apply("deal 1").apply("deal 2").apply("stay").apply("stay")
    assert s.is_terminal() and s.legal_actions() == ()
    with pytest.raises(IllegalActionError) as err:
        s.apply("stay")
    assert err.value.rule == "ENGINE-1"
    assert s.explain("stay").startswith("illegal: ENGINE-1")


def test_apply_accepts_notation_and_ids_and_keeps_the_old_state() -> None:
    g = tianxia.load_game("highcard", players=2)
    s0 = g.new_initial_state()
    s1 = s0.apply("deal 4")
    s2 = s0.apply(g.action_id(Deal(4)))
    assert s1 == s2 and s0.to_json()["hands"] == []


def test_match_undo_save_load(tmp_path: Path) -> None:
    g = tianxia.load_game("highcard", players=3)
    m = Match(g, seed=5)
    m.resolve_chance()
    m.play("swap")
    m.undo()
    assert m.state == m.history[-1] and len(m.log) == 3
    m.play("stay")
    path = tmp_path / "m.json"
    m.save(path)
    again = Match.load(path)
    assert again.state == m.state and again.log == m.log
    data = json.loads(path.read_text())
    assert data["game"] == "highcard" and data["log"][:3] == [str(a) for a in m.log[:3]]
    assert tianxia.replay(g, data["log"]) == m.state
    with pytest.raises(ValueError):
        Match(g).undo()


def test_replay_refuses_an_illegal_log() -> None:
    g = tianxia.load_game("highcard", players=2, swaps=False)
    with pytest.raises(IllegalActionError):
        tianxia.replay(g, ["deal 1", "deal 1"])


def test_data_override_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    pkg = tmp_path / "pkg"
    (pkg / "data").mkdir(parents=True)
    (pkg / "data" / "board.toml").write_text('name = "shipped"\n')
    assert load_toml("demo", "board.toml", pkg)["name"] == "shipped"
    (tmp_path / "mine" / "demo").mkdir(parents=True)
    (tmp_path / "mine" / "demo" / "board.toml").write_text('name = "printed"\n')
    monkeypatch.setenv("TIANXIA_DATA_DIR", str(tmp_path / "mine"))
    assert load_toml("demo", "board.toml", pkg)["name"] == "printed"
    (tmp_path / "mine" / "demo" / "board.toml").write_text("name = \n")
    with pytest.raises(ValueError, match="cannot read data file"):
        load_toml("demo", "board.toml", pkg)


def test_observation_tensor_has_the_declared_length() -> None:
    g = tianxia.load_game("highcard", players=2)
    s = g.new_initial_state().apply("deal 3")
    assert len(s.observation_tensor(0)) == g.observation_tensor_size()
    assert s.observation_tensor(0) != s.apply("deal 5").observation_tensor(0)
