"""The public summary of a game kept in its row (seq, whose turn, public scores), so the
lobby is read from the database without loading any game; an index on seat players.

Revision ID: 0004
Revises: 0003
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"


def upgrade() -> None:
    with op.batch_alter_table("games") as batch:
        # Null for a game stored before: it is filled in when the game is next loaded.
        batch.add_column(sa.Column("seq", sa.Integer, nullable=True))
        batch.add_column(sa.Column("to_move", sa.Integer, nullable=True))
        batch.add_column(sa.Column("scores", sa.Text, nullable=True))
    op.create_index("ix_seats_player", "seats", ["player"])


def downgrade() -> None:
    op.drop_index("ix_seats_player", "seats")
    with op.batch_alter_table("games") as batch:
        batch.drop_column("scores")
        batch.drop_column("to_move")
        batch.drop_column("seq")
