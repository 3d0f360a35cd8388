"""What search and learning need: resampling hidden hands, the evaluation hook, the tensor."""

from __future__ import annotations

import math
import random

from tianxia.games.greatwall.data import KINDS
from tianxia.games.greatwall.rules import section_present, section_qualifies, section_totals
from tianxia.games.greatwall.state import GreatWallState, Phase

# ismcts's defaults on this game (benchmarks/bots/RESULTS.md): open-loop chance. A card
# drawn from a deck and a tile revealed are chance events of up to seven outcomes each,
# and with a subtree per outcome a short search spreads its visits thin: at 100
# simulations, two seats, open loop won 64.5% of 200 games against closed, and lifted the
# line against OpenSpiel's IS-MCTS with our hook from 58% to 62.5% (100 games each); at
# four seats it held level (1.05x the fair share, 200 games).
SEARCH_DEFAULTS = {"chance": "open"}


def resample(s: GreatWallState, seat: int, rng: random.Random) -> GreatWallState:
    """Redeal every other seat's hand from its unseen cards.

    A seat's hand and deck together are its set minus its cards on the table and those
    gone from the game: public facts, so the pool is built from them in kind order, then
    shuffled; only the split into hand and deck is hidden.
    """
    if s.phase == Phase.OVER:
        return s
    r = s.draft()
    hands = list(s.hands)
    decks = list(s.decks)
    kinds = range(len(KINDS))
    for other in range(s.game.players):
        if other == seat:
            continue
        size = sum(s.hands[other])
        pool = [k for k in kinds for _ in range(s.hands[other][k] + s.decks[other][k])]
        rng.shuffle(pool)
        hand = [0] * len(KINDS)
        deck = [0] * len(KINDS)
        for k in pool[:size]:
            hand[k] += 1
        for k in pool[size:]:
            deck[k] += 1
        hands[other] = tuple(hand)
        decks[other] = tuple(deck)
    r.hands = tuple(hands)
    r.decks = tuple(decks)
    return r.freeze()


def estimates(s: GreatWallState) -> tuple[list[float], list[float], list[float], list[float]]:
    """Per seat: fame won, tiles lying on own cards, expected tiles from current leads,
    and a small credit for cards still to play."""
    g = s.game
    n = g.players
    fame = [float(sum(w)) for w in s.won]
    on_cards = [0.0] * n
    leads = [0.0] * n
    for sec in s.sections:
        if not sec.open or not sec.stacks:
            continue
        if sec.placed is not None:
            on_cards[sec.stacks[sec.placed[1]][-1] >> 3] += sec.placed[0]
        if not sec.tiles:
            continue
        # The same test as the scoring check: a lone seat leads even below 0 (GW-4.4),
        # and a seat without cards counts 0 against the others (R12).
        for p in range(n):
            if section_qualifies(sec, p, n, g.card_values):
                leads[p] += 0.6 * max(sec.tiles)
                break
    reserve = [0.15 * (sum(s.hands[p]) + sum(s.decks[p])) for p in range(n)]
    return fame, on_cards, leads, reserve


def heuristic_terms(s: GreatWallState, seat: int) -> dict[str, float]:
    fame, on_cards, leads, reserve = estimates(s)
    return {
        "fame": fame[seat],
        "tiles_on_cards": on_cards[seat],
        "leads": leads[seat],
        "cards_left": reserve[seat],
    }


def heuristic(s: GreatWallState, seat: int) -> float:
    """tanh of the seat's estimated fame minus the best other seat's, scaled by a tile."""
    n = s.game.players
    if s.to_move < -1:  # the end: the result itself
        return s.returns()[seat]
    est = [sum(t) for t in zip(*estimates(s))]
    best_other = max(est[p] for p in range(n) if p != seat)
    return math.tanh((est[seat] - best_other) / 8.0)


def heuristics(s: GreatWallState) -> list[float]:
    """`heuristic` of every seat, the estimates computed once."""
    n = s.game.players
    if s.to_move < -1:
        return list(s.returns())
    est = [sum(t) for t in zip(*estimates(s))]
    return [
        math.tanh((est[seat] - max(est[p] for p in range(n) if p != seat)) / 8.0)
        for seat in range(n)
    ]


MAX_SEATS = 5
MAX_SECTIONS = 4
N_KINDS = len(KINDS)
HEADER_WIDTH = 3 * MAX_SEATS + 5 + 4 + MAX_SECTIONS
SEAT_WIDTH = 4 + N_KINDS


def section_width(tile_values: int) -> int:
    return 1 + tile_values + 1 + MAX_SEATS * (3 + N_KINDS) + MAX_SEATS


def tensor_size(tile_values: int) -> int:
    """Length of the tensor for a tile set of `tile_values` distinct values (7 printed)."""
    return (
        HEADER_WIDTH
        + MAX_SECTIONS * section_width(tile_values)
        + 2 * tile_values
        + MAX_SEATS * SEAT_WIDTH
        + 2 * N_KINDS
    )


def tensor(s: GreatWallState, seat: int | None) -> list[float]:
    """A fixed-length encoding of `observation(seat)` (the same for every player count).

    Layout: header (viewer, turn, current player one-hot; phase; flags; pending
    sections), then per section (open, face-up tiles by value, the tile on a card, and
    per seat: total, tile-bearing flag, presence, uncovered cards by kind, covered
    cards), the bag and the boxed tiles by value, per seat (hand and deck sizes, fame,
    tiles won, cards gone by kind), the viewer's hand and deck by kind. Counts are
    scaled to roughly [0, 1].
    """
    g = s.game
    n = g.players
    nv = len(g.tile_values)
    sw = section_width(nv)
    v: list[float] = [0.0] * tensor_size(nv)
    if seat is not None:
        v[seat] = 1.0
    v[MAX_SEATS + s.seat] = 1.0
    if s.to_move >= 0:
        v[2 * MAX_SEATS + s.to_move] = 1.0
    o = 3 * MAX_SEATS
    v[o + s.phase] = 1.0
    o += 5
    v[o] = s.done / 2
    v[o + 1] = float(s.trigger >= 0)
    v[o + 2] = float(s.stopped)
    v[o + 3] = float(s.to_move == -1)
    o += 4
    for i in range(len(s.sections)):
        v[o + i] = float(s.pending >> i & 1)
    o += MAX_SECTIONS
    width = 3 + N_KINDS
    for sec in s.sections:
        v[o] = float(sec.open)
        for value in sec.tiles:
            v[o + 1 + g.value_index[value]] += 1.0
        base = o + 1 + nv
        owner_of_tile = -1
        if sec.placed is not None:
            v[base] = sec.placed[0] / 8
            owner_of_tile = sec.stacks[sec.placed[1]][-1] >> 3
        base += 1
        totals = section_totals(sec, n, g.card_values)
        present = section_present(sec)
        for p in range(n):
            cell = base + p * width
            v[cell] = totals[p] / 20
            v[cell + 1] = float(p == owner_of_tile)
            v[cell + 2] = float(present >> p & 1)
        covered = base + MAX_SEATS * width
        for st in sec.stacks:
            top = st[-1]
            v[base + (top >> 3) * width + 3 + (top & 7)] += 0.2
            for c in st[:-1]:
                v[covered + (c >> 3)] += 0.2
        o += sw
    o = HEADER_WIDTH + MAX_SECTIONS * sw
    for i, c in enumerate(s.bag):
        v[o + i] = c / 8
    for i, c in enumerate(s.boxed):
        v[o + nv + i] = c / 8
    o += 2 * nv
    for p in range(n):
        cell = o + p * SEAT_WIDTH
        v[cell] = sum(s.hands[p]) / 20
        v[cell + 1] = sum(s.decks[p]) / 20
        v[cell + 2] = sum(s.won[p]) / 50
        v[cell + 3] = len(s.won[p]) / 10
        for k, c in enumerate(s.gone[p]):
            v[cell + 4 + k] = c / 7
    o += MAX_SEATS * SEAT_WIDTH
    if seat is not None and 0 <= seat < n:
        for k in range(N_KINDS):
            v[o + k] = s.hands[seat][k] / 7
            v[o + N_KINDS + k] = s.decks[seat][k] / 7
    return v


def private(s: GreatWallState, seat: int) -> tuple[int, ...]:
    """What `seat` alone knows here: its hand."""
    return s.hands[seat]
