"""PostgreSQL restarted under a running server: once ``/api/health`` says ok again, no request fails.

The server's pooled connections all died with the old PostgreSQL. Issue 39 found 0–1 request of 40 answered
503 after a restart while ``/api/health`` said ok: a dead connection found only by the request's first
statement. A fast shutdown (systemd's restart) says goodbye on each connection as a FATAL error, an
immediate one (or the crash of a server process) as a WARNING: either must be seen. Eight keep-alive
clients at once keep several pooled connections per worker; the server is restarted three times, and
each of the 40 requests after each restart must succeed.
"""
import os
import threading
import time

import pytest

from tests import pg
from tests.system.evening import create_table
from tests.system.server import ProductionServer

RESTARTS = 3
CLIENTS = 8  # at once, each on its own keep-alive connection: several pooled connections per worker
ROUNDS = 5  # CLIENTS × ROUNDS = 40 requests after each restart
HEALTH_TIMEOUT_S = 60


@pytest.fixture
def postgres(tmp_path):
    server = pg.LocalServer()
    try:
        yield server
    finally:
        server.stop()


def wait_for_health(server: ProductionServer) -> None:
    deadline = time.monotonic() + HEALTH_TIMEOUT_S
    while server.call("GET", "/api/health")[0] != 200:
        assert time.monotonic() < deadline, "the server did not find PostgreSQL again"
        time.sleep(0.2)


def requests_from_clients(server: ProductionServer, table, connections: list) -> list[int]:
    """Each client a read of the table's state and a hand, ``ROUNDS`` times; every status in order."""
    statuses: list[int] = []
    lock = threading.Lock()

    def client(connection) -> None:
        for round_ in range(ROUNDS):
            if round_ % 2:
                status, _ = connection.call("POST", f"{table.path}/hands", {"draw": True, "reason": "exhausted"},
                                            table.headers())
            else:
                status, _ = connection.call("GET", table.path, headers=table.headers())
            with lock:
                statuses.append(status)

    threads = [threading.Thread(target=client, args=(connection,)) for connection in connections]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return statuses


@pytest.mark.parametrize("mode", ["fast", "immediate"])
def test_no_request_fails_after_postgresql_restarts(postgres, tmp_path, mode):
    name = postgres.create_database()
    server = ProductionServer(postgres.database_url(name), tmp_path / "gunicorn.log",
                              env={"TAIZHANG_RATELIMIT_ENABLED": "false"}).start()
    try:
        table = create_table(server, "taiwan")
        connections = [server.connect() for _ in range(CLIENTS)]
        assert set(requests_from_clients(server, table, connections)) <= {200, 201}  # every worker's pool filled
        for _ in range(RESTARTS):
            postgres._pg_ctl("restart", "-w", "-m", mode, "-l", os.path.join(postgres.directory, "server.log"))
            wait_for_health(server)
            statuses = requests_from_clients(server, table, connections)
            assert len(statuses) == CLIENTS * ROUNDS
            assert set(statuses) <= {200, 201}, statuses
    finally:
        server.kill()
