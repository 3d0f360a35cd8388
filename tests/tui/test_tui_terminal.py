"""No process outlives its terminal: `tianxia tui` under a shell that dies with its tmux
session (as under `make run`, where only the shell gets SIGHUP) must exit, not spin."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[2] / "src"


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return True
    return stat.split(")")[-1].split()[0] != "Z"


@pytest.mark.skipif(
    shutil.which("tmux") is None or shutil.which("make") is None, reason="needs tmux and make"
)
def test_the_terminal_player_exits_when_its_tmux_session_is_killed(tmp_path: Path) -> None:
    pidfile = tmp_path / "pid"
    socket = f"tianxia-test-{os.getpid()}"
    (tmp_path / "run.py").write_text(
        "import sys\nfrom tianxia.cli.main import main\nsys.argv = ['tianxia', 'tui']\nmain()\n"
    )
    (tmp_path / "run.sh").write_text(
        f"echo $$ > {pidfile}\nexec env PYTHONPATH={SRC} {sys.executable} {tmp_path / 'run.py'}\n"
    )
    (tmp_path / "Makefile").write_text("run:\n\tsh run.sh\n")
    # As `make run` in a tmux pane: make and its shell stand between tmux and the player.
    outer = f"cd {tmp_path} && make run"
    subprocess.run(
        ["tmux", "-L", socket, "new-session", "-d", "-x", "100", "-y", "30", outer], check=True
    )
    try:
        deadline = time.monotonic() + 30
        while not pidfile.exists() or not pidfile.read_text().strip():
            assert time.monotonic() < deadline, "the player did not start"
            time.sleep(0.2)
        pid = int(pidfile.read_text())
        time.sleep(4)  # the app is up and drawing
        assert alive(pid)
    finally:
        subprocess.run(["tmux", "-L", socket, "kill-session", "-t", "0"], check=False)
        subprocess.run(["tmux", "-L", socket, "kill-server"], check=False)
    deadline = time.monotonic() + 10
    while alive(pid) and time.monotonic() < deadline:
        time.sleep(0.2)
    still = alive(pid)
    if still:
        os.kill(pid, 9)
    assert not still, "tianxia tui outlived its terminal"
