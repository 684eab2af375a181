"""A group's and a competition's audit trails in one table, ``audit_lines`` (issue 42, item 5).

``group_audits`` and ``competition_audits`` had the same columns and meaning; their rows move, each
trail in its order, to ``audit_lines``, which names the group or the competition (exactly one: a
check). The downgrade moves them back.

Revision ID: 0018
Revises: 0017
Create Date: 2026-12-07
"""
import sqlalchemy as sa
from alembic import op

revision = "0018"
down_revision = "0017"
branch_labels = None
depends_on = None

COLUMNS = ("action", "who", "at", "before", "after")
OLD = {"group_id": ("group_audits", "groups.id"), "competition_id": ("competition_audits", "competitions.id")}
ONE_OWNER = "(group_id IS NULL) <> (competition_id IS NULL)"  # ledger.group_store.ONE_OWNER


def _owner(name: str, target: str, nullable: bool) -> list:
    return [sa.Column(name, sa.String(length=64), nullable=nullable),
            sa.ForeignKeyConstraint([name], [target], ondelete="CASCADE")]


def _lines() -> list:
    return [sa.Column("action", sa.String(length=20), nullable=False),
            sa.Column("who", sa.String(length=100), nullable=False),
            sa.Column("at", sa.DateTime(timezone=True), nullable=False),
            sa.Column("before", sa.JSON(none_as_null=True), nullable=True),
            sa.Column("after", sa.JSON(none_as_null=True), nullable=True)]


def _move(source: str, target: str, owner: str) -> None:
    """Copy the rows of ``source`` that ``owner`` names into ``target``, in the order of their ids."""
    columns = (owner, *COLUMNS)
    old = sa.table(source, sa.column("id"), *(sa.column(name) for name in columns))
    new = sa.table(target, *(sa.column(name) for name in columns))
    query = sa.select(*(old.c[name] for name in columns)).where(old.c[owner].isnot(None)).order_by(old.c.id)
    op.execute(new.insert().from_select(columns, query))


def upgrade() -> None:
    op.create_table("audit_lines", sa.Column("id", sa.Integer(), nullable=False),
                    *_owner("group_id", "groups.id", True), *_owner("competition_id", "competitions.id", True),
                    *_lines(), sa.PrimaryKeyConstraint("id"),
                    sa.CheckConstraint(ONE_OWNER, name="ck_audit_lines_one_owner"))
    for owner, (table, _) in OLD.items():
        op.create_index(f"ix_audit_lines_{owner}", "audit_lines", [owner])
        _move(table, "audit_lines", owner)
        op.drop_index(f"ix_{table}_{owner}", table_name=table)
        op.drop_table(table)


def downgrade() -> None:
    for owner, (table, target) in OLD.items():
        op.create_table(table, sa.Column("id", sa.Integer(), nullable=False), *_owner(owner, target, False),
                        *_lines(), sa.PrimaryKeyConstraint("id"))
        op.create_index(f"ix_{table}_{owner}", table, [owner])
        _move("audit_lines", table, owner)
    op.drop_table("audit_lines")
