"""What search and learning need: redrawing hidden cards, the evaluation hook, the tensor."""

from __future__ import annotations

import math
import random
from typing import TYPE_CHECKING

from tianxia.core.constants import CHANCE, TERMINAL
from tianxia.core.game import State
from tianxia.games.emperor import rules
from tianxia.games.emperor.state import END, PHASES, REPLY, EmperorState

if TYPE_CHECKING:
    from tianxia.games.emperor.rules import Tables


SEATS = 5  # the tensor always has room for five seats, whatever the player count
STATUSES = ("waiting", "active", "junior", "eliminated")


def tensor_size(t: Tables) -> int:
    per_province = (SEATS + 1) * 2 + 1 + len(t.c.marker_kinds) + 1
    kinds = len(t.c.yang_kinds)
    return (
        t.P * per_province
        + SEATS * (len(STATUSES) + 5)
        + kinds  # own cards
        + kinds
        + 1  # own fresh yang card
        + len(PHASES)
        + SEATS
        + 2  # who decides: chance, over, a seat
        + SEATS
        + 1  # observer
        + 1  # turn
        + 2 * (t.P + 1)
        + 1  # battle
        + 2 * (t.P + 1)  # yang and yin assignments
        + len(t.c.yin_kinds)
        + 1  # yin card shown
        + len(t.c.yin_kinds)
        + 1
        + kinds  # yin deck, yang deck size, yang cards out
        + t.P
        + 2  # growth due: none, base, marker's province
    )


def tensor(s: EmperorState, seat: int | None) -> list[float]:
    """A fixed-length encoding of `observation(seat)`: one-hots and scaled counts.

    Only what `seat` may see goes in: its own cards and fresh yang card, nothing of others'.
    """
    t = s.t
    c = t.c
    v: list[float] = []

    def onehot(i: int, size: int) -> None:
        row = [0.0] * size
        if 0 <= i < size:
            row[i] = 1.0
        v.extend(row)

    infl = rules.influence(s)
    for p in range(t.P):
        onehot(s.owner[p] + 1, SEATS + 1)
        v.append(s.units[p] / t.cap)
        v.extend(m / 4 for m in s.markers[p])
        onehot(infl[p] + 1, SEATS + 1)
        v.append(float(s.moved[p] > 0) if s.moved else 0.0)
    scores = rules.seat_scores(s)
    for x in range(SEATS):
        if x >= s.game.players:
            v.extend([0.0] * (len(STATUSES) + 5))
            continue
        onehot(STATUSES.index(rules.status(s, x)), len(STATUSES))
        r = s.senior[x]
        v.append(rules.realm_units(s, x) / 30 if r == x else 0.0)
        v.append(sum(s.hands[x]) / 10)
        v.append(scores[x] / 100)
        v.append(rules.control(s, x) / t.P if r == x else 0.0)
        v.append(float(s.claims[x]))
    kinds = len(c.yang_kinds)
    if seat is None:
        v.extend([0.0] * kinds)
    else:
        v.extend(n / 4 for n in s.hands[seat])
    own_fresh = seat is not None and seat == s.player and s.fresh >= 0
    onehot(s.fresh if own_fresh else (kinds if s.fresh >= 0 else -1), kinds + 1)
    onehot(PHASES.index(s.phase), len(PHASES))
    cp = s.current_player()
    onehot(SEATS if cp == CHANCE else SEATS + 1 if cp == TERMINAL else cp, SEATS + 2)
    onehot(SEATS if seat is None else seat, SEATS + 1)
    v.append(s.turn / c.turns)
    b = s.battle
    onehot(b[0] if b else t.P, t.P + 1)
    onehot(b[1] if b else t.P, t.P + 1)
    v.append(float(b[2]) if b else 0.0)
    onehot(s.yang_at if s.yang_at >= 0 else t.P, t.P + 1)
    onehot(s.yin_at if s.yin_at >= 0 else t.P, t.P + 1)
    onehot(s.yin_card if s.yin_card >= 0 else len(c.yin_kinds), len(c.yin_kinds) + 1)
    v.extend(n / 6 for n in s.yin_deck)
    v.append(sum(s.yang_deck) / 32)
    v.extend(n / 4 for n in s.yang_out)
    head = s.growth[0] if s.growth else -2
    onehot(head + 2, t.P + 2)
    return v


def resample(s: EmperorState, seat: int, rng: random.Random) -> State:
    """Redraw what `seat` cannot see: others' kept cards, a yang card drawn by another, the deck.

    The pool of unseen cards is built from public counts and `seat`'s own cards only, in
    the fixed order of the card kinds, so states `seat` cannot tell apart resample alike.
    """
    if s.phase == END:
        return s
    t = s.t
    c = t.c
    n = s.game.players
    hidden = t.hidden_kinds
    unseen = list(c.yang_counts)
    for k in range(len(unseen)):
        unseen[k] -= s.yang_out[k]
    for x in range(n):
        for k in t.economy_kinds:
            unseen[k] -= s.hands[x][k]
    for k in hidden:
        unseen[k] -= s.hands[seat][k]
    own_fresh = seat == s.player and s.fresh >= 0
    if own_fresh:
        unseen[s.fresh] -= 1
    pool = [k for k in hidden for _ in range(unseen[k])]
    rng.shuffle(pool)
    hands = list(s.hands)
    for x in range(n):
        if x == seat:
            continue
        need = sum(s.hands[x][k] for k in hidden)
        if not need:
            continue
        hand = list(s.hands[x])
        for k in hidden:
            hand[k] = 0
        for _ in range(need):
            hand[pool.pop()] += 1
        hands[x] = tuple(hand)
    rest = [0] * len(unseen)
    for k in pool:
        rest[k] += 1
    for k in t.economy_kinds:
        rest[k] += unseen[k]
    fresh = s.fresh
    if s.fresh >= 0 and not own_fresh:
        order = [k for k in range(len(rest)) for _ in range(rest[k])]
        fresh = order[rng.randrange(len(order))]
        rest[fresh] -= 1
    return s.replace(hands=tuple(hands), yang_deck=tuple(rest), fresh=fresh)


def heuristic_terms(s: EmperorState, seat: int) -> dict[str, float]:
    shared = rules.shared_result(s)
    # a junior partner's own state is empty unless he shares his senior's result
    r = s.senior[seat] if shared else seat
    c = s.t.c
    marker_pts = sum(
        sum(k * v for k, v in zip(s.markers[p], c.marker_points))
        for p, o in enumerate(s.owner)
        if o == r
    )
    scores = rules.seat_scores(s)
    others = [
        scores[x] for x in range(s.game.players) if (s.senior[x] != r if shared else x != seat)
    ]
    return {
        "score": float(scores[seat]),
        "units": float(rules.realm_units(s, r)),
        "provinces": float(rules.control(s, r)),
        "markers": float(marker_pts),
        "yang_cards": float(sum(s.hands[r])),
        "best_other": float(max(others) if others else 0),
    }


def heuristics(s: EmperorState) -> list[float]:
    return [heuristic(s, seat) for seat in range(s.game.players)]


def heuristic(s: EmperorState, seat: int) -> float:
    """Lead over the best other seat in points, squashed into [-1, 1].

    A merger agreed but put off until after phase 5 is scored as done; while a merger
    offer awaits its reply, acceptance and refusal count as equally likely.
    """
    if s.phase == END:
        return float(rules.returns(s)[seat])
    if s.merge is not None:
        return _value(_merged(s, *s.merge), seat)
    value = _value(s, seat)
    if s.phase == REPLY:
        other = s.decider if s.battle is None else s.owner[s.battle[1]]
        value = (value + _value(_merged(s, *rules.stronger(s, s.player, other)), seat)) / 2
    return value


def _merged(s: EmperorState, senior: int, junior: int) -> EmperorState:
    """The position once the junior's state has merged into the senior's (EM-7.1)."""
    hands = list(s.hands)
    hands[junior] = (0,) * len(hands[junior])
    return s.replace(
        senior=tuple(senior if x == junior else x for x in s.senior),
        owner=tuple(senior if o == junior else o for o in s.owner),
        hands=tuple(hands),
    )


def _value(s: EmperorState, seat: int) -> float:
    if rules.shared_result(s) and len({s.senior[x] for x in range(s.game.players)}) == 1:
        # One state is left and every seat shares its result, which returns() scores as 0.
        return 0.0
    terms = heuristic_terms(s, seat)
    scale = max(10.0, terms["score"], terms["best_other"]) / 2
    return math.tanh((terms["score"] - terms["best_other"]) / scale)


def private(s: EmperorState, seat: int) -> tuple[int, ...]:
    """What `seat` alone knows here: its hand and a yang card it drew this turn."""
    return (*s.hands[seat], s.fresh if s.player == seat else -1)
