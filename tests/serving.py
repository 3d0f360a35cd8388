"""A real server in a subprocess on a loopback port, for the server's, the browser's and
the reliability tests; and the throwaway PostgreSQL cluster they share."""

from __future__ import annotations

import atexit
import itertools
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

_runs = itertools.count()
INITDB = ("--no-sync", "-E", "UTF8")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Server:
    """`tianxia serve` as a subprocess. Its output goes to a file, never to a pipe: a
    pipe nobody reads fills up and stalls the server at its first line past the
    pipe's capacity (and the reliability tests read the log for tracebacks).

    Args:
        database: the SQLAlchemy URL.
        cwd: where the server runs and writes its log.
        args: more `tianxia serve` options.
        env: variables added to the server's environment (the test hooks).
        port: a fixed port (clients that outlive a restart find it again); 0: any.
        forked: start it by a fork of a warm parent (tests/forkserver.py) rather than
            a cold interpreter: the same server, started in a tenth of the time.
    """

    def __init__(
        self,
        database: str,
        cwd: Path,
        *args: str,
        env: dict[str, str] | None = None,
        port: int = 0,
        forked: bool = False,
    ) -> None:
        self.forked = forked
        self.child: int | None = None
        self.database = database
        self.args = args
        self.cwd = cwd
        self.env = dict(env or {})
        self.port = port
        self.proc: subprocess.Popen[str] | None = None
        self.base = ""
        self.log = cwd / "server.log"
        self.logs: list[Path] = []

    def start(self, env: dict[str, str] | None = None) -> None:
        """Start the server; `env` adds variables for this run only."""
        code = "from tianxia.cli.main import main; main()"
        self.log = self.cwd / f"server-{os.getpid()}-{next(_runs)}.log"
        self.logs.append(self.log)
        argv = ["serve", "--port", str(self.port), "--database", self.database, *self.args]
        if self.forked:
            full = {**os.environ, **self.env, **(env or {})}
            self.log.write_text("")
            self.child = _fork_server().start(argv, full, self.cwd, self.log)
            self._wait_ready()
            return
        with self.log.open("w") as out:
            self.proc = subprocess.Popen(
                [
                    sys.executable,
                    "-c",
                    code,
                    "serve",
                    "--port",
                    str(self.port),
                    "--database",
                    self.database,
                    *self.args,
                ],
                cwd=self.cwd,
                stdout=out,
                stderr=subprocess.STDOUT,
                text=True,
                env={**os.environ, **self.env, **(env or {})},
            )
        self._wait_ready()

    def _wait_ready(self) -> None:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            m = re.search(r"serving on (http://127\.0\.0\.1:\d+)/", self.log.read_text())
            if m:
                self.base = m.group(1)
                return
            if not self.alive():
                raise RuntimeError(f"the server stopped:\n{self.log.read_text()[-3000:]}")
            time.sleep(0.01)
        self.stop(kill=True)
        raise RuntimeError("the server did not start in time")

    @property
    def pid(self) -> int:
        if self.child is not None:
            return self.child
        assert self.proc is not None
        return self.proc.pid

    def alive(self) -> bool:
        if self.child is not None:
            return _exists(self.child)
        return self.proc is not None and self.proc.poll() is None

    def output(self) -> str:
        """Everything every run of this server has written."""
        return "".join(p.read_text(errors="replace") for p in self.logs if p.exists())

    def stop(self, kill: bool = False) -> None:
        if self.child is not None:
            pid, self.child = self.child, None
            if _exists(pid):
                os.kill(pid, signal.SIGKILL if kill else signal.SIGTERM)
            deadline = time.monotonic() + 20
            while _exists(pid):
                if time.monotonic() > deadline:
                    os.kill(pid, signal.SIGKILL)
                    deadline = time.monotonic() + 20
                time.sleep(0.005)
            return
        if self.proc is None:
            return
        if self.proc.poll() is None:
            if kill:
                self.proc.kill()
            else:
                self.proc.terminate()
        try:
            self.proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        self.proc = None

    def new_game(self, title: str, seats: list[str]) -> str:
        """A game of `title` created over the API with these seats; its id."""
        import httpx

        r = httpx.post(
            f"{self.base}/api/games", json={"game": title, "seats": seats, "players": len(seats)}
        )
        r.raise_for_status()
        return str(r.json()["id"])

    def join(self, gid: str, seat: int, name: str) -> str:
        """Take `seat` of game `gid` under `name`; the seat's secret."""
        import httpx

        r = httpx.post(f"{self.base}/api/games/{gid}/join", json={"seat": seat, "name": name})
        r.raise_for_status()
        return str(r.json()["secret"])

    def restart(self, kill: bool = False) -> None:
        self.stop(kill=kill)
        self.start()


def _exists(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


class _ForkServer:
    """The warm parent of this test process (tests/forkserver.py), started on first use
    and ended when the test process exits."""

    def __init__(self) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, str(Path(__file__).with_name("forkserver.py"))],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        assert self.proc.stdin is not None and self.proc.stdout is not None
        if self.proc.stdout.readline().strip() != "ready":
            raise RuntimeError("the fork server did not start")
        atexit.register(self.close)

    def start(self, argv: list[str], env: dict[str, str], cwd: Path, log: Path) -> int:
        assert self.proc.stdin is not None and self.proc.stdout is not None
        order = {"argv": argv, "env": env, "cwd": str(cwd), "log": str(log)}
        self.proc.stdin.write(json.dumps(order) + "\n")
        self.proc.stdin.flush()
        return int(self.proc.stdout.readline())

    def close(self) -> None:
        if self.proc.poll() is None:
            assert self.proc.stdin is not None
            self.proc.stdin.close()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()


_forker: _ForkServer | None = None


def _fork_server() -> _ForkServer:
    global _forker
    if _forker is None or _forker.proc.poll() is not None:
        _forker = _ForkServer()
    return _forker


def postgres_cluster() -> Iterator[str | None]:
    """A throwaway PostgreSQL cluster owned by the postgres user (fsync on), or None if
    none can run here."""
    bins = sorted(Path("/usr/lib/postgresql").glob("*/bin"))
    initdb = bins[-1] / "initdb" if bins else None
    if initdb is None or not initdb.exists() or shutil.which("runuser") is None:
        yield None
        return
    tmp = Path(tempfile.mkdtemp(prefix="tianxia-pg-"))
    shutil.chown(tmp, "postgres", "postgres")
    data = tmp / "data"
    as_pg = ["runuser", "-u", "postgres", "--"]
    subprocess.run(
        [*as_pg, str(initdb), *("-D", str(data), "-U", "postgres", "-A", "trust"), *INITDB],
        check=True,
        capture_output=True,
    )
    port = free_port()
    options = f"-p {port} -k {tmp} -c listen_addresses=127.0.0.1 -c max_connections=200"
    pg_ctl = str(bins[-1] / "pg_ctl")
    subprocess.run(
        [*as_pg, pg_ctl, "-D", str(data), "-l", str(tmp / "log"), "-w", "-o", options, "start"],
        check=True,
        capture_output=True,
    )
    # A test process killed outright (a timeout, SIGKILL) runs no `finally`: a watcher of
    # its own session stops the cluster once this process is gone.
    subprocess.Popen(
        [sys.executable, "-c", _STOP_WHEN_GONE, str(os.getpid()), pg_ctl, str(data), str(tmp)],
        start_new_session=True,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        yield f"postgresql+psycopg://postgres@127.0.0.1:{port}/postgres"
    finally:
        subprocess.run([*as_pg, pg_ctl, "-D", str(data), "-m", "fast", "stop"], capture_output=True)
        shutil.rmtree(tmp, ignore_errors=True)


_STOP_WHEN_GONE = """
import os, shutil, subprocess, sys, time
owner, pg_ctl, data, tmp = int(sys.argv[1]), *sys.argv[2:]
while os.path.exists(data):
    try:
        os.kill(owner, 0)
    except ProcessLookupError:
        subprocess.run(["runuser", "-u", "postgres", "--", pg_ctl, "-D", data, "-m", "fast",
                        "stop"], capture_output=True)
        shutil.rmtree(tmp, ignore_errors=True)
        break
    time.sleep(1)
"""


def reset_postgres(url: str) -> None:
    """An empty schema: each test's server migrates a fresh database."""
    import sqlalchemy as sa

    engine = sa.create_engine(url)
    with engine.begin() as c:
        c.exec_driver_sql("DROP SCHEMA public CASCADE; CREATE SCHEMA public")
    engine.dispose()
