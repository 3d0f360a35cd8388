"""The rules pages as a player reads them.

The numbered rules documents (`docs/rules/<game>.md`) are written for developers too:
each rule names the tests that cover it, and sections describe the notation, the
observation and the hooks for bots. The served page keeps the rules, their rulebook
quotations and the rulings, and leaves out what only a developer reads: the tests named,
the sections on the engine's interfaces, and any code name or file path left in a
sentence (a sentence that is about one is dropped with it).
"""

from __future__ import annotations

import re

# What a player must never read: test names, source paths, the engine's own names.
DEVELOPERS_WORDS = re.compile(
    r"\btest_\w+|\w+\.py\b|\bsrc/|\btests/|IllegalActionError|NotationError|"
    r"current_player\(\)|\w+\(\)|\b[\w.-]+/[\w./-]+\.(?:md|txt|py|json|toml|csv)\b"
)
_CODE = re.compile(r"<code>([^<]*)</code>")
# "Tests: `test_a`, `test_b` and `test_c`." in any of the documents' languages.
_TESTS = re.compile(
    r"(?:Tests?|Getest|Geprüft)\s*:\s*(?:(?:<code>[^<]*</code>|\([^()<]*\))[\s,;]*"
    r"(?:and|en|und|or|of|oder)?\s*)+\.?"
)
_SECTION = re.compile(r"(<h2\b[^>]*>(.*?)</h2>)", re.S)
# Sections about the engine's interfaces, not the game (by their headings' words).
_DEVELOPER_SECTIONS = re.compile(
    r"notation|observation|evaluation|hook|encoding|research|bots?\b|version|"
    r"notatie|observatie|beobachtung|kodierung|forschung|testen|tests",
    re.I,
)
_PARAGRAPH = re.compile(r"(<(p|li)\b[^>]*>)(.*?)(</\2>)", re.S)
_SENTENCE = re.compile(r"[^.!?;]*(?:[.!?;](?=\s|<|$)|$)")


def _drop_sections(html: str) -> str:
    parts = _SECTION.split(html)
    # parts: text, (heading, heading text, following text)*
    out = [parts[0]]
    for i in range(1, len(parts), 3):
        heading, words, body = parts[i], parts[i + 1], parts[i + 2]
        if _DEVELOPER_SECTIONS.search(re.sub(r"<[^>]+>", "", words)):
            continue
        out.extend([heading, body])
    return "".join(out)


def _clean_sentences(block: str) -> str:
    """A paragraph or item without the sentences that name code."""
    if not DEVELOPERS_WORDS.search(block):
        return block
    # Code spans are masked while the block is cut into sentences: a dot in a path or a
    # name is no sentence's end.
    codes: list[str] = []

    def mask(m: re.Match[str]) -> str:
        codes.append(m.group(0))
        return f"\x00{len(codes) - 1}\x00"

    def unmask(text: str) -> str:
        return re.sub("\x00(\\d+)\x00", lambda m: codes[int(m.group(1))], text)

    masked = _CODE.sub(mask, block)
    kept = []
    for sentence in _SENTENCE.findall(masked):
        whole = unmask(sentence)
        if DEVELOPERS_WORDS.search(re.sub(r"<[^>]+>", "", whole)) and "<strong>" not in whole:
            continue
        kept.append(whole)
    # A sentence that carries the rule's number and name keeps its text but loses its
    # code names.
    return _CODE.sub(
        lambda m: "" if DEVELOPERS_WORDS.search(m.group(1)) else m.group(0), "".join(kept)
    )


def for_players(html: str) -> str:
    """The rendered rules document without what only a developer reads."""
    html = _drop_sections(html)
    html = _TESTS.sub("", html)
    html = _PARAGRAPH.sub(lambda m: m.group(1) + _clean_sentences(m.group(3)) + m.group(4), html)
    # Each rule is a place to link to (a hint's "rule CH-3.2", the table's refusals).
    html = re.sub(
        r"<(li|p)><strong>([A-Z]{2}-\d+(?:\.\d+)?)\b",
        lambda m: f'<{m.group(1)} id="{m.group(2)}"><strong>{m.group(2)}',
        html,
    )
    html = re.sub(
        r"(<h2\b[^>]*>)([A-Z]{2}-\d+)\b",
        lambda m: f'{m.group(1)}<span id="{m.group(2)}"></span>{m.group(2)}',
        html,
    )
    # Paragraphs left empty.
    return re.sub(r"<p>\s*</p>", "", html)
