"""Accounts, their sessions and mailed keys, the mail outbox, seats that belong to an
account or are kept for one, and clocks that are time banks.

Ratings kept until now were keyed by an identity the client chose, which anyone could
send as anyone's: they are dropped (bots' are kept). The games, their seats and their
logs are all kept; a game's old per-move clock becomes a bank of the same size that
each move fills up again by as much, with a stand-in bot when it runs out, as before.

Revision ID: 0007
Revises: 0006
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"


def upgrade() -> None:
    op.create_table(
        "accounts",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("name", sa.String(40), nullable=False),
        sa.Column("name_key", sa.String(40), nullable=False, unique=True),
        sa.Column("password_hash", sa.String(200), nullable=False),
        sa.Column("email", sa.String(254), nullable=True),
        sa.Column("email_verified", sa.Boolean, nullable=False, default=False),
        sa.Column("settings", sa.Text, nullable=False, server_default="{}"),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("active", sa.Float, nullable=False),
    )
    op.create_table(
        "sessions",
        sa.Column("id_hash", sa.String(64), primary_key=True),
        sa.Column("account_id", sa.String(32), sa.ForeignKey("accounts.id"), nullable=False),
        sa.Column("csrf", sa.String(64), nullable=False),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("seen", sa.Float, nullable=False),
        sa.Column("expires", sa.Float, nullable=False),
    )
    op.create_index("ix_sessions_account", "sessions", ["account_id"])
    op.create_table(
        "tokens",
        sa.Column("hash", sa.String(64), primary_key=True),
        sa.Column("account_id", sa.String(32), sa.ForeignKey("accounts.id"), nullable=False),
        sa.Column("purpose", sa.String(16), nullable=False),
        sa.Column("email", sa.String(254), nullable=True),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("expires", sa.Float, nullable=True),
        sa.Column("used", sa.Float, nullable=True),
    )
    op.create_index("ix_tokens_account", "tokens", ["account_id"])
    op.create_table(
        "outbox",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("key", sa.String(160), nullable=False, unique=True),
        sa.Column("account_id", sa.String(32), nullable=True),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("game_id", sa.String(32), nullable=True),
        sa.Column("address", sa.String(254), nullable=True),
        sa.Column("subject", sa.Text, nullable=True),
        sa.Column("body", sa.Text, nullable=True),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("send_after", sa.Float, nullable=False),
        sa.Column("attempts", sa.Integer, nullable=False, server_default="0"),
        sa.Column("claimed", sa.String(200), nullable=True),
        sa.Column("claimed_until", sa.Float, nullable=True),
        sa.Column("sent", sa.Float, nullable=True),
        sa.Column("dropped", sa.String(32), nullable=True),
        sa.Column("error", sa.Text, nullable=True),
    )
    op.create_index("ix_outbox_due", "outbox", ["sent", "send_after"])
    op.create_index("ix_outbox_account", "outbox", ["account_id"])
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("increment", sa.Float, nullable=True))
        batch.add_column(sa.Column("clock_policy", sa.String(8), nullable=True))
        batch.add_column(sa.Column("vacation", sa.Float, nullable=True))
        batch.add_column(sa.Column("turn_since", sa.Float, nullable=True))
    with op.batch_alter_table("seats") as batch:
        batch.add_column(sa.Column("account_id", sa.String(32), nullable=True))
        batch.add_column(sa.Column("invited", sa.String(32), nullable=True))
        batch.add_column(sa.Column("bank", sa.Float, nullable=True))
        batch.add_column(sa.Column("vacation_left", sa.Float, nullable=True))
        batch.add_column(sa.Column("stand_in_since", sa.Float, nullable=True))
        batch.create_index("ix_seats_account", ["account_id"])
        batch.create_index("ix_seats_invited", ["invited"])
    games = sa.table(
        "games",
        sa.column("clock", sa.Float),
        sa.column("increment", sa.Float),
        sa.column("clock_policy", sa.String),
    )
    # The old clock gave a player `clock` seconds for every decision, then a stand-in:
    # a bank of that size refilled by as much per move keeps every running game at
    # least as patient as it was.
    op.execute(
        games.update()
        .where(games.c.clock.is_not(None))
        .values(increment=games.c.clock, clock_policy="bot")
    )
    ratings = sa.table("ratings", sa.column("player", sa.String))
    op.execute(ratings.delete().where(ratings.c.player.not_like("bot:%")))


def downgrade() -> None:
    with op.batch_alter_table("seats") as batch:
        batch.drop_index("ix_seats_invited")
        batch.drop_index("ix_seats_account")
        for name in ("stand_in_since", "vacation_left", "bank", "invited", "account_id"):
            batch.drop_column(name)
    with op.batch_alter_table("games") as batch:
        for name in ("turn_since", "vacation", "clock_policy", "increment"):
            batch.drop_column(name)
    op.drop_index("ix_outbox_account", "outbox")
    op.drop_index("ix_outbox_due", "outbox")
    op.drop_table("outbox")
    op.drop_index("ix_tokens_account", "tokens")
    op.drop_table("tokens")
    op.drop_index("ix_sessions_account", "sessions")
    op.drop_table("sessions")
    op.drop_table("accounts")
