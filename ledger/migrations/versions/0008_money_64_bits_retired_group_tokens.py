"""Money in 64 bits, and the tokens a group replaced (issue 27).

``group_payments.amount`` becomes BIGINT.

It was an INTEGER, 32 bits on PostgreSQL: a payment of 2,147,483,648 was a
500 ("integer out of range"), though legal stakes move far more in an
evening (one maximal hand moved 3.9 × 10⁹; issue 27). SQLite's INTEGER is
64 bits already; the batch rebuild only records the new type. It is the
only money column: totals, payments of hands and results are JSON, whose
integers are Python's. Every money figure is held to ±(2⁵³ − 1) by the
ledger (``ledger.payments.MONEY_MAX``), which BIGINT holds with room.

Downgrading refuses nothing: an amount past 32 bits would fail the ALTER on
PostgreSQL, which is the honest answer (there is no smaller type to keep it in).

``retired_group_tokens``: the hashes of the tokens a group replaced (``POST
/api/groups/<id>/tokens``), so that one of them on an evening of the group
answers 401 "replaced, ask for the new link", as an evening's own replaced
token does (``retired_tokens``, revision 0004), rather than 403 "does not open".

Revision ID: 0008
Revises: 0007
Create Date: 2026-12-10
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
