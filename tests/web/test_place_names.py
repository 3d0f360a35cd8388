"""The map's places in sentences as the board prints them: the Emperor's engine writes a
province in its notation's lower case (`kiangsi`), a player reads "Kiangsi" on the board,
in the moves, in the log and in the hints, in every language."""

from __future__ import annotations

import random
import re

import pytest

from tianxia.core import Match, load_game
from tianxia.web.sentences import log_sentence, place_names, translate_sentence
from tianxia.web.tableview import move_text

IDS = re.compile(
    r"\b(" + "|".join(p["id"] for p in load_game("emperor").layout()["provinces"]) + r")\b"
)


@pytest.mark.parametrize("lang", ["en", "nl", "de"])
def test_the_emperors_moves_and_log_name_provinces_as_the_board_does(lang: str) -> None:
    m = Match(load_game("emperor", players=3), seed=5)
    rng = random.Random(5)
    named = 0
    for _ in range(300):
        state = m.state
        if state.is_terminal():
            break
        if not state.is_chance_node():
            for action in state.legal_actions():
                explain = state.explain(action)
                text = move_text(translate_sentence(explain, lang, "emperor"), lang)
                assert not IDS.search(text), text
                if IDS.search(explain):
                    named += 1
                    assert re.search(r"\b[A-Z][a-z]+\b", text)
        action = rng.choice(state.legal_actions())
        line = log_sentence(str(state.game.rules.describe(state, action)), lang, "emperor")
        assert not IDS.search(line), line
        m.play(action)
    assert named > 50


def test_other_titles_and_other_words_are_left_as_they_are() -> None:
    assert place_names("places a house on Wei.3", "china") == "places a house on Wei.3"
    assert place_names("the die shows 4: the defender loses a unit in hopeh", "emperor") == (
        "the die shows 4: the defender loses a unit in Hopeh"
    )
    # A place's name inside a longer word is no place.
    assert place_names("hopehs kansuan", "emperor") == "hopehs kansuan"
    assert place_names("hopeh", "") == "hopeh"
