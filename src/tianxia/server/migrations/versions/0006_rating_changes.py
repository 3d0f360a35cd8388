"""Each rated seat's rating before and after a finished game, kept with the game's
result so its end-of-game summary shows them after a restart too.

Revision ID: 0006
Revises: 0005
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"


def upgrade() -> None:
    with op.batch_alter_table("games") as batch:
        # JSON, a list of {seat, before, after}; null for a game not rated (or rated
        # before this column: its changes were not kept).
        batch.add_column(sa.Column("rating_changes", sa.Text, nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.drop_column("rating_changes")
