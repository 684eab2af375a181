"""House rules changed mid-evening (RULES.md §8): ``sessions.opening_house_rules``, where a replay starts.

Null means "the same as ``house_rules``" (every older session, and any whose rules never changed), so
nothing is copied.
"""
import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("sessions") as batch:
        batch.add_column(sa.Column("opening_house_rules", sa.JSON(), nullable=True))


def downgrade() -> None:
    # Before 0007 an evening has one set of house rules: one whose rules changed mid-evening goes back to
    # those it started with, and its changes go (an older schema has no entries of that kind). Its cached
    # state and totals are then those of the changed evening until it is next replayed.
    op.execute("UPDATE sessions SET house_rules = opening_house_rules WHERE opening_house_rules IS NOT NULL")
    op.execute("DELETE FROM entries WHERE kind = 'rules'")
    with op.batch_alter_table("sessions") as batch:
        batch.drop_column("opening_house_rules")
