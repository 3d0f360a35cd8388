"""The pseudo-locale: every page walked in a language that wraps each translated string in
⟦ ⟧, so any word a player sees outside the markers never went through a catalogue.

The server runs with `TIANXIA_PSEUDO_LOCALE=1`, the only way `xx` is accepted. What may
stand outside markers: numbers, punctuation and symbols, the names players chose, seat
names the engine writes (P1), the languages' own names in the switch, the project's
name, and notation the pages show on purpose (the map's place names and ids from each
title's layout, sections and numerals, card numbers). A rules document is a translated
file of its own (checked against the English elsewhere), so its body is left out; the
page around it is not.
"""

from __future__ import annotations

import json
import random
import re
import time
from collections.abc import Iterator
from typing import Any

import pytest

pytest.importorskip("playwright")
pytest.importorskip("babel")

from playwright.sync_api import Page, expect

import tianxia
from serving import Server
from web.clicking import play_to_the_end

TITLES = ["china", "greatwall", "emperor", "mandarin", "silkroad"]
PLAYERS = {"china": 3, "greatwall": 2, "emperor": 2, "mandarin": 2, "silkroad": 2}
NAME = "Anna"  # the name the player chooses
OPEN, CLOSE = "\u27e6", "\u27e7"

# Every visible text, joined per block (a paragraph, a list item, an SVG group: a string a
# board wraps over several lines, or a log line with a name set apart, is one text), with
# where it stands.
_TEXTS = """() => {
  const INLINE = new Set(['SPAN', 'STRONG', 'EM', 'B', 'I', 'A', 'SMALL', 'TIME', 'ABBR',
    'CODE', 'KBD', 'SUP', 'SUB', 'text', 'tspan', 'a', 'title']);
  const blocks = new Map();
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const text = node.textContent.trim();
    const host = node.parentElement;
    if (!text || !host || host.closest('script, style, template, title, .rules-doc')) continue;
    if (!host.getClientRects().length) continue;
    const style = getComputedStyle(host);
    if (style.visibility === 'hidden' || style.display === 'none') continue;
    if (host.closest('[hidden], [aria-hidden="true"]')) continue;
    let block = host;
    while (INLINE.has(block.tagName) && block.parentElement) block = block.parentElement;
    if (!blocks.has(block)) blocks.set(block, []);
    blocks.get(block).push(text);
  }
  const out = [];
  for (const [block, texts] of blocks) {
    const where = [];
    for (let e = block; e && e !== document.body && where.length < 4; e = e.parentElement)
      where.unshift(e.tagName.toLowerCase() + (e.id ? '#' + e.id : '')
        + (e.classList.length ? '.' + [...e.classList].join('.') : ''));
    out.push([texts.join(' '), where.join(' > ')]);
  }
  return out;
}"""


@pytest.fixture(scope="module")
def pseudo(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    folder = tmp_path_factory.mktemp("pseudo")
    # Forked as the other modules' servers (tests/web/conftest.py); the switch is read
    # from the server's environment at each request, so the warm parent need not have it.
    srv = Server(
        f"sqlite:///{folder / 'tianxia.sqlite3'}",
        folder,
        env={"TIANXIA_PSEUDO_LOCALE": "1"},
        forked=True,
    )
    srv.start()
    try:
        yield srv
    finally:
        srv.stop()


def _layout_words() -> set[str]:
    """The map's own names and ids, as each title's layout writes them: notation (China's
    and the Emperor's provinces and fields, Mandarin's characters). Card texts, animals
    and the Silk Road's cities are translated, so they are not among them."""
    words: set[str] = set()

    def walk(value: Any, key: str = "") -> None:
        if isinstance(value, str):
            if key in ("name", "id", "province", "characters"):
                words.update(re.findall(r"[^\W\d_]+", value))
        elif isinstance(value, dict):
            for k, v in value.items():
                if k != "cities":
                    walk(v, k)
        elif isinstance(value, list | tuple):
            for v in value:
                walk(v, key)

    for name in TITLES:
        walk(tianxia.load_game(name, PLAYERS[name]).layout())
    return words


ALLOWED = {NAME, "Tianxia", "English", "Nederlands", "Deutsch", "I", "II", "III", "IV"}


def unmarked(texts: list[list[str]], allowed: set[str]) -> list[str]:
    """The words of `texts` outside markers that are none of the allowed kinds."""
    wrong: list[str] = []
    for text, where in texts:
        rest = text
        # Markers nest (a sentence holds translated words): take the innermost first.
        while True:
            stripped = re.sub(f"{OPEN}[^{OPEN}{CLOSE}]*{CLOSE}", " ", rest)
            if stripped == rest:
                break
            rest = stripped
        # A translated text cut short to fit (a long name in a seat's row, ending in "…")
        # loses its closing marker: what follows an opening one is still translated.
        rest = re.sub(f"{OPEN}[^{CLOSE}]*$", " ", rest)
        words = [
            w
            for w in re.findall(r"[^\W\d_]+", rest)
            if w not in allowed and not re.fullmatch(r"P|[A-Z]", w)
        ]
        if words:
            wrong.append(f"{where}: {text!r} ({', '.join(words)})")
    return wrong


def _check(page: Page, what: str, allowed: set[str]) -> list[str]:
    page.wait_for_load_state("networkidle")
    texts = page.evaluate(_TEXTS)
    assert texts, f"{what}: nothing visible"
    return [f"{what}: {w}" for w in unmarked(texts, allowed)]


def _api(pseudo: Server, path: str, body: dict[str, Any] | None = None) -> Any:
    import httpx

    r = (
        httpx.post(pseudo.base + path, json=body, timeout=60)
        if body is not None
        else httpx.get(pseudo.base + path, timeout=60)
    )
    r.raise_for_status()
    return r.json()


def test_the_unmarked_check_tells_a_plain_word_from_a_marked_one() -> None:
    allowed = {"Shu"}
    texts = [
        [f"{OPEN}{OPEN}P1{CLOSE} places a house on Shu.3{CLOSE}", "li"],
        ["12 · P2 → Shu.4 ×3", "text"],
        [f"{OPEN}Your turn{CLOSE} Move", "p#status"],
        [f"{OPEN}{OPEN}random{CLOSE} bot …", "g.seat-row"],
        [f"Move {OPEN}{OPEN}random{CLOSE} bot …", "g.seat-row"],
    ]
    assert unmarked(texts, allowed) == [
        "p#status: '⟦Your turn⟧ Move' (Move)",
        "g.seat-row: 'Move ⟦⟦random⟧ bot …' (Move)",
    ]


def test_the_pseudo_locale_is_refused_without_its_switch(site: Server) -> None:
    import httpx

    assert 'lang="en"' in httpx.get(site.base + "/?lang=xx").text
    assert httpx.get(site.base + "/api/games/x/replay", params={"lang": "xx"}).status_code == 422


def _report(wrong: list[str]) -> None:
    report = sorted(set(wrong))
    pages: dict[str, int] = {}
    for w in report:
        pages[w.split(":")[0]] = pages.get(w.split(":")[0], 0) + 1
    assert not report, f"{len(report)} texts outside markers ({pages}):\n" + "\n".join(report[:300])


def _enter(pseudo: Server, page: Page) -> None:
    page.goto(pseudo.base + "/?lang=xx")  # the cookie keeps the language from here on
    expect(page.locator("html")).to_have_attribute("lang", "xx")


def test_the_lobby_shows_only_translated_words(pseudo: Server, page: Page) -> None:
    _enter(pseudo, page)
    assert "xx" not in [a.get_attribute("lang") for a in page.locator("nav.langs a").all()]
    _report(_check(page, "lobby", ALLOWED | _layout_words()))


# One title a test, so that the walk's five games share the test workers.
@pytest.mark.parametrize("name", TITLES)
def test_every_page_of_a_title_shows_only_translated_words(
    pseudo: Server, page: Page, name: str
) -> None:
    allowed = ALLOWED | _layout_words()
    wrong: list[str] = []
    _enter(pseudo, page)
    page.goto(f"{pseudo.base}/rules/{name}")
    wrong += _check(page, f"rules {name}", allowed)

    rng = random.Random(11)
    seats = ["open"] + ["bot:random"] * (PLAYERS[name] - 1)
    gid = _api(pseudo, "/api/games", {"game": name, "seats": seats, "players": len(seats)})["id"]
    page.goto(f"{pseudo.base}/games/{gid}")
    page.once("dialog", lambda d: d.accept(NAME))
    page.locator("#seats li.seat0 button.take").click()
    expect(page.locator(".board-wrap svg")).to_be_visible(timeout=30000)
    wrong += _check(page, f"{name} table", allowed)
    for round_ in range(4):
        play_to_the_end(page, rng, moves=4)
        wrong += _check(page, f"{name} table after {4 * (round_ + 1)} moves", allowed)
        if page.locator("#scores-box").is_visible():
            break

    # The end of a game and its replay.
    gid = _api(
        pseudo,
        "/api/games",
        {"game": name, "seats": ["bot:random"] * PLAYERS[name], "players": PLAYERS[name]},
    )["id"]
    deadline = time.monotonic() + 120
    while _api(pseudo, f"/api/games/{gid}")["status"] != "finished":
        assert time.monotonic() < deadline, f"{name}: the bots did not finish"
        time.sleep(0.2)
    page.goto(f"{pseudo.base}/games/{gid}")
    expect(page.locator("#scores-box")).to_be_visible(timeout=30000)
    wrong += _check(page, f"{name} end", allowed)
    page.goto(f"{pseudo.base}/games/{gid}/replay")
    expect(page.locator(".board-wrap svg")).to_be_visible(timeout=30000)
    wrong += _check(page, f"{name} replay start", allowed)
    page.keyboard.press("End")
    page.wait_for_timeout(300)
    wrong += _check(page, f"{name} replay end", allowed)
    _report(wrong)


def test_a_bots_reasons_and_the_log_come_marked_in_the_replay(pseudo: Server) -> None:
    gid = _api(
        pseudo, "/api/games", {"game": "greatwall", "seats": ["bot:easy", "bot:easy"], "players": 2}
    )["id"]
    deadline = time.monotonic() + 120
    while _api(pseudo, f"/api/games/{gid}")["status"] != "finished":
        assert time.monotonic() < deadline
        time.sleep(0.2)
    data = _api(pseudo, f"/api/games/{gid}/replay?step=40&lang=xx")
    texts = [e["text"] for e in data["events"] if e.get("text")]
    assert texts and all(t.startswith(OPEN) for t in texts), json.dumps(texts[:5])
    # A bot's reason is a sentence of the catalogue, the move inside it one too.
    why = list(data["why"].values())
    assert why and all(w.startswith(OPEN) and w.count(OPEN) >= 2 for w in why), why[:3]
    assert not any(re.search(r"visits|determinis|legal actions", w) for w in why), why[:3]


def test_a_refusal_comes_marked(pseudo: Server) -> None:
    from websockets.sync.client import connect

    gid = _api(
        pseudo, "/api/games", {"game": "greatwall", "players": 2, "seats": ["open", "bot:easy"]}
    )["id"]
    secret = _api(pseudo, f"/api/games/{gid}/join", {"seat": 0})["secret"]
    with connect(pseudo.base.replace("http", "ws", 1) + f"/ws/games/{gid}") as ws:
        ws.send(json.dumps({"type": "hello", "secret": secret, "lang": "xx"}))
        view = json.loads(ws.recv())
        while not view.get("legal"):
            view = json.loads(ws.recv())
        ws.send(
            json.dumps(
                {"type": "act", "action_id": "a1", "expected_seq": view["seq"], "action": "pass"}
            )
        )
        reply = json.loads(ws.recv())
        while reply.get("type") != "refused":
            reply = json.loads(ws.recv())
    assert reply["reason"].startswith(OPEN) and reply["reason"].endswith(CLOSE), reply
