"""The pages the server serves to browsers: lobby, table, replay and rules.

Pages are HTML from Jinja2 templates in the viewer's language; everything about a game
comes over the same websocket and JSON API any client uses. The scripts are plain
JavaScript files in `static/` with no dependencies and nothing fetched from elsewhere.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from fastapi import FastAPI, HTTPException, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from fastapi.staticfiles import StaticFiles
from jinja2 import Environment, FileSystemLoader, select_autoescape

import tianxia
from tianxia.play.table import STRENGTHS
from tianxia.web.i18n import LANG_NAMES, LANGS, js_strings, negotiate, translations

HERE = Path(__file__).parent
RULES = HERE.parents[2] / "docs" / "rules"


def _environment() -> Environment:
    env = Environment(
        loader=FileSystemLoader(HERE / "templates"),
        autoescape=select_autoescape(["html"]),
        extensions=["jinja2.ext.i18n"],
    )
    return env


ENV = _environment()


def catalogue() -> list[dict[str, Any]]:
    """Every title with its player counts and options, for the lobby's form."""
    out = []
    for name in tianxia.list_games():
        info = tianxia.load_game(name).info
        out.append(
            {
                "name": name,
                "title": info.title,
                "min_players": info.min_players,
                "max_players": info.max_players,
                "options": [
                    {
                        "name": o.name,
                        "choices": list(o.choices),
                        "default": o.default,
                        "help": o.help,
                    }
                    for o in info.option_specs
                ],
            }
        )
    return out


def language(request: Request) -> str:
    """The viewer's language: asked for in the address, chosen before, or the browser's."""
    return negotiate(
        request.query_params.get("lang"),
        request.cookies.get("lang"),
        request.headers.get("accept-language"),
    )


def rules_source(game: str, lang: str) -> Path:
    """A game's rules document in `lang` (docs/rules/<lang>/), else the English one."""
    translated = RULES / lang / f"{game}.md"
    return translated if lang != "en" and translated.exists() else RULES / f"{game}.md"


def page(request: Request, template: str, **context: Any) -> HTMLResponse:
    lang = language(request)
    env = ENV.overlay()
    env.install_gettext_translations(translations(lang), newstyle=True)  # type: ignore[attr-defined]
    html = env.get_template(template).render(
        lang=lang,
        langs=[(code, LANG_NAMES[code]) for code in LANGS],
        strings=json.dumps(js_strings(lang)),
        path=request.url.path,
        version=tianxia.__version__,
        **context,
    )
    response = HTMLResponse(html)
    if request.query_params.get("lang") in LANGS:
        response.set_cookie("lang", lang, max_age=365 * 24 * 3600, samesite="lax")
    return response


def add_pages(app: FastAPI) -> None:
    app.mount("/static", StaticFiles(directory=HERE / "static"), name="static")

    @app.get("/", response_class=HTMLResponse, include_in_schema=False)
    async def lobby(request: Request) -> HTMLResponse:
        games = catalogue()
        return page(
            request,
            "lobby.html",
            games=games,
            games_json=json.dumps(games),
            strengths=list(STRENGTHS),
        )

    @app.get("/games/{game_id}", response_class=HTMLResponse, include_in_schema=False)
    async def table(request: Request, game_id: str) -> HTMLResponse:
        live = await request.app.state.hub.get(game_id) if len(game_id) <= 32 else None
        if live is None:
            raise HTTPException(404, "no such game")
        return page(
            request,
            "table.html",
            game_id=game_id,
            game_name=live.game.NAME,
            title=live.game.info.title,
        )

    @app.get("/games/{game_id}/replay", response_class=HTMLResponse, include_in_schema=False)
    async def replay(request: Request, game_id: str) -> HTMLResponse:
        live = await request.app.state.hub.get(game_id) if len(game_id) <= 32 else None
        if live is None:
            raise HTTPException(404, "no such game")
        return page(
            request,
            "replay.html",
            game_id=game_id,
            title=live.game.info.title,
            players=live.game.players,
            finished=live.status == "finished",
        )

    @app.get("/rules/{game}", response_class=HTMLResponse, include_in_schema=False)
    async def rules(request: Request, game: str) -> HTMLResponse:
        if game not in tianxia.list_games():
            raise HTTPException(404, f"no game {game!r}")
        source = rules_source(game, language(request))
        if not source.exists():
            raise HTTPException(404, "the rules documents are not installed with this copy")
        from markdown_it import MarkdownIt
        from mdit_py_plugins.anchors import anchors_plugin

        # Headings carry ids so the documents' links to their own sections work.
        md = MarkdownIt("commonmark", {"html": False}).enable("table")
        body = md.use(anchors_plugin, max_level=3).render(source.read_text())
        return page(request, "rules.html", body=body, title=tianxia.load_game(game).info.title)

    @app.get("/favicon.ico", include_in_schema=False)
    async def favicon() -> Response:
        return RedirectResponse("/static/favicon.svg")
