"""The one observation encoding of every research face: seats relative to the observer.

Gymnasium, PettingZoo, OpenSpiel and the vector environment all hand a learner
`encode(state, seat)`: the title's `State.observation_tensor(seat)` with every block that
is indexed by seat rotated so that the observer is seat 0, the seat after it (in seat
order, the order of play) seat +1, and so on: relative seat ``r`` is absolute seat
``(observer + r) % players``. A policy learned from one seat then reads the same layout
from every other seat. The spectator (``seat=None``) sees the absolute layout.

Each title's blocks are declared here, beside the rotation they drive, and
`layout(game)` lists them as ``(start, stop, meaning)`` rows. The tests check every
declaration against the title's tensor (its length, and which slots move with the
observer), so a change to a tensor that is not carried here fails them.

Versions of the encoding (`ENCODING_VERSION`; a title's own rules version is
`Game.info.version`):

- 1: `State.observation_tensor` as the title computes it, seats absolute (except the
  Silk Road's, relative already).
- 2: seats relative to the observer in every title; `layout` describes each index.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

import tianxia
from tianxia.core import Game, State

ENCODING_VERSION = 2


@dataclass(frozen=True, slots=True)
class Block:
    """A run of `rows` x `width` tensor entries with one meaning.

    seats: ``None``: nothing to rotate; ``"rows"``: row ``i`` belongs to seat ``i`` (rows
    past the player count stay empty); ``"slots"``: in every row, slots ``first`` ..
    ``first + players - 1`` stand for the seats (a one-hot or a set of seats), the rest
    for something else (none, chance, a spectator). `relative`: the title encodes these
    seats relative to the observer already, so they are described, not rotated.
    """

    meaning: str
    width: int = 1
    rows: int = 1
    seats: str | None = None
    first: int = 0
    relative: bool = False

    @property
    def size(self) -> int:
        return self.rows * self.width


Row = tuple[int, int, str]


def _n(g: Game) -> int:
    return g.players


def _china(g: Game) -> list[Block]:
    n = _n(g)
    fields = len(g.board.field_names)  # type: ignore[attr-defined]
    provinces = len(g.board.province_names)  # type: ignore[attr-defined]
    colours = len(g.view.COLOURS)
    return [
        Block("house owner, per house field: one-hot of the seat", n, fields, "slots"),
        Block("fortification on the house field, per house field", fields),
        Block("emissaries /8, per province: one entry per seat", n, provinces, "slots"),
        Block("emissary limit /8, per province", provinces),
        Block("province already scored, per province", provinces),
        Block("own hand /3, by colour", colours),
        Block("hand size /3", 1, n, "rows"),
        Block("cards known to all in the hand /3, by colour", colours, n, "rows"),
        Block("display /4, by colour", colours),
        Block("deck size /57", 1),
        Block("discards /13, by colour", colours),
        Block("supply left: houses /20, emissaries /8, fortification", 3, n, "rows"),
        Block("points /100", 1, n, "rows"),
        Block(f"phase one-hot ({', '.join(g.search._PHASES)})", len(g.search._PHASES)),
        Block("to move: one-hot of the seat, last slot chance", n + 1, 1, "slots"),
        Block("observer: one-hot of the seat (always slot 0)", n, 1, "slots"),
        Block("this turn's province, one-hot", provinces),
        Block("this turn: pieces placed /2, cards played /3, piece limit /2, to take /3", 4),
        Block("deck exhaustions, one-hot 0..2", 3),
    ]


def _greatwall(g: Game) -> list[Block]:
    seats = g.search.MAX_SEATS
    sections = g.search.MAX_SECTIONS
    kinds = g.search.N_KINDS
    values = len(g.tile_values)  # type: ignore[attr-defined]
    phases = tuple(g.view.PHASES)
    out = [
        Block("observer: one-hot of the seat (always slot 0)", seats, 1, "slots"),
        Block("seat on turn, one-hot", seats, 1, "slots"),
        Block("seat to decide now, one-hot", seats, 1, "slots"),
        Block(f"phase one-hot ({', '.join(phases)})", len(phases)),
        Block("actions done this turn /2, end triggered, stopped, chance to move", 4),
        Block("section awaiting the scoring check, per section", sections),
    ]
    for i in range(sections):
        out += [
            Block(f"section {i}: open", 1),
            Block(f"section {i}: face-up fame tiles, by value", values),
            Block(f"section {i}: value /8 of the tile lying on a card", 1),
            Block(
                f"section {i}: total /20, bears the tile, present, uncovered cards /5 by kind",
                3 + kinds,
                seats,
                "rows",
            ),
            Block(f"section {i}: covered cards /5, per seat", seats, 1, "slots"),
        ]
    out += [
        Block("bag /8, by tile value", values),
        Block("boxed tiles /8, by tile value", values),
        Block(
            "hand size /20, deck size /20, fame /50, tiles won /10, cards gone /7 by kind",
            4 + kinds,
            seats,
            "rows",
        ),
        Block("own hand /7, by kind", kinds),
        Block("own deck /7, by kind", kinds),
    ]
    return out


def _emperor(g: Game) -> list[Block]:
    t = g.tables  # type: ignore[attr-defined]
    c = t.c
    seats = g.search.SEATS
    statuses = g.search.STATUSES
    provinces = t.P
    phases = [str(p) for p in g.search.PHASES]
    out: list[Block] = []
    for p in range(provinces):
        out += [
            Block(f"province {p}: owner, one-hot (slot 0 none)", seats + 1, 1, "slots", 1),
            Block(f"province {p}: units /cap", 1),
            Block(f"province {p}: markers /4 ({', '.join(c.marker_kinds)})", len(c.marker_kinds)),
            Block(f"province {p}: influence, one-hot (slot 0 none)", seats + 1, 1, "slots", 1),
            Block(f"province {p}: moved this turn", 1),
        ]
    out += [
        Block(
            f"status one-hot ({', '.join(statuses)}), realm units /30, hand size /10, "
            "score /100, control /provinces, claims",
            len(statuses) + 5,
            seats,
            "rows",
        ),
        Block(f"own cards /4, by yang kind ({', '.join(c.yang_kinds)})", len(c.yang_kinds)),
        Block("fresh yang card: own by kind, or last slot another's", len(c.yang_kinds) + 1),
        Block(f"phase one-hot ({', '.join(phases)})", len(phases)),
        Block("to decide: one-hot of the seat, then chance, then over", seats + 2, 1, "slots"),
        Block(
            "observer: one-hot of the seat (always slot 0), last slot spectator",
            seats + 1,
            1,
            "slots",
        ),
        Block("turn /turns", 1),
        Block("battle: attacking province, one-hot (last slot none)", provinces + 1),
        Block("battle: defending province, one-hot (last slot none)", provinces + 1),
        Block("battle under way", 1),
        Block("yang card assigned to province, one-hot (last slot none)", provinces + 1),
        Block("yin card assigned to province, one-hot (last slot none)", provinces + 1),
        Block(f"yin card shown, one-hot ({', '.join(c.yin_kinds)}, none)", len(c.yin_kinds) + 1),
        Block("yin deck /6, by kind", len(c.yin_kinds)),
        Block("yang deck size /32", 1),
        Block("yang cards out /4, by kind", len(c.yang_kinds)),
        Block("growth due: none, base, then the marker's province, one-hot", provinces + 2),
    ]
    return out


def _mandarin(g: Game) -> list[Block]:
    n = _n(g)
    phases = tuple(g.rules.PHASE_NAMES)
    squares = g.rules.SQUARES
    animals = g.search.ANIMAL_COUNT
    return [
        Block(f"phase one-hot ({', '.join(phases)})", len(phases)),
        Block("to decide: one-hot of the seat, then chance, then over", n + 2, 1, "slots"),
        Block("seat on turn, one-hot", n, 1, "slots"),
        Block("observer: one-hot of the seat (always slot 0)", n, 1, "slots"),
        Block("position on the track, one-hot of the square", squares, n, "rows"),
        Block(
            "where each of the 72 tiles is: one-hot of the seat holding it, then the "
            "dispenser, then the lot",
            n + 2,
            72,
            "slots",
        ),
        Block("holder of each animal's sector, one-hot of the seat", n, animals, "slots"),
        Block("last roll, one-hot 1..6", 6),
        Block("high bidder, one-hot", n, 1, "slots"),
        Block("out of the auction", n, 1, "slots"),
        Block("barred from overbidding", n, 1, "slots"),
        Block("seller, one-hot", n, 1, "slots"),
        Block("passed", n, 1, "slots"),
        Block("debtor, one-hot", n, 1, "slots"),
        Block("receiver, one-hot", n, 1, "slots"),
        Block("winners", n, 1, "slots"),
        Block("may draw from the dispenser", n, 1, "slots"),
        Block(
            "holes /72, dispenser /72, own money /10000, high bid /20000, rolls /6, "
            "turns /cap, money variant, game over",
            8,
        ),
    ]


def _silkroad(g: Game) -> list[Block]:
    seats = g.search.MAX_SEATS
    kinds = len(g.data.cards)  # type: ignore[attr-defined]
    phases = [str(p) for p in g.search.PHASES]
    return [
        Block(
            "merchant: in play, position /length, rose, owner one-hot from slot 3",
            3 + seats,
            seats,
            "slots",
            3,
            relative=True,
        ),
        Block(
            "at the table, silver /100, hand /3, display /3, bazaar cards /2, bazaar allowed",
            6,
            seats,
            "rows",
            relative=True,
        ),
        Block("own hand /3, by card kind", kinds),
        Block("display /3, by card kind", kinds, seats, "rows", relative=True),
        Block("discards / copies, by card kind", kinds),
        Block("pile /55, bazaar cards in it /7, marker /8, reshuffles /4, round /70", 5),
        Block("milestone, one-hot", 5),
        Block(f"phase one-hot ({', '.join(phases)})", len(phases)),
        Block(
            "to decide: one-hot of the seat, then chance, then over",
            seats + 2,
            1,
            "slots",
            relative=True,
        ),
        Block("card being played, one-hot by kind", kinds),
        Block("mode A, mode B", 2),
        Block("merchant the card acts on, one-hot", seats),
        Block("numeral chosen, one-hot I..III", 3),
        Block("part of the card, one-hot", 3),
        Block("miles remaining /10", 1),
        Block("ended at Venice, ended in a stall", 2),
    ]


_LAYOUTS: dict[str, Callable[[Game], list[Block]]] = {
    "china": _china,
    "greatwall": _greatwall,
    "emperor": _emperor,
    "mandarin": _mandarin,
    "silkroad": _silkroad,
}


class Encoding:
    """The encoding of one variant: `encode` and `layout`, the rotations precomputed.

    Build it with `encoding(game)`, which keeps one per variant.
    """

    def __init__(self, game: Game) -> None:
        self.game = game
        self.size = game.observation_tensor_size()
        declare = _LAYOUTS.get(game.NAME)
        if declare is None:
            self.blocks = [Block("observation tensor (no layout declared)", self.size)]
        else:
            self.blocks = declare(game)
        declared = sum(b.size for b in self.blocks)
        if declared != self.size:
            raise ValueError(
                f"{game.NAME}: the declared layout covers {declared} entries, "
                f"the tensor has {self.size}"
            )
        n = game.players
        # Gathering through an index per observer costs one NumPy take per observation.
        self._take = [self._source(me) for me in range(n)]

    def _source(self, me: int) -> np.ndarray | None:
        n = self.game.players
        src = np.arange(self.size)
        moved = False
        o = 0
        for b in self.blocks:
            if b.seats is not None and not b.relative and me:
                moved = True
                if b.seats == "rows":
                    for r in range(n):
                        a = (r + me) % n
                        src[o + r * b.width : o + (r + 1) * b.width] = np.arange(
                            o + a * b.width, o + (a + 1) * b.width
                        )
                else:
                    for i in range(b.rows):
                        row = o + i * b.width + b.first
                        for r in range(n):
                            src[row + r] = row + (r + me) % n
            o += b.size
        return src if moved else None

    def encode(self, state: State, seat: int | None, out: np.ndarray | None = None) -> np.ndarray:
        """`seat`'s observation, seats relative to it, as float32 (into `out` if given)."""
        raw = np.asarray(state.observation_tensor(seat), dtype=np.float32)
        take = None if seat is None else self._take[seat]
        if out is None:
            return raw if take is None else raw[take]
        if take is None:
            out[:] = raw
        else:
            np.take(raw, take, out=out)
        return out

    def layout(self) -> list[Row]:
        """``(start, stop, meaning)`` for every block, in order, covering the tensor."""
        n = self.game.players
        rows: list[Row] = []
        o = 0
        for b in self.blocks:
            if b.seats == "rows":
                for r in range(b.rows):
                    who = f"seat +{r}" if r < n else f"seat +{r} (empty at {n} players)"
                    rows.append((o + r * b.width, o + (r + 1) * b.width, f"{who}: {b.meaning}"))
            elif b.seats == "slots":
                shape = f"{b.rows} rows of {b.width}; " if b.rows > 1 else ""
                note = f"slot {b.first}+r" if b.first else "slot r"
                rows.append((o, o + b.size, f"{b.meaning} [{shape}{note} is seat +r, r < {n}]"))
            else:
                rows.append((o, o + b.size, b.meaning))
            o += b.size
        return rows


_ENCODINGS: dict[str, Encoding] = {}


def encoding(game: Game) -> Encoding:
    """The `Encoding` of variant `game` (one per variant, kept: a program plays few)."""
    key = json.dumps(game.spec(), sort_keys=True, default=repr)
    found = _ENCODINGS.get(key)
    if found is None:
        found = _ENCODINGS[key] = Encoding(game)
    return found


def layout(game: Game | str, players: int | None = None, **options: Any) -> list[Row]:
    """``(start, stop, meaning)`` rows of the observation of `game` (a `Game`, or a name
    with `players` and options as for `tianxia.load_game`)."""
    if isinstance(game, str):
        game = tianxia.load_game(game, players=players, **options)
    return encoding(game).layout()


def markdown(game: Game) -> str:
    """The layout of `game` as a Markdown table, folded under its title."""
    lines = [
        f"<details><summary>{game.info.title}, {game.players} players: "
        f"{game.observation_tensor_size()} entries</summary>",
        "",
        "| indices | meaning |",
        "|---|---|",
    ]
    for start, stop, meaning in layout(game):
        where = f"{start}" if stop == start + 1 else f"{start}-{stop - 1}"
        lines.append(f"| {where} | {meaning} |")
    lines += ["", "</details>"]
    return "\n".join(lines)


def tables() -> str:
    """Every declared title's layout at its smallest player count, as docs/research.md
    shows it."""
    names = [name for name in tianxia.list_games() if name in _LAYOUTS]
    return "\n\n".join(markdown(tianxia.load_game(name)) for name in names) + "\n"


BEGIN, END = "<!-- layouts: begin -->\n", "<!-- layouts: end -->"


def write_docs(path: str) -> None:
    """Put `tables()` between the layout markers of the Markdown file at `path`."""
    with open(path, encoding="utf-8") as f:
        text = f.read()
    head, begin, rest = text.partition(BEGIN)
    _, end, tail = rest.partition(END)
    if not begin or not end:
        raise ValueError(f"{path} has no {BEGIN.strip()} ... {END} section")
    with open(path, "w", encoding="utf-8") as f:
        f.write(head + BEGIN + tables() + END + tail)


if __name__ == "__main__":
    import sys

    if sys.argv[1:2] == ["--docs"]:
        write_docs(sys.argv[2] if len(sys.argv) > 2 else "docs/research.md")
    else:
        print(tables(), end="")
