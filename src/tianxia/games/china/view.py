"""What a seat may see of a position of China."""

from __future__ import annotations

from tianxia.core.events import seat_name
from tianxia.core.game import JSON
from tianxia.games.china import rules
from tianxia.games.china.data import COLOURS
from tianxia.games.china.state import ChinaState


def _by_colour(counts: tuple[int, ...]) -> dict[str, int]:
    return {COLOURS[c]: counts[c] for c in range(5)}


def pending(s: ChinaState) -> str:
    """The decision awaited now, in words."""
    b = s.game.board
    if s.phase == "deal":
        return "chance deals the cards: 3 to each hand, then 4 face up"
    if s.phase == "turn":
        return f"{seat_name(s.seat)} places 1-3 cards' worth of pieces in one province or exchanges a card"
    if s.phase == "place":
        return f"{seat_name(s.seat)} may place a second piece in {b.province_names[s.province]} or say done"
    if s.phase == "refill":
        if s.to_take == 1:
            return f"{seat_name(s.seat)} takes 1 more card from the display or the deck"
        return f"{seat_name(s.seat)} takes {s.to_take} more cards from the display or the deck"
    if s.phase == "draw":
        return f"chance draws the top card of the deck for {seat_name(s.seat)}"
    if s.phase == "reveal":
        return "chance lays out a card from the deck to refill the display to 4"
    return "the game is over"


def observation(s: ChinaState, seat: int | None) -> JSON:
    g = s.game
    b = g.board
    n = g.players
    provinces = []
    for p, name in enumerate(b.province_names):
        provinces.append(
            {
                "name": name,
                "colour": COLOURS[b.province_colour[p]],
                "houses": list(s.pcount[p * n : p * n + n]),
                "emissaries": list(s.emissaries[p * n : p * n + n]),
                "emissary_limit": rules.emissary_limit(s, p),
                "free_fields": sum(1 for f in b.province_fields[p] if s.houses[f] < 0),
                "scored": bool(s.scored[p]),
            }
        )
    over = s.phase == "over"
    return {
        "game": "china",
        "players": n,
        "seat": seat,
        "current_player": s.current_player(),
        "emperor": 0,
        "phase": s.phase,
        "pending": pending(s),
        "turn": {
            "seat": s.seat,
            "province": b.province_names[s.province] if s.province >= 0 else None,
            "pieces": s.pieces,
            "cards": s.cards,
            "limit": s.limit,
            "to_take": s.to_take,
        },
        "fields": list(s.houses),
        "forts": [b.field_names[f] for f in s.forts],
        "provinces": provinces,
        "hand": _by_colour(s.hands[seat]) if seat is not None else None,
        "hand_sizes": [sum(h) for h in s.hands],
        "known": [_by_colour(k) for k in s.known],
        "display": _by_colour(s.display),
        "deck": sum(s.deck),
        "discards": _by_colour(s.discards),
        "exhaustions": s.exhaustions,
        "reshuffled_deck": _by_colour(s.fresh) if s.exhaustions == 1 else None,
        "draws_from_reshuffled_deck": [sum(d) for d in s.drawn],
        "spent_since_reshuffle": [_by_colour(d) for d in s.spent],
        "my_draws_from_reshuffled_deck": _by_colour(s.drawn[seat]) if seat is not None else None,
        "last_round": s.exhaustions >= 2,
        "supply": [{"houses": h, "emissaries": e, "fortifications": f} for h, e, f in s.supply],
        "scores": list(s.points),
        "final": (
            None
            if s.final is None
            else [dict(zip(("provinces", "alliances", "roads"), f)) for f in s.final]
        ),
        "winners": rules.winners(s) if over else None,
        "log": list(s.log),
    }


def deciding(s: ChinaState) -> str:
    """The decision awaited, in a word: the phase's name."""
    return str(s.phase.value)


def scores_for(s: ChinaState, seat: int | None) -> list[float | None]:
    """Points are scored in the open."""
    return [float(p) for p in s.points]
