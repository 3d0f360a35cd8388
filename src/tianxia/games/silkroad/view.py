"""What a seat may see, what an action does, and why an action is refused."""

from __future__ import annotations

from typing import TYPE_CHECKING

from tianxia.core import JSON, Action
from tianxia.games.silkroad import rules
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
from tianxia.games.silkroad.rules import (
    CARRY,
    DEAL,
    DISPLAY,
    DRAW,
    END,
    MILES,
    PHASES,
    PICK,
    PLACE,
    TURN,
)

if TYPE_CHECKING:
    from tianxia.games.silkroad.state import SilkroadState


def decision(s: SilkroadState) -> str:
    """The pending decision in words."""
    g = s.game
    ph = s.phase
    if ph == DEAL:
        return "the hand cards are being dealt"
    if ph == PLACE:
        m = len(s.pos)
        return (
            f"{g.seat_name(g.owner[m])} places the {COLOURS[m]} merchant on start field A, B or C"
        )
    if ph == END:
        return "the journey is over"
    seat = s.turn_seat
    if ph == TURN:
        return f"{g.seat_name(seat)} plays a card (A), gives one away (B) or calls a bazaar (C)"
    if ph == DRAW:
        return f"{g.seat_name(seat)} draws up to three hand cards"
    card = g.data.cards[s.card]
    if ph == CARRY:
        return (
            f"{g.seat_name(g.owner[s.subject])} chooses how {COLOURS[s.subject]} carries out "
            f"{card_name(s.card)} {card.title!r}"
        )
    if ph == PICK:
        part = card.alts[s.numeral_index].parts[s.part]
        who = "a foreign merchant" if part.kind == "foreign" else f"the {part.kind} merchant"
        return f"{g.seat_name(s.current_player())} names {who} for {card_name(s.card)}"
    if ph == MILES:
        return f"{g.seat_name(seat)} shares {s.remaining:+d} bazaar miles among his merchants"
    return ph


def observation(s: SilkroadState, seat: int | None) -> JSON:
    g = s.game
    cities = g.data.cities
    return {
        "seat": seat,
        "players": g.players,
        "to_move": s.current_player(),
        "phase": s.phase,
        "decision": decision(s),
        "turn": s.turn,
        "round": s.round,
        "turn_player": s.turn_seat,
        "merchants": [
            {
                "colour": COLOURS[m],
                "owner": g.owner[m],
                "field": s.pos[m] if m < len(s.pos) else None,
            }
            for m in range(g.merchants)
        ],
        "silver": list(s.silver),
        "hand": list(s.hands[seat]) if seat is not None else None,
        "hand_sizes": [len(h) for h in s.hands],
        "displays": [list(d) for d in s.displays],
        "bazaar_cards": list(s.bazaar_cards),
        "bazaar_allowed": [rules.bazaar_allowed(g, s, i) for i in range(g.players)],
        "bazaar_marker": s.marker,
        "pile": sum(s.deck) + (s.deck_bazaars if s.phase != DEAL else 0),
        "pile_bazaars": s.deck_bazaars,
        "discard": [k for k, n in enumerate(s.discard) for _ in range(n)],
        "reshuffles": s.reshuffles,
        "milestone": cities[s.milestone].name if s.milestone < len(cities) - 1 else None,
        "wind_rose": [COLOURS[c] for c in s.rose],
        "pending": {
            "card": s.card if s.card >= 0 else None,
            "mode": s.mode or None,
            "merchant": COLOURS[s.subject] if s.subject >= 0 else None,
            "numeral": NUMERALS[s.numeral] if s.numeral > 0 else None,
            "group": [COLOURS[m] for m in s.group],
            "part": s.part if s.part >= 0 else None,
            "miles": s.remaining if s.phase == MILES else None,
        },
        "penalties_due": [g.data.penalties[len(d)] for d in s.displays],
        "ended": s.ended or None,
        "log": list(s.log),
    }


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
        row = g.data.bazaar[s.marker - 1]
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
    if a.merchant not in rules.targets(g, s.rose, seat):
        marked = " and ".join(COLOURS[c] for c in s.rose)
        return ("SR-4.1", f"only a merchant marked on the wind rose ({marked}) may receive it")
    return _why_dead(s, a.card, a.merchant)


def _why_dead(s: SilkroadState, card: int, subject: int) -> tuple[str, str]:
    g = s.game
    problems = set()
    for alt in g.data.cards[card].alts:
        for comp in rules.groups(g, s.pos, subject, alt.numeral):
            problems.add(rules.carry_problem(g, s.pos, alt, (subject, *comp), subject))
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
    problem = rules.carry_problem(g, s.pos, alt, group, s.subject)
    if problem == "back":
        return ("SR-5.1", "this alternative would move a merchant more than 10 fields back")
    if problem == "when":
        return ("SR-5.2", "this alternative's condition does not hold, so it moves nobody")
    return ("SR-5.2", "this alternative would move nobody; a dead alternative may not be chosen")


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
