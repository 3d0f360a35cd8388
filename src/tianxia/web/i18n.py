"""English, Dutch and German: gettext catalogues (Babel) for every string of the pages.

The catalogues are `locale/<lang>/LC_MESSAGES/tianxia.po`, compiled in memory when first
used (no compiled files to keep in step). `make i18n` extracts the strings from the
Python, the templates and `JS_STRINGS`, and updates the catalogues.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from io import BytesIO
from pathlib import Path

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.support import NullTranslations, Translations

LANGS = ("en", "nl", "de")
LANG_NAMES = {"en": "English", "nl": "Nederlands", "de": "Deutsch"}
LOCALE = Path(__file__).with_name("locale")
DOMAIN = "tianxia"


def N_(text: str) -> str:
    """Marks a string for extraction; translated where it is shown."""
    return text


# Strings the page scripts show, translated on the server and handed to them as JSON.
JS_STRINGS = [
    N_("Your turn"),
    N_("Waiting for {name}"),
    N_("Game over"),
    N_("Refused"),
    N_("Connected"),
    N_("Connection lost: reconnecting"),
    N_("Which move?"),
    N_("Cancel"),
    N_("Undo"),
    N_("Send"),
    N_("Take this seat"),
    N_("Your name"),
    N_("Pass the device to {name}"),
    N_("I am {name}: show my hand"),
    N_("Spectating"),
    N_("Moves"),
    N_("Other moves"),
    N_("Your moves are on the board: click a marked piece or place"),
    N_("Log"),
    N_("Chat"),
    N_("Scores"),
    N_("Why?"),
    N_("open"),
    N_("running"),
    N_("finished"),
    N_("your turn"),
    N_("Play"),
    N_("Watch"),
    N_("Replay"),
    N_("No games here yet."),
    N_("Step {step} of {steps}"),
    N_("Link to return to this seat from any device (keep it private):"),
    N_("Link to invite a friend:"),
    N_("bot"),
    N_("human"),
    N_("you"),
    N_("Resign"),
    N_("Resign this game? A bot plays your seat to the end."),
    N_("Winner"),
    N_("seconds left"),
    N_("The game waits for every seat to be taken."),
]


@functools.cache
def translations(lang: str) -> NullTranslations:
    if lang not in LANGS or lang == "en":
        return NullTranslations()
    path = LOCALE / lang / "LC_MESSAGES" / f"{DOMAIN}.po"
    with path.open("rb") as f:
        catalog = read_po(f, locale=lang, domain=DOMAIN)
    buf = BytesIO()
    write_mo(buf, catalog, use_fuzzy=False)
    buf.seek(0)
    return Translations(fp=buf, domain=DOMAIN)


WORD = "WORD"  # the context of a word the rules put into sentences (a colour, an animal)


@functools.cache
def gettext_for(lang: str) -> Callable[[str], str]:
    """The page's translation function: a string of the pages, else a word of the games
    (a board names a colour as the log does)."""
    t = translations(lang)

    def gettext(text: str) -> str:
        found = str(t.gettext(text))
        return found if found != text else str(t.pgettext(WORD, text))

    return gettext


def js_strings(lang: str) -> dict[str, str]:
    t = gettext_for(lang)
    return {s: t(s) for s in JS_STRINGS}


def negotiate(query: str | None, cookie: str | None, accept_language: str | None) -> str:
    """The page's language: `?lang=`, then the switch's cookie, then the browser's list."""
    for choice in (query, cookie):
        if choice in LANGS:
            return choice
    ranked: list[tuple[float, str]] = []
    for i, part in enumerate((accept_language or "").split(",")):
        tag, _, q = part.strip().partition(";q=")
        try:
            weight = float(q) if q else 1.0
        except ValueError:
            continue
        ranked.append((weight - i * 1e-6, tag.split("-")[0].lower()))
    for _, lang in sorted(ranked, reverse=True):
        if lang in LANGS:
            return lang
    return "en"
