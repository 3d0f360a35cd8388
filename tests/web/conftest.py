"""The browser's tests: a real server, and Debian's Chromium driven by Playwright."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from serving import Server

CHROMIUM = Path("/usr/bin/chromium")


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    pytest.importorskip("fastapi")
    folder = tmp_path_factory.mktemp("site")
    # No quotas per address: every test's games come from one address within minutes.
    srv = Server(
        f"sqlite:///{folder / 'tianxia.sqlite3'}",
        folder,
        "--games-per-minute",
        "0",
        "--open-games",
        "0",
        "--connections-per-address",
        "0",
        # Forked from a warm parent (tests/forkserver.py): a module's server starts in a
        # few tenths of a second rather than the seconds of a cold import.
        forked=True,
    )
    srv.start()
    try:
        yield srv
    finally:
        srv.stop()


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args: dict[str, Any]) -> dict[str, Any]:
    if not CHROMIUM.exists():
        pytest.skip("Debian's Chromium is missing: `make test` installs it")
    return {
        **browser_type_launch_args,
        "executable_path": str(CHROMIUM),
        "args": [
            "--no-sandbox",
            "--disable-gpu",
            "--disable-dev-shm-usage",
            "--disable-background-networking",
            "--disable-component-update",
        ],
    }


# Every page a test opens shows the bots' moves at once, as a player's "Fast mode" does:
# the pause between views that come together (about half a second, for a person's eyes)
# would otherwise be most of the time a test spends watching bots. A test of that pause
# is marked `paced`.
_FAST = "try { localStorage.setItem('tianxia.fast', '1'); } catch (e) {}"


@pytest.fixture
def context(context: Any, request: pytest.FixtureRequest) -> Any:
    if request.node.get_closest_marker("paced") is None:
        context.add_init_script(_FAST)
    return context


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "paced: a browser test of the pause between bots' views (not fast mode)"
    )
