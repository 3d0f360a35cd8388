"""Golden playthroughs: a recorded seeded game per title, checked step by step.

A playthrough records, for every step of a seeded game, who decided, how many actions
were open, the action taken (id and notation) and a digest of every seat's and the
spectator's observation; every tenth step it also records a digest of the observation
tensors and the evaluation hook. A rules change that alters play shows up as the first
step that differs. Regenerate on purpose with ``python -m tianxia.play.golden --update``
and review the diff.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tianxia.core import CHANCE, Game, Match, load_game, sample_chance

FORMAT = 1
# Every title at its smallest and a typical player count, two seeds each.
CASES: tuple[tuple[str, int, dict[str, Any], int], ...] = (
    ("china", 3, {}, 1),
    ("china", 4, {"fortifications": True}, 2),
    ("greatwall", 2, {}, 1),
    ("greatwall", 4, {}, 2),
    ("emperor", 2, {}, 1),
    ("emperor", 4, {}, 2),
    ("emperor", 3, {"borders": "closed"}, 3),
    ("mandarin", 2, {}, 1),
    ("mandarin", 4, {"money": True}, 2),
    ("silkroad", 2, {}, 1),
    ("silkroad", 5, {}, 2),
)
DEFAULT_DIR = Path(__file__).resolve().parents[3] / "tests" / "golden" / "data"


@dataclass(frozen=True)
class Case:
    game: str
    players: int
    options: dict[str, Any]
    seed: int

    @property
    def filename(self) -> str:
        opts = "".join(f"-{k}={v}" for k, v in sorted(self.options.items()))
        return f"{self.game}-{self.players}p{opts}-seed{self.seed}.json"

    def load(self) -> Game:
        return load_game(self.game, players=self.players, **self.options)


def cases() -> list[Case]:
    return [Case(g, p, dict(o), s) for g, p, o, s in CASES]


def _digest(data: Any) -> str:
    text = json.dumps(data, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def record(case: Case) -> dict[str, Any]:
    """Play `case` with seeded random choices and record every step."""
    game = case.load()
    match = Match(game, seed=case.seed)
    chooser = random.Random(case.seed * 7919 + 11)
    steps: list[list[Any]] = []
    seats: list[int | None] = [*range(game.players), None]
    while not match.state.is_terminal():
        s = match.state
        player = s.current_player()
        legal = s.legal_actions()
        if player == CHANCE:
            action = sample_chance(s, match.rng)
        else:
            action = legal[chooser.randrange(len(legal))]
        row: list[Any] = [
            player,
            len(legal),
            game.action_id(action),
            str(action),
            _digest([s.observation(v) for v in seats]),
        ]
        if len(steps) % 10 == 0:
            row.append(
                _digest(
                    [[round(x, 9) for x in s.observation_tensor(v)] for v in range(game.players)]
                )
            )
            row.append(_digest([round(h, 9) for h in s.heuristics()]) if player >= 0 else "")
        steps.append(row)
        match.play(action)
    end = match.state
    return {
        "format": FORMAT,
        "game": case.game,
        "players": case.players,
        "options": case.options,
        "seed": case.seed,
        "columns": ["player", "legal", "id", "action", "views", "tensors", "heuristics"],
        "steps": steps,
        "final_views": _digest([end.observation(v) for v in seats]),
        "scores": list(end.scores()),
        "returns": list(end.returns()),
    }


def first_difference(expected: dict[str, Any], actual: dict[str, Any]) -> str | None:
    """A sentence naming the first step where two recordings part, or None."""
    for i, (a, b) in enumerate(zip(expected["steps"], actual["steps"])):
        if a != b:
            cols = expected["columns"]
            parts = [
                f"{cols[k]} {a[k]!r} -> {b[k]!r}"
                for k in range(max(len(a), len(b)))
                if k >= len(a) or k >= len(b) or a[k] != b[k]
            ]
            return f"step {i}: " + ", ".join(parts)
    if len(expected["steps"]) != len(actual["steps"]):
        return f"length {len(expected['steps'])} -> {len(actual['steps'])}"
    for key in ("final_views", "scores", "returns"):
        if expected[key] != actual[key]:
            return f"{key}: {expected[key]!r} -> {actual[key]!r}"
    return None


def dump(recording: dict[str, Any]) -> str:
    """The recording as JSON text with one step a line, so diffs read step by step."""
    head = {k: v for k, v in recording.items() if k != "steps"}
    lines = ",\n".join(json.dumps(row, separators=(",", ":")) for row in recording["steps"])
    text = json.dumps(head, separators=(",", ":"))
    return text[:-1] + ',"steps":[\n' + lines + "\n]}\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--update", action="store_true", help="rewrite the recorded files")
    parser.add_argument("--dir", type=Path, default=DEFAULT_DIR)
    parser.add_argument("--game", default=None, help="only this title")
    args = parser.parse_args(argv)
    args.dir.mkdir(parents=True, exist_ok=True)
    failed = 0
    for case in cases():
        if args.game and case.game != args.game:
            continue
        path = args.dir / case.filename
        actual = record(case)
        if args.update:
            path.write_text(dump(actual), encoding="utf-8")
            print(f"wrote {path.name}: {len(actual['steps'])} steps")
            continue
        expected = json.loads(path.read_text(encoding="utf-8"))
        diff = first_difference(expected, actual)
        if diff:
            failed += 1
            print(f"{case.filename}: {diff}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
