"""Members' and aliases' name keys, and payments indexed by member (issue 27: a group's writes stay cheap).

``name_key`` (``ledger.names.name_key``) indexed with the group, so a new name finds its look-alikes by
one lookup rather than reading every name under the write lock; existing rows computed here in Python
(no database folds as NFKC_Casefold does). Payments indexed by member for the money bound.
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
        rows_table = sa.table(table, sa.column(key), sa.column(name), sa.column("name_key"))
        rows = connection.execute(sa.select(rows_table.c[key], rows_table.c[name])).all()
        if rows:
            connection.execute(rows_table.update().where(rows_table.c[key] == sa.bindparam("row"))
                               .values(name_key=sa.bindparam("new_key")),
                               [{"new_key": name_key(text), "row": row} for row, text in rows])
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
