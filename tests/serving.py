"""A real server in a subprocess on a loopback port, for the server's, the browser's and
the reliability tests; and the throwaway PostgreSQL cluster they share."""

from __future__ import annotations

import itertools
import os
import re
import shutil
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
    """

    def __init__(
        self,
        database: str,
        cwd: Path,
        *args: str,
        env: dict[str, str] | None = None,
        port: int = 0,
    ) -> None:
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
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            m = re.search(r"serving on (http://127\.0\.0\.1:\d+)/", self.log.read_text())
            if m:
                self.base = m.group(1)
                return
            if self.proc.poll() is not None:
                raise RuntimeError(f"the server stopped:\n{self.log.read_text()[-3000:]}")
            time.sleep(0.02)
        self.stop(kill=True)
        raise RuntimeError("the server did not start in time")

    @property
    def pid(self) -> int:
        assert self.proc is not None
        return self.proc.pid

    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def output(self) -> str:
        """Everything every run of this server has written."""
        return "".join(p.read_text(errors="replace") for p in self.logs if p.exists())

    def stop(self, kill: bool = False) -> None:
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

    def restart(self, kill: bool = False) -> None:
        self.stop(kill=kill)
        self.start()


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
    try:
        yield f"postgresql+psycopg://postgres@127.0.0.1:{port}/postgres"
    finally:
        subprocess.run([*as_pg, pg_ctl, "-D", str(data), "-m", "fast", "stop"], capture_output=True)
        shutil.rmtree(tmp, ignore_errors=True)


def reset_postgres(url: str) -> None:
    """An empty schema: each test's server migrates a fresh database."""
    import sqlalchemy as sa

    engine = sa.create_engine(url)
    with engine.begin() as c:
        c.exec_driver_sql("DROP SCHEMA public CASCADE; CREATE SCHEMA public")
    engine.dispose()
