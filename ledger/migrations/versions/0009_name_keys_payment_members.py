"""Members' and aliases' name keys, and payments indexed by member (issue 27: a group's writes stayed cheap).

``group_members.name_key`` and ``member_aliases.name_key``: each name's
``ledger.names.name_key`` (NFKC, case folded, white space left out), indexed
with the group, so that a new name or alias finds the names it looks like by
one lookup; the look-alike check read every name and alias of the group
under the write lock, 51,000 of them for a group of 1,000 members of 50
aliases. Rows already there get theirs computed here, in Python (no
database folds as Unicode's NFKC_Casefold does); from now on the ORM keeps
them (``ledger.group_store._key_member``).

``group_payments.from_member`` and ``to_member`` are indexed: the money bound
adds up the payments of the members a change touches
(``group_store.payments_by_member``) instead of reading all of the group's.

Revision ID: 0009
Revises: 0008
Create Date: 2026-12-12
"""
import sqlalchemy as sa
from alembic import op

from ledger.names import name_key

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None

KEYED = (("group_members", "id", "name"), ("member_aliases", "id", "alias"))


def upgrade() -> None:
    connection = op.get_bind()
    for table, key, name in KEYED:
        with op.batch_alter_table(table) as batch:
            batch.add_column(sa.Column("name_key", sa.String(), nullable=False, server_default=""))
        rows = connection.execute(sa.text(f"SELECT {key}, {name} FROM {table}")).all()
        if rows:
            connection.execute(sa.text(f"UPDATE {table} SET name_key = :name_key WHERE {key} = :row"),
                               [{"name_key": name_key(text), "row": row} for row, text in rows])
        with op.batch_alter_table(table) as batch:
            batch.alter_column("name_key", server_default=None, existing_type=sa.String(), existing_nullable=False)
        op.create_index(f"ix_{table}_group_id_name_key", table, ["group_id", "name_key"])
    op.create_index("ix_group_payments_from_member", "group_payments", ["from_member"])
    op.create_index("ix_group_payments_to_member", "group_payments", ["to_member"])


def downgrade() -> None:
    op.drop_index("ix_group_payments_to_member", table_name="group_payments")
    op.drop_index("ix_group_payments_from_member", table_name="group_payments")
    for table, _, _ in KEYED:
        op.drop_index(f"ix_{table}_group_id_name_key", table_name=table)
        with op.batch_alter_table(table) as batch:
            batch.drop_column("name_key")
