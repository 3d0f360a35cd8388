"""Several `tianxia serve` processes on one PostgreSQL database with Debian's nginx in
front, configured from the shipped deploy/nginx/tianxia-cluster.conf: what a site of
several processes runs, on loopback ports, stopped by the test that started it.

    with Cluster(postgres_url, tmp_path, processes=2) as cluster:
        base = cluster.base                 # nginx: http://127.0.0.1:<port>
        gid = cluster.new_game("greatwall", ["open", "open"])   # through nginx
        i = cluster.holder(gid)             # the index of the process nginx sends it to
        cluster.servers[i].stop(kill=True)  # kill -9; .start() again on the same port
        cluster.kill(i); cluster.restart(i) # the same, by index
        cluster.direct(i)                   # that process's own base URL (no nginx)

- `Cluster(database, folder, processes=2, *args, env=None, forked=True)`: `args` are
  more `tianxia serve` options for every process (`--trusted-proxy 127.0.0.1` and no
  quotas or caps per address are already given, later options override them); `env` is added to each process's environment. `TIANXIA_TEST_HOOKS=1` is
  always set: each response then names its process in `x-tianxia-process: <pid>`.
- Each process has a fixed port of its own (`ports[i]`), kept across restarts: nginx's
  upstream lines name them. `servers[i]` is a tests/serving.py `Server`.
- `process_of(response_headers)`: the index of the process that answered, or None.
- `holder(game_id)`: where nginx sends that game's requests (asked over the API).
- `start()`/`stop()` (or `with`): the processes, then nginx; stop in reverse order.
  Processes start one after another: the first migrates the empty database.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from types import TracebackType

import httpx

from nginxfront import Nginx
from serving import Server, free_port

PROCESS_HEADER = "x-tianxia-process"
# Every client of a test comes from one address, nginx's: no quotas per address.
_UNLIMITED = (
    "--trusted-proxy",
    "127.0.0.1",
    "--connections-per-address",
    "0",
    "--games-per-minute",
    "0",
    "--open-games",
    "0",
)


class Cluster:
    def __init__(
        self,
        database: str,
        folder: Path,
        processes: int = 2,
        *args: str,
        env: dict[str, str] | None = None,
        forked: bool = True,
    ) -> None:
        assert database.startswith("postgresql"), "several processes share PostgreSQL only"
        self.database = database
        self.folder = folder
        self.ports = [free_port() for _ in range(processes)]
        options = (*_UNLIMITED, *args)
        environment = {"TIANXIA_TEST_HOOKS": "1", **(env or {})}
        self.servers: list[Server] = []
        for i, port in enumerate(self.ports):
            cwd = folder / f"process-{i}"
            cwd.mkdir(parents=True, exist_ok=True)
            self.servers.append(
                Server(database, cwd, *options, env=environment, port=port, forked=forked)
            )
        self.nginx = Nginx(self.ports)
        self.base = self.nginx.base

    def start(self) -> None:
        try:
            for server in self.servers:
                server.start()
            self.nginx.start()
        except BaseException:
            self.stop()
            raise

    def stop(self) -> None:
        self.nginx.stop()
        for server in reversed(self.servers):
            server.stop()

    def __enter__(self) -> Cluster:
        self.start()
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self.stop()

    def direct(self, i: int) -> str:
        """Process `i`'s own address, past nginx."""
        return f"http://127.0.0.1:{self.ports[i]}"

    def pids(self) -> list[int | None]:
        return [s.pid if s.alive() else None for s in self.servers]

    def process_of(self, headers: Mapping[str, str]) -> int | None:
        """The index of the process whose pid the response names."""
        pid = headers.get(PROCESS_HEADER)
        if pid is None:
            return None
        for i, server in enumerate(self.servers):
            if server.alive() and str(server.pid) == pid:
                return i
        return None

    def holder(self, game_id: str) -> int | None:
        """The process nginx sends game `game_id`'s requests to now."""
        r = httpx.get(f"{self.base}/api/games/{game_id}", timeout=30)
        r.raise_for_status()
        return self.process_of(r.headers)

    def new_game(self, title: str, seats: list[str]) -> str:
        """A game of `title` created through nginx with these seats; its id."""
        r = httpx.post(
            f"{self.base}/api/games",
            json={"game": title, "seats": seats, "players": len(seats)},
            timeout=30,
        )
        r.raise_for_status()
        return str(r.json()["id"])

    def join(self, game_id: str, seat: int, name: str) -> str:
        """Take `seat` through nginx; the seat's secret."""
        r = httpx.post(
            f"{self.base}/api/games/{game_id}/join", json={"seat": seat, "name": name}, timeout=30
        )
        r.raise_for_status()
        return str(r.json()["secret"])

    def kill(self, i: int) -> None:
        """kill -9 process `i`."""
        self.servers[i].stop(kill=True)

    def restart(self, i: int, kill: bool = False) -> None:
        """Stop process `i` (SIGTERM, or SIGKILL with `kill`) and start it again on its
        port."""
        self.servers[i].restart(kill=kill)
