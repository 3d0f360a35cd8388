"""The lesson pages: `/learn/{game}` lists a title's lessons and plays them on its board.

A lesson is played against the server, which holds no game for it: each request sends
the lesson's moves played so far and the move tried, and the answer is built from the
lesson's position and the engine (`tianxia.web.lessons.answer`). So a lesson costs the
server one position and at most a few moves per request, and nothing is kept.
"""

from __future__ import annotations

import asyncio
import functools
import json
import tomllib
from collections import OrderedDict
from pathlib import Path
from typing import Any

from fastapi import FastAPI, HTTPException, Request
from fastapi.responses import HTMLResponse, Response
from pydantic import BaseModel, Field

import tianxia
from tianxia.core import IllegalActionError, NotationError
from tianxia.web import lessons
from tianxia.web.i18n import gettext_for


class HintAsk(BaseModel):
    """A seat's key: only the player of a seat is told what he could play there."""

    secret: str = Field(min_length=1, max_length=64)


# The hints thought of, by game, position (its number and the state's hash: an undo may
# bring another position under the same number), seat and language: a position is thought about
# once whoever asks again, so a player's asking costs the server at most one easy bot's
# move per move of the game.
_HINTS: OrderedDict[tuple[str, int, int, int, str], str] = OrderedDict()
_HINTS_KEPT = 512
_THINKING = asyncio.Semaphore(1)


def hint_for(state: Any, seat: int, seq: int, lang: str) -> str:
    """What the easy bot would play in `seat`'s place, and why, in words: the bot decides
    on what the seat may know (it samples the hidden rest), so the hint tells nothing the
    seat could not see."""
    from tianxia.play.table import make_bot
    from tianxia.web.sentences import translate_sentence

    bot = make_bot("easy", state.game, seat, seed=seq)
    bot.act(state)
    reason: str = bot.reason()  # type: ignore[attr-defined]
    return translate_sentence(reason, lang, state.game.NAME)


class Tried(BaseModel):
    """The lesson's moves played so far, and the move tried now (none: show the lesson)."""

    played: list[str] = Field(default_factory=list, max_length=8)
    move: str | None = Field(default=None, max_length=200)


def lesson_texts(lesson: lessons.Lesson, lang: str) -> dict[str, Any]:
    return {
        "id": lesson.id,
        "rules": list(lesson.rules),
        "example": lesson.example,
        "steps": len(lesson.expected),
        **{what: lesson.text(what, lang) for what in lessons.TEXTS},
    }


def _move_words(state: Any, action: str, lang: str, game: str) -> str:
    from tianxia.web.sentences import translate_sentence
    from tianxia.web.tableview import move_text

    return move_text(translate_sentence(state.explain(action), lang, game), lang)


def without_prompt(svg: str) -> str:
    """The board without its prompt (the line that asks the seat to move)."""
    import xml.etree.ElementTree as ET

    ET.register_namespace("", "http://www.w3.org/2000/svg")
    root = ET.fromstring(svg)
    for parent in list(root.iter()):
        for child in list(parent):
            if "prompt" in (child.get("class") or "").split():
                parent.remove(child)
    return ET.tostring(root, encoding="unicode")


def lesson_view(lesson: lessons.Lesson, tried: Tried, lang: str) -> dict[str, Any]:
    """The lesson's board and moves after `tried`, as the page draws them."""
    from tianxia.web.boards import render

    game = lesson.game()
    try:
        ans = lessons.answer(lesson, tried.played, tried.move)
    except IllegalActionError as e:
        from tianxia.web.sentences import translate_reason

        raise HTTPException(
            409, {"reason": translate_reason(e.rule, e.reason, lang), "rule": e.rule}
        ) from None
    except (NotationError, lessons.LessonError, ValueError) as e:
        raise HTTPException(400, str(e)) from None
    state = ans.state
    done = ans.outcome == "done"
    legal = [] if done else [str(a) for a in state.legal_actions()]
    seat = lesson.seat
    gettext = gettext_for(lang)
    recent: list[tuple[int | None, str]] = [(seat, a) for a in ans.played]
    board = render(game, state.envelope(seat), legal, gettext, list(lesson.names), recent)
    svg = board.svg
    if done:
        # The board's prompt speaks of the game's next decision; the lesson is over.
        svg = without_prompt(svg)
    out: dict[str, Any] = {
        "outcome": ans.outcome,
        "played": ans.played,
        "board": svg,
        "placed": sorted(board.placed),
        "legal": [{"action": a, "text": _move_words(state, a, lang, game.NAME)} for a in legal],
        "expected": lessons.expected_now(lesson, state, ans.played),
    }
    if ans.outcome == "hint" and ans.move is not None:
        out["hint"] = lesson.text("hint", lang)
        out["tried"] = _move_words(state, ans.move, lang, game.NAME)
    if done:
        out["result"] = lesson.text("result", lang)
    return out


HOWTO = Path(__file__).parent / "howto"


def _drawn(entry: Any, example: str) -> dict[str, str]:
    """A component's drawing: the CSS selectors of its parts and the lesson whose board,
    after its moves, shows them (the worked example's unless named)."""
    if isinstance(entry, str):
        return {"parts": entry, "lesson": example if entry else ""}
    return {"parts": str(entry["parts"]), "lesson": str(entry.get("lesson", example))}


@functools.cache
def howto(game: str, lang: str) -> dict[str, Any] | None:
    """How to play `game` in `lang` (English where a text is missing), from
    `howto/<game>.toml`; None for a title without one."""
    path = HOWTO / f"{game}.toml"
    if not path.exists():
        return None
    raw = tomllib.loads(path.read_text())
    words = {**raw["en"], **raw.get(lang, {})}
    return {
        "goal": " ".join(words["goal"].split()),
        "components": list(words["components"]),
        "drawn": [_drawn(d, raw["example"]) for d in raw.get("drawn", [])],
        "turn": list(words["turn"]),
        "scoring": " ".join(words["scoring"].split()),
        "example": raw.get("example"),
        "example_caption": " ".join(words.get("example_caption", "").split()),
        "choices": list(words["choices"]),
    }


def move_kind(action: str) -> str:
    """The kind of a move: the first word of its notation (`house`, `attack`, `bid`)."""
    return action.split(" ", 1)[0]


@functools.cache
def move_kinds(game: str, lang: str) -> dict[str, dict[str, str]]:
    """What "What can I do now?" says of each kind of move of `game` in `lang` (English
    where a text is missing), and the rule it links to: `howto/<game>.toml`'s `moves`."""
    path = HOWTO / f"{game}.toml"
    if not path.exists():
        return {}
    raw = tomllib.loads(path.read_text()).get("moves", {})
    return {
        kind: {"words": " ".join(str(m.get(lang) or m["en"]).split()), "rule": str(m["rule"])}
        for kind, m in raw.items()
    }


@functools.cache
def example_board(game: str, lesson_id: str, lang: str) -> str:
    """The board of a lesson after its moves, as its seat sees it: how to play's worked
    example."""
    from tianxia.web.boards import render

    lesson = _lesson(game, lesson_id)
    played: list[str] = []
    state = lesson.start()
    while len(played) < len(lesson.expected):
        played.append(lessons.expected_now(lesson, state, played)[0])
        state = lessons.answer(lesson, played, None).state
    recent: list[tuple[int | None, str]] = [(lesson.seat, a) for a in played]
    board = render(
        lesson.game(), state.envelope(lesson.seat), [], gettext_for(lang), lesson.names, recent
    )
    return board.svg


def _lesson(game: str, lesson_id: str) -> lessons.Lesson:
    if game not in tianxia.list_games():
        raise HTTPException(404, f"no game {game!r}")
    lesson = lessons.find(game, lesson_id) if len(lesson_id) <= 80 else None
    if lesson is None:
        raise HTTPException(404, f"no lesson {lesson_id!r} for {game}")
    return lesson


def add_learn(app: FastAPI) -> None:
    from tianxia.web.pages import language, page

    @app.get("/learn/{game}", response_class=HTMLResponse, include_in_schema=False)
    async def learn(request: Request, game: str) -> HTMLResponse:
        if game not in tianxia.list_games():
            raise HTTPException(404, f"no game {game!r}")
        lang = language(request)
        info = tianxia.load_game(game).info
        items = [lesson_texts(lesson, lang) for lesson in lessons.lessons(game)]
        return page(
            request,
            "learn.html",
            game_name=game,
            title=gettext_for(lang)(info.title),
            lessons=items,
            howto=howto(game, lang),
            players=info.players,
            lessons_json=json.dumps(items).replace("</", "<\\/"),
        )

    @app.get("/learn/{game}/example.svg", include_in_schema=False)
    async def example(request: Request, game: str) -> Response:
        """How to play's worked example: a lesson's board after its moves."""
        if game not in tianxia.list_games():
            raise HTTPException(404, f"no game {game!r}")
        lang = language(request)
        told = howto(game, lang)
        if told is None or not told["example"]:
            raise HTTPException(404, f"no worked example for {game}")
        # A component's drawing may come from another lesson's board (`drawn`).
        shown = request.query_params.get("lesson") or told["example"]
        if shown != told["example"] and shown not in {d["lesson"] for d in told["drawn"]}:
            raise HTTPException(404, f"no drawing of lesson {shown[:80]!r} for {game}")
        return Response(
            example_board(game, shown, lang),
            media_type="image/svg+xml",
            headers={"cache-control": "public, max-age=86400"},
        )

    @app.get("/learn/{game}/moves.json", include_in_schema=False)
    async def kinds(request: Request, game: str) -> Response:
        """The kinds of move of `game` in words, each with its rule: the table's and a
        lesson's "What can I do now?" list the kinds open now from it."""
        if game not in tianxia.list_games():
            raise HTTPException(404, f"no game {game!r}")
        return Response(
            json.dumps(move_kinds(game, language(request))),
            media_type="application/json",
            headers={"cache-control": "public, max-age=3600"},
        )

    @app.post("/api/learn/hint/{game_id}")
    async def hint(request: Request, game_id: str, body: HintAsk) -> dict[str, Any]:
        """A first game's hint line: what the easy bot would play in the asking seat's
        place now, in words (`hint`), or null when it is not that seat's turn."""
        hub = request.app.state.hub
        live = await hub.get(game_id) if len(game_id) <= 32 else None
        if live is None:
            raise HTTPException(404, "no such game")
        found = await hub.storage.run(hub.storage.store.seat_by_secret, body.secret)
        if found is None or found[0] != live.id:
            raise HTTPException(403, "this secret holds no seat of this game")
        seat = int(found[1])
        state = live.table.state
        seq = int(live.table.match.seq)
        if state.is_terminal() or state.current_player() != seat:
            return {"seq": seq, "hint": None}
        lang = language(request)
        key = (live.id, seq, hash(state), seat, lang)
        if key not in _HINTS:
            async with _THINKING:
                if key not in _HINTS:
                    words = await asyncio.to_thread(hint_for, state, seat, seq, lang)
                    _HINTS[key] = words
                    while len(_HINTS) > _HINTS_KEPT:
                        _HINTS.popitem(last=False)
        return {"seq": seq, "hint": _HINTS[key]}

    @app.post("/api/learn/{game}/{lesson_id}")
    async def lesson_move(
        request: Request, game: str, lesson_id: str, tried: Tried
    ) -> dict[str, Any]:
        """A lesson's board after the moves sent: `outcome` is "start", "step", "done"
        (with `result`) or "hint" (another legal move, not played: with `hint`)."""
        return lesson_view(_lesson(game, lesson_id), tried, language(request))
