"""Build a position by hand, for tests, examples and analysis.

>>> import tianxia
>>> from tianxia.games.china.position import position
>>> g = tianxia.load_game("china", players=4)
>>> s = position(g, houses={"Wei.1": 0}, hands=[{"red": 1}, {}, {}, {}])
>>> str(s.legal_actions()[0])
'house Wei.2'
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from tianxia.core.match import apply_all
from tianxia.games.china.data import COLOURS
from tianxia.games.china.game import ChinaGame
from tianxia.games.china.state import ChinaState, Phase


def _counts(spec: Mapping[str, int] | None) -> list[int]:
    spec = spec or {}
    unknown = set(spec) - set(COLOURS)
    if unknown:
        raise ValueError(f"no card colour {sorted(unknown)[0]!r} (colours: {', '.join(COLOURS)})")
    return [spec.get(c, 0) for c in COLOURS]


def position(
    game: ChinaGame,
    *,
    houses: Mapping[str, int] | None = None,
    emissaries: Mapping[str, Sequence[int]] | None = None,
    forts: Sequence[str] = (),
    hands: Sequence[Mapping[str, int]] | None = None,
    known: Sequence[Mapping[str, int]] | None = None,
    display: Mapping[str, int] | None = None,
    discards: Mapping[str, int] | None = None,
    deck: Mapping[str, int] | None = None,
    points: Sequence[int] | None = None,
    scored: Sequence[str] = (),
    seat: int = 0,
    exhaustions: int = 0,
    fresh: Mapping[str, int] | None = None,
) -> ChinaState:
    """A position at the start of `seat`'s turn.

    Args:
        houses: field name -> owner seat. emissaries: province -> count per seat.
        forts: fields holding a fortification (taken from the supply of the seat whose
            house stands on it, else from no one).
        hands, known, display, discards: cards by colour name.
        deck: cards by colour; by default every card of the variant not placed elsewhere.
        scored: provinces already scored (their points must be given in `points`).
        fresh: after the first exhaustion, the reshuffled deck less the cards laid out
            from it (default: the deck, as if nothing had been drawn from it yet).
    """
    b = game.board
    n = game.players
    s = game.new_initial_state()
    field = {name: f for f, name in enumerate(b.field_names)}
    prov = {name: p for p, name in enumerate(b.province_names)}
    hs = [-1] * len(b.field_names)
    for name, owner in (houses or {}).items():
        hs[field[name]] = owner
    em = [0] * (9 * n)
    for name, per_seat in (emissaries or {}).items():
        for i, k in enumerate(per_seat):
            em[prov[name] * n + i] = k
    hand_rows = [tuple(_counts(h)) for h in (hands or [{}] * n)]
    known_rows = [tuple(_counts(k)) for k in (known or [{}] * n)]
    disp = _counts(display)
    disc = _counts(discards)
    if deck is None:
        total = game.cards.deck_for(n)
        left = [total[c] - disp[c] - disc[c] - sum(h[c] for h in hand_rows) for c in range(5)]
        if min(left) < 0:
            raise ValueError("the position holds more cards of a colour than the deck has")
    else:
        left = _counts(deck)
    supply = []
    fort_fields = sorted(field[f] for f in forts)
    for i in range(n):
        placed_forts = sum(1 for f in fort_fields if hs[f] == i)
        supply.append(
            (
                game.cards.houses - hs.count(i),
                game.cards.emissaries - sum(em[p * n + i] for p in range(9)),
                max(0, (game.cards.fortifications if game.fortifications else 0) - placed_forts),
            )
        )
    fresh_row = _counts(fresh) if fresh is not None else (left if exhaustions == 1 else [0] * 5)
    # Built with `replace`, not loaded: a test position may hold any cards it likes.
    return s.replace(
        houses=tuple(hs),
        forts=tuple(fort_fields),
        emissaries=tuple(em),
        hands=tuple(hand_rows),
        known=tuple(known_rows),
        display=tuple(disp),
        discards=tuple(disc),
        deck=tuple(left),
        supply=tuple(supply),
        points=tuple(points or [0] * n),
        scored=tuple(1 if name in scored else 0 for name in b.province_names),
        seat=seat,
        phase=Phase.TURN,
        dealt=3 * n + 4,
        exhaustions=exhaustions,
        fresh=tuple(fresh_row),
    )


def play(state: ChinaState, *moves: str) -> ChinaState:
    """Apply `moves` (notation, chance outcomes included) one after another, checked."""
    return apply_all(state, *moves)
