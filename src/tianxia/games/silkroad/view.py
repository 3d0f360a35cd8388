"""What a seat may see."""

from __future__ import annotations

from typing import TYPE_CHECKING

from tianxia.core.game import JSON
from tianxia.games.silkroad import rules
from tianxia.games.silkroad.actions import (
    COLOURS,
    NUMERALS,
    card_name,
)
from tianxia.games.silkroad.rules import (
    CARRY,
    DEAL,
    DRAW,
    END,
    MILES,
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


def deciding(s: SilkroadState) -> str:
    """The decision awaited, in a word: the phase's name."""
    return str(s.phase.value)


def scores_for(s: SilkroadState, seat: int | None) -> list[float | None]:
    """Silver lies open on the track: every seat sees every score."""
    return [float(v) for v in s.silver]
