"""PostgreSQL for the tests: a given server, or a throw-away one from Debian's packages.

``TEST_DATABASE_URL`` (or a PostgreSQL ``DATABASE_URL``) names a server to use; its
role needs CREATEDB. Otherwise ``LocalServer`` runs ``initdb`` and ``pg_ctl`` from
``/usr/lib/postgresql/*/bin`` in a temporary directory, as the ``postgres`` OS user
when the tests run as root, listening only on a Unix socket in that directory.
Either way the tests create their databases (``create_database``): one migrated once per test
process, emptied before each test (``empty_tables``), and empty ones for the tests of migrating.
"""
import glob
import os
import pwd
import shutil
import subprocess
import tempfile
import uuid

import psycopg
from psycopg import sql
from sqlalchemy.engine import URL, make_url

PG_BIN_DIRS = "/usr/lib/postgresql/*/bin"
SERVER_OPTIONS = "-c listen_addresses='' -c max_connections=200"
# Tests do not need their commits on disk; a benchmark asks for a server that keeps them (durable).
NOT_DURABLE = " -c fsync=off -c synchronous_commit=off -c full_page_writes=off"


class Server:
    """A PostgreSQL server on which tests create and drop their own databases."""

    def __init__(self, url: str | URL):
        self.url = make_url(url).set(drivername="postgresql+psycopg")
        self._emptiers: dict[str, tuple[psycopg.Connection, sql.Composed]] = {}

    def database_url(self, name: str) -> str:
        """The SQLAlchemy URL of database ``name`` on this server."""
        return self.url.set(database=name).render_as_string(hide_password=False)

    def create_database(self, template: str | None = None) -> str:
        """Create a database with a fresh name, empty or a copy of database ``template``, and return that name."""
        name = f"taizhang_test_{uuid.uuid4().hex[:12]}"
        statement = sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name))
        if template:
            statement += sql.SQL(" TEMPLATE {}").format(sql.Identifier(template))
        self._admin(statement)
        return name

    def empty_tables(self, name: str, tables: list[str]) -> None:
        """Delete every row of ``tables`` (children first) in database ``name`` and restart its sequences.

        A test's database is one migrated once per test process and emptied
        before each test: ``CREATE DATABASE`` (empty, or from a migrated
        template) cost 350–500 ms a test. The deletes and restarts go as one
        statement on a connection kept for the database: a connection and 31
        round trips a test were 133 ms of a trivial PostgreSQL test at a load of
        11 (tests/api: 666 such tests), where one round trip is a few ms. A kept
        connection that the server closed (tests/api/http/test_pg_pool.py ends
        every other session of the database) is replaced, once: before, every
        later PostgreSQL test of that process failed at its setup.
        """
        connection, statement = self._emptiers.get(name) or self._emptier(name, tables)
        try:
            connection.execute(statement)
        except psycopg.OperationalError:
            connection.close()
            connection, statement = self._emptier(name, tables)
            connection.execute(statement)

    def _emptier(self, name: str, tables: list[str]) -> tuple[psycopg.Connection, sql.Composed]:
        connection = psycopg.connect(self._libpq_url(name), autocommit=True)
        sequences = [row[0] for row in connection.execute(
            "SELECT sequencename FROM pg_sequences WHERE schemaname = current_schema()")]
        # One simple-query string runs as one transaction: every delete and restart, or none.
        statement = sql.SQL(" ").join(
            [sql.SQL("DELETE FROM {};").format(sql.Identifier(table)) for table in tables]
            + [sql.SQL("ALTER SEQUENCE {} RESTART;").format(sql.Identifier(sequence)) for sequence in sequences])
        self._emptiers[name] = connection, statement
        return connection, statement

    def drop_database(self, name: str) -> None:
        emptier = self._emptiers.pop(name, None)
        if emptier:
            emptier[0].close()
        self._admin(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name)))

    def stop(self) -> None:
        """A server the tests did not start keeps running."""

    def _admin(self, statement) -> None:
        with psycopg.connect(self._libpq_url(), autocommit=True) as connection:
            connection.execute(statement)

    def _libpq_url(self, name: str | None = None) -> str:
        url = self.url.set(drivername="postgresql")
        return (url.set(database=name) if name else url).render_as_string(hide_password=False)


class LocalServer(Server):
    """A server started from Debian's binaries in a temporary directory."""

    def __init__(self, durable: bool = False):
        self.directory = tempfile.mkdtemp(prefix="taizhang-pg-")
        self.data = os.path.join(self.directory, "data")
        self.bin = _bin_dir()
        self.user = "postgres" if os.geteuid() == 0 else pwd.getpwuid(os.geteuid()).pw_name
        if os.geteuid() == 0:
            shutil.chown(self.directory, user="postgres", group="postgres")
        try:
            self._run("initdb", "-D", self.data, "-U", self.user, "--auth=trust", "-E", "UTF8", "--no-locale")
            self._pg_ctl("start", "-w", "-l", os.path.join(self.directory, "server.log"),
                         "-o", f"-k {self.directory} {SERVER_OPTIONS}{'' if durable else NOT_DURABLE}")
        except RuntimeError as error:
            log = self._log()
            shutil.rmtree(self.directory, ignore_errors=True)
            raise RuntimeError(f"{error}\nserver log:\n{log}") from None
        super().__init__(URL.create("postgresql+psycopg", username=self.user, database="postgres",
                                    query={"host": self.directory}))

    def stop(self) -> None:
        """Stop the server and delete its files."""
        try:
            self._pg_ctl("stop", "-w", "-m", "fast")
        finally:
            shutil.rmtree(self.directory, ignore_errors=True)

    def _log(self) -> str:
        try:
            with open(os.path.join(self.directory, "server.log"), encoding="utf-8") as log:
                return log.read()
        except FileNotFoundError:
            return "(none)"

    def _pg_ctl(self, action: str, *options: str) -> None:
        self._run("pg_ctl", action, "-D", self.data, *options)

    def _run(self, program: str, *arguments: str) -> None:
        command = [os.path.join(self.bin, program), *arguments]
        if os.geteuid() == 0:
            command = ["runuser", "-u", "postgres", "--", *command]
        result = subprocess.run(command, capture_output=True, text=True)
        if result.returncode:
            raise RuntimeError(f"{' '.join(command)} failed ({result.returncode}):\n{result.stdout}{result.stderr}")


def _bin_dir() -> str:
    """The newest installed PostgreSQL's binaries."""
    found = sorted(glob.glob(PG_BIN_DIRS), key=lambda path: int(path.split("/")[-2]))
    if not found:
        raise RuntimeError("PostgreSQL is not installed: apt-get install postgresql (make test does this)")
    return found[-1]


def given_url() -> str | None:
    """The PostgreSQL server named by the environment, if any."""
    url = os.environ.get("TEST_DATABASE_URL") or os.environ.get("DATABASE_URL")
    if url and make_url(url).get_backend_name() == "postgresql":
        return url
    return None


def start_server(durable: bool = False) -> Server:
    """The server the tests use: the one given in the environment, or a new local one (``durable``: with
    PostgreSQL's own settings, every commit flushed to disk, as a club's server runs)."""
    url = given_url()
    return Server(url) if url else LocalServer(durable)
