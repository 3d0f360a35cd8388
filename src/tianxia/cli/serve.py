"""`tianxia serve`: the game server (extra `server`)."""

from __future__ import annotations

import gc
import ipaddress
import logging
import os

import typer

from tianxia.cli.app import app


@app.command()
def serve(
    host: str = typer.Option("127.0.0.1", help="Address to listen on."),
    port: int = typer.Option(8000, min=0, max=65535, help="Port (0: any free one)."),
    database: str = typer.Option(
        "",
        help="SQLAlchemy URL (default: $TIANXIA_DATABASE_URL, else SQLite under ./var/).",
    ),
    bot_pause: float = typer.Option(0.0, min=0.0, help="Seconds a bot waits after moving."),
    compress: bool = typer.Option(
        False,
        help="Offer per-message deflate on websockets (costs CPU per frame; views are small).",
    ),
    heartbeat: float = typer.Option(
        20.0,
        min=0.05,
        help="Seconds between websocket pings; a connection that leaves a ping unanswered "
        "as long again is closed (a client gone without a word, a half-open socket).",
    ),
    max_body: int = typer.Option(
        64 * 1024, min=1024, help="Bytes of one HTTP request body; more is answered 413."
    ),
    games_per_minute: int = typer.Option(
        60,
        min=0,
        help="Cost of the games one client address may create in any 60 seconds "
        "(a game costs 1, plus 1 per bot seat, doubled for bots alone; 0: no limit).",
    ),
    open_games: int = typer.Option(
        200,
        min=0,
        help="Cost of the games not yet finished one client address may hold at once "
        "(0: no limit).",
    ),
    games_in_memory: int = typer.Option(
        256,
        min=1,
        help="Idle games kept in memory; the others (and every finished game nobody "
        "watches) are loaded again from their log when asked for.",
    ),
    open_game_expiry: float = typer.Option(
        7 * 24 * 3600.0,
        min=0.0,
        help="Seconds after which an open game nobody has joined since is deleted (0: never).",
    ),
    lobby_cache: float = typer.Option(
        1.0,
        min=0.0,
        help="Seconds a page of the lobby is shared by everyone who asks for it; a game "
        "created, joined, left or finished shows at once (0: every request reads anew).",
    ),
    allow_origin: list[str] = typer.Option(
        [],
        help="An origin (https://host[:port]) whose pages may open websockets, besides "
        "the served host itself (repeat for more).",
    ),
    connections_per_address: int = typer.Option(
        64, min=0, help="Websockets one client address may hold open at once (0: no limit)."
    ),
    bot_processes: int = typer.Option(
        2,
        min=0,
        help="Processes that think for bots, below the server's priority; one of them "
        "only for games where a person waits (0: two threads of the server itself, "
        "where a long search slows every request; 1 counts as 2).",
    ),
    min_clock: float = typer.Option(
        60.0,
        min=0.01,
        help="Seconds: the smallest clock (each seat's initial bank) a game may be created "
        "with; shorter ones are refused (422). Below a minute a stand-in plays before a "
        "person could answer; tests shorten it.",
    ),
    lease_sweep: float = typer.Option(
        2.0,
        min=0.1,
        max=60.0,
        help="Seconds between sweeps for running games whose bots or clock no server "
        "process drives (PostgreSQL, several processes): a killed process's games go on "
        "within this and a load (docs/server.md, Several processes).",
    ),
    max_connections: int = typer.Option(
        2048,
        min=1,
        help="Connections and requests served at once; more are answered 503.",
    ),
    idle_timeout: int = typer.Option(
        5, min=1, help="Seconds an idle HTTP keep-alive connection is kept open."
    ),
    trusted_proxy: list[str] = typer.Option(
        [],
        help="The address (or network, e.g. 10.0.0.0/8) of a proxy in front, such as "
        "nginx on 127.0.0.1: the client address it sends in X-Forwarded-For is the one "
        "quotas and connection caps count (repeat for more). Without it, the "
        "connection's peer is the client and X-Forwarded-For is ignored.",
    ),
    smtp: str = typer.Option(
        "",
        envvar="TIANXIA_SMTP_URL",
        help="Send mail through this SMTP server: smtp://[user:password@]host[:port] "
        "(STARTTLS if offered), smtp+starttls://... (STARTTLS required), smtps://... "
        "(TLS). Without it no mail is sent (docs/server.md, Mail).",
    ),
    mail_from: str = typer.Option(
        "", envvar="TIANXIA_MAIL_FROM", help="The sender of the mail: tianxia@example.org."
    ),
    site_url: str = typer.Option(
        "",
        envvar="TIANXIA_SITE_URL",
        help="The site's address as players reach it, for the links in mails "
        "(default: http://HOST:PORT).",
    ),
    mail_delay: float = typer.Option(
        60.0,
        min=0.1,
        help="Seconds a turn mail waits (not sent if the player was active meanwhile), "
        "and at least between two mails to one account. For tests and operators.",
    ),
    mail_digest: float = typer.Option(
        86400.0,
        min=1.0,
        help="Seconds one digest covers (a UTC day); shorter for tests.",
    ),
) -> None:
    """Run the game server: the lobby, the websocket protocol, the database log."""
    try:
        import uvicorn

        from tianxia.server import YOUNG_GC
        from tianxia.server.app import create_app
        from tianxia.server.limits import Limits
        from tianxia.server.storage import (
            Damaged,
            LeaseHeld,
            Store,
            check_database,
            default_url,
            lease_holder,
            migrate,
        )
    except ImportError as e:
        raise typer.BadParameter(
            f"the server needs the extra 'server' (pip install 'tianxia[server]'): {e}"
        ) from e
    for proxy in trusted_proxy:
        try:
            ipaddress.ip_network(proxy, strict=False)
        except ValueError:
            raise typer.BadParameter(
                f"an address or a network (127.0.0.1, 10.0.0.0/8), not {proxy!r}",
                param_hint="--trusted-proxy",
            ) from None
    try:
        from tianxia.server.mail import MailConfigError, mail_config

        mail = mail_config(
            smtp, mail_from, site_url or f"http://{host}:{port}", mail_delay, mail_digest
        )
    except MailConfigError as e:
        raise typer.BadParameter(str(e), param_hint="--smtp") from None
    url = database or os.environ.get("TIANXIA_DATABASE_URL") or default_url()
    shown = url.split("@")[-1] if "@" in url else url
    try:
        check_database(url)
    except Damaged as e:
        typer.echo(f"Tianxia does not start: {e}", err=True)
        raise typer.Exit(1) from None
    # One process writes to a database: the lease is taken before listening, so a
    # second server refuses with a sentence rather than a traceback.
    migrate(url)
    holder = lease_holder()
    store = Store(url)
    try:
        store.take_lease(holder)
    except LeaseHeld as e:
        typer.echo(f"Tianxia does not start: {e}", err=True)
        raise typer.Exit(1) from None
    finally:
        store.close()
    limits = Limits(
        max_body=max_body,
        games_per_minute=games_per_minute,
        open_games=open_games,
        games_in_memory=games_in_memory,
        open_game_expiry=open_game_expiry,
        lobby_cache=lobby_cache,
        origins=tuple(allow_origin),
        connections_per_address=connections_per_address,
        bot_processes=bot_processes,
        min_clock=min_clock,
        lease_sweep=lease_sweep,
    )
    app = create_app(url, bot_pause=bot_pause, limits=limits, holder=holder, mail=mail)
    config = uvicorn.Config(
        app,
        host=host,
        port=port,
        ws_max_size=64 * 1024,
        # Deflate took a quarter of the event loop's time under load for frames of a few
        # KiB; it is there for slow links that want it.
        ws_per_message_deflate=compress,
        ws_ping_interval=heartbeat,
        ws_ping_timeout=heartbeat,
        limit_concurrency=max_connections,
        timeout_keep_alive=idle_timeout,
        # Anyone can send X-Forwarded-For: believed only from a proxy named by the operator,
        # else a client would dodge its quotas by naming another address.
        proxy_headers=bool(trusted_proxy),
        forwarded_allow_ips=list(trusted_proxy) or None,
        log_level="warning",
        lifespan="on",
    )
    # After the config: it sets up uvicorn's loggers.
    logging.getLogger("uvicorn.error").addFilter(_bad_utf8_is_no_crash)
    server = uvicorn.Server(config)
    original = server.startup

    async def startup(sockets: object = None) -> None:
        await original(sockets)  # type: ignore[arg-type]
        # What start-up built (modules, the games' data, the app) lives as long as the
        # process: frozen, the collector stops walking it at every full collection,
        # which otherwise shows as a pause in every live game's acknowledgements.
        gc.collect()
        gc.freeze()
        # Young objects collected rarely (`YOUNG_GC` says why).
        gc.set_threshold(YOUNG_GC, *gc.get_threshold()[1:])
        for s in server.servers:
            for sock in s.sockets:
                h, p = sock.getsockname()[:2]
                typer.echo(f"Tianxia is serving on http://{h}:{p}/ (database {shown})", err=False)

    stop = server.shutdown

    async def shutdown(sockets: object = None) -> None:
        # A rolling restart: no new connection, the commits under way finish, the
        # leases go back and every page is told to reconnect at once (1012), before
        # uvicorn closes what is left.
        for s in server.servers:
            s.close()
        drain = getattr(app.state, "drain", None)
        if drain is not None:
            await drain()
        await stop(sockets)  # type: ignore[arg-type]

    server.startup = startup  # type: ignore[method-assign]
    server.shutdown = shutdown  # type: ignore[method-assign]
    server.run()


def _bad_utf8_is_no_crash(record: logging.LogRecord) -> bool:
    """uvicorn answers a text frame of invalid UTF-8 rightly (it closes with 1007) but
    logs it as an error with a traceback: one line a client may send, many lines of log,
    and a false alarm for anyone watching the log for crashes. Logged as a warning."""
    if record.getMessage().startswith("Invalid UTF-8 sequence received from client"):
        record.levelno, record.levelname = logging.WARNING, "WARNING"
        record.exc_info = record.exc_text = None
        record.msg, record.args = (
            "a client sent invalid UTF-8 in a text frame: closed with 1007",
            (),
        )
    return True
