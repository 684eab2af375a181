"""House rules (RULES.md §8): ``sessions.house_rules``, and audit lines that belong to no hand.

An evening keeps the house rules it was started with, in full. Changing them
once hands are recorded is a correction of the whole evening: its audit line
(``action = "house_rules"``, longer than the 10 characters ``action`` had)
names no entry and no hand number, so both columns may be null from here on. Sessions recorded before this revision have
no house rules (null, read as none).

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-02
"""
import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("sessions") as batch:
        batch.add_column(sa.Column("house_rules", sa.JSON(), nullable=True))
    with op.batch_alter_table("audits") as batch:
        batch.alter_column("entry_id", existing_type=sa.Integer(), nullable=True)
        batch.alter_column("number", existing_type=sa.Integer(), nullable=True)
        batch.alter_column("action", existing_type=sa.String(length=10), type_=sa.String(length=20),
                           existing_nullable=False)


def downgrade() -> None:
    op.execute("DELETE FROM audits WHERE entry_id IS NULL")
    with op.batch_alter_table("audits") as batch:
        batch.alter_column("action", existing_type=sa.String(length=20), type_=sa.String(length=10),
                           existing_nullable=False)
        batch.alter_column("number", existing_type=sa.Integer(), nullable=False)
        batch.alter_column("entry_id", existing_type=sa.Integer(), nullable=False)
    with op.batch_alter_table("sessions") as batch:
        batch.drop_column("house_rules")
