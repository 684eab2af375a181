"""Remember who entered each hand or seat change: ``entries.client`` (the client's label).

Rows recorded before this revision get ``unknown``.
"""
import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("entries") as batch:
        batch.add_column(sa.Column("client", sa.String(length=100), nullable=False, server_default="unknown"))


def downgrade() -> None:
    with op.batch_alter_table("entries") as batch:
        batch.drop_column("client")
