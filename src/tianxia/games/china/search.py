"""What search and learning need: redrawing hidden cards, the evaluation hook, the tensor."""

from __future__ import annotations

import math
import random
from typing import TYPE_CHECKING, Any

from tianxia.games.china import rules
from tianxia.games.china.state import ChinaState

if TYPE_CHECKING:
    from tianxia.games.china.game import ChinaGame

# ismcts's defaults on this game (benchmarks/bots/RESULTS.md): rollouts played to the end.
# The depth-4 cut's hook values are too narrow to tell China's moves apart: against
# OpenSpiel's IS-MCTS (our hook, two seats of three) rollouts to the end scored 1.50x the
# fair share at equal simulations where the cut scored 0.72x, and at equal time (0.2 s a
# move, against two seats of the cut) they took 1.14x the fair share over 100 games.
SEARCH_DEFAULTS = {"rollout_depth": "end"}
# At four seats a cut after 16 decisions (about a round) beat rollouts to the end on every
# line against OpenSpiel's IS-MCTS, same deals: +10 points of share at equal simulations
# against its random rollouts (200 games), +12 against our hook, +25 and +34 at equal time,
# each rollout a third of the cost. At three seats it lost 18 points against random
# rollouts at equal simulations, so three seats keep the end. Five seats are unmeasured.
SEARCH_DEFAULTS_BY_PLAYERS = {4: {"rollout_depth": 16}}


def resample(s: ChinaState, seat: int, rng: random.Random) -> ChinaState:
    """Redraw the other hands' unknown cards and the deck from what `seat` cannot see.

    Everything is built from public counts and `seat`'s own cards in colour order, so two
    states `seat` cannot tell apart give the same result for the same `rng`. After the
    first exhaustion the deck is drawn from the reshuffled pile (whose make-up every seat
    saw), the rest of that pile is shared out as the other seats' draws, and a seat keeps
    at least the drawn cards it cannot have played since.
    """
    g = s.game
    n = g.players
    total = g.cards.deck_for(n)
    others = [p for p in range(n) if p != seat]
    unseen = [
        total[c]
        - s.display[c]
        - s.discards[c]
        - s.hands[seat][c]
        - sum(s.known[p][c] for p in others)
        for c in range(5)
    ]
    drawn = list(s.drawn)
    held: list[list[int]] = [[0] * 5 for _ in range(n)]
    deck = [0] * 5
    if s.exhaustions == 1:
        deck, drawn, held = _split_pile(s, seat, unseen, others, rng)
        unseen = [unseen[c] - deck[c] - sum(held[p][c] for p in others) for c in range(5)]
    pool = [c for c in range(5) for _ in range(unseen[c])]
    rng.shuffle(pool)
    hands = []
    for p in range(n):
        if p == seat:
            hands.append(s.hands[p])
            continue
        counts = [k + h for k, h in zip(s.known[p], held[p])]
        for _ in range(sum(s.hands[p]) - sum(counts)):
            counts[pool.pop()] += 1
        hands.append(tuple(counts))
    if s.exhaustions != 1:
        deck = [0] * 5
        for c in pool:
            deck[c] += 1
    t = s.draft()
    t.hands = tuple(hands)
    t.deck = tuple(deck)
    t.drawn = tuple(drawn)
    return t.freeze()


def _split_pile(
    s: ChinaState, seat: int, unseen: list[int], others: list[int], rng: random.Random
) -> tuple[list[int], list[tuple[int, ...]], list[list[int]]]:
    """The deck, every seat's draws and the drawn cards each must still hold.

    Draws are shared out at random and the share kept if every hand can hold what it
    must; after a few refusals the hands are freed of that constraint (still consistent
    with everything `seat` observes).
    """
    n = s.game.players
    pile = [s.fresh[c] - s.drawn[seat][c] for c in range(5)]
    candidates = [c for c in range(5) for _ in range(min(unseen[c], pile[c]))]
    size = sum(s.deck)
    deck = [0] * 5
    drawn = list(s.drawn)
    held = [[0] * 5 for _ in range(n)]
    for attempt in range(40):
        rng.shuffle(candidates)
        deck = [0] * 5
        for c in candidates[:size]:
            deck[c] += 1
        gone = [c for c in range(5) for _ in range(pile[c] - deck[c])]
        rng.shuffle(gone)
        drawn = list(s.drawn)
        held = [[0] * 5 for _ in range(n)]
        for p in others:
            row = [0] * 5
            for _ in range(sum(s.drawn[p])):
                row[gone.pop()] += 1
            drawn[p] = tuple(row)
            held[p] = [max(0, row[c] - s.spent[p][c]) for c in range(5)]
        fits = all(
            sum(held[p][c] for p in others) <= unseen[c] - deck[c] for c in range(5)
        ) and all(sum(held[p]) + sum(s.known[p]) <= sum(s.hands[p]) for p in others)
        if fits:
            return deck, drawn, held
        if attempt == 39:
            break
    return deck, drawn, [[0] * 5 for _ in range(n)]


def heuristic_terms(s: ChinaState, seat: int) -> dict[str, float]:
    """Points so far, what unscored provinces and alliances would pay now, and road groups."""
    return _all_terms(s)[seat]


def _all_terms(s: ChinaState) -> list[dict[str, float]]:
    """`heuristic_terms` of every seat, sharing the province and alliance rankings."""
    g = s.game
    n = g.players
    over = s.phase == "over"
    provinces = [0] * n
    alliances = [0] * n
    if not over:
        for p in g.all_provinces:
            if not s.scored[p]:
                for i, v in enumerate(rules.rank_points(s.pcount[p * n : p * n + n])):
                    provinces[i] += v
        alliances = list(rules.alliance_points(s))
    return [
        {
            "points": float(s.points[i]),
            "provinces": float(provinces[i]),
            "alliances": float(alliances[i]),
            "roads": 0.0 if over else float(_road_estimate(s, i)),
            "supply": float(sum(s.supply[i])),
        }
        for i in range(n)
    ]


def _road_estimate(s: ChinaState, seat: int) -> int:
    """Houses of `seat` with a road to another own house: a cheap bound on chain points."""
    nbrs = s.game.board.neighbours
    houses = s.houses
    return sum(
        1 for f, o in enumerate(houses) if o == seat and any(houses[x] == seat for x in nbrs[f])
    )


def _estimate(terms: dict[str, Any]) -> float:
    return terms["points"] + terms["provinces"] + terms["alliances"] + 0.5 * terms["roads"]


def heuristic(s: ChinaState, seat: int) -> float:
    return heuristics(s)[seat]


def heuristics(s: ChinaState) -> list[float]:
    """Each seat's estimated points against the best other seat's, squashed into [-1, 1]."""
    if s.phase == "over":
        return list(rules.returns(s))
    n = s.game.players
    est = [_estimate(t) for t in _all_terms(s)]
    scale = max(10.0, sum(est) / n)
    return [
        math.tanh((est[i] - max(v for j, v in enumerate(est) if j != i)) / scale) for i in range(n)
    ]


_PHASES = ("deal", "turn", "place", "refill", "draw", "reveal", "over")


def tensor(s: ChinaState, seat: int | None) -> list[float]:
    """A fixed-length encoding of `observation(seat)`, scaled to about [0, 1].

    Blocks in order: house owner one-hot per field and seat, fortifications, emissaries per
    province and seat, emissary limits, scored marks, own hand, hand sizes, known cards,
    display, deck size, discards, supplies, scores, phase, player to move (last slot:
    chance), observing seat, this turn's province, pieces, cards, limit, cards to take,
    exhaustions.
    """
    g = s.game
    n = g.players
    out: list[float] = []
    for o in s.houses:
        row = [0.0] * n
        if o >= 0:
            row[o] = 1.0
        out += row
    forts = set(s.forts)
    out += [1.0 if f in forts else 0.0 for f in range(len(s.houses))]
    out += [e / 8 for e in s.emissaries]
    out += [rules.emissary_limit(s, p) / 8 for p in g.all_provinces]
    out += [float(x) for x in s.scored]
    out += [c / 3 for c in s.hands[seat]] if seat is not None else [0.0] * 5
    out += [sum(h) / 3 for h in s.hands]
    for k in s.known:
        out += [c / 3 for c in k]
    out += [c / 4 for c in s.display]
    out.append(sum(s.deck) / 57)
    out += [c / 13 for c in s.discards]
    for h, e, f in s.supply:
        out += [h / 20, e / 8, float(f)]
    out += [p / 100 for p in s.points]
    out += [1.0 if s.phase == ph else 0.0 for ph in _PHASES]
    mover = [0.0] * (n + 1)
    cp = s.current_player()
    if 0 <= cp < n:
        mover[cp] = 1.0
    elif s.phase != "over":
        mover[n] = 1.0
    out += mover
    out += [1.0 if seat == i else 0.0 for i in range(n)]
    out += [1.0 if s.province == p else 0.0 for p in g.all_provinces]
    out += [s.pieces / 2, s.cards / 3, s.limit / 2, s.to_take / 3]
    out += [1.0 if s.exhaustions == k else 0.0 for k in range(3)]
    return out


def tensor_size(g: ChinaGame) -> int:
    """Length of `tensor` for the variant `g`."""
    n = g.players
    fields = len(g.board.field_names)
    provinces = len(g.board.province_names)
    return (
        fields * n
        + fields
        + provinces * n
        + 2 * provinces
        + 5
        + n
        + 5 * n
        + 5
        + 1
        + 5
        + 3 * n
        + n
        + len(_PHASES)
        + n
        + 1
        + n
        + provinces
        + 4
        + 3
    )


def private(s: ChinaState, seat: int) -> tuple[int, ...]:
    """What `seat` alone knows here: its hand."""
    return s.hands[seat]
