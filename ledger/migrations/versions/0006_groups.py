"""Groups (牌友會): a roster, the group's evenings and their figures, payments, seasons, the group's audit
(``ledger.group_store``). Existing evenings belong to no group.
"""
import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def _id(name, target, *, nullable=False, ondelete="CASCADE"):
    return [sa.Column(name, sa.String(length=64), nullable=nullable),
            sa.ForeignKeyConstraint([name], [target], ondelete=ondelete)]


def upgrade() -> None:
    op.create_table(
        "groups",
        sa.Column("id", sa.String(length=64), nullable=False),
        sa.Column("name", sa.String(length=200), nullable=False),
        sa.Column("defaults", sa.JSON(), nullable=False),
        sa.Column("admin_token_hash", sa.String(length=64), nullable=False),
        sa.Column("member_token_hash", sa.String(length=64), nullable=False),
        sa.Column("read_token_hash", sa.String(length=64), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_table(
        "group_members",
        sa.Column("id", sa.String(length=64), nullable=False),
        *_id("group_id", "groups.id"),
        sa.Column("name", sa.String(length=200), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("group_id", "name", name="uq_group_members_group_name"),
    )
    op.create_table(
        "member_aliases",
        sa.Column("id", sa.Integer(), nullable=False),
        *_id("group_id", "groups.id"),
        *_id("member_id", "group_members.id"),
        sa.Column("alias", sa.String(length=200), nullable=False),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("group_id", "alias", name="uq_member_aliases_group_alias"),
    )
    op.create_index("ix_member_aliases_member_id", "member_aliases", ["member_id"])
    op.create_table(
        "group_evenings",
        *_id("session_id", "sessions.id"),
        *_id("group_id", "groups.id"),
        sa.Column("day", sa.Date(), nullable=False),
        sa.PrimaryKeyConstraint("session_id"),
    )
    op.create_index("ix_group_evenings_group_id", "group_evenings", ["group_id"])
    op.create_table(
        "evening_players",
        *_id("session_id", "group_evenings.session_id"),
        sa.Column("player", sa.String(length=200), nullable=False),
        *_id("member_id", "group_members.id"),
        sa.PrimaryKeyConstraint("session_id", "player"),
    )
    op.create_index("ix_evening_players_member_id", "evening_players", ["member_id"])
    op.create_table(
        "evening_figures",
        *_id("session_id", "group_evenings.session_id"),
        *_id("member_id", "group_members.id"),
        sa.Column("figures", sa.JSON(), nullable=False),
        sa.PrimaryKeyConstraint("session_id", "member_id"),
    )
    op.create_index("ix_evening_figures_member_id", "evening_figures", ["member_id"])
    op.create_table(
        "group_payments",
        sa.Column("id", sa.Integer(), nullable=False),
        *_id("group_id", "groups.id"),
        *_id("from_member", "group_members.id"),
        *_id("to_member", "group_members.id"),
        sa.Column("amount", sa.Integer(), nullable=False),
        sa.Column("note", sa.String(length=200), nullable=False),
        *_id("session_id", "sessions.id", nullable=True, ondelete="SET NULL"),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("void", sa.Boolean(), nullable=False),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index("ix_group_payments_group_id", "group_payments", ["group_id"])
    op.create_table(
        "group_seasons",
        sa.Column("id", sa.Integer(), nullable=False),
        *_id("group_id", "groups.id"),
        sa.Column("name", sa.String(length=200), nullable=False),
        sa.Column("first_day", sa.Date(), nullable=False),
        sa.Column("last_day", sa.Date(), nullable=False),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index("ix_group_seasons_group_id", "group_seasons", ["group_id"])
    op.create_table(
        "group_audits",
        sa.Column("id", sa.Integer(), nullable=False),
        *_id("group_id", "groups.id"),
        sa.Column("action", sa.String(length=20), nullable=False),
        sa.Column("who", sa.String(length=100), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("before", sa.JSON(), nullable=True),
        sa.Column("after", sa.JSON(), nullable=True),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index("ix_group_audits_group_id", "group_audits", ["group_id"])


def downgrade() -> None:
    for table in ("group_audits", "group_seasons", "group_payments", "evening_figures", "evening_players",
                  "group_evenings", "member_aliases", "group_members", "groups"):
        op.drop_table(table)
