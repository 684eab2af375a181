"""Alembic environment for the ledger's tables (``ledger.store.metadata``).

The app hands over a connection (``api.http.db.upgrade_database``); from the command line it connects to
``-x url=...``, else ``DATABASE_URL``. Every migration runs in one transaction, on PostgreSQL behind an
advisory lock so that servers starting at once upgrade one after the other. SQLite migrations run with
foreign keys off (batch mode rebuilds tables), so they end with a foreign key check.
"""
import os
from logging.config import fileConfig

from alembic import context
from sqlalchemy import create_engine, pool, text

from ledger.store import metadata

MIGRATION_LOCK_KEY = 0x7461697A  # "taiz": the advisory lock held while upgrading


def run_migrations(connection):
    """Bring the schema at ``connection`` up to date inside one transaction."""
    with connection.begin():
        if connection.dialect.name == "postgresql":
            connection.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": MIGRATION_LOCK_KEY})
        context.configure(
            connection=connection,
            target_metadata=metadata,
            render_as_batch=connection.dialect.name == "sqlite",
            compare_type=True,
        )
        context.run_migrations()
        if connection.dialect.name == "sqlite":
            check_foreign_keys(connection)


def check_foreign_keys(connection):
    """Fail (and so roll back) if a SQLite migration left a dangling foreign key."""
    dangling = connection.exec_driver_sql("PRAGMA foreign_key_check").fetchall()
    if dangling:
        raise RuntimeError(f"migration left rows with dangling foreign keys: {dangling[:5]}")


def command_line_url():
    """The database URL given to the ``alembic`` command."""
    url = context.get_x_argument(as_dictionary=True).get("url") or os.environ.get("DATABASE_URL")
    if not url:
        raise SystemExit("Give the database: alembic -x url=... or DATABASE_URL=...")
    return url


def main():
    connection = context.config.attributes.get("connection")
    if connection is not None:
        run_migrations(connection)
        return
    fileConfig(context.config.config_file_name)
    engine = create_engine(command_line_url(), poolclass=pool.NullPool)
    with engine.connect() as connection:
        run_migrations(connection)


if context.is_offline_mode():
    raise SystemExit("Offline (--sql) migrations are not supported; run them against a database.")
main()
