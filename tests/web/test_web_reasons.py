"""Refusal reasons in Dutch and German: every reason the rules can give has a template."""

from __future__ import annotations

import random

import pytest

pytest.importorskip("babel")

from babel.messages.pofile import read_po

from tianxia.core import IllegalActionError, load_game
from tianxia.core.match import Match
from tianxia.web.i18n import LOCALE
from tianxia.web.sentences import extract, translate_reason

GAMES = {"china": 3, "greatwall": 3, "emperor": 3, "mandarin": 3, "silkroad": 3}


def test_every_reason_in_the_source_is_in_the_catalogue() -> None:
    with (LOCALE / "tianxia.pot").open("rb") as f:
        known = {(m.context, m.id) for m in read_po(f) if m.context}
    missing = [(r, t) for r, t, _, _ in extract() if (r, t) not in known]
    assert not missing, f"run `make i18n`: {missing[:5]}"


def _refusals(name: str, players: int, seed: int) -> list[tuple[str, str]]:
    """Real refusals: every action of the game tried at positions of a random game."""
    game = load_game(name, players)
    match = Match(game, seed=seed)
    rng = random.Random(seed)
    everything = [game.action_from_id(i) for i in range(game.codec.num_actions)]
    out = []
    for step in range(120):
        state = match.state
        if state.is_terminal():
            break
        if step % 6 == 0 and not state.is_chance_node():
            for action in rng.sample(everything, min(60, len(everything))):
                try:
                    state.check(action)
                except IllegalActionError as e:
                    out.append((e.rule, e.reason))
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            match.play(rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0])
        else:
            match.play(rng.choice(state.legal_actions()))
    return out


@pytest.mark.parametrize("name", sorted(GAMES))
def test_real_refusals_read_in_dutch_and_german(name: str) -> None:
    refusals = set(_refusals(name, GAMES[name], 1))
    assert len(refusals) > 5
    untranslated = [
        (rule, reason)
        for rule, reason in refusals
        for lang in ("nl", "de")
        if translate_reason(rule, reason, lang) == reason
    ]
    assert not untranslated, untranslated[:5]


def test_a_reason_keeps_its_values_and_english_stays_english() -> None:
    reason = "P1 does not lead in section B: 2 against 3"
    assert translate_reason("GW-4.1", reason, "de") == "P1 führt nicht in Abschnitt B: 2 gegen 3"
    assert (
        translate_reason("GW-4.1", reason, "nl") == "P1 staat niet voor in bouwplaats B: 2 tegen 3"
    )
    # A reason built of fragments (a note about an absent seat) is translated piece by piece.
    noted = reason + " (P3, without a card there, counts 0)"
    assert translate_reason("GW-4.1", noted, "de") == (
        "P1 führt nicht in Abschnitt B: 2 gegen 3 (P3, ohne Karte dort, zählt als 0)"
    )
    assert translate_reason("GW-4.1", reason, "en") == reason
    assert translate_reason("GW-4.1", "a sentence no template has", "de") == (
        "a sentence no template has"
    )
    long = "the game is at seq 5, not 9: the view was out of date"
    assert translate_reason("SERVER-3", long, "nl").endswith("het beeld was verouderd")
