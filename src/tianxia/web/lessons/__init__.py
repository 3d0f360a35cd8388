"""Lessons: positions from a title's rulebook, each asking for one move and telling why.

A title's lessons are data, one TOML file per title in this folder (`<game>.toml`,
described in docs/web.md). A lesson names the rules it teaches, builds its position with
the title's own position builder (the builder's keyword arguments, as TOML), asks for a
move in notation (one or more actions of one turn), and states what that move changes as
facts the engine is asked for (`after`). Everything a player reads of a lesson (its
title, explanation, task, hint and result) is written in the lesson in every language of
the pages, beside the position it speaks of.

The engine judges the moves: a lesson page sends the moves played so far and the next
one; `answer` applies them to the lesson's position, checked, and says whether the move
was the one asked for, the hint if it was another legal move, or the refusal.
"""

from __future__ import annotations

import functools
import tomllib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from fnmatch import fnmatchcase
from pathlib import Path
from typing import Any

import tianxia
from tianxia.core import Game, State

HERE = Path(__file__).parent
# Every text of a lesson is written in each of these (the pages' languages).
TEXT_LANGS = ("en", "nl", "de")
TEXTS = ("title", "explanation", "task", "hint", "result")


class LessonError(ValueError):
    """A lesson file that does not say what a lesson must."""


@dataclass(frozen=True)
class Lesson:
    game_name: str
    id: str
    rules: tuple[str, ...]
    players: int
    options: Mapping[str, Any]
    names: tuple[str, ...]
    position: Mapping[str, Any]
    expected: tuple[str, ...]
    wrong: str | None  # a legal move the tests (and the browser test) answer with the hint
    after: Mapping[str, Any]
    texts: Mapping[str, Mapping[str, str]]  # text -> language -> words
    example: bool = False  # the rulebook's own example
    # Moves applied to the built position before the lesson starts (a die, a tile drawn):
    # what chance did to reach the lesson's question.
    prelude: tuple[str, ...] = ()

    def text(self, what: str, lang: str) -> str:
        words = self.texts[what]
        return words.get(lang) or words["en"]

    @functools.cached_property
    def seat(self) -> int:
        """The seat that moves in the lesson's position: the one whose view is shown."""
        return int(self.start().current_player())

    def game(self) -> Game:
        return _game(self.game_name, self.players, tuple(sorted(self.options.items())))

    def start(self) -> State:
        """The lesson's position, built by the title's position builder."""
        state = BUILDERS[self.game_name](self.game(), dict(self.position))
        for move in self.prelude:
            state = state.apply(move)
        return state

    def facts(self, state: State) -> dict[str, Any]:
        """The facts `after` names, as the engine reads them from `state`."""
        readers = READERS[self.game_name]
        out = {}
        for key in self.after:
            if key not in readers:
                raise LessonError(f"{self.game_name}/{self.id}: no fact {key!r}")
            out[key] = readers[key](state)
        return out


@functools.cache
def _game(name: str, players: int, options: tuple[tuple[str, Any], ...]) -> Game:
    return tianxia.load_game(name, players=players, **dict(options))


# --- the position builders, as a lesson file speaks to them ---------------------------


def _china(game: Game, spec: dict[str, Any]) -> State:
    from tianxia.games.china.position import position

    return position(game, **spec)  # type: ignore[arg-type]


def _seat_keys(value: Any) -> Any:
    """TOML keys are strings: a table keyed by seat numbers ("0", "1") gets int keys."""
    if isinstance(value, dict) and value and all(str(k).isdigit() for k in value):
        return {int(k): v for k, v in value.items()}
    return value


def _greatwall(game: Game, spec: dict[str, Any]) -> State:
    from tianxia.games.greatwall.position import position

    spec = {k: _seat_keys(v) for k, v in spec.items()}
    sections = spec.pop("sections")
    return position(game.players, sections, **spec)


def _emperor(game: Game, spec: dict[str, Any]) -> State:
    from tianxia.games.emperor.position import position

    spec = {k: _seat_keys(v) for k, v in spec.items()}
    holdings = {p: (int(seat), int(n)) for p, (seat, n) in spec.pop("holdings").items()}
    for key in ("started", "senior"):
        if key in spec:
            spec[key] = tuple(spec[key])
    return position(game, holdings, **spec)  # type: ignore[arg-type]


def _silkroad(game: Game, spec: dict[str, Any]) -> State:
    from tianxia.games.silkroad.position import card, position

    def kinds(rows: Any) -> Any:
        return [[card(game, k) for k in row] for row in rows]  # type: ignore[arg-type]

    spec = dict(spec)
    for key in ("hands", "displays"):
        if key in spec:
            spec[key] = kinds(spec[key])
    if "discard" in spec:
        spec["discard"] = [card(game, k) for k in spec["discard"]]  # type: ignore[arg-type]
    return position(game, spec.pop("pos"), **spec)  # type: ignore[arg-type]


def _mandarin(game: Game, spec: dict[str, Any]) -> State:
    from tianxia.games.mandarin.data import TABLES
    from tianxia.games.mandarin.position import position
    from tianxia.games.mandarin.rules import DISPENSER

    spec = dict(spec)
    tiles = spec.pop("tiles", None)
    if tiles is not None:
        # Tiles by seat, by name ("ox-red"): every other tile is in the dispenser.
        owner = [DISPENSER] * len(TABLES.tile_names)
        for seat, names in tiles.items():
            for name in names:
                owner[TABLES.tile_names.index(name)] = int(seat)
        spec["owner"] = owner
    return position(game, **spec)  # type: ignore[arg-type]


BUILDERS: dict[str, Callable[[Game, dict[str, Any]], State]] = {
    "mandarin": _mandarin,
    "silkroad": _silkroad,
    "china": _china,
    "greatwall": _greatwall,
    "emperor": _emperor,
}


# --- the facts a lesson may state about the position after its move --------------------


def _china_readers() -> dict[str, Callable[[Any], Any]]:
    from tianxia.games.china import rules

    def names(s: Any, flags: Sequence[int]) -> list[str]:
        return [n for n, f in zip(s.game.board.province_names, flags, strict=True) if f]

    def houses_by_seat(s: Any) -> dict[str, list[int]]:
        b = s.game.board
        out = {}
        for p, name in enumerate(b.province_names):
            counts = [0] * s.game.players
            for f in b.province_fields[p]:
                if s.houses[f] >= 0:
                    counts[s.houses[f]] += 1
            if any(counts):
                out[name] = counts
        return out

    def emissaries_by_seat(s: Any) -> dict[str, list[int]]:
        n = s.game.players
        out = {}
        for p, name in enumerate(s.game.board.province_names):
            row = list(s.emissaries[p * n : (p + 1) * n])
            if any(row):
                out[name] = row
        return out

    return {
        "points": lambda s: list(s.points),
        "scored": lambda s: names(s, s.scored),
        "phase": lambda s: str(s.phase),
        "houses": houses_by_seat,
        "emissaries": emissaries_by_seat,
        "final_houses": lambda s: rules.final_terms(s)[0],
        "alliances": lambda s: list(rules.alliance_points(s)),
        "chains": lambda s: [rules.chain_points(s, p) for p in range(s.game.players)],
        "hand_cards": lambda s: sum(s.hands[s.seat]),
    }


def _greatwall_readers() -> dict[str, Callable[[Any], Any]]:
    from tianxia.games.greatwall import rules

    return {
        "totals": lambda s: [
            rules.section_totals(sec, s.game.players, s.game.card_values) for sec in s.sections
        ],
        "won": lambda s: [list(w) for w in s.won],
        "scores": lambda s: list(s.scores()),
    }


def _emperor_readers() -> dict[str, Callable[[Any], Any]]:
    def holdings(s: Any) -> dict[str, list[int]]:
        names = s.game.tables.index
        return {p: [s.owner[i], s.units[i]] for p, i in names.items() if s.owner[i] >= 0}

    def markers(s: Any) -> dict[str, list[str]]:
        kinds = s.game.tables.c.marker_kinds
        out = {}
        for p, i in s.game.tables.index.items():
            here = [k for k, n in zip(kinds, s.markers[i], strict=True) for _ in range(n)]
            if here:
                out[p] = here
        return out

    return {
        "holdings": holdings,
        "scores": lambda s: list(s.scores()),
        "phase": lambda s: str(s.phase),
        "to_move": lambda s: s.current_player(),
        "yang_cards": lambda s: [sum(h) for h in s.hands],
        "markers": markers,
    }


def _silkroad_readers() -> dict[str, Callable[[Any], Any]]:
    def displays(s: Any) -> list[list[str]]:
        return [[s.game.data.cards[k].key for k in row] for row in s.displays]

    return {
        "pos": lambda s: list(s.pos),
        "silver": lambda s: list(s.silver),
        "phase": lambda s: str(s.phase),
        "to_move": lambda s: s.current_player(),
        "displays": displays,
    }


def _mandarin_readers() -> dict[str, Callable[[Any], Any]]:
    from tianxia.games.mandarin.data import TABLES

    def tiles(s: Any) -> dict[str, list[str]]:
        out: dict[str, list[str]] = {}
        for name, seat in zip(TABLES.tile_names, s.owner, strict=True):
            if 0 <= seat < s.game.players:
                out.setdefault(str(seat), []).append(name)
        return out

    def sectors(s: Any) -> dict[str, int]:
        held = s.observation(None)["sector_holders"]
        return {a: seat for a, seat in zip(TABLES.animals, held, strict=True) if seat >= 0}

    def bid(s: Any) -> list[int] | None:
        auction = s.observation(None)["auction"]
        return None if auction is None else [auction["high_bid"], auction["high_bidder"]]

    return {
        "tiles": tiles,
        "lot": lambda s: [TABLES.tile_names[t] for t in s.lot],
        "to_move": lambda s: s.current_player(),
        "money": lambda s: list(s.money),
        "sectors": sectors,
        "bid": bid,
    }


class _Readers(dict[str, dict[str, Callable[[Any], Any]]]):
    """Built on first use: a reader imports its title's rules."""

    def __missing__(self, name: str) -> dict[str, Callable[[Any], Any]]:
        made = {
            "china": _china_readers,
            "greatwall": _greatwall_readers,
            "emperor": _emperor_readers,
            "silkroad": _silkroad_readers,
            "mandarin": _mandarin_readers,
        }[name]()
        self[name] = made
        return made


READERS = _Readers()


# --- the lesson files -----------------------------------------------------------------


def _texts(game: str, lid: str, raw: Mapping[str, Any]) -> dict[str, dict[str, str]]:
    out: dict[str, dict[str, str]] = {}
    for what in TEXTS:
        words = raw.get(what)
        if not isinstance(words, dict):
            raise LessonError(f"{game}/{lid}: no {what} (a table of en, nl, de)")
        missing = [lang for lang in TEXT_LANGS if not str(words.get(lang, "")).strip()]
        if missing:
            raise LessonError(f"{game}/{lid}: {what} has no words in {', '.join(missing)}")
        out[what] = {lang: " ".join(str(words[lang]).split()) for lang in TEXT_LANGS}
    return out


def _lesson(game: str, raw: Mapping[str, Any]) -> Lesson:
    lid = str(raw.get("id", ""))
    if not lid or not lid.replace("-", "").isalnum() or lid != lid.lower():
        raise LessonError(f"{game}: a lesson needs an id of lower-case words and dashes: {lid!r}")
    expected = raw.get("expected")
    if isinstance(expected, str):
        expected = [expected]
    if not expected:
        raise LessonError(f"{game}/{lid}: no expected move")
    rules = tuple(raw.get("rules", ()))
    if not rules:
        raise LessonError(f"{game}/{lid}: no rule named")
    known = {
        "id",
        "rules",
        "players",
        "options",
        "names",
        "position",
        "expected",
        "wrong",
        "after",
        "example",
        "prelude",
        *TEXTS,
    }
    unknown = set(raw) - known
    if unknown:
        raise LessonError(f"{game}/{lid}: unknown keys {sorted(unknown)}")
    return Lesson(
        game_name=game,
        id=lid,
        rules=rules,
        players=int(raw.get("players", 4)),
        options=dict(raw.get("options", {})),
        names=tuple(raw.get("names", ())),
        position=dict(raw.get("position", {})),
        expected=tuple(str(a) for a in expected),
        wrong=str(raw["wrong"]) if "wrong" in raw else None,
        after=dict(raw.get("after", {})),
        texts=_texts(game, lid, raw),
        example=bool(raw.get("example", False)),
        prelude=tuple(str(a) for a in raw.get("prelude", ())),
    )


def titles() -> list[str]:
    """The titles that have lessons, in the lobby's order."""
    return [g for g in tianxia.list_games() if (HERE / f"{g}.toml").exists()]


@functools.cache
def lessons(game: str) -> tuple[Lesson, ...]:
    """A title's lessons in the order its file gives them (empty if it has none)."""
    path = HERE / f"{game}.toml"
    if not path.exists():
        return ()
    raw = tomllib.loads(path.read_text())
    out = tuple(_lesson(game, r) for r in raw.get("lesson", []))
    ids = [lesson.id for lesson in out]
    if len(set(ids)) != len(ids):
        raise LessonError(f"{game}: two lessons share an id")
    return out


def find(game: str, lesson_id: str) -> Lesson | None:
    for lesson in lessons(game):
        if lesson.id == lesson_id:
            return lesson
    return None


# --- playing a lesson -----------------------------------------------------------------


@dataclass
class Answer:
    """What a lesson says to the moves sent: `state` is the position now shown."""

    state: State
    played: list[str]  # the lesson's moves applied so far
    outcome: str  # "start", "step" (one of several moves made), "done", "hint"
    move: str | None = None


def matches(step: str, action: str) -> bool:
    """Whether `action` is the move a step asks for: a step is a move's notation, or a
    pattern of it where any of several fields will do (`house Wei.?`)."""
    return fnmatchcase(action, step)


def answer(lesson: Lesson, played: Sequence[str], move: str | None) -> Answer:
    """`played` must be moves the lesson asked for, in order; `move` (if any) is the next
    move tried. A legal move other than the one asked for changes nothing and is
    answered with the hint; an illegal one raises the engine's refusal."""
    if len(played) > len(lesson.expected) or not all(
        matches(step, str(a)) for step, a in zip(lesson.expected, played, strict=False)
    ):
        raise LessonError("these are not the lesson's moves")
    state = lesson.start()
    for a in played:
        state = state.apply(a)
    done = [str(a) for a in played]
    if move is None:
        return Answer(state, done, "done" if len(done) == len(lesson.expected) else "start")
    if len(done) == len(lesson.expected):
        raise LessonError("the lesson is over; start it again to play another move")
    action = state.check(state.to_action(move))  # the engine's refusal, if illegal
    if not matches(lesson.expected[len(done)], str(action)):
        return Answer(state, done, "hint", str(action))
    state = state.apply(action)
    done.append(str(action))
    return Answer(state, done, "done" if len(done) == len(lesson.expected) else "step", move)


def expected_now(lesson: Lesson, state: State, played: Sequence[str]) -> list[str]:
    """The legal moves that are the lesson's next step (none once it is done)."""
    if len(played) >= len(lesson.expected):
        return []
    step = lesson.expected[len(played)]
    return [str(a) for a in state.legal_actions() if matches(step, str(a))]
