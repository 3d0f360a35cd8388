"""Every lesson checked against the engine: its position builds, the moves it asks for are
legal, what it says they change is what the engine finds, and another legal move is
answered with the hint, which names a rule of the title."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tianxia.core import IllegalActionError
from tianxia.web import lessons

RULES = Path(__file__).parents[2] / "docs" / "rules"
ALL = [(lesson.game_name, lesson) for g in lessons.titles() for lesson in lessons.lessons(g)]


def _ids() -> list[str]:
    return [f"{g}/{lesson.id}" for g, lesson in ALL]


def rule_ids(game: str) -> set[str]:
    return set(re.findall(r"\*\*([A-Z]{2}-\d+(?:\.\d+)?)[ .*]", (RULES / f"{game}.md").read_text()))


def test_every_title_with_lessons_has_several() -> None:
    assert "china" in lessons.titles()
    for g in lessons.titles():
        assert len(lessons.lessons(g)) >= 3, g


@pytest.mark.parametrize(("game", "lesson"), ALL, ids=_ids())
def test_lesson_names_rules_of_its_title(game: str, lesson: lessons.Lesson) -> None:
    known = rule_ids(game) | {re.sub(r"\.\d+$", "", r) for r in rule_ids(game)}
    assert known, game
    for rule in lesson.rules:
        assert rule in known, f"{lesson.id}: {rule} is not a rule of {game}"


@pytest.mark.parametrize(("game", "lesson"), ALL, ids=_ids())
def test_lesson_is_played_as_it_says(game: str, lesson: lessons.Lesson) -> None:
    state = lesson.start()
    assert not state.is_terminal() and 0 <= lesson.seat < state.game.players
    # Every way of playing the steps (a step may leave the field open) ends in the facts
    # the lesson states, and each step has a legal move.
    frontier: list[list[str]] = [[]]
    for step in lesson.expected:
        grown = []
        for played in frontier:
            s = lessons.answer(lesson, played, None).state
            moves = lessons.expected_now(lesson, s, played)
            assert moves, f"{lesson.id}: no legal move for {step!r} after {played}"
            for move in moves:
                a = lessons.answer(lesson, played, move)
                assert a.outcome in ("step", "done")
                grown.append(a.played)
        frontier = grown
    for played in frontier:
        a = lessons.answer(lesson, played, None)
        assert a.outcome == "done"
        facts = lesson.facts(a.state)
        assert facts == dict(lesson.after), lesson.id
    # The facts are not already true before the move: the lesson's move changes them.
    assert lesson.facts(lesson.start()) != dict(lesson.after)


@pytest.mark.parametrize(("game", "lesson"), ALL, ids=_ids())
def test_another_legal_move_gets_the_hint(game: str, lesson: lessons.Lesson) -> None:
    state = lesson.start()
    legal = [str(a) for a in state.legal_actions()]
    others = [a for a in legal if not lessons.matches(lesson.expected[0], a)]
    assert others, f"{lesson.id}: no other legal move to answer with the hint"
    assert lesson.wrong is not None and lesson.wrong in others, lesson.id
    a = lessons.answer(lesson, [], lesson.wrong)
    assert a.outcome == "hint" and a.played == [] and a.state == state
    for lang in lessons.TEXT_LANGS:
        assert lesson.text("hint", lang).strip()


@pytest.mark.parametrize(("game", "lesson"), ALL, ids=_ids())
def test_texts_in_every_language(game: str, lesson: lessons.Lesson) -> None:
    for what in lessons.TEXTS:
        en = lesson.text(what, "en")
        for lang in ("nl", "de"):
            assert lesson.text(what, lang) != en, f"{lesson.id}: {what} not translated to {lang}"


def test_an_illegal_move_is_refused_by_the_engine_and_changes_nothing() -> None:
    lesson = lessons.lessons("china")[0]
    with pytest.raises(IllegalActionError) as err:
        lessons.answer(lesson, [], "house Wei.1 joker red")
    assert err.value.rule.startswith("CH-")


def test_moves_that_are_not_the_lessons_are_refused() -> None:
    lesson = lessons.lessons("china")[0]
    with pytest.raises(lessons.LessonError):
        lessons.answer(lesson, ["house Chu.1"], None)
    with pytest.raises(lessons.LessonError):
        lessons.answer(lesson, [*lesson.expected, "house Wei.2"], None)


def _kinds_seen(game: str, seed: int, steps: int = 400) -> set[str]:
    """The kinds of the moves open in a seeded random game of `game` and in its lessons."""
    import random

    import tianxia
    from tianxia.web.learn import move_kind

    rng = random.Random(seed)
    state = tianxia.load_game(game).new_initial_state()
    seen = set()
    for _ in range(steps):
        if state.is_terminal():
            break
        if state.current_player() < 0:
            outcomes, weights = zip(*state.chance_outcomes(), strict=True)
            state = state.apply(rng.choices(outcomes, weights)[0])
            continue
        legal = state.legal_actions()
        seen |= {move_kind(str(a)) for a in legal}
        state = state.apply(rng.choice(legal))
    for lesson in lessons.lessons(game):
        seen |= {move_kind(str(a)) for a in lesson.start().legal_actions()}
    return seen


@pytest.mark.parametrize("game", lessons.titles())
def test_every_kind_of_move_is_told_in_words_with_its_rule(game: str) -> None:
    from tianxia.web.learn import move_kinds

    kinds = {lang: move_kinds(game, lang) for lang in lessons.TEXT_LANGS}
    # A kind may link to a rule or to a whole section (`CH-7 Exchanging one card`).
    sections = re.findall(r"^## ([A-Z]{2}-\d+) ", (RULES / f"{game}.md").read_text(), re.M)
    known = rule_ids(game) | set(sections)
    for kind in _kinds_seen(game, seed=7):
        assert kind in kinds["en"], f"{game}: no words for {kind!r} moves"
        assert kinds["en"][kind]["rule"] in known, (game, kind)
        for lang in ("nl", "de"):
            assert kinds[lang][kind]["words"] != kinds["en"][kind]["words"], (game, kind, lang)
