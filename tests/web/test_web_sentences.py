"""The log's sentences, the moves' explanations and the rules pages in Dutch and German."""

from __future__ import annotations

import random
import re
from functools import cache
from typing import Any, cast

import pytest

pytest.importorskip("babel")

from babel.messages.pofile import read_po

from scripts import random_step
from serving import Server
from tianxia.core import load_game
from tianxia.core.match import Match
from tianxia.web.i18n import LOCALE
from tianxia.web.pages import RULES, rules_source
from tianxia.web.sentences import (
    SENTENCE,
    display_strings,
    extract_sentences,
    sentence_template,
    translate_sentence,
    words,
)

TITLES = ["china", "greatwall", "emperor", "mandarin", "silkroad"]


@cache
def _played(name: str, seed: int = 2) -> tuple[list[str], list[str]]:
    """The explanations offered and the log lines seen by every viewer in a random game."""
    match = Match(load_game(name, 3), seed=seed)
    rng = random.Random(seed)
    explained: set[str] = set()
    for _ in range(600):
        state = match.state
        if state.is_terminal():
            break
        if not state.is_chance_node():
            explained.update(text for _, text in state.explained_actions())
        random_step(match, rng)
    lines = {e["text"] for seat in (None, 0, 1, 2) for e in match.events_for(seat)}
    return sorted(explained), sorted(lines)


def test_every_sentence_in_the_source_is_in_the_catalogue() -> None:
    with (LOCALE / "tianxia.pot").open("rb") as f:
        known = {(m.context, m.id) for m in read_po(f) if m.context}
    missing = [(c, t) for c, t, _, _ in extract_sentences() if (c, t) not in known]
    missing += [("WORD", w) for w in words() if ("WORD", w) not in known]
    with (LOCALE / "tianxia.pot").open("rb") as f:
        plain = {m.id for m in read_po(f) if not m.context}
    missing += [("", t) for t in display_strings() if t not in plain]
    assert not missing, f"run `make i18n`: {missing[:5]}"


def test_titles_options_card_texts_and_the_emperors_words_read_in_dutch_and_german() -> None:
    from tianxia.web.i18n import gettext_for

    for lang in ("nl", "de"):
        t = gettext_for(lang)
        for text in [*display_strings(), "Oasis", "Move 3 fields forward.", "great wall"]:
            assert t(text) != text or text == "Die Seidenstraße", (lang, text)
        # A yang card and an obstacle are words inside a refusal too.
        reason = translate_sentence("growth", lang, "emperor")
        assert reason not in ("growth", ""), reason
    said = translate_sentence("P1 draws #3", "de", "silkroad")
    assert "zieht" in said, said


@pytest.mark.parametrize("name", TITLES)
def test_every_explanation_is_built_from_a_template_of_its_game(name: str) -> None:
    explained, _ = _played(name)
    assert len(explained) > 20
    for text in explained:
        found = sentence_template(text, name)
        assert found is not None and found[1] == "legal: {0}", text
        inner = sentence_template(found[2][0], name)
        assert inner is not None and inner[0] == f"{SENTENCE} {name}", text


@pytest.mark.parametrize("name", TITLES)
@pytest.mark.parametrize("lang", ["nl", "de"])
def test_explanations_and_log_lines_read_in_dutch_and_german(name: str, lang: str) -> None:
    explained, lines = _played(name)
    for text in explained:
        translated = translate_sentence(text, lang, name)
        assert translated != text and "{" not in translated, (text, translated)
        assert not translated.startswith("legal:"), translated
        # The sentence's own words change; its values (seats, places, numbers) stay.
        for value in re.findall(r"\bP\d\b|\b\d+\b", text):
            assert value in translated, (text, translated)
    changed = 0
    for text in lines:
        translated = translate_sentence(text, lang, name)
        assert "{" not in translated
        found = sentence_template(text, name)
        assert found is not None, text
        if found[1] != "{0}: {1}":  # a seat and the move's notation read the same
            assert translated != text, (text, translated)
            changed += 1
    assert changed > 0


def test_a_sentence_inside_another_is_translated_to_its_last_word() -> None:
    # The Silk Road's log line holds the move's description whole; Mandarin's
    # explanation holds an animal's name.
    _, lines = _played("silkroad")
    nested = [t for t in lines if ": carries out alternative" in t and ", " in t]
    assert nested
    for lang in ("nl", "de"):
        for text in nested:
            translated = translate_sentence(text, lang, "silkroad")
            assert "carries" not in translated and "alternative" not in translated, translated
            assert not any(c in translated for c in ("white", "purple", "red", "green")), translated
    text = "legal: P1 is born under the tiger and starts on its character"
    born = translate_sentence(text, "de", "mandarin")
    assert "tiger" not in born and "born" not in born and "P1" in born


def test_english_stays_english_and_an_unknown_sentence_stays_as_it_is() -> None:
    text = "legal: P1 places a house on Wei.3, paying one red card"
    assert translate_sentence(text, "en", "china") == text
    assert translate_sentence("no game says this", "de", "china") == "no game says this"


def test_a_card_hidden_from_a_seat_stays_hidden_in_its_language() -> None:
    match = Match(load_game("greatwall", 3), seed=5)
    rng = random.Random(5)
    while not any(e["seat"] == 0 and "draws a card" in e["text"] for e in match.events_for(1)):
        random_step(match, rng)
    kinds = [w for lang in ("en", "nl", "de") for w in map(str.lower, _kinds(lang))]
    for lang in ("en", "nl", "de"):
        for e in match.events_for(1):
            if e["seat"] == 0 and "draws a card" in e["text"]:
                said = translate_sentence(e["text"], lang, "greatwall").lower()
                assert not any(re.search(rf"\b{re.escape(k)}\b", said) for k in kinds), said


def _kinds(lang: str) -> list[str]:
    from tianxia.games.greatwall.data import KINDS

    return [translate_sentence(k, lang) for k in KINDS]


RULE = re.compile(r"^(?:- )?\*\*([A-Z]+-[0-9]+(?:\.[0-9]+)*)[ .*]", re.M)
CODE = re.compile(r"`[^`]+`")


@pytest.mark.parametrize("name", TITLES)
@pytest.mark.parametrize("lang", ["nl", "de"])
def test_each_rules_page_is_translated_in_step_with_the_english(name: str, lang: str) -> None:
    english = (RULES / f"{name}.md").read_text()
    source = rules_source(name, lang)
    assert source != RULES / f"{name}.md", f"no {lang} rules for {name}"
    translated = source.read_text()
    assert RULE.findall(translated) == RULE.findall(english)
    # Notation, test names and options are the same words in every language.
    spans = {" ".join(c.split()) for c in CODE.findall(english)}
    assert spans - {" ".join(c.split()) for c in CODE.findall(translated)} == set()
    assert len(re.findall(r"^#+ ", translated, re.M)) == len(re.findall(r"^#+ ", english, re.M))


def test_every_rules_page_is_served_in_its_language_with_working_section_links(
    site: Server,
) -> None:
    import html as markup

    import httpx

    for name in TITLES:
        english = re.findall(r"^## (.+)$", (RULES / f"{name}.md").read_text(), re.M)
        for lang in ("en", "nl", "de"):
            html = httpx.get(f"{site.base}/rules/{name}?lang={lang}").text
            # The section of rulings, under its heading in the page's own language.
            headings = re.findall(r"^## (.+)$", rules_source(name, lang).read_text(), re.M)
            rulings = headings[english.index("Rulings")]
            shown = markup.escape(re.sub(r"`([^`]*)`", r"\1", rulings), quote=False)
            assert shown in html, (name, lang, rulings)
            ids = set(re.findall(r'id="([^"]+)"', html))
            assert set(re.findall(r'href="#([^"]+)"', html)) <= ids, (name, lang)


# "a orange card", "take 1 more card(s)", "(1 units)": English said right, in every form.
_WRONG_ENGLISH = re.compile(
    r"\w\((?:s|es)\)|\ba (?!uni|use|one)[aeiou]\w|\ban [b-df-hj-np-tv-z]\w|"
    r"(?<![\w.-])[+-]?1 (?:units|cards|tiles|fields|places|card places|ounces|yuan)\b"
)


@pytest.mark.parametrize("name", TITLES)
def test_sentences_say_a_an_and_plurals_right(name: str) -> None:
    said: set[str] = set()
    for seed in (2, 3, 4):
        explained, lines = _played(name, seed)
        said.update(explained, lines)
    match = Match(load_game(name, 3), seed=9)
    rng = random.Random(9)
    while not match.state.is_terminal() and len(said) < 5000:
        seat = match.state.current_player()
        envelope = match.state.observation(seat if seat >= 0 else None)
        said.update(v for v in _texts(envelope) if " " in v)
        random_step(match, rng)
    wrong = sorted(t for t in said if _WRONG_ENGLISH.search(t))
    assert not wrong, wrong[:5]


def _texts(value: object) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [t for v in value.values() for t in _texts(v)]
    if isinstance(value, list | tuple):
        return [t for v in value for t in _texts(v)]
    return []


def test_no_template_writes_a_plural_as_a_parenthesis() -> None:
    with (LOCALE / "tianxia.pot").open("rb") as f:
        ids = [m.id for m in read_po(f) if m.id]
    forms = [i for i in ids for s in ([i] if isinstance(i, str) else i) if re.search(r"\w\(s\)", s)]
    assert not forms, forms
    # Nor a translation: "eenhe(i)d(en)", "Karte(n)", "Kartenplatz/-plätze".
    for lang in ("nl", "de"):
        with (LOCALE / lang / "LC_MESSAGES" / "tianxia.po").open("rb") as f:
            said = [s for m in read_po(f) for s in _forms(m.string)]
        wrong = [s for s in said if re.search(r"\w\((?:i|en|n|e|s|er)\)|\w/-\w", s)]
        assert not wrong, (lang, wrong)


@pytest.mark.parametrize("name", TITLES)
def test_a_bots_reason_is_a_sentence_in_words_in_every_language(name: str) -> None:
    from tianxia.bots import make
    from tianxia.play.table import explanation_of
    from tianxia.web.sentences import bot_reason

    game = load_game(name, 3)
    bots = [
        make("random", game, 0, seed=1),
        make("greedy", game, 1, seed=1),
        make("ismcts", game, 2, seed=1, simulations=30),
    ]
    match = Match(game, seed=4)
    rng = random.Random(4)
    reasons: dict[str, str] = {}
    for _ in range(60):
        state = match.state
        if state.is_terminal():
            break
        if state.is_chance_node():
            random_step(match, rng)
            continue
        bot = bots[state.current_player()]
        match.play(bot.act(state))
        kept = explanation_of(bot)
        # The sentence first, the search's figures still behind it.
        assert kept.splitlines()[0] == bot.reason() and bot.explain() in kept
        reasons.setdefault(type(bot).__name__, bot_reason(kept, "en", name))
    assert set(reasons) == {"RandomBot", "GreedyBot", "ISMCTSBot"}, reasons
    for text in reasons.values():
        assert not re.search(r"evaluation|determinis|visits|legal actions", text), text
        found = sentence_template(text, name)
        assert found is not None and found[0] == SENTENCE, text
        for lang in ("nl", "de"):
            said = translate_sentence(text, lang, name)
            # The reason's words and the move's own sentence inside are translated.
            assert said != text and "games" not in said and " moves" not in said, said
            inner = found[2][-1]
            assert translate_sentence(inner, lang, name) in said, (inner, said)


def test_every_status_the_emperors_board_shows_is_a_word_of_the_catalogue() -> None:
    from tianxia.web.sentences import EMPEROR_STATUSES

    match = Match(load_game("emperor", 3), seed=6)
    rng = random.Random(6)
    seen: set[str] = set()
    for _ in range(400):
        if match.state.is_terminal():
            break
        seen.update(str(p["status"]) for p in match.state.observation(None)["players"])
        random_step(match, rng)
    assert {"waiting", "active"} <= seen <= set(EMPEROR_STATUSES) <= set(words())


@pytest.mark.parametrize(("version", "said"), [(3, "an orange card"), (2, "a orange card")])
def test_chinas_log_says_an_orange_card_and_stored_games_keep_their_words(
    version: int, said: str
) -> None:
    rng = random.Random(8)
    for seed in range(40):
        match = Match(load_game("china", 3, rules_version=version), seed=seed)
        for _ in range(300):
            state = match.state
            if state.is_terminal():
                break
            if not state.is_chance_node():
                orange = [a for a in state.legal_actions() if str(a) == "exchange orange"]
                if orange:
                    match.play(orange[0])
                    log = match.state.observation(None)["log"]
                    assert any(said in line for line in log), log[-3:]
                    return
            random_step(match, rng)
    pytest.fail("no game offered an exchange of an orange card")


def test_the_ends_summary_and_the_cards_alternatives_are_words_of_the_catalogue() -> None:
    from tianxia.web.i18n import gettext_for
    from tianxia.web.sentences import FINAL_PARTS, card_alternatives

    match = Match(load_game("china", 3), seed=3)
    rng = random.Random(3)
    while not match.state.is_terminal():
        random_step(match, rng)
    final = match.state.observation(None)["final"]
    assert {k for part in final for k in part} == set(FINAL_PARTS)
    cards = cast(Any, load_game("silkroad")).data.cards
    split = [p for c in cards for p in card_alternatives(c.text)]
    assert "the group of two moves 4." in split
    for lang in ("nl", "de"):
        t = gettext_for(lang)
        assert all(t(w) != w for w in [*FINAL_PARTS, *split]), lang


def _forms(value: object) -> list[str]:
    """A catalogue entry's text, or each form of a plural."""
    if isinstance(value, str):
        return [value]
    return [str(v) for v in value] if isinstance(value, tuple | list) else []


@pytest.mark.parametrize("lang", ["nl", "de"])
def test_mandarins_tiles_read_as_words_in_dutch_and_german(lang: str) -> None:
    """A drawn, returned or taken tile is its animal and colour in the reader's words, as
    on the board, not the notation's English ("ox-red")."""
    from tianxia.games.mandarin.data import TABLES

    explained, lines = _played("mandarin")
    tiles = re.compile("|".join(rf"(?<![\w-]){re.escape(n)}(?![\w-])" for n in TABLES.tile_names))
    said = []
    for text in [*explained, *lines]:
        found = sentence_template(text, "mandarin")
        if tiles.search(text) and found is not None and found[1] != "{0}: {1}":
            said.append(text)
    assert len(said) > 10
    for text in said:
        translated = translate_sentence(text, lang, "mandarin")
        assert not tiles.search(translated), (text, translated)
    expected = {"nl": "de steen is os rood", "de": "das Plättchen ist Ochse Rot"}
    assert translate_sentence("the tile is ox-red", lang, "mandarin") == expected[lang]
