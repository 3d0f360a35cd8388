"""What one seat (or a spectator) sees of a Mandarin position."""

from __future__ import annotations

from tianxia.core.game import JSON
from tianxia.games.mandarin import rules
from tianxia.games.mandarin.data import ANIMAL_COUNT, TABLES
from tianxia.games.mandarin.state import MandarinState


def observation(s: MandarinState, seat: int | None) -> JSON:
    """Everything public, plus `seat`'s own money; the keys are listed in the rules doc."""
    players = s.game.players
    names = TABLES.tile_names
    owner = s.owner
    over = s.phase == rules.OVER
    collections: list[list[str]] = [[] for _ in range(players)]
    for t, o in enumerate(owner):
        if o >= 0:
            collections[o].append(names[t])
    auction = None
    if s.phase == rules.AUCTION:
        auction = {
            "seller": s.seller,
            "high_bid": s.high,
            "high_bidder": s.bidder,
            "out": [i for i in range(players) if (s.out >> i) & 1],
            "overbid": [i for i in range(players) if (s.banned >> i) & 1],
        }
    return {
        "seat": seat,
        "players": players,
        "to_move": s.current_player(),
        "phase": rules.PHASE_NAMES[s.phase],
        "prompt": rules.pending(s),
        "turn_of": s.seat,
        "turns": s.turns,
        "turn_cap": s.game.turn_cap,
        "rolls": s.rolls,
        "last_roll": s.last_roll,
        "signs": [TABLES.animals[a] if a >= 0 else None for a in s.sign],
        "positions": list(s.pos),
        "collections": collections,
        "sector_holders": [rules.holder(s, a) for a in range(ANIMAL_COUNT)],
        "sector_claims": [list(f) for f in s.firsts],
        "dispenser": rules.dispenser_count(s),
        "may_draw": [i for i in range(players) if rules.may_draw(s, i)],
        "lot": {"face_up": [names[t] for t in s.lot], "face_down": s.holes},
        "auction": auction,
        "receiver": s.receiver,
        "passed": list(s.passed),
        "debtor": s.debtor,
        "money": s.money[seat] if seat is not None else None,
        "all_money": list(s.money) if over else None,
        "winners": list(s.winners),
        "end": s.end,
        "money_variant": s.game.money_variant,
        "log": list(s.log),
    }


def deciding(s: MandarinState) -> str:
    """The decision awaited, in a word: the phase's name."""
    return rules.PHASE_NAMES[s.phase]


def scores_for(s: MandarinState, seat: int | None) -> list[float | None]:
    """Wealth counts money, and a purse is hidden from the other seats until the end."""
    values = rules.scores(s)
    if s.phase == rules.OVER:
        return list(values)
    return [v if i == seat else None for i, v in enumerate(values)]
