"""PostgreSQL: a pooled connection that the server closed (a restart, pg_terminate_backend) is replaced when
it is checked out (``api.db._replace_if_closed_by_server``, no round trip): no request fails."""
import time

import psycopg
import pytest
from sqlalchemy.engine import make_url

from tests.api.sessions.tables import DRAW, Table, self_draw

pg_only = pytest.mark.parametrize("database_kind", ["postgresql"], indirect=True)
TERMINATE_TIMEOUT_S = 30
TERMINATE_OTHERS = ("SELECT count(*) FILTER (WHERE pg_terminate_backend(pid)) FROM pg_stat_activity "
                    "WHERE datname = current_database() AND pid <> pg_backend_pid()")
COUNT_OTHERS = ("SELECT count(*) FROM pg_stat_activity "
                "WHERE datname = current_database() AND pid <> pg_backend_pid()")


@pg_only
def test_requests_after_the_server_closed_the_pooled_connections_do_not_fail(app, client, database_url):
    table = Table(client)
    table.hands_ok(DRAW)  # the app's pool now keeps a connection to the server
    libpq_url = make_url(database_url).set(drivername="postgresql").render_as_string(hide_password=False)
    with psycopg.connect(libpq_url, autocommit=True) as admin:
        closed = admin.execute(TERMINATE_OTHERS).fetchone()[0]
        assert closed >= 1
        deadline = time.monotonic() + TERMINATE_TIMEOUT_S
        while admin.execute(COUNT_OTHERS).fetchone()[0]:
            assert time.monotonic() < deadline, "the server did not end the app's sessions"
            time.sleep(0.05)
    hand = table.hands_ok(self_draw("Amy", 1))[0]  # Amy dealing at streak 1: 100 + 20 × 4 = 180 from each
    assert (hand["number"], hand["payments"]["Amy"]) == (2, 540)
    assert [h["number"] for h in table.hands()] == [1, 2]
