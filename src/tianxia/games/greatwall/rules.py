"""The rules: legal actions, transitions, chance, the end and the result.

Rule ids (GW-n.m) refer to docs/rules/greatwall.md. Functions here read a
`GreatWallState`; `apply` changes only the draft it builds.
"""

from __future__ import annotations

from collections.abc import Callable

from tianxia.core.actions import Action
from tianxia.core.constants import CHANCE, TERMINAL
from tianxia.core.events import Event, seat_name
from tianxia.games.greatwall.actions import (
    Cover,
    Deal,
    Draw,
    Horseman,
    Lay,
    Pass,
    Play,
    Reveal,
    Take,
)
from tianxia.games.greatwall.data import (
    DRAGON,
    HORSEMAN,
    KINDS,
    NOBLE,
    SECTION_NAMES,
    WARRIOR,
)
from tianxia.games.greatwall.section import Section
from tianxia.games.greatwall.state import GreatWallState, Phase

SETUP, SCORE, ACT, DRAW, OVER = Phase
LOG_LENGTH = 8
# Kinds that an action plays to the end of a section; horsemen are laid free (GW-3.4).
ACTION_KINDS = tuple(k for k in range(len(KINDS)) if k != HORSEMAN)


def _note(s: GreatWallState, template: str, *args: object) -> None:
    """Log ``template.format(*args)``; formatted only when the log is read (`Log`)."""
    s.log = s.log.note(LOG_LENGTH, template, args)


# --- a section's tallies ---------------------------------------------------------------
def section_totals(sec: Section, players: int, values: tuple[int, ...]) -> list[int]:
    """Each seat's points in `sec`: top cards only, the noble and warriors applied, the
    first tile's value taken from the seat whose card it lies on (GW-3, GW-3.6).

    Computed once per section (sections are immutable) and kept in it."""
    cached = sec._totals
    if cached is not None:
        return cached
    t = [0] * players
    tops = [st[-1] for st in sec.stacks]
    if any(c & 7 == NOBLE for c in tops):
        for c in tops:
            t[c >> 3] += 1
    else:
        warriors = [0] * players
        step = values[WARRIOR]
        for c in tops:
            owner, kind = c >> 3, c & 7
            if kind == WARRIOR:
                warriors[owner] += 1
                t[owner] += warriors[owner] * step
            else:
                t[owner] += values[kind]
    placed = sec.placed
    if placed is not None:
        value, pos = placed
        t[sec.stacks[pos][-1] >> 3] -= value
    object.__setattr__(sec, "_totals", t)
    return t


def section_present(sec: Section) -> int:
    """Bit mask of the seats with at least one card in `sec`, covered cards included."""
    mask = sec._present
    if mask < 0:
        mask = 0
        for st in sec.stacks:
            for c in st:
                mask |= 1 << (c >> 3)
        object.__setattr__(sec, "_present", mask)
    return mask


def section_qualifies(sec: Section, seat: int, players: int, values: tuple[int, ...]) -> bool:
    """Whether `seat` wins a tile in `sec` at the start of its turn (GW-4.1, GW-4.4, GW-4.6).

    Every other seat is compared, those without a card here at 0 (ruling R12): with
    three or more players, a lead of 0 or less over the seats present is no lead.
    """
    if not sec.open or not sec.tiles:
        return False
    present = section_present(sec)
    me = 1 << seat
    if not present & me:
        return False
    if not present & ~me:
        return True
    t = section_totals(sec, players, values)
    mine = t[seat]
    return all(mine > t[q] for q in range(players) if q != seat)


# --- the scoring check ---------------------------------------------------------------
def qualifying_mask(s: GreatWallState, seat: int) -> int:
    """Sections where `seat` wins a tile now (GW-4.1, GW-4.4, GW-4.6)."""
    g = s.game
    mask = 0
    for i, sec in enumerate(s.sections):
        if section_qualifies(sec, seat, g.players, g.card_values):
            mask |= 1 << i
    return mask


def scoring_options(s: GreatWallState) -> list[Action]:
    """Take and Lay actions open in the scoring check, in codec order (GW-4.2, GW-4.3)."""
    g = s.game
    takes: list[Action] = []
    lays: list[Action] = []
    seat = s.seat
    for i, sec in enumerate(s.sections):
        if not s.pending >> i & 1:
            continue
        if len(sec.tiles) == 1:
            takes.append(g.take_actions[i])
            continue
        mine = [p for p, st in enumerate(sec.stacks) if st[-1] >> 3 == seat]
        table = g.lay_actions[i]
        for value in sorted(set(sec.tiles)):
            row = table[g.value_index[value]]
            lays.extend(row[p] for p in mine)
    return takes + lays


def begin_turn(s: GreatWallState, seat: int) -> None:
    """Open `seat`'s turn: the sections it leads now are the ones it scores (GW-4.1)."""
    s.seat = seat
    s.done = 0
    s.phase = SCORE
    s.pending = qualifying_mask(s, seat)


def _end_turn(s: GreatWallState) -> None:
    """Pass the turn on; once cards have stopped, skip seats that cannot score, and end
    the game when no seat can (GW-5.2)."""
    n = s.game.players
    nxt = (s.seat + 1) % n
    if not s.stopped and s.trigger >= 0 and nxt == s.trigger:
        s.stopped = True
        _note(s, "no more cards are played; turns are scoring checks only")
    if not s.stopped:
        begin_turn(s, nxt)
        return
    for k in range(n):
        seat = (nxt + k) % n
        mask = qualifying_mask(s, seat)
        if mask:
            s.seat, s.done, s.phase, s.pending = seat, 0, SCORE, mask
            return
    s.phase = OVER
    _note(s, "no scoring check can change anything: the game ends")


def _needs_tiles(sec: Section) -> bool:
    return sec.open and sec.placed is None and len(sec.tiles) < 2


def _refill_index(s: GreatWallState) -> int:
    """The section whose tiles chance reveals next, or -1 (closing empty ones as it goes)."""
    if not any(s.bag):
        sections = list(s.sections)
        for i, sec in enumerate(sections):
            if sec.open and sec.placed is None and not sec.tiles:
                sections[i] = Section(open=False)
                _note(s, "section {} closes: no fame tiles are left", SECTION_NAMES[i])
        s.sections = tuple(sections)
        return -1
    for i, sec in enumerate(s.sections):
        if _needs_tiles(sec):
            return i
    return -1


def _deal_seat(s: GreatWallState) -> int:
    g = s.game
    short = g.set_size - g.hand_size
    for seat, deck in enumerate(s.decks):
        if sum(deck) > short:
            return seat
    return -1


def settle(s: GreatWallState) -> None:
    """Carry out everything that needs no decision, then fix `to_move` (GW-4.5)."""
    while True:
        # Fields read once per pass: on a draft every read is a lookup by name.
        phase = s.phase
        if phase == OVER:
            s.to_move = TERMINAL
            return
        if phase == DRAW:
            s.to_move = CHANCE
            return
        if any(_needs_tiles(sec) for sec in s.sections) and _refill_index(s) >= 0:
            s.to_move = CHANCE
            return
        # (_refill_index may have closed sections: read them again.)
        if phase != SETUP and not any(sec.open for sec in s.sections):
            s.phase = OVER
            _note(s, "the last fame tile is claimed: the game ends")
            continue
        if phase == SETUP:
            if _deal_seat(s) >= 0:
                s.to_move = CHANCE
                return
            begin_turn(s, 0)
            continue
        if phase == SCORE:
            options = scoring_options(s)
            if not options:
                if s.stopped:
                    _end_turn(s)
                    continue
                s.phase = ACT
            elif len(options) == 1:
                _score(s, options[0])
                continue
        s.to_move = s.seat
        return


def _score(s: GreatWallState, a: Action) -> None:
    seat = s.seat
    if isinstance(a, Lay):
        sec = s.sections[a.section]
        tiles = list(sec.tiles)
        tiles.remove(a.value)
        new = Section(sec.stacks, tuple(tiles), (a.value, a.position), True)
        s.sections = _replace(s.sections, a.section, new)
        s.pending &= ~(1 << a.section)
        _note(s, "{}: {}", seat_name(seat), a)
        return
    assert isinstance(a, Take)
    sec = s.sections[a.section]
    won = [list(w) for w in s.won]
    won[seat].append(sec.tiles[0])
    if sec.placed is not None:
        value, pos = sec.placed
        won[sec.stacks[pos][-1] >> 3].append(value)
    s.won = tuple(tuple(w) for w in won)
    gone = [list(g) for g in s.gone]
    for st in sec.stacks:
        for c in st:
            gone[c >> 3][c & 7] += 1
    s.gone = tuple(tuple(g) for g in gone)
    s.sections = _replace(s.sections, a.section, Section())
    s.pending &= ~(1 << a.section)
    _note(s, "{}: {} ({}); the section's cards leave the game", seat_name(seat), a, sec.tiles[0])


def _replace(sections: tuple[Section, ...], i: int, sec: Section) -> tuple[Section, ...]:
    return (*sections[:i], sec, *sections[i + 1 :])


# --- legal actions ---------------------------------------------------------------------
def legal_actions(s: GreatWallState) -> list[Action]:
    if s.phase == SCORE:
        return scoring_options(s)
    return action_options(s)


def action_options(s: GreatWallState) -> list[Action]:
    """Actions 2 and 3 and the free horsemen, in codec order (GW-2.2, GW-3.4, GW-3.5)."""
    g = s.game
    seat = s.seat
    hand = s.hands[seat]
    sections = s.sections
    out: list[Action] = []
    if any(s.decks[seat]):
        out.append(g.draw_action)
    open_sections = [i for i, sec in enumerate(sections) if sec.open]
    play_actions = g.play_actions
    kinds = ACTION_KINDS
    for i in open_sections:
        table = play_actions[i]
        for kind in kinds:
            have = hand[kind]
            if have:
                out.extend(table[kind][1 : have + 1])
    if hand[HORSEMAN]:
        horsemen = g.horseman_actions
        for i in open_sections:
            out.append(horsemen[i])
    if hand[DRAGON]:
        covers = g.cover_actions
        for i in open_sections:
            sec = sections[i]
            blocked = sec.placed[1] if sec.placed is not None else -1
            row = covers[i]
            for p in range(len(sec.stacks)):
                if p != blocked:
                    out.append(row[p])
    return out or [g.pass_action]


# --- transitions -------------------------------------------------------------------------
def apply(state: GreatWallState, a: Action) -> GreatWallState:
    s = state.draft()
    _HANDLERS[type(a)](s, a)
    settle(s)
    # Who moves, kept in the successor: written here, not by the core (docs/engine.md).
    s._player = current_player(s)
    return s.freeze()


def current_player(s: GreatWallState) -> int:
    """The seat deciding now, `CHANCE` or `TERMINAL`: settled into `to_move` (GW-4.5)."""
    return s.to_move


def _on_reveal(s: GreatWallState, a: Action) -> None:
    assert isinstance(a, Reveal)
    _reveal(s, a.value)


def _on_deal(s: GreatWallState, a: Action) -> None:
    assert isinstance(a, Deal)
    _deal(s, a.kind)


def _on_draw(s: GreatWallState, a: Action) -> None:
    s.phase = DRAW
    _note(s, "{}: draw", seat_name(s.seat))


def _on_pass(s: GreatWallState, a: Action) -> None:
    _note(s, "{}: pass", seat_name(s.seat))
    _action_done(s)


def _reveal(s: GreatWallState, value: int) -> None:
    g = s.game
    i = _refill_index(s)
    vi = g.value_index[value]
    sec = s.sections[i]
    tiles = (*sec.tiles, value)
    bag = list(s.bag)
    bag[vi] -= 1
    s.bag = tuple(bag)
    name = SECTION_NAMES[i]
    if g.players == 2 and len(tiles) == 2 and tiles[0] == tiles[1]:
        boxed = list(s.boxed)
        boxed[vi] += 2
        s.boxed = tuple(boxed)
        tiles = ()
        _note(s, "two tiles of {} in {} go back to the box (two players)", value, name)
    elif len(tiles) == 2:
        _note(s, "fame tiles {} and {} are revealed in {}", tiles[0], tiles[1], name)
    s.sections = _replace(s.sections, i, Section(sec.stacks, tiles, None, True))


def _deal(s: GreatWallState, kind: int) -> None:
    seat = s.seat if s.phase == DRAW else _deal_seat(s)
    hands = list(s.hands)
    decks = list(s.decks)
    hand = list(hands[seat])
    deck = list(decks[seat])
    hand[kind] += 1
    deck[kind] -= 1
    hands[seat] = tuple(hand)
    decks[seat] = tuple(deck)
    s.hands = tuple(hands)
    s.decks = tuple(decks)
    if s.phase == DRAW:
        s.phase = ACT
        _action_done(s)


def _action_done(s: GreatWallState) -> None:
    s.done += 1
    if s.done >= 2:
        _end_turn(s)


def _lay_cards(s: GreatWallState, a: Action) -> None:
    seat = s.seat
    if isinstance(a, Play):
        section, kind, count = a.section, a.kind, a.count
    elif isinstance(a, Horseman):
        section, kind, count = a.section, HORSEMAN, 1
    else:
        assert isinstance(a, Cover)
        section, kind, count = a.section, DRAGON, 1
    hands = list(s.hands)
    hand = list(hands[seat])
    hand[kind] -= count
    hands[seat] = tuple(hand)
    s.hands = tuple(hands)
    sec = s.sections[section]
    code = seat * 8 + kind
    if isinstance(a, Cover):
        stacks = list(sec.stacks)
        stacks[a.position] = (*stacks[a.position], code)
        new_stacks = tuple(stacks)
    else:
        new_stacks = sec.stacks + ((code,),) * count
    s.sections = _replace(s.sections, section, Section(new_stacks, sec.tiles, sec.placed, True))
    _note(s, "{}: {}", seat_name(seat), a)
    if s.trigger < 0 and not any(hand) and not any(s.decks[seat]):
        s.trigger = seat
        _note(s, "{} has played all cards: every other player has one more turn", seat_name(seat))
    if not isinstance(a, Horseman):
        _action_done(s)


# --- chance ----------------------------------------------------------------------------------
def chance_outcomes(s: GreatWallState) -> list[tuple[Action, float]]:
    g = s.game
    phase = s.phase
    bag = s.bag
    if phase != DRAW and any(_needs_tiles(sec) for sec in s.sections) and any(bag):
        total = sum(bag)
        reveals = g.reveal_actions
        return [(reveals[vi], c / total) for vi, c in enumerate(bag) if c]
    seat = s.seat if phase == DRAW else _deal_seat(s)
    deck = s.decks[seat]
    total = sum(deck)
    deals = g.deal_actions
    return [(deals[k], c / total) for k, c in enumerate(deck) if c]


def scores(s: GreatWallState) -> list[float]:
    """Fame won so far (GW-5.4)."""
    return [float(sum(w)) for w in s.won]


# --- the end -------------------------------------------------------------------------------------
def ranking_key(s: GreatWallState, seat: int) -> tuple[int, int]:
    """Total fame value, then number of tiles (GW-5.4)."""
    return (sum(s.won[seat]), len(s.won[seat]))


def returns(s: GreatWallState) -> list[float]:
    """Winners share: each of k winners gets (n-k)/(k(n-1)), each loser -1/(n-1) (GW-5.4)."""
    n = s.game.players
    if s.phase != OVER:
        return [0.0] * n
    keys = [ranking_key(s, p) for p in range(n)]
    best = max(keys)
    k = keys.count(best)
    if k == n:
        return [0.0] * n
    win = (n - k) / (k * (n - 1))
    return [win if key == best else -1.0 / (n - 1) for key in keys]


# --- explanations ------------------------------------------------------------------------------
def why_illegal(s: GreatWallState, a: Action) -> tuple[str, str]:
    g = s.game
    who = seat_name(s.seat)
    if isinstance(a, Reveal):
        return ("GW-1.3", "fame tiles are revealed by chance from the bag, not by a player")
    if isinstance(a, Deal):
        return ("GW-1.4", "the card drawn is decided by chance, not chosen by a player")
    section = getattr(a, "section", None)
    if section is not None and section >= len(s.sections):
        return (
            "GW-1.1",
            f"with {g.players} players there are only {len(s.sections)} sections "
            f"(A-{SECTION_NAMES[len(s.sections) - 1]})",
        )
    if section is not None and not s.sections[section].open:
        return ("GW-4.3", f"section {SECTION_NAMES[section]} has closed: its fame tiles ran out")
    if s.phase == SCORE:
        if isinstance(a, Lay | Take):
            return _why_not_score(s, a)
        if s.stopped:
            return ("GW-5.2", "cards are no longer played; this turn is a scoring check only")
        todo = ", ".join(SECTION_NAMES[i] for i in range(len(s.sections)) if s.pending >> i & 1)
        return (
            "GW-2.1",
            f"the scoring check comes first: {who} must first claim a tile in {todo}",
        )
    # the action phase
    hand = s.hands[s.seat]
    if isinstance(a, Lay | Take):
        return (
            "GW-4.1",
            "fame tiles are claimed only in the scoring check at the start of a turn",
        )
    if isinstance(a, Draw):
        return ("GW-2.3", f"{who}'s own deck is empty, so there is nothing to draw")
    if isinstance(a, Pass):
        return ("GW-2.4", f"{who} can still play or draw a card, so may not pass")
    if isinstance(a, Play):
        if a.kind == HORSEMAN:
            return ("GW-3.4", "a horseman costs no action: lay it with 'horseman <section>'")
        if hand[a.kind] < a.count:
            if hand[a.kind] == 1:
                return ("GW-2.2", f"{who} holds 1 {KINDS[a.kind]} card, not {a.count}")
            return (
                "GW-2.2",
                f"{who} holds {hand[a.kind]} {KINDS[a.kind]} cards, not {a.count}",
            )
    if isinstance(a, Horseman) and not hand[HORSEMAN]:
        return ("GW-3.4", f"{who} holds no horseman")
    if isinstance(a, Cover):
        sec = s.sections[a.section]
        name = f"{SECTION_NAMES[a.section]}{a.position + 1}"
        if not hand[DRAGON]:
            return ("GW-3.5", f"{who} holds no dragon")
        if a.position >= len(sec.stacks) == 1:
            return (
                "GW-3.5",
                f"there is no card {name}: section {SECTION_NAMES[a.section]} has 1 card place",
            )
        if a.position >= len(sec.stacks):
            return (
                "GW-3.5",
                f"there is no card {name}: section {SECTION_NAMES[a.section]} "
                f"has {len(sec.stacks)} card places",
            )
        if sec.placed is not None and sec.placed[1] == a.position:
            return ("GW-3.5", f"a dragon may not cover card {name}: a fame tile lies on it")
    return ("GW-2.2", f"{a} is not open to {who} now")


def _why_not_score(s: GreatWallState, a: Lay | Take) -> tuple[str, str]:
    g = s.game
    sec = s.sections[a.section]
    name = SECTION_NAMES[a.section]
    who = seat_name(s.seat)
    if not s.pending >> a.section & 1:
        if section_qualifies(sec, s.seat, g.players, g.card_values):
            return ("GW-4.5", f"{who} has already scored section {name} this turn")
        if not section_present(sec) >> s.seat & 1:
            return ("GW-4.6", f"{who} has no card in section {name}, so cannot win its tile")
        t = section_totals(sec, g.players, g.card_values)
        best = max(v for q, v in enumerate(t) if q != s.seat)
        others = [q for q in range(g.players) if q != s.seat]
        present = section_present(sec)
        absent = [q for q in others if not present >> q & 1]
        note = ""
        if absent and all(t[q] < best for q in others if present >> q & 1):
            # The total to beat is a seat that built nothing here: say so (R12).
            names = " and ".join(seat_name(q) for q in absent)
            verb = "counts" if len(absent) == 1 else "count"
            note = f" ({names}, without a card there, {verb} 0)"
        return (
            "GW-4.1",
            f"{who} does not lead in section {name}: {t[s.seat]} against {best}{note}",
        )
    if isinstance(a, Take):
        return (
            "GW-4.2",
            f"two tiles lie face up in {name}: {who} chooses one and lays it on a card",
        )
    if len(sec.tiles) < 2:
        return ("GW-4.3", f"one tile is left in {name}: {who} takes it with 'take {name}'")
    if a.value not in sec.tiles:
        shown = " and ".join(map(str, sec.tiles))
        return ("GW-4.2", f"the face-up tiles in {name} are {shown}, not {a.value}")
    if a.position >= len(sec.stacks) == 1:
        return ("GW-4.2", f"section {name} has only 1 card place")
    if a.position >= len(sec.stacks):
        return ("GW-4.2", f"section {name} has only {len(sec.stacks)} card places")
    return (
        "GW-4.2",
        f"card {name}{a.position + 1} is not an uncovered card of {who}: "
        "the tile goes on one of the player's own cards",
    )


def describe(s: GreatWallState, a: Action) -> str:
    who = seat_name(s.seat)
    if isinstance(a, Reveal):
        return f"a fame tile of value {a.value} is revealed"
    if isinstance(a, Deal):
        return f"the card drawn is a {KINDS[a.kind]}"
    name = SECTION_NAMES[getattr(a, "section", 0)]
    if isinstance(a, Lay):
        return (
            f"{who} lays the fame tile {a.value} on card {name}{a.position + 1}; "
            f"{who}'s total in {name} drops by {a.value}"
        )
    if isinstance(a, Take):
        return f"{who} takes the last fame tile of {name}; the section is settled and cleared"
    if isinstance(a, Draw):
        return f"{who} draws one card from the own deck as an action"
    if isinstance(a, Pass):
        return f"{who} can neither play nor draw and gives up this action"
    if isinstance(a, Horseman):
        return f"{who} lays a horseman (2) at the end of {name} without spending an action"
    if isinstance(a, Cover):
        return f"{who} lays the dragon on card {name}{a.position + 1}, which stops counting"
    assert isinstance(a, Play)
    what = f"{a.count} {KINDS[a.kind]} cards" if a.count > 1 else f"a {KINDS[a.kind]}"
    extra = ""
    if a.kind == NOBLE:
        extra = "; every card there now counts 1"
    elif a.kind == WARRIOR:
        extra = "; each warrior counts one more than the one before"
    return f"{who} plays {what} to the right end of {name} as an action{extra}"


# --- events: what each action tells each seat ---------------------------------------------
def event(s: GreatWallState, a: Action, after: GreatWallState) -> Event:
    """Draws and deals go into one hand: only its owner reads the card (GW-1.4, GW-2.3).
    Everything else is laid face up on the table."""
    if isinstance(a, Deal):
        seat = s.seat if s.phase == DRAW else _deal_seat(s)
        who = seat_name(seat)
        return Event.private(f"{who} draws a {KINDS[a.kind]}", {seat}, f"{who} draws a card")
    if isinstance(a, Reveal):
        return Event.public(f"a fame tile of value {a.value} is revealed", reveals=True)
    who = seat_name(s.seat)
    if isinstance(a, Draw):
        return Event.public(f"{who} draws a card from the own deck")
    if isinstance(a, Pass):
        return Event.public(f"{who} passes")
    return Event.public(f"{who}: {a}")


_HANDLERS: dict[type[Action], Callable[[GreatWallState, Action], None]] = {
    Reveal: _on_reveal,
    Deal: _on_deal,
    Lay: _score,
    Take: _score,
    Draw: _on_draw,
    Pass: _on_pass,
    Play: _lay_cards,
    Horseman: _lay_cards,
    Cover: _lay_cards,
}
