"""House rules (RULES.md §8): ``sessions.house_rules``; audit actions and change kinds up to 20 characters
(``house_rules`` is longer than the 10 the columns had). Older sessions: null, read as none.
"""
import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("sessions") as batch:
        batch.add_column(sa.Column("house_rules", sa.JSON(), nullable=True))
    with op.batch_alter_table("audits") as batch:
        batch.alter_column("action", existing_type=sa.String(length=10), type_=sa.String(length=20),
                           existing_nullable=False)
    with op.batch_alter_table("changes") as batch:
        batch.alter_column("kind", existing_type=sa.String(length=10), type_=sa.String(length=20),
                           existing_nullable=False)


def downgrade() -> None:
    op.execute("DELETE FROM audits WHERE action = 'house_rules'")
    op.execute("DELETE FROM changes WHERE kind = 'house_rules'")
    with op.batch_alter_table("changes") as batch:
        batch.alter_column("kind", existing_type=sa.String(length=20), type_=sa.String(length=10),
                           existing_nullable=False)
    with op.batch_alter_table("audits") as batch:
        batch.alter_column("action", existing_type=sa.String(length=20), type_=sa.String(length=10),
                           existing_nullable=False)
    with op.batch_alter_table("sessions") as batch:
        batch.drop_column("house_rules")
