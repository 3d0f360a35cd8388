"""What one seat may see of an Emperor of China position.

Public: the whole board, the markers, every yin card, every yang card that was shown
(markers placed, cards spent or lost), the number of cards each player holds. Private:
the kinds of the attack and defence cards a player keeps, and the yang card he drew
until it is settled. The yang deck's order never exists: cards are drawn one by one.
"""

from __future__ import annotations

from tianxia.core.events import seat_name
from tianxia.core.game import JSON
from tianxia.games.emperor import rules
from tianxia.games.emperor.state import (
    ADVANCE,
    ATTACKER,
    COLONISE,
    DEFENDER,
    DIE,
    DRAW_YANG,
    DRAW_YIN,
    END,
    EXPAND,
    GROWTH,
    MOVE,
    REPLY,
    SHIELD,
    START,
    YANG,
    YIN,
    EmperorState,
)


def pending(s: EmperorState) -> str:
    """The decision due now, in words."""
    t = s.t
    ids = t.ids
    p = s.player
    ph = s.phase
    if ph == END:
        return "the game is over"
    if ph == START:
        return f"{seat_name(p)} occupies start province {len(s.chosen) + 1} of {t.start_count}"
    if ph == GROWTH:
        head = s.growth[0]
        if head < 0:
            return f"{seat_name(p)} places {t.c.growth_base} new units in one of his provinces"
        return (
            f"{seat_name(p)} places a unit from the marker in {ids[head]} there or in a neighbour"
        )
    if ph == COLONISE:
        return f"{seat_name(p)} may colonise empty neighbours with 3 units, or be done"
    if ph == MOVE:
        return f"{seat_name(p)} may move units one border into his own provinces, or be done"
    if ph == EXPAND:
        return f"{seat_name(p)} may attack, offer a merger, or be done"
    if ph == REPLY:
        if s.battle is not None:
            return f"{seat_name(p)} answers the defender's merger offer"
        return f"{seat_name(s.decider)} answers {seat_name(p)}'s merger offer"
    if ph in (DEFENDER, ATTACKER, DIE, ADVANCE):
        assert s.battle is not None
        a, b = ids[s.battle[0]], ids[s.battle[1]]
        if ph == DEFENDER:
            return (
                f"{seat_name(s.decider)} defends {b} against {a}: stand, retreat or offer a merger"
            )
        if ph == ATTACKER:
            return f"{seat_name(p)} attacks {b} from {a}: roll or withdraw"
        if ph == DIE:
            return f"the die is rolled for the attack on {b}"
        return f"{seat_name(p)} moves units from {a} into the conquered {b}"
    if ph == YANG:
        return f"{seat_name(p)} assigns his face-down yang card to a province"
    if ph == YIN:
        return f"{seat_name(p)} assigns his face-down yin card to one of his provinces"
    if ph == DRAW_YIN:
        return "the yin card is turned over"
    if ph == DRAW_YANG:
        return f"{seat_name(p)} looks at his yang card"
    if ph == SHIELD:
        kind = t.c.yin_kinds[s.yin_card]
        return f"{seat_name(s.decider)} may play a {kind} defence card for {ids[s.yin_at]}"
    return ph


def observation(s: EmperorState, seat: int | None) -> JSON:
    """The view of `seat` (None: a spectator); keys are listed in docs/rules/emperor.md."""
    t = s.t
    c = t.c
    ids = t.ids
    n = s.game.players
    infl = rules.influence(s)
    scores = rules.seat_scores(s)
    provinces = [
        {
            "id": ids[p],
            "owner": None if s.owner[p] < 0 else s.owner[p],
            "units": s.units[p],
            "markers": dict(zip(c.marker_kinds, s.markers[p])),
            "influence": None if infl[p] < 0 else infl[p],
        }
        for p in range(t.P)
    ]
    players = []
    for x in range(n):
        r = s.senior[x]
        hand = s.hands[x]
        players.append(
            {
                "seat": x,
                "status": rules.status(s, x),
                "senior": r,
                "units": rules.realm_units(s, x) if r == x else 0,
                "supply": rules.supply(s, x) if r == x else 0,
                "provinces": rules.control(s, x) if r == x else 0,
                "yang_cards": sum(hand),
                "shown_cards": {c.yang_kinds[k]: hand[k] for k in t.economy_kinds if hand[k]},
                "score": scores[x],
                "claim": s.claims[x],
            }
        )
    b = s.battle
    obs: JSON = {
        "seat": seat,
        "current_player": s.current_player(),
        "turn": s.turn,
        "turns": c.turns,
        "turn_player": s.player,
        "phase": s.phase,
        "pending": pending(s),
        "provinces": provinces,
        "players": players,
        "scores": scores,
        "my_cards": (
            {c.yang_kinds[k]: v for k, v in enumerate(s.hands[seat]) if v}
            if seat is not None
            else None
        ),
        "yang_drawn": s.fresh >= 0,
        "my_fresh_yang": (
            c.yang_kinds[s.fresh]
            if seat is not None and seat == s.player and s.fresh >= 0
            else None
        ),
        "yang_at": None if s.yang_at < 0 else ids[s.yang_at],
        "yin_at": None if s.yin_at < 0 else ids[s.yin_at],
        "yin_card": None if s.yin_card < 0 else c.yin_kinds[s.yin_card],
        "yang_deck": sum(s.yang_deck),
        "yang_out": {k: v for k, v in zip(c.yang_kinds, s.yang_out) if v},
        "yin_deck": dict(zip(c.yin_kinds, s.yin_deck)),
        "markers_left": {m: rules.markers_left(s, i) for i, m in enumerate(c.marker_kinds)},
        "start_chosen": [ids[p] for p in s.chosen],
        "growth_due": [None if g < 0 else ids[g] for g in s.growth],
        "moved": list(s.moved) if s.moved else None,
        "attacked": [f"{ids[a]}>{ids[z]}" for a, z in s.attacked],
        "conquered": [ids[p] for p in s.conquered],
        "proposed": list(s.proposed),
        "battle": (
            None
            if b is None
            else {
                "from": ids[b[0]],
                "to": ids[b[1]],
                "attacker": s.player,
                "defender": s.owner[b[1]] if s.owner[b[1]] >= 0 else None,
                "merger_offered": bool(b[2]),
            }
        ),
        "merge_pending": None if s.merge is None else {"senior": s.merge[0], "junior": s.merge[1]},
        "log": list(s.log),
        "returns": rules.returns(s) if s.phase == END else None,
    }
    return obs


def deciding(s: EmperorState) -> str:
    """The decision awaited, in a word or two: the phase's name."""
    return str(s.phase.value)


def scores_for(s: EmperorState, seat: int | None) -> list[float | None]:
    """Points come from provinces, influence and markers, all on the open map."""
    return [float(v) for v in rules.seat_scores(s)]
