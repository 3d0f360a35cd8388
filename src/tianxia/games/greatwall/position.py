"""Build a position from a short picture, for tests and for setting up examples.

A section is written as its card places from left to right, then `|` and its face-up
fame tiles. A place is ``<seat>:<kind>``; a dragon laid on it follows after ``/``
(``0:tower/1:dragon``); a fame tile lying on it is ``*<value>`` (``0:gate*5``). Seats
are 0-based here. ``closed`` is a section that has closed.

>>> s = position(2, ["0:tower 1:gate 1:wall | 5 3", "| 2 4"], seat=1)
>>> rules.section_totals(s.sections[0], 2, s.game.card_values)
[3, 3]
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from tianxia.core.log import EMPTY as EMPTY_LOG
from tianxia.games.greatwall import rules
from tianxia.games.greatwall.data import KINDS
from tianxia.games.greatwall.game import GreatWall
from tianxia.games.greatwall.section import Section, card
from tianxia.games.greatwall.state import GreatWallState, Phase


def parse_section(text: str) -> Section:
    """One section from its picture (see the module docstring)."""
    if text.strip() == "closed":
        return Section(open=False)
    cards_text, _, tiles_text = text.partition("|")
    stacks: list[tuple[int, ...]] = []
    placed: tuple[int, int] | None = None
    for pos, token in enumerate(cards_text.split()):
        token, star, tile = token.partition("*")
        if star:
            placed = (int(tile), pos)
        stack = []
        for part in token.split("/"):
            seat, _, kind = part.partition(":")
            if kind not in KINDS:
                raise ValueError(f"unknown card kind {kind!r} in {text!r}")
            stack.append(card(int(seat), KINDS.index(kind)))
        stacks.append(tuple(stack))
    tiles = tuple(int(v) for v in tiles_text.split())
    return Section(tuple(stacks), tiles, placed, True)


def _kind_counts(cards: str | Mapping[str, int]) -> list[int]:
    counts = [0] * len(KINDS)
    if isinstance(cards, str):
        for name in cards.split():
            counts[KINDS.index(name)] += 1
    else:
        for name, c in cards.items():
            counts[KINDS.index(name)] += c
    return counts


def position(
    players: int,
    sections: Sequence[str],
    *,
    seat: int = 0,
    hands: Mapping[int, str | Mapping[str, int]] | None = None,
    decks: Mapping[int, str | Mapping[str, int]] | None = None,
    won: Mapping[int, Sequence[int]] | None = None,
    bag: Mapping[int, int] | None = None,
    trigger: int = -1,
    stopped: bool = False,
) -> GreatWallState:
    """The start of `seat`'s turn (its scoring check comes first) in the pictured position.

    Hands default to empty; a deck defaults to the rest of the seat's set (its set minus
    its hand and its cards on the table). The bag defaults to every tile not on the table
    nor won.
    """
    game = GreatWall(players)
    secs = tuple(parse_section(t) for t in sections)
    if len(secs) != game.sections:
        raise ValueError(f"{players} players play on {game.sections} sections, not {len(secs)}")
    hand_rows = [_kind_counts((hands or {}).get(p, "")) for p in range(players)]
    table = [[0] * len(KINDS) for _ in range(players)]
    for sec in secs:
        for st in sec.stacks:
            for c in st:
                table[c >> 3][c & 7] += 1
    deck_rows = []
    for p in range(players):
        if decks is not None and p in decks:
            deck_rows.append(_kind_counts(decks[p]))
            continue
        rest = [game.card_copies[k] - hand_rows[p][k] - table[p][k] for k in range(len(KINDS))]
        if min(rest) < 0:
            raise ValueError(f"seat {p} holds and shows more cards than one set has")
        deck_rows.append(rest)
    won_rows = tuple(tuple((won or {}).get(p, ())) for p in range(players))
    if bag is None:
        used = [v for sec in secs for v in sec.tiles]
        used += [sec.placed[0] for sec in secs if sec.placed is not None]
        used += [v for w in won_rows for v in w]
        counts = list(game.components.tile_counts)
        for v in used:
            counts[game.value_index[v]] = max(0, counts[game.value_index[v]] - 1)
        bag_row = tuple(counts)
    else:
        bag_row = tuple(bag.get(v, 0) for v in game.tile_values)
    state = GreatWallState.new_draft(
        game,
        hands=tuple(tuple(r) for r in hand_rows),
        decks=tuple(tuple(r) for r in deck_rows),
        gone=((0,) * len(KINDS),) * players,
        sections=secs,
        bag=bag_row,
        boxed=(0,) * len(bag_row),
        won=won_rows,
        seat=seat,
        phase=Phase.SCORE,
        trigger=trigger,
        stopped=stopped,
        pending=0,
        done=0,
        log=EMPTY_LOG,
    )
    rules.begin_turn(state, seat)
    rules.settle(state)
    return state.freeze()
