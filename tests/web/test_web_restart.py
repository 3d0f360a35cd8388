"""A process of several restarting under a player's page: the page is closed with 1012,
reconnects at once through nginx to a live process, and shows nothing of it."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("playwright")

from playwright.sync_api import Page, expect

from cluster import Cluster
from nginxfront import available
from serving import reset_postgres

pytestmark = pytest.mark.skipif(not available(), reason="Debian's nginx is missing")


@pytest.fixture
def cluster(postgres: str | None, tmp_path: Path) -> Iterator[Cluster]:
    if postgres is None:
        pytest.skip("no PostgreSQL here: `make test` installs it")
    reset_postgres(postgres)
    with Cluster(postgres, tmp_path, 2, "--bot-pause", "0.3") as c:
        yield c


def test_a_restarting_process_sends_the_page_elsewhere_at_once(
    cluster: Cluster, page: Page
) -> None:
    page.goto(cluster.base + "/?lang=en")
    page.locator("button.quick[data-game=greatwall]").click()
    expect(page.locator("#moves-box")).to_be_visible()
    gid = page.url.split("/games/", 1)[1].split("?", 1)[0].split("#", 1)[0]
    # Every text the status line shows from now on, when the socket closed (and how),
    # and when the page opened its next one.
    page.evaluate(
        """() => {
          window.shownStatus = [];
          new MutationObserver(() => window.shownStatus.push(
            document.getElementById('status').textContent)
          ).observe(document.getElementById('status'),
                    {childList: true, characterData: true, subtree: true});
          const c = [...conns.values()][0];
          c.ws.addEventListener('close', (e) => {
            window.lastClose = {at: performance.now(), code: e.code, reason: e.reason};
          });
          const Socket = window.WebSocket;
          window.WebSocket = function (...args) {
            window.openedAt = window.openedAt || performance.now();
            return new Socket(...args);
          };
        }"""
    )
    serving = cluster.holder(gid)
    assert serving is not None
    cluster.servers[serving].stop()  # SIGTERM: the rolling restart's stop
    page.wait_for_function(
        "() => { const c = [...conns.values()][0];"
        " return window.openedAt && c.ws.readyState === 1 && c.view }",
        timeout=10_000,
    )
    closed = page.evaluate("window.lastClose")
    assert (closed["code"], closed["reason"]) == (1012, "restarting: reconnect")
    # At once: a lost connection's back-off waits at least 350 ms.
    assert page.evaluate("window.openedAt") - closed["at"] < 300
    expect(page.locator("#moves-box")).to_be_visible()
    shown = page.evaluate("window.shownStatus")
    assert not [s for s in shown if "reconnecting" in s.lower()], shown
