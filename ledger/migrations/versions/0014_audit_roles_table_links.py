"""Who changed a competition's table, and a table's links made anew (issue 38).

``audits.role``: in what part a change at a competition's table was made, ``organizer`` or ``table N of round
R`` (the X-Client label in ``who`` is only what the phone says it is); null at an evening of no competition
and for the lines written before. ``competition_tables.links``: how many times the organiser made the table
new links; its tokens are derived from the organiser's with this count (``api.competitions.access``), so
that the organiser is shown the links that open it now. Existing tables: 0, their tokens as before.

Revision ID: 0014
Revises: 0013
Create Date: 2026-12-07
"""
import sqlalchemy as sa
from alembic import op

revision = "0014"
down_revision = "0013"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("audits") as table:
        table.add_column(sa.Column("role", sa.String(length=40), nullable=True))
    with op.batch_alter_table("competition_tables") as table:
        table.add_column(sa.Column("links", sa.Integer(), nullable=False, server_default="0"))


def downgrade() -> None:
    with op.batch_alter_table("competition_tables") as table:
        table.drop_column("links")
    with op.batch_alter_table("audits") as table:
        table.drop_column("role")
