"""The rules of China: legal actions, transitions, scoring. Rule ids refer to docs/rules/china.md."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from tianxia.core.actions import Action
from tianxia.core.constants import CHANCE, TERMINAL
from tianxia.core.events import Event, seat_name
from tianxia.games.china.actions import (
    OWN,
    Card,
    Done,
    Draw,
    Emissary,
    Exchange,
    Fortify,
    House,
    Pass,
    Take,
)
from tianxia.games.china.data import COLOURS
from tianxia.games.china.state import (
    CHANCE_PHASES,
    DEAL,
    DRAW,
    OVER,
    PLACE,
    REFILL,
    REVEAL,
    TURN,
    ChinaState,
)

if TYPE_CHECKING:
    from tianxia.games.china.game import ChinaGame
HAND_SIZE = 3
DISPLAY_SIZE = 4
MAX_CARDS = 3
LOG_LENGTH = 8


# --- derived facts ------------------------------------------------------------------
def emissary_limit(s: ChinaState, p: int) -> int:
    """CH-4.2: the largest number of houses a single player has in province `p`."""
    n = s.game.players
    return max(s.pcount[p * n : p * n + n])


def emissaries_in(s: ChinaState, p: int) -> int:
    n = s.game.players
    return sum(s.emissaries[p * n : p * n + n])


def _emissary_room(emissaries: tuple[int, ...], pcount: tuple[int, ...], p: int, n: int) -> bool:
    """`emissaries_in(s, p) < emissary_limit(s, p)` in one pass over the seats, without
    slicing: asked for every province on every turn (CH-4.2)."""
    placed = limit = 0
    for q in range(p * n, p * n + n):
        placed += emissaries[q]
        if pcount[q] > limit:
            limit = pcount[q]
    return placed < limit


def holds_piece(s: ChinaState, p: int) -> bool:
    """Whether province `p` holds any piece: a house, an emissary or a fortification."""
    g = s.game
    if emissaries_in(s, p) or emissary_limit(s, p):
        return True
    return any(g.board.field_province[f] == p for f in s.forts)


def _payments(g: ChinaGame, hand: tuple[int, ...], colour: int, spare: int) -> list[int]:
    """CH-3.3/3.4: the ways to pay for one piece in a province of `colour` with `spare` cards."""
    out: list[int] = []
    if spare >= 1 and hand[colour]:
        out.append(OWN)
    if spare >= 2:
        for c in range(5):
            if c != colour and hand[c] >= 2:
                out.append(c)
    return out


def _placements(s: ChinaState, provinces: range | tuple[int, ...]) -> list[Action]:
    # Listed on every turn of every playout: the tables are read into locals once.
    g = s.game
    me = s.seat
    hand = s.hands[me]
    spare = MAX_CARDS - s.cards
    houses_left, emissaries_left, forts_left = s.supply[me]
    board = g.board
    colour = board.province_colour
    province_fields = board.province_fields
    paying = [(p, pay) for p in provinces if (pay := _payments(g, hand, colour[p], spare))]
    out: list[Action] = []
    if not paying:
        return out
    houses = s.houses
    if houses_left:
        house_actions = g.house_actions
        for p, pay in paying:
            for f in province_fields[p]:
                if houses[f] < 0:
                    row = house_actions[f]
                    for j in pay:
                        out.append(row[j + 1])
    if emissaries_left:
        n = g.players
        emissaries = s.emissaries
        pcount = s.pcount
        emissary_actions = g.emissary_actions
        for p, pay in paying:
            if _emissary_room(emissaries, pcount, p, n):
                row = emissary_actions[p]
                for j in pay:
                    out.append(row[j + 1])
    if forts_left and g.fortifications:
        forts = s.forts
        fort_actions = g.fort_actions
        for p, pay in paying:
            for f in province_fields[p]:
                if houses[f] < 0 and f not in forts:
                    row = fort_actions[f]
                    for j in pay:
                        out.append(row[j + 1])
    return out


def _can_exchange(s: ChinaState) -> bool:
    return sum(s.hands[s.seat]) > 0 and (sum(s.display) > 0 or sum(s.deck) > 0)


def legal_actions(s: ChinaState) -> list[Action]:
    g = s.game
    if s.phase == TURN:
        out = _placements(s, g.all_provinces)
        if _can_exchange(s):
            hand = s.hands[s.seat]
            out.extend(g.exchange_actions[c] for c in range(5) if hand[c])
        elif not out:
            out.append(g.pass_action)
        return out
    if s.phase == PLACE:
        out = _placements(s, (s.province,))
        out.append(g.done_action)
        return out
    if s.phase == REFILL:
        out = [g.take_actions[c] for c in range(5) if s.display[c]]
        if sum(s.deck):
            out.append(g.draw_action)
        return out
    return []


# --- transitions --------------------------------------------------------------------
def _log(t: ChinaState, template: str, *args: object) -> None:
    """Log ``template.format(*args)``; formatted only when the log is read (`Log`)."""
    t.log = t.log.note(LOG_LENGTH, template, args)


def _set(row: tuple[int, ...], i: int, delta: int) -> tuple[int, ...]:
    lst = list(row)
    lst[i] += delta
    return tuple(lst)


def _set_row(
    rows: tuple[tuple[int, ...], ...], i: int, row: tuple[int, ...]
) -> tuple[tuple[int, ...], ...]:
    lst = list(rows)
    lst[i] = row
    return tuple(lst)


def _spend(t: ChinaState, colour: int, count: int) -> None:
    """Move `count` cards of `colour` from the mover's hand to the open discard pile."""
    me = t.seat
    t.hands = _set_row(t.hands, me, _set(t.hands[me], colour, -count))
    known = t.known[me]
    if known[colour]:
        t.known = _set_row(t.known, me, _set(known, colour, -min(count, known[colour])))
    t.discards = _set(t.discards, colour, count)
    if t.exhaustions == 1:
        t.spent = _set_row(t.spent, me, _set(t.spent[me], colour, count))


def _after_deck_draw(t: ChinaState) -> None:
    """CH-6.3/6.4: the deck ran out; the first time the discards become the new deck."""
    if sum(t.deck):
        return
    if t.exhaustions == 0 and sum(t.discards) > 0:
        t.deck, t.discards = t.discards, (0, 0, 0, 0, 0)
        t.fresh = t.deck
        t.exhaustions = 1
        _log(t, "the deck ran out: the discard pile is shuffled into a new deck")
    else:
        t.exhaustions = 2
        _log(t, "the deck ran out a second time: this is the last round")


def current_player(s: ChinaState) -> int:
    """The seat deciding now, `CHANCE` or `TERMINAL` (the state's `current_player`)."""
    phase = s.phase
    if phase in CHANCE_PHASES:
        return CHANCE
    if phase == OVER:
        return TERMINAL
    return s.seat


def apply(s: ChinaState, a: Action) -> ChinaState:
    t = s.draft()
    _HANDLERS[type(a)](t, s, a)
    # Who moves, kept in the successor: written here, not by the core (docs/engine.md).
    t._player = current_player(t)
    return t.freeze()


def _on_card(t: ChinaState, s: ChinaState, a: Action) -> None:
    assert isinstance(a, Card)
    g = s.game
    ph = s.phase
    t.deck = _set(t.deck, a.colour, -1)
    if ph == DEAL:
        n = g.players
        if s.dealt < HAND_SIZE * n:
            who = s.dealt % n
            t.hands = _set_row(t.hands, who, _set(t.hands[who], a.colour, 1))
        else:
            t.display = _set(t.display, a.colour, 1)
        t.dealt = s.dealt + 1
        if t.dealt == HAND_SIZE * n + DISPLAY_SIZE:
            t.phase = TURN
            if g.rules_version <= 2:
                # The log is part of the state, so of the hashes stored games keep: games
                # of version 2 keep the line as it was written then.
                _log(t, "cards dealt; seat 0 holds the Emperor and begins")
            else:
                _log(t, "cards dealt; {} holds the Emperor and begins", seat_name(0))
        return
    if ph == DRAW:
        me = s.seat
        t.hands = _set_row(t.hands, me, _set(t.hands[me], a.colour, 1))
        if s.exhaustions == 1:
            t.drawn = _set_row(t.drawn, me, _set(t.drawn[me], a.colour, 1))
        t.to_take = s.to_take - 1
        _log(t, "{} draws a card from the deck", seat_name(me))
        _after_deck_draw(t)
        _refill_step(t)
        return
    t.display = _set(t.display, a.colour, 1)
    if s.exhaustions == 1:
        t.fresh = _set(t.fresh, a.colour, -1)
    _log(t, "{} is laid out on the display", COLOURS[a.colour])
    _after_deck_draw(t)
    _reveal_or_end(t)


def _on_piece(t: ChinaState, s: ChinaState, a: Action) -> None:
    assert isinstance(a, House | Emissary | Fortify)
    g = s.game
    names = g.board
    ph = s.phase
    me = s.seat
    p = a.province if isinstance(a, Emissary) else names.field_province[a.field]
    if ph == TURN:
        t.province = p
        t.limit = 2 if holds_piece(s, p) else 1
    if a.joker == OWN:
        _spend(t, names.province_colour[p], 1)
        used = 1
    else:
        _spend(t, a.joker, 2)
        used = 2
    t.cards = s.cards + used
    t.pieces = s.pieces + 1
    sup = list(s.supply[me])
    n = g.players
    if isinstance(a, House):
        sup[0] -= 1
        houses = list(s.houses)
        houses[a.field] = me
        t.houses = tuple(houses)
        t.pcount = _set(s.pcount, p * n + me, 1)
        _log(t, "{}: {}", seat_name(me), a)
        if not s.scored[p] and all(houses[f] >= 0 for f in names.province_fields[p]):
            gained = province_points(t, p)
            t.points = tuple(x + y for x, y in zip(t.points, gained))
            t.scored = _set(s.scored, p, 1)
            _log(t, "{} is full and scored: {}", names.province_names[p], str(list(gained)))
    elif isinstance(a, Emissary):
        sup[1] -= 1
        t.emissaries = _set(s.emissaries, p * n + me, 1)
        _log(t, "{}: {}", seat_name(me), a)
    else:
        sup[2] -= 1
        t.forts = tuple(sorted((*s.forts, a.field)))
        _log(t, "{}: {}", seat_name(me), a)
    t.supply = _set_row(s.supply, me, tuple(sup))
    if t.pieces >= t.limit or t.cards >= MAX_CARDS:
        _start_refill(t)
    else:
        t.phase = PLACE


def _on_done(t: ChinaState, s: ChinaState, a: Action) -> None:
    assert isinstance(a, Done)
    _start_refill(t)


def _on_exchange(t: ChinaState, s: ChinaState, a: Action) -> None:
    assert isinstance(a, Exchange)
    me = s.seat
    _spend(t, a.colour, 1)
    # The log is part of the state hashes stored games keep: games of rules version 2
    # keep "a orange card".
    an = _an(COLOURS[a.colour]) and t.game.rules_version > 2
    _log(
        t,
        "{} exchanges an {} card" if an else "{} exchanges a {} card",
        seat_name(me),
        COLOURS[a.colour],
    )
    t.to_take = 1
    _refill_step(t)


def _on_take(t: ChinaState, s: ChinaState, a: Action) -> None:
    assert isinstance(a, Take)
    me = s.seat
    t.display = _set(s.display, a.colour, -1)
    t.hands = _set_row(s.hands, me, _set(s.hands[me], a.colour, 1))
    t.known = _set_row(s.known, me, _set(s.known[me], a.colour, 1))
    t.to_take = s.to_take - 1
    _log(t, "{} takes {} from the display", seat_name(me), COLOURS[a.colour])
    _refill_step(t)


def _on_draw(t: ChinaState, s: ChinaState, a: Action) -> None:
    assert isinstance(a, Draw)
    t.phase = DRAW


def _on_pass(t: ChinaState, s: ChinaState, a: Action) -> None:
    assert isinstance(a, Pass)
    me = s.seat
    _log(t, "{} can neither place nor exchange and passes", seat_name(me))
    _end_turn(t)


def _start_refill(t: ChinaState) -> None:
    t.to_take = HAND_SIZE - sum(t.hands[t.seat])
    _refill_step(t)


def _refill_step(t: ChinaState) -> None:
    if t.to_take > 0 and (sum(t.display) > 0 or sum(t.deck) > 0):
        t.phase = REFILL
    else:
        t.to_take = 0
        _reveal_or_end(t)


def _reveal_or_end(t: ChinaState) -> None:
    if sum(t.display) < DISPLAY_SIZE and sum(t.deck) > 0:
        t.phase = REVEAL
    else:
        _end_turn(t)


def _end_turn(t: ChinaState) -> None:
    g = t.game
    nxt = (t.seat + 1) % g.players
    t.province, t.pieces, t.cards, t.limit, t.to_take = -1, 0, 0, 2, 0
    if t.exhaustions >= 2 and nxt == 0:
        _finish(t, "the round after the second exhaustion of the deck is over")
    elif not any_placement_possible(t):
        _finish(t, "no piece can be placed any more")
    else:
        t.seat = nxt
        t.phase = TURN


def any_placement_possible(s: ChinaState) -> bool:
    """CH-8.2: whether any seat, holding the right cards, could still place any piece."""
    # Asked at the end of every turn: the cheap questions first, each only if needed.
    g = s.game
    supply = s.supply
    free = [f for f, o in enumerate(s.houses) if o < 0]
    if free and any(h for h, _, _ in supply):
        return True
    if any(e for _, e, _ in supply):
        n = g.players
        emissaries = s.emissaries
        pcount = s.pcount
        for p in g.all_provinces:
            if _emissary_room(emissaries, pcount, p, n):
                return True
    if g.fortifications and any(fo for _, _, fo in supply):
        forts = s.forts
        return any(f not in forts for f in free)
    return False


# --- scoring ------------------------------------------------------------------------
def rank_points(counts: list[int] | tuple[int, ...]) -> list[int]:
    """CH-5.2/5.3: ranked majority points for the house counts of one province."""
    levels = sorted({c for c in counts if c > 0}, reverse=True)
    total = sum(counts)
    pay = {}
    for i, level in enumerate(levels):
        pay[level] = total if i == 0 else levels[i - 1]
    return [pay.get(c, 0) for c in counts]


def province_points(s: ChinaState, p: int) -> list[int]:
    """House scoring of province `p`, doubled for a seat whose house stands on a fortification."""
    g = s.game
    n = g.players
    pts = rank_points(s.pcount[p * n : p * n + n])
    for f in s.forts:
        if g.board.field_province[f] == p and s.houses[f] >= 0:
            owner = s.houses[f]
            if pts[owner] and not _doubled(s, p, owner, f):
                pts[owner] *= 2
    return pts


def _doubled(s: ChinaState, p: int, owner: int, f: int) -> bool:
    """Whether an earlier fortification of this province already doubled `owner` (once only)."""
    g = s.game
    return any(g.board.field_province[e] == p and s.houses[e] == owner for e in s.forts if e < f)


def alliance_points(s: ChinaState) -> list[int]:
    """CH-9.2: alliances 1-15 in order; majority (ties included) in both provinces scores all."""
    g = s.game
    n = g.players
    pts = [0] * n
    for a, b in g.board.alliances:
        ea = s.emissaries[a * n : a * n + n]
        eb = s.emissaries[b * n : b * n + n]
        ma, mb = max(ea), max(eb)
        if not ma or not mb:
            continue
        for i in range(n):
            if ea[i] == ma and eb[i] == mb:
                pts[i] += sum(ea) + sum(eb)
    return pts


def chain_points(s: ChinaState, seat: int) -> int:
    """CH-9.3: each connected group of a seat's houses scores its longest simple path if 4+.

    Among equally long paths one through a fortification is taken; it scores double.
    """
    g = s.game
    nbrs = g.board.neighbours
    mine = {f for f, o in enumerate(s.houses) if o == seat}
    forts = set(s.forts)
    seen: set[int] = set()
    total = 0
    for start in sorted(mine):
        if start in seen:
            continue
        group = {start}
        stack = [start]
        while stack:
            f = stack.pop()
            for x in nbrs[f]:
                if x in mine and x not in group:
                    group.add(x)
                    stack.append(x)
        seen |= group
        if len(group) < 4:
            continue
        best = (0, 0)
        for f in sorted(group):
            best = max(best, _longest_from(f, group, nbrs, forts, {f}, 1, int(f in forts)))
        length, fortified = best
        if length >= 4:
            total += length * (2 if fortified else 1)
    return total


def _longest_from(
    f: int,
    group: set[int],
    nbrs: tuple[tuple[int, ...], ...],
    forts: set[int],
    path: set[int],
    length: int,
    fortified: int,
) -> tuple[int, int]:
    best = (length, fortified)
    for x in nbrs[f]:
        if x in group and x not in path:
            path.add(x)
            got = _longest_from(x, group, nbrs, forts, path, length + 1, fortified | (x in forts))
            path.discard(x)
            best = max(best, got)
    return best


def final_terms(s: ChinaState) -> tuple[list[int], list[int], list[int]]:
    """The three parts of the final scoring (CH-9): unscored provinces, alliances, chains."""
    g = s.game
    n = g.players
    houses = [0] * n
    for p in g.all_provinces:
        if not s.scored[p]:
            for i, v in enumerate(province_points(s, p)):
                houses[i] += v
    chains = [chain_points(s, i) for i in range(n)]
    return houses, alliance_points(s), chains


def _finish(t: ChinaState, why: str) -> None:
    houses, allies, chains = final_terms(t)
    t.final = tuple(tuple(x) for x in zip(houses, allies, chains))
    t.points = tuple(
        p + h + a + c for p, h, a, c in zip(t.points, houses, allies, chains, strict=True)
    )
    t.phase = OVER
    _log(t, "the game ends: {}", why)


def winners(s: ChinaState) -> list[int]:
    """CH-10: most points; among those, most pieces left in supply."""
    best = max(s.points)
    top = [i for i, p in enumerate(s.points) if p == best]
    left = {i: sum(s.supply[i]) for i in top}
    most = max(left.values())
    return [i for i in top if left[i] == most]


def returns(s: ChinaState) -> list[float]:
    n = s.game.players
    if s.phase != OVER:
        return [0.0] * n
    win = winners(s)
    if len(win) == n:
        return [0.0] * n
    return [1.0 / len(win) if i in win else -1.0 / (n - len(win)) for i in range(n)]


# --- explanations ------------------------------------------------------------------
def _where(g: ChinaGame, a: House | Emissary | Fortify) -> int:
    return a.province if isinstance(a, Emissary) else g.board.field_province[a.field]


def why_illegal(s: ChinaState, a: Action) -> tuple[str, str]:
    g = s.game
    b = g.board
    me = s.seat
    hand = s.hands[me]
    if isinstance(a, Card):
        return ("CH-6.1", "cards come off the deck only by chance, after `draw`")
    if isinstance(a, House | Emissary | Fortify):
        if isinstance(a, Fortify) and not g.fortifications:
            return ("CH-11.1", "fortifications are used only in the fortification variant")
        if not (0 <= (a.province if isinstance(a, Emissary) else a.field) < g.extent(a)):
            return ("CH-4.1", f"{a} names no place on this board")
        if a.joker != OWN and not 0 <= a.joker < 5:
            return ("CH-3.4", f"{a} names no card colour")
        p = _where(g, a)
        pname = b.province_names[p]
        if s.phase == REFILL:
            if s.pieces == 0:
                return ("CH-7", "this turn exchanges a card, so no piece can be placed")
            if s.cards >= MAX_CARDS:
                return ("CH-3.3", "three cards were played this turn, the most a turn allows")
            if s.limit == 1:
                return (
                    "CH-3.2",
                    f"{b.province_names[s.province]} held no piece at the start of the turn, "
                    "so only one piece may be placed there",
                )
            return ("CH-3.2", "two pieces were placed this turn, the most a turn allows")
        if s.phase != TURN and s.phase != PLACE:
            return ("CH-2", "pieces are placed only at the start of one's own turn")
        if s.phase == PLACE and p != s.province:
            return (
                "CH-3.1",
                f"this turn places in {b.province_names[s.province]}; all pieces of a turn "
                "go into one province",
            )
        kind = 0 if isinstance(a, House) else 1 if isinstance(a, Emissary) else 2
        if not s.supply[me][kind]:
            what = ("houses", "emissaries", "fortifications")[kind]
            return ("CH-3.5", f"{seat_name(me)} has no {what} left in supply")
        if isinstance(a, Emissary):
            limit = emissary_limit(s, p)
            there = emissaries_in(s, p)
            if limit == 0:
                return ("CH-4.2", f"{pname} holds no house yet, so no emissary may go there")
            if there == limit == 1:
                return (
                    "CH-4.2",
                    f"the emissary limit in {pname} is 1 (the most houses of one player) "
                    "and 1 emissary stands there",
                )
            if there >= limit:
                return (
                    "CH-4.2",
                    f"the emissary limit in {pname} is {limit} (the most houses of one player) "
                    f"and {there} emissaries stand there",
                )
        if isinstance(a, Fortify):
            fname = b.field_names[a.field]
            if s.houses[a.field] >= 0:
                return (
                    "CH-11.1",
                    f"a fortification needs a free house field; {fname} holds a house",
                )
            if a.field in s.forts:
                return ("CH-11.1", f"{fname} already holds a fortification")
        elif isinstance(a, House) and s.houses[a.field] >= 0:
            return ("CH-4.1", f"{b.field_names[a.field]} already holds a house")
        colour = b.province_colour[p]
        if a.joker == colour:
            return (
                "CH-3.4",
                f"a joker must be of another colour than the province; {pname} is "
                f"{COLOURS[colour]}",
            )
        cost = 1 if a.joker == OWN else 2
        if s.cards + cost > MAX_CARDS:
            return (
                "CH-3.3",
                f"{s.cards} cards were played this turn and at most 3 may be played",
            )
        if a.joker == OWN and not hand[colour]:
            if _an(COLOURS[colour]):
                return ("CH-3.3", f"{pname} needs an {COLOURS[colour]} card and none is in hand")
            return ("CH-3.3", f"{pname} needs a {COLOURS[colour]} card and none is in hand")
        if a.joker != OWN and hand[a.joker] < 2:
            return (
                "CH-3.4",
                f"a joker takes two {COLOURS[a.joker]} cards and the hand holds {hand[a.joker]}",
            )
        return ("CH-4.1", f"{a} cannot be placed now")
    if isinstance(a, Done):
        if s.phase == TURN:
            return ("CH-3", "nothing has been placed this turn; place a piece or exchange a card")
        return ("CH-6.1", "placing is over; the hand is being refilled")
    if isinstance(a, Pass):
        return ("CH-2.1", "passing is allowed only when neither placing nor exchanging is possible")
    if isinstance(a, Exchange):
        if s.phase != TURN:
            return ("CH-2", "a turn either places pieces or exchanges one card, not both")
        if not 0 <= a.colour < 5 or not hand[a.colour]:
            return ("CH-7", f"the hand holds no {_colour(a.colour)} card to exchange")
        return ("CH-6.4", "no card is left on display or in the deck to take in exchange")
    if isinstance(a, Take | Draw):
        if s.phase != REFILL:
            return (
                "CH-6.1",
                "cards are taken only after placing (refill to 3) or when exchanging",
            )
        if isinstance(a, Take):
            return ("CH-6.1", f"no {_colour(a.colour)} card lies on the display")
        return ("CH-6.4", "the deck is used up; only the display is left to take from")
    return ("ENGINE-2", f"{a} is not an action of China")


def _colour(c: int) -> str:
    return COLOURS[c] if 0 <= c < 5 else f"colour {c}"


def _an(word: str) -> bool:
    """Whether English says "an" before `word` ("an orange card")."""
    return word[:1] in ("a", "e", "i", "o", "u")


def describe(s: ChinaState, a: Action) -> str:
    g = s.game
    b = g.board
    if isinstance(a, Card):
        where = {DEAL: "is dealt", DRAW: "is drawn into the hand", REVEAL: "is laid out"}
        if s.phase == DEAL and s.dealt >= 3 * g.players:
            where[DEAL] = "is laid out"  # the hands are dealt: the rest opens the display
        colour = COLOURS[a.colour]
        if _an(colour):
            return f"an {colour} card {where.get(s.phase, 'comes')} from the deck"
        return f"a {colour} card {where.get(s.phase, 'comes')} from the deck"
    if isinstance(a, House | Emissary | Fortify):
        p = _where(g, a)
        pay = (
            f"one {COLOURS[b.province_colour[p]]} card"
            if a.joker == OWN
            else f"two {COLOURS[a.joker]} cards as a joker"
        )
        if isinstance(a, House):
            what = f"places a house on {b.field_names[a.field]}"
        elif isinstance(a, Emissary):
            what = f"sends an emissary to the dragon field of {b.province_names[p]}"
        else:
            what = f"puts a fortification on {b.field_names[a.field]}"
        return f"{seat_name(s.seat)} {what}, paying {pay}"
    if isinstance(a, Done):
        return f"{seat_name(s.seat)} ends placing and refills the hand to 3"
    if isinstance(a, Pass):
        return f"{seat_name(s.seat)} passes, unable to place or exchange"
    if isinstance(a, Exchange):
        if _an(COLOURS[a.colour]):
            return f"{seat_name(s.seat)} discards an {COLOURS[a.colour]} card and takes one card instead"
        return f"{seat_name(s.seat)} discards a {COLOURS[a.colour]} card and takes one card instead"
    if isinstance(a, Take):
        return f"{seat_name(s.seat)} takes the face-up {COLOURS[a.colour]} card from the display"
    if isinstance(a, Draw):
        return f"{seat_name(s.seat)} takes the top card of the deck"
    return f"{a} is legal"


def chance_outcomes(s: ChinaState) -> list[tuple[Action, float]]:
    """CH-6: a card off the deck, weighted by the copies of each colour left."""
    total = sum(s.deck)
    cards = s.game.card_actions
    return [(cards[c], n / total) for c, n in enumerate(s.deck) if n]


def scores(s: ChinaState) -> list[float]:
    return [float(p) for p in s.points]


def event(s: ChinaState, a: Action, after: ChinaState) -> Event:
    """Cards dealt or drawn into a hand are told to that hand alone (CH-6.2); cards laid
    out on the display, pieces placed, exchanges and takes from the display are public."""
    if isinstance(a, Card):
        g = s.game
        if s.phase == DEAL and s.dealt < 3 * g.players:
            seat = s.dealt % g.players
        elif s.phase == DRAW:
            seat = s.seat
        else:
            return Event.public(f"{COLOURS[a.colour]} is laid out on the display", reveals=True)
        who = seat_name(seat)
        colour = COLOURS[a.colour]
        got = f"{who} gets an {colour} card" if _an(colour) else f"{who} gets a {colour} card"
        return Event.private(got, {seat}, f"{who} gets a card from the deck")
    return Event.public(f"{seat_name(s.seat)}: {a}")


_HANDLERS: dict[type[Action], Callable[[ChinaState, ChinaState, Action], None]] = {
    Card: _on_card,
    House: _on_piece,
    Emissary: _on_piece,
    Fortify: _on_piece,
    Done: _on_done,
    Exchange: _on_exchange,
    Take: _on_take,
    Draw: _on_draw,
    Pass: _on_pass,
}
