"""A warm parent for test servers: it imports the server and builds every game's data
once, then forks a fresh `tianxia serve` process for each start.

A cold start of the server costs 1.5-3 s of imports and data on the 2-core machine (more
under load), and the crash and duplicates harnesses start it dozens of times. A forked
child is still a whole new server process, killed with SIGKILL like any other: it shares
nothing with the parent but the modules it imported and the games' tables, built before
any database, socket or thread exists.

Run as ``python forkserver.py``: one JSON line per start on stdin (argv, env, cwd, log),
the child's pid as one line on stdout. EOF on stdin ends it, and its children die with
it (PR_SET_PDEATHSIG), so a test process that dies leaves no server behind.
"""

from __future__ import annotations

import contextlib
import ctypes
import json
import os
import signal
import sys

PR_SET_PDEATHSIG = 1


def _warm() -> None:
    import uvicorn
    import uvicorn.protocols.websockets.websockets_sansio_impl  # noqa: F401
    from alembic import command  # noqa: F401
    from alembic.config import Config  # noqa: F401
    from sqlalchemy.dialects import postgresql, sqlite  # noqa: F401

    import tianxia
    import tianxia.cli.main
    import tianxia.server.app

    with contextlib.suppress(ImportError):
        import psycopg  # noqa: F401
    with contextlib.suppress(ImportError):
        import tianxia.web.pages
    for name in tianxia.list_games():
        # A test game that needs options is built when a server uses it.
        with contextlib.suppress(Exception):
            tianxia.load_game(name)


def _child(order: dict[str, object]) -> None:
    libc = ctypes.CDLL(None, use_errno=True)
    libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
    signal.signal(signal.SIGCHLD, signal.SIG_DFL)
    os.setpgid(0, 0)
    os.chdir(str(order["cwd"]))
    fd = os.open(str(order["log"]), os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
    os.dup2(fd, 1)
    os.dup2(fd, 2)
    os.close(fd)
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)
    os.environ.clear()
    os.environ.update({str(k): str(v) for k, v in dict(order["env"]).items()})  # type: ignore[call-overload]
    sys.argv = ["tianxia", *[str(a) for a in order["argv"]]]  # type: ignore[attr-defined]
    code = 0
    try:
        from tianxia.cli.main import main

        main()
    except SystemExit as e:
        code = e.code if isinstance(e.code, int) else 1
    except BaseException:
        import traceback

        traceback.print_exc()
        code = 1
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(code)


def serve() -> None:
    _warm()
    # Children are reaped by the kernel: a killed server leaves no zombie whose pid
    # would still answer to signal 0.
    signal.signal(signal.SIGCHLD, signal.SIG_IGN)
    print("ready", flush=True)
    for line in sys.stdin:
        order = json.loads(line)
        pid = os.fork()
        if pid == 0:
            _child(order)
        print(pid, flush=True)


if __name__ == "__main__":
    serve()
