"""Legal actions, their effects, chance, cities, bazaars and the end (docs/rules/silkroad.md).

`apply` changes a draft of the state, never the state.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, Final

from tianxia.core.actions import Action
from tianxia.core.constants import CHANCE, TERMINAL
from tianxia.core.events import Event, seat_name
from tianxia.games.silkroad import state
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
from tianxia.games.silkroad.data import (
    MAX_BACK,
    MAX_FORWARD,
    PART_KINDS,
    Alternative,
    Part,
    numeral_index,
)
from tianxia.games.silkroad.state import CHANCE_PHASES, PHASES, SilkroadState

if TYPE_CHECKING:
    from tianxia.games.silkroad.game import SilkroadGame

# Final: the compiled build keeps these in C variables instead of looking each up by name.
DEAL: Final = state.DEAL
PLACE: Final = state.PLACE
TURN: Final = state.TURN
CARRY: Final = state.CARRY
PICK: Final = state.PICK
DRAW: Final = state.DRAW
MILES: Final = state.MILES
END: Final = state.END
HAND: Final = 3
DISPLAY: Final = 3
MAX_RESHUFFLES: Final = 4
LOG_LENGTH: Final = 8
__all__ = ["CHANCE_PHASES", "PHASES", "numeral_index"]


def note(w: SilkroadState, template: str, *args: object) -> None:
    """Log ``template.format(*args)``; formatted only when the log is read (`Log`)."""
    w.log = w.log.note(LOG_LENGTH, template, args)


def note_text(w: SilkroadState, text: str) -> None:
    """Log a sentence already written (the rare ones whose making takes a loop)."""
    w.log = w.log.add(LOG_LENGTH, text)


# How a simple card (one alternative, always moving someone) is carried out: one value.
ONLY_WAY: Final = Carry(1, ())

# Seat names as `seat_name` gives them, looked up rather than built on every step.
SEAT_NAMES: Final = tuple(seat_name(i) for i in range(16))


# A row with one entry changed: by concatenation when it is short (cheaper compiled than
# splicing with `*`), through one list copy when it is longer than LONG_ROW (five
# merchants or seats and more, the card counts): a copy beats four slices there.
LONG_ROW: Final = 4


def _set(row: tuple[int, ...], i: int, value: int) -> tuple[int, ...]:
    if len(row) > LONG_ROW:
        new = list(row)
        new[i] = value
        return tuple(new)
    return row[:i] + (value,) + row[i + 1 :]  # noqa: RUF005 (see above)


def _add(row: tuple[int, ...], i: int, delta: int) -> tuple[int, ...]:
    if len(row) > LONG_ROW:
        new = list(row)
        new[i] += delta
        return tuple(new)
    return row[:i] + (row[i] + delta,) + row[i + 1 :]  # noqa: RUF005 (as _set)


def _put(
    rows: tuple[tuple[int, ...], ...], i: int, row: tuple[int, ...]
) -> tuple[tuple[int, ...], ...]:
    if len(rows) > LONG_ROW:
        new = list(rows)
        new[i] = row
        return tuple(new)
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


# --- the tables the compiled rules read ------------------------------------------

# Part kinds as codes (their place in `PART_KINDS`), compared as machine integers.
MOVE: Final = PART_KINDS.index("move")
FOREMOST: Final = PART_KINDS.index("foremost")
LAST: Final = PART_KINDS.index("last")
TO_NEXT: Final = PART_KINDS.index("to_next")
TO_LAST: Final = PART_KINDS.index("to_last")
FOREIGN: Final = PART_KINDS.index("foreign")

# What `carry_problem` answers, as codes: "" (allowed), "when", "back", "dead".
FINE: Final = 0
WHEN: Final = 1
BACK: Final = 2
DEAD: Final = 3
PROBLEMS: Final = ("", "when", "back", "dead")


class Plan:
    """One alternative of a card as the compiled rules read it: part kinds as codes."""

    def __init__(self, alt: Alternative) -> None:
        self.numeral: int = alt.numeral
        self.last_only: bool = alt.when == "last"
        self.silver: int = alt.silver
        self.kinds: tuple[int, ...] = tuple(PART_KINDS.index(p.kind) for p in alt.parts)
        self.steps: tuple[int, ...] = tuple(p.steps for p in alt.parts)
        # Only a part going back to the last merchant's field can move someone more than
        # 10 back (printed steps never do, SR-5.1). Every part before the first that
        # moves someone left the position as it was, so each is looked at on the
        # position as it is (`problem`); once one has moved someone, the alternative is
        # allowed unless a later part goes back to the last merchant (`back_after`),
        # which only carrying the parts out on a copy can tell.
        self.printed_within_reach: bool = all(s >= -MAX_BACK for s in self.steps)
        self.back_after: tuple[bool, ...] = tuple(
            TO_LAST in self.kinds[i + 1 :] for i in range(len(self.kinds))
        )


class Tables:
    """What the rules read on every step, built once per game (`SilkroadGame.tables`).

    Compiled, its fields are read as C struct members; the game's and the data's
    attributes each cost a dictionary lookup, and the data's part kinds string compares.
    """

    def __init__(self, g: SilkroadGame) -> None:
        d = g.data
        self.players: int = g.players
        self.merchants: int = g.merchants
        self.floor: int = g.floor
        self.length: int = g.length
        self.owner: tuple[int, ...] = g.owner
        self.merchants_of: tuple[tuple[int, ...], ...] = g.merchants_of
        self.plans: tuple[tuple[Plan, ...], ...] = tuple(
            tuple(Plan(a) for a in c.alts) for c in d.cards
        )
        # Cards whose alternative I moves the merchant forward always move someone.
        self.sure: tuple[bool, ...] = tuple(
            any(
                a.numeral == 1
                and a.when == "always"
                and a.parts[0].kind == "move"
                and a.parts[0].steps > 0
                for a in c.alts
            )
            for c in d.cards
        )
        # A sure card with a single alternative leaves nothing to choose when carried out.
        self.simple: tuple[bool, ...] = tuple(
            sure and len(c.alts) == 1 for sure, c in zip(self.sure, d.cards)
        )
        self.city_fields: tuple[int, ...] = tuple(c.field for c in d.cities)
        self.bazaar_rows: int = len(d.bazaar)
        # Shared action values, so the hot paths build no new ones.
        kinds = range(len(d.cards))
        ms = range(self.merchants)
        self.draws: tuple[Draw, ...] = tuple(Draw(k) for k in kinds)
        self.draw_bazaar: Draw = Draw(-1)
        self.plays: tuple[tuple[Play, ...], ...] = tuple(
            tuple(Play(k, m) for m in ms) for k in kinds
        )
        self.gives: tuple[tuple[Give, ...], ...] = tuple(
            tuple(Give(k, m) for m in ms) for k in kinds
        )
        # chances[k][n][total] is the chance outcome (draws[k], n / total): `n` copies of
        # kind `k` among `total` cards; made once here rather than on every draw. Typed
        # `Any`: the compiled build would unbox a `tuple[Action, float]` and box it anew.
        most = d.deck_size + d.bazaar_cards
        self.chances: tuple[tuple[tuple[tuple[Any, ...], ...], ...], ...] = tuple(
            _shares(draw, copies, most)
            for draw, copies in zip(self.draws, (c.copies for c in d.cards))
        )
        self.bazaar_chances: tuple[tuple[tuple[Any, ...], ...], ...] = _shares(
            self.draw_bazaar, d.bazaar_cards, most
        )
        self.picks: tuple[Pick, ...] = tuple(Pick(m) for m in ms)
        self.lays: tuple[Lay, ...] = tuple(Lay(k) for k in kinds)
        self.drops: tuple[Drop, ...] = tuple(Drop(k) for k in kinds)
        self.call_bazaar: CallBazaar = CallBazaar()
        self.wait: Wait = Wait()
        # miles[m][d + MAX_FORWARD] is Miles(m, d).
        self.miles: tuple[tuple[Miles, ...], ...] = tuple(
            tuple(Miles(m, d) for d in range(-MAX_FORWARD, MAX_FORWARD + 1)) for m in ms
        )
        self.carry_alone: Carry = ONLY_WAY
        self.carry_pair: tuple[Carry, ...] = tuple(Carry(2, (c,)) for c in ms)
        # carry_three[a][b] is Carry(3, (a, b)) for a < b.
        self.carry_three: tuple[tuple[Carry, ...], ...] = tuple(
            tuple(Carry(3, (a, b)) if a < b else ONLY_WAY for b in ms) for a in ms
        )

    def plan(self, card: int, numeral: int) -> Plan:
        for p in self.plans[card]:
            if p.numeral == numeral:
                return p
        raise ValueError(f"no alternative {numeral}")


def _shares(draw: Draw, copies: int, most: int) -> tuple[tuple[tuple[Any, ...], ...], ...]:
    """(draw, n / total) for n up to `copies` and total up to `most` (0 where total is 0)."""
    return tuple(
        tuple((draw, n / total if total else 0.0) for total in range(most + 1))
        for n in range(copies + 1)
    )


def _dest(t: Tables, at: int, steps: int) -> int:
    """`destination`, from the tables."""
    if steps > MAX_FORWARD:
        steps = MAX_FORWARD
    d = at + steps
    if d > t.length:
        d = t.length
    if d < t.floor:
        d = t.floor
    return d


def hindmost(pos: tuple[int, ...]) -> int:
    """``min(pos)`` as a loop the compiled build runs on machine integers."""
    low = pos[0]
    for p in pos:
        if p < low:
            low = p
    return low


def _to_next(pos: tuple[int, ...], at: int) -> int:
    """The fields to the nearest merchant ahead of `at` (0 if none is ahead)."""
    best = -1
    for p in pos:
        if p > at and (best < 0 or p - at < best):
            best = p - at
    return best if best > 0 else 0


def _part_moves(
    t: Tables, pos: tuple[int, ...], kind: int, steps: int, subject: int, c1: int, c2: int
) -> bool:
    """Whether one part moves anyone, carried out on `pos` for the group `subject`,
    `c1`, `c2` (-1: no such companion); what `carry_problem` finds for that part."""
    if kind == MOVE:
        at = pos[subject]
        if _dest(t, at, steps) != at:
            return True
        if c1 >= 0:
            at = pos[c1]
            if _dest(t, at, steps) != at:
                return True
        if c2 >= 0:
            at = pos[c2]
            if _dest(t, at, steps) != at:
                return True
        return False
    if kind == FOREMOST:
        at = foremost(pos)
        return _dest(t, at, steps) != at
    if kind == LAST:
        at = hindmost(pos)
        return _dest(t, at, steps) != at
    if kind == FOREIGN:
        # The merchants meant are those the part would move: any one will do.
        owner = t.owner
        own = owner[subject]
        for m in range(len(pos)):
            if owner[m] != own:
                at = pos[m]
                if _dest(t, at, steps) != at:
                    return True
        return False
    at = pos[subject]
    if kind == TO_NEXT:
        return _dest(t, at, _to_next(pos, at)) != at
    if kind == TO_LAST:
        return _dest(t, at, hindmost(pos) - at) != at
    return _dest(t, at, steps) != at


def problem(t: Tables, pos: tuple[int, ...], plan: Plan, subject: int, c1: int, c2: int) -> int:
    """`carry_problem` as a code (`FINE`, `WHEN`, `BACK`, `DEAD`), for the group
    `subject`, `c1`, `c2` (-1: no such companion)."""
    if plan.last_only and pos[subject] != hindmost(pos):
        return WHEN
    if not plan.printed_within_reach:
        return _simulated_problem(t, pos, plan, subject, c1, c2)
    kinds = plan.kinds
    steps = plan.steps
    for i in range(len(kinds)):
        kind = kinds[i]
        if kind == TO_LAST:
            at = pos[subject]
            st = hindmost(pos) - at
            if st < -MAX_BACK:
                return BACK
            moves = _dest(t, at, st) != at
        else:
            moves = _part_moves(t, pos, kind, steps[i], subject, c1, c2)
        if moves:
            if plan.back_after[i]:
                return _simulated_problem(t, pos, plan, subject, c1, c2)
            return FINE
    return DEAD


def _simulated_problem(
    t: Tables, pos: tuple[int, ...], plan: Plan, subject: int, c1: int, c2: int
) -> int:
    """`problem` part by part on a copy of the position (`carry_problem`'s way)."""
    p = list(pos)
    group = [subject]
    if c1 >= 0:
        group.append(c1)
    if c2 >= 0:
        group.append(c2)
    moved = False
    kinds = plan.kinds
    owner = t.owner
    for i in range(len(kinds)):
        kind = kinds[i]
        printed = plan.steps[i]
        if kind == MOVE:
            members = group
        elif kind in (FOREMOST, LAST, FOREIGN):
            if kind == FOREMOST:
                top = max(p)
                cands = [m for m in range(len(p)) if p[m] == top]
            elif kind == LAST:
                low = min(p)
                cands = [m for m in range(len(p)) if p[m] == low]
            else:
                own = owner[subject]
                cands = [
                    m for m in range(len(p)) if owner[m] != own and _dest(t, p[m], printed) != p[m]
                ]
            if not cands:
                continue
            members = cands[:1]
        else:
            members = [subject]
        new: list[tuple[int, int]] = []
        for m in members:
            if kind == TO_NEXT:
                st = _to_next(tuple(p), p[m])
            elif kind == TO_LAST:
                st = min(p) - p[m]
            else:
                st = printed
            if st < -MAX_BACK:
                return BACK
            d = _dest(t, p[m], st)
            moved = moved or d != p[m]
            new.append((m, d))
        for m, d in new:
            p[m] = d
    return FINE if moved else DEAD


def _ways(t: Tables, pos: tuple[int, ...], card: int, subject: int, first: bool) -> list[Carry]:
    """The allowed ways to carry out `card` for `subject`, in `carries`'s order; with
    `first`, only the first found (enough to know whether there is one)."""
    out: list[Carry] = []
    at = pos[subject]
    merchants = len(pos)
    for plan in t.plans[card]:
        n = plan.numeral
        if n == 1:
            if problem(t, pos, plan, subject, -1, -1) == FINE:
                out.append(t.carry_alone)
                if first:
                    return out
        elif n == 2:
            # SR-5.4: a group of two stands on one field or on two neighbouring ones.
            for c in range(merchants):
                if (
                    c != subject
                    and -1 <= pos[c] - at <= 1
                    and problem(t, pos, plan, subject, c, -1) == FINE
                ):
                    out.append(t.carry_pair[c])
                    if first:
                        return out
        elif n == 3:
            for a in range(merchants):
                if a == subject:
                    continue
                pa = pos[a]
                for b in range(a + 1, merchants):
                    if b == subject or not _together(at, pa, pos[b]):
                        continue
                    if problem(t, pos, plan, subject, a, b) == FINE:
                        out.append(t.carry_three[a][b])
                        if first:
                            return out
        else:
            raise ValueError(f"no group of {n} merchants (SR-5.4)")
    return out


def _together(x: int, y: int, z: int) -> bool:
    """SR-5.4: three merchants on fields with no gap between them."""
    # Plain comparisons: the compiled build runs min() and max() of three on boxed ints.
    lo = x
    hi = x
    if y < lo:
        lo = y
    if y > hi:
        hi = y
    if z < lo:
        lo = z
    if z > hi:
        hi = z
    gaps = hi - lo
    if gaps == 0:
        return True
    if gaps == 1:
        return True
    # Two gaps need a merchant on the middle field.
    return gaps == 2 and lo + 1 in (x, y, z)


def carries(t: Tables, pos: tuple[int, ...], card: int, subject: int) -> list[Carry]:
    """Every allowed way to carry out `card` for `subject` (alternative and group): the
    alternatives in order, the groups in `groups`'s order."""
    return _ways(t, pos, card, subject, False)


def has_effect(t: Tables, pos: tuple[int, ...], card: int, subject: int) -> bool:
    """Whether `card` can be carried out for `subject` at all (SR-5.2)."""
    if t.sure[card]:
        return True
    plans = t.plans[card]
    if len(plans) == 1:
        plan = plans[0]
        if plan.numeral == 1:
            # Most cards: one alternative, for the merchant alone.
            return problem(t, pos, plan, subject, -1, -1) == FINE
    return bool(_ways(t, pos, card, subject, True))


# --- who may do what -----------------------------------------------------------


def tables(s: SilkroadState) -> Tables:
    t: Tables = s.game.tables
    return t


def turn_seat(g: SilkroadGame, turn: int) -> int:
    return turn % g.players


def targets(g: SilkroadGame, rose: Sequence[int], seat: int) -> list[int]:
    """Merchants a card lying before `seat` may be passed to (SR-4.1, SR-4.6)."""
    marked = sorted(c for c in rose if g.owner[c] != seat)
    if marked:
        return marked
    return [m for m in range(g.merchants) if g.owner[m] != seat]


def _targets(t: Tables, rose: tuple[int, ...], seat: int) -> list[int]:
    """`targets`, from the tables."""
    owner = t.owner
    marked = [c for c in rose if owner[c] != seat]
    if marked:
        for i in range(1, len(marked)):
            if marked[i] < marked[i - 1]:
                marked.sort()
                break
        return marked
    return [m for m in range(t.merchants) if owner[m] != seat]


def bazaar_left(g: SilkroadGame, s: SilkroadState, seat: int) -> bool:
    """SR-6.1, SR-6.5, SR-8.3: a bazaar card left, the track not run out, not twice in a row."""
    return _bazaar_left(g.tables, s, seat)


def _bazaar_left(t: Tables, s: SilkroadState, seat: int) -> bool:
    if s.bazaar_cards[seat] <= 0:
        return False
    marker = s.marker
    if not 1 <= marker <= t.bazaar_rows:
        return False
    last = s.last_call[seat]
    return last == 0 or marker > last


def bazaar_allowed(g: SilkroadGame, s: SilkroadState, seat: int) -> bool:
    """SR-6.1: a bazaar left to call (`bazaar_left`), from the second round on."""
    return s.turn >= g.players and bazaar_left(g, s, seat)


def kinds_of(row: tuple[int, ...]) -> tuple[int, ...]:
    """``tuple(sorted(set(row)))``: `row` itself when it is strictly increasing, as a
    hand or a display (kept sorted) mostly is."""
    for i in range(1, len(row)):
        if row[i] <= row[i - 1]:
            return tuple(sorted(set(row)))
    return row


def turn_actions(t: Tables, s: SilkroadState) -> list[Action]:
    turn = s.turn
    seat = turn % t.players
    hand = s.hands[seat]
    shown = s.displays[seat]
    pos = s.pos
    sure = t.sure
    out: list[Action] = []
    room = len(shown) < DISPLAY
    if room:
        own = t.merchants_of[seat]
        for k in kinds_of(hand):
            row = t.plays[k]
            for m in own:
                if sure[k] or has_effect(t, pos, k, m):
                    out.append(row[m])
    if shown:
        tg = _targets(t, s.rose, seat)
        for k in kinds_of(shown):
            give_row = t.gives[k]
            for m in tg:
                if sure[k] or has_effect(t, pos, k, m):
                    out.append(give_row[m])
    if not out:
        if room:
            lays = t.lays
            for k in kinds_of(hand):
                out.append(lays[k])
        drops = t.drops
        for k in kinds_of(shown):
            out.append(drops[k])
    if turn >= t.players and _bazaar_left(t, s, seat):
        out.append(t.call_bazaar)
    if not out:
        out.append(t.wait)
    return out


def legal_actions(s: SilkroadState) -> list[Action]:
    ph = s.phase
    if ph == TURN:
        return turn_actions(tables(s), s)
    if ph == CARRY:
        return list(carries(tables(s), s.pos, s.card, s.subject))
    if ph == PICK:
        t = tables(s)
        plan = t.plan(s.card, s.numeral)
        part = s.part
        picks = t.picks
        return [
            picks[m] for m in _candidates(t, s.pos, plan.kinds[part], plan.steps[part], s.subject)
        ]
    if ph == MILES:
        t = tables(s)
        rem = s.remaining
        seat = s.turn % t.players
        rng = range(rem, 0) if rem < 0 else range(1, rem + 1)
        if -MAX_FORWARD <= rem <= MAX_FORWARD:
            return [t.miles[m][d + MAX_FORWARD] for m in t.merchants_of[seat] for d in rng]
        return [Miles(m, d) for m in t.merchants_of[seat] for d in rng]
    if ph == PLACE:
        return [Start(i) for i in range(len(s.game.data.start_fields))]
    return []


def _candidates(t: Tables, pos: tuple[int, ...], kind: int, steps: int, subject: int) -> list[int]:
    """`part_candidates`, from the tables."""
    if kind == FOREMOST:
        top = foremost(pos)
        return [m for m in range(len(pos)) if pos[m] == top]
    if kind == LAST:
        low = hindmost(pos)
        return [m for m in range(len(pos)) if pos[m] == low]
    if kind == FOREIGN:
        owner = t.owner
        own = owner[subject]
        return [m for m in range(len(pos)) if owner[m] != own and _dest(t, pos[m], steps) != pos[m]]
    return [subject]


def chance_outcomes(s: SilkroadState) -> list[tuple[Action, float]]:
    t = tables(s)
    deck = s.deck
    bazaars = s.deck_bazaars if s.phase == DRAW else 0
    total = bazaars
    for n in deck:
        total += n
    out: list[Any] = []
    if bazaars:
        out.append(_chance(t.bazaar_chances, t.draw_bazaar, bazaars, total))
    chances = t.chances
    draws = t.draws
    for k in range(len(deck)):
        n = deck[k]
        if n:
            out.append(_chance(chances[k], draws[k], n, total))
    return out


def _chance(shares: tuple[tuple[tuple[Any, ...], ...], ...], draw: Draw, n: int, total: int) -> Any:
    """(draw, n / total), from the table when it has it."""
    if n < len(shares):
        row = shares[n]
        if total < len(row):
            return row[total]
    return (draw, n / total)


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
    if w.phase != END:
        _check_cities(w, tables(w), w.pos)


def _check_cities(w: SilkroadState, t: Tables, pos: tuple[int, ...]) -> bool:
    """`check_cities` with the draft's positions `pos` (the journey not ended); whether
    the journey ends now."""
    while True:
        top = foremost(pos)
        if top >= t.length:
            finish(w, venice=True)
            return True
        milestone = w.milestone
        if milestone >= len(t.city_fields) - 1:
            return False
        field = t.city_fields[milestone]
        # No company's last merchant is past the foremost one: most steps end here.
        if top < field:
            return False
        # SR-7: a city is scored once some company has every merchant on or past it.
        if not _company_past(pos, t.merchants_of, field):
            return False
        worst = [min(pos[m] for m in t.merchants_of[seat]) for seat in range(t.players)]
        g = w.game
        city = g.data.cities[milestone]
        pays = [city.pay(p) for p in worst]
        for seat, v in enumerate(pays):
            gain(w, seat, v)
        note_text(
            w, f"{city.name} pays " + ", ".join(f"{g.seat_name(i)} {v}" for i, v in enumerate(pays))
        )
        w.milestone = milestone + 1


def _company_past(
    pos: tuple[int, ...], merchants_of: tuple[tuple[int, ...], ...], field: int
) -> bool:
    """Whether some company's last merchant stands on `field` or past it."""
    for own in merchants_of:
        for m in own:
            if pos[m] < field:
                break
        else:
            return True
    return False


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
    _end_turn(w, tables(w))


def _end_turn(w: SilkroadState, t: Tables) -> None:
    w.turn += 1
    w.phase = TURN
    w.card = w.subject = w.numeral = w.part = w.remaining = -1
    w.mode = ""
    w.group = ()
    hands = w.hands
    displays = w.displays
    for i in range(t.players):
        if hands[i] or displays[i] or _bazaar_left(t, w, i):
            return
    finish(w, venice=False)


def refill(w: SilkroadState) -> None:
    """SR-3.3, SR-3.4: draw up to three hand cards (a chance node), or end the turn."""
    t = tables(w)
    seat = w.turn % t.players
    _refill(w, t, len(w.hands[seat]))


def _refill(w: SilkroadState, t: Tables, held: int) -> None:
    """`refill`, the player whose turn it is holding `held` cards."""
    if held >= HAND:
        _end_turn(w, t)
        return
    if w.deck_bazaars == 0 and not any_left(w.deck):
        if w.reshuffles < MAX_RESHUFFLES and any_left(w.discard):
            w.deck, w.discard = w.discard, (0,) * len(w.discard)
            w.reshuffles += 1
            note_text(w, "the discard pile is shuffled into a new draw pile")
        else:
            _end_turn(w, t)
            return
    w.phase = DRAW


def any_left(counts: tuple[int, ...]) -> bool:
    """Whether any count is above 0 (counts are never negative)."""
    return any(n for n in counts)


def resolve(w: SilkroadState) -> None:
    """Carry out the pending card's parts in order, stopping where someone must pick."""
    t = tables(w)
    card = w.card
    _resolve(w, t, card, t.plan(card, w.numeral), w.subject, w.group, w.part, w.mode, WRITTEN)


# Which of the pending card's fields a draft does not hold yet when it is carried out:
# none; its alternative and group; also the card, its carrier and its mode. They are
# written where the card stops short of ending the turn, which would clear them all.
WRITTEN: Final = 0
CHOICE_UNWRITTEN: Final = 1
CARD_UNWRITTEN: Final = 2


def _write_pending(
    w: SilkroadState,
    card: int,
    plan: Plan,
    subject: int,
    group: tuple[int, ...],
    part: int,
    mode: str,
    unwritten: int,
) -> None:
    if unwritten >= CARD_UNWRITTEN:
        w.card = card
        w.subject = subject
        w.mode = mode
    if unwritten >= CHOICE_UNWRITTEN:
        w.numeral = plan.numeral
        w.group = group
    w.part = part


def _resolve(
    w: SilkroadState,
    t: Tables,
    card: int,
    plan: Plan,
    subject: int,
    group: tuple[int, ...],
    part: int,
    mode: str,
    unwritten: int,
) -> None:
    """`resolve` from part `part` on, the draft's pending card being `card` played as
    `mode` and carried out with `plan` by `subject` and `group` (the journey not ended;
    `unwritten` says which of these the draft does not hold yet). Every way out writes
    the phase."""
    kinds = plan.kinds
    steps = plan.steps
    pos = w.pos
    while part < len(kinds):
        kind = kinds[part]
        printed = steps[part]
        if kind == MOVE:
            if len(group) == 1:
                m = group[0]
                pos = _set(pos, m, _dest(t, pos[m], printed))
            else:
                p = list(pos)
                for m in group:
                    p[m] = _dest(t, pos[m], printed)
                pos = tuple(p)
        elif kind in (FOREMOST, LAST, FOREIGN):
            cands = _candidates(t, pos, kind, printed, subject)
            if len(cands) > 1:
                _write_pending(w, card, plan, subject, group, part, mode, unwritten)
                w.phase = PICK
                return
            if cands:
                m = cands[0]
                pos = _set(pos, m, _dest(t, pos[m], printed))
        else:
            at = pos[subject]
            if kind == TO_NEXT:
                st = _to_next(pos, at)
            elif kind == TO_LAST:
                st = hindmost(pos) - at
            else:
                st = printed
            pos = _set(pos, subject, _dest(t, at, st))
        part += 1
        w.pos = pos
        if _check_cities(w, t, pos):
            _write_pending(w, card, plan, subject, group, part, mode, unwritten)
            return
        # A city's payment changes no position, so `pos` is still the draft's.
    if mode == "A":
        _write_pending(w, card, plan, subject, group, part, mode, unwritten)
        _refill(w, t, len(w.hands[w.turn % t.players]))
        return
    # SR-4.3: the carrier moves the wind-rose marker from his colour; SR-4.4: discard.
    _advance_rose(w, t, subject)
    w.discard = _add(w.discard, card, 1)
    _end_turn(w, t)


def _advance_rose(w: SilkroadState, t: Tables, colour: int) -> None:
    """SR-4.3, SR-4.5: the marker on `colour` goes clockwise to the next free colour."""
    rose = w.rose
    if colour not in rose:
        return
    i = rose.index(colour)
    other = rose[1 - i]
    owner = t.owner
    c = colour
    for _ in range(t.merchants):
        c = (c + 1) % t.merchants
        if c == other:
            continue
        if t.players == 2 and owner[c] != owner[colour]:
            continue
        w.rose = _set(rose, i, c)
        return


def pay_bazaar(w: SilkroadState) -> list[int]:
    """SR-6.2: the three foremost merchants earn; shared places share, rounded down."""
    t = tables(w)
    row = w.game.data.bazaar_row(w.marker)
    assert row is not None, "SR-6.5: only a bazaar on the track is called"
    pos = w.pos
    merchants = t.merchants
    # Foremost first, ties in colour order (a stable sort by field, descending).
    order: list[int] = []
    for m in range(merchants):
        i = len(order)
        while i > 0 and pos[order[i - 1]] < pos[m]:
            i -= 1
        order.insert(i, m)
    ounces = row.ounces
    paid = [0] * merchants
    place = 0
    while place < 3 and place < len(order):
        here = pos[order[place]]
        tied = [m for m in order if pos[m] == here]
        total = 0
        for q in range(place, place + len(tied)):
            if q < 3:
                total += ounces[q]
        for m in tied:
            paid[m] = total // len(tied)
        place += len(tied)
    # `gain` merchant by merchant (SR-9.5: never below 0), on one copy of the track.
    silver = list(w.silver)
    owner = t.owner
    for m in range(merchants):
        seat = owner[m]
        silver[seat] = max(0, silver[seat] + paid[m])
    w.silver = tuple(silver)
    return paid


def current_player(s: SilkroadState) -> int:
    """The seat deciding now, `CHANCE` or `TERMINAL` (the state's `current_player`)."""
    # the phases most states are in first
    ph = s.phase
    t = s.game.tables
    if ph == TURN:
        return s.turn % t.players
    if ph in CHANCE_PHASES:
        return CHANCE
    if ph == END:
        return TERMINAL
    if ph == CARRY:
        return t.owner[s.subject]
    if ph == PLACE:
        return t.owner[len(s.pos)]
    if ph == PICK:
        part = s.game.data.cards[s.card].alts[s.numeral_index].parts[s.part]
        # SR-5.5: the card's player settles ties; SR-5.6: the carrier names a foreign merchant.
        if part.kind == "foreign":
            return t.owner[s.subject]
    return s.turn % t.players


def apply(s: SilkroadState, a: Action) -> SilkroadState:
    w = s.draft()
    # The common actions first, called directly; the rest through the table.
    if isinstance(a, Draw):
        _on_draw(w, a)
    elif isinstance(a, (Play, Give)):
        _on_play_or_give(w, a)
    elif isinstance(a, Carry):
        _on_carry(w, a)
    else:
        _HANDLERS[type(a)](w, a)
    # Who moves, kept in the successor: written here, not by the core (docs/engine.md).
    w._player = current_player(w)
    return w.freeze()


def _on_draw(w: SilkroadState, a: Action) -> None:
    assert isinstance(a, Draw)
    t = tables(w)
    seat = w.turn % t.players
    card = a.card
    if w.phase == DEAL:
        # The first of the seats holding fewest cards is dealt to.
        hands = w.hands
        target = 0
        for i in range(1, t.players):
            if len(hands[i]) < len(hands[target]):
                target = i
        w.deck = _add(w.deck, card, -1)
        hands = _put(hands, target, with_card(hands[target], card))
        w.hands = hands
        if all(len(h) >= HAND for h in hands):
            w.phase = PLACE
            w.deck_bazaars = w.game.spare_bazaars
    elif card < 0:
        w.deck_bazaars -= 1
        w.marker += 1
        if not 1 <= w.marker <= t.bazaar_rows:
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
        w.deck = _add(w.deck, card, -1)
        hands = w.hands
        hand = with_card(hands[seat], card)
        w.hands = _put(hands, seat, hand)
        _refill(w, t, len(hand))


def with_card(row: tuple[int, ...], card: int) -> tuple[int, ...]:
    """``tuple(sorted((*row, card)))``; a hand or a display is kept sorted, so `card`
    is put in its place."""
    n = len(row)
    for i in range(1, n):
        if row[i] < row[i - 1]:
            return tuple(sorted((*row, card)))
    i = 0
    while i < n and row[i] <= card:
        i += 1
    return row[:i] + (card,) + row[i:]  # noqa: RUF005 (as _set)


def _on_start(w: SilkroadState, a: Action) -> None:
    assert isinstance(a, Start)
    g = w.game
    m = len(w.pos)
    w.pos = (*w.pos, g.data.start_positions[a.field])
    note(w, "{} starts on field {}", COLOURS[m], g.data.start_fields[a.field])
    if len(w.pos) == g.merchants:
        w.phase = TURN


def _on_play_or_give(w: SilkroadState, a: Play | Give) -> None:
    t = tables(w)
    seat = w.turn % t.players
    card = a.card
    subject = a.merchant
    displays = w.displays
    if isinstance(a, Play):
        hands = w.hands
        w.hands = _put(hands, seat, without(hands[seat], card))
        w.displays = _put(displays, seat, with_card(displays[seat], card))
        mode = "A"
    else:
        w.displays = _put(displays, seat, without(displays[seat], card))
        mode = "B"
    verb = "plays" if mode == "A" else "gives"
    # "#{}" with the kind + 1 is `card_name`.
    note(w, "{} {} #{} for {}", SEAT_NAMES[seat], verb, card + 1, COLOURS[subject])
    # Carried out at once when there is one way: the card and its carrier are then
    # written only where the turn does not end (`_resolve`).
    if t.simple[card]:
        _carry(w, t, card, subject, 1, (), mode, CARD_UNWRITTEN)
        return
    options = carries(t, w.pos, card, subject)
    if len(options) == 1:
        only = options[0]
        _carry(w, t, card, subject, only.numeral, only.companions, mode, CARD_UNWRITTEN)
        return
    w.mode = mode
    w.card = card
    w.subject = subject
    w.phase = CARRY


def _on_carry(w: SilkroadState, a: Action) -> None:
    assert isinstance(a, Carry)
    carry(w, a)


def _on_pick(w: SilkroadState, a: Action) -> None:
    assert isinstance(a, Pick)
    t = tables(w)
    card = w.card
    plan = t.plan(card, w.numeral)
    part = w.part
    kind = plan.kinds[part]
    pos = w.pos
    m = a.merchant
    st = plan.steps[part]
    if kind == TO_NEXT:
        st = _to_next(pos, pos[m])
    elif kind == TO_LAST:
        st = hindmost(pos) - pos[m]
    pos = _set(pos, m, _dest(t, pos[m], st))
    w.pos = pos
    note(w, "{} is meant", COLOURS[m])
    part += 1
    w.part = part
    w.phase = CARRY
    if not _check_cities(w, t, pos):
        _resolve(w, t, card, plan, w.subject, w.group, part, w.mode, WRITTEN)


def _on_lay(w: SilkroadState, a: Action) -> None:
    assert isinstance(a, Lay)
    seat = turn_seat(w.game, w.turn)
    w.hands = _put(w.hands, seat, without(w.hands[seat], a.card))
    w.displays = _put(w.displays, seat, with_card(w.displays[seat], a.card))
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
    w.phase = CARRY
    _carry(w, tables(w), w.card, w.subject, a.numeral, a.companions, w.mode, CHOICE_UNWRITTEN)


def _carry(
    w: SilkroadState,
    t: Tables,
    card: int,
    subject: int,
    numeral: int,
    companions: tuple[int, ...],
    mode: str,
    unwritten: int,
) -> None:
    """Carry out alternative `numeral` of the pending `card` for `subject` and its
    `companions` (played as `mode`; `unwritten` as for `_resolve`)."""
    plan = t.plan(card, numeral)
    group = (subject, *companions)
    if plan.silver:
        gain(w, t.owner[subject], plan.silver)
    if len(t.plans[card]) > 1:
        note(w, "{} travels {}", COLOURS[subject], NUMERALS[numeral])
    _resolve(w, t, card, plan, subject, group, 0, mode, max(unwritten, CHOICE_UNWRITTEN))


_HANDLERS: dict[type[Action], Callable[[SilkroadState, Action], None]] = {
    Draw: _on_draw,
    Start: _on_start,
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
        if abs(row.miles) == 1:
            return (
                f"calls bazaar {row.bazaar}: the three foremost earn {list(row.ounces)} ounces, "
                f"then your merchants move {row.miles:+d} field"
            )
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
        if abs(a.miles) == 1:
            return f"moves {COLOURS[a.merchant]} {a.miles:+d} field of the bazaar miles"
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
