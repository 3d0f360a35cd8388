"""The corpus of stored server games in `tests/data/server-saves/`: how it is made, how
it is checked against this release's rules, and how it is put into a database.

A save is one game as the server's database holds it: title, players, options, rules
version, seed, and every row of its log (the seat that decided, or null for chance; the
action's notation; the first 16 hex digits of the state hash after it), with the full
hash of the last state. Made by random play through the engine, as the server would
have played it (chance drawn from the seed's stream):

    PYTHONPATH=src:tests python -m reliability.saves   # writes tests/data/server-saves/

Run it again only on purpose: the corpus is what earlier releases stored, and a release
must load it as it is. A rules change that alters a stored game must come with a new
rules version of that game (and, to keep such games playable, options that keep the
old rules: `Game.options_of_version`).
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass
from pathlib import Path
from typing import Any

CORPUS = Path(__file__).resolve().parents[1] / "data" / "server-saves"
PREFIX = 16  # hex digits of each row's state hash kept in a save (the last one whole)


class SaveMismatch(Exception):
    """A save whose log no longer replays to the states it stored."""


def make(
    name: str, players: int, seed: int, stop_at: float | None, version: int | None
) -> dict[str, Any]:
    """A game played at random from `seed`: to the end, or stopped after `stop_at` of
    its length (late: playing the rest to the end is part of every test run).
    `version`: stored as that older rules version, played under the
    options that keep it."""
    import tianxia
    from tianxia.core import CHANCE, Match
    from tianxia.core.registry import game_class
    from tianxia.server.live import state_hash

    cls = game_class(name)
    stored = cls.VERSION if version is None else version
    game = tianxia.load_game(name, players=players, **cls.options_of_version(stored, {}))
    rng = random.Random(seed)
    full = Match(game, seed=seed)
    while not full.state.is_terminal():
        if full.state.current_player() == CHANCE:
            full.resolve_chance()
        else:
            full.play(rng.choice(full.state.legal_actions()))
    length = full.seq if stop_at is None else int(full.seq * stop_at)
    # The stop must leave a seat to decide: a stored game rests between actions.
    while length < full.seq and full.seat_of(length) == CHANCE:
        length += 1
    rows = []
    for i in range(length):
        who = full.seat_of(i)
        rows.append(
            [
                None if who == CHANCE else who,
                str(full.log[i]),
                state_hash(full.history[i + 1])[:PREFIX],
            ]
        )
    last = full.history[length]
    return {
        "format": 1,
        "game": name,
        "players": players,
        "options": {},
        "rules_version": stored,
        "seed": seed,
        "status": "finished" if last.is_terminal() else "running",
        "log": rows,
        "final_hash": state_hash(last),
    }


# Each title at its smallest player count, finished and in progress.
_SEATS = (("china", 3), ("greatwall", 2), ("emperor", 2), ("mandarin", 2), ("silkroad", 2))

PLAN = [
    # (title, players, seed, stop at, stored rules version)
    *((t, p, 101, None, None) for t, p in _SEATS),
    *((t, p, 202, 0.95, None) for t, p in _SEATS),
    ("emperor", 2, 303, None, 1),
    ("emperor", 2, 304, 0.95, 1),
]


def file_name(data: dict[str, Any]) -> str:
    state = "finished" if data["status"] == "finished" else "running"
    return f"{data['game']}-{data['players']}p-v{data['rules_version']}-seed{data['seed']}-{state}.json"


def write_corpus() -> list[Path]:
    CORPUS.mkdir(parents=True, exist_ok=True)
    out = []
    for name, players, seed, stop_at, version in PLAN:
        data = make(name, players, seed, stop_at, version)
        path = CORPUS / file_name(data)
        text = json.dumps(data, separators=(",", ":"))
        path.write_text(text.replace("],[", "],\n[") + "\n")
        out.append(path)
    return out


def corpus() -> list[tuple[str, dict[str, Any]]]:
    return [(p.name, json.loads(p.read_text())) for p in sorted(CORPUS.glob("*.json"))]


@dataclass
class Replayed:
    match: Any  # tianxia.core.Match, the game as this release replays it
    hashes: list[str]  # the full state hash after each row


def replay(label: str, data: dict[str, Any]) -> Replayed:
    """The save replayed under this release's rules (an older rules version under the
    options that keep it); SaveMismatch names the save and the first seq that differs."""
    import tianxia
    from tianxia.core import CHANCE, IllegalActionError, Match, NotationError
    from tianxia.core.registry import game_class
    from tianxia.server.live import state_hash

    cls = game_class(data["game"])
    what = f"{label} ({data['game']}, rules version {data['rules_version']})"
    if data["rules_version"] > cls.VERSION:
        raise SaveMismatch(f"{what}: newer than this release's rules version {cls.VERSION}")
    options = cls.options_of_version(data["rules_version"], data["options"])
    m = Match(
        tianxia.load_game(data["game"], players=data["players"], **options), seed=data["seed"]
    )
    hashes = []
    for seq, (_, action, short) in enumerate(data["log"], start=1):
        chance = m.state.current_player() == CHANCE
        try:
            m.play(action)
        except (IllegalActionError, NotationError) as e:
            raise SaveMismatch(f"{what}: seq {seq} ({action!r}) no longer replays: {e}") from None
        if chance:
            m.rng.random()  # as the server keeps its chance stream in step
        h = state_hash(m.state)
        if not h.startswith(short):
            raise SaveMismatch(
                f"{what}: seq {seq} gives another state than the one stored "
                "(a rules change without a new rules version?)"
            )
        hashes.append(h)
    if (hashes[-1] if hashes else state_hash(m.state)) != data["final_hash"]:
        raise SaveMismatch(f"{what}: the last state is not the one stored")
    return Replayed(m, hashes)


def put(url: str, game_id: str, data: dict[str, Any], replayed: Replayed) -> list[str]:
    """The save as a game in the database at `url`, its seats taken by people whose
    secrets are returned."""
    from tianxia.server.storage import Row, Store, hash_secret

    store = Store(url)
    try:
        store.create_game(
            game_id,
            data["game"],
            data["players"],
            data["options"],
            data["rules_version"],
            data["seed"],
            [("human", None)] * data["players"],
            None,
        )
        secrets = [f"{game_id}-seat{s}-secret" for s in range(data["players"])]
        for s, secret in enumerate(secrets):
            store.update_seat(game_id, s, name=f"P{s + 1}", secret_hash=hash_secret(secret))
        rows = [
            Row(seq, None, seat, action, h, False)
            for seq, ((seat, action, _), h) in enumerate(zip(data["log"], replayed.hashes), start=1)
        ]
        if rows:
            store.append(game_id, rows, {"status": data["status"]})
        store.set_status(game_id, data["status"])
    finally:
        store.close()
    return secrets


if __name__ == "__main__":
    for path in write_corpus():
        print(path.relative_to(CORPUS.parents[2]), path.stat().st_size)
