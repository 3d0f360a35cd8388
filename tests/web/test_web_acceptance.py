"""The table as a player meets it, every title played to its end against easy bots in
English, Dutch and German, by picking then placing, at a desk's size and a phone's.

Each game is played half at one size and half at the other (English and German start at
the desk, Dutch on the phone), so fifteen games cover every title, language and size.
Along the way and at the end it checks what docs/web.md promises:

- one name per seat: the names given are in the players' panels, the log, the board and
  the summary, and no "P1"-style seat name shows where a name was given;
- a pick never plays by itself, and its moves go to the targets it marks;
- a move whose view entry carries a question asks it (and one without asks nothing);
- on the phone, every visible control is at least 44x44 CSS px;
- the end: the summary with every seat ranked, in the page's language, and no serious
  or critical axe-core finding on the finished table.
"""

from __future__ import annotations

import json
import random
import re
from dataclasses import dataclass, field

import pytest

pytest.importorskip("playwright")

from playwright.sync_api import Browser, Page, Position, ViewportSize, WebSocket, expect
from playwright.sync_api import Error as PlaywrightError

from serving import Server
from web.accessibility import blocking_violations, small_targets
from web.clicking import look, wait_for_the_next_view

TITLES = ["china", "greatwall", "emperor", "mandarin", "silkroad"]
DESK: ViewportSize = {"width": 1280, "height": 900}
PHONE: ViewportSize = {"width": 390, "height": 844}
# The name each language's player gives; the German one is not ASCII on purpose.
NAMES = {"en": "Anna", "nl": "Joost", "de": "Jürgen"}
# The seat's own clicks made at the first size before the page turns to the other.
SWITCH_AFTER = 10
# The engine's seat names: what a page must never show for a seat that has a name.
SEAT_WORD = re.compile(r"\bP[1-7]\b")

# What the page shows now: the view's moves (with their questions), and whether a pick
# or a question is open.
_STATE = """() => {
  const c = conns.get(shown);
  const v = c && c.view;
  return {
    seq: v ? v.seq : -1,
    legal: v ? v.legal.map(l => [l.action, l.confirm || null]) : [],
    terminal: !!(v && v.terminal),
    busy: !!(c && c.busy),
    picked: !!document.querySelector('.board-wrap .spot.picked'),
  };
}"""

# The words a page shows where it names seats: panels, status, log, moves, summary,
# the line under the board, and the board's own text (notation is off by default).
_NAMED_TEXT = """() => {
  const parts = ['players', 'status', 'log', 'moves-box', 'details', 'scores-box']
    .map(id => document.getElementById(id)).filter(e => e && !e.hidden)
    .map(e => e.innerText);
  const board = [...document.querySelectorAll('.board-wrap svg text')]
    .map(t => t.textContent).join(' | ');
  return {page: parts.join(' | '), board};
}"""

# After a pick: whether it is marked, its moves, the targets marked for them (with
# theirs) and the moves offered under the board.
_MARKS = """k => {
  const pick = document.querySelectorAll('.board-wrap .spot[data-pick]')[k];
  const actions = e => JSON.parse(e.dataset.actions || '[]');
  return {
    pressed: !!pick && pick.getAttribute('aria-pressed') === 'true',
    chosen: pick ? actions(pick) : [],
    // A pick that is a place too (data-into) is a target by the moves that go there.
    targets: [...document.querySelectorAll('.board-wrap .spot.target')].map(
      e => [...actions(e), ...JSON.parse(e.dataset.into || '[]')]),
    own: document.querySelectorAll('#moves button.move:not([disabled])').length,
  };
}"""

# The first word of every move a click offers now, as `_one_move` counts them: the
# board's places, then the listed moves.
_HEADS = """() => [
  ...[...document.querySelectorAll('.board-wrap .spot:not([data-pick])')].map(
    e => (JSON.parse(e.dataset.actions || '[""]')[0] || '').split(' ')[0]),
  ...[...document.querySelectorAll('#moves button.move:not([disabled]), #moves .stepper')].map(
    e => (e.dataset.action || '').split(' ')[0]),
]"""

# The question box, watched: every time it opens, its words are kept.
_WATCH_QUESTIONS = """() => {
  window.__asked = [];
  const box = document.getElementById('confirm');
  new MutationObserver(() => {
    if (!box.hidden) window.__asked.push(document.getElementById('confirm-text').textContent);
  }).observe(box, {attributes: true, attributeFilter: ['hidden']});
}"""


@dataclass
class Record:
    """What a game showed, for the checks at its end."""

    sent: list[str] = field(default_factory=list)
    clicks: int = 0
    picks: int = 0
    placed_after_pick: int = 0
    questions: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    small: dict[str, str] = field(default_factory=dict)
    seat_words: dict[str, str] = field(default_factory=dict)
    # axe-core's findings, and which moments of the game it has looked at.
    axe: list[str] = field(default_factory=list)
    axed: set[str] = field(default_factory=set)
    # Questions answered "Cancel", in all and on the turn being played.
    cancelled: int = 0
    cancelled_now: int = 0

    def problem(self, text: str) -> None:
        if len(self.problems) < 40:
            self.problems.append(text)


def _centre(page: Page, selector: str, k: int) -> None:
    """Click the k-th match at the middle of its drawing, as a finger would (a spot's
    enlarged hit area may reach beyond the piece)."""
    target = page.locator(selector).nth(k)
    shape = target.locator("rect:not(.hit), circle, polygon, path, ellipse, text").first
    box = shape.bounding_box() if shape.count() else None
    outer = target.bounding_box()
    if box and outer:
        at: Position = {
            "x": box["x"] + box["width"] / 2 - outer["x"],
            "y": box["y"] + box["height"] / 2 - outer["y"],
        }
        target.click(position=at)
    else:
        target.click()


def _axe_once(page: Page, rec: Record, moment: str) -> None:
    """axe-core at a moment of the game, the first time it comes."""
    if moment not in rec.axed:
        rec.axed.add(moment)
        rec.axe += blocking_violations(page, moment)


def _answer(page: Page, rng: random.Random, rec: Record) -> None:
    """A menu asks which move: choose one. A question asks to play it: early in the
    game the person thinks again ("Cancel", and nothing may be sent; a random player
    otherwise accepts the Emperor's first merger and ends the game at once), twice a
    turn at most; later, yes."""
    menu = page.locator("#menu")
    if menu.is_visible():
        _axe_once(page, rec, "the menu of moves open")
        items = menu.locator("#menu-items button")
        items.nth(rng.randrange(items.count())).click()
    box = page.locator("#confirm")
    if not box.is_visible():
        return
    _axe_once(page, rec, "a question open")
    if rec.clicks < SWITCH_AFTER + 2 and rec.cancelled_now < 2:
        sent = len(rec.sent)
        box.locator("#confirm-no").click()
        expect(box).to_be_hidden()
        page.wait_for_timeout(150)
        if len(rec.sent) != sent:
            rec.problem(f"a cancelled question sent {rec.sent[-1]!r}")
        rec.cancelled += 1
        rec.cancelled_now += 1
    else:
        box.locator("#confirm-yes").click()


def _one_move(page: Page, rng: random.Random, rec: Record) -> bool:
    """The seat's turn: pick a thing and place it where a pick is offered (most of the
    time), else a place on the board or a move under it. True when a move was sent."""
    before = page.evaluate(_STATE)
    if before["busy"] or not before["legal"]:
        return False
    questions = dict(before["legal"])
    sent_before = len(rec.sent)
    if before["picked"]:
        page.keyboard.press("Escape")  # a thing still picked from a move not made
    page.evaluate("window.__asked = []")
    picks = ".board-wrap .spot[data-pick]"
    n_picks = page.locator(picks).count()
    if n_picks and rng.random() < 0.85:
        k = rng.randrange(n_picks)
        _centre(page, picks, k)
        marks = page.evaluate(_MARKS, k)
        if not marks["pressed"]:
            rec.problem("a pick was not marked pressed after its click")
            return False
        if len(rec.sent) != sent_before:
            rec.problem(f"a pick alone sent a move: {rec.sent[-1]}")
        rec.picks += 1
        _axe_once(page, rec, "a thing picked")
        chosen = set(marks["chosen"])
        if any(not set(there) & chosen for there in marks["targets"]):
            rec.problem("a marked target offers no move of the picked thing")
        own = page.locator("#moves button.move:not([disabled])")
        n_targets, n_own = len(marks["targets"]), marks["own"]
        if n_targets and (not n_own or rng.random() < 0.8):
            _centre(page, ".board-wrap .spot.target", rng.randrange(n_targets))
            rec.placed_after_pick += 1
        elif n_own:
            own.nth(rng.randrange(n_own)).click()
        else:
            rec.problem("a pick offered neither a target nor a move")
            page.keyboard.press("Escape")
            return False
    else:
        listed = page.locator("#moves button.move:not([disabled]), #moves .stepper")
        heads: list[str] = page.evaluate(_HEADS)
        n_spots = page.locator(".board-wrap .spot:not([data-pick])").count()
        if not heads:
            return False
        # Nobody offers the Emperor's merger in the first turns (accepted, it ends the
        # game before the page changed size), unless nothing else is left.
        early = rec.clicks <= SWITCH_AFTER
        choices = [i for i, h in enumerate(heads) if not (early and h == "merge")]
        k = rng.choice(choices or list(range(len(heads))))
        if k < n_spots:
            _centre(page, ".board-wrap .spot:not([data-pick])", k)
        else:
            control = listed.nth(k - n_spots)
            if "stepper" in (control.get_attribute("class") or ""):
                amounts = json.loads(control.get_attribute("data-amounts") or "[]")
                control.locator("input.amount").fill(str(rng.choice(amounts)))
                control = control.locator("button.move")
            control.click()
    _answer(page, rng, rec)
    page.wait_for_timeout(30)
    asked: list[str] = page.evaluate("window.__asked")
    if len(rec.sent) == sent_before:
        return False
    action = rec.sent[-1]
    question = questions.get(action)
    if question and not any(question in a for a in asked):
        rec.problem(f"{action!r} should have asked {question!r}; asked {asked}")
    if not question and asked and action in questions:
        rec.problem(f"{action!r} asked {asked} though its move has no question")
    rec.questions += asked
    rec.clicks += 1
    rec.cancelled_now = 0
    return True


def _seat_words(page: Page, rec: Record, where: str) -> None:
    seen = page.evaluate(_NAMED_TEXT)
    for part in ("page", "board"):
        m = SEAT_WORD.search(seen[part])
        if m:
            text = seen[part]
            rec.seat_words.setdefault(
                f"{part} ({where})", text[max(0, m.start() - 60) : m.end() + 60]
            )


def _play_to_the_end(page: Page, rng: random.Random, rec: Record, switch: ViewportSize) -> str:
    """Play until the game is over; returns the size the game ended at."""
    size = "desk" if page.viewport_size == DESK else "phone"
    for _ in range(4000):
        seen = look(page)
        if seen["over"]:
            return size
        if not (seen["moves"] and (seen["spots"] or seen["listed"])):
            page.wait_for_timeout(30)
            continue
        if size == "phone":
            for line in small_targets(page, "phone"):
                key = re.sub(r"'[^']*' is .*", "", line)
                rec.small.setdefault(key, line)
        if rec.clicks % 5 == 0:
            _seat_words(page, rec, f"move {rec.clicks}")
        try:
            played = _one_move(page, rng, rec)
        except PlaywrightError:
            played = False  # the view changed under the click: look again
        if played:
            wait_for_the_next_view(page, seen["log"], seen["status"])
            if rec.clicks == SWITCH_AFTER:
                _axe_once(page, rec, f"a seat mid-game at {size}")
                page.set_viewport_size(switch)
                size = "desk" if switch == DESK else "phone"
    expect(page.locator("#scores-box")).to_be_visible()
    return size


# `make test` plays each title to its end once, the languages taken in turn (every
# game switches between desk and phone size on the way); the other ten games of the
# matrix run in `make test-long`, which keeps `make test` within its time.
QUICK = {"china": "en", "greatwall": "nl", "emperor": "de", "mandarin": "nl", "silkroad": "de"}
MATRIX = [
    pytest.param(title, lang, marks=() if QUICK[title] == lang else (pytest.mark.slow,))
    for title in TITLES
    for lang in ("en", "nl", "de")
]


@pytest.mark.timeout(900)
@pytest.mark.parametrize(("title", "lang"), MATRIX)
def test_a_game_is_played_to_its_end_by_picking_and_placing(
    site: Server, browser: Browser, title: str, lang: str
) -> None:
    first, then = (PHONE, DESK) if lang == "nl" else (DESK, PHONE)
    seats = ["open", "bot:easy", "bot:easy"] if title == "china" else ["open", "bot:easy"]
    gid = site.new_game(title, seats)
    name = NAMES[lang]
    secret = site.join(gid, 0, name)
    # axe judges the page a person reads once pieces have settled: mid-fade, a piece's
    # text is caught at a fraction of its contrast (2.6:1 and 4.1:1 were seen).
    ctx = browser.new_context(viewport=first, locale=lang, reduced_motion="reduce")
    page = ctx.new_page()
    rec = Record()

    def watch(ws: WebSocket) -> None:
        def sent(payload: str | bytes) -> None:
            msg = json.loads(payload)
            if msg.get("type") == "act":
                rec.sent.append(msg["action"])

        ws.on("framesent", sent)

    page.on("websocket", watch)
    page.goto(f"{site.base}/?lang={lang}")
    # This browser holds the seat, and shows the bots' moves at once (its own
    # preference: "Fast mode"), so the game is not paced for a person's eyes.
    page.evaluate(
        "([gid, s]) => { localStorage.setItem('tianxia.seats', JSON.stringify({[gid]: {0: s}}));"
        " localStorage.setItem('tianxia.fast', '1'); }",
        [gid, secret],
    )
    page.goto(f"{site.base}/games/{gid}?lang={lang}")
    expect(page.locator(".board-wrap svg")).to_be_visible()
    page.evaluate(_WATCH_QUESTIONS)
    rng = random.Random(f"{title}-{lang}")
    ended = _play_to_the_end(page, rng, rec, then)
    _seat_words(page, rec, "the end")

    problems = list(rec.problems)
    # Both sizes were played at.
    if rec.clicks <= SWITCH_AFTER:
        problems.append(f"the game ended after {rec.clicks} moves, before the size changed")
    # Pick then place: every title with picks was played through them.
    if page.evaluate("document.querySelectorAll('.board-wrap .spot[data-pick]').length") and (
        not rec.picks
    ):
        problems.append("no pick was made in a title that offers picks")
    # One name per seat, everywhere.
    players = page.locator("#players").inner_text()
    summary = page.locator("#scores-box").inner_text()
    log = page.locator("#log").inner_text()
    board = " ".join(page.locator(".board-wrap svg text").all_text_contents())
    for where, text in (("players' panels", players), ("summary", summary), ("log", log)):
        if name not in text:
            problems.append(f"{name} is missing from the {where}")
    if name not in board:
        problems.append(f"{name} is not written on the board")
    problems += [f"a seat named 'P<n>' in the {k}: …{v}…" for k, v in rec.seat_words.items()]
    bot_names = page.evaluate(
        "conns.get(shown).view.seats.filter(s => s.seat > 0).map(s => s.name)"
    )
    for bot in bot_names:
        if bot not in players or bot not in summary:
            problems.append(f"the bot seat {bot!r} is missing from the panels or the summary")
    # The end: the summary in the page's language, every seat ranked.
    expect(page.locator("#scores-box")).to_be_visible()
    heading = page.locator("#summary-h").inner_text()
    if lang != "en" and heading == "Game over":
        problems.append(f"the summary's heading is English on a {lang} page")
    rows = page.locator("#scores tbody tr").count()
    if rows != len(seats):
        problems.append(f"the summary ranks {rows} seats of {len(seats)}")
    if not page.locator("#summary-actions a[href$='/replay']").is_visible():
        problems.append("the summary offers no replay")
    if not page.locator("#rematch").is_visible():
        problems.append("the summary offers no rematch to a seat")
    # On the phone, every control a finger hits.
    if ended == "phone":
        for line in small_targets(page, "phone, the end"):
            key = re.sub(r"'[^']*' is .*", "", line)
            rec.small.setdefault(key, line)
    problems += list(rec.small.values())
    _axe_once(page, rec, f"the end as a seat at {ended}")
    spectator = ctx.new_page()
    spectator.goto(f"{site.base}/games/{gid}?lang={lang}")
    expect(spectator.locator("#scores-box")).to_be_visible()
    _axe_once(spectator, rec, f"the end as a spectator at {ended}")
    problems += [f"{title} ({lang}), {line}" for line in rec.axe]
    ctx.close()
    print(
        f"{title} {lang}: {rec.clicks} moves, {rec.picks} picks ({rec.placed_after_pick} placed"
        f" on a target), {len(rec.questions)} questions ({rec.cancelled} cancelled), ended"
        f" at {ended}"
    )
    assert not problems, (
        f"{title} in {lang}: {rec.clicks} moves, {rec.picks} picks, questions {rec.questions}\n"
        + "\n".join(problems)
    )
