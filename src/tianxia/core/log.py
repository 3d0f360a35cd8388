"""A state's public log kept as templates and arguments, rendered only when read.

The Emperor and the Silk Road note a sentence on almost every step, but a random playout
or a search reads none of them. Formatting them on every step (seat and card names,
numbers, each action's text) was a measurable part of a step, so a `Log` holds each new
entry as a format template and its arguments and renders the sentences the first time
anyone looks (the observation, `to_json`, equality, hashing), then keeps them.

To the rest of the engine a `Log` is the tuple of sentences it renders to: it iterates,
indexes and measures as that tuple, compares and hashes by it (a log loaded from JSON,
whose entries are sentences already, equals the one played to), and is saved as a JSON
list of those sentences, exactly what a ``tuple[str, ...]`` field was.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, overload

# An entry: a sentence, or ``(template, args)`` that renders to ``template.format(*args)``.
Entry = str | tuple[str, tuple[object, ...]]


class Log:
    """The last `limit` public sentences of a game, oldest first (an immutable value)."""

    entries: tuple[Entry, ...]
    _texts: tuple[str, ...] | None

    def __init__(self, entries: tuple[Entry, ...] = ()) -> None:
        self.entries = entries
        self._texts = None

    def add(self, limit: int, entry: Entry) -> Log:
        """This log with `entry` appended, keeping the last `limit` entries.

        An entry's arguments must be immutable values (numbers, names, actions, enums):
        they are formatted when the log is read, not now.
        """
        entries = self.entries
        if len(entries) >= limit:
            entries = entries[len(entries) - limit + 1 :]
        # A tuple concatenation: a starred tuple display compiles to a list first.
        return Log(entries + (entry,))  # noqa: RUF005

    def note(self, limit: int, template: str, args: tuple[object, ...] = ()) -> Log:
        """This log with ``template.format(*args)`` appended (formatted when read), keeping
        the last `limit` entries; without arguments `template` is the sentence itself.

        `args` is a tuple, not ``*args``: the rules' own note helpers collect theirs as
        one, and a compiled call that spreads a tuple again goes the slow, generic way."""
        return self.add(limit, (template, args) if args else template)

    @property
    def texts(self) -> tuple[str, ...]:
        """The sentences, oldest first."""
        texts = self._texts
        if texts is None:
            texts = tuple(_render(e) for e in self.entries)
            self._texts = texts
        return texts

    def __len__(self) -> int:
        return len(self.entries)

    def __iter__(self) -> Iterator[str]:
        return iter(self.texts)

    @overload
    def __getitem__(self, i: int) -> str: ...

    @overload
    def __getitem__(self, i: slice) -> tuple[str, ...]: ...

    def __getitem__(self, i: int | slice) -> str | tuple[str, ...]:
        return self.texts[i]

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Log):
            return NotImplemented
        # The same entries render the same; otherwise a loaded log (sentences) may still
        # equal a played one (templates), so the sentences decide.
        return self.entries == other.entries or self.texts == other.texts

    def __hash__(self) -> int:
        return hash(self.texts)

    def __repr__(self) -> str:
        return f"Log({self.texts!r})"

    def __reduce__(self) -> tuple[Any, ...]:
        return (Log, (self.entries,))

    @staticmethod
    def field_codec() -> tuple[Any, Any]:
        """The JSON encoder and validating decoder of a state field holding a `Log`
        (used by `tianxia.core.value`): a list of sentences, as ``tuple[str, ...]`` was."""
        return _encode, _decode


def _render(entry: Entry) -> str:
    if isinstance(entry, str):
        return entry
    template, args = entry
    return template.format(*args)


def _encode(log: Log) -> list[str]:
    return list(log.texts)


def _decode(value: object, game: object, path: str) -> Log:
    # The checks and messages of a ``tuple[str, ...]`` field, which the log replaced.
    from tianxia.core.value import codec_for

    texts: tuple[str, ...] = codec_for(tuple[str, ...])[1](value, game, path)
    return Log(texts)


EMPTY = Log()
