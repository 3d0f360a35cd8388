"""The pages under their content security policy: scripts and styles from /static only.

Over HTTP, every page carries the policy and holds no inline script, style or event
handler. In Chromium, a walk through every kind of page (the lobby, a table of each
title with a few moves played, a replay, a rules page, a title's lessons) meets no
`securitypolicyviolation` and logs no error; the walk's own listener is shown to catch
a violation first.
"""

from __future__ import annotations

import base64
import hashlib
import random
import re
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

pytest.importorskip("playwright")

from playwright.sync_api import ConsoleMessage, Page, expect

from serving import Server
from tianxia.server.limits import CONTENT_SECURITY_POLICY
from web.clicking import play_to_the_end

TITLES = ["china", "greatwall", "emperor", "mandarin", "silkroad"]

# Recorded by the page itself from its first moment (an init script runs outside the
# page's policy, before the page's own scripts).
_LISTEN = """
window.__violations = [];
document.addEventListener('securitypolicyviolation', (e) => window.__violations.push(
  `${e.effectiveDirective} blocked ${e.blockedURI || 'inline'} at ${e.sourceFile}:${e.lineNumber}`));
"""


def _finished_game(site: Server) -> str:
    gid = site.new_game("greatwall", ["bot:random", "bot:random"])
    deadline = time.monotonic() + 60
    while httpx.get(f"{site.base}/api/games/{gid}").json()["status"] != "finished":
        assert time.monotonic() < deadline, "the bots did not finish the game"
        time.sleep(0.1)
    return gid


def _pages(site: Server) -> list[str]:
    gid = site.new_game("greatwall", ["open", "open"])
    return [
        "/",
        "/?lang=de",
        f"/games/{gid}",
        f"/games/{gid}/replay",
        "/rules/china",
        "/rules/mandarin/data",
        "/learn/greatwall",
        "/learn/silkroad?lang=nl",
    ]


def test_every_page_carries_the_policy_and_no_inline_script_or_style(site: Server) -> None:
    policy = dict(
        (d.split(" ", 1)[0], d.split(" ", 1)[1]) for d in CONTENT_SECURITY_POLICY.split("; ")
    )
    assert policy["script-src"] == "'self'" and policy["style-src"] == "'self'"
    assert policy["frame-ancestors"] == "'none'" and policy["base-uri"] == "'none'"
    for path in _pages(site):
        r = httpx.get(site.base + path, timeout=60)
        assert r.status_code == 200, path
        assert r.headers["content-security-policy"] == CONTENT_SECURITY_POLICY, path
        assert r.headers["x-content-type-options"] == "nosniff", path
        assert r.headers["referrer-policy"] == "no-referrer", path
        assert r.headers["x-frame-options"] == "DENY", path
        html = r.text
        for tag in re.findall(r"<script\b[^>]*>", html):
            # A script runs from /static, or it is data (`type="application/json"`).
            assert 'src="/static/' in tag or 'type="application/json"' in tag, (path, tag)
        assert not re.search(r"<style\b", html), path
        assert not re.search(r"\sstyle=", html), path
        assert not re.search(r"\son[a-z]+=", html), path
        assert "javascript:" not in html, path
    # The pictures (opened on their own they are documents under the policy too).
    pictures = 0
    for title in TITLES:
        for path in (f"/pictures/{title}.svg", f"/learn/{title}/example.svg"):
            r = httpx.get(site.base + path, timeout=60)
            if r.status_code == 404:  # a title without a worked example
                continue
            assert r.headers["content-security-policy"] == CONTENT_SECURITY_POLICY, path
            assert not re.search(r"<style\b|\sstyle=|\son[a-z]+=|<script", r.text), path
            pictures += 1
    assert pictures > len(TITLES)  # every title's picture, and some worked examples
    # The static files, the API and a refusal carry it too.
    for path in ("/static/common.js", "/api/games", "/api/games/nosuchgame", "/nowhere"):
        r = httpx.get(site.base + path, timeout=60)
        assert r.headers["content-security-policy"] == CONTENT_SECURITY_POLICY, path


def test_the_api_docs_run_their_own_inline_script_and_no_other(site: Server) -> None:
    r = httpx.get(site.base + "/docs", timeout=60)
    assert r.status_code == 200 and "swagger-ui" in r.text
    policy = dict(
        (d.split(" ", 1)[0], d.split(" ", 1)[1])
        for d in r.headers["content-security-policy"].split("; ")
    )
    scripts = re.findall(r"<script>(.*?)</script>", r.text, re.S)
    assert len(scripts) == 1 and "SwaggerUIBundle" in scripts[0]
    digest = base64.b64encode(hashlib.sha256(scripts[0].encode()).digest()).decode()
    assert policy["script-src"] == f"https://cdn.jsdelivr.net 'sha256-{digest}'"
    assert policy["frame-ancestors"] == "'none'"
    assert r.headers["x-frame-options"] == "DENY"


def test_the_pages_data_cannot_close_its_block(site: Server) -> None:
    """A string holding `</script>` stays inside its data block (no `<` is sent raw)."""
    from tianxia.web.pages import data_block

    text = data_block({"x": "</script><script>alert(1)</script>"})
    assert "<" not in text and "\\u003c/script>" in text


class Watch:
    """What a page reports that a strict policy or a broken script would cause."""

    def __init__(self, page: Page) -> None:
        self.page = page
        self.console: list[str] = []
        self.errors: list[str] = []
        page.add_init_script(_LISTEN)
        page.on("console", self._console)
        page.on("pageerror", lambda e: self.errors.append(str(e)))

    def _console(self, msg: ConsoleMessage) -> None:
        # The pages' scripts log nothing: any line is the browser's complaint.
        self.console.append(f"{msg.type}: {msg.text} ({self.page.url})")

    def violations(self) -> list[str]:
        found: list[str] = self.page.evaluate("() => window.__violations || []")
        return found

    def check(self, where: str) -> None:
        assert self.violations() == [], where
        assert self.errors == [], where
        assert self.console == [], where


@pytest.fixture
def watched(page: Page) -> Iterator[Watch]:
    yield Watch(page)


def test_the_watch_catches_an_inline_style_and_script(site: Server, watched: Watch) -> None:
    page = watched.page
    page.goto(site.base + "/?lang=en")
    expect(page.locator("#f-players option").first).to_be_attached()
    watched.check("the lobby")
    # What an injection would add: both refused, both reported.
    page.evaluate(
        """() => { const d = document.createElement('div');
          d.innerHTML = '<span style="color: red">x</span><img src="x" onerror="1">';
          document.body.append(d); }"""
    )
    page.wait_for_function("() => window.__violations.length >= 2")
    found = " ".join(watched.violations())
    assert "style-src" in found and "script-src" in found
    assert any("Content Security Policy" in line for line in watched.console)


def _expect_data_read(page: Page, lang: str) -> None:
    """The page read its data blocks: its strings, its language."""
    seen: dict[str, Any] = page.evaluate(
        "() => ({lang: window.LANG, strings: Object.keys(strings()).length})"
    )
    assert seen["lang"] == lang and seen["strings"] > 50, seen


def test_every_kind_of_page_works_under_the_policy(site: Server, watched: Watch) -> None:
    page = watched.page
    page.goto(site.base + "/?lang=de")
    _expect_data_read(page, "de")
    # The form is filled from the games' data; a seat offers the bots' strengths in words.
    page.locator("#f-game").select_option("china")
    expect(page.locator("#f-players option")).to_have_count(3)
    bots = page.locator("#f-seats select option[value^='bot:']")
    expect(bots.first).to_be_attached()
    assert "Bot" in (bots.first.text_content() or "")
    watched.check("the lobby")
    for title in TITLES:
        page.goto(site.base + "/?lang=en")
        page.locator(f"button.quick[data-game={title}]").click()
        expect(page).to_have_url(re.compile(r"/games/[0-9a-f]+$"))
        expect(page.locator(".board-wrap svg")).to_be_visible()
        _expect_data_read(page, "en")
        clicked = play_to_the_end(page, random.Random(3), moves=3)
        assert clicked == 3 or page.locator("#scores-box").is_visible()
        # A board's width on a desk comes from its class, not a style attribute.
        width = page.locator(".board-wrap svg").evaluate("e => getComputedStyle(e).maxWidth")
        assert width.endswith("px") and float(width[:-2]) <= 860, (title, width)
        watched.check(f"a table of {title}")
    gid = _finished_game(site)
    page.goto(f"{site.base}/games/{gid}/replay?lang=en")
    expect(page.locator("#r-where")).to_contain_text("Decision 0 of")
    page.locator("#r-next").click()
    expect(page.locator("#r-where")).to_contain_text("Decision 1 of")
    watched.check("a replay")
    page.goto(f"{site.base}/rules/emperor?lang=en")
    expect(page.locator(".rules-doc h1").first).to_be_visible()
    watched.check("a rules page")
    page.goto(f"{site.base}/learn/greatwall?lang=en")
    expect(page.locator(".howto-picture img").first).to_be_visible()
    # The how-to's picture is held to its width by style.css, as it was inline.
    assert page.locator(".howto-picture img").first.evaluate(
        "e => getComputedStyle(e).maxWidth"
    ) == ("640px")
    page.locator("#lesson-list a").first.click()
    expect(page.locator("#board svg")).to_be_visible()
    expect(page.locator("#lesson-task")).not_to_be_empty()
    watched.check("a lesson")
