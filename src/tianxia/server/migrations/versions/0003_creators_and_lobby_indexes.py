"""Who created a game and what it costs against their quota; indexes for the lobby.

Revision ID: 0003
Revises: 0002
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"


def upgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("creator", sa.String(64), nullable=True))
        batch.add_column(sa.Column("cost", sa.Integer, nullable=False, server_default="1"))
    op.create_index("ix_games_creator_status", "games", ["creator", "status"])
    op.create_index("ix_games_status_created", "games", ["status", "created"])
    op.create_index("ix_games_created", "games", ["created"])


def downgrade() -> None:
    op.drop_index("ix_games_created", "games")
    op.drop_index("ix_games_status_created", "games")
    op.drop_index("ix_games_creator_status", "games")
    with op.batch_alter_table("games") as batch:
        batch.drop_column("cost")
        batch.drop_column("creator")
