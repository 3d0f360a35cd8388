"""The words of the mails an account's own requests send (the address's verification, a
password's reset), in the reader's language, plain text: the link is the mail's point,
on a line of its own."""

from __future__ import annotations

from collections.abc import Callable


def N_(text: str) -> str:
    """Marks a string for extraction (as `tianxia.web.i18n.N_`, which needs Babel: the
    server sends these mails without it, in English)."""
    return text


SUBJECTS = {
    "verify": N_("Tianxia: confirm your e-mail address"),
    "reset": N_("Tianxia: choose a new password"),
}
ASKS = {
    "verify": N_("To confirm that this address is yours, open this link within 7 days:"),
    "reset": N_(
        "Someone (you, we hope) asked to choose a new password for your Tianxia account. "
        "Open this link within an hour to choose one:"
    ),
}
UNASKED = {
    "verify": N_("If you did not give this address to Tianxia, ignore this mail."),
    "reset": N_("If you did not ask for this, ignore this mail: your password stays as it is."),
}


def account_mail(kind: str, lang: str, name: str, link: str) -> tuple[str, str]:
    """The subject and body of a `verify` or `reset` mail to `name`, in `lang`."""
    t: Callable[[str], str]
    try:
        from tianxia.web.i18n import gettext_for
    except ImportError:  # no Babel (extra `server`): English
        t = N_
    else:
        t = gettext_for(lang)
    lines = [
        t(N_("Hello {name},")).format(name=name),
        "",
        t(ASKS[kind]),
        "",
        link,
        "",
        t(UNASKED[kind]),
    ]
    return t(SUBJECTS[kind]), "\n".join(lines) + "\n"
