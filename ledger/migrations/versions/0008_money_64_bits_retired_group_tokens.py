"""Money in 64 bits, and the tokens a group replaced (issue 27).

``group_payments.amount`` becomes BIGINT: a 32-bit INTEGER on PostgreSQL overflowed well inside legal
stakes, and every money figure is held to ±(2⁵³ − 1) (``ledger.payments.MONEY_MAX``). A downgrade of an
amount past 32 bits fails on PostgreSQL, the honest answer. ``retired_group_tokens`` lets a replaced
group token answer 401 "replaced", as an evening's does (0004), rather than 403.
"""
import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("group_payments") as batch:
        batch.alter_column("amount", existing_type=sa.Integer(), type_=sa.BigInteger(), existing_nullable=False)
    op.create_table(
        "retired_group_tokens",
        sa.Column("token_hash", sa.String(length=64), nullable=False),
        sa.Column("group_id", sa.String(length=64), nullable=False),
        sa.Column("retired_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["group_id"], ["groups.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("token_hash"),
    )
    op.create_index("ix_retired_group_tokens_group_id", "retired_group_tokens", ["group_id"])


def downgrade() -> None:
    op.drop_index("ix_retired_group_tokens_group_id", table_name="retired_group_tokens")
    op.drop_table("retired_group_tokens")
    with op.batch_alter_table("group_payments") as batch:
        batch.alter_column("amount", existing_type=sa.BigInteger(), type_=sa.Integer(), existing_nullable=False)
