"""Legal actions, their effects, chance, cities, bazaars and the end (docs/rules/silkroad.md).

`Work` is a scratch copy of a state's fields: `apply` changes the copy, never the state.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import TYPE_CHECKING

from tianxia.core import Action
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
from tianxia.games.silkroad.data import MAX_BACK, MAX_FORWARD, Alternative, Part

if TYPE_CHECKING:
    from tianxia.games.silkroad.game import SilkroadGame
    from tianxia.games.silkroad.state import SilkroadState

HAND = 3
DISPLAY = 3
MAX_RESHUFFLES = 4
LOG_LENGTH = 8

# Phases: who decides what next.
DEAL, PLACE, TURN, CARRY, PICK, DRAW, MILES, END = (
    "deal",
    "place",
    "turn",
    "carry",
    "pick",
    "draw",
    "miles",
    "end",
)
CHANCE_PHASES = (DEAL, DRAW)
PHASES = (DEAL, PLACE, TURN, CARRY, PICK, DRAW, MILES, END)


class Work:
    """A mutable copy of a state's fields, changed by the rules and frozen again."""

    __slots__ = (
        "bazaar_cards",
        "card",
        "deck",
        "deck_bazaars",
        "discard",
        "displays",
        "ended",
        "g",
        "group",
        "hands",
        "last_call",
        "log",
        "marker",
        "milestone",
        "mode",
        "numeral",
        "part",
        "phase",
        "pos",
        "remaining",
        "reshuffles",
        "rose",
        "silver",
        "subject",
        "turn",
    )

    def __init__(self, s: SilkroadState) -> None:
        self.g: SilkroadGame = s.game
        self.pos = list(s.pos)
        self.silver = list(s.silver)
        # Hands and displays stay tuples; a changed one is replaced whole.
        self.hands = list(s.hands)
        self.displays = list(s.displays)
        self.deck = list(s.deck)
        self.deck_bazaars = s.deck_bazaars
        self.discard = list(s.discard)
        self.reshuffles = s.reshuffles
        self.marker = s.marker
        self.bazaar_cards = list(s.bazaar_cards)
        self.last_call = list(s.last_call)
        self.milestone = s.milestone
        self.rose = list(s.rose)
        self.turn = s.turn
        self.phase = s.phase
        self.card = s.card
        self.mode = s.mode
        self.subject = s.subject
        self.numeral = s.numeral
        self.group = s.group
        self.part = s.part
        self.remaining = s.remaining
        self.ended = s.ended
        self.log = list(s.log)

    def note(self, text: str) -> None:
        self.log.append(text)
        if len(self.log) > LOG_LENGTH:
            del self.log[0]


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


def carries(g: SilkroadGame, pos: Sequence[int], card: int, subject: int) -> list[Carry]:
    """Every allowed way to carry out `card` for `subject` (alternative and group)."""
    out = []
    for alt in g.data.cards[card].alts:
        for comp in groups(g, pos, subject, alt.numeral):
            if not carry_problem(g, pos, alt, (subject, *comp), subject):
                out.append(Carry(alt.numeral, comp))
    return out


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


def bazaar_allowed(g: SilkroadGame, s: SilkroadState | Work, seat: int) -> bool:
    """SR-6.1 and SR-8.3: a card left, from the second round, never twice in a row."""
    return (
        s.bazaar_cards[seat] > 0
        and s.turn >= g.players
        and (s.last_call[seat] == 0 or s.marker > s.last_call[seat])
    )


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


def gain(w: Work, seat: int, ounces: int) -> None:
    """SR-9.5: the silver track has no field below 0."""
    w.silver[seat] = max(0, w.silver[seat] + ounces)


def move(w: Work, m: int, steps: int) -> None:
    w.pos[m] = destination(w.g, w.pos[m], steps)


def check_cities(w: Work) -> None:
    """SR-7, SR-8.4, SR-9.1: score the milestone city once a company has reached it."""
    g = w.g
    cities = g.data.cities
    while w.phase != END:
        if max(w.pos) >= g.length:
            finish(w, venice=True)
            return
        if w.milestone >= len(cities) - 1:
            return
        city = cities[w.milestone]
        worst = [min(w.pos[m] for m in g.merchants_of[seat]) for seat in range(g.players)]
        if max(worst) < city.field:
            return
        pays = [city.pay(p) for p in worst]
        for seat, v in enumerate(pays):
            gain(w, seat, v)
        w.note(
            f"{city.name} pays " + ", ".join(f"{g.seat_name(i)} {v}" for i, v in enumerate(pays))
        )
        w.milestone += 1


def finish(w: Work, venice: bool) -> None:
    """SR-9: Venice pays every merchant by position, then cards before a player cost silver."""
    g = w.g
    if venice:
        goal = g.data.cities[-1]
        for m, p in enumerate(w.pos):
            gain(w, g.owner[m], goal.pay(p))
        w.note(f"{COLOURS[w.pos.index(max(w.pos))]} reaches {goal.name}: the journey ends")
    else:
        w.note("no card and no bazaar is left to anyone: the journey ends")
    for seat in range(g.players):
        gain(w, seat, -g.data.penalties[len(w.displays[seat])])
    w.phase = END
    w.ended = "venice" if venice else "stall"


def end_turn(w: Work) -> None:
    g = w.g
    w.turn += 1
    w.phase = TURN
    w.card = w.subject = w.numeral = w.part = w.remaining = -1
    w.mode = ""
    w.group = ()
    stalled = all(
        not w.hands[i]
        and not w.displays[i]
        and not (w.bazaar_cards[i] > 0 and (w.last_call[i] == 0 or w.marker > w.last_call[i]))
        for i in range(g.players)
    )
    if stalled:
        finish(w, venice=False)


def refill(w: Work) -> None:
    """SR-3.3, SR-3.4: draw up to three hand cards (a chance node), or end the turn."""
    seat = turn_seat(w.g, w.turn)
    if len(w.hands[seat]) >= HAND:
        end_turn(w)
        return
    if sum(w.deck) + w.deck_bazaars == 0:
        if any(w.discard) and w.reshuffles < MAX_RESHUFFLES:
            w.deck, w.discard = w.discard, [0] * len(w.discard)
            w.reshuffles += 1
            w.note("the discard pile is shuffled into a new draw pile")
        else:
            end_turn(w)
            return
    w.phase = DRAW


def resolve(w: Work) -> None:
    """Carry out the pending card's parts in order, stopping where someone must pick."""
    g = w.g
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
    w.discard[w.card] += 1
    end_turn(w)


def numeral_index(alts: Sequence[Alternative], numeral: int) -> int:
    for i, a in enumerate(alts):
        if a.numeral == numeral:
            return i
    raise ValueError(f"no alternative {numeral}")


def advance_rose(w: Work, colour: int) -> None:
    """SR-4.3, SR-4.5: the marker on `colour` goes clockwise to the next free colour."""
    g = w.g
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
        w.rose[i] = c
        return


def pay_bazaar(w: Work) -> list[int]:
    """SR-6.2: the three foremost merchants earn; shared places share, rounded down."""
    g = w.g
    row = g.data.bazaar[w.marker - 1]
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


def apply(s: SilkroadState, a: Action) -> Work:
    g = s.game
    w = Work(s)
    seat = turn_seat(g, w.turn)
    if isinstance(a, Draw):
        if w.phase == DEAL:
            target = min(range(g.players), key=lambda i: (len(w.hands[i]), i))
            w.deck[a.card] -= 1
            w.hands[target] = tuple(sorted((*w.hands[target], a.card)))
            if all(len(h) >= HAND for h in w.hands):
                w.phase = PLACE
                w.deck_bazaars = g.spare_bazaars
        elif a.card < 0:
            w.deck_bazaars -= 1
            w.marker += 1
            w.note(
                f"{g.seat_name(seat)} draws a bazaar card: the bazaar marker moves to {w.marker}"
            )
            refill(w)
        else:
            w.deck[a.card] -= 1
            w.hands[seat] = tuple(sorted((*w.hands[seat], a.card)))
            refill(w)
    elif isinstance(a, Start):
        m = len(w.pos)
        w.pos.append(g.data.start_positions[a.field])
        w.note(f"{COLOURS[m]} starts on field {g.data.start_fields[a.field]}")
        if len(w.pos) == g.merchants:
            w.phase = TURN
    elif isinstance(a, Play | Give):
        if isinstance(a, Play):
            w.hands[seat] = without(w.hands[seat], a.card)
            w.displays[seat] = tuple(sorted((*w.displays[seat], a.card)))
            w.mode = "A"
        else:
            w.displays[seat] = without(w.displays[seat], a.card)
            w.mode = "B"
        w.card, w.subject, w.phase = a.card, a.merchant, CARRY
        verb = "plays" if w.mode == "A" else "gives"
        w.note(f"{g.seat_name(seat)} {verb} {card_name(a.card)} for {COLOURS[a.merchant]}")
        if g.simple[a.card]:
            carry(w, Carry(1, ()))
        else:
            options = carries(g, w.pos, a.card, a.merchant)
            if len(options) == 1:
                carry(w, options[0])
    elif isinstance(a, Carry):
        carry(w, a)
    elif isinstance(a, Pick):
        card = g.data.cards[w.card]
        part = card.alts[numeral_index(card.alts, w.numeral)].parts[w.part]
        move(w, a.merchant, part_steps(w.pos, part, a.merchant))
        w.note(f"{COLOURS[a.merchant]} is meant")
        w.part += 1
        w.phase = CARRY
        check_cities(w)
        if w.phase != END:
            resolve(w)
    elif isinstance(a, Lay):
        w.hands[seat] = without(w.hands[seat], a.card)
        w.displays[seat] = tuple(sorted((*w.displays[seat], a.card)))
        w.note(f"{g.seat_name(seat)} lays the dead card {card_name(a.card)}")
        refill(w)
    elif isinstance(a, Drop):
        w.displays[seat] = without(w.displays[seat], a.card)
        w.discard[a.card] += 1
        w.note(f"{g.seat_name(seat)} gives up the dead card {card_name(a.card)}")
        end_turn(w)
    elif isinstance(a, CallBazaar):
        row = g.data.bazaar[w.marker - 1]
        paid = pay_bazaar(w)
        w.note(
            f"{g.seat_name(seat)} calls bazaar {row.bazaar}: "
            + ", ".join(f"{COLOURS[m]} {v}" for m, v in enumerate(paid) if v)
        )
        w.marker += 1
        w.bazaar_cards[seat] -= 1
        w.last_call[seat] = w.marker
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
    elif isinstance(a, Miles):
        move(w, a.merchant, a.miles)
        w.remaining -= a.miles
        check_cities(w)
        if w.phase != END and w.remaining == 0:
            end_turn(w)
    elif isinstance(a, Wait):
        w.note(f"{g.seat_name(seat)} has no card to use and waits")
        end_turn(w)
    return w


def without(cards: tuple[int, ...], card: int) -> tuple[int, ...]:
    i = cards.index(card)
    return cards[:i] + cards[i + 1 :]


def carry(w: Work, a: Carry) -> None:
    g = w.g
    card = g.data.cards[w.card]
    alt = card.alts[numeral_index(card.alts, a.numeral)]
    w.numeral = a.numeral
    w.group = (w.subject, *a.companions)
    w.part = 0
    w.phase = CARRY
    if alt.silver:
        gain(w, g.owner[w.subject], alt.silver)
    if len(card.alts) > 1:
        w.note(f"{COLOURS[w.subject]} travels {NUMERALS[a.numeral]}")
    resolve(w)
