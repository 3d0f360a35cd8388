"""The engine's refusal reasons in Dutch and German.

A refusal's reason is an English sentence the rules build with values in it ("P1 does
not lead in section B: 2 against 3"). `make i18n` finds every such sentence in the
source (the reason given with a rule's number, in `why_illegal` and wherever an
`IllegalActionError` is raised) and writes it to the catalogue as a template, its values
numbered (`{0} does not lead in section {1}: {2} against {3}`) under the rule's number as
context. `translate_reason` matches a reason against the templates of its rule and fills
the translation with the same values; a reason no template matches stays English.

The log's sentences and the `explain` text of each move are built the same way, in each
game's `describe` and `event`: every sentence written there is a template under the
context `SENTENCE`, and the words the rules put into sentences (colours, kinds of card,
animals) are entries under `WORD`. `translate_sentence` fills a template's translation
with its values, each value translated in turn (a log line of the Silk Road holds the
move's description whole), so a sentence is Dutch or German to its last word where the
catalogue has them, and the English original where it has not.
"""

from __future__ import annotations

import ast
import functools
import re
from collections.abc import Iterator
from pathlib import Path

from tianxia.web.i18n import WORD, translations
from tianxia.web.logforms import LOG_FORMS
from tianxia.web.logforms import template_pattern as _pattern

SRC = Path(__file__).resolve().parents[1]
SOURCES = ["games/*/rules.py", "core/*.py", "play/table.py", "server/live.py"]
_RULE = re.compile(r"^[A-Z]+-\d+(\.\d+)*$")
ANY_RULE = "ANY-0"  # the context of a reason whose rule is computed, not written
# The context of a sentence of the log or of a move's explanation: `SENTENCE` for the
# engine's own, `SENTENCE china` for one of China's, so one game's short template never
# takes another game's sentence apart.
SENTENCE = "SENTENCE"
GAME_OF_RULE = {
    "CH": "china",
    "GW": "greatwall",
    "EM": "emperor",
    "MA": "mandarin",
    "SR": "silkroad",
}
# Functions whose every string is a sentence a player reads, and the files they are in.
SENTENCE_SOURCES = ["games/*/rules.py", "core/game.py", "bots/base.py"]
SENTENCE_FUNCTIONS = {"describe", "event", "explain", "explained_actions", "in_words"}
# Calls whose string arguments are names in the code, never read by a player.
_CODE_CALLS = {"getattr", "hasattr", "isinstance", "setattr"}


def _is_rule(node: ast.AST) -> bool:
    return (
        isinstance(node, ast.Constant)
        and isinstance(node.value, str)
        and bool(_RULE.match(node.value))
    )


def _template(node: ast.AST) -> tuple[str, list[str]] | None:
    """The sentence with its values numbered, and the source of each value."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value.replace("{", "{{").replace("}", "}}"), []
    if not isinstance(node, ast.JoinedStr):
        return None
    text, values = "", list[str]()
    for part in node.values:
        if isinstance(part, ast.Constant):
            text += str(part.value).replace("{", "{{").replace("}", "}}")
        elif isinstance(part, ast.FormattedValue):
            text += "{" + str(len(values)) + "}"
            values.append(ast.unparse(part.value))
    return text, values


def extract() -> Iterator[tuple[str, str, list[str], str]]:
    """(rule, template, value sources, where) for every reason in the source."""
    for pattern in SOURCES:
        for path in sorted(SRC.glob(pattern)):
            tree = ast.parse(path.read_text())
            # In a function that says why an action is refused, a returned pair is
            # (rule, reason) even where the rule is looked up rather than written out.
            computed: set[int] = set()
            for fn in ast.walk(tree):
                if isinstance(fn, ast.FunctionDef) and "why" in fn.name:
                    for ret in ast.walk(fn):
                        if (
                            isinstance(ret, ast.Return)
                            and isinstance(ret.value, ast.Tuple)
                            and len(ret.value.elts) == 2
                            and not _is_rule(ret.value.elts[0])
                        ):
                            computed.add(id(ret.value))
            for node in ast.walk(tree):
                pair: list[ast.expr] | None = None
                if isinstance(node, ast.Tuple) and id(node) in computed:
                    found = _template(node.elts[1])
                    if found is not None:
                        yield ANY_RULE, found[0], found[1], f"{path.relative_to(SRC)}:{node.lineno}"
                    continue
                if isinstance(node, ast.Tuple) and len(node.elts) == 2 and _is_rule(node.elts[0]):
                    pair = node.elts
                elif isinstance(node, ast.Call):
                    for i in range(len(node.args) - 1):
                        if _is_rule(node.args[i]):
                            pair = node.args[i : i + 2]
                            break
                if pair is None:
                    continue
                found = _template(pair[1])
                if found is None:
                    continue
                rule = pair[0].value  # type: ignore[attr-defined]
                where = f"{path.relative_to(SRC)}:{getattr(node, 'lineno', 0)}"
                yield rule, found[0], found[1], where


def _strings_in(fn: ast.FunctionDef) -> Iterator[ast.expr]:
    """The strings of `fn` a player may read: not its docstring, not a name given to
    getattr and the like, not a string indexed into (`"ABC"[i]`) or joined with."""
    skip: set[int] = set()
    if fn.body and isinstance(fn.body[0], ast.Expr):
        skip.add(id(fn.body[0].value))
    stack: list[ast.AST] = [fn]
    while stack:
        node = stack.pop()
        if isinstance(node, ast.Call):
            if isinstance(node.func, ast.Name) and node.func.id in _CODE_CALLS:
                skip.update(id(a) for a in node.args)
            if isinstance(node.func, ast.Attribute):
                skip.add(id(node.func.value))
        if isinstance(node, ast.Subscript):
            skip.add(id(node.value))
        if isinstance(node, ast.Compare):
            skip.update(id(x) for x in (node.left, *node.comparators))
        if isinstance(node, ast.JoinedStr):
            if id(node) not in skip:
                yield node
            # A value inside may hold sentences of its own; format specs are not.
            for part in node.values:
                if isinstance(part, ast.FormattedValue):
                    stack.append(part.value)
            continue
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            if id(node) not in skip and re.search(r"[a-z]", node.value):
                yield node
            continue
        stack.extend(ast.iter_child_nodes(node))


def _sentence_context(path: Path) -> str:
    game = path.parent.name if path.parent.parent.name == "games" else ""
    return f"{SENTENCE} {game}" if game else SENTENCE


def extract_sentences() -> Iterator[tuple[str, str, list[str], str]]:
    """(context, template, value sources, where) for every sentence of the log and of
    `explain`."""
    reasons = {template for _, template, _, _ in extract()}
    for pattern in SENTENCE_SOURCES:
        for path in sorted(SRC.glob(pattern)):
            tree = ast.parse(path.read_text())
            for fn in ast.walk(tree):
                if not isinstance(fn, ast.FunctionDef):
                    continue
                # A function that says why a move is refused builds parts of its reasons
                # ("in your hand", a note on an absent seat): they are translated as
                # the reason's values.
                why = "why" in fn.name and path.parent.parent.name == "games"
                if fn.name not in SENTENCE_FUNCTIONS and not why:
                    continue
                for node in _strings_in(fn):
                    found = _template(node)
                    if found is None or not re.sub(r"\{\d+\}", "", found[0]).strip():
                        continue
                    if why and found[0] in reasons:
                        continue
                    where = f"{path.relative_to(SRC)}:{node.lineno}"
                    yield _sentence_context(path), found[0], found[1], where


# What China's final scoring is made of, by the observation's names (the end's summary).
FINAL_PARTS = ("provinces", "alliances", "roads")
# What the Emperor's observation says of a seat (`rules.status`), which its board shows.
EMPEROR_STATUSES = ("waiting", "active", "junior", "eliminated")


def words() -> list[str]:
    """The words the rules put into sentences: colours, kinds of card, animals, the
    Emperor's cards, obstacles and phases, the Silk Road's card titles and texts."""
    import tianxia
    from tianxia.games.china.data import COLOURS as CHINA_COLOURS
    from tianxia.games.emperor.rules import kind_name
    from tianxia.games.emperor.state import PHASES
    from tianxia.games.greatwall.data import KINDS
    from tianxia.games.mandarin.data import TABLES
    from tianxia.games.silkroad.actions import COLOURS as SILKROAD_COLOURS

    emperor = tianxia.load_game("emperor").tables  # type: ignore[attr-defined]
    obstacles = {kind for row in emperor.block for kind in row.values()}
    emperor_words = {
        *map(kind_name, (*emperor.yang_kinds, *emperor.yin_kinds, *obstacles)),
        *(str(p) for p in PHASES),
        *EMPEROR_STATUSES,
    }
    cards = tianxia.load_game("silkroad").data.cards  # type: ignore[attr-defined]
    card_words = {w for c in cards for w in (c.title, c.text, *card_alternatives(c.text))}
    found = {*CHINA_COLOURS, *KINDS, *TABLES.animals, *TABLES.colours, *SILKROAD_COLOURS}
    found.update(FINAL_PARTS)
    return sorted({*found, *emperor_words, *card_words} - {""})


def card_alternatives(text: str) -> list[str]:
    """A Silk Road card's alternatives ("I: move 6 forward. II: ..."), each on its own, as
    the board shows them; a card without numerals has none apart from its text."""
    parts = re.split(r"(?:^|\s)(?:I|II|III): ", text)
    return [p.strip() for p in parts[1:]] if len(parts) > 1 else []


def display_strings() -> list[str]:
    """What the games say of themselves to a player choosing one: titles and options'
    explanations (the pages look them up without a context)."""
    import tianxia

    out: set[str] = set()
    for name in tianxia.list_games():
        game = tianxia.load_game(name)
        if not type(game).__module__.startswith("tianxia.games."):
            continue  # a game registered from elsewhere (a test's) has no catalogue here
        info = game.info
        out.add(info.title)
        out.update(o.help for o in info.option_specs if o.help)
    return sorted(out)


@functools.cache
def _templates() -> dict[str, list[tuple[str, re.Pattern[str]]]]:
    from babel.messages.pofile import read_po

    from tianxia.web.i18n import LOCALE

    by_rule: dict[str, list[tuple[str, re.Pattern[str]]]] = {}
    with (LOCALE / "tianxia.pot").open("rb") as f:
        for m in read_po(f):
            if m.context and _RULE.match(m.context) and isinstance(m.id, str):
                by_rule.setdefault(m.context, []).append((m.id, _pattern(m.id)))
    # The template with the most fixed words first: a shorter one could swallow the
    # rest of a longer sentence into its last value.
    for templates in by_rule.values():
        templates.sort(key=lambda t: -len(re.sub(r"\{\d+\}", "", t[0])))
    return by_rule


def _fill(translated: str, values: list[str], lang: str, game: str = "") -> str | None:
    try:
        return translated.format(*(translate_sentence(v, lang, game) for v in values))
    except (IndexError, KeyError, ValueError):
        return None


def translate_reason(rule: str, reason: str, lang: str) -> str:
    """`reason` (a refusal under `rule`) in `lang`, or as it is if no template fits."""
    if lang == "en":
        return reason
    t = translations(lang)
    by_rule = _templates()
    for template, pattern in [*by_rule.get(rule, []), *by_rule.get(ANY_RULE, [])]:
        m = pattern.match(reason)
        if m is None:
            continue
        context = rule if (template, pattern) in by_rule.get(rule, []) else ANY_RULE
        translated = str(t.pgettext(context, template))
        if translated == template:
            return reason
        values = [m.group(f"v{i}") for i in range(len(pattern.groupindex))]
        return _fill(translated, values, lang, GAME_OF_RULE.get(rule.split("-")[0], "")) or reason
    return reason


@functools.cache
def _sentence_templates(game: str) -> list[tuple[str, str, re.Pattern[str]]]:
    """(context, template, pattern) of `game`'s sentences, then the engine's."""
    from babel.messages.pofile import read_po

    from tianxia.web.i18n import LOCALE

    with (LOCALE / "tianxia.pot").open("rb") as f:
        catalog = list(read_po(f))
    contexts = (f"{SENTENCE} {game}", SENTENCE)
    found = [
        (m.context, m.id, _pattern(m.id))
        for m in catalog
        if m.context in contexts and isinstance(m.id, str)
    ]
    # A template that opens with words of its own first ("legal: {0}" takes the whole
    # explanation, not "{0} discards a {1} card" with "legal: P1" for a seat), then the
    # one with the most words, so a short one does not swallow a longer sentence.
    found.sort(
        key=lambda t: (
            -len(t[1].split("{", 1)[0]) if "{" in t[1] else -len(t[1]),
            -len(re.sub(r"\{\d+\}", "", t[1])),
            t[0] == SENTENCE,  # on a tie the game's own template first
        )
    )
    return [(str(c), i, p) for c, i, p in found]


# A Mandarin tile in the engine's notation: its animal and colour ("ox-red").
_MANDARIN_TILE = re.compile(r"^([a-z]+)-([a-z]+)$")


@functools.cache
def _place_names(game: str) -> tuple[re.Pattern[str], dict[str, str]] | None:
    """The map's names that the engine's sentences write in its notation's lower case
    (the Emperor's `kiangsi`, printed on the board as "Kiangsi"), and a pattern that
    finds them as whole words."""
    import tianxia

    if game not in tianxia.list_games():
        return None
    layout = tianxia.load_game(game).layout()
    provinces = layout.get("provinces") if isinstance(layout, dict) else None
    names = {
        str(p["id"]): str(p["name"])
        for p in provinces or ()
        if isinstance(p, dict)
        and isinstance(p.get("id"), str)
        and isinstance(p.get("name"), str)
        and p["id"] != p["name"]
        and p["name"].lower() == p["id"]
    }
    if not names:
        return None
    words = "|".join(map(re.escape, sorted(names, key=len, reverse=True)))
    return re.compile(rf"\b({words})\b"), names


def place_names(text: str, game: str) -> str:
    """`text` with the map's places named as the board prints them ("moves 3 units from
    Kiangsi into Anhwei", not "from kiangsi into anhwei"): a sentence in words is no
    place for the notation's lower case."""
    found = _place_names(game) if game else None
    if found is None:
        return text
    pattern, names = found
    return pattern.sub(lambda m: names[m.group(1)], text)


@functools.lru_cache(maxsize=1 << 16)
def translate_sentence(text: str, lang: str, game: str = "") -> str:
    """A sentence of `game`'s log or of a move's explanation (or a word in one) in
    `lang`, or as it is where the catalogue has no translation for it; the map's
    places as the board names them."""
    return place_names(_translate_sentence(text, lang, game), game)


def _translate_sentence(text: str, lang: str, game: str) -> str:
    if lang == "en" or not text:
        return text
    t = translations(lang)
    word = str(t.pgettext(WORD, text))
    if word != text:
        return word
    tile = _MANDARIN_TILE.match(text) if game == "mandarin" else None
    if tile:
        # A tile is named as the board names it, its animal then its colour ("os rood"):
        # the notation's English would be the only English in a Dutch log.
        return " ".join(str(t.pgettext(WORD, w)) for w in tile.groups())
    if len(text) > 2 and text[0] == text[-1] == "'":
        # A card's title as a sentence quotes it ("#9 'Pilgrims on the road'").
        quoted = str(t.pgettext(WORD, text[1:-1]))
        if quoted != text[1:-1]:
            return f"'{quoted}'"
    found = sentence_template(text, game)
    if found is None:
        # A list of words ("white, purple": a group of merchants) is the words' list.
        parts = text.split(", ")
        if len(parts) > 1:
            return ", ".join(str(t.pgettext(WORD, p)) for p in parts)
        return text
    context, template, values = found
    translated = str(t.pgettext(context, template))
    if translated == template and not values:
        return text
    # Every template has fixed words, so each value is shorter than the text.
    return _fill(translated, values, lang, game) or text


def log_sentence(text: str, lang: str, game: str = "") -> str:
    """A sentence of `game`'s log as a log line tells it, in `lang`: short where the
    move's own sentence quotes what the board shows (`LOG_FORMS`), else the sentence."""
    forms = LOG_FORMS.get(game)
    found = sentence_template(text, game) if forms else None
    if not forms or found is None or found[1] not in forms:
        return translate_sentence(text, lang, game)
    short = forms[found[1]]
    translated = short if lang == "en" else str(translations(lang).gettext(short))
    return _fill(translated, found[2], lang, game) or translate_sentence(text, lang, game)


def bot_reason(explanation: str, lang: str, game: str = "") -> str:
    """What a player reads of a bot's explanation: its first line, the reason in words,
    in `lang`; the figures after it stay for the terminal and the log."""
    return translate_sentence(explanation.split("\n", 1)[0], lang, game)


def sentence_template(text: str, game: str = "") -> tuple[str, str, list[str]] | None:
    """The catalogue's (context, template, values) that `text`, a sentence of `game`,
    was built from, or None if it fits no template."""
    for context, template, pattern in _sentence_templates(game):
        m = pattern.match(text)
        if m is not None:
            return context, template, [m.group(f"v{i}") for i in range(len(pattern.groupindex))]
    return None


def write_template(pot: Path) -> int:
    """Add every reason to the catalogue template `pot`; returns how many."""
    from babel.messages.pofile import read_po, write_po

    with pot.open("rb") as f:
        catalog = read_po(f)
    n = 0
    for rule, template, values, _where in extract():
        comment = "values: " + "; ".join(f"{{{i}}} = {v}" for i, v in enumerate(values))
        catalog.add(template, context=rule, auto_comments=[comment] if values else [])
        n += 1
    for context, template, values, _where in extract_sentences():
        comment = "values: " + "; ".join(f"{{{i}}} = {v}" for i, v in enumerate(values))
        catalog.add(template, context=context, auto_comments=[comment] if values else [])
        n += 1
    for word in words():
        catalog.add(word, context=WORD)
        n += 1
    for text in display_strings():
        catalog.add(text)
        n += 1
    with pot.open("wb") as f:
        write_po(f, catalog, width=100, sort_output=True)
    return n


if __name__ == "__main__":
    from tianxia.web.i18n import LOCALE

    print(f"{write_template(LOCALE / 'tianxia.pot')} reasons, sentences and words in the template")
