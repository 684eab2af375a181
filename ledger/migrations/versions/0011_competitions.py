"""Competitions (比賽, issue 31): the competition, its entrants, rounds, tables and audit.

Each table of a round is an ordinary evening (``sessions``); ``competition_tables`` says which round
and table it is and who sits where. See ``ledger.competition_store``.
"""
import sqlalchemy as sa
from alembic import op

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None


def _id(name, target, *, nullable=False, ondelete="CASCADE"):
    return [sa.Column(name, sa.String(length=64), nullable=nullable),
            sa.ForeignKeyConstraint([name], [target], ondelete=ondelete)]


def upgrade() -> None:
    op.create_table(
        "competitions",
        sa.Column("id", sa.String(length=64), nullable=False),
        sa.Column("name", sa.String(length=200), nullable=False),
        sa.Column("ruleset", sa.String(length=20), nullable=False),
        sa.Column("stakes", sa.JSON(), nullable=False),
        sa.Column("options", sa.JSON(), nullable=False),
        sa.Column("house_rules", sa.JSON(none_as_null=True), nullable=True),
        sa.Column("settings", sa.JSON(), nullable=False),
        *_id("group_id", "groups.id", nullable=True, ondelete="SET NULL"),
        sa.Column("organizer_token_hash", sa.String(length=64), nullable=False),
        sa.Column("read_token_hash", sa.String(length=64), nullable=False),
        sa.Column("revision", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index("ix_competitions_group_id", "competitions", ["group_id"])
    op.create_table(
        "competition_entrants",
        sa.Column("id", sa.Integer(), nullable=False),
        *_id("competition_id", "competitions.id"),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=200), nullable=False),
        *_id("member_id", "group_members.id", nullable=True, ondelete="SET NULL"),
        sa.Column("substitute", sa.Boolean(), nullable=False),
        sa.Column("first_round", sa.Integer(), nullable=False),
        sa.Column("withdrawn_from", sa.Integer(), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("competition_id", "number", name="uq_competition_entrants_number"),
        sa.UniqueConstraint("competition_id", "name", name="uq_competition_entrants_name"),
    )
    op.create_index("ix_competition_entrants_competition_id", "competition_entrants", ["competition_id"])
    op.create_table(
        "competition_rounds",
        sa.Column("id", sa.Integer(), nullable=False),
        *_id("competition_id", "competitions.id"),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("seed", sa.BigInteger(), nullable=False),
        sa.Column("sitting_out", sa.JSON(), nullable=False),
        sa.Column("cut", sa.JSON(), nullable=False),
        sa.Column("drawn_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("started_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("ends_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("ended_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("grace_until", sa.DateTime(timezone=True), nullable=True),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("competition_id", "number", name="uq_competition_rounds_number"),
    )
    op.create_index("ix_competition_rounds_competition_id", "competition_rounds", ["competition_id"])
    op.create_table(
        "competition_tables",
        *_id("session_id", "sessions.id"),
        *_id("competition_id", "competitions.id"),
        sa.Column("round", sa.Integer(), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("seats", sa.JSON(), nullable=False),
        sa.PrimaryKeyConstraint("session_id"),
        sa.UniqueConstraint("competition_id", "round", "number", name="uq_competition_tables_number"),
    )
    op.create_index("ix_competition_tables_competition_id", "competition_tables", ["competition_id"])
    op.create_table(
        "competition_audits",
        sa.Column("id", sa.Integer(), nullable=False),
        *_id("competition_id", "competitions.id"),
        sa.Column("action", sa.String(length=20), nullable=False),
        sa.Column("who", sa.String(length=100), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("before", sa.JSON(none_as_null=True), nullable=True),
        sa.Column("after", sa.JSON(none_as_null=True), nullable=True),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index("ix_competition_audits_competition_id", "competition_audits", ["competition_id"])


def downgrade() -> None:
    for table in ("competition_audits", "competition_tables", "competition_rounds", "competition_entrants",
                  "competitions"):
        op.drop_table(table)
