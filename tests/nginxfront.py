"""Debian's nginx in front of a test server, configured from the shipped site file
(deploy/nginx/tianxia.conf), or in front of several (deploy/nginx/tianxia-cluster.conf):
on 127.0.0.1 and a free port, as an unprivileged user, stopped by the test that
started it."""

from __future__ import annotations

import os
import pwd
import re
import shutil
import socket
import subprocess
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

from serving import free_port

SITE = Path(__file__).parents[1] / "deploy" / "nginx" / "tianxia.conf"
CLUSTER_SITE = SITE.with_name("tianxia-cluster.conf")
NGINX = shutil.which("nginx") or "/usr/sbin/nginx"

# A main configuration around the site file, as Debian's nginx.conf is around its sites,
# with every path nginx writes in the test's folder.
_MAIN = """worker_processes 1;
daemon off;
pid {folder}/nginx.pid;
error_log {folder}/error.log warn;
events {{ worker_connections 512; }}
http {{
    access_log off;
    gzip on;
    client_body_temp_path {folder}/body;
    proxy_temp_path {folder}/proxy;
    fastcgi_temp_path {folder}/fastcgi;
    uwsgi_temp_path {folder}/uwsgi;
    scgi_temp_path {folder}/scgi;
    include {folder}/tianxia.conf;
}}
"""


def available() -> bool:
    return Path(NGINX).exists()


def site_for(
    upstream_port: int,
    port: int,
    header_timeout: float | None = None,
    per_address: int | None = None,
) -> str:
    """The shipped site file pointed at a test server, listening on loopback only;
    `header_timeout` shortens the time a request's headers may take, `per_address`
    the connections one address may hold."""
    text = SITE.read_text()

    def once(pattern: str, new: str, text: str) -> str:
        out, n = re.subn(pattern, new, text, flags=re.M)
        assert n == 1, f"deploy/nginx/tianxia.conf: no single line matches {pattern!r}"
        return out

    text = once(r"^\s*server 127\.0\.0\.1:8000;", f"    server 127.0.0.1:{upstream_port};", text)
    text = once(r"^\s*listen 80;", f"    listen 127.0.0.1:{port};", text)
    text = once(r"^\s*listen \[::\]:80;\n", "", text)
    if header_timeout is not None:
        text = once(
            r"^\s*client_header_timeout \S+;",
            f"    client_header_timeout {int(header_timeout * 1000)}ms;",
            text,
        )
    if per_address is not None:
        text = once(
            r"^\s*limit_conn tianxia_per_address \d+;",
            f"    limit_conn tianxia_per_address {per_address};",
            text,
        )
    return text


def cluster_site_for(upstream_ports: Sequence[int], port: int) -> str:
    """The shipped cluster site file with one upstream line per test server, listening
    on loopback only."""
    text = CLUSTER_SITE.read_text()
    servers = re.findall(r"^\s*server 127\.0\.0\.1:\d+[^;\n]*;\n", text, flags=re.M)
    assert len(servers) >= 2, "deploy/nginx/tianxia-cluster.conf: no upstream lines"
    # Each test server's line as the shipped file's first one, its parameters kept.
    ours = "".join(re.sub(r":\d+", f":{p}", servers[0], count=1) for p in upstream_ports)
    text = text.replace(servers[0], ours)
    for line in servers[1:]:
        text = text.replace(line, "", 1)
    for pattern, new in (
        (r"^\s*listen 80;", f"    listen 127.0.0.1:{port};"),
        (r"^\s*listen \[::\]:80;\n", ""),
    ):
        text, n = re.subn(pattern, new, text, flags=re.M)
        assert n == 1, f"deploy/nginx/tianxia-cluster.conf: no single line matches {pattern!r}"
    return text


class Nginx:
    """nginx as a foreground subprocess (`daemon off`), its configuration and logs in a
    folder of its own under /tmp (pytest's folders are closed to other users), removed
    when it stops. One upstream port: tianxia.conf in front of it; a sequence of ports:
    tianxia-cluster.conf in front of them (`header_timeout` and `per_address` apply to
    the first only)."""

    def __init__(
        self,
        upstream_port: int | Sequence[int],
        header_timeout: float | None = None,
        per_address: int | None = None,
    ):
        folder = Path(tempfile.mkdtemp(prefix="tianxia-nginx-"))
        self.folder = folder
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        if isinstance(upstream_port, int):
            site = site_for(upstream_port, self.port, header_timeout, per_address)
        else:
            site = cluster_site_for(upstream_port, self.port)
        (folder / "tianxia.conf").write_text(site)
        self.conf = folder / "nginx.conf"
        self.conf.write_text(_MAIN.format(folder=folder))
        self.proc: subprocess.Popen[bytes] | None = None

    def check(self) -> subprocess.CompletedProcess[str]:
        """`nginx -t` on this configuration: its verdict in `stderr`."""
        argv = [NGINX, "-t", "-p", str(self.folder), "-e", str(self.folder / "error.log")]
        return subprocess.run([*argv, "-c", str(self.conf)], capture_output=True, text=True)

    def start(self) -> None:
        uid: int | None = None
        gid: int | None = None
        groups: list[int] | None = None
        if os.geteuid() == 0:
            # As root nginx would switch its workers to another user; the test runs it
            # as one, as an operator's unprivileged account would.
            nobody = pwd.getpwnam("nobody")
            uid, gid, groups = nobody.pw_uid, nobody.pw_gid, []
            for path in [self.folder, *self.folder.iterdir()]:
                os.chown(path, uid, gid)
            self.folder.chmod(0o700)
        argv = [NGINX, "-p", str(self.folder), "-e", str(self.folder / "error.log")]
        argv += ["-c", str(self.conf)]
        self.proc = subprocess.Popen(
            argv,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            user=uid,
            group=gid,
            extra_groups=groups,
        )
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"nginx stopped: {self.log()}")
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=1):
                    return
            except OSError:
                time.sleep(0.02)
        self.stop()
        raise RuntimeError(f"nginx did not start in time: {self.log()}")

    def log(self) -> str:
        path = self.folder / "error.log"
        return path.read_text(errors="replace") if path.exists() else ""

    def stop(self) -> None:
        if self.proc is None:
            return
        proc, self.proc = self.proc, None
        if proc.poll() is None:
            proc.terminate()  # SIGTERM: nginx's fast shutdown
            try:
                proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
        shutil.rmtree(self.folder, ignore_errors=True)
