"""Action ids unique per seat, not per game.

One namespace per game let one seat's id answer for another's action, and a spectator's
id block a seat's. The unique constraint becomes (game, seat, client id).

Revision ID: 0002
Revises: 0001
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"


def _live_seq_index() -> None:
    op.create_index(
        "uq_actions_live_seq",
        "actions",
        ["game_id", "seq"],
        unique=True,
        sqlite_where=sa.text("undone = 0"),
        postgresql_where=sa.text("undone = false"),
    )


def upgrade() -> None:
    # SQLite rebuilds the table to drop a constraint; the partial index is dropped
    # first and made again after, so its WHERE clause is not lost in the rebuild.
    op.drop_index("uq_actions_live_seq", "actions")
    with op.batch_alter_table("actions") as batch:
        batch.drop_constraint("uq_actions_client_id", type_="unique")
        batch.create_unique_constraint(
            "uq_actions_seat_client_id", ["game_id", "seat", "client_id"]
        )
    _live_seq_index()


def downgrade() -> None:
    op.drop_index("uq_actions_live_seq", "actions")
    with op.batch_alter_table("actions") as batch:
        batch.drop_constraint("uq_actions_seat_client_id", type_="unique")
        batch.create_unique_constraint("uq_actions_client_id", ["game_id", "client_id"])
    _live_seq_index()
