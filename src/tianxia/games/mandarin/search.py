"""What search and learning need: resampling purses, the evaluation hook, the tensor."""

from __future__ import annotations

import math
import random

from tianxia.core import Action
from tianxia.games.mandarin import rules
from tianxia.games.mandarin.actions import BID_STEP, Bid, Cash
from tianxia.games.mandarin.data import ANIMAL_COUNT, COLOUR_COUNT
from tianxia.games.mandarin.state import MandarinState

# ismcts's defaults on this game, measured against greedy (benchmarks/bots/RESULTS.md):
# the hook already scores a wealth lead, and the others' values, computed from purses a
# determinisation draws at random, only add noise when subtracted; a one-ply prior worth
# 40 visits keeps a short search from trading it for that noise.
SEARCH_DEFAULTS = {"centre": 0, "prior_visits": 40}

# Others' money is resampled from a flat prior on 0..RESAMPLE_MONEY_MAX in hundreds (MA-1.5).
RESAMPLE_MONEY_MAX = 6000


def resample(s: MandarinState, seat: int, rng: random.Random) -> MandarinState:
    """Redraw what `seat` cannot see: the others' money.

    Face-down tiles and the dispenser's order do not exist in the state (they are drawn
    when seen), so the only hidden values are the others' purses. They are redrawn from a
    flat prior, seat by seat, so the result depends only on `seat`'s view and `rng`.
    """
    if s.phase == rules.OVER:
        return s
    money = tuple(
        s.money[i] if i == seat else 100 * rng.randrange(RESAMPLE_MONEY_MAX // 100 + 1)
        for i in range(s.game.players)
    )
    return s.replace(money=money)


# The bid levels a search weighs, as fractions of the lot's bank value (MA-9.1): a lot
# bought at its value leaves wealth as it was; a tile that completes a set is worth more.
BID_LEVELS = (0.25, 0.5, 0.75, 1.0, 1.5, 2.0)


def search_actions(s: MandarinState, legal: tuple[Action, ...]) -> tuple[Action, ...]:
    """The actions a search weighs, where `legal` offers more than it can tell apart.

    - Cashing in: a tile is worth as much in the hand as in the purse (MA-9.1), so a
      cash only pays when money is short: below a pagoda's rent, or in an auction
      below the lowest bid. Otherwise the search weighs none (a dozen actions at every
      decision of a turn, each worth the same to the hook, so a short search picks one
      on noise and a random rollout throws tiles away); when short, one tile per animal.
    - Auctions offer every bid up to the cap, up to 200 actions a hundred yuan apart;
      a random rollout's bid is mostly beyond the purse, which forfeits it (MA-4.5).
      The search weighs pass, the minimum bid, a few levels around the lot's bank value
      and the whole purse, none above what the bidder holds.
    """
    purse = s.money[s.actor]
    auction = s.phase == rules.AUCTION
    lowest = s.high + BID_STEP
    short = purse < rules.PAGODA_RENT or (auction and purse < lowest)
    keep: set[int] = set()
    if auction:
        worth = sum(rules.TILE_VALUES[t] for t, o in enumerate(s.owner) if o == rules.LOT)
        worth += 200 * s.holes
        amounts = {lowest, purse - purse % BID_STEP}
        amounts.update(int(f * worth) // BID_STEP * BID_STEP for f in BID_LEVELS)
        keep = {a for a in amounts if lowest <= a <= purse}
    animals: set[int] = set()
    out: list[Action] = []
    for a in legal:
        if isinstance(a, Cash):
            animal = a.tile // COLOUR_COUNT
            if not short or animal in animals:
                continue
            animals.add(animal)
        elif isinstance(a, Bid) and a.amount not in keep:
            continue
        out.append(a)
    return tuple(out) or legal


def heuristic_terms(s: MandarinState, seat: int) -> dict[str, float]:
    """Collection progress (distinct animals, best animal), sectors held, and wealth."""
    counts = [0] * ANIMAL_COUNT
    for t, o in enumerate(s.owner):
        if o == seat:
            counts[t // COLOUR_COUNT] += 1
    distinct = sum(1 for c in counts if c)
    wealth = rules.wealth(s)
    if s.bidder >= 0 and s.high > 0:
        # A standing bid is money already promised: the lot's worth against its price, or,
        # for a bid beyond the bidder's money, all of it forfeited (MA-4.5).
        b = s.bidder
        if s.high > s.money[b]:
            wealth[b] -= s.money[b]
        else:
            lot = sum(rules.TILE_VALUES[t] for t, o in enumerate(s.owner) if o == rules.LOT)
            wealth[b] += lot + 200 * s.holes - s.high
    others = [w for i, w in enumerate(wealth) if i != seat]
    sectors = sum(1 for a in range(ANIMAL_COUNT) if rules.holder(s, a) == seat)
    return {
        "animals": distinct / ANIMAL_COUNT,
        "best_animal": max(counts) / COLOUR_COUNT,
        "sectors": sectors / ANIMAL_COUNT,
        "wealth_lead": (wealth[seat] - max(others)) / 3000.0,
    }


def heuristic(s: MandarinState, seat: int) -> float:
    """An estimate in [-1, 1] of `seat`'s return: progress to a collection, or wealth."""
    if s.phase == rules.OVER:
        return s.returns()[seat]
    t = heuristic_terms(s, seat)
    progress = max(t["animals"], t["best_animal"])
    if s.game.money_variant:
        score = 1.5 * t["wealth_lead"] + 0.5 * progress + t["sectors"]
    else:
        # Money wins nothing by itself here, but it buys tiles and pays rent: a seat that
        # spends it all is left to bankruptcy, so wealth weighs as much as a sector or two.
        score = 2.0 * (progress - 0.5) + 0.5 * t["sectors"] + 0.75 * t["wealth_lead"]
    return math.tanh(score)


def heuristics(s: MandarinState) -> list[float]:
    return [heuristic(s, seat) for seat in range(s.game.players)]


def tensor_size(players: int) -> int:
    """Length of `observation_tensor` for `players` seats (the layout is documented there)."""
    n = players
    return (
        len(rules.PHASE_NAMES)
        + (n + 2)  # to move: seats, chance, terminal
        + 2 * n  # turn of, viewer
        + rules.SQUARES * n  # positions
        + 72 * (n + 2)  # where each tile is: a collection, the dispenser, the lot
        + ANIMAL_COUNT * n  # sector holders
        + 6  # last roll
        + 7 * n  # bidder, out, overbid, seller, passed, debtor, receiver
        + n  # winners
        + n  # who may draw from the dispenser
        + 8  # scalars
    )


def tensor(s: MandarinState, seat: int | None) -> list[float]:
    """A fixed-length encoding of `observation(seat)`: one-hot blocks, then scalars
    (holes, dispenser, own money, high bid, rolls, turns, money variant, game over)."""
    n = s.game.players
    vec: list[float] = []

    def one_hot(size: int, index: int) -> None:
        block = [0.0] * size
        if 0 <= index < size:
            block[index] = 1.0
        vec.extend(block)

    def mask(bits: int) -> None:
        vec.extend(float((bits >> i) & 1) for i in range(n))

    one_hot(len(rules.PHASE_NAMES), s.phase)
    player = s.current_player()
    one_hot(n + 2, player if player >= 0 else n + (0 if player == -1 else 1))
    one_hot(n, s.seat)
    one_hot(n, -1 if seat is None else seat)
    for p in s.pos:
        one_hot(rules.SQUARES, p)
    for o in s.owner:
        one_hot(n + 2, o if o >= 0 else n - 1 - o)
    for a in range(ANIMAL_COUNT):
        one_hot(n, rules.holder(s, a))
    one_hot(6, s.last_roll - 1)
    one_hot(n, s.bidder)
    mask(s.out)
    mask(s.banned)
    one_hot(n, s.seller)
    mask(sum(1 << i for i in s.passed))
    one_hot(n, s.debtor)
    one_hot(n, s.receiver)
    mask(sum(1 << i for i in s.winners))
    mask(sum(1 << i for i in range(n) if rules.may_draw(s, i)))
    own = s.money[seat] if seat is not None else 0
    vec.extend(
        (
            s.holes / 72,
            rules.dispenser_count(s) / 72,
            own / 10000,
            s.high / 20000,
            s.rolls / 6,
            s.turns / s.game.turn_cap,
            float(s.game.money_variant),
            float(s.phase == rules.OVER),
        )
    )
    return vec
