"""What a seat (or a spectator) sees.

Public: every section (cards, face-up tiles, the tile lying on a card, totals), the bag's
contents (all reveals are public), each seat's hand and deck sizes, won tiles (their
values were face up before they were taken), the cards gone from the game. Private: a
seat's own hand, and its deck's contents (known, since the set is known; never its order).
"""

from __future__ import annotations

from tianxia.core.events import seat_name
from tianxia.core.game import JSON
from tianxia.games.greatwall.data import KINDS, SECTION_NAMES
from tianxia.games.greatwall.rules import section_totals
from tianxia.games.greatwall.state import PHASE_NAMES as PHASES
from tianxia.games.greatwall.state import GreatWallState


def _counts(row: tuple[int, ...]) -> dict[str, int]:
    return {KINDS[k]: c for k, c in enumerate(row) if c}


def pending_text(s: GreatWallState) -> str:
    """The decision awaited, in words."""
    who = seat_name(s.seat)
    phase = PHASES[s.phase]
    if phase == "over":
        return "the game is over"
    if phase == "setup":
        return "setting up: fame tiles are revealed and five cards dealt to each player"
    if phase == "drawing":
        return f"{who} draws a card"
    if any(sec.open and sec.placed is None and len(sec.tiles) < 2 for sec in s.sections) and any(
        s.bag
    ):
        return "new fame tiles are being revealed"
    if phase == "scoring":
        todo = [SECTION_NAMES[i] for i in range(len(s.sections)) if s.pending >> i & 1]
        return f"{who} claims fame tiles in the scoring check (sections {', '.join(todo)})"
    which = "second" if s.done == 0 else "third"
    return f"{who} takes the {which} action (play or draw); horsemen may be laid free"


def observation(s: GreatWallState, seat: int | None) -> JSON:
    g = s.game
    n = g.players
    sections = []
    for i, sec in enumerate(s.sections):
        sections.append(
            {
                "name": SECTION_NAMES[i],
                "open": sec.open,
                "tiles": list(sec.tiles),
                "placed": (
                    {"value": sec.placed[0], "card": sec.placed[1] + 1}
                    if sec.placed is not None
                    else None
                ),
                "cards": [[[c >> 3, KINDS[c & 7]] for c in st] for st in sec.stacks],
                "totals": list(section_totals(sec, n, g.card_values)),
            }
        )
    players = [
        {
            "hand_size": sum(s.hands[p]),
            "deck_size": sum(s.decks[p]),
            "won": list(s.won[p]),
            "fame": sum(s.won[p]),
            "gone": _counts(s.gone[p]),
        }
        for p in range(n)
    ]
    mine = seat is not None and 0 <= seat < n
    return {
        "game": "greatwall",
        "seat": seat,
        "current_player": s.to_move,
        "turn_of": s.seat,
        "phase": PHASES[s.phase],
        "pending": pending_text(s),
        "actions_done": s.done,
        "final_round": s.trigger >= 0,
        "emptied_by": s.trigger,
        "cards_stopped": s.stopped,
        "sections": sections,
        "bag": {str(v): c for v, c in zip(g.tile_values, s.bag) if c},
        "bag_size": sum(s.bag),
        "boxed": {str(v): c for v, c in zip(g.tile_values, s.boxed) if c},
        "players": players,
        "hand": _counts(s.hands[seat]) if mine and seat is not None else None,
        "deck": _counts(s.decks[seat]) if mine and seat is not None else None,
        "scores": [sum(w) for w in s.won],
        "log": list(s.log),
    }


def deciding(s: GreatWallState) -> str:
    """The decision awaited, in a word: the phase's name."""
    return PHASES[s.phase]


def scores_for(s: GreatWallState, seat: int | None) -> list[float | None]:
    """Won tiles' values were face up before they were taken: every score is public."""
    return [float(sum(w)) for w in s.won]
