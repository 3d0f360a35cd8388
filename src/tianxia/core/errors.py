"""The engine's two refusals: text that is no action, and an action not legal now."""

from __future__ import annotations

from typing import Any


def shown(value: object) -> str:
    """`repr(value)` cut to a length fit for an error message (the value may be anything)."""
    try:
        text = repr(value)
    except Exception:
        # A value whose repr fails (an int past Python's digit limit, a broken __repr__)
        # still gets its refusal.
        return f"<{type(value).__name__}>"
    return text if len(text) <= 60 else text[:57] + "..."


class NotationError(ValueError):
    """The text does not name any action of this game."""

    def __init__(self, text: str, reason: str) -> None:
        self.text = text
        self.reason = reason
        super().__init__(f"cannot read {shown(text)}: {reason}")


class IllegalActionError(ValueError):
    """A well-formed action that the rules forbid in this state.

    Attributes:
        rule: the rule ID from `docs/rules/<game>.md` (``CH-4.2``) or ``ENGINE-n``.
        reason: one sentence saying why.
        action: the refused action, when there was one.
    """

    def __init__(self, rule: str, reason: str, action: Any = None) -> None:
        self.rule = rule
        self.reason = reason
        self.action = action
        super().__init__(f"{rule}: {reason}")
