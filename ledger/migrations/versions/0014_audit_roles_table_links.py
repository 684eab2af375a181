"""Who changed a competition's table (``audits.role``: the X-Client label is only what a phone says), and
how many times a table's links were made anew (its tokens derive from the organiser's with this count).
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
