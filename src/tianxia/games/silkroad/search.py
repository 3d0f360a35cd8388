"""What search and learning need: resampling hidden cards, the evaluation hook, the tensor."""

from __future__ import annotations

import math
import random

from tianxia.games.silkroad import rules
from tianxia.games.silkroad.state import DEAL, END, MILES, PHASES, SilkroadState

# ismcts's defaults on this game (benchmarks/bots/RESULTS.md): rollouts that take the
# mover's best move by the hook beat random ones in 84% of 40 games at 100 simulations,
# at three times the cost of a simulation. Open-loop chance: a drawn card's subtrees
# spread a short search thin; with it the ten search lines held level at two seats and
# gained on average at four (1.48x the fair share against OpenSpiel, closed 1.35x).
SEARCH_DEFAULTS = {"rollout_greedy": 1.0, "chance": "open"}


def resample(s: SilkroadState, seat: int, rng: random.Random) -> SilkroadState:
    """Redraw the other hands and the draw pile from the cards `seat` has not seen.

    The pool is built from public counts and `seat`'s own hand in card order, so two
    states `seat` cannot tell apart give the same result for the same `rng`.
    """
    if s.phase == END:
        return s
    g = s.game
    unseen = [c.copies for c in g.data.cards]
    for k in s.hands[seat]:
        unseen[k] -= 1
    for d in s.displays:
        for k in d:
            unseen[k] -= 1
    for k, n in enumerate(s.discard):
        unseen[k] -= n
    if s.mode == "B":
        # A passed card is public while it is carried out, before it reaches the discard.
        unseen[s.card] -= 1
    pool = [k for k, n in enumerate(unseen) for _ in range(n)]
    rng.shuffle(pool)
    hands = list(s.hands)
    for i in range(g.players):
        if i != seat:
            n = len(s.hands[i])
            hands[i] = tuple(sorted(pool[:n]))
            del pool[:n]
    deck = [0] * len(unseen)
    for k in pool:
        deck[k] += 1
    return s.replace(hands=tuple(hands), deck=tuple(deck))


def heuristic_terms(s: SilkroadState, seat: int) -> dict[str, float]:
    g = s.game
    if not s.pos or len(s.pos) < g.merchants:
        return {
            "silver": float(s.silver[seat]),
            "progress": 0.0,
            "penalty": 0.0,
            "bazaars": 6.0 * s.bazaar_cards[seat],
        }
    # A bazaar card is worth nothing once the bazaar track has run out (SR-6.5).
    bazaars = 6.0 * s.bazaar_cards[seat] if g.data.bazaar_row(s.marker) is not None else 0.0
    own = [s.pos[m] for m in g.merchants_of[seat]]
    return {
        "silver": float(s.silver[seat]),
        # Positions are worth silver later: cities, bazaar places, the Venice payment.
        "progress": 0.25 * sum(own) / len(own),
        "penalty": -float(g.data.penalties[len(s.displays[seat])]),
        "bazaars": bazaars,
    }


def _values(s: SilkroadState) -> list[float]:
    """Every seat's sum of its `heuristic_terms`, without building their dictionaries:
    the same terms summed by the same `sum` in the same order, so the same floats."""
    g = s.game
    pos = s.pos
    silver = s.silver
    bazaar_cards = s.bazaar_cards
    out: list[float] = []
    if not pos or len(pos) < g.merchants:
        for seat in range(g.players):
            out.append(sum((float(silver[seat]), 0.0, 0.0, 6.0 * bazaar_cards[seat])))
        return out
    on_track = g.data.bazaar_row(s.marker) is not None
    penalties = g.data.penalties
    displays = s.displays
    for seat in range(g.players):
        bazaars = 6.0 * bazaar_cards[seat] if on_track else 0.0
        own = [pos[m] for m in g.merchants_of[seat]]
        terms = (
            float(silver[seat]),
            0.25 * sum(own) / len(own),
            -float(penalties[len(displays[seat])]),
            bazaars,
        )
        out.append(sum(terms))
    return out


def _against_best_other(values: list[float], seat: int) -> float:
    best_other = max(v for i, v in enumerate(values) if i != seat)
    return math.tanh((values[seat] - best_other) / 20.0)


def heuristics(s: SilkroadState) -> list[float]:
    values = _values(s)
    return [_against_best_other(values, seat) for seat in range(s.game.players)]


def heuristic(s: SilkroadState, seat: int) -> float:
    # One seat's: its rivals' values are needed, their squashing is not.
    return _against_best_other(_values(s), seat)


MAX_SEATS = 7


def tensor_size(kinds: int) -> int:
    """Length of `tensor` for a deck of `kinds` card kinds."""
    merchants = MAX_SEATS * (3 + MAX_SEATS)
    seats = MAX_SEATS * 6
    cards = kinds * (1 + MAX_SEATS + 1)
    table = 5 + 5 + len(PHASES) + (MAX_SEATS + 2)
    pending = kinds + 2 + MAX_SEATS + 3 + 3 + 1
    return merchants + seats + cards + table + pending + 2


def tensor(s: SilkroadState, seat: int | None) -> list[float]:
    """A fixed-length encoding of `observation(seat)`, seats counted from the viewer."""
    g = s.game
    n = g.players
    k = len(g.data.cards)
    me = 0 if seat is None else seat

    def rel(i: int) -> int:
        return (i - me) % n

    out: list[float] = []
    for m in range(MAX_SEATS):
        block = [0.0] * (3 + MAX_SEATS)
        if m < g.merchants:
            block[0] = 1.0
            if m < len(s.pos):
                block[1] = s.pos[m] / g.length
            block[2] = 1.0 if m in s.rose else 0.0
            block[3 + rel(g.owner[m])] = 1.0
        out += block
    for r in range(MAX_SEATS):
        if r < n:
            i = (r + me) % n
            out += [
                1.0,
                s.silver[i] / 100.0,
                len(s.hands[i]) / 3.0,
                len(s.displays[i]) / 3.0,
                s.bazaar_cards[i] / 2.0,
                1.0 if rules.bazaar_allowed(g, s, i) else 0.0,
            ]
        else:
            out += [0.0] * 6
    hand = [0.0] * k
    if seat is not None:
        for c in s.hands[seat]:
            hand[c] += 1.0 / 3.0
    out += hand
    for r in range(MAX_SEATS):
        shown = [0.0] * k
        if r < n:
            for c in s.displays[(r + me) % n]:
                shown[c] += 1.0 / 3.0
        out += shown
    out += [v / max(1, card.copies) for v, card in zip(s.discard, g.data.cards)]
    pile = sum(s.deck) + (s.deck_bazaars if s.phase != DEAL else 0)
    out += [pile / 55.0, s.deck_bazaars / 7.0, s.marker / 8.0, s.reshuffles / 4.0, s.round / 70.0]
    out += [1.0 if s.milestone == i else 0.0 for i in range(5)]
    out += [1.0 if s.phase == p else 0.0 for p in PHASES]
    who = [0.0] * (MAX_SEATS + 2)
    cp = s.current_player()
    who[rel(cp) if cp >= 0 else (MAX_SEATS if cp == -1 else MAX_SEATS + 1)] = 1.0
    out += who
    pend = [0.0] * k
    if s.card >= 0:
        pend[s.card] = 1.0
    out += pend
    out += [1.0 if s.mode == "A" else 0.0, 1.0 if s.mode == "B" else 0.0]
    out += [1.0 if s.subject == m else 0.0 for m in range(MAX_SEATS)]
    out += [1.0 if s.numeral == i else 0.0 for i in (1, 2, 3)]
    out += [1.0 if s.part == i else 0.0 for i in range(3)]
    out += [s.remaining / 10.0 if s.phase == MILES else 0.0]
    out += [1.0 if s.ended == "venice" else 0.0, 1.0 if s.ended == "stall" else 0.0]
    return out


def private(s: SilkroadState, seat: int) -> tuple[int, ...]:
    """What `seat` alone knows here: its hand."""
    return s.hands[seat]
