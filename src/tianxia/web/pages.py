"""The pages the server serves to browsers: lobby, table, replay and rules.

Pages are HTML from Jinja2 templates in the viewer's language; everything about a game
comes over the same websocket and JSON API any client uses. The scripts are plain
JavaScript files in `static/` with no dependencies and nothing fetched from elsewhere.
"""

from __future__ import annotations

import functools
import json
import random
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

from fastapi import FastAPI, HTTPException, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from fastapi.staticfiles import StaticFiles
from jinja2 import Environment, FileSystemLoader, select_autoescape

import tianxia
from tianxia.play.table import STRENGTHS, strengths_for
from tianxia.web.i18n import (
    LANG_NAMES,
    LANGS,
    N_,
    accepted,
    gettext_for,
    js_strings,
    negotiate,
    seat_label,
    translations,
)

HERE = Path(__file__).parent
RULES = HERE.parents[2] / "docs" / "rules"
DATA = HERE.parents[2] / "docs" / "data"
SVG_NS = "http://www.w3.org/2000/svg"
SESSION_COOKIE = "tianxia_session"
# The smallest time bank a server takes unless its operator says otherwise.
DEFAULT_MIN_CLOCK = 60.0


def _environment() -> Environment:
    env = Environment(
        loader=FileSystemLoader(HERE / "templates"),
        autoescape=select_autoescape(["html"]),
        extensions=["jinja2.ext.i18n"],
    )
    return env


ENV = _environment()


# A line under each title in the lobby: what the game is about, in a player's words.
DESCRIPTIONS = {
    "china": N_("Build houses in the provinces of China and send emissaries to its courts."),
    "greatwall": N_(
        "Lay cards at the sections of the Wall; who leads when one is finished wins its fame."
    ),
    "emperor": N_("Grow, colonise, move and fight over 21 provinces of China for 33 turns."),
    "mandarin": N_("Move the mandarins round the zodiac and collect the twelve animal signs."),
    "silkroad": N_("Lead merchants from China to Venice and trade in the cities on the way."),
}

# Each option as a player reads it: its name, and each value as words. The engine's names
# (`borders=colonists_cross`) stay the values the form sends.
OPTION_WORDS: dict[tuple[str, str], tuple[str, dict[Any, str]]] = {
    ("china", "board"): (
        N_("Board side"),
        {
            "3-4": N_("the side for three or four players"),
            "4-5": N_("the side for four or five players"),
        },
    ),
    ("china", "fortifications"): (
        N_("Fortifications (for experienced players)"),
        {False: N_("without"), True: N_("one neutral fortification each")},
    ),
    ("emperor", "borders"): (
        N_("Blocked borders"),
        {
            "colonists_cross": N_("stop movement and retreat, not colonists"),
            "closed": N_("stop colonists too"),
            "open": N_("stop only attacks, which need a card"),
        },
    ),
    ("emperor", "yin_target"): (
        N_("A yin card goes to"),
        {"own": N_("one of the drawer's own provinces"), "any": N_("any province")},
    ),
    ("emperor", "merger_result"): (
        N_("A junior partner scores"),
        {"scoring": N_("what he holds himself"), "shared": N_("his senior partner's result")},
    ),
    ("emperor", "honan_shensi"): (
        N_("The border of Honan and Shensi"),
        {"mountains": N_("is a mountain border"), "normal": N_("is a normal border")},
    ),
    ("mandarin", "money"): (
        N_("Who wins"),
        {False: N_("the most animal signs"), True: N_("the richest (money variant)")},
    ),
    ("mandarin", "repeat_passing"): (
        N_("Passing mandarins again on the extra move"),
        {False: N_("gives nothing more"), True: N_("gives another tile and another roll")},
    ),
    ("mandarin", "face_up"): (
        N_("Tiles that leave the dispenser face up"),
        {0.25: N_("one in four"), 0.5: N_("one in two"), 0.75: N_("three in four")},
    ),
}

# The bots' strengths as the seat menu and the leaderboard name them.
STRENGTH_WORDS = {
    "random": N_("random"),
    "easy": N_("easy"),
    "medium": N_("medium"),
    "hard": N_("hard"),
    "learned": N_("trained network"),
}


def _allowed(name: str, players: int, option: str, value: Any) -> bool:
    """Whether the game takes `value` for `option` at this player count (the other options
    at their defaults): asked of the game itself, so the page holds no rule."""
    try:
        tianxia.load_game(name, players=players, **{option: value})
    except ValueError:
        return False
    return True


@functools.cache
def catalogue(lang: str = "en") -> list[dict[str, Any]]:
    """Every title with its player counts and options in words, for the lobby: per player
    count, the default of each option and the choices that count allows (indices into
    `choices`), so the form offers only what the game will take."""
    gettext = gettext_for(lang)
    out = []
    for name in tianxia.list_games():
        info = tianxia.load_game(name).info
        options = []
        for o in info.option_specs:
            label, values = OPTION_WORDS.get((name, o.name), (o.name, {}))
            options.append(
                {
                    "name": o.name,
                    "label": gettext(label),
                    "help": o.help,
                    "choices": list(o.choices),
                    "words": [gettext(values[c]) if c in values else str(c) for c in o.choices],
                }
            )
        counts = {}
        for n in range(info.min_players, info.max_players + 1):
            at_n = tianxia.load_game(name, players=n)
            defaults = at_n.options
            counts[str(n)] = {
                # The bots that play this count with the default options.
                "strengths": strengths_for(at_n),
                "defaults": {o.name: o.choices.index(defaults[o.name]) for o in info.option_specs},
                "allowed": {
                    o.name: [i for i, c in enumerate(o.choices) if _allowed(name, n, o.name, c)]
                    for o in info.option_specs
                },
            }
        out.append(
            {
                "name": name,
                "title": gettext(info.title),
                "description": gettext(DESCRIPTIONS[name]) if name in DESCRIPTIONS else "",
                "players_text": gettext(N_("{low}–{high} players")).format(
                    low=info.min_players, high=info.max_players
                ),
                "min_players": info.min_players,
                "max_players": info.max_players,
                # A quick game seats as many as the game needs, two at least.
                "quick_players": max(2, info.min_players),
                "options": options,
                "counts": counts,
            }
        )
    return out


@functools.cache
def picture(name: str, lang: str) -> str:
    """A title's board at the start of a game, as a spectator sees it: the lobby's card
    picture, drawn by the game's own renderer (seeded, so the same picture every time)."""
    from tianxia.core.game import sample_chance
    from tianxia.web.boards import render

    game = tianxia.load_game(name, players=max(2, tianxia.load_game(name).info.min_players))
    state = game.new_initial_state()
    rng = random.Random(1)
    while state.is_chance_node():
        state = state.apply(sample_chance(state, rng))
    svg = render(game, state.envelope(None, 0), [], gettext_for(lang)).svg
    # The prompt ("P1: place pieces ...") speaks to a player at the table, not in the lobby.
    ET.register_namespace("", SVG_NS)
    root = ET.fromstring(svg)
    for parent in list(root.iter()):
        for child in list(parent):
            if "prompt" in (child.get("class") or "").split():
                parent.remove(child)
    return ET.tostring(root, encoding="unicode")


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


def served_address(source: Path, href: str) -> str | None:
    """Where a link of a served document leads on this site: another game's rules or its
    board data, or a section of this page; None for a file the server does not serve
    (the documents link to each other as files in the repository)."""
    if href.startswith(("#", "http://", "https://", "mailto:")):
        return href
    path, _, fragment = href.partition("#")
    target = (source.parent / path).resolve()
    anchor = "#" + fragment if fragment else ""
    games = tianxia.list_games()
    if target.suffix == ".md" and target.stem in games:
        if target.parent in (RULES.resolve(), *(RULES.resolve() / lang for lang in LANGS)):
            return f"/rules/{target.stem}{anchor}"
        if target.parent == DATA.resolve():
            return f"/rules/{target.stem}/data{anchor}"
    return None


def render_document(source: Path) -> str:
    """A Markdown document as HTML: headings carry ids (the documents link to their own
    sections), and links to other documents lead to the pages that serve them."""
    from markdown_it import MarkdownIt
    from markdown_it.token import Token
    from mdit_py_plugins.anchors import anchors_plugin

    md = MarkdownIt("commonmark", {"html": False}).enable("table")
    md.use(anchors_plugin, max_level=3)
    tokens = md.parse(source.read_text())

    def fix(children: list[Token]) -> list[Token]:
        out: list[Token] = []
        dropped = 0  # links to files the server does not serve keep their text only
        for tok in children:
            if tok.type == "link_open":
                href = served_address(source, str(tok.attrGet("href") or ""))
                if href is None:
                    dropped += 1
                    continue
                tok.attrSet("href", href)
            elif tok.type == "link_close" and dropped:
                dropped -= 1
                continue
            out.append(tok)
        return out

    for tok in tokens:
        if tok.children:
            tok.children = fix(tok.children)
    html = str(md.renderer.render(tokens, md.options, {}))
    # A code block or a table too wide for a phone scrolls in its place (style.css): the
    # keyboard reaches it to scroll it too. The source's own HTML is off, so every such
    # tag is the renderer's.
    return html.replace("<pre>", '<pre tabindex="0">').replace("<table>", '<table tabindex="0">')


def data_block(value: object) -> str:
    """`value` as the text of a `<script type="application/json">` block, the page's data
    under a content security policy that runs no inline script: no `<` in it, so no
    string can close the block."""
    return json.dumps(value).replace("<", "\\u003c")


def page(request: Request, template: str, **context: Any) -> HTMLResponse:
    lang = language(request)
    env = ENV.overlay()
    env.install_gettext_translations(translations(lang), newstyle=True)  # type: ignore[attr-defined]
    html = env.get_template(template).render(
        lang=lang,
        langs=[(code, LANG_NAMES[code]) for code in LANGS],
        strings=data_block(js_strings(lang)),
        path=request.url.path,
        version=tianxia.__version__,
        # The session cookie is HttpOnly: the page's scripts learn from this whether to
        # ask who is signed in (a guest's page asks nothing).
        session=bool(request.cookies.get(SESSION_COOKIE)),
        **context,
    )
    response = HTMLResponse(html)
    if request.query_params.get("lang") in accepted():
        response.set_cookie("lang", lang, max_age=365 * 24 * 3600, samesite="lax")
    return response


def mail_sent(request: Request) -> bool:
    """Whether this server sends mail (`tianxia serve --smtp`): without, the account pages
    say so instead of promising a mail."""
    return getattr(request.app.state, "mail", None) is not None


def clock_bounds(request: Request) -> dict[str, float]:
    """What a new game's clock may be, in seconds (vacation in days), for the form: the
    server's stated minimum bank (`tianxia serve --min-clock`) and the largest values
    `POST /api/games` takes."""
    minimum = getattr(getattr(request.app.state, "hub", None), "min_clock", None)
    return {
        "minimum": float(minimum if minimum is not None else DEFAULT_MIN_CLOCK),
        "maximum": 30 * 24 * 3600.0,
        "max_increment": 7 * 24 * 3600.0,
        "max_vacation": 30,
    }


def _title(request: Request, game: str) -> str:
    """A title in the viewer's language."""
    return gettext_for(language(request))(tianxia.load_game(game).info.title)


def add_pages(app: FastAPI) -> None:
    app.mount("/static", StaticFiles(directory=HERE / "static"), name="static")

    @app.get("/", response_class=HTMLResponse, include_in_schema=False)
    async def lobby(request: Request) -> HTMLResponse:
        lang = language(request)
        games = catalogue(lang)
        return page(
            request,
            "lobby.html",
            games=games,
            games_json=data_block(games),
            strengths=[(s, STRENGTH_WORDS.get(s, s)) for s in STRENGTHS],
            strengths_json=data_block(
                {s: gettext_for(lang)(STRENGTH_WORDS.get(s, s)) for s in STRENGTHS}
            ),
            clock_json=data_block(clock_bounds(request)),
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
            title=gettext_for(language(request))(live.game.info.title),
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
            title=gettext_for(language(request))(live.game.info.title),
            names=[seat_label(str(s["name"]), language(request)) for s in live.seat_list()],
            finished=live.status == "finished",
        )

    @app.get("/rules/{game}", response_class=HTMLResponse, include_in_schema=False)
    async def rules(request: Request, game: str) -> HTMLResponse:
        if game not in tianxia.list_games():
            raise HTTPException(404, f"no game {game!r}")
        source = rules_source(game, language(request))
        if not source.exists():
            raise HTTPException(404, "the rules documents are not installed with this copy")
        from tianxia.web.playerrules import for_players

        # Served to players: the developers' parts (tests, code names) stay in the file.
        body = for_players(render_document(source))
        return page(request, "rules.html", body=body, title=_title(request, game))

    @app.get("/rules/{game}/data", response_class=HTMLResponse, include_in_schema=False)
    async def board_data(request: Request, game: str) -> HTMLResponse:
        """A game's board and card data, which its rules refer to (in English only)."""
        if game not in tianxia.list_games():
            raise HTTPException(404, f"no game {game!r}")
        source = DATA / f"{game}.md"
        if not source.exists():
            raise HTTPException(404, "the data documents are not installed with this copy")
        body = render_document(source)
        return page(request, "rules.html", body=body, title=_title(request, game))

    @app.get("/pictures/{game}.svg", include_in_schema=False)
    async def card_picture(request: Request, game: str) -> Response:
        """A title's picture in the lobby: its board at the start, drawn once per language."""
        if game not in tianxia.list_games():
            raise HTTPException(404, f"no game {game!r}")
        svg = picture(game, language(request))
        return Response(
            svg, media_type="image/svg+xml", headers={"cache-control": "public, max-age=86400"}
        )

    @app.get("/api/titles")
    async def titles(request: Request) -> list[dict[str, Any]]:
        """Every title for a new game's form, in the asker's language (`?lang=`): its player
        counts, a line on it, its options in words, and per player count each option's
        default and the choices that count allows (indices into `choices`)."""
        return catalogue(language(request))

    @app.get("/account", response_class=HTMLResponse, include_in_schema=False)
    async def account(request: Request) -> HTMLResponse:
        """Signing in, signing up, a forgotten password; the landing of a verified address."""
        return page(
            request,
            "account.html",
            mail=mail_sent(request),
            verified=request.query_params.get("verified") == "1",
            title=gettext_for(language(request))("Sign in"),
        )

    @app.get("/account/settings", response_class=HTMLResponse, include_in_schema=False)
    async def account_settings(request: Request) -> HTMLResponse:
        """The signed-in account's settings (the page asks `/api/me`; a guest is sent to
        sign in)."""
        return page(
            request,
            "settings.html",
            mail=mail_sent(request),
            title=gettext_for(language(request))("Account settings"),
        )

    @app.get("/account/reset", response_class=HTMLResponse, include_in_schema=False)
    async def account_reset(request: Request) -> HTMLResponse:
        """A new password, from the link of a reset mail (its token stays in the page)."""
        return page(
            request,
            "reset.html",
            token=request.query_params.get("token", "")[:200],
            title=gettext_for(language(request))("A new password"),
        )

    @app.get("/favicon.ico", include_in_schema=False)
    async def favicon() -> Response:
        return RedirectResponse("/static/favicon.svg")

    from tianxia.web.learn import add_learn

    add_learn(app)
