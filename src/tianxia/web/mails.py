"""The words of the mails the server sends (tianxia.server.mail), and of the page an
unsubscribe link opens, in the reader's language: plain text, every sentence through the
catalogues (`make i18n` extracts them from here)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from html import escape

from tianxia.web.i18n import N_, gettext_for, ngettext_of


@dataclass(frozen=True)
class Notice:
    """One piece of news of one game, as a mail tells it."""

    kind: str  # turn, timeout, start, end, invite
    game: str
    title: str
    url: str
    opponents: Sequence[str] = ()
    # Each seat's name and score, for the end of a game.
    result: Sequence[tuple[str, float]] | None = None
    # What the game does when a seat's time runs out: bot, skip, lose.
    policy: str = "bot"


HEADLINES = {
    "turn": N_("It is your turn in {title}."),
    "start": N_("Your game of {title} has started."),
    "end": N_("Your game of {title} has ended."),
    "invite": N_("You are invited to a game of {title}."),
}
SUBJECTS = {
    "turn": N_("Your turn in {title}"),
    "start": N_("{title} has started"),
    "end": N_("{title} has ended"),
    "invite": N_("An invitation to {title}"),
    "timeout": N_("Your time ran out in {title}"),
}
TIMEOUTS = {
    "bot": N_("Your time ran out in {title}: a bot plays your seat until you return."),
    "skip": N_("Your time ran out in {title}: your turns are skipped until you return."),
    "lose": N_("Your time ran out in {title}: the game counts it as your loss."),
}


def _score(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else f"{value:g}"


def compose(
    lang: str,
    name: str,
    notices: Sequence[Notice],
    unsubscribe: str,
    settings: str,
    digest: bool = False,
) -> tuple[str, str]:
    """A mail's subject and body: one notice, several at once, or the day's digest."""
    t = gettext_for(lang)
    tn = ngettext_of(t)

    def title_of(n: Notice) -> str:
        return t(n.title)

    if digest:
        subject = "Tianxia: " + t(N_("your daily digest"))
    elif len(notices) == 1:
        n = notices[0]
        subject = "Tianxia: " + t(SUBJECTS[n.kind]).format(title=title_of(n))
    else:
        count = len({n.game for n in notices})
        subject = "Tianxia: " + tn("news of {count} game", "news of {count} games", count).format(
            count=count
        )
    lines = [t(N_("Hello {name},")).format(name=name), ""]
    if digest:
        lines += [t(N_("What happened in your games since the last digest:")), ""]
    for n in notices:
        if n.kind == "timeout":
            lines.append(t(TIMEOUTS.get(n.policy, TIMEOUTS["bot"])).format(title=title_of(n)))
        else:
            lines.append(t(HEADLINES[n.kind]).format(title=title_of(n)))
        if n.opponents:
            lines.append(t(N_("With: {names}")).format(names=", ".join(n.opponents)))
        if n.result:
            lines.append(
                t(N_("Result: {scores}")).format(
                    scores=", ".join(f"{who} {_score(v)}" for who, v in n.result)
                )
            )
        lines.append(t(N_("To the table: {url}")).format(url=n.url))
        lines.append("")
    lines += [
        "-- ",
        t(N_("You get this mail because your account's settings ask for it: {url}")).format(
            url=settings
        ),
        t(N_("No more mail from Tianxia: {url}")).format(url=unsubscribe),
    ]
    return subject, "\n".join(lines) + "\n"


def unsubscribe_page(lang: str, stage: str, token: str) -> str:
    """The page an unsubscribe link opens: `ask` (one button: fetching the link changes
    nothing, so a mail scanner that follows it unsubscribes nobody), `done`, or
    `invalid`. `token` comes escaped for an attribute."""
    t = gettext_for(lang)
    heading = escape(t(N_("Mail from Tianxia")))
    if stage == "ask":
        question = escape(t(N_("Turn off every mail Tianxia sends you about your games?")))
        button = escape(t(N_("Turn off mail")))
        body = (
            f"<p>{question}</p>"
            f'<form method="post" action="/mail/unsubscribe">'
            f'<input type="hidden" name="token" value="{token}">'
            f'<button type="submit">{button}</button></form>'
        )
    elif stage == "done":
        done = escape(t(N_("Mail is off. You can turn it on again in your account settings.")))
        link = escape(t(N_("Account settings")))
        body = f'<p>{done}</p><p><a href="/account">{link}</a></p>'
    else:
        invalid = escape(t(N_("This link is not valid (any more).")))
        body = f"<p>{invalid}</p>"
    return (
        f'<!doctype html><html lang="{escape(lang)}"><head><meta charset="utf-8">'
        f'<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{heading}</title></head><body><main><h1>{heading}</h1>"
        f"{body}</main></body></html>"
    )
