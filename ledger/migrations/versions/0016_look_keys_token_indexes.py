"""Names compared by their look as well (``look_key``, as 0009's ``name_key``), and every token hash indexed
(the write rate limit asks whether a token is a link; issue 39).
"""
import sqlalchemy as sa
from alembic import op

from ledger.names import look_key

revision = "0016"
down_revision = "0014"
branch_labels = None
depends_on = None

KEYED = (("group_members", "id", "name"), ("member_aliases", "id", "alias"))
TOKENS = (("sessions", "token_hash"), ("sessions", "read_token_hash"), ("groups", "admin_token_hash"),
          ("groups", "member_token_hash"), ("groups", "read_token_hash"), ("competitions", "organizer_token_hash"),
          ("competitions", "read_token_hash"))


def upgrade() -> None:
    connection = op.get_bind()
    for table, key, name in KEYED:
        with op.batch_alter_table(table) as batch:
            batch.add_column(sa.Column("look_key", sa.String(), nullable=False, server_default=""))
        rows_table = sa.table(table, sa.column(key), sa.column(name), sa.column("look_key"))
        rows = connection.execute(sa.select(rows_table.c[key], rows_table.c[name])).all()
        if rows:
            connection.execute(rows_table.update().where(rows_table.c[key] == sa.bindparam("row"))
                               .values(look_key=sa.bindparam("new_key")),
                               [{"new_key": look_key(text), "row": row} for row, text in rows])
        with op.batch_alter_table(table) as batch:
            batch.alter_column("look_key", server_default=None, existing_type=sa.String(), existing_nullable=False)
        op.create_index(f"ix_{table}_group_id_look_key", table, ["group_id", "look_key"])
    for table, column in TOKENS:
        op.create_index(f"ix_{table}_{column}", table, [column])


def downgrade() -> None:
    for table, column in TOKENS:
        op.drop_index(f"ix_{table}_{column}", table_name=table)
    for table, _, _ in KEYED:
        op.drop_index(f"ix_{table}_group_id_look_key", table_name=table)
        with op.batch_alter_table(table) as batch:
            batch.drop_column("look_key")
