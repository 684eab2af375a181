"""House rules changed mid-evening (RULES.md §8, ``POST …/house_rules``): ``sessions.opening_house_rules``.

A table may change its house rules from the next hand on: an entry of the
evening (``entries.kind = "rules"``, which fits the 10 characters the column
has), whose hands before keep the rules they were played under. The session's
``house_rules`` stay the rules in force now (what the next hand is scored
under and what the API shows); a replay starts from the rules the evening
was started with, kept here. Null means "the same as ``house_rules``": every
session made before this revision, and every one whose rules never changed
mid-evening, so nothing is copied.

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-02
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
