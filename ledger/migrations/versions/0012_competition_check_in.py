"""Check-in of a competition's entrants (issue 31), who a round found absent, and which competition an
evening is a table of (filled for the tables drawn before). Existing rows: nobody checked in or absent.
"""
import sqlalchemy as sa
from alembic import op

revision = "0012"
down_revision = "0011"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("competition_entrants") as table:
        table.add_column(sa.Column("checked_in", sa.Boolean(), nullable=False, server_default=sa.false()))
    with op.batch_alter_table("competition_rounds") as table:
        table.add_column(sa.Column("absent", sa.JSON(), nullable=False, server_default="[]"))
    with op.batch_alter_table("sessions") as table:
        table.add_column(sa.Column("competition_id", sa.String(length=64), nullable=True))
    sessions = sa.table("sessions", sa.column("id", sa.String), sa.column("competition_id", sa.String))
    tables = sa.table("competition_tables", sa.column("session_id", sa.String),
                      sa.column("competition_id", sa.String))
    op.execute(sessions.update().where(sessions.c.id.in_(sa.select(tables.c.session_id))).values(
        competition_id=sa.select(tables.c.competition_id).where(tables.c.session_id == sessions.c.id)
        .scalar_subquery()))


def downgrade() -> None:
    with op.batch_alter_table("sessions") as table:
        table.drop_column("competition_id")
    with op.batch_alter_table("competition_rounds") as table:
        table.drop_column("absent")
    with op.batch_alter_table("competition_entrants") as table:
        table.drop_column("checked_in")
