"""English, Dutch and German: gettext catalogues (Babel) for every string of the pages.

The catalogues are `locale/<lang>/LC_MESSAGES/tianxia.po`, compiled in memory when first
used (no compiled files to keep in step). `make i18n` extracts the strings from the
Python, the templates and the page scripts (`t("...")`, `tn("...", "...", n)`), and
updates the catalogues.

A fourth language exists for tests only: the pseudo-locale `xx`, offered by no switch and
accepted only while the environment says `TIANXIA_PSEUDO_LOCALE=1`. Its catalogue is the
template itself with every string wrapped in ⟦ ⟧, so a page, a board or a sentence that
shows a word outside the markers shows a string that never went through a catalogue.
"""

from __future__ import annotations

import functools
import os
import re
from collections.abc import Callable
from io import BytesIO
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.support import NullTranslations, Translations

LANGS = ("en", "nl", "de")
LANG_NAMES = {"en": "English", "nl": "Nederlands", "de": "Deutsch"}
LOCALE = Path(__file__).with_name("locale")
STATIC = Path(__file__).with_name("static")
DOMAIN = "tianxia"
PSEUDO = "xx"
PSEUDO_SWITCH = "TIANXIA_PSEUDO_LOCALE"
OPEN, CLOSE = "\u27e6", "\u27e7"  # ⟦ ⟧


def pseudo_enabled() -> bool:
    return os.environ.get(PSEUDO_SWITCH) == "1"


def accepted() -> tuple[str, ...]:
    """The languages a page or a connection may ask for: the pseudo-locale only in tests."""
    return (*LANGS, PSEUDO) if pseudo_enabled() else LANGS


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
    if lang == PSEUDO and pseudo_enabled():
        return _compiled(_pseudo_catalog())
    if lang not in LANGS or lang == "en":
        return NullTranslations()
    path = LOCALE / lang / "LC_MESSAGES" / f"{DOMAIN}.po"
    with path.open("rb") as f:
        catalog = read_po(f, locale=lang, domain=DOMAIN)
    return _compiled(catalog)


def _pseudo_catalog() -> Catalog:
    """The template with every string translated as itself in markers."""
    with (LOCALE / f"{DOMAIN}.pot").open("rb") as f:
        catalog = read_po(f, locale="en", domain=DOMAIN)
    for m in catalog:
        if not m.id:
            continue
        if isinstance(m.id, str):
            m.string = OPEN + m.id + CLOSE
        else:
            m.string = tuple(OPEN + str(form) + CLOSE for form in m.id)
    return catalog


def _compiled(catalog: Catalog) -> Translations:
    buf = BytesIO()
    write_mo(buf, catalog, use_fuzzy=False)
    buf.seek(0)
    return Translations(fp=buf, domain=DOMAIN)


WORD = "WORD"  # the context of a word the rules put into sentences (a colour, an animal)


class Gettext:
    """A board's translation function: a string of the pages, else a word of the games
    (a board names a colour as the log does); `ngettext` for a count's plural."""

    def __init__(self, t: NullTranslations) -> None:
        self._t = t

    def __call__(self, text: str) -> str:
        found = str(self._t.gettext(text))
        return found if found != text else str(self._t.pgettext(WORD, text))

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        return str(self._t.ngettext(singular, plural, n))


@functools.cache
def gettext_for(lang: str) -> Gettext:
    return Gettext(translations(lang))


def ngettext_of(gettext: Callable[[str], str]) -> Callable[[str, str, int], str]:
    """The plural function that goes with `gettext` (English where it has none)."""
    found: Callable[[str, str, int], str] | None = getattr(gettext, "ngettext", None)
    return found or (lambda singular, plural, n: singular if n == 1 else plural)


@functools.cache
def script_strings(folder: Path = STATIC) -> tuple[list[str], list[tuple[str, str]]]:
    """The strings the page scripts translate: `t("...")` and `tn("...", "...", n)`."""
    from babel.messages.extract import extract

    single: list[str] = []
    plural: list[tuple[str, str]] = []
    for path in sorted(folder.glob("*.js")):
        with path.open("rb") as f:
            for _line, message, _comments, _context in extract(
                "javascript", f, keywords={"t": None, "tn": (1, 2)}
            ):
                if isinstance(message, tuple):
                    plural.append((str(message[0]), str(message[1])))
                else:
                    single.append(message)
    return single, plural


_BOT_NAME = re.compile(r"^bot \((\w+)\)$")
# Where one strength holds several seats of a game (`tianxia.server.live.seat_names`).
_BOT_LETTER = re.compile(r"^(\w+) bot ([A-Z])$")


def seat_label(name: str, lang: str) -> str:
    """A seat's name as `lang` shows it: a bot's ("bot (easy)", or "easy bot B" where
    one strength holds several seats) translated, a person's as chosen."""
    if lang == "en":
        return name
    from tianxia.play.table import STRENGTHS

    gettext = gettext_for(lang)
    m = _BOT_LETTER.match(name)
    if m is not None and m.group(1) in STRENGTHS:
        return gettext(N_("{strength} bot {letter}")).format(
            strength=gettext(m.group(1)), letter=m.group(2)
        )
    m = _BOT_NAME.match(name)
    if m is None:
        return name
    return gettext(N_("bot ({strength})")).format(strength=gettext(m.group(1)))


def js_strings(lang: str) -> dict[str, str | list[str]]:
    """`window.T`: each string of the scripts translated; a plural under its two English
    forms joined by U+0004, as its [one, other] forms (every language here has two)."""
    t = gettext_for(lang)
    single, plural = script_strings()
    out: dict[str, str | list[str]] = {s: t(s) for s in [*JS_STRINGS, *single]}
    for one, other in plural:
        out[one + "\u0004" + other] = [t.ngettext(one, other, 1), t.ngettext(one, other, 2)]
    return out


def negotiate(query: str | None, cookie: str | None, accept_language: str | None) -> str:
    """The page's language: `?lang=`, then the switch's cookie, then the browser's list."""
    for choice in (query, cookie):
        if choice in accepted():
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
