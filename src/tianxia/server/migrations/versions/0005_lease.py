"""The lease of the one server process that writes to the database.

Revision ID: 0005
Revises: 0004
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"


def upgrade() -> None:
    op.create_table(
        "lease",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("holder", sa.String(200), nullable=False),
        sa.Column("heartbeat", sa.Float, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("lease")
