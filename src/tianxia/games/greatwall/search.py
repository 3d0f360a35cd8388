"""What search and learning need: resampling hidden hands, the evaluation hook, the tensor."""

from __future__ import annotations

import random

from tianxia.core import winmodel
from tianxia.games.greatwall.data import KINDS
from tianxia.games.greatwall.rules import section_present, section_qualifies, section_totals
from tianxia.games.greatwall.state import GreatWallState, Phase

# ismcts's defaults on this game (benchmarks/bots/RESULTS.md): open-loop chance. A card
# drawn from a deck and a tile revealed are chance events of up to seven outcomes each,
# and with a subtree per outcome a short search spreads its visits thin: at 100
# simulations, two seats, open loop won 64.5% of 200 games against closed, and lifted the
# line against OpenSpiel's IS-MCTS with our hook from 58% to 62.5% (100 games each); at
# four seats it held level (1.05x the fair share, 200 games). And greedy rollouts: each
# rollout decision takes the mover's best successor by the win model, one ply on. Under
# the first hook they did not help; under the win model, at 100 simulations, they took
# ismcts against greedy from 70.5% to 82% of 100 games at two seats and from 1.35x to
# 1.82x the fair share at four, and against OpenSpiel's IS-MCTS with our hook from 72.5%
# to 83.5% at two seats (twelfth round).
SEARCH_DEFAULTS = {"chance": "open", "rollout_greedy": 1.0}

# 2: the win model below; 1 was the lead over the best other seat, squashed by tanh.
HOOK_VERSION = 2


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


# The win model: each seat's chance of winning is a softmax over the seats of a weighted
# sum of its features (a conditional logit), whose weights move linearly with the share
# of all cards still to play, so that cards in reserve can count for more early on and
# fame for more late. Fitted to the outcomes of the benchmark's games by
# benchmarks/bots/fit_hook.py, which prints this table; keyed by the number of seats.
WIN_FEATURES: tuple[str, ...] = (
    "fame",
    "tiles_on_cards",
    "tile_leads",
    "tiles",
    *(f"{kind}_left" for kind in KINDS),
    "hand",
    "to_move",
)
WIN_WEIGHTS: winmodel.Weights = {
    2: (
        (
            0.4171,  # fame
            0.2355,  # tiles_on_cards
            0.2009,  # tile_leads
            0.186,  # tiles
            0.6328,  # wall_left
            1.3104,  # gate_left
            1.6661,  # tower_left
            1.2582,  # noble_left
            0.9618,  # warrior_left
            1.4643,  # horseman_left
            1.6777,  # dragon_left
            0.0465,  # hand
            0.0847,  # to_move
        ),
        (
            -0.0369,  # fame
            0.0429,  # tiles_on_cards
            -0.0582,  # tile_leads
            0.087,  # tiles
            -0.0406,  # wall_left
            -0.6536,  # gate_left
            -0.5966,  # tower_left
            -0.6631,  # noble_left
            -0.2293,  # warrior_left
            -0.9008,  # horseman_left
            -0.2846,  # dragon_left
            -0.2675,  # hand
            -0.267,  # to_move
        ),
    ),
    4: (
        (
            0.357,  # fame
            0.2791,  # tiles_on_cards
            0.1642,  # tile_leads
            0.0937,  # tiles
            0.2044,  # wall_left
            0.5811,  # gate_left
            0.6745,  # tower_left
            0.2522,  # noble_left
            0.3742,  # warrior_left
            0.6744,  # horseman_left
            0.629,  # dragon_left
            0.096,  # hand
            0.0358,  # to_move
        ),
        (
            -0.4163,  # fame
            -0.2745,  # tiles_on_cards
            -0.1573,  # tile_leads
            -0.1864,  # tiles
            -0.084,  # wall_left
            -0.3265,  # gate_left
            -0.0373,  # tower_left
            0.0653,  # noble_left
            -0.2434,  # warrior_left
            -0.2946,  # horseman_left
            -0.291,  # dragon_left
            -0.224,  # hand
            -0.1218,  # to_move
        ),
    ),
}


def win_features(s: GreatWallState) -> tuple[list[list[float]], float]:
    """Per seat, the features named by `WIN_FEATURES`; and the share of all cards still to
    play (1 at the deal, 0 when every set is on the wall).

    fame: the values of the tiles won; tiles_on_cards: the value of a first tile lying on
    the seat's top card; tile_leads: the best tile of each open section the seat would win
    at a scoring check now; tiles: how many tiles won (the tie-break); then each kind's
    cards in hand and deck, the cards in hand, and 1 for the seat to move.
    """
    g = s.game
    n = g.players
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
                leads[p] += max(sec.tiles)
                break
    kinds = len(KINDS)
    rows: list[list[float]] = []
    left = 0
    for p in range(n):
        hand, deck = s.hands[p], s.decks[p]
        row = [float(sum(s.won[p])), on_cards[p], leads[p], float(len(s.won[p]))]
        for k in range(kinds):
            row.append(float(hand[k] + deck[k]))
        in_hand = sum(hand)
        row.append(float(in_hand))
        row.append(1.0 if s.to_move == p else 0.0)
        left += in_hand + sum(deck)
        rows.append(row)
    return rows, left / (n * sum(g.card_copies))


def win_chances(s: GreatWallState) -> list[float]:
    """Each seat's chance of winning under the win model (a finished game: its winners)."""
    if s.to_move < -1:
        return winmodel.winners_chances(s.returns())
    rows, share = win_features(s)
    return winmodel.chances(WIN_WEIGHTS, rows, share)


def heuristic_terms(s: GreatWallState, seat: int) -> dict[str, float]:
    """What each feature adds to the seat's score in the win model (its logit)."""
    rows, share = win_features(s)
    return winmodel.terms(WIN_WEIGHTS, WIN_FEATURES, rows, share, seat)


def heuristic(s: GreatWallState, seat: int) -> float:
    """The seat's expected return under the win model."""
    return heuristics(s)[seat]


def heuristics(s: GreatWallState) -> list[float]:
    """Every seat's expected return under the win model (a winner alone gets 1 and a
    loser -1/(n-1), GW-5.4)."""
    if s.to_move < -1:
        return list(s.returns())
    return winmodel.expected_returns(win_chances(s))


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
