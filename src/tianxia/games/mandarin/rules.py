"""Mandarin's rules: legal actions, transitions, chance, the end and its scoring.

Rule numbers (MA-n.m) refer to docs/rules/mandarin.md. Every function takes a
`MandarinState`; `apply` fills a draft and never changes its input.
"""

from __future__ import annotations

from collections.abc import Callable

from tianxia.core.actions import Action
from tianxia.core.constants import CHANCE, TERMINAL
from tianxia.core.errors import IllegalActionError
from tianxia.core.events import Event, seat_name
from tianxia.games.mandarin.actions import (
    BID_CAP,
    BID_STEP,
    BIDS,
    CASHES,
    DICE,
    DRAW,
    FACE_DOWN,
    FACE_UP,
    KEEP,
    OFFER,
    PASS,
    ROLL,
    SIGNS,
    TAKES,
    TILES,
    Bid,
    Cash,
    Die,
    Draw,
    Face,
    Keep,
    Offer,
    Pass,
    Roll,
    Sign,
    Take,
    Tile,
)
from tianxia.games.mandarin.data import ANIMAL_COUNT, COLOUR_COUNT, TABLES, TILE_COUNT
from tianxia.games.mandarin.state import (
    AUCTION,
    CHANCE_PHASES,
    CHOOSE,
    DIE,
    DISPENSER,
    FACE,
    LOG_LENGTH,
    LOT,
    OVER,
    PHASE_NAMES,
    REVEAL,
    SEIZE,
    SIGN,
    SQUARES,
    START,
    TAKE,
    TILE,
    MandarinState,
)

__all__ = ["PHASE_NAMES", "SEIZE", "SIGN", "SQUARES", "START"]
CHARACTER = TABLES.character_square
PAGODA = TABLES.pagoda_tiles
IS_PAGODA = tuple(t in PAGODA for t in range(TILE_COUNT))
CHARACTER_BONUS = 100
RENT = 200
PAGODA_RENT = 400
TILE_VALUE = 200
PAGODA_VALUE = 400
SPECIAL_AUCTION_TILES = 6
TILE_VALUES = tuple(PAGODA_VALUE if p else TILE_VALUE for p in IS_PAGODA)
# The decisions at which the player on turn may also cash in tiles (MA-2.1).
CASH_PHASES = frozenset((START, TAKE, CHOOSE, AUCTION))
ANIMAL_TILES = tuple(
    tuple(range(a * COLOUR_COUNT, (a + 1) * COLOUR_COUNT)) for a in range(ANIMAL_COUNT)
)


# --- derived facts -----------------------------------------------------------
def tiles_of(s: MandarinState, seat: int) -> list[int]:
    return [t for t, o in enumerate(s.owner) if o == seat]


def dispenser_count(s: MandarinState) -> int:
    """Tiles physically in the dispenser: unseen ones minus those lying face down."""
    return s.owner.count(DISPENSER) - s.holes


def holder(s: MandarinState, animal: int) -> int:
    """Who owns the animal's sector (MA-5.1, MA-5.2), or -1."""
    first = s.firsts[animal]
    if not first:
        return -1
    pagoda_owner = s.owner[PAGODA[animal]]
    if pagoda_owner in first:
        return pagoda_owner
    return first[0]


def rent_of(s: MandarinState, animal: int) -> int:
    return PAGODA_RENT if s.owner[PAGODA[animal]] == holder(s, animal) else RENT


def wealth(s: MandarinState) -> list[int]:
    """Money plus 200 per tile and 400 per pagoda tile, per seat (MA-9.1)."""
    w = list(s.money)
    for t, o in enumerate(s.owner):
        if o >= 0:
            w[o] += TILE_VALUES[t]
    return w


def has_collection(s: MandarinState, seat: int) -> bool:
    """One tile of every animal, or all six of one (MA-8.1)."""
    counts = [0] * ANIMAL_COUNT
    for t, o in enumerate(s.owner):
        if o == seat:
            counts[t // COLOUR_COUNT] += 1
    return min(counts) > 0 or max(counts) == COLOUR_COUNT


def richest(s: MandarinState) -> tuple[int, ...]:
    w = wealth(s)
    top = max(w)
    return tuple(i for i, v in enumerate(w) if v == top)


def passed_between(s: MandarinState, start: int, pips: int) -> list[int]:
    """Seats whose mandarins stand strictly between `start` and `start + pips` (MA-6.1)."""
    between = {(start + k) % SQUARES for k in range(1, pips)}
    return [i for i, p in enumerate(s.pos) if i != s.seat and p in between]


def may_draw(s: MandarinState, seat: int) -> bool:
    """Whether `seat` may draw from the dispenser (MA-3.4): it holds a tile and, unless
    it has never run empty, another seat has cashed in since it did."""
    if dispenser_count(s) == 0:
        return False
    return s.dry < 0 or bool(s.dry & ~(1 << seat))


def may_cash(s: MandarinState) -> bool:
    """Whether the player deciding now may cash in: on his own turn, at any decision of
    his (MA-2.1). A bankrupt never decides while his debt is settled (MA-7.1)."""
    return s.phase in CASH_PHASES and s.actor == s.seat


def eligible(s: MandarinState, seat: int) -> bool:
    return not (s.out >> seat) & 1


# --- legal actions -------------------------------------------------------------
def legal_actions(s: MandarinState) -> tuple[Action, ...]:
    phase = s.phase
    # Cashes come right after `roll` in codec order, before every other player action.
    if may_cash(s):
        cash_actions = CASHES
        cashes = tuple([cash_actions[t] for t in tiles_of(s, s.actor)])
    else:
        cashes = ()
    if phase == AUCTION:
        return (*cashes, PASS, *BIDS[s.high // BID_STEP :])
    if phase == START:
        return (ROLL, *cashes)
    if phase == CHOOSE:
        out: list[Action] = [*cashes, KEEP]
        if may_draw(s, s.seat):
            out.append(DRAW)
        if _may_offer(s):
            out.append(OFFER)
        return tuple(out)
    if phase == TAKE:
        takes = (TAKES[t] for t, o in enumerate(s.owner) if o >= 0 and o in s.passed)
        return (*cashes, *takes)
    if phase == SEIZE:
        return tuple(TAKES[t] for t in tiles_of(s, s.debtor))
    if phase == SIGN:
        return SIGNS
    return ()


def _may_offer(s: MandarinState) -> bool:
    return (
        s.game.money_variant
        and len(s.lot) + s.holes == 1
        and s.owner.count(s.seat) >= SPECIAL_AUCTION_TILES
    )


def chance_outcomes(s: MandarinState) -> list[tuple[Action, float]]:
    phase = s.phase
    if phase == DIE:
        return [(d, 1 / 6) for d in DICE]
    if phase == FACE:
        p = s.game.face_up
        return [(FACE_UP, p), (FACE_DOWN, 1.0 - p)]
    if phase in (TILE, REVEAL):
        # Module names read into locals: a compiled loop would look each up by name.
        tiles, dispenser = TILES, DISPENSER
        pool = [tiles[t] for t, o in enumerate(s.owner) if o == dispenser]
        w = 1 / len(pool)
        return [(tile, w) for tile in pool]
    raise IllegalActionError("ENGINE-3", "this is not a chance node")


# --- transitions ---------------------------------------------------------------


def current_player(s: MandarinState) -> int:
    """The seat deciding now, `CHANCE` or `TERMINAL` (the state's `current_player`)."""
    phase = s.phase
    if phase == OVER:
        return TERMINAL
    if phase in CHANCE_PHASES:
        return CHANCE
    return s.actor


def apply(s: MandarinState, a: Action) -> MandarinState:
    n = s.draft()
    # The entry is formatted only when the log is read (`Log`): a playout reads none.
    if s.phase in CHANCE_PHASES:
        n.log = s.log.note(LOG_LENGTH, "{}", (a,))
    else:
        n.log = s.log.note(LOG_LENGTH, "{}: {}", (seat_name(s.actor), a))
    _HANDLERS[type(a)](n, s, a)
    # Who moves, kept in the successor: written here, not by the core (docs/engine.md).
    n._player = current_player(n)
    return n.freeze()


def _on_bid(n: MandarinState, s: MandarinState, a: Action) -> None:
    assert isinstance(a, Bid)
    n.high = a.amount
    n.bidder = s.actor
    _next_bidder(n)


def _on_pass(n: MandarinState, s: MandarinState, a: Action) -> None:
    assert isinstance(a, Pass)
    n.out = s.out | (1 << s.actor)
    _next_bidder(n)


def _on_die(n: MandarinState, s: MandarinState, a: Action) -> None:
    assert isinstance(a, Die)
    _move(n, a.pips)


def _on_face(n: MandarinState, s: MandarinState, a: Action) -> None:
    assert isinstance(a, Face)
    if a.up:
        n.phase = TILE
    else:
        n.holes = s.holes + 1
        _note_empty(n)
        _after_tile(n, face_down=True)


def _on_tile(n: MandarinState, s: MandarinState, a: Action) -> None:
    assert isinstance(a, Tile)
    owner = list(s.owner)
    owner[a.tile] = LOT
    n.owner = tuple(owner)
    n.lot = (*s.lot, a.tile)
    if s.phase == REVEAL:
        n.holes = s.holes - 1
        _deliver(n)
    else:
        _note_empty(n)
        _after_tile(n, face_down=False)


def _note_empty(n: MandarinState) -> None:
    """The last tile has left the dispenser: nobody draws until another cashes in (MA-3.4)."""
    if dispenser_count(n) == 0:
        n.dry = 0


def _on_cash(n: MandarinState, s: MandarinState, a: Action) -> None:
    assert isinstance(a, Cash)
    owner = list(s.owner)
    owner[a.tile] = DISPENSER
    n.owner = tuple(owner)
    money = list(s.money)
    money[s.seat] += TILE_VALUES[a.tile]
    n.money = tuple(money)
    _refresh_firsts(n, a.tile // COLOUR_COUNT)
    if s.dry >= 0:
        # The dispenser ran empty: this cash opens it to everyone but the casher, and a
        # second casher opens it to all (MA-3.4).
        dry = s.dry | 1 << s.seat
        n.dry = -1 if dry & (dry - 1) else dry
    if s.phase == START and s.seat not in n.owner:
        n.phase = DIE


def _on_roll(n: MandarinState, s: MandarinState, a: Action) -> None:
    assert isinstance(a, Roll)
    n.phase = DIE


def _on_take(n: MandarinState, s: MandarinState, a: Action) -> None:
    assert isinstance(a, Take)
    owner = list(s.owner)
    taker = s.actor
    owner[a.tile] = taker
    n.owner = tuple(owner)
    n.passed = ()
    n.debtor = -1
    _refresh_firsts(n, a.tile // COLOUR_COUNT)
    if _check_win(n, taker):
        return
    if s.phase == TAKE:
        n.phase = DIE
        n.actor = s.seat
    else:
        n.actor = s.seat
        _after_landing(n)


def _on_keep(n: MandarinState, s: MandarinState, a: Action) -> None:
    assert isinstance(a, Keep)
    n.receiver = s.seat
    _deliver(n)


def _on_draw(n: MandarinState, s: MandarinState, a: Action) -> None:
    assert isinstance(a, Draw)
    n.phase = FACE


def _on_offer(n: MandarinState, s: MandarinState, a: Action) -> None:
    assert isinstance(a, Offer)
    _open_auction(n, seller=s.seat)


def _on_sign(n: MandarinState, s: MandarinState, a: Action) -> None:
    assert isinstance(a, Sign)
    sign = list(s.sign)
    sign[s.actor] = a.animal
    pos = list(s.pos)
    pos[s.actor] = a.animal * 3 + CHARACTER
    n.sign, n.pos = tuple(sign), tuple(pos)
    if s.actor + 1 < len(sign):
        n.actor = s.actor + 1
    else:
        _begin_turn(n, 0)


def _begin_turn(n: MandarinState, seat: int) -> None:
    n.seat = seat
    n.actor = seat
    n.rolls = 0
    n.phase = START if seat in n.owner else DIE


def _end_turn(n: MandarinState) -> None:
    n.turns += 1
    n.lot = ()
    n.holes = 0
    n.receiver = -1
    n.passed = ()
    if n.turns >= n.game.turn_cap:
        n.phase = OVER
        n.end = "cap"
        n.winners = richest(n)
        return
    _begin_turn(n, (n.seat + 1) % n.game.players)


def _move(n: MandarinState, pips: int) -> None:
    seat = n.seat
    start = n.pos[seat]
    first_roll = n.rolls == 0
    n.rolls += 1
    n.last_roll = pips
    pos = list(n.pos)
    pos[seat] = (start + pips) % SQUARES
    n.pos = tuple(pos)
    passed = passed_between(n, start, pips)
    # A chain of passes ends by itself: each roll moves at most 6 squares, so within the
    # 5 rolls it takes to pass 4 others nobody can be passed twice (MA-6.3).
    may_pass = passed and (first_roll or n.game.repeat_passing)
    if may_pass:
        victims = tuple(i for i in passed if i in n.owner)
        n.passed = victims
        n.phase = TAKE if victims else DIE
        return
    _land(n)


def _land(n: MandarinState) -> None:
    seat = n.seat
    square = n.pos[seat]
    animal = square // 3
    lord = holder(n, animal)
    money = list(n.money)
    if lord >= 0 and lord != seat:
        due = rent_of(n, animal)
        if money[seat] >= due:
            money[seat] -= due
            money[lord] += due
            n.money = tuple(money)
        else:
            money[lord] += money[seat]
            money[seat] = 0
            n.money = tuple(money)
            if seat in n.owner:
                n.phase = SEIZE
                n.actor = lord
                n.debtor = seat
                return
    elif square % 3 == CHARACTER:
        money[seat] += CHARACTER_BONUS
        n.money = tuple(money)
    _after_landing(n)


def _after_landing(n: MandarinState) -> None:
    square = n.pos[n.seat]
    if n.rolls == 1 and square % 3 != CHARACTER and may_draw(n, n.seat):
        n.phase = FACE
    else:
        _end_turn(n)


def _after_tile(n: MandarinState, face_down: bool) -> None:
    if face_down and len(n.lot) + n.holes >= 2:
        _open_auction(n, seller=-1)
    else:
        n.phase = CHOOSE
        n.actor = n.seat


def _refresh_firsts(n: MandarinState, animal: int) -> None:
    counts = [0] * n.game.players
    owner = n.owner
    for t in ANIMAL_TILES[animal]:
        o = owner[t]
        if o >= 0:
            counts[o] += 1
    kept = [i for i in n.firsts[animal] if counts[i] >= 3]
    kept += [i for i, c in enumerate(counts) if c >= 3 and i not in kept]
    if tuple(kept) != n.firsts[animal]:
        firsts = list(n.firsts)
        firsts[animal] = tuple(kept)
        n.firsts = tuple(firsts)


def _check_win(n: MandarinState, seat: int) -> bool:
    if not has_collection(n, seat):
        return False
    n.phase = OVER
    n.end = "collection"
    n.winners = richest(n) if n.game.money_variant else (seat,)
    return True


def _deliver(n: MandarinState) -> None:
    """Turn the face-down tiles one by one, then give the whole lot to the receiver."""
    if n.holes > 0:
        n.phase = REVEAL
        return
    owner = list(n.owner)
    for t in n.lot:
        owner[t] = n.receiver
    n.owner = tuple(owner)
    for animal in {t // COLOUR_COUNT for t in n.lot}:
        _refresh_firsts(n, animal)
    n.lot = ()
    if not _check_win(n, n.receiver):
        _end_turn(n)


def _open_auction(n: MandarinState, seller: int) -> None:
    n.phase = AUCTION
    n.seller = seller
    n.banned = 0 if seller < 0 else 1 << seller
    _restart_auction(n)


def _restart_auction(n: MandarinState) -> None:
    n.out = n.banned
    n.high = 0
    n.bidder = -1
    players = n.game.players
    # The causer bids first; a special auction opens with the auctioneer's left neighbour.
    for k in range(players):
        seat = (n.seat + k) % players
        if eligible(n, seat):
            n.actor = seat
            return
    _unsold(n)


def _next_bidder(n: MandarinState) -> None:
    players = n.game.players
    remaining = [i for i in range(players) if eligible(n, i)]
    if not remaining:
        _unsold(n)
        return
    if remaining == [n.bidder]:
        _settle(n)
        return
    for k in range(1, players + 1):
        seat = (n.actor + k) % players
        if eligible(n, seat) and seat != n.bidder:
            n.actor = seat
            return


def _settle(n: MandarinState) -> None:
    winner, price = n.bidder, n.high
    money = list(n.money)
    if price > money[winner]:
        money[winner] = 0
        n.money = tuple(money)
        n.banned |= 1 << winner
        _restart_auction(n)
        return
    money[winner] -= price
    if n.seller >= 0:
        money[n.seller] += price
    n.money = tuple(money)
    n.receiver = winner
    n.actor = n.seat
    n.high, n.bidder, n.out, n.banned, n.seller = 0, -1, 0, 0, -1
    _deliver(n)


def _unsold(n: MandarinState) -> None:
    owner = list(n.owner)
    for t in n.lot:
        owner[t] = DISPENSER
    n.owner = tuple(owner)
    n.actor = n.seat
    n.high, n.bidder, n.out, n.banned, n.seller = 0, -1, 0, 0, -1
    _end_turn(n)


# --- the end ---------------------------------------------------------------------
def returns(s: MandarinState) -> list[float]:
    """Winners share +1, losers share -1 (MA-8.3); zeros before the end."""
    players = s.game.players
    if s.phase != OVER:
        return [0.0] * players
    k = len(s.winners)
    if k == players:
        return [0.0] * players
    return [1.0 / k if i in s.winners else -1.0 / (players - k) for i in range(players)]


# --- explanations ----------------------------------------------------------------
def why_illegal(s: MandarinState, a: Action) -> tuple[str, str]:
    """The rule of docs/rules/mandarin.md that forbids `a` now, and why."""
    phase = s.phase
    who = s.actor
    if isinstance(a, Die | Face | Tile):
        return ("MA-0.1", f"{a} is a chance outcome, and {who_name(s)} decides now")
    if isinstance(a, Sign):
        return ("MA-1.3", "signs are chosen only before the first roll, and all are chosen")
    if phase == SIGN:
        return (
            "MA-1.3",
            f"{seat_name(who)} must first choose an animal sign (sign rat ... sign pig)",
        )
    if isinstance(a, Cash):
        if phase == SEIZE:
            return (
                "MA-7.1",
                f"bankrupt {seat_name(s.debtor)} may not cash in tiles first; "
                f"{seat_name(who)} takes one of them",
            )
        if not may_cash(s):
            return (
                "MA-2.1",
                f"tiles are cashed in only by the player on turn when he decides, "
                f"and now {pending(s)}",
            )
        return ("MA-2.1", f"{TABLES.tile_names[a.tile]} is not in {seat_name(who)}'s collection")
    if isinstance(a, Roll):
        return ("MA-2.2", f"the die is rolled at the start of a turn, and now {pending(s)}")
    if isinstance(a, Take):
        tile = TABLES.tile_names[a.tile]
        if phase == TAKE:
            return (
                "MA-6.1",
                f"{tile} is not in the collection of a player {seat_name(who)} passed",
            )
        if phase == SEIZE:
            return ("MA-7.1", f"{tile} is not in bankrupt {seat_name(s.debtor)}'s collection")
        return (
            "MA-6.1",
            f"a tile is taken only after passing a mandarin or from a bankrupt; now {pending(s)}",
        )
    if isinstance(a, Keep | Draw | Offer):
        if phase == AUCTION:
            return ("MA-3.3", "a face-down tile sent this turn's tiles to auction; bid or pass")
        if phase != CHOOSE:
            return ("MA-3.1", f"there is no drawn tile to decide on; now {pending(s)}")
        if isinstance(a, Draw):
            if dispenser_count(s) == 0:
                return ("MA-3.4", "the dispenser is empty, so no further tile can be drawn")
            return (
                "MA-3.4",
                f"the dispenser ran empty, and no player other than {seat_name(who)} has cashed in since",
            )
        if not s.game.money_variant:
            return ("MA-9.2", "the special auction exists only in the money variant")
        if len(s.lot) + s.holes != 1:
            return ("MA-9.2", "only the first tile drawn in a turn may be offered")
        return (
            "MA-9.2",
            f"a special auction needs 6 tiles in one's collection, and {seat_name(who)} has fewer",
        )
    if isinstance(a, Bid | Pass):
        if phase != AUCTION:
            return ("MA-4.1", f"no auction is under way; now {pending(s)}")
        if isinstance(a, Bid):
            if a.amount < BID_STEP or a.amount % BID_STEP:
                return ("MA-4.2", f"bids are whole hundreds of at least {BID_STEP} yuan")
            if a.amount <= s.high:
                return ("MA-4.2", f"a bid must be higher than the standing {s.high} yuan")
            return ("MA-4.2", f"bids go up to {BID_CAP} yuan in steps of {BID_STEP}")
    return ("MA-0.1", f"{a} is not open now: {pending(s)}")


def who_name(s: MandarinState) -> str:
    return "chance" if s.phase in CHANCE_PHASES else f"{seat_name(s.actor)}"


def pending(s: MandarinState) -> str:
    """The pending decision, in words: cashing in is named wherever it is open, which is
    at every decision of one's own turn, not only before the roll (MA-2.1)."""
    text = _pending(s)
    if may_cash(s) and s.actor in s.owner:
        text += f"; {seat_name(s.actor)} may also cash in tiles, at any decision of the turn"
    return text


def _pending(s: MandarinState) -> str:
    phase = s.phase
    seat = s.actor
    if phase == SIGN:
        return f"{seat_name(seat)} chooses an animal sign"
    if phase == START:
        return f"{seat_name(seat)} rolls the die"
    if phase == DIE:
        return f"the die is rolled for {seat_name(s.seat)}"
    if phase == TAKE:
        passed = ", ".join(f"{seat_name(i)}" for i in s.passed)
        return f"{seat_name(seat)} takes one tile from a passed player ({passed})"
    if phase == SEIZE:
        return f"{seat_name(seat)} takes one tile from bankrupt {seat_name(s.debtor)}"
    if phase == FACE:
        return f"a tile drops from the dispenser for {seat_name(s.seat)}"
    if phase == TILE:
        return "the face-up tile is seen"
    if phase == CHOOSE:
        return f"{seat_name(seat)} keeps the drawn tiles or draws again"
    if phase == AUCTION:
        who = "the bank" if s.seller < 0 else f"{seat_name(s.seller)}"
        standing = f"{s.high} yuan by {seat_name(s.bidder)}" if s.bidder >= 0 else "no bid yet"
        return f"{seat_name(seat)} bids or passes in the auction for {who} ({standing})"
    if phase == REVEAL:
        return f"a face-down tile of the lot is turned over for {seat_name(s.receiver)}"
    return "the game is over"


def describe(s: MandarinState, a: Action) -> str:
    """One sentence of what the legal action `a` does."""
    who = f"{seat_name(s.actor)}"
    if isinstance(a, Sign):
        return f"{who} is born under the {TABLES.animals[a.animal]} and starts on its character"
    if isinstance(a, Roll):
        return f"{who} stops cashing in and rolls the die"
    if isinstance(a, Cash):
        return f"{who} returns {TABLES.tile_names[a.tile]} to the dispenser for {TILE_VALUES[a.tile]} yuan"
    if isinstance(a, Take):
        src = s.owner[a.tile]
        why = "passed" if s.phase == TAKE else "bankrupt"
        return f"{who} takes {TABLES.tile_names[a.tile]} from {why} {seat_name(src)}"
    if isinstance(a, Keep):
        count = len(s.lot) + s.holes
        if count == 1:
            return f"{who} keeps the tile drawn this turn, ending the turn"
        return f"{who} keeps the {count} tiles drawn this turn, ending the turn"
    if isinstance(a, Draw):
        if len(s.lot) + s.holes == 1:
            return f"{who} leaves the drawn tile lying and draws another"
        return f"{who} leaves the drawn tiles lying and draws another"
    if isinstance(a, Offer):
        return f"{who} offers the drawn tile in a special auction and takes the price"
    if isinstance(a, Pass):
        return f"{who} drops out of this auction for good"
    if isinstance(a, Bid):
        return f"{who} bids {a.amount} yuan for the lot"
    if isinstance(a, Die):
        return f"the die shows {a.pips}"
    if isinstance(a, Face):
        return f"the tile lands face {'up' if a.up else 'down'}"
    if isinstance(a, Tile):
        return f"the tile is {TABLES.tile_names[a.tile]}"
    return str(a)


def scores(s: MandarinState) -> list[float]:
    """Each seat's wealth: money plus what its tiles are worth (MA-7)."""
    return [float(w) for w in wealth(s)]


def event(s: MandarinState, a: Action, after: MandarinState) -> Event:
    """Every roll, tile, bid and choice happens in the open (MA-1.5: only purses are
    hidden, and no sentence names a purse)."""
    if s.phase in CHANCE_PHASES:
        return Event.public(describe(s, a), reveals=True)
    return Event.public(f"{seat_name(s.actor)}: {a}")


_HANDLERS: dict[type[Action], Callable[[MandarinState, MandarinState, Action], None]] = {
    Bid: _on_bid,
    Pass: _on_pass,
    Die: _on_die,
    Face: _on_face,
    Tile: _on_tile,
    Cash: _on_cash,
    Roll: _on_roll,
    Take: _on_take,
    Keep: _on_keep,
    Draw: _on_draw,
    Offer: _on_offer,
    Sign: _on_sign,
}
