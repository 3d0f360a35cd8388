"""The rules of Emperor of China: legal actions, their effects, chance, the end and scoring.

Rule IDs (EM-n) refer to docs/rules/emperor.md. `apply` builds the successor in a clone
of the state and never touches its input.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Final

from tianxia.core.actions import Action
from tianxia.core.constants import CHANCE, TERMINAL
from tianxia.core.events import Event, seat_name
from tianxia.games.emperor import state
from tianxia.games.emperor.actions import (
    Accept,
    Advance,
    AssignYang,
    AssignYin,
    Attack,
    Colonise,
    Defend,
    Die,
    Done,
    DrawYang,
    DrawYin,
    Endure,
    Grow,
    Move,
    OfferMerger,
    ProposeMerger,
    Refuse,
    Retreat,
    Roll,
    Stand,
    Start,
    Withdraw,
)
from tianxia.games.emperor.data import NORMAL, Components
from tianxia.games.emperor.state import EmperorState

# Final: the compiled build keeps these in C variables instead of looking each up by name.
START: Final = state.START
GROWTH: Final = state.GROWTH
COLONISE: Final = state.COLONISE
MOVE: Final = state.MOVE
EXPAND: Final = state.EXPAND
REPLY: Final = state.REPLY
DEFENDER: Final = state.DEFENDER
ATTACKER: Final = state.ATTACKER
DIE: Final = state.DIE
ADVANCE: Final = state.ADVANCE
YANG: Final = state.YANG
YIN: Final = state.YIN
DRAW_YIN: Final = state.DRAW_YIN
DRAW_YANG: Final = state.DRAW_YANG
SHIELD: Final = state.SHIELD
END: Final = state.END
LOG_LENGTH: Final = state.LOG_LENGTH
CHANCE_PHASES: Final = state.CHANCE_PHASES

S = EmperorState
# The rules read the tables as `s.game.tables`, not through the state's `t` property:
# compiled, that is two attribute reads instead of a call into interpreted code. They
# read the numbers of the rules from the tables too, not from `t.c` or the game.


# choices of the option `borders` (EM-2.2, ruling R1)
COLONISTS_CROSS: Final = "colonists_cross"
CLOSED: Final = "closed"
OPEN: Final = "open"


class Tables:
    """Lookup tables of one variant, built once (`EmperorGame.tables`): neighbours,
    obstacles, the numbers of the rules and every action value the rules hand out.

    Compiled, its fields are read as C struct members; the components' and the game's
    attributes would each cost a lookup by name on every use.
    """

    def __init__(
        self,
        c: Components,
        players: int,
        borders: str,
        honan_shensi: str,
        yin_target: str = "own",
        merger_result: str = "scoring",
    ) -> None:
        self.c = c
        self.n = players
        P = len(c.province_ids)
        self.P = P
        self.ids = c.province_ids
        self.index = {pid: i for i, pid in enumerate(c.province_ids)}
        self.cap = c.province_cap
        # the numbers of the rules, copied from the components
        self.turns = c.turns
        self.victory_provinces = c.victory_provinces
        self.growth_base = c.growth_base
        self.start_units = c.start_units
        self.marker_growth = c.marker_growth
        self.marker_counts = c.marker_counts
        self.marker_points = c.marker_points
        self.yin_loss = c.yin_loss
        self.yin_special = c.yin_special
        self.yang_kinds = c.yang_kinds
        self.yin_kinds = c.yin_kinds
        self.marker_kinds = c.marker_kinds
        # the options the rules read (EM-8.1, EM-9.3)
        self.yin_any = yin_target == "any"
        self.shared_result = merger_result == "shared"
        # a retreat and movement cross obstacles freely only with borders="open" (EM-2.2)
        self.open_borders = borders == OPEN
        nbrs: list[list[int]] = [[] for _ in range(P)]
        # block[a][b]: the obstacle an attack from a into b must overcome (NORMAL if none)
        self.block: list[dict[int, str]] = [{} for _ in range(P)]
        for b in c.borders:
            i, j = self.index[b.a], self.index[b.b]
            nbrs[i].append(j)
            nbrs[j].append(i)
            kind = NORMAL if (b.optional and honan_shensi == "normal") else b.strongest
            self.block[i][j] = kind
            self.block[j][i] = kind
        self.nbrs: tuple[tuple[int, ...], ...] = tuple(tuple(sorted(x)) for x in nbrs)
        # neighbours reachable by movement and a retreat without a card (EM-2.2)
        self.open_nbrs: tuple[tuple[int, ...], ...] = tuple(
            tuple(q for q in self.nbrs[p] if self.open_borders or self.block[p][q] == NORMAL)
            for p in range(P)
        )
        # neighbours colonists may enter: every one unless the borders are closed (EM-5.1)
        self.colonise_nbrs: tuple[tuple[int, ...], ...] = (
            self.open_nbrs if borders == CLOSED else self.nbrs
        )
        self.yang_index = {k: i for i, k in enumerate(c.yang_kinds)}
        self.yin_index = {k: i for i, k in enumerate(c.yin_kinds)}
        self.marker_index = {k: i for i, k in enumerate(c.marker_kinds)}
        # card[a][b]: the yang kind an attack from a into b needs, or -1 (`card_for`)
        self.card: tuple[tuple[int, ...], ...] = tuple(
            tuple(
                -1
                if b not in self.block[a] or self.block[a][b] == NORMAL
                else self.yang_index[self.block[a][b]]
                for b in range(P)
            )
            for a in range(P)
        )
        # yang kind -> marker index (economy cards), or -1
        self.yang_marker: tuple[int, ...] = tuple(
            self.marker_index[k] if g == "economy" else -1
            for k, g in zip(c.yang_kinds, c.yang_groups)
        )
        self.attack_kinds: tuple[int, ...] = tuple(
            i for i, g in enumerate(c.yang_groups) if g == "attack"
        )
        self.economy_kinds: tuple[int, ...] = tuple(
            i for i, g in enumerate(c.yang_groups) if g == "economy"
        )
        self.hidden_kinds: tuple[int, ...] = tuple(
            i for i, g in enumerate(c.yang_groups) if g != "economy"
        )
        # yin kind -> the yang kind that defends against it, or -1
        self.defence_for: tuple[int, ...] = tuple(
            self.yang_index.get(k, -1)
            if self.yang_index.get(k, -1) >= 0 and c.yang_groups[self.yang_index[k]] == "defence"
            else -1
            for k in c.yin_kinds
        )
        self.start_count: int = c.start_provinces[players]
        self.supply_each = c.units_per_player
        self.directed: tuple[tuple[int, int], ...] = tuple(
            (a, b) for a in range(P) for b in self.nbrs[a]
        )

        ids = self.ids
        self.DONE = Done()
        self.start: tuple[Start, ...] = tuple(Start(p) for p in ids)
        self.grow: tuple[Grow, ...] = tuple(Grow(p) for p in ids)
        # Indexed by the two provinces of a border: moves[a][b][k] moves k units from a to
        # b (empty off the map); colonise_at[a][b], attack_at[a][b] (None off the map),
        # typed `Any`: read from a tuple, a typed element would be checked on every read.
        border = [[b in self.nbrs[a] for b in range(P)] for a in range(P)]
        self.moves: tuple[tuple[tuple[Move, ...], ...], ...] = tuple(
            tuple(
                tuple(Move(ids[a], ids[b], k) for k in range(self.cap + 1)) if border[a][b] else ()
                for b in range(P)
            )
            for a in range(P)
        )
        self.colonise_at: tuple[tuple[Any, ...], ...] = tuple(
            tuple(Colonise(ids[a], ids[b]) if border[a][b] else None for b in range(P))
            for a in range(P)
        )
        self.attack_at: tuple[tuple[Any, ...], ...] = tuple(
            tuple(Attack(ids[a], ids[b]) if border[a][b] else None for b in range(P))
            for a in range(P)
        )
        self.propose: tuple[ProposeMerger, ...] = tuple(ProposeMerger(s) for s in range(players))
        self.ACCEPT, self.REFUSE = Accept(), Refuse()
        self.STAND, self.OFFER = Stand(), OfferMerger()
        self.retreat: tuple[Retreat, ...] = tuple(Retreat(p) for p in ids)
        self.ROLL, self.WITHDRAW = Roll(), Withdraw()
        self.advance: tuple[Advance, ...] = tuple(Advance(k) for k in range(self.cap + 1))
        self.yang: tuple[AssignYang, ...] = tuple(AssignYang(p) for p in ids)
        self.yin: tuple[AssignYin, ...] = tuple(AssignYin(p) for p in ids)
        self.DEFEND, self.ENDURE = Defend(), Endure()
        self.die: tuple[Die, ...] = tuple(Die(f) for f in range(1, 7))
        self.draw_yin: tuple[DrawYin, ...] = tuple(DrawYin(k) for k in c.yin_kinds)
        self.draw_yang: tuple[DrawYang, ...] = tuple(DrawYang(k) for k in c.yang_kinds)

    def player_actions(self) -> list[Action]:
        acts: list[Action] = [self.DONE, *self.start, *self.grow]
        acts += [self.colonise_at[a][b] for a, b in self.directed]
        acts += [m for a, b in self.directed for m in self.moves[a][b][1:]]
        acts += [self.attack_at[a][b] for a, b in self.directed]
        acts += [*self.propose, self.ACCEPT, self.REFUSE, self.STAND, *self.retreat]
        acts += [self.OFFER, self.ROLL, self.WITHDRAW, *self.advance, *self.yang, *self.yin]
        acts += [self.DEFEND, self.ENDURE]
        return acts

    def chance_actions(self) -> list[Action]:
        return [*self.die, *self.draw_yin, *self.draw_yang]


# --- small queries -------------------------------------------------------------------
def provinces_of(s: S, realm: int) -> list[int]:
    return [p for p, o in enumerate(s.owner) if o == realm]


def realm_units(s: S, realm: int) -> int:
    return sum(u for o, u in zip(s.owner, s.units) if o == realm)


def members(s: S, realm: int) -> int:
    return sum(1 for x in s.senior if x == realm)


def supply(s: S, realm: int) -> int:
    """Units of the realm's colours not on the board (EM-1.1: 30 a member)."""
    return members(s, realm) * s.game.tables.supply_each - realm_units(s, realm)


def is_independent(s: S, seat: int) -> bool:
    return s.senior[seat] == seat


def status(s: EmperorState, seat: int) -> str:
    """waiting (no first turn yet), active, junior (merged into another), or eliminated."""
    if not is_independent(s, seat):
        return "junior"
    if not s.started[seat]:
        return "waiting"
    return "active" if seat in s.owner else "eliminated"


def is_alive(s: S, seat: int) -> bool:
    """Takes turns: independent, and either not yet started or holding a province."""
    return is_independent(s, seat) and (not s.started[seat] or seat in s.owner)


def markers_left(s: S, m: int) -> int:
    return s.game.tables.marker_counts[m] - sum(row[m] for row in s.markers)


def influence(s: S) -> tuple[int, ...]:
    """Per province: the realm that influences it (EM-9.2), or -1. Cached."""
    cache = s._cache
    if cache is None:
        cache = {}
        object.__setattr__(s, "_cache", cache)
    got = cache.get("influence")
    if got is not None:
        return got
    t = s.game.tables
    owner = s.owner
    nbrs = t.nbrs
    # realm bordering each empty region: -1 none yet, -2 more than one
    comp = [-1] * t.P
    comp_realm: list[int] = []
    for p in range(t.P):
        if owner[p] != -1 or comp[p] != -1:
            continue
        k = len(comp_realm)
        comp[p] = k
        stack = [p]
        r = -1
        while stack:
            for q in nbrs[stack.pop()]:
                o = owner[q]
                if o == -1:
                    if comp[q] == -1:
                        comp[q] = k
                        stack.append(q)
                elif r == -1:
                    r = o
                elif r != o:
                    r = -2
        comp_realm.append(r)
    result = [-1] * t.P
    for p in range(t.P):
        if owner[p] != -1:
            continue
        r = -1
        for q in nbrs[p]:
            o = owner[q]
            if o != -1 and o != r:
                if r != -1:
                    r = -2
                    break
                r = o
        # (a) borders one realm only; else (b) its empty region borders one realm only.
        # Several realms next to p means several next to its region, so (b) fails too.
        result[p] = r if r >= 0 else max(comp_realm[comp[p]], -1)
    out = tuple(result)
    cache["influence"] = out
    return out


def control(s: S, realm: int) -> int:
    """Provinces held or influenced by the realm (EM-3.3, EM-9.1)."""
    infl = influence(s)
    owner = s.owner
    return sum(1 for p in range(s.game.tables.P) if owner[p] == realm or infl[p] == realm)


def realm_score(s: S, realm: int) -> int:
    """Points of a realm as they stand (EM-9.1)."""
    points = s.game.tables.marker_points
    pts = sum(s.hands[realm]) + 2 * control(s, realm)
    for p, o in enumerate(s.owner):
        if o == realm:
            pts += s.units[p]
            pts += sum(n * v for n, v in zip(s.markers[p], points))
    return pts


def shared_result(s: S) -> bool:
    """Whether a junior partner shares his senior's result (option merger_result, EM-9.3)."""
    return s.game.tables.shared_result


def seat_scores(s: S) -> list[int]:
    """Each seat's points (EM-9.1): a junior partner holds nothing of his own, so he scores
    0 (EM-9.3), or shows his senior's with the option merger_result=shared."""
    cache = s._cache
    if cache is None:
        cache = {}
        object.__setattr__(s, "_cache", cache)
    got = cache.get("scores")
    if got is None:
        if shared_result(s):
            realm = {r: realm_score(s, r) for r in set(s.senior)}
            got = [realm[s.senior[i]] for i in range(len(s.senior))]
        else:
            got = [realm_score(s, i) if s.senior[i] == i else 0 for i in range(len(s.senior))]
        cache["scores"] = got
    return list(got)


def returns(s: S) -> list[float]:
    """Winners share the gain that the losers pay, so the sum is zero (EM-9.3)."""
    n = s.game.tables.n
    if s.phase != END:
        return [0.0] * n
    sc = seat_scores(s)
    best = max(sc)
    return result([sc[i] == best for i in range(n)])


def result(win: list[bool]) -> list[float]:
    """Each seat's return when the seats marked in `win` win (EM-9.3): they share what
    the losers pay, the larger side getting or paying 1 a seat; all 0 when nobody loses."""
    n = len(win)
    w = sum(win)
    lose = n - w
    if lose == 0:
        return [0.0] * n
    gain, loss = (lose / w, 1.0) if w >= lose else (1.0, w / lose)
    return [gain if x else -loss for x in win]


# --- legal actions -------------------------------------------------------------------
def current_player(s: S) -> int:
    """The seat deciding now, `CHANCE` or `TERMINAL` (the state's `current_player`)."""
    phase = s.phase
    if phase == END:
        return TERMINAL
    if phase in CHANCE_PHASES:
        return CHANCE
    return s.decider


def legal_actions(s: S) -> list[Action]:
    phase = s.phase
    t = s.game.tables
    if phase == START:
        acts: list[Action] = [t.start[p] for p in start_options(s)]
    elif phase == GROWTH:
        acts = [t.grow[p] for p in growth_targets(s)]
    elif phase == COLONISE:
        acts = [t.DONE]
        colonise = t.colonise_at
        for a, b in colonisations(s):
            acts.append(colonise[a][b])
    elif phase == MOVE:
        acts = [t.DONE]
        moves = t.moves
        for a, b, k in movements(s):
            acts.extend(moves[a][b][1 : k + 1])
    elif phase == EXPAND:
        acts = [t.DONE]
        attack = t.attack_at
        for a, b in attacks(s):
            acts.append(attack[a][b])
        acts += [t.propose[x] for x in merger_partners(s)]
    elif phase == REPLY:
        acts = [t.ACCEPT, t.REFUSE]
    elif phase == DEFENDER:
        assert s.battle is not None
        acts = [t.STAND] + [t.retreat[q] for q in retreats(s)]
        if not s.battle[2]:
            acts.append(t.OFFER)
    elif phase == ATTACKER:
        acts = [t.ROLL, t.WITHDRAW]
    elif phase == ADVANCE:
        assert s.battle is not None
        acts = list(t.advance[: min(s.units[s.battle[0]], t.cap) + 1])
    elif phase == YANG:
        acts = list(t.yang)
    elif phase == YIN:
        acts = [t.yin[p] for p in yin_targets(s)]
    elif phase == SHIELD:
        acts = [t.DEFEND, t.ENDURE] if can_defend(s) else [t.ENDURE]
    else:
        return []
    # every branch above lists its actions in codec order already: no sort needed
    return acts


def chance_outcomes(s: S) -> list[tuple[Action, float]]:
    t = s.game.tables
    if s.phase == DIE:
        return [(a, 1 / 6) for a in t.die]
    acts: Sequence[Action]
    if s.phase == DRAW_YIN:
        deck, acts = s.yin_deck, t.draw_yin
    elif s.phase == DRAW_YANG:
        deck, acts = s.yang_deck, t.draw_yang
    else:
        from tianxia.core import IllegalActionError

        raise IllegalActionError("ENGINE-3", "this is not a chance node")
    total = sum(deck)
    return [(acts[k], n / total) for k, n in enumerate(deck) if n]


def region_sizes(nbrs: tuple[tuple[int, ...], ...], free: list[bool]) -> list[int]:
    """Per province: how many provinces its region of `free` provinces holds (0 if not free)."""
    P = len(free)
    size = [0] * P
    seen = [False] * P
    for p in range(P):
        if not free[p] or seen[p]:
            continue
        seen[p] = True
        region = [p]
        i = 0
        while i < len(region):
            for q in nbrs[region[i]]:
                if free[q] and not seen[q]:
                    seen[q] = True
                    region.append(q)
            i += 1
        n = len(region)
        for q in region:
            size[q] = n
    return size


def start_options(s: S) -> list[int]:
    """Empty provinces the first-turn placement may take next (EM-4.1).

    A group of k adjacent provinces can still be completed exactly when the region of
    empty provinces joined to the group so far holds at least k provinces.
    """
    t = s.game.tables
    owner = s.owner
    chosen = s.chosen
    if chosen:
        # Every empty neighbour joins the group's region of empty provinces, so any of
        # them keeps a full group possible if one is; if none is, the player takes what
        # still fits: either way, each of them.
        nbrs = t.nbrs
        return sorted({q for p in chosen for q in nbrs[p] if owner[q] == -1 and q not in chosen})
    k = t.start_count
    cand = [p for p in range(t.P) if owner[p] == -1]
    if k == 1:
        return cand
    size = region_sizes(t.nbrs, [o == -1 for o in owner])
    full = [p for p in cand if size[p] >= k]
    # where no full group fits any more, the player takes what still fits
    return full or cand


def start_open(s: S) -> bool:
    """Whether `start_options` has any province to offer, without measuring regions when
    no group is begun (any empty province is then an option)."""
    if not s.chosen:
        return -1 in s.owner
    return bool(start_options(s))


def growth_targets(s: S) -> list[int]:
    """Provinces the growth now due may go to (EM-4.2, EM-4.3)."""
    if not s.growth:
        return []
    t = s.game.tables
    me = s.player
    head = s.growth[0]
    cand: Sequence[int] = range(t.P) if head < 0 else sorted((head, *t.nbrs[head]))
    owner, units, cap = s.owner, s.units, t.cap
    return [p for p in cand if owner[p] == me and units[p] < cap]


def colonisations(s: S, first: bool = False) -> list[tuple[int, int]]:
    """(from, to) for every colonisation open now (EM-5.1); with `first`, at most one
    (enough to tell whether the phase has anything to do)."""
    t = s.game.tables
    me = s.player
    out: list[tuple[int, int]] = []
    # Fields read into locals: each read of a state's field is an attribute lookup.
    owner, units, nbrs = s.owner, s.units, t.colonise_nbrs
    for a in range(t.P):
        if owner[a] == me and units[a] >= 4:
            for b in nbrs[a]:
                if owner[b] == -1:
                    out.append((a, b))
                    if first:
                        return out
    return out


def movements(s: S, first: bool = False) -> list[tuple[int, int, int]]:
    """(from, to, how many may go) for every movement open now (EM-6.1); with `first`,
    at most one."""
    t = s.game.tables
    me = s.player
    out: list[tuple[int, int, int]] = []
    owner, units, moved, cap, nbrs = s.owner, s.units, s.moved, t.cap, t.open_nbrs
    for a in range(t.P):
        if owner[a] != me:
            continue
        free = units[a] - moved[a]
        if free <= 0:
            continue
        k = min(free, cap)
        for b in nbrs[a]:
            if owner[b] == me:
                out.append((a, b, k))
                if first:
                    return out
    return out


def yin_targets(s: S) -> list[int]:
    """Provinces the yin card may go to: the drawer's own, any if he holds none (EM-8.1)."""
    t = s.game.tables
    owner, me = s.owner, s.player
    own = [p for p in range(t.P) if owner[p] == me]
    if not own or t.yin_any:
        return list(range(t.P))
    return own


def card_for(s: S, a: int, b: int) -> int:
    """The yang kind needed to cross from a into b, or -1 for a normal border (EM-2.1)."""
    return s.game.tables.card[a][b]


def attacks(s: S, first: bool = False) -> list[tuple[int, int]]:
    """(from, to) for every attack open now (EM-7.2, EM-7.3); with `first`, at most one."""
    t = s.game.tables
    me = s.player
    hand = s.hands[me]
    out: list[tuple[int, int]] = []
    owner, units, conquered, attacked = s.owner, s.units, s.conquered, s.attacked
    card, nbrs = t.card, t.nbrs
    for a in range(t.P):
        if owner[a] != me or units[a] < 1 or a in conquered:
            continue
        for b in nbrs[a]:
            o = owner[b]
            if o == -1 or o == me or (a, b) in attacked:
                continue
            k = card[a][b]
            if k < 0 or hand[k] > 0:
                out.append((a, b))
                if first:
                    return out
    return out


def merger_partners(s: S) -> list[int]:
    me = s.player
    senior, owner, proposed = s.senior, s.owner, s.proposed
    return [
        x
        for x in range(s.game.tables.n)
        if x != me and senior[x] == x and x in owner and x not in proposed
    ]


def retreats(s: S) -> list[int]:
    """Neighbours the defender may withdraw into (EM-7.5)."""
    assert s.battle is not None
    t = s.game.tables
    dst = s.battle[1]
    d = s.owner[dst]
    hand = s.hands[d]
    out = []
    for q in t.nbrs[dst]:
        if s.owner[q] != d:
            continue
        if t.open_borders:
            out.append(q)
            continue
        k = card_for(s, dst, q)
        if k < 0 or hand[k] > 0:
            out.append(q)
    return out


def _shield_kind(s: S) -> int:
    return s.game.tables.defence_for[s.yin_card]


def can_defend(s: S) -> bool:
    """Whether the struck province's owner can play the matching defence card (EM-8.2)."""
    k = _shield_kind(s)
    if k < 0:
        return False
    owner = s.decider
    if s.hands[owner][k] > 0:
        return True
    return owner == s.player and s.fresh == k and s.yang_at == s.yin_at


# --- transitions ---------------------------------------------------------------------
def _add_log(s: S, template: str, *args: object) -> None:
    """Log ``template.format(*args)``; formatted only when the log is read (`Log`)."""
    s.log = s.log.note(LOG_LENGTH, template, args)


# Seat names as `seat_name` gives them, looked up rather than built on every step.
SEAT_NAMES: Final = tuple(seat_name(i) for i in range(16))


def _set(tup: tuple[int, ...], i: int, v: int) -> tuple[int, ...]:
    # A copy through a list: for a row per province, half the work of splicing slices.
    out = list(tup)
    out[i] = v
    return tuple(out)


def _set_units(s: S, p: int, n: int, realm: int) -> None:
    """Put `n` units of `realm` in p; an emptied province belongs to nobody."""
    s.units = _set(s.units, p, n)
    s.owner = _set(s.owner, p, realm if n > 0 else -1)


def begin_turn(s: S, seat: int) -> None:
    s.player = s.decider = seat
    s.chosen = s.growth = s.moved = s.conquered = s.proposed = ()
    s.attacked = ()
    s.battle = None
    s.yang_at = s.yin_at = s.yin_card = s.fresh = -1
    if not s.started[seat]:
        s.phase = START
        if not start_open(s):
            # the board is full: nothing to occupy, and nothing else to do this turn
            s.started = _set_started(s.started, seat)
            settle_colonise(s)
        return
    t = s.game.tables
    queue = [-1] if t.growth_base > 0 else []
    markers, growth = s.markers, t.marker_growth
    for p, o in enumerate(s.owner):
        if o == seat:
            for m, n in enumerate(markers[p]):
                queue.extend([p] * (n * growth[m]))
    s.growth = tuple(queue)
    s.phase = GROWTH
    settle_growth(s)


def settle_growth(s: S) -> None:
    """Drop growth that cannot be placed; move on when none is left (EM-4.4)."""
    s.phase = GROWTH
    if supply(s, s.player) <= 0:
        s.growth = ()
    while s.growth and not growth_targets(s):
        s.growth = s.growth[1:]
    if not s.growth:
        settle_colonise(s)


def settle_colonise(s: S) -> None:
    s.phase = COLONISE
    if not colonisations(s, first=True):
        settle_move(s, fresh=True)


def settle_move(s: S, fresh: bool = False) -> None:
    if fresh:
        s.moved = (0,) * s.game.tables.P
    s.phase = MOVE
    if not movements(s, first=True):
        s.moved = ()
        settle_expand(s)


def settle_expand(s: S) -> None:
    s.battle = None
    s.decider = s.player
    if s.player not in s.owner:
        # a player left without provinces has nothing more to do this turn
        end_turn(s)
        return
    s.phase = EXPAND
    if not attacks(s, first=True) and not merger_partners(s):
        enter_phase5(s)


def enter_phase5(s: S) -> None:
    s.decider = s.player
    s.battle = None
    if s.turn >= s.game.tables.turns or (s.player not in s.owner and s.merge is None):
        # the player of the last turn draws no cards (EM-3.2)
        end_turn(s)
    elif sum(s.yang_deck):
        s.phase = YANG
    elif sum(s.yin_deck):
        s.phase = YIN
    else:
        end_turn(s)


def after_assignments(s: S) -> None:
    if s.yin_at >= 0:
        s.phase = DRAW_YIN
    elif s.yang_at >= 0:
        s.phase = DRAW_YANG
    else:
        end_turn(s)


def resolve_cards(s: S) -> None:
    """Carry out the yin card, then settle the yang card (EM-8.2 - EM-8.5)."""
    t = s.game.tables
    k = s.yin_card
    if k >= 0:
        if t.yin_special[k]:
            me = s.player
            hand = list(s.hands[me])
            out = list(s.yang_out)
            for a in t.attack_kinds:
                out[a] += hand[a]
                hand[a] = 0
            if s.fresh in t.attack_kinds:
                out[s.fresh] += 1
                s.fresh = -1
            s.hands = _set_hand(s.hands, me, tuple(hand))
            s.yang_out = tuple(out)
            _add_log(s, "{} loses every attack card", SEAT_NAMES[me])
        elif t.yin_loss[k] > 0 and s.owner[s.yin_at] >= 0:
            if t.defence_for[k] >= 0:
                s.phase = SHIELD
                s.decider = s.owner[s.yin_at]
                return
            _yin_loss(s)
    settle_yang(s)


def _set_hand(hands: tuple[tuple[int, ...], ...], seat: int, hand: tuple[int, ...]) -> Any:
    return (*hands[:seat], hand, *hands[seat + 1 :])


def _yin_loss(s: S) -> None:
    t = s.game.tables
    p = s.yin_at
    k = s.yin_card
    loss = t.yin_loss[k]
    _set_units(s, p, max(0, s.units[p] - loss), s.owner[p])
    _add_log(s, "{} loses {} to {}", t.ids[p], loss, t.yin_kinds[k])


def settle_yang(s: S) -> None:
    k = s.fresh
    t = s.game.tables
    if k >= 0:
        m = t.yang_marker[k]
        if m >= 0 and markers_left(s, m) > 0:
            p = s.yang_at
            s.markers = (
                *s.markers[:p],
                _set(s.markers[p], m, s.markers[p][m] + 1),
                *s.markers[p + 1 :],
            )
            s.yang_out = _set(s.yang_out, k, s.yang_out[k] + 1)
            _add_log(s, "{} marker placed in {}", t.marker_kinds[m], t.ids[p])
        else:
            me = s.player
            s.hands = _set_hand(s.hands, me, _set(s.hands[me], k, s.hands[me][k] + 1))
            if m >= 0:
                _add_log(
                    s, "{} keeps a {} card, no marker being left", SEAT_NAMES[me], t.yang_kinds[k]
                )
            else:
                _add_log(s, "{} keeps the yang card", SEAT_NAMES[me])
        s.fresh = -1
    end_turn(s)


def do_merge(s: S, senior: int, junior: int) -> None:
    """The junior's units become the senior's, his yang cards are lost (EM-7.1)."""
    s.senior = tuple(senior if x == junior else x for x in s.senior)
    s.owner = tuple(senior if o == junior else o for o in s.owner)
    lost = s.hands[junior]
    s.yang_out = tuple(a + b for a, b in zip(s.yang_out, lost))
    s.hands = _set_hand(s.hands, junior, (0,) * len(lost))
    s.claims = tuple(False if i == junior else v for i, v in enumerate(s.claims))
    _add_log(
        s, "{} merges into {}'s state as junior partner", SEAT_NAMES[junior], SEAT_NAMES[senior]
    )


def stronger(s: S, a: int, b: int) -> tuple[int, int]:
    """(senior, junior): more units wins; on a tie the player whose turn it is (EM-7.1)."""
    ua, ub = realm_units(s, a), realm_units(s, b)
    if ua > ub or (ua == ub and a == s.player):
        return a, b
    return b, a


def agree_merger(s: S, a: int, b: int) -> None:
    senior, junior = stronger(s, a, b)
    s.battle = None
    if junior == s.player:
        # the weaker player whose turn it is still has his phase 5 first
        s.merge = (senior, junior)
        _add_log(
            s, "{} will merge into {}'s state after phase 5", SEAT_NAMES[junior], SEAT_NAMES[senior]
        )
        enter_phase5(s)
    else:
        do_merge(s, senior, junior)
        settle_expand(s)


def one_realm_left(s: S) -> bool:
    """The early end by elimination (EM-3.4)."""
    if not all(s.started):
        return False
    return sum(1 for x in range(s.game.tables.n) if is_alive(s, x)) <= 1


def end_turn(s: S) -> None:
    t = s.game.tables
    n = t.n
    if s.merge is not None:
        do_merge(s, *s.merge)
        s.merge = None
    me = s.player
    s.battle = None
    s.moved = ()
    s.claims = _set_claim(
        s.claims, me, is_independent(s, me) and control(s, me) >= t.victory_provinces
    )
    if s.turn >= t.turns or one_realm_left(s):
        s.phase = END
        return
    nxt = -1
    for i in range(1, n + 1):
        x = (me + i) % n
        if is_alive(s, x):
            nxt = x
            break
    if nxt < 0 or (nxt == me and all(s.started)):
        s.phase = END
        return
    if s.claims[nxt] and control(s, nxt) >= t.victory_provinces:
        # he held 15 provinces since the end of his last turn (EM-3.3)
        _add_log(s, "{} still holds {} provinces: the game ends", SEAT_NAMES[nxt], control(s, nxt))
        s.phase = END
        return
    s.claims = _set_claim(s.claims, nxt, False)
    s.turn += 1
    begin_turn(s, nxt)


def _set_started(started: tuple[bool, ...], i: int) -> tuple[bool, ...]:
    return (*started[:i], True, *started[i + 1 :])


def _set_claim(claims: tuple[bool, ...], i: int, v: bool) -> tuple[bool, ...]:
    return (*claims[:i], v, *claims[i + 1 :])


def _check_elimination(s: S) -> None:
    if s.phase != END and one_realm_left(s):
        _add_log(s, "one state is left: the game ends")
        s.phase = END


# only these remove a realm's last units or merge two realms
# By exact type (actions are final dataclasses): a set lookup, not an isinstance chain.
_UNIT_LOSERS: Final[frozenset[type[Action]]] = frozenset(
    (Die, Endure, Accept, DrawYin, DrawYang, Advance, Retreat)
)


def apply(state: S, a: Action) -> S:
    s = state.draft()
    kind = type(a)
    _HANDLERS[kind](s, a)
    if kind in _UNIT_LOSERS:
        _check_elimination(s)
    # What was memoised while the draft was still changing may be out of date.
    s._cache = None
    # Who moves, kept in the successor: written here, not by the core (docs/engine.md).
    s._player = current_player(s)
    return s.freeze()


def _on_move(s: S, a: Action) -> None:
    assert isinstance(a, Move)
    t = s.game.tables
    ix = t.index
    me = s.player
    src, dst = ix[a.src], ix[a.dst]
    _set_units(s, src, s.units[src] - a.n, me)
    arrive = min(t.cap, s.units[dst] + a.n)
    # the surplus over the cap is taken from the newcomers
    s.moved = _set(s.moved, dst, s.moved[dst] + arrive - s.units[dst])
    _set_units(s, dst, arrive, me)
    _add_log(s, "{}: {}", SEAT_NAMES[me], a)
    settle_move(s)


def _on_grow(s: S, a: Action) -> None:
    assert isinstance(a, Grow)
    t = s.game.tables
    ix = t.index
    me = s.player
    p = ix[a.province]
    due = t.growth_base if s.growth[0] < 0 else 1
    n = min(due, supply(s, me), t.cap - s.units[p])
    _set_units(s, p, s.units[p] + n, me)
    s.growth = s.growth[1:]
    _add_log(s, "{}: {} (+{})", SEAT_NAMES[me], a, n)
    settle_growth(s)


def _on_done(s: S, a: Action) -> None:
    assert isinstance(a, Done)
    me = s.player
    _add_log(s, "{}: done with {}", SEAT_NAMES[me], s.phase)
    if s.phase == COLONISE:
        settle_move(s, fresh=True)
    elif s.phase == MOVE:
        s.moved = ()
        settle_expand(s)
    else:
        enter_phase5(s)


def _on_die(s: S, a: Action) -> None:
    assert isinstance(a, Die)
    t = s.game.tables
    me = s.player
    assert s.battle is not None
    src, dst, _ = s.battle
    if a.face % 2 == 0:
        _set_units(s, dst, s.units[dst] - 1, s.owner[dst])
    else:
        _set_units(s, src, s.units[src] - 1, me)
    _add_log(s, "die {}: {} {}, {} {}", a.face, t.ids[src], s.units[src], t.ids[dst], s.units[dst])
    if s.units[dst] == 0:
        s.phase = ADVANCE
        s.decider = me
    elif s.units[src] == 0:
        settle_expand(s)
    else:
        s.phase = DEFENDER
        s.decider = s.owner[dst]


def _on_stand(s: S, a: Action) -> None:
    assert isinstance(a, Stand)
    me = s.player
    s.phase = ATTACKER
    s.decider = me


def _on_roll(s: S, a: Action) -> None:
    assert isinstance(a, Roll)
    s.phase = DIE


def _on_colonise(s: S, a: Action) -> None:
    assert isinstance(a, Colonise)
    t = s.game.tables
    ix = t.index
    me = s.player
    src, dst = ix[a.src], ix[a.dst]
    _set_units(s, src, s.units[src] - 3, me)
    _set_units(s, dst, 3, me)
    _add_log(s, "{}: {}", SEAT_NAMES[me], a)
    settle_colonise(s)


def _on_attack(s: S, a: Action) -> None:
    assert isinstance(a, Attack)
    t = s.game.tables
    ix = t.index
    me = s.player
    src, dst = ix[a.src], ix[a.dst]
    k = card_for(s, src, dst)
    if k >= 0:
        s.hands = _set_hand(s.hands, me, _set(s.hands[me], k, s.hands[me][k] - 1))
        s.yang_out = _set(s.yang_out, k, s.yang_out[k] + 1)
    s.attacked = (*s.attacked, (src, dst))
    s.battle = (src, dst, 0)
    s.phase = DEFENDER
    s.decider = s.owner[dst]
    if k >= 0:
        _add_log(s, "{}: {} with a {} card", SEAT_NAMES[me], a, t.yang_kinds[k])
    else:
        _add_log(s, "{}: {}", SEAT_NAMES[me], a)


def _on_withdraw(s: S, a: Action) -> None:
    assert isinstance(a, Withdraw)
    me = s.player
    _add_log(s, "{}: withdraw", SEAT_NAMES[me])
    settle_expand(s)


def _on_retreat(s: S, a: Action) -> None:
    assert isinstance(a, Retreat)
    t = s.game.tables
    ix = t.index
    me = s.player
    assert s.battle is not None
    dst, q = s.battle[1], ix[a.province]
    d = s.owner[dst]
    k = -1 if t.open_borders else card_for(s, dst, q)
    if k >= 0:
        s.hands = _set_hand(s.hands, d, _set(s.hands[d], k, s.hands[d][k] - 1))
        s.yang_out = _set(s.yang_out, k, s.yang_out[k] + 1)
    _set_units(s, q, min(t.cap, s.units[q] + s.units[dst]), d)
    _set_units(s, dst, 0, -1)
    _add_log(s, "{}: {}", SEAT_NAMES[d], a)
    s.phase = ADVANCE
    s.decider = me


def _on_advance(s: S, a: Action) -> None:
    assert isinstance(a, Advance)
    t = s.game.tables
    me = s.player
    assert s.battle is not None
    src, dst, _ = s.battle
    if a.n:
        _set_units(s, src, s.units[src] - a.n, me)
        _set_units(s, dst, a.n, me)
        s.conquered = (*s.conquered, dst)
    _add_log(s, "{}: {} into {}", SEAT_NAMES[me], a, t.ids[dst])
    settle_expand(s)


def _on_offer_merger(s: S, a: Action) -> None:
    assert isinstance(a, OfferMerger)
    me = s.player
    assert s.battle is not None
    s.battle = (s.battle[0], s.battle[1], 1)
    _add_log(s, "{}: offers a merger", SEAT_NAMES[s.decider])
    s.phase = REPLY
    s.decider = me


def _on_propose_merger(s: S, a: Action) -> None:
    assert isinstance(a, ProposeMerger)
    me = s.player
    s.proposed = (*s.proposed, a.seat)
    _add_log(s, "{}: offers {} a merger", SEAT_NAMES[me], SEAT_NAMES[a.seat])
    s.phase = REPLY
    s.decider = a.seat


def _on_accept(s: S, a: Action) -> None:
    assert isinstance(a, Accept)
    me = s.player
    _add_log(s, "{}: accepts the merger", SEAT_NAMES[s.decider])
    if s.battle is not None:
        agree_merger(s, me, s.owner[s.battle[1]])
    else:
        agree_merger(s, me, s.decider)


def _on_refuse(s: S, a: Action) -> None:
    assert isinstance(a, Refuse)
    me = s.player
    _add_log(s, "{}: refuses the merger", SEAT_NAMES[s.decider])
    if s.battle is not None:
        s.phase = ATTACKER
        s.decider = me
    else:
        settle_expand(s)


def _on_start(s: S, a: Action) -> None:
    assert isinstance(a, Start)
    t = s.game.tables
    ix = t.index
    me = s.player
    p = ix[a.province]
    _set_units(s, p, min(t.start_units, supply(s, me)), me)
    s.chosen = (*s.chosen, p)
    _add_log(s, "{}: {}", SEAT_NAMES[me], a)
    if len(s.chosen) >= t.start_count or not start_open(s):
        s.started = _set_started(s.started, me)
        s.chosen = ()
        settle_colonise(s)


def _on_assign_yang(s: S, a: Action) -> None:
    assert isinstance(a, AssignYang)
    t = s.game.tables
    ix = t.index
    me = s.player
    s.yang_at = ix[a.province]
    _add_log(s, "{}: {}", SEAT_NAMES[me], a)
    if sum(s.yin_deck):
        s.phase = YIN
    else:
        after_assignments(s)


def _on_assign_yin(s: S, a: Action) -> None:
    assert isinstance(a, AssignYin)
    t = s.game.tables
    ix = t.index
    me = s.player
    s.yin_at = ix[a.province]
    _add_log(s, "{}: {}", SEAT_NAMES[me], a)
    after_assignments(s)


def _on_draw_yin(s: S, a: Action) -> None:
    assert isinstance(a, DrawYin)
    t = s.game.tables
    k = t.yin_index[a.kind]
    s.yin_deck = _set(s.yin_deck, k, s.yin_deck[k] - 1)
    s.yin_card = k
    _add_log(s, "yin card: {} in {}", a.kind, t.ids[s.yin_at])
    if s.yang_at >= 0:
        s.phase = DRAW_YANG
    else:
        resolve_cards(s)


def _on_draw_yang(s: S, a: Action) -> None:
    assert isinstance(a, DrawYang)
    t = s.game.tables
    k = t.yang_index[a.kind]
    s.yang_deck = _set(s.yang_deck, k, s.yang_deck[k] - 1)
    s.fresh = k
    resolve_cards(s)


def _on_defend(s: S, a: Action) -> None:
    assert isinstance(a, Defend)
    t = s.game.tables
    me = s.player
    k = _shield_kind(s)
    d = s.decider
    if d == me and s.fresh == k and s.yang_at == s.yin_at:
        s.fresh = -1
    else:
        s.hands = _set_hand(s.hands, d, _set(s.hands[d], k, s.hands[d][k] - 1))
    s.yang_out = _set(s.yang_out, k, s.yang_out[k] + 1)
    _add_log(s, "{}: defends {} with a {} card", SEAT_NAMES[d], t.ids[s.yin_at], t.yang_kinds[k])
    s.decider = me
    settle_yang(s)


def _on_endure(s: S, a: Action) -> None:
    assert isinstance(a, Endure)
    me = s.player
    _yin_loss(s)
    s.decider = me
    settle_yang(s)


# --- explanations --------------------------------------------------------------------
PHASE_OF: dict[type, tuple[str, ...]] = {
    Start: (START,),
    Grow: (GROWTH,),
    Colonise: (COLONISE,),
    Move: (MOVE,),
    Attack: (EXPAND,),
    ProposeMerger: (EXPAND,),
    Done: (COLONISE, MOVE, EXPAND),
    Accept: (REPLY,),
    Refuse: (REPLY,),
    Stand: (DEFENDER,),
    Retreat: (DEFENDER,),
    OfferMerger: (DEFENDER,),
    Roll: (ATTACKER,),
    Withdraw: (ATTACKER,),
    Advance: (ADVANCE,),
    AssignYang: (YANG,),
    AssignYin: (YIN,),
    Defend: (SHIELD,),
    Endure: (SHIELD,),
}

RULE_OF_PHASE = {
    START: "EM-4.1",
    GROWTH: "EM-4.2",
    COLONISE: "EM-5.1",
    MOVE: "EM-6.1",
    EXPAND: "EM-7.1",
    REPLY: "EM-7.1",
    DEFENDER: "EM-7.5",
    ATTACKER: "EM-7.4",
    DIE: "EM-7.4",
    ADVANCE: "EM-7.7",
    YANG: "EM-8.1",
    YIN: "EM-8.1",
    DRAW_YIN: "EM-8.1",
    DRAW_YANG: "EM-8.1",
    SHIELD: "EM-8.2",
    END: "EM-3.2",
}


def why_illegal(s: S, a: Action) -> tuple[str, str]:
    t = s.game.tables
    if isinstance(a, (Die, DrawYin, DrawYang)):
        return ("EM-3.1", f"{a} is a chance outcome, and chance does not decide now")
    phases = PHASE_OF.get(type(a), ())
    if s.phase not in phases:
        return (
            RULE_OF_PHASE[s.phase],
            f"it is the {s.phase} step ({seat_name(s.current_player())} decides); "
            f"'{a}' belongs to the {' or '.join(phases)} step",
        )
    me = s.player

    def name(p: int) -> str:
        return t.ids[p]

    if isinstance(a, Start):
        p = t.index[a.province]
        if s.owner[p] != -1:
            return ("EM-4.1", f"{a.province} is already occupied; a start province must be empty")
        if s.chosen and p not in {q for c in s.chosen for q in t.nbrs[c]}:
            return ("EM-4.1", f"{a.province} does not border the provinces already taken this turn")
        return (
            "EM-4.1",
            f"no group of {t.start_count} adjacent empty provinces can be completed from {a.province}",
        )
    if isinstance(a, Grow):
        p = t.index[a.province]
        if s.owner[p] != me:
            return (
                "EM-4.2",
                f"growth goes only into your own provinces, and {a.province} is not yours",
            )
        if s.units[p] >= t.cap:
            return (
                "EM-2.3",
                f"{a.province} already holds {t.cap} units, the most a province may hold",
            )
        head = s.growth[0]
        return (
            "EM-4.3",
            f"the unit due from the marker in {name(head)} goes into {name(head)} or an own neighbour of it",
        )
    if isinstance(a, (Colonise, Move, Attack)):
        src, dst = t.index[a.src], t.index[a.dst]
        if s.owner[src] != me:
            return (RULE_OF_PHASE[s.phase], f"{a.src} is not your province")
        if dst not in t.nbrs[src]:
            return (RULE_OF_PHASE[s.phase], f"{a.src} and {a.dst} do not share a border")
        blocked = t.block[src][dst]
        if isinstance(a, Colonise):
            if s.owner[dst] != -1:
                return ("EM-5.1", f"{a.dst} is occupied; only an empty province can be colonised")
            if s.units[src] == 1:
                return ("EM-5.1", f"{a.src} holds 1 unit; three go and at least one must stay")
            if s.units[src] < 4:
                return (
                    "EM-5.1",
                    f"{a.src} holds {s.units[src]} units; three go and at least one must stay",
                )
            return ("EM-2.2", f"the border {a.src}-{a.dst} is blocked by {kind_name(blocked)}")
        if isinstance(a, Move):
            if s.owner[dst] != me:
                return (
                    "EM-6.1",
                    f"units move only into your own provinces, and {a.dst} is not yours",
                )
            if blocked != NORMAL and not t.open_borders:
                return ("EM-2.2", f"the border {a.src}-{a.dst} is blocked by {kind_name(blocked)}")
            free = s.units[src] - s.moved[src]
            if free == 1:
                return ("EM-6.1", f"only 1 unit in {a.src} has not yet crossed a border this phase")
            return (
                "EM-6.1",
                f"only {free} units in {a.src} have not yet crossed a border this phase",
            )
        if s.owner[dst] == -1 or s.owner[dst] == me:
            return ("EM-7.2", f"{a.dst} holds no opponent's units to attack")
        if (src, dst) in s.attacked:
            return ("EM-7.2", f"{a.dst} was already attacked from {a.src} this turn")
        if src in s.conquered:
            return ("EM-7.7", f"the units in {a.src} moved in after a conquest and attack no more")
        return (
            "EM-7.3",
            f"the border {a.src}-{a.dst} is blocked by {kind_name(blocked)}"
            f" and you hold no {kind_name(blocked)} card",
        )
    if isinstance(a, ProposeMerger):
        x = a.seat
        if x == me:
            return ("EM-7.1", "a state cannot merge with itself")
        if x in s.proposed:
            return ("EM-7.1", f"{seat_name(x)} has already been offered a merger this turn")
        return ("EM-7.1", f"{seat_name(x)} leads no state of his own that holds a province")
    if isinstance(a, Retreat):
        assert s.battle is not None
        dst = s.battle[1]
        q = t.index[a.province]
        if q not in t.nbrs[dst] or s.owner[q] != s.owner[dst]:
            return ("EM-7.5", f"{a.province} is not one of the defender's neighbouring provinces")
        blocked = t.block[dst][q]
        return ("EM-7.5", f"the retreat crosses {blocked} and the defender holds no {blocked} card")
    if isinstance(a, OfferMerger):
        return ("EM-7.6", "the defender has already offered a merger in this attack")
    if isinstance(a, Advance):
        assert s.battle is not None
        most = min(s.units[s.battle[0]], t.cap)
        if most == 1:
            return ("EM-7.7", f"only 1 unit can follow from {name(s.battle[0])}")
        return ("EM-7.7", f"only up to {most} units can follow from {name(s.battle[0])}")
    if isinstance(a, Defend):
        return ("EM-8.2", f"{seat_name(s.decider)} has no matching defence card to play")
    if isinstance(a, AssignYin):
        return (
            "EM-8.1",
            f"a yin card is the drawer's own misfortune and goes to one of his provinces, "
            f"and {a.province} is not his",
        )
    return ("ENGINE-2", f"{a} is not one of the actions open now")


def kind_name(kind: str) -> str:
    """An obstacle's or a yang card's name as a sentence says it (`great_wall`: "great
    wall"); the catalogues translate that name as a word."""
    return kind.replace("_", " ")


def describe(s: S, a: Action) -> str:
    t = s.game.tables
    if isinstance(a, Start):
        return f"occupies the empty province {a.province} with {t.start_units} units"
    if isinstance(a, Grow):
        due = t.growth_base if s.growth[0] < 0 else 1
        if due == 1:
            return f"places 1 new unit in {a.province}"
        return f"places {due} new units in {a.province}"
    if isinstance(a, Colonise):
        return f"moves 3 units from {a.src} to colonise the empty province {a.dst}"
    if isinstance(a, Move):
        if a.n == 1:
            return f"moves 1 unit from {a.src} into {a.dst}"
        return f"moves {a.n} units from {a.src} into {a.dst}"
    if isinstance(a, Attack):
        k = card_for(s, t.index[a.src], t.index[a.dst])
        if k >= 0:
            return f"attacks {a.dst} from {a.src}, spending a {kind_name(t.yang_kinds[k])} card"
        return f"attacks {a.dst} from {a.src}"
    if isinstance(a, ProposeMerger):
        return f"offers {seat_name(a.seat)} to merge the two states"
    if isinstance(a, Accept):
        return "agrees to the merger: the weaker state becomes the junior partner"
    if isinstance(a, Refuse):
        return "refuses the merger"
    if isinstance(a, Stand):
        return "the defender stays for the next roll"
    if isinstance(a, Retreat):
        return f"the defender withdraws every unit into {a.province}"
    if isinstance(a, OfferMerger):
        return "the defender offers the attacker a merger"
    if isinstance(a, Roll):
        return "rolls the die: even costs the defender a unit, odd the attacker"
    if isinstance(a, Withdraw):
        return "calls the attack off"
    if isinstance(a, Advance):
        if a.n == 1:
            return "moves 1 unit into the conquered province"
        return f"moves {a.n} units into the conquered province"
    if isinstance(a, AssignYang):
        return f"assigns the face-down yang card to {a.province}"
    if isinstance(a, AssignYin):
        return f"assigns the face-down yin card to {a.province}"
    if isinstance(a, Defend):
        return "plays the matching defence card; no unit is lost"
    if isinstance(a, Endure):
        return "takes the loss the yin card brings"
    if isinstance(a, Done):
        return f"ends the {s.phase} phase"
    if isinstance(a, Die) and s.battle is not None:
        src, dst, _ = s.battle
        if a.face % 2 == 0:
            return f"the die shows {a.face}: the defender loses a unit in {t.ids[dst]}"
        return f"the die shows {a.face}: the attacker loses a unit in {t.ids[src]}"
    if isinstance(a, DrawYin):
        return f"a yin card is drawn: {kind_name(a.kind)}"
    if isinstance(a, DrawYang):
        return f"{seat_name(s.player)} draws a yang card: {kind_name(a.kind)}"
    return f"chance: {a}"


_HANDLERS: Final[dict[type[Action], Callable[[S, Action], None]]] = {
    Move: _on_move,
    Grow: _on_grow,
    Done: _on_done,
    Die: _on_die,
    Stand: _on_stand,
    Roll: _on_roll,
    Colonise: _on_colonise,
    Attack: _on_attack,
    Withdraw: _on_withdraw,
    Retreat: _on_retreat,
    Advance: _on_advance,
    OfferMerger: _on_offer_merger,
    ProposeMerger: _on_propose_merger,
    Accept: _on_accept,
    Refuse: _on_refuse,
    Start: _on_start,
    AssignYang: _on_assign_yang,
    AssignYin: _on_assign_yin,
    DrawYin: _on_draw_yin,
    DrawYang: _on_draw_yang,
    Defend: _on_defend,
    Endure: _on_endure,
}


def scores(s: S) -> list[float]:
    return [float(v) for v in seat_scores(s)]


# --- events: what each action tells each seat ----------------------------------------
def event(s: S, a: Action, after: S) -> Event:
    """A drawn yang card is told to its drawer alone until it is shown (EM-8.1); dice,
    yin cards and everything done on the map are public."""
    who = seat_name(s.player)
    if isinstance(a, DrawYang):
        return Event.private(f"{who} draws the {a}", {s.player}, f"{who} draws a yang card")
    if s.phase in CHANCE_PHASES:
        return Event.public(f"chance: {a}", reveals=True)
    return Event.public(f"{seat_name(s.decider)}: {a}")
