"""Every sentence names the right seat, in every title and language.

Seeded random games of every title at several player counts: at every step the board's
prompt (the element of class `prompt`) names the seat the engine waits for first, and
every event's sentence names the seat that decided it first; every seat named anywhere on
a board or in a sentence sits at the table; a sentence translated into Dutch or German
names the same seats as the English one.
"""

from __future__ import annotations

import random
import re
import xml.etree.ElementTree as ET
from collections.abc import Sequence
from functools import cache

import pytest

from tianxia.core import load_game
from tianxia.core.match import Match
from tianxia.web.boards import render

from .board_checks import SVG

pytest.importorskip("babel")

from tianxia.web.i18n import gettext_for
from tianxia.web.sentences import translate_sentence

# Names a rulebook never prints, so any of them in a drawing is a seat.
NAMES = ("Anna", "Bert", "Cora", "Dirk", "Emma")
GAMES = [
    ("china", 3),
    ("china", 5),
    ("emperor", 2),
    ("emperor", 4),
    ("greatwall", 2),
    ("greatwall", 4),
    ("mandarin", 2),
    ("mandarin", 4),
    ("silkroad", 3),
    ("silkroad", 5),
]


YOU = re.compile(r"\byours?\b", re.IGNORECASE)


@cache
def _seat_word() -> re.Pattern[str]:
    return re.compile(r"\b(?:P(\d+)|(" + "|".join(NAMES) + r"))\b")


def seats_named(sentence: str) -> list[int]:
    """The seats a sentence names, in order: by name, or by P-number where none is known."""
    out = []
    for m in _seat_word().finditer(sentence):
        out.append(int(m[1]) - 1 if m[1] else NAMES.index(m[2]))
    return out


def _texts(root: ET.Element, cls: str | None = None) -> list[str]:
    found = []
    for el in root.iter():
        if cls is not None and cls not in (el.get("class") or "").split():
            continue
        if cls is None and el.tag != f"{SVG}text":
            continue
        found.append(" ".join("".join(el.itertext()).split()))
    return found


def _check_board(
    name: str,
    match: Match,
    viewer: int | None,
    lang: str,
    names: Sequence[str],
) -> None:
    state = match.state
    players = match.game.players
    mover = state.current_player()
    legal = [str(a) for a in state.legal_actions()] if viewer == mover else []
    board = render(match.game, state.envelope(viewer, match.seq), legal, gettext_for(lang), names)
    root = ET.fromstring(board.svg)
    where = f"{name} {players}p seq {match.seq} viewer {viewer} {lang}"
    for line in _texts(root):
        assert all(0 <= x < players for x in seats_named(line)), f"{where}: {line!r}"
    prompts = _texts(root, "prompt")
    assert prompts, f"{where}: the board shows no prompt"
    said = seats_named(" ".join(prompts))
    if not state.is_terminal() and not state.is_chance_node():
        assert said and said[0] == mover, (
            f"{where}: the prompt {prompts!r} should name P{mover + 1} first, the seat "
            "the game waits for"
        )
    if lang == "en" and viewer != mover:
        # "Your" speaks to the seat that decides; anyone else reads whose things they are.
        spoken = [line for line in prompts if YOU.search(line)]
        assert not spoken, f"{where}: {spoken!r} says 'your' to a seat that does not decide"


def _check_events(name: str, match: Match, since: int, lang: str) -> None:
    players = match.game.players
    for viewer in [None, *range(players)]:
        for e in match.events_for(viewer, since):
            english = e["text"]
            if not english:
                continue
            said = seats_named(english)
            where = f"{name} {players}p event {e['seq']} for {viewer}: {english!r}"
            assert all(0 <= x < players for x in said), where
            if e["seat"] is not None and said:
                assert said[0] == e["seat"], f"{where} is by P{e['seat'] + 1}"
            if lang != "en":
                translated = translate_sentence(english, lang, name)
                assert sorted(seats_named(translated)) == sorted(said), (
                    f"{where} in {lang}: {translated!r}"
                )


@pytest.mark.parametrize(("name", "players"), GAMES)
def test_every_prompt_and_log_line_names_the_right_seat(name: str, players: int) -> None:
    game = load_game(name, players)
    names = NAMES[:players]
    for seed in (1, 2):
        match = Match(game, seed=seed)
        rng = random.Random(seed)
        langs = ("en", "nl", "de")
        for step in range(160):
            lang = langs[step % 3]
            state = match.state
            mover = state.current_player()
            others = [s for s in range(players) if s != mover]
            viewers = [None, *([mover] if mover >= 0 else []), rng.choice(others or [0])]
            for viewer in viewers:
                # Unnamed seats too: a board without names speaks of P1, P2, ...
                _check_board(name, match, viewer, lang, names if step % 2 else ())
            if state.is_terminal():
                break
            seq = match.seq
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                match.play(rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0])
            else:
                match.play(rng.choice(state.legal_actions()))
            _check_events(name, match, seq, lang)


# Strings a board writes that were once missing from a catalogue: China's deal line,
# Mandarin's fallback line, the Emperor's card group, the Silk Road's city and hand size.
ONCE_MISSING = (
    "Dealing the cards",
    "{actor} decides",
    "economy",
    "Byzantium",
    "water",
    "hand {n}",
)


@pytest.mark.parametrize("text", ONCE_MISSING)
def test_a_board_string_is_in_every_catalogue_and_marked_by_the_pseudo_locale(
    text: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    from babel.messages.pofile import read_po

    from tianxia.web.i18n import LOCALE, OPEN, PSEUDO_SWITCH, translations

    for lang in ("nl", "de"):
        with (LOCALE / lang / "LC_MESSAGES" / "tianxia.po").open("rb") as f:
            entry = read_po(f).get(text)
        assert entry is not None and entry.string and "fuzzy" not in entry.flags, (lang, text)
    monkeypatch.setenv(PSEUDO_SWITCH, "1")
    translations.cache_clear()
    try:
        assert gettext_for("xx")(text).startswith(OPEN)
    finally:
        monkeypatch.delenv(PSEUDO_SWITCH)
        translations.cache_clear()
