"""Many phones at one table: read-only tokens, closing the evening, the changes of a session, retired tokens."""
import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("sessions") as batch:
        batch.add_column(sa.Column("read_token_hash", sa.String(length=64), nullable=True))
        batch.add_column(sa.Column("closed_at", sa.DateTime(timezone=True), nullable=True))
    with op.batch_alter_table("audits") as batch:
        batch.alter_column("entry_id", existing_type=sa.Integer(), nullable=True)
        batch.alter_column("number", existing_type=sa.Integer(), nullable=True)
        batch.alter_column("before", existing_type=sa.JSON(), nullable=True)
    op.create_table(
        "changes",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("session_id", sa.String(length=64), nullable=False),
        sa.Column("revision", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(length=10), nullable=False),
        sa.Column("entry_id", sa.Integer(), nullable=True),
        sa.Column("data", sa.JSON(), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["session_id"], ["sessions.id"], ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["entry_id"], ["entries.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("session_id", "revision", name="uq_changes_session_revision"),
    )
    op.create_table(
        "retired_tokens",
        sa.Column("token_hash", sa.String(length=64), nullable=False),
        sa.Column("session_id", sa.String(length=64), nullable=False),
        sa.Column("retired_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["session_id"], ["sessions.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("token_hash"),
    )
    op.create_index("ix_retired_tokens_session_id", "retired_tokens", ["session_id"])


def downgrade() -> None:
    op.drop_index("ix_retired_tokens_session_id", table_name="retired_tokens")
    op.drop_table("retired_tokens")
    op.drop_table("changes")
    op.execute("DELETE FROM audits WHERE entry_id IS NULL")
    with op.batch_alter_table("audits") as batch:
        batch.alter_column("before", existing_type=sa.JSON(), nullable=False)
        batch.alter_column("number", existing_type=sa.Integer(), nullable=False)
        batch.alter_column("entry_id", existing_type=sa.Integer(), nullable=False)
    with op.batch_alter_table("sessions") as batch:
        batch.drop_column("closed_at")
        batch.drop_column("read_token_hash")
