"""What search and learning need: redrawing hidden cards, the evaluation hook, the tensor."""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from tianxia.core import winmodel
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


# 2: the win model below; 1 was the seat's points lead over the best other seat,
# squashed by tanh.
HOOK_VERSION = 2

# ismcts's defaults by table size (benchmarks/bots/RESULTS.md, fourteenth round): from
# three seats on, rollouts that take the mover's best successor by the win model. A budget
# of 100 simulations spread over the rivals' replies leaves few visits per move, and a
# rollout that plays as the rivals would judges a node better than a random one. Head to
# head against the default at 100 simulations they took 1.34x the fair share at three
# seats (120 games), 1.32x at four (200) and 1.77x at five (100); at four, against greedy
# 1.68x where random rollouts took 1.35x, and against OpenSpiel's IS-MCTS with our hook
# 1.44x (200 games, random rollouts 1.17x) and, at equal time, 1.60x (1.38x). Each
# simulation costs about four times as much. Two seats, where every line is met with
# random rollouts, keep them.
SEARCH_DEFAULTS_BY_PLAYERS = {n: {"rollout_greedy": 1.0} for n in (3, 4, 5)}

# The win model (tianxia.core.winmodel): each state still in the game wins with a chance
# that is the softmax over those states of a weighted sum of its features, the weights
# moving linearly with the share of the game's turns still to come. Fitted to the outcomes
# of the benchmark's games by benchmarks/bots/fit_hook.py, which prints this table; keyed
# by the number of seats. Only four seats' are kept, and serve every table size: the
# two-seat fit (400 games) gave units a negative weight, an artefact of too few games
# (docs/bots.md). The points are
# the sum of units, yang cards, twice the provinces and the markers' points (EM-9.1), so
# the weights of those five share out one effect and read only together.
WIN_FEATURES: tuple[str, ...] = (
    "score",
    "units",
    "provinces",
    "markers",
    "yang_cards",
    "claim",
    "to_move",
)
WIN_WEIGHTS: winmodel.Weights = {
    4: (
        (
            0.0297,  # score
            0.0588,  # units
            0.1772,  # provinces
            -0.0005,  # markers
            -0.0626,  # yang_cards
            -1.0432,  # claim
            -0.2059,  # to_move
        ),
        (
            -0.016,  # score
            0.0205,  # units
            -0.1284,  # provinces
            0.4766,  # markers
            0.2905,  # yang_cards
            0.3138,  # claim
            -0.0234,  # to_move
        ),
    ),
}


def win_features(s: EmperorState) -> tuple[list[list[float]], float]:
    """Per seat, the features named by `WIN_FEATURES`; and the share of the game's turns
    still to come (1 at the start, 0 at the last turn).

    score: the seat's points as they stand (EM-9.1); units, provinces (held or
    influenced), markers (their points) and yang_cards of its state; claim: 1 when its
    state ended its last turn holding the provinces that win if still held at its next
    (EM-3.3); to_move: 1 for the seat whose turn it is. A junior partner's own state is
    empty (only its points count, 0 unless it shares its senior's result, EM-9.3).
    """
    n = s.game.players
    t = s.game.tables
    shared = rules.shared_result(s)
    scores = rules.seat_scores(s)
    points = t.marker_points
    rows: list[list[float]] = []
    for seat in range(n):
        r = s.senior[seat] if shared else seat
        if s.senior[r] != r:
            rows.append([float(scores[seat]), 0.0, 0.0, 0.0, 0.0, 0.0, 0.0])
            continue
        markers = 0
        for p, o in enumerate(s.owner):
            if o == r:
                markers += sum(k * v for k, v in zip(s.markers[p], points))
        rows.append(
            [
                float(scores[seat]),
                float(rules.realm_units(s, r)),
                float(rules.control(s, r)),
                float(markers),
                float(sum(s.hands[r])),
                1.0 if s.claims[r] else 0.0,
                1.0 if s.player == seat else 0.0,
            ]
        )
    return rows, max(0.0, 1.0 - s.turn / t.turns)


def _realm_chances(s: EmperorState) -> tuple[list[int], list[float]]:
    """The states still in the game (their seniors) and each one's chance of winning."""
    rows, share = win_features(s)
    realms = [x for x in range(s.game.players) if rules.is_alive(s, x)]
    if not realms:
        return [], []
    chances = winmodel.chances(WIN_WEIGHTS, [rows[r] for r in realms], share, s.game.players)
    return realms, chances


def _winners(s: EmperorState, realm: int) -> list[bool]:
    """The seats that win if `realm` wins: its senior, and its juniors when they share
    his result (EM-9.3)."""
    if rules.shared_result(s):
        return [x == realm for x in s.senior]
    return [x == realm for x in range(s.game.players)]


def win_chances(s: EmperorState) -> list[float]:
    """Each seat's chance that its result is a win under the win model (a finished game:
    its winners share 1)."""
    if s.phase == END:
        return winmodel.winners_chances(rules.returns(s))
    out = [0.0] * s.game.players
    for realm, c in zip(*_realm_chances(s)):
        for x, won in enumerate(_winners(s, realm)):
            if won:
                out[x] += c
    return out


def _expected(s: EmperorState) -> list[float]:
    """Every seat's expected return: each state's chance of winning times what each seat
    gets if it does (EM-9.3, the winners sharing what the losers pay)."""
    out = [0.0] * s.game.players
    for realm, c in zip(*_realm_chances(s)):
        for x, r in enumerate(rules.result(_winners(s, realm))):
            out[x] += c * r
    return out


def heuristic_terms(s: EmperorState, seat: int) -> dict[str, float]:
    """What each feature adds to the seat's score in the win model (its logit)."""
    rows, share = win_features(s)
    return winmodel.terms(WIN_WEIGHTS, WIN_FEATURES, rows, share, seat)


def heuristics(s: EmperorState) -> list[float]:
    """Every seat's expected return under the win model.

    A merger agreed but put off until after phase 5 is scored as done; while a merger
    offer awaits its reply, acceptance and refusal count as equally likely.
    """
    if s.phase == END:
        return [float(r) for r in rules.returns(s)]
    if s.merge is not None:
        return _expected(_merged(s, *s.merge))
    values = _expected(s)
    if s.phase == REPLY:
        other = s.decider if s.battle is None else s.owner[s.battle[1]]
        accepted = _expected(_merged(s, *rules.stronger(s, s.player, other)))
        values = [(v + a) / 2 for v, a in zip(values, accepted)]
    return values


def heuristic(s: EmperorState, seat: int) -> float:
    return heuristics(s)[seat]


def _merged(s: EmperorState, senior: int, junior: int) -> EmperorState:
    """The position once the junior's state has merged into the senior's (EM-7.1)."""
    hands = list(s.hands)
    hands[junior] = (0,) * len(hands[junior])
    return s.replace(
        senior=tuple(senior if x == junior else x for x in s.senior),
        owner=tuple(senior if o == junior else o for o in s.owner),
        hands=tuple(hands),
    )


def private(s: EmperorState, seat: int) -> tuple[int, ...]:
    """What `seat` alone knows here: its hand and a yang card it drew this turn."""
    return (*s.hands[seat], s.fresh if s.player == seat else -1)
