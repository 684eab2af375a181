"""Check-in of a competition's entrants (issue 31): whether each is checked in, and who a round found absent.

A competition with check-in (``settings.check_in``) seats only the entrants checked in; the others of the
round are kept as ``absent`` (``ledger.competition.Round``). Existing rows: nobody checked in, nobody absent
(no competition could ask for check-in before this revision).

Revision ID: 0012
Revises: 0011
Create Date: 2026-12-04
"""
import sqlalchemy as sa
from alembic import op

revision = "0012"
down_revision = "0011"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("competition_entrants") as table:
        table.add_column(sa.Column("checked_in", sa.Boolean(), nullable=False, server_default=sa.false()))
    with op.batch_alter_table("competition_rounds") as table:
        table.add_column(sa.Column("absent", sa.JSON(), nullable=False, server_default="[]"))


def downgrade() -> None:
    with op.batch_alter_table("competition_rounds") as table:
        table.drop_column("absent")
    with op.batch_alter_table("competition_entrants") as table:
        table.drop_column("checked_in")
