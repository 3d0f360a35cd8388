"""The FastAPI application: the lobby over HTTP and one websocket per connection.

`create_app(database_url)` builds it; `tianxia serve` runs it under uvicorn. The server
owns no rule: legality, notation, explanations, visibility and undo come from the engine
and the shared table (`tianxia.play.table`).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import math
import os
import signal
import time
import uuid
from collections import Counter
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Annotated, Any, Literal
from urllib.parse import parse_qsl

from fastapi import Depends, FastAPI, HTTPException, Query, Request, WebSocket
from fastapi.responses import HTMLResponse, JSONResponse, Response
from pydantic import BaseModel, ConfigDict, Field, ValidationError
from sqlalchemy.exc import SQLAlchemyError
from starlette.websockets import WebSocketDisconnect, WebSocketDisconnected

import tianxia
from tianxia.core import Game
from tianxia.play.table import STRENGTHS, make_bot, strengths_for
from tianxia.server import protocol as P
from tianxia.server.accounts import (
    SCOPE_KEY,
    Accounts,
    SessionGuard,
    account_names,
    account_routes,
    invite_targets,
    queue_invitations,
    session_of,
)
from tianxia.server.clocks import DAY, MAX_INCREMENT, MAX_VACATION_DAYS
from tianxia.server.fanout import Fanout
from tianxia.server.leases import Leases
from tianxia.server.limits import (
    BodyLimit,
    Limits,
    QuickAnswers,
    SecurityHeaders,
    Window,
    api_docs_page,
    creator_key,
    game_cost,
    origin_allowed,
    per_minute_sentence,
)
from tianxia.server.live import (
    TAKEOVER_STRENGTH,
    UNAVAILABLE_SENTENCE,
    Connection,
    Evicted,
    Hub,
    LiveGame,
    Unloadable,
    invited_ids,
    new_seed,
    row_summary,
)
from tianxia.server.mail import Mail, MailConfig, TokenOnly
from tianxia.server.mail import router as mail_routes
from tianxia.server.storage import (
    LEASE_SECONDS,
    OverQuota,
    Store,
    default_url,
    hash_secret,
    lease_holder,
    migrate,
    new_game_rows,
    new_secret,
)
from tianxia.server.testhooks import Hooks

log = logging.getLogger("tianxia.server")
# Games in one page of the lobby: by default, and at most.
PAGE = 100
MAX_PAGE = 500
# The lobby's other parameters' bounds, for the route and `lobby_key` alike.
LOBBY_LISTS = ("open", "running", "finished")
MAX_PLAYER = 64
MAX_OFFSET = 10_000_000


class NewGame(BaseModel):
    model_config = ConfigDict(extra="forbid")
    game: Annotated[str, Field(max_length=32)]
    players: Annotated[int, Field(ge=1, le=16)] | None = None
    options: dict[str, Any] = Field(default_factory=dict)
    # "open", "bot:<strength>" or "invite:<account name>".
    seats: list[Annotated[str, Field(max_length=48)]] | None = None
    # The clock (docs/server.md, Clocks): each seat's bank in seconds (at least the
    # server's `--min-clock`), what each of its turns adds, what happens when bank and
    # vacation are spent, and the vacation in days.
    clock: Annotated[float, Field(gt=0, le=30 * 24 * 3600)] | None = None
    increment: Annotated[float, Field(ge=0, le=MAX_INCREMENT)] = 0.0
    clock_policy: Literal["bot", "skip", "lose"] = "bot"
    vacation: Annotated[float, Field(ge=0, le=MAX_VACATION_DAYS)] = 0.0


class Join(BaseModel):
    model_config = ConfigDict(extra="forbid")
    seat: Annotated[int, Field(ge=0, le=16)]
    name: Annotated[str, Field(min_length=1, max_length=40)] = "player"
    player: Annotated[str, Field(min_length=1, max_length=64)] | None = None


class SeatSecret(BaseModel):
    """A seat of the game: by its secret, or without one the signed-in account's seat
    (another device of the account holds no secret); `seat` says which where the
    account holds several (a game at one device)."""

    model_config = ConfigDict(extra="forbid")
    secret: Annotated[str, Field(min_length=1, max_length=64)] | None = None
    seat: Annotated[int, Field(ge=0, le=16)] | None = None


def hub_of(request: Request) -> Hub:
    # A plain function, which FastAPI runs on a worker thread: as a coroutine (no hop,
    # less work in all) a player's moves under a flood of lobby polls and refused
    # creations were measured three times slower at the median (docs/reliability.md,
    # "Game creation and unknown ids"): each request then holds the event loop from
    # start to end.
    hub: Hub = request.app.state.hub
    return hub


# At module level: FastAPI reads the route annotations as text in this module's names.
HubDep = Annotated[Hub, Depends(hub_of)]


def client_of(request: Request) -> str:
    """The key a request's quotas are counted under: its client's address (behind a
    proxy, the address the proxy forwards: docs/server.md)."""
    return creator_key(request.client.host if request.client else "")


def lobby_key(query: bytes) -> tuple[str | None, str | None, int, int] | None:
    """The key of `LobbyPages` that `GET /api/games?<query>` asks for, read exactly as the
    route reads its parameters; None for anything it might read otherwise (a repeated,
    malformed or out-of-range parameter: the route answers those itself)."""
    try:
        pairs = parse_qsl(query.decode("ascii"), keep_blank_values=True, strict_parsing=False)
    except UnicodeDecodeError:
        return None
    given = dict(pairs)
    if len(given) != len(pairs) or not set(given) <= {"status", "player", "limit", "offset"}:
        return None
    status = given.get("status")
    player = given.get("player")
    limit, offset = given.get("limit", str(PAGE)), given.get("offset", "0")
    if status is not None and status not in LOBBY_LISTS:
        return None
    if player is not None and not 0 < len(player) <= MAX_PLAYER:
        return None
    if not all(n.isascii() and n.isdigit() and len(n) <= 8 for n in (limit, offset)):
        return None
    if not (1 <= int(limit) <= MAX_PAGE and 0 <= int(offset) <= MAX_OFFSET):
        return None
    return (status, player, int(limit), int(offset))


def _clock_checked(body: NewGame, minimum: float) -> None:
    """A clock shorter than the server's stated minimum, or a clock's parts without
    one, is refused with a sentence (422)."""
    if body.clock is None:
        given = {"increment", "clock_policy", "vacation"} & body.model_fields_set
        if given:
            raise HTTPException(
                422, f"{', '.join(sorted(given))} belong to a clock: give `clock` too"
            )
        return
    if body.clock < minimum:
        raise HTTPException(
            422,
            f"a clock gives each seat at least {minimum:g} seconds on this server, "
            f"not {body.clock:g}",
        )


def _seat_plan(text: str) -> tuple[str, str | None]:
    t = text.strip().lower()
    if t == "open" or t.startswith("invite:"):
        return ("open", None)
    strength = t.removeprefix("bot:")
    if strength in STRENGTHS:
        return ("bot", strength)
    raise HTTPException(
        422,
        f"a seat is 'open', 'bot:<strength>' ({', '.join(STRENGTHS)}) or "
        f"'invite:<account name>', not {text!r}",
    )


def create_app(
    database_url: str | None = None,
    bot_pause: float = 0.0,
    limits: Limits | None = None,
    holder: str | None = None,
    mail: MailConfig | None = None,
) -> FastAPI:
    """The app; `holder`: the lease this process already took (`tianxia serve` takes it
    before it listens, to refuse with a sentence); without it, start-up takes one.
    `mail`: where and how to send mail (tianxia.server.mail); None: no mail is sent."""
    url = database_url or os.environ.get("TIANXIA_DATABASE_URL") or default_url()
    hooks = Hooks.from_env()
    limits = limits or Limits()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        migrate(url)
        store = Store(url)
        me = holder or lease_holder()
        if holder is None:
            store.take_lease(me)
        if hooks is not None:
            store.fault = hooks.fault
        hub = Hub(
            store,
            bot_pause=bot_pause,
            hooks=hooks,
            games_in_memory=limits.games_in_memory,
            lobby_cache=limits.lobby_cache,
            bot_processes=limits.bot_processes,
            min_clock=limits.min_clock,
        )
        app.state.hub = hub
        if hooks is not None and hooks.grace is not None:
            hub.grace = hooks.grace
        leases = None
        if url.startswith("postgresql"):
            # Several processes may serve: each game's bots and clock run in the one
            # holding its lease, and the sweep takes those nobody holds, these included.
            hub.leases = Leases(url, every=limits.lease_sweep)
            await hub.leases.sweep(hub)
            leases = asyncio.create_task(hub.leases.run(hub))
        else:
            # Games that move by themselves (a bot, a clock) resume after a restart; the
            # others are loaded when someone asks for them.
            for game_id in store.to_resume():
                try:
                    await hub.get(game_id)
                except Unloadable as e:
                    # One game this release cannot resume must not keep the others down.
                    log.warning("%s", e)
        listener = None
        if store.shared:
            # Other processes' commits reach this one's viewers (tianxia.server.fanout).
            app.state.fanout = Fanout(hub, url)
            listener = asyncio.create_task(app.state.fanout.run())
        sweeper = asyncio.create_task(_sweep(hub, limits))
        heart = asyncio.create_task(_heartbeat(hub, me))
        sender = None
        if mail is not None:
            hub.mail = Mail(hub, mail, me)
            sender = asyncio.create_task(hub.mail.run())
        try:
            yield
        finally:
            if sender is not None:
                sender.cancel()
            sweeper.cancel()
            heart.cancel()
            if listener is not None:
                listener.cancel()
                await app.state.fanout.close()
                # What sharing the database cost this process's commits (the bench
                # reads the same from the database's activity view while it runs).
                log.info(
                    "commit locks: %d taken, %.3f s spent waiting for them",
                    store.locks,
                    store.lock_wait,
                )
            if leases is not None:
                leases.cancel()
            await hub.leases.close()
            with contextlib.suppress(SQLAlchemyError):
                await hub.storage.run(store.release_lease, me)
            hub.close()
            accounts.hasher.close()

    # FastAPI's /docs page runs an inline script: served below under a policy of its own.
    app = FastAPI(
        title="Tianxia",
        version=tianxia.__version__,
        lifespan=lifespan,
        docs_url=None,
        redoc_url=None,
    )

    @app.get("/docs", include_in_schema=False)
    async def api_docs() -> HTMLResponse:
        return api_docs_page(app.openapi_url or "/openapi.json", f"{app.title} API")

    per_minute = Window(limits.games_per_minute)
    app.state.mail = mail
    app.include_router(mail_routes())
    accounts = Accounts(origins=limits.origins)
    app.state.accounts = accounts
    app.add_middleware(SessionGuard, accounts=accounts)
    app.add_middleware(TokenOnly)
    app.include_router(account_routes())
    app.add_middleware(QuickAnswers, per_minute=per_minute, key_of=creator_key, lobby_key=lobby_key)
    app.add_middleware(BodyLimit, limit=limits.max_body)
    app.add_middleware(SecurityHeaders)

    try:
        from tianxia.web.pages import add_pages
    except ImportError:  # the pages need Jinja2 and Babel (extra `server`)
        log.warning("the browser pages are off: Jinja2 or Babel is missing")
    else:
        add_pages(app)
    if hooks is not None:
        from tianxia.server.testroutes import add_test_routes

        add_test_routes(app, hooks)

    async def live_or_404(hub: Hub, game_id: str) -> LiveGame:
        if len(game_id) > 32:
            raise HTTPException(404, "no such game")
        try:
            live = await hub.get(game_id)
        except Unloadable as e:
            raise HTTPException(409, str(e)) from None
        if live is None:
            raise HTTPException(404, "no such game")
        return live

    @app.exception_handler(ValueError)
    async def _value_error(request: Request, exc: ValueError) -> JSONResponse:
        return JSONResponse({"detail": str(exc)}, status_code=422)

    @app.exception_handler(Evicted)
    async def _evicted(request: Request, exc: Evicted) -> JSONResponse:
        return JSONResponse(
            {"detail": "the game was busy being reloaded: nothing changed; send it again"},
            status_code=503,
            headers={"Retry-After": "1"},
        )

    @app.exception_handler(SQLAlchemyError)
    async def _unavailable(request: Request, exc: SQLAlchemyError) -> JSONResponse:
        # Every write is one transaction and memory changes only after it commits:
        # a write that failed (disk full, a read-only file) changed nothing.
        log.error("%s %s: the database failed: %s", request.method, request.url.path, exc)
        return JSONResponse(
            {"detail": UNAVAILABLE_SENTENCE}, status_code=503, headers={"Retry-After": "5"}
        )

    # --- the lobby -----------------------------------------------------------------------
    @app.post("/api/games", status_code=201)
    async def create_game(body: NewGame, hub: HubDep, request: Request) -> dict[str, Any]:
        """Create a game: title, players, options, each seat open or a bot at a strength.

        Counted against the quotas of the client's address (docs/server.md, Limits):
        over one, 429 with a sentence and Retry-After."""
        return await new_game(body, hub, client_of(request))

    async def new_game(body: NewGame, hub: Hub, creator: str) -> dict[str, Any]:
        if body.game not in tianxia.list_games():
            raise HTTPException(
                422, f"no game {body.game!r} (games: {', '.join(tianxia.list_games())})"
            )
        if "players" in body.options:
            raise HTTPException(422, "the number of players is `players`, not an option")
        _clock_checked(body, hub.min_clock)
        # The quota of the minute is counted before the game is built: a client over it
        # is answered at once, not after the work of a game it may not have. Its cost
        # needs only the seats (every seat open when none are named: 1).
        plans = [_seat_plan(s) for s in body.seats] if body.seats else None
        invited = await _invited(hub, body.seats or [])
        cost = game_cost(plans) if plans else 1
        wait = per_minute.take(creator, cost)
        if wait is not None:
            raise HTTPException(
                429,
                per_minute_sentence(limits.games_per_minute, wait, cost),
                headers={"Retry-After": str(math.ceil(wait))},
            )
        try:
            game, plans = _built(body, plans, hub)
        except BaseException:
            per_minute.give_back(creator, cost)
            raise
        row, seats = new_game_rows(
            uuid.uuid4().hex[:16],
            game.NAME,
            game.players,
            dict(game.options),
            game.VERSION,
            new_seed(),
            plans,
            body.clock,
            creator,
            cost,
            increment=body.increment,
            clock_policy=body.clock_policy,
            vacation=body.vacation * DAY,
        )
        for s in seats:
            s["invited"] = invited.get(s["seat"])
        try:
            live = await LiveGame.create(hub, row, seats, limits.open_games)
        except OverQuota as e:
            per_minute.give_back(creator, cost)
            raise HTTPException(
                429,
                f"this address holds games worth {e.used} not yet finished, and may hold "
                f"{e.limit} at once (this one costs {e.cost}; a bot seat costs 1 more, a "
                f"game of bots alone twice): finish or resign some first",
                headers={"Retry-After": "60"},
            ) from None
        except BaseException:
            per_minute.give_back(creator, cost)
            raise
        if invited:
            live.invited_names = await hub.storage.read(
                account_names, hub.storage.store, invited.values()
            )
        hub.lobby.changed()
        if invited:
            await hub.storage.run(queue_invitations, hub.storage.store, live.id, invited)
        return live.summary()

    async def _invited(hub: Hub, plans: list[str]) -> dict[int, str]:
        """The seats kept for accounts ("invite:<name>"): each seat's account id.

        Raises:
            HTTPException: 422, with a sentence: no account has that name.
        """
        names = {
            i: text.strip()[len("invite:") :].strip()
            for i, text in enumerate(plans)
            if text.strip().lower().startswith("invite:")
        }
        if not names:
            return {}
        st = hub.storage
        found = await st.read(invite_targets, st.store, sorted(set(names.values())))
        out: dict[int, str] = {}
        for seat, name in names.items():
            account = found.get(name)
            if account is None:
                raise HTTPException(422, f"no account is named {name!r}: nobody to invite")
            out[seat] = str(account["id"])
        return out

    def _built(
        body: NewGame, plans: list[tuple[str, str | None]] | None, hub: Hub
    ) -> tuple[Game, list[tuple[str, str | None]]]:
        """The game asked for (the hub's one `Game` of its variant) and its seats' plans,
        checked.

        Raises:
            HTTPException: 422, with a sentence: no such variant, or seats that do not fit it.
        """
        try:
            game = hub.game(body.game, body.players, body.options)
        except (TypeError, ValueError) as e:
            raise HTTPException(422, str(e)) from None
        if plans is None:
            plans = [_seat_plan("open")] * game.players
        if len(plans) != game.players:
            raise HTTPException(422, f"{game.players} seats are needed, not {len(plans)}")
        if all(strength is None for _, strength in plans):
            # Only bots have strengths to check (and looking for a learned bot's
            # weights reads the disk).
            return game, plans
        offered = strengths_for(game)
        for _, strength in plans:
            if strength is not None and strength not in offered:
                raise HTTPException(
                    422,
                    f"no {strength} bot plays {game.info.title} at {game.players} players "
                    f"with these options (strengths here: {', '.join(offered)})",
                )
        return game, plans

    @app.get("/api/games", response_model=list[dict[str, Any]])
    async def list_games(
        hub: HubDep,
        status: Annotated[str | None, Query(pattern=f"^({'|'.join(LOBBY_LISTS)})$")] = None,
        player: Annotated[str | None, Query(max_length=MAX_PLAYER)] = None,
        limit: Annotated[int, Query(ge=1, le=MAX_PAGE)] = PAGE,
        offset: Annotated[int, Query(ge=0, le=MAX_OFFSET)] = 0,
    ) -> Response:
        """Games, newest first, `limit` of them from the `offset`-th; `status` filters,
        `player` keeps that player's games and marks those where it is that player's
        turn. Read from the database: no game is loaded for it (but one stored before
        its row kept a summary). A page is shared for `--lobby-cache` seconds by all
        who ask for it (`LobbyPages`)."""

        async def make() -> bytes:
            page = await lobby_page(hub, status, player, limit, offset)
            return json.dumps(page, ensure_ascii=False, separators=(",", ":")).encode()

        body = await hub.lobby.page((status, player, limit, offset), make)
        return Response(body, media_type="application/json")

    async def lobby_page(
        hub: Hub, status: str | None, player: str | None, limit: int, offset: int
    ) -> list[dict[str, Any]]:
        st = hub.storage
        rows, seats = await st.read(st.store.lobby, status, player, limit, offset)
        kept = [
            a
            for row in rows
            if row["id"] not in hub.games
            for a in invited_ids(seats.get(row["id"], []))
        ]
        invited = await st.read(account_names, st.store, kept) if kept else {}
        out = []
        for row in rows:
            mine = [s["seat"] for s in seats.get(row["id"], []) if player and s["player"] == player]
            live = hub.games.get(row["id"])
            if live is not None:
                summary = live.summary()
            else:
                try:
                    summary = row_summary(hub, row, seats.get(row["id"], []), invited)
                except Unloadable:
                    try:
                        live = await hub.get(row["id"])
                    except Unloadable:
                        continue  # its own page says why
                    if live is None:
                        continue
                    summary = live.summary()
            # The last change (a move, a seat taken): the lobby dates games by it and lets
            # an open game nobody joins, or a running one nobody plays, leave its list.
            summary["updated"] = row["updated"]
            if player:
                summary["your_seats"] = mine
                summary["your_turn"] = summary["to_move"] in mine and summary["status"] == "running"
            out.append(summary)
        return out

    @app.get("/api/games/{game_id}")
    async def game_summary(game_id: str, hub: HubDep) -> dict[str, Any]:
        live = hub.games.get(game_id)
        if live is None and len(game_id) <= 32:
            # From its row, as the lobby does: asking for a summary loads no game.
            st = hub.storage
            found = await st.read(st.store.summary_rows, game_id)
            if found is None:
                raise HTTPException(404, "no such game")
            with contextlib.suppress(Unloadable):
                invited = await st.read(account_names, st.store, invited_ids(found[1]))
                return row_summary(hub, *found, invited)
        return (await live_or_404(hub, game_id)).summary()

    @app.post("/api/games/{game_id}/join")
    async def join(game_id: str, body: Join, hub: HubDep, request: Request) -> dict[str, Any]:
        """Take an open seat: returns the seat's secret (keep it: it is the seat's key).

        Signed in, the seat is the account's, under the account's name (`name` is not
        used). A seat kept for an account (invited by name) is that account's to take."""
        session = session_of(request)
        live = await live_or_404(hub, game_id)
        async with live.lock:
            hub.adopt(live)
            await _caught_up(hub, live)
            if body.seat >= len(live.seats) or live.seats[body.seat]["kind"] != "open":
                raise HTTPException(409, f"seat {body.seat} is not open")
            kept = live.seats[body.seat].get("invited")
            if kept is not None and (session is None or session.account_id != kept):
                raise HTTPException(
                    403, f"seat {body.seat} is kept for the player invited to it, signed in"
                )
            secret = new_secret()
            st = hub.storage
            values = {
                "kind": "human",
                "name": body.name if session is None else session.name,
                "player": body.player,
                "secret_hash": hash_secret(secret),
                "account_id": None if session is None else session.account_id,
            }
            taken = await st.run(
                st.store.update_seat,
                game_id,
                body.seat,
                only_if={"kind": "open", "invited": kept},
                **values,
            )
            if not taken:
                # Taken through another process a moment before.
                await live.sync()
                raise HTTPException(409, f"seat {body.seat} is not open")
            hub.lobby.changed()
            live.seats[body.seat].update(values)
            if hooks is not None:
                hooks.issued[(game_id, body.seat)] = secret
            live.broadcast()
        live.kick()
        return {"seat": body.seat, "secret": secret, "game": game_id}

    async def _seat_of(live: LiveGame, hub: Hub, secret: str) -> int:
        found = await hub.storage.run(hub.storage.store.seat_by_secret, secret)
        if found is None or found[0] != live.id:
            raise HTTPException(403, "this secret holds no seat of this game")
        return found[1]

    async def _seat_by(live: LiveGame, hub: Hub, body: SeatSecret, request: Request) -> int:
        """The seat a request speaks for: its secret's, or the signed-in account's."""
        if body.secret is not None:
            seat = await _seat_of(live, hub, body.secret)
            if body.seat is not None and body.seat != seat:
                raise HTTPException(403, f"this secret holds seat {seat}, not seat {body.seat}")
            return seat
        session = session_of(request)
        if session is None:
            raise HTTPException(
                403, "send the seat's secret, or sign in to the account that holds the seat"
            )
        mine = [
            i
            for i, s in enumerate(live.seats)
            if s["kind"] == "human" and s.get("account_id") == session.account_id
        ]
        if body.seat is not None:
            if body.seat not in mine:
                raise HTTPException(403, f"seat {body.seat} of this game is not this account's")
            return body.seat
        if not mine:
            raise HTTPException(403, "this account holds no seat of this game")
        if len(mine) > 1:
            raise HTTPException(
                422, f"this account holds seats {', '.join(map(str, mine))}: say which (seat)"
            )
        return mine[0]

    @app.post("/api/games/{game_id}/leave")
    async def leave(
        game_id: str, body: SeatSecret, hub: HubDep, request: Request
    ) -> dict[str, Any]:
        """Give a seat back before the game starts (afterwards, resign)."""
        live = await live_or_404(hub, game_id)
        seat = await _seat_by(live, hub, body, request)
        async with live.lock:
            hub.adopt(live)
            await _caught_up(hub, live)
            if live.status != "open":
                raise HTTPException(409, "the game has started: resign instead")
            values = {
                "kind": "open",
                "name": None,
                "player": None,
                "secret_hash": None,
                "account_id": None,
            }
            held = {"kind": "human", "secret_hash": live.seats[seat]["secret_hash"]}
            left = await hub.storage.run(
                hub.storage.store.update_seat,
                game_id,
                seat,
                only_if=held,
                while_open=True,
                **values,
            )
            if not left:
                # The game started, or the seat changed, through another process.
                await live.sync()
                raise HTTPException(409, "the game has started: resign instead")
            hub.lobby.changed()
            live.seats[seat].update(values)
            for c in list(live.conns):
                if c.seat == seat:
                    c.seat, c.bound = None, False
            live.broadcast()
        return {"seat": seat, "left": True}

    @app.post("/api/games/{game_id}/resign")
    async def resign(
        game_id: str, body: SeatSecret, hub: HubDep, request: Request
    ) -> dict[str, Any]:
        """Give up: a bot plays the seat to the end, and the ratings count it last."""
        live = await live_or_404(hub, game_id)
        seat = await _seat_by(live, hub, body, request)
        async with live.lock:
            hub.adopt(live)
            await _caught_up(hub, live)
            if live.status == "finished":
                raise HTTPException(409, "the game is over")
            await hub.storage.run(hub.storage.store.update_seat, game_id, seat, resigned=True)
            hub.lobby.changed()
            live.seats[seat]["resigned"] = True
            live.table.bots[seat] = make_bot(TAKEOVER_STRENGTH, live.game, seat, seat)
            live.broadcast()
        live.kick()
        return {"seat": seat, "resigned": True}

    @app.post("/api/games/{game_id}/rematch")
    async def rematch(
        game_id: str, body: SeatSecret, hub: HubDep, request: Request
    ) -> dict[str, Any]:
        """A finished game's players play again: a new game of the same title, options,
        clock and seats (bots at their strengths, people's seats open for them to take).
        Asked twice, it is the same new game: a game has one rematch."""
        live = await live_or_404(hub, game_id)
        await _seat_by(live, hub, body, request)
        if live.status != "finished":
            raise HTTPException(409, "a rematch follows a finished game")
        async with live.lock:
            hub.adopt(live)
            if live.rematch is None:
                seats = [
                    f"bot:{s['strength']}" if s["kind"] == "bot" else "open" for s in live.seats
                ]
                # A clock's parts only with a clock: a game without one has none to copy.
                timed: dict[str, Any] = (
                    {
                        "increment": live.row["increment"] or 0.0,
                        "clock_policy": live.row["clock_policy"] or "bot",
                        "vacation": (live.row["vacation"] or 0.0) / DAY,
                    }
                    if live.row["clock"] is not None
                    else {}
                )
                created = await new_game(
                    NewGame(
                        game=live.row["game"],
                        players=live.row["players"],
                        options=json.loads(live.row["options"]),
                        seats=seats,
                        clock=live.row["clock"],
                        **timed,
                    ),
                    hub,
                    client_of(request),
                )
                made = str(created["id"])
                live.rematch = await hub.storage.run(hub.storage.store.set_rematch, game_id, made)
                if live.rematch != made:
                    # Asked through another process at the same instant: its game is the
                    # rematch, and this one, seen by nobody, goes.
                    lost = hub.games.pop(made, None)
                    if lost is not None:
                        lost.evicted = True
                        for task in (lost.bot_task, lost.clock_task):
                            if task is not None:
                                task.cancel()
                    await hub.storage.run(hub.storage.store.forget_game, made)
                    hub.lobby.changed()
                live.broadcast()
        return {"game": live.rematch}

    # --- replays, logs, ratings ------------------------------------------------------------
    def _finished(live: LiveGame) -> None:
        if live.status != "finished":
            raise HTTPException(409, "replays and logs are open once the game is over")

    @app.get("/api/games/{game_id}/log")
    async def game_log(game_id: str, hub: HubDep) -> dict[str, Any]:
        """A finished game's log, loadable by `tianxia replay` (the seed stays secret)."""
        live = await live_or_404(hub, game_id)
        _finished(live)
        data = live.table.match.to_json()
        data.pop("rng", None)
        data["seed"] = 0
        return data

    @app.get("/api/games/{game_id}/replay")
    async def replay(
        game_id: str,
        hub: HubDep,
        step: Annotated[int, Query(ge=0, le=10_000_000)] = 0,
        seat: Annotated[int | None, Query(ge=0, le=16)] = None,
        board: bool = False,
        lang: Annotated[str, Query(pattern="^(en|nl|de|xx)$")] = "en",
        marks: bool = False,
    ) -> dict[str, Any]:
        """A finished game action by action: the view of `seat` (default: spectator),
        with the board as SVG when `board` is asked for, and with `marks` the steps a
        replay stops at when it goes by decision, round or seat."""
        from tianxia.web.i18n import accepted, seat_label
        from tianxia.web.sentences import bot_reason

        if lang not in accepted():
            raise HTTPException(422, f"no language {lang!r} here")
        live = await live_or_404(hub, game_id)
        _finished(live)
        m = live.table.match
        step = min(step, m.seq)
        if seat is not None and seat >= live.game.players:
            raise HTTPException(422, f"no seat {seat}")
        view = m.history[step].envelope(seat, step)
        names = [seat_label(str(s["name"]), lang) for s in live.seat_list()]
        out: dict[str, Any] = {
            "step": step,
            "names": names,
            "steps": m.seq,
            "view": view,
            "events": m.events_for(seat)[:step],
            "why": {
                str(k): bot_reason(text, lang, live.game.NAME)
                for k, (_, text) in live.table.explanations.items()
            },
        }
        if marks:
            from tianxia.web.tableview import replay_marks

            out["marks"] = replay_marks(m)
        if board:
            from tianxia.web.boards import render
            from tianxia.web.i18n import gettext_for

            out["board"] = render(live.game, view, [], gettext_for(lang), names).svg
        if lang != "en":
            from tianxia.web.sentences import translate_sentence

            out["events"] = [
                {**e, "text": translate_sentence(e["text"], lang, live.game.NAME)}
                if e.get("text")
                else e
                for e in out["events"]
            ]
        from tianxia.web.tableview import log_words

        for e in out["events"]:  # the log in words, as the table shows it
            said = live.table.words(int(e["seq"]) - 1, seat)
            e["words"] = log_words(*said, lang, live.game.NAME)
            if live.marks.get(int(e["seq"]), (0, False))[1]:
                e["stand_in"] = True  # as the table marked it: a stand-in's, not the player's
        return out

    @app.get("/api/leaderboard/{game}")
    async def leaderboard(
        game: str, hub: HubDep, limit: Annotated[int, Query(ge=1, le=500)] = 100
    ) -> list[dict[str, Any]]:
        """The best `limit` ratings of a title, best first."""
        if game not in tianxia.list_games():
            raise HTTPException(404, f"no game {game!r}")
        return await hub.storage.read(hub.storage.store.leaderboard, game, limit)

    # --- the websocket ----------------------------------------------------------------------
    # Open websockets per client address (only addresses with one open).
    sockets: Counter[str] = Counter()
    # Every open websocket, to be closed with a word when the process stops.
    open_sockets: set[WebSocket] = set()

    async def drain() -> None:
        """A stop (SIGTERM, a rolling restart), once no new connection is accepted: no
        bot or clock of ours acts any more, the commits under way finish (each under
        its game's lock), the leases go back for the other processes to take, and every
        page is told to reconnect at once (1012, Service Restart)."""
        hub: Hub | None = getattr(app.state, "hub", None)
        if hub is None:
            return
        hub.leases.stopping = True
        for live in list(hub.games.values()):
            async with live.lock:
                pass
        await hub.leases.release_all()
        for ws in list(open_sockets):
            with contextlib.suppress(Exception):  # already closed: nothing to do
                await ws.close(code=1012, reason=RESTARTING)

    app.state.drain = drain

    @app.websocket("/ws/games/{game_id}")
    async def play(ws: WebSocket, game_id: str) -> None:
        if not origin_allowed(ws.headers, limits.origins):
            # A page of another site opening a socket with this browser's cookies and
            # links: refused before the handshake completes (HTTP 403).
            await ws.close(code=1008)
            return
        address = ws.client.host if ws.client else ""
        cap = limits.connections_per_address
        if cap and sockets[address] >= cap:
            await ws.accept()
            await ws.send_json(
                _error(
                    P.TOO_MANY_CONNECTIONS,
                    f"this address has {cap} connections open, as many as it may: close one first",
                )
            )
            await ws.close(code=1008)
            return
        sockets[address] += 1
        open_sockets.add(ws)
        try:
            await _play(ws, game_id)
        finally:
            open_sockets.discard(ws)
            sockets[address] -= 1
            if sockets[address] <= 0:
                del sockets[address]

    async def _play(ws: WebSocket, game_id: str) -> None:
        hub: Hub = ws.app.state.hub
        await ws.accept()
        try:
            live = await hub.get(game_id) if len(game_id) <= 32 else None
        except Unloadable as e:
            await ws.send_json({"type": "error", "code": P.UNLOADABLE, "reason": str(e)})
            await ws.close(code=4409)
            return
        if live is None:
            await ws.send_json({"type": "error", "code": "no_such_game", "reason": "no such game"})
            await ws.close(code=4404)
            return

        async def send(msg: dict[str, Any]) -> None:
            await ws.send_text(P.encode(msg))

        if hooks is not None and hooks.tap_path is not None:
            tapped = live

            async def send(msg: dict[str, Any]) -> None:
                text = P.encode(msg)
                hooks.outbound("ws", tapped, conn.seat, text)
                await ws.send_text(text)

        async def close() -> None:
            with contextlib.suppress(Exception):  # already closed: nothing to do
                await ws.close(code=1011)

        conn = Connection(send=send, close=close)
        # The account whose session cookie the handshake carried (`SessionGuard`): its
        # seats may be bound without their secrets.
        session = ws.scope.get(SCOPE_KEY)
        conn.account = session.account_id if session is not None else None
        drops = 0
        try:
            while True:
                frame = await ws.receive()
                if frame["type"] == "websocket.disconnect":
                    break
                text = frame.get("text")
                if text is None:
                    await send(_error(P.BAD_MESSAGE, "messages are JSON text, not binary frames"))
                    continue
                if not conn.spend():
                    drops += 1
                    if drops > 200:
                        await ws.close(code=1008)
                        break
                    await send(_error(P.RATE_LIMITED, "too many messages: slow down"))
                    continue
                if len(text.encode()) > P.MAX_FRAME:
                    await send(_error(P.TOO_LARGE, f"a message holds at most {P.MAX_FRAME} bytes"))
                    continue
                if session is not None:
                    accounts.touch(hub, session)
                # The game was loaded anew in this process (another rewrote its log):
                # this connection was moved to the new copy (`Hub.reload`).
                live = hub.current(live)
                try:
                    await _handle(live, conn, text)
                except Evicted:
                    # The game left memory before this connection's hello and was
                    # loaded again meanwhile: the page reconnects to the one in memory.
                    await ws.close(code=1012)
                    break
                except SQLAlchemyError as e:
                    # A read or write the database failed (an act's own failure is
                    # refused as `unavailable` by the game): nothing changed.
                    log.error("game %s: the database failed: %s", live.id, e)
                    await send(_error(P.UNAVAILABLE, UNAVAILABLE_SENTENCE))
        except (WebSocketDisconnect, WebSocketDisconnected):
            pass  # the client went away, perhaps while it was being answered
        except RuntimeError as e:
            # uvicorn closed the socket itself (a heartbeat left unanswered) while this
            # handler was answering: it says so with a bare RuntimeError, not a
            # disconnect. Anything else is a fault and goes on up.
            if "after sending 'websocket.close'" not in str(e):
                raise
            log.info("game %s: a connection the heartbeat closed was being answered", live.id)
        finally:
            hub.current(live).detach(conn)

    async def _handle(live: LiveGame, conn: Connection, text: str) -> None:
        try:
            raw = json.loads(text)
        except (ValueError, RecursionError):
            await conn.send(_error(P.BAD_JSON, "the message is not JSON"))
            return
        try:
            msg = P.client_message.validate_python(raw)
        except (ValidationError, RecursionError) as e:
            errors = e.errors() if isinstance(e, ValidationError) else []
            why = "does not fit the protocol"
            if errors:
                where = ".".join(str(x) for x in errors[0]["loc"])
                why = f"{where}: {errors[0]['msg']}" if where else errors[0]["msg"]
            await conn.send(_error(P.BAD_MESSAGE, why))
            return
        if isinstance(msg, P.Hello):
            await _hello(live, conn, msg)
            return
        if not conn.bound:
            await conn.send(_error(P.NO_HELLO, "say hello first"))
            return
        live.player_returns(conn.seat)
        if isinstance(msg, P.Chat):
            if conn.seat is None:
                await conn.send(_error(P.NO_SEAT, "spectators do not chat"))
                return
            line = {"type": "chat", "seat": conn.seat, "text": msg.text}
            live.chat = [*live.chat[-49:], line]
            for c in list(live.conns):
                c.post(line)
            return
        async with live.lock:
            if isinstance(msg, P.Act):
                reply = await live.act(conn, msg)
            else:
                reply = await live.undo(conn, msg)
        # Answered outside the lock: an asker that stops reading holds up only itself.
        try:
            await conn.send(reply)
        except Exception:
            # The asker left before its answer: the change is committed all the
            # same, and every other viewer (and the bots) must still hear of it.
            log.info("game %s: the answer to %s found its socket closed", live.id, msg)
        if reply["type"] in ("accepted", "undone"):
            if hooks is not None:
                hooks.fault("after_ack")
            live.broadcast()
        live.kick()

    async def _hello(live: LiveGame, conn: Connection, msg: P.Hello) -> None:
        if msg.secret is not None:
            found = await live.hub.storage.run(live.hub.storage.store.seat_by_secret, msg.secret)
            if found is None or found[0] != live.id:
                await conn.send(_error(P.UNKNOWN_SECRET, "this secret holds no seat of this game"))
                return
            conn.seat = found[1]
        elif msg.seat is not None:
            # A seat of the account this socket was opened for (its session cookie).
            if (
                conn.account is None
                or msg.seat >= len(live.seats)
                or live.seats[msg.seat].get("account_id") != conn.account
            ):
                why = "this seat of this game is not the signed-in account's"
                await conn.send(_error(P.UNKNOWN_SECRET, why))
                return
            conn.seat = msg.seat
        elif msg.spectator:
            conn.seat = None
        else:
            await conn.send(
                _error(P.BAD_MESSAGE, "hello names a seat's secret, a seat, or spectator: true")
            )
            return
        conn.bound = True
        conn.player = msg.player
        conn.board = msg.board
        conn.lang = msg.lang
        conn.sent_seq = min(msg.last_seq, live.table.seq)
        if hooks is not None and hooks.skip_an_event and msg.last_seq:
            conn.sent_seq = min(msg.last_seq + 1, live.table.seq)
        conn.sent_final = False
        live.player_returns(conn.seat)
        live.attach(conn)
        live.kick()

    return app


async def _sweep(hub: Hub, limits: Limits) -> None:
    """Now and then: idle games leave memory (`Hub.trim`), and open games nobody has
    joined for `limits.open_game_expiry` seconds are deleted."""
    last_expiry = 0.0
    # A short expiry is looked for more often than once a minute.
    every = min(EXPIRY_SWEEP, max(SWEEP, limits.open_game_expiry / 4))
    while True:
        await asyncio.sleep(SWEEP)
        hub.trim()
        now = time.time()
        if limits.open_game_expiry and now - last_expiry >= every:
            last_expiry = now
            try:
                while gone := await hub.storage.run(
                    hub.storage.store.expire_open, now - limits.open_game_expiry
                ):
                    hub.lobby.changed()
                    for game_id in gone:
                        live = hub.games.pop(game_id, None)
                        if live is not None:
                            live.evicted = True
                            for conn in list(live.conns):
                                live.detach(conn)
                                await conn.close()
                    log.info("%d open games nobody joined have expired", len(gone))
            except SQLAlchemyError as e:
                log.error("open games could not be expired: %s", e)


async def _caught_up(hub: Hub, live: LiveGame) -> None:
    """Where several processes serve one database, bring `live` (whose lock the caller
    holds) up to it before judging a change of its seats; the change itself is still
    written only if the seat is as judged (`Store.update_seat`'s `only_if`)."""
    if not hub.storage.store.shared:
        return
    if await live.sync() is not live:
        raise Evicted(f"game {live.id} was reloaded: ask again")


async def _heartbeat(hub: Hub, holder: str) -> None:
    """Renew the lease; a process that finds it taken over stops serving (two writers
    would each serve games the other changes)."""
    while True:
        await asyncio.sleep(LEASE_SECONDS / 3)
        try:
            held = await hub.storage.run(hub.storage.store.renew_lease, holder)
        except SQLAlchemyError as e:
            log.error("the lease could not be renewed: %s", e)
            continue
        if not held:
            log.error("another tianxia serve took over this database's lease: stopping")
            os.kill(os.getpid(), signal.SIGTERM)
            return


# The reason of the close that tells a page to reconnect at once (code 1012).
RESTARTING = "restarting: reconnect"
# Seconds between sweeps of memory, and between sweeps for expired open games.
SWEEP = 1.0
EXPIRY_SWEEP = 60.0


def _error(code: str, reason: str) -> dict[str, Any]:
    return {"type": "error", "code": code, "reason": reason}
