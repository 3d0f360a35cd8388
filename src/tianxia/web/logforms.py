"""Log lines told short: where a move's sentence quotes what the board already shows (a
Silk Road card's whole text, a bazaar's payout), its line names only the card and where
it went. Plain Python without the catalogues, so the terminal player's log reads the
same short lines as the browser's; `tianxia.web.sentences` translates them."""

from __future__ import annotations

import functools
import re


def N_(text: str) -> str:
    """Marks a string for extraction (`make i18n`); translated where it is shown."""
    return text


# Each engine template, and its log form (the values it keeps by number).
LOG_FORMS: dict[str, dict[str, str]] = {
    "silkroad": {
        "lays {0} {1} face up and carries it out for {2}: {3}": N_("plays {0} {1} for {2}"),
        "passes {0} {1} to {2}, whose owner carries it out: {3}": N_("gives {0} {1} to {2}"),
        "calls bazaar {0}: the three foremost earn {1} ounces, then your merchants move "
        "{2} field": N_("calls bazaar {0}"),
        "calls bazaar {0}: the three foremost earn {1} ounces, then your merchants move "
        "{2} fields": N_("calls bazaar {0}"),
    },
}


def template_pattern(template: str) -> re.Pattern[str]:
    """A regular expression that takes a sentence built from `template` apart: value
    `{i}` is the group `vi`."""
    out, pos = "", 0
    for m in re.finditer(r"\{(\d+)\}", template):
        out += re.escape(template[pos : m.start()].replace("{{", "{").replace("}}", "}"))
        # Two values side by side ("{3}{4}": a count, then an optional note) cannot be
        # told apart by the text between them: the first is taken as one word.
        adjacent = template.startswith("{", m.end())
        out += f"(?P<v{m.group(1)}>{'[^ ]+' if adjacent else '.*?'})"
        pos = m.end()
    out += re.escape(template[pos:].replace("{{", "{").replace("}}", "}"))
    return re.compile(f"^{out}$", re.DOTALL)


@functools.cache
def _forms(game: str) -> list[tuple[re.Pattern[str], str]]:
    return [(template_pattern(long), short) for long, short in LOG_FORMS.get(game, {}).items()]


def short_sentence(sentence: str, game: str) -> str | None:
    """`sentence` (a move of `game`, after its seat) as its log line tells it, in
    English, or None where the game tells it whole."""
    for pattern, short in _forms(game):
        m = pattern.match(sentence)
        if m is not None:
            return short.format(*(m.group(f"v{i}") for i in range(len(pattern.groupindex))))
    return None


def told(text: str, game: str) -> str:
    """An event's sentence ("P1: lays #5 ... : Move 7 fields forward.") as a log line
    tells it ("P1 plays #5 'Steppe road' for purple"), or as it is."""
    seat, sep, sentence = text.partition(": ")
    if sep and re.fullmatch(r"P\d", seat):
        short = short_sentence(sentence, game)
        if short is not None:
            return f"{seat} {short}"
    return text
