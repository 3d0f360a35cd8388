"""Legal actions, their effects, chance, cities, bazaars and the end (docs/rules/silkroad.md).

`apply` changes a draft of the state, never the state.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from tianxia.core.actions import Action
from tianxia.core.events import Event, seat_name
from tianxia.games.silkroad.actions import (
    COLOURS,
    NUMERALS,
    CallBazaar,
    Carry,
    Draw,
    Drop,
    Give,
    Lay,
    Miles,
    Pick,
    Play,
    Start,
    Wait,
    card_name,
)
from tianxia.games.silkroad.data import MAX_BACK, MAX_FORWARD, Alternative, Part, numeral_index
from tianxia.games.silkroad.state import (
    CARRY,
    CHANCE_PHASES,
    DEAL,
    DRAW,
    END,
    MILES,
    PHASES,
    PICK,
    PLACE,
    TURN,
    SilkroadState,
)

if TYPE_CHECKING:
    from tianxia.games.silkroad.game import SilkroadGame

HAND = 3
DISPLAY = 3
MAX_RESHUFFLES = 4
LOG_LENGTH = 8
__all__ = ["CHANCE_PHASES", "PHASES", "numeral_index"]


def note(w: SilkroadState, template: str, *args: object) -> None:
    """Log ``template.format(*args)``; formatted only when the log is read (`Log`)."""
    w.log = w.log.add(LOG_LENGTH, (template, args))


def note_text(w: SilkroadState, text: str) -> None:
    """Log a sentence already written (the rare ones whose making takes a loop)."""
    w.log = w.log.add(LOG_LENGTH, text)


# How a simple card (one alternative, always moving someone) is carried out: one value.
ONLY_WAY = Carry(1, ())

# Seat names as `seat_name` gives them, looked up rather than built on every step.
SEAT_NAMES = tuple(seat_name(i) for i in range(16))


def _set(row: tuple[int, ...], i: int, value: int) -> tuple[int, ...]:
    # Concatenation: for rows this short, cheaper compiled than splicing with `*`.
    return row[:i] + (value,) + row[i + 1 :]  # noqa: RUF005 (see above)


def _add(row: tuple[int, ...], i: int, delta: int) -> tuple[int, ...]:
    return row[:i] + (row[i] + delta,) + row[i + 1 :]  # noqa: RUF005 (as _set)


def _put(
    rows: tuple[tuple[int, ...], ...], i: int, row: tuple[int, ...]
) -> tuple[tuple[int, ...], ...]:
    return rows[:i] + (row,) + rows[i + 1 :]  # noqa: RUF005 (as _set)


# --- movement ----------------------------------------------------------------


def destination(g: SilkroadGame, at: int, steps: int) -> int:
    """Where a merchant on `at` ends after `steps` (SR-5.1: forward cut to 10; track ends)."""
    if steps > MAX_FORWARD:
        steps = MAX_FORWARD
    return max(g.floor, min(g.length, at + steps))


def part_steps(pos: Sequence[int], part: Part, m: int) -> int:
    """The fields merchant `m` is told to move by `part` (before the 10-field cut)."""
    if part.kind == "to_next":
        ahead = [p for p in pos if p > pos[m]]
        return min(ahead) - pos[m] if ahead else 0
    if part.kind == "to_last":
        return min(pos) - pos[m]
    return part.steps


def part_candidates(g: SilkroadGame, pos: Sequence[int], part: Part, subject: int) -> list[int]:
    """The merchants `part` may mean; several = someone must pick (SR-5.5, SR-5.6)."""
    if part.kind == "foremost":
        top = max(pos)
        return [m for m, p in enumerate(pos) if p == top]
    if part.kind == "last":
        low = min(pos)
        return [m for m, p in enumerate(pos) if p == low]
    if part.kind == "foreign":
        own = g.owner[subject]
        return [
            m for m, p in enumerate(pos) if g.owner[m] != own and destination(g, p, part.steps) != p
        ]
    return [subject]


def is_last(pos: Sequence[int], m: int) -> bool:
    return pos[m] == min(pos)


def carry_problem(
    g: SilkroadGame, pos: Sequence[int], alt: Alternative, group: Sequence[int], subject: int
) -> str:
    """Why carrying out `alt` for `group` is not allowed now ('' if it is).

    'when': its condition fails; 'back': it would move someone more than 10 back;
    'dead': it moves nobody.
    """
    if alt.when == "last" and not is_last(pos, subject):
        return "when"
    p = list(pos)
    moved = False
    for part in alt.parts:
        if part.kind == "move":
            members: Sequence[int] = group
        elif part.kind in ("foremost", "last", "foreign"):
            cands = part_candidates(g, p, part, subject)
            if not cands:
                continue
            members = cands[:1]
        else:
            members = (subject,)
        new = []
        for m in members:
            st = part_steps(p, part, m)
            if st < -MAX_BACK:
                return "back"
            d = destination(g, p[m], st)
            moved = moved or d != p[m]
            new.append((m, d))
        for m, d in new:
            p[m] = d
    return "" if moved else "dead"


def groups(g: SilkroadGame, pos: Sequence[int], subject: int, size: int) -> list[tuple[int, ...]]:
    """Companion tuples forming with `subject` a connected group of `size` (SR-5.4)."""
    if size == 1:
        return [()]
    others = [m for m in range(g.merchants) if m != subject]
    out = []
    for comp in itertools.combinations(others, size - 1):
        fields = sorted({pos[subject], *(pos[m] for m in comp)})
        if fields[-1] - fields[0] == len(fields) - 1:
            out.append(comp)
    return out


def carries(g: SilkroadGame, pos: tuple[int, ...], card: int, subject: int) -> tuple[Carry, ...]:
    """Every allowed way to carry out `card` for `subject` (alternative and group).

    Kept by position for the game: a card played is asked for them twice (carried out
    at once when there is one way, listed as the choice when several), and a position
    recurs across playouts and searches.
    """
    key = (pos, card, subject)
    cache = g.carry_cache
    hit = cache.get(key)
    if hit is None:
        out = []
        for alt in g.data.cards[card].alts:
            for comp in groups(g, pos, subject, alt.numeral):
                if not carry_problem(g, pos, alt, (subject, *comp), subject):
                    out.append(Carry(alt.numeral, comp))
        hit = tuple(out)
        if len(cache) > 200_000:
            cache.clear()
        cache[key] = hit
    return hit


def has_effect(g: SilkroadGame, pos: tuple[int, ...], card: int, subject: int) -> bool:
    if g.sure[card]:
        return True
    key = (pos, card, subject)
    cache = g.effect_cache
    hit = cache.get(key)
    if hit is None:
        hit = False
        for alt in g.data.cards[card].alts:
            for comp in groups(g, pos, subject, alt.numeral):
                if not carry_problem(g, pos, alt, (subject, *comp), subject):
                    hit = True
                    break
            if hit:
                break
        if len(cache) > 200_000:
            cache.clear()
        cache[key] = hit
    return hit


# --- who may do what -----------------------------------------------------------


def turn_seat(g: SilkroadGame, turn: int) -> int:
    return turn % g.players


def targets(g: SilkroadGame, rose: Sequence[int], seat: int) -> list[int]:
    """Merchants a card lying before `seat` may be passed to (SR-4.1, SR-4.6)."""
    marked = sorted(c for c in rose if g.owner[c] != seat)
    if marked:
        return marked
    return [m for m in range(g.merchants) if g.owner[m] != seat]


def bazaar_left(g: SilkroadGame, s: SilkroadState, seat: int) -> bool:
    """SR-6.1, SR-6.5, SR-8.3: a bazaar card left, the track not run out, not twice in a row."""
    return (
        s.bazaar_cards[seat] > 0
        and g.data.bazaar_row(s.marker) is not None
        and (s.last_call[seat] == 0 or s.marker > s.last_call[seat])
    )


def bazaar_allowed(g: SilkroadGame, s: SilkroadState, seat: int) -> bool:
    """SR-6.1: a bazaar left to call (`bazaar_left`), from the second round on."""
    return s.turn >= g.players and bazaar_left(g, s, seat)


def turn_actions(g: SilkroadGame, s: SilkroadState) -> list[Action]:
    seat = turn_seat(g, s.turn)
    hand = sorted(set(s.hands[seat]))
    display = sorted(set(s.displays[seat]))
    pos = s.pos
    plays: list[Action] = []
    if len(s.displays[seat]) < DISPLAY:
        for k in hand:
            row = g.plays[k]
            for m in g.merchants_of[seat]:
                if has_effect(g, pos, k, m):
                    plays.append(row[m])
    gives: list[Action] = []
    tg = targets(g, s.rose, seat)
    for k in display:
        give_row = g.gives[k]
        for t in tg:
            if has_effect(g, pos, k, t):
                gives.append(give_row[t])
    out = plays + gives
    if not out:
        if len(s.displays[seat]) < DISPLAY:
            out.extend(Lay(k) for k in hand)
        out.extend(Drop(k) for k in display)
    if bazaar_allowed(g, s, seat):
        out.append(CallBazaar())
    if not out:
        out.append(Wait())
    return out


def legal_actions(s: SilkroadState) -> list[Action]:
    g = s.game
    ph = s.phase
    if ph == TURN:
        return turn_actions(g, s)
    if ph == CARRY:
        return list(carries(g, s.pos, s.card, s.subject))
    if ph == PICK:
        part = g.data.cards[s.card].alts[s.numeral_index].parts[s.part]
        return [Pick(m) for m in part_candidates(g, s.pos, part, s.subject)]
    if ph == MILES:
        rem = s.remaining
        seat = turn_seat(g, s.turn)
        rng = range(rem, 0) if rem < 0 else range(1, rem + 1)
        return [Miles(m, d) for m in g.merchants_of[seat] for d in rng]
    if ph == PLACE:
        return [Start(i) for i in range(len(g.data.start_fields))]
    return []


def chance_outcomes(s: SilkroadState) -> list[tuple[Action, float]]:
    g = s.game
    bazaars = s.deck_bazaars if s.phase == DRAW else 0
    total = sum(s.deck) + bazaars
    out: list[tuple[Action, float]] = []
    if bazaars:
        out.append((g.draw_bazaar, bazaars / total))
    draws = g.draws
    for k, n in enumerate(s.deck):
        if n:
            out.append((draws[k], n / total))
    return out


# --- effects -------------------------------------------------------------------


def gain(w: SilkroadState, seat: int, ounces: int) -> None:
    """SR-9.5: the silver track has no field below 0."""
    w.silver = _set(w.silver, seat, max(0, w.silver[seat] + ounces))


def move(w: SilkroadState, m: int, steps: int) -> None:
    w.pos = _set(w.pos, m, destination(w.game, w.pos[m], steps))


def foremost(pos: tuple[int, ...]) -> int:
    """``max(pos)`` as a loop the compiled build runs on machine integers."""
    top = pos[0]
    for p in pos:
        if p > top:
            top = p
    return top


def check_cities(w: SilkroadState) -> None:
    """SR-7, SR-8.4, SR-9.1: score the milestone city once a company has reached it."""
    g = w.game
    cities = g.data.cities
    while w.phase != END:
        top = foremost(w.pos)
        if top >= g.length:
            finish(w, venice=True)
            return
        if w.milestone >= len(cities) - 1:
            return
        city = cities[w.milestone]
        # No company's last merchant is past the foremost one: most steps end here.
        if top < city.field:
            return
        worst = [min(w.pos[m] for m in g.merchants_of[seat]) for seat in range(g.players)]
        if max(worst) < city.field:
            return
        pays = [city.pay(p) for p in worst]
        for seat, v in enumerate(pays):
            gain(w, seat, v)
        note_text(
            w, f"{city.name} pays " + ", ".join(f"{g.seat_name(i)} {v}" for i, v in enumerate(pays))
        )
        w.milestone += 1


def finish(w: SilkroadState, venice: bool) -> None:
    """SR-9: Venice pays every merchant by position, then cards before a player cost silver."""
    g = w.game
    if venice:
        goal = g.data.cities[-1]
        for m, p in enumerate(w.pos):
            gain(w, g.owner[m], goal.pay(p))
        note(w, "{} reaches {}: the journey ends", COLOURS[w.pos.index(max(w.pos))], goal.name)
    else:
        note_text(w, "no card and no bazaar is left to anyone: the journey ends")
    for seat in range(g.players):
        gain(w, seat, -g.data.penalties[len(w.displays[seat])])
    w.phase = END
    w.ended = "venice" if venice else "stall"


def end_turn(w: SilkroadState) -> None:
    g = w.game
    w.turn += 1
    w.phase = TURN
    w.card = w.subject = w.numeral = w.part = w.remaining = -1
    w.mode = ""
    w.group = ()
    stalled = all(
        not w.hands[i] and not w.displays[i] and not bazaar_left(g, w, i) for i in range(g.players)
    )
    if stalled:
        finish(w, venice=False)


def refill(w: SilkroadState) -> None:
    """SR-3.3, SR-3.4: draw up to three hand cards (a chance node), or end the turn."""
    seat = turn_seat(w.game, w.turn)
    if len(w.hands[seat]) >= HAND:
        end_turn(w)
        return
    if sum(w.deck) + w.deck_bazaars == 0:
        if any(w.discard) and w.reshuffles < MAX_RESHUFFLES:
            w.deck, w.discard = w.discard, (0,) * len(w.discard)
            w.reshuffles += 1
            note_text(w, "the discard pile is shuffled into a new draw pile")
        else:
            end_turn(w)
            return
    w.phase = DRAW


def resolve(w: SilkroadState) -> None:
    """Carry out the pending card's parts in order, stopping where someone must pick."""
    g = w.game
    card = g.data.cards[w.card]
    alt = card.alts[numeral_index(card.alts, w.numeral)]
    while w.part < len(alt.parts) and w.phase != END:
        part = alt.parts[w.part]
        if part.kind == "move":
            members: Sequence[int] = w.group
        elif part.kind in ("foremost", "last", "foreign"):
            cands = part_candidates(g, w.pos, part, w.subject)
            if len(cands) > 1:
                w.phase = PICK
                return
            members = cands
        else:
            members = (w.subject,)
        steps = [part_steps(w.pos, part, m) for m in members]
        for m, st in zip(members, steps):
            move(w, m, st)
        w.part += 1
        check_cities(w)
    if w.phase == END:
        return
    if w.mode == "A":
        refill(w)
        return
    # SR-4.3: the carrier moves the wind-rose marker from his colour; SR-4.4: discard.
    advance_rose(w, w.subject)
    w.discard = _add(w.discard, w.card, 1)
    end_turn(w)


def advance_rose(w: SilkroadState, colour: int) -> None:
    """SR-4.3, SR-4.5: the marker on `colour` goes clockwise to the next free colour."""
    g = w.game
    if colour not in w.rose:
        return
    i = w.rose.index(colour)
    other = w.rose[1 - i]
    c = colour
    for _ in range(g.merchants):
        c = (c + 1) % g.merchants
        if c == other:
            continue
        if g.players == 2 and g.owner[c] != g.owner[colour]:
            continue
        w.rose = _set(w.rose, i, c)
        return


def pay_bazaar(w: SilkroadState) -> list[int]:
    """SR-6.2: the three foremost merchants earn; shared places share, rounded down."""
    g = w.game
    row = g.data.bazaar_row(w.marker)
    assert row is not None, "SR-6.5: only a bazaar on the track is called"
    order = sorted(range(g.merchants), key=lambda m: -w.pos[m])
    paid = [0] * g.merchants
    place = 0
    while place < 3 and place < len(order):
        here = w.pos[order[place]]
        tied = [m for m in order if w.pos[m] == here]
        total = sum(row.ounces[q] for q in range(place, place + len(tied)) if q < 3)
        for m in tied:
            paid[m] = total // len(tied)
        place += len(tied)
    for m, v in enumerate(paid):
        gain(w, g.owner[m], v)
    return paid


def apply(s: SilkroadState, a: Action) -> SilkroadState:
    w = s.draft()
    _HANDLERS[type(a)](w, a)
    return w.freeze()


def _on_draw(w: SilkroadState, a: Action) -> None:
    assert isinstance(a, Draw)
    g = w.game
    seat = turn_seat(w.game, w.turn)
    if w.phase == DEAL:
        target = min(range(g.players), key=lambda i: (len(w.hands[i]), i))
        w.deck = _add(w.deck, a.card, -1)
        w.hands = _put(w.hands, target, tuple(sorted((*w.hands[target], a.card))))
        if all(len(h) >= HAND for h in w.hands):
            w.phase = PLACE
            w.deck_bazaars = g.spare_bazaars
    elif a.card < 0:
        w.deck_bazaars -= 1
        w.marker += 1
        if g.data.bazaar_row(w.marker) is None:
            note(w, "{} draws a bazaar card: the bazaar track has run out", SEAT_NAMES[seat])
        else:
            note(
                w,
                "{} draws a bazaar card: the bazaar marker moves to {}",
                SEAT_NAMES[seat],
                w.marker,
            )
        refill(w)
    else:
        w.deck = _add(w.deck, a.card, -1)
        w.hands = _put(w.hands, seat, tuple(sorted((*w.hands[seat], a.card))))
        refill(w)


def _on_start(w: SilkroadState, a: Action) -> None:
    assert isinstance(a, Start)
    g = w.game
    m = len(w.pos)
    w.pos = (*w.pos, g.data.start_positions[a.field])
    note(w, "{} starts on field {}", COLOURS[m], g.data.start_fields[a.field])
    if len(w.pos) == g.merchants:
        w.phase = TURN


def _on_play_or_give(w: SilkroadState, a: Action) -> None:
    assert isinstance(a, Play | Give)
    g = w.game
    seat = turn_seat(w.game, w.turn)
    if isinstance(a, Play):
        w.hands = _put(w.hands, seat, without(w.hands[seat], a.card))
        w.displays = _put(w.displays, seat, tuple(sorted((*w.displays[seat], a.card))))
        w.mode = "A"
    else:
        w.displays = _put(w.displays, seat, without(w.displays[seat], a.card))
        w.mode = "B"
    w.card, w.subject, w.phase = a.card, a.merchant, CARRY
    verb = "plays" if w.mode == "A" else "gives"
    # "#{}" with the kind + 1 is `card_name`.
    note(w, "{} {} #{} for {}", SEAT_NAMES[seat], verb, a.card + 1, COLOURS[a.merchant])
    if g.simple[a.card]:
        carry(w, ONLY_WAY)
    else:
        options = carries(g, w.pos, a.card, a.merchant)
        if len(options) == 1:
            carry(w, options[0])


def _on_carry(w: SilkroadState, a: Action) -> None:
    assert isinstance(a, Carry)
    carry(w, a)


def _on_pick(w: SilkroadState, a: Action) -> None:
    assert isinstance(a, Pick)
    g = w.game
    card = g.data.cards[w.card]
    part = card.alts[numeral_index(card.alts, w.numeral)].parts[w.part]
    move(w, a.merchant, part_steps(w.pos, part, a.merchant))
    note(w, "{} is meant", COLOURS[a.merchant])
    w.part += 1
    w.phase = CARRY
    check_cities(w)
    if w.phase != END:
        resolve(w)


def _on_lay(w: SilkroadState, a: Action) -> None:
    assert isinstance(a, Lay)
    seat = turn_seat(w.game, w.turn)
    w.hands = _put(w.hands, seat, without(w.hands[seat], a.card))
    w.displays = _put(w.displays, seat, tuple(sorted((*w.displays[seat], a.card))))
    note(w, "{} lays the dead card #{}", SEAT_NAMES[seat], a.card + 1)
    refill(w)


def _on_drop(w: SilkroadState, a: Action) -> None:
    assert isinstance(a, Drop)
    seat = turn_seat(w.game, w.turn)
    w.displays = _put(w.displays, seat, without(w.displays[seat], a.card))
    w.discard = _add(w.discard, a.card, 1)
    note(w, "{} gives up the dead card #{}", SEAT_NAMES[seat], a.card + 1)
    end_turn(w)


def _on_call_bazaar(w: SilkroadState, a: Action) -> None:
    assert isinstance(a, CallBazaar)
    g = w.game
    seat = turn_seat(w.game, w.turn)
    row = g.data.bazaar_row(w.marker)
    assert row is not None, "SR-6.5: only a bazaar on the track is called"
    paid = pay_bazaar(w)
    note_text(
        w,
        f"{g.seat_name(seat)} calls bazaar {row.bazaar}: "
        + ", ".join(f"{COLOURS[m]} {v}" for m, v in enumerate(paid) if v),
    )
    w.marker += 1
    w.bazaar_cards = _add(w.bazaar_cards, seat, -1)
    w.last_call = _set(w.last_call, seat, w.marker)
    if row.miles == 0:
        end_turn(w)
    elif len(g.merchants_of[seat]) == 1:
        move(w, g.merchants_of[seat][0], row.miles)
        check_cities(w)
        if w.phase != END:
            end_turn(w)
    else:
        w.remaining = row.miles
        w.phase = MILES


def _on_miles(w: SilkroadState, a: Action) -> None:
    assert isinstance(a, Miles)
    move(w, a.merchant, a.miles)
    w.remaining -= a.miles
    check_cities(w)
    if w.phase != END and w.remaining == 0:
        end_turn(w)


def _on_wait(w: SilkroadState, a: Action) -> None:
    assert isinstance(a, Wait)
    seat = turn_seat(w.game, w.turn)
    note(w, "{} has no card to use and waits", SEAT_NAMES[seat])
    end_turn(w)


def without(cards: tuple[int, ...], card: int) -> tuple[int, ...]:
    i = cards.index(card)
    return cards[:i] + cards[i + 1 :]


def carry(w: SilkroadState, a: Carry) -> None:
    g = w.game
    card = g.data.cards[w.card]
    alt = card.alts[numeral_index(card.alts, a.numeral)]
    w.numeral = a.numeral
    w.group = (w.subject, *a.companions)
    w.part = 0
    w.phase = CARRY
    if alt.silver:
        gain(w, g.owner[w.subject], alt.silver)
    if len(card.alts) > 1:
        note(w, "{} travels {}", COLOURS[w.subject], NUMERALS[a.numeral])
    resolve(w)


_HANDLERS: dict[type[Action], Callable[[SilkroadState, Action], None]] = {
    Draw: _on_draw,
    Start: _on_start,
    Play: _on_play_or_give,
    Give: _on_play_or_give,
    Carry: _on_carry,
    Pick: _on_pick,
    Lay: _on_lay,
    Drop: _on_drop,
    CallBazaar: _on_call_bazaar,
    Miles: _on_miles,
    Wait: _on_wait,
}


# --- what an action does, and why one is refused ----------------------------------
def describe(s: SilkroadState, a: Action) -> str:
    g = s.game
    cards = g.data.cards
    if isinstance(a, Draw):
        return "a bazaar card comes up" if a.card < 0 else f"{cards[a.card].title!r} is drawn"
    if isinstance(a, Start):
        return f"places the {COLOURS[len(s.pos)]} merchant on start field {'ABC'[a.field]}"
    if isinstance(a, Play):
        c = cards[a.card]
        return f"lays {card_name(a.card)} {c.title!r} face up and carries it out for {COLOURS[a.merchant]}: {c.text}"
    if isinstance(a, Give):
        c = cards[a.card]
        return f"passes {card_name(a.card)} {c.title!r} to {COLOURS[a.merchant]}, whose owner carries it out: {c.text}"
    if isinstance(a, Lay):
        return f"lays the dead card {card_name(a.card)} before you without effect"
    if isinstance(a, Drop):
        return f"gives up the dead card {card_name(a.card)} lying before you, without effect"
    if isinstance(a, CallBazaar):
        row = g.data.bazaar_row(s.marker)
        if row is None:
            return "would call a bazaar, but the bazaar track has run out"
        return (
            f"calls bazaar {row.bazaar}: the three foremost earn {list(row.ounces)} ounces, "
            f"then your merchants move {row.miles:+d} fields"
        )
    if isinstance(a, Wait):
        return "lets the turn pass, having no card or bazaar to use"
    if isinstance(a, Carry):
        group = ", ".join(COLOURS[m] for m in (s.subject, *a.companions))
        return f"carries out alternative {NUMERALS[a.numeral]} of {card_name(s.card)} for {group}"
    if isinstance(a, Pick):
        return f"names {COLOURS[a.merchant]} as the merchant the card means"
    if isinstance(a, Miles):
        return f"moves {COLOURS[a.merchant]} {a.miles:+d} fields of the bazaar miles"
    return str(a)


def why_illegal(s: SilkroadState, a: Action) -> tuple[str, str]:
    """The rule of docs/rules/silkroad.md that forbids `a` now, and why."""
    g = s.game
    ph = s.phase
    seat = s.turn_seat
    if isinstance(a, Draw):
        return ("SR-3.3", "cards are drawn only by chance, after a card was played")
    if isinstance(a, Start):
        return ("SR-1.6", "merchants are placed on the start fields only before the first turn")
    if ph == PLACE:
        return ("SR-1.6", "every merchant must first be placed on a start field")
    if ph == CARRY and not isinstance(a, Carry):
        return (
            "SR-4.2",
            f"{COLOURS[s.subject]}'s owner must first choose how to carry out the card",
        )
    if ph == PICK and not isinstance(a, Pick):
        return ("SR-5.5", "a merchant the card means must first be named")
    if ph == MILES and not isinstance(a, Miles):
        return ("SR-8.3", "the bazaar miles must first be shared among the caller's merchants")
    if isinstance(a, Play):
        return _why_play(s, a, seat)
    if isinstance(a, Give):
        return _why_give(s, a, seat)
    if isinstance(a, Lay | Drop):
        if ph != TURN:
            return ("SR-2.1", "a card is used only at the start of a turn")
        where = s.hands[seat] if isinstance(a, Lay) else s.displays[seat]
        if a.card not in where:
            place = "in your hand" if isinstance(a, Lay) else "lying before you"
            return ("SR-5.3", f"{card_name(a.card)} is not {place}")
        if isinstance(a, Lay) and len(s.displays[seat]) >= DISPLAY:
            return ("SR-3.2", "three cards already lie before you")
        return (
            "SR-5.3",
            "a dead card may be laid or given up only when no card of yours can move anyone",
        )
    if isinstance(a, CallBazaar):
        if ph != TURN:
            return ("SR-2.1", "a bazaar is called only at the start of a turn")
        if s.bazaar_cards[seat] == 0:
            return ("SR-6.1", "you have no bazaar card left")
        if g.data.bazaar_row(s.marker) is None:
            return (
                "SR-6.5",
                "the bazaar marker has passed the last row of the bazaar track, "
                "so no bazaar can be called any more",
            )
        if s.turn < g.players:
            return ("SR-6.1", "a bazaar may be called only from the second round on")
        return ("SR-8.3", "you may not call two bazaars in a row; another must come between")
    if isinstance(a, Wait):
        return ("SR-2.2", "you may wait only when you have no card or bazaar to use")
    if isinstance(a, Carry):
        return _why_carry(s, a)
    if isinstance(a, Pick):
        if ph != PICK:
            return ("SR-5.5", "no card is asking for a merchant to be named now")
        return ("SR-5.5", f"{COLOURS[a.merchant]} is not one of the merchants the card may mean")
    if isinstance(a, Miles):
        if ph != MILES:
            return ("SR-8.3", "no bazaar miles are waiting to be shared")
        if g.owner[a.merchant] != seat:
            return ("SR-8.3", f"{COLOURS[a.merchant]} is not one of your merchants")
        return ("SR-8.3", f"{s.remaining:+d} bazaar miles remain; {a.miles:+d} does not fit")
    return ("SR-2.1", f"{a} is not open now")


def _why_play(s: SilkroadState, a: Play, seat: int) -> tuple[str, str]:
    g = s.game
    if s.phase != TURN:
        return ("SR-2.1", "a card is played only at the start of a turn")
    if a.card not in s.hands[seat]:
        return ("SR-3.1", f"{card_name(a.card)} is not in your hand")
    if g.owner[a.merchant] != seat:
        return (
            "SR-3.1",
            f"option A moves your own merchant, and {COLOURS[a.merchant]} is not yours",
        )
    if len(s.displays[seat]) >= DISPLAY:
        return (
            "SR-3.2",
            "three cards already lie before you, so you must give one away or call a bazaar",
        )
    return _why_dead(s, a.card, a.merchant)


def _why_give(s: SilkroadState, a: Give, seat: int) -> tuple[str, str]:
    g = s.game
    if s.phase != TURN:
        return ("SR-2.1", "a card is given away only at the start of a turn")
    if a.card not in s.displays[seat]:
        return ("SR-4.1", f"{card_name(a.card)} is not lying before you")
    if g.owner[a.merchant] == seat:
        return ("SR-4.1", "a card is never passed to one of your own merchants")
    if a.merchant not in targets(g, s.rose, seat):
        marked = " and ".join(COLOURS[c] for c in s.rose)
        return ("SR-4.1", f"only a merchant marked on the wind rose ({marked}) may receive it")
    return _why_dead(s, a.card, a.merchant)


def _why_dead(s: SilkroadState, card: int, subject: int) -> tuple[str, str]:
    g = s.game
    problems = set()
    for alt in g.data.cards[card].alts:
        for comp in groups(g, s.pos, subject, alt.numeral):
            problems.add(carry_problem(g, s.pos, alt, (subject, *comp), subject))
    if "back" in problems:
        return (
            "SR-5.1",
            f"{card_name(card)} would move {COLOURS[subject]} more than 10 fields back",
        )
    if "when" in problems and problems <= {"when"}:
        return (
            "SR-5.2",
            f"{card_name(card)}'s condition does not hold for {COLOURS[subject]}, so it moves nobody",
        )
    return ("SR-5.2", f"{card_name(card)} would move nobody now, so it cannot be played")


def _why_carry(s: SilkroadState, a: Carry) -> tuple[str, str]:
    g = s.game
    if s.phase != CARRY:
        return ("SR-4.2", "no card is waiting to be carried out")
    card = g.data.cards[s.card]
    alt = card.alt(a.numeral)
    if alt is None:
        return ("SR-5.4", f"{card_name(s.card)} has no alternative {NUMERALS[a.numeral]}")
    if s.subject in a.companions:
        return ("SR-5.4", "the carrying merchant is already in the group")
    group = (s.subject, *a.companions)
    fields = sorted({s.pos[m] for m in group})
    if fields[-1] - fields[0] != len(fields) - 1:
        return (
            "SR-5.4",
            "a group must stand together on one field or on fields one behind another",
        )
    problem = carry_problem(g, s.pos, alt, group, s.subject)
    if problem == "back":
        return ("SR-5.1", "this alternative would move a merchant more than 10 fields back")
    if problem == "when":
        return ("SR-5.2", "this alternative's condition does not hold, so it moves nobody")
    return ("SR-5.2", "this alternative would move nobody; a dead alternative may not be chosen")


# --- the end and the scores ----------------------------------------------------------
def scores(s: SilkroadState) -> list[float]:
    return [float(v) for v in s.silver]


def returns(s: SilkroadState) -> list[float]:
    n = s.game.players
    if s.phase != END:
        return [0.0] * n
    best = max(s.silver)
    winners = [i for i, v in enumerate(s.silver) if v == best]
    k = len(winners)
    if k == n:
        return [0.0] * n
    return [1.0 / k if i in winners else -1.0 / (n - k) for i in range(n)]


# --- events: what each action tells each seat ----------------------------------------
def event(s: SilkroadState, a: Action, after: SilkroadState) -> Event:
    """A card drawn into a hand is told to its holder alone (SR-3.3); the bazaar cards and
    everything played, given, laid or moved lie open on the table."""
    g = s.game
    if isinstance(a, Draw):
        if a.card < 0:
            who = seat_name(turn_seat(g, s.turn))
            return Event.public(f"{who} draws a bazaar card", reveals=True)
        if s.phase == DEAL:
            seat = min(range(g.players), key=lambda i: (len(s.hands[i]), i))
        else:
            seat = turn_seat(g, s.turn)
        who = seat_name(seat)
        return Event.private(f"{who} draws {card_name(a.card)}", {seat}, f"{who} draws a card")
    who = seat_name(s.current_player())
    if isinstance(a, Start):
        m = len(s.pos)
        return Event.public(f"{who} starts {COLOURS[m]} on field {g.data.start_fields[a.field]}")
    return Event.public(f"{who}: {describe(s, a)}")
