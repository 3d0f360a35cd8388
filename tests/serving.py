"""A real server in a subprocess on a free loopback port, for the server's and the
browser's tests."""

from __future__ import annotations

import re
import subprocess
import sys
import time
from pathlib import Path


class Server:
    def __init__(self, database: str, cwd: Path, *args: str) -> None:
        self.database = database
        self.args = args
        self.cwd = cwd
        self.proc: subprocess.Popen[str] | None = None
        self.base = ""

    def start(self) -> None:
        code = "from tianxia.cli.main import main; main()"
        self.proc = subprocess.Popen(
            [
                sys.executable,
                "-c",
                code,
                "serve",
                "--port",
                "0",
                "--database",
                self.database,
                *self.args,
            ],
            cwd=self.cwd,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        assert self.proc.stdout is not None
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            line = self.proc.stdout.readline()
            if not line:
                raise RuntimeError(f"the server stopped: {self.proc.wait()}")
            m = re.search(r"serving on (http://127\.0\.0\.1:\d+)/", line)
            if m:
                self.base = m.group(1)
                return
        raise RuntimeError("the server did not start in time")

    def stop(self, kill: bool = False) -> None:
        if self.proc is None:
            return
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
