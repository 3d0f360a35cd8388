"""What a browser's table needs beside the engine's view: moves in words, what just
happened, the players' panels and the summary at the end.

Everything here is read from what the viewer may see: its envelope, the log as
`events_for` gives it to that viewer, and the seats' public facts (names, kinds, who is
connected). The page holds no rule; it reads these fields.
"""

from __future__ import annotations

import json
import re
from collections import OrderedDict
from collections.abc import Callable, Mapping, Sequence
from difflib import SequenceMatcher
from importlib import import_module
from typing import TYPE_CHECKING, Any
from weakref import WeakKeyDictionary

from tianxia.core import CHANCE, Match, State

if TYPE_CHECKING:
    from tianxia.server.live import Connection, LiveGame

# How far back "what just happened" looks at most: one round of a seven-seat game with
# its chance events, and a bound on the work for a viewer who has not moved for long.
RECENT_LIMIT = 40

_SEAT = re.compile(r"^P[1-9]\s+")


def move_text(explain: str, lang: str) -> str:
    """The move as a button reads: the explanation without its "legal:" prefix and
    without the mover's own seat as its subject ("Places a house on Chu.1, ...")."""
    from tianxia.web.i18n import translations

    prefix = str(translations(lang).pgettext("SENTENCE", "legal: {0}")).split("{0}")[0]
    text = explain
    for p in (prefix, "legal: "):
        if p and text.startswith(p):
            text = text[len(p) :]
            break
    text = _SEAT.sub("", text, count=1)
    return text[:1].upper() + text[1:]


# The board's SVG cut into tags (each piece ends with ">"): the page cuts it the same way
# (static/table.js) to apply a patch.
_TAGS = re.compile(r"[^>]*>|[^>]+\Z")


def log_words(subject: str, sentence: str, lang: str, game: str) -> str:
    """A log line in words (`Table.words`) in `lang`: the game's sentence translated,
    after the seat that decided where the sentence does not name it itself."""
    from tianxia.web.sentences import log_sentence

    text = subject + log_sentence(sentence, lang, game)
    return text[:1].upper() + text[1:]


def board_patch(old: str, new: str) -> list[int | str]:
    """`new` as edits of `old`, tag by tag: a positive number keeps that many tags of
    `old`, a negative one drops that many, a string is inserted. A move changes a few
    places of a board of thousands of tags: the patch is a tenth of the board or less."""
    a, b = _TAGS.findall(old), _TAGS.findall(new)
    head = 0
    while head < len(a) and head < len(b) and a[head] == b[head]:
        head += 1
    tail = 0
    while tail < len(a) - head and tail < len(b) - head and a[-1 - tail] == b[-1 - tail]:
        tail += 1
    ops: list[int | str] = [head] if head else []
    mid_b = b[head : len(b) - tail]
    matcher = SequenceMatcher(None, a[head : len(a) - tail], mid_b)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            ops.append(i2 - i1)
            continue
        if i2 > i1:
            ops.append(-(i2 - i1))
        if j2 > j1:
            ops.append("".join(mid_b[j1:j2]))
    if tail:
        ops.append(tail)
    return ops


def apply_patch(old: str, ops: Sequence[int | str]) -> str:
    """The board a patch of `old` makes (what the page does)."""
    a = _TAGS.findall(old)
    out: list[str] = []
    i = 0
    for op in ops:
        if isinstance(op, str):
            out.append(op)
        elif op > 0:
            out.extend(a[i : i + op])
            i += op
        else:
            i -= op
    return "".join(out)


# The last board sent on each browser's connection: the next view sends a patch of it.
_sent_boards: WeakKeyDictionary[Connection, str] = WeakKeyDictionary()
# The patches last computed, by (board before, board after): the connections of one seat
# and language, and the spectators, were sent the same board and are sent the same patch.
_patches: OrderedDict[tuple[str, str], list[int | str] | None] = OrderedDict()
PATCHES = 16


def patch_of(before: str, after: str) -> list[int | str] | None:
    """`board_patch(before, after)`, or None where the board whole is not twice as long
    as the patch; computed once for every connection that goes from one to the other."""
    key = (before, after)
    if key in _patches:
        _patches.move_to_end(key)
        return _patches[key]
    ops: list[int | str] | None = board_patch(before, after)
    if len(json.dumps(ops)) * 2 >= len(after):
        ops = None
    _patches[key] = ops
    while len(_patches) > PATCHES:
        _patches.popitem(last=False)
    return ops


def board_for(conn: Connection, svg: str) -> dict[str, Any]:
    """The board for `conn`: a patch of the last board it was sent, where smaller, or
    the board whole."""
    before = _sent_boards.get(conn)
    _sent_boards[conn] = svg
    if before is not None:
        ops = patch_of(before, svg)
        if ops is not None:
            return {"board_patch": ops}
    return {"board": svg}


def recent_start(match: Match, viewer: int | None) -> int:
    """Where "what just happened" begins for `viewer`: after its own last decision (a
    spectator: the last round, back to the second decision of one seat)."""
    start = match.seq
    seen: set[int] = set()
    while start > 0 and match.seq - start < RECENT_LIMIT:
        who = match.seat_of(start - 1)
        if who != CHANCE:
            if viewer is not None and who == viewer:
                break
            if viewer is None:
                if who in seen:
                    break
                seen.add(who)
        start -= 1
    return start


def recent_moves(
    match: Match, viewer: int | None, start: int | None = None
) -> list[tuple[int | None, str]]:
    """(seat, notation) of the moves since `viewer`'s own last decision, as `viewer` may
    know them (a move it may not see is left out)."""
    if start is None:
        start = recent_start(match, viewer)
    out: list[tuple[int | None, str]] = []
    for e in match.events_for(viewer, since=start):
        if e.get("action") is not None:
            out.append((e["seat"], str(e["action"])))
    return out


def _ends_game(state: State, action: str) -> bool:
    try:
        return state.apply(state.to_action(action)).is_terminal()
    except Exception:  # a move the engine would refuse asks nothing
        return False


def confirmations(
    game_name: str,
    state: State,
    legal: Sequence[str],
    board_input: Any,
    gettext: Callable[[str], str],
) -> dict[str, str]:
    """The moves that ask before they are sent, with what to ask: the title's own
    questions (`confirm` in its board module), and for every title a move after which
    the game is over."""
    try:
        module = import_module(f"tianxia.web.boards.{game_name}")
    except ModuleNotFoundError:
        module = None
    own = getattr(module, "confirm", None)
    out: dict[str, str] = {}
    for action in legal:
        asked = own(action, board_input) if own is not None else None
        if asked:
            out[action] = asked
        elif _ends_game(state, action):
            out[action] = gettext("This ends the game. Play this move?")
    return out


def _hand_size(body: Mapping[str, Any], seat: int) -> int | None:
    sizes = body.get("hand_sizes")
    if isinstance(sizes, list) and seat < len(sizes) and isinstance(sizes[seat], int):
        return sizes[seat]
    players = body.get("players")
    if isinstance(players, list) and seat < len(players) and isinstance(players[seat], dict):
        size = players[seat].get("hand_size")
        if isinstance(size, int):
            return size
    return None


def players(
    seats: Sequence[Mapping[str, Any]], envelope: Mapping[str, Any]
) -> list[dict[str, Any]]:
    """One panel per seat: the name used everywhere, its public score and hand size,
    whether it decides now and whether a window of its player is open (`present`)."""
    scores = envelope.get("scores") or []
    body = envelope.get("body") or {}
    to_move = envelope.get("to_move")
    out = []
    for s in seats:
        i = int(s["seat"])
        out.append(
            {
                "seat": i,
                "name": s["name"],
                "kind": s["kind"],
                "bot": s["kind"] == "bot" or bool(s.get("bot_playing")),
                "score": scores[i] if i < len(scores) else None,
                "hand": _hand_size(body, i),
                "turn": to_move == i and not envelope.get("terminal"),
                "present": bool(s.get("present")),
            }
        )
    return out


def summary(
    state: State, envelope: Mapping[str, Any], gettext: Callable[[str], str] = str
) -> dict[str, Any]:
    """The end: every seat's rank (ties share one), score and, where the observation
    tells them, the parts its score is made of."""
    # A game's returns may say only who won (China's do): the seats behind the winner
    # are ordered by their points, as the players count them.
    order = list(zip(state.returns(), state.scores(), strict=True))
    ranks = [1 + sum(1 for other in order if other > mine) for mine in order]
    body = envelope.get("body") or {}
    parts: list[dict[str, Any]] | None = None
    final = body.get("final")
    if isinstance(final, list) and all(isinstance(p, dict) for p in final):
        parts = [dict(p) for p in final]
        scores = envelope.get("scores") or []
        for seat, p in enumerate(parts):
            # What the final scoring did not give was scored during the game.
            if seat < len(scores) and isinstance(scores[seat], int | float):
                earlier = scores[seat] - sum(v for v in p.values() if isinstance(v, int | float))
                if earlier:
                    p["during the game"] = earlier
    note = ""
    if parts is None:
        parts, note = _board_parts(state.game.NAME, body, envelope.get("scores") or [])
    labels: dict[str, str] = {}
    for p in parts or []:
        for key in p:
            labels[key] = gettext("during the game") if key == "during the game" else gettext(key)
    return {
        "ranks": ranks,
        "scores": list(envelope.get("scores") or []),
        "parts": parts,
        "labels": labels,
        "note": gettext(note) if note else "",
    }


def _board_parts(
    game_name: str, body: Mapping[str, Any], scores: Sequence[Any]
) -> tuple[list[dict[str, Any]] | None, str]:
    """A title whose observation has no final scoring of its own: the parts of each
    seat's score and a sentence on how the winner was found, where its board module
    says them (`score_parts`)."""
    try:
        module = import_module(f"tianxia.web.boards.{game_name}")
    except ModuleNotFoundError:
        return None, ""
    own = getattr(module, "score_parts", None)
    if own is None:
        return None, ""
    found: tuple[list[dict[str, Any]] | None, str] = own(body, scores)
    return found


def with_words(
    live: LiveGame, seat: int | None, lang: str, events: Sequence[Mapping[str, Any]]
) -> list[dict[str, Any]]:
    """`events` (of `seat`'s view) each with its words in `lang` (`Table.words`), beside
    the engine's lines, which stay for "Show notation"."""
    table = live.table
    out = []
    for event in events:
        subject, sentence = table.words(int(event["seq"]) - 1, seat)
        out.append({**event, "words": log_words(subject, sentence, lang, live.game.NAME)})
    return out


def table_fields(
    live: LiveGame,
    seat: int | None,
    lang: str,
    envelope: Mapping[str, Any],
    legal: Sequence[Mapping[str, Any]],
) -> tuple[dict[str, Any], str]:
    """The fields a browser's view of `seat` in `lang` carries beyond the engine's, alike
    for every connection that sees it: each legal move with its sentence and question,
    the recent moves, the players' panels, and at the end the summary and the rematch;
    and apart, the board as SVG with the legal moves placed on it (each connection is
    sent it whole or as a patch of the last board it was sent, `board_for`)."""
    from tianxia.web.boards import BoardInput, render
    from tianxia.web.i18n import gettext_for, seat_label

    gettext = gettext_for(lang)
    table = live.table
    seats = [{**s, "name": seat_label(str(s["name"]), lang)} for s in live.seat_list()]
    names = [str(s["name"]) for s in seats]
    # A spectator's "recent" is the last round; a seat's, what others did since its move.
    start = recent_start(table.match, seat)
    recent = recent_moves(table.match, seat, start)
    actions = [str(a["action"]) for a in legal]
    drawn = render(live.game, envelope, actions, gettext, names, recent)
    asks: dict[str, str] = {}
    if actions:
        board_input = BoardInput(
            live.game, live.game.layout(), envelope, actions, gettext, names, recent
        )
        asks = confirmations(live.game.NAME, table.state, actions, board_input, gettext)
    from tianxia.web.sentences import place_names

    moves = []
    for entry in legal:
        text = move_text(place_names(str(entry["explain"]), live.game.NAME), lang)
        move = {**entry, "text": text}
        if entry["action"] in asks:
            move["confirm"] = asks[entry["action"]]
        moves.append(move)
    out: dict[str, Any] = {
        "legal": moves,
        "placed": sorted(drawn.placed),
        "recent": [list(r) for r in recent],
        "recent_from": start + 1,  # the first seq of the log that is recent
        "players": players(seats, envelope),
    }
    if table.state.is_terminal():
        out["summary"] = summary(table.state, envelope, gettext)
        # Each rated seat's rating before and after the game (kept with the game).
        out["summary"]["ratings"] = live.rating_changes
        out["rematch"] = live.rematch
    return out, drawn.svg


def replay_marks(match: Match) -> dict[str, Any]:
    """Where a replay stops when it steps by decision: after each decision and the chance
    events that follow it (a deal, a die), as one step. With them, where each round
    starts (the observation's `round` or numbered `turn`; else where the seat that
    decided first decides again) and which seat made each decision."""
    n = match.seq
    steps: list[int] = []
    seats: list[int] = []
    first = 0
    while first < n and match.seat_of(first) == CHANCE:
        first += 1
    steps.append(first)  # the opening deal folded into the start
    seats.append(-1)
    i = first
    while i < n:
        who = match.seat_of(i)
        j = i + 1
        while j < n and match.seat_of(j) == CHANCE:
            j += 1
        steps.append(j)
        seats.append(who)
        i = j
    rounds: list[int] = []
    last: object = None
    opener = seats[1] if len(seats) > 1 else -1
    for k, step in enumerate(steps[:-1]):
        body = match.history[step].observation(None)
        mark = body.get("round") if isinstance(body, dict) else None
        if not isinstance(mark, int):
            turn = body.get("turn") if isinstance(body, dict) else None
            mark = turn if isinstance(turn, int) else None
        if mark is None:
            # The seat to decide after this step opened the game: a new round.
            nxt = seats[k + 1] if k + 1 < len(seats) else -1
            prev = seats[k]
            if nxt == opener and prev != opener:
                rounds.append(step)
            continue
        if mark != last:
            rounds.append(step)
            last = mark
    if not rounds or rounds[0] != steps[0]:
        rounds.insert(0, steps[0])
    return {"decisions": steps, "seats": seats, "rounds": rounds}
