"""Live updates across server processes (issue 16): two production servers on one database.

A phone follows its table on server A while another phone records on server B (as two gunicorn
masters, or two machines, behind one address would split them): A's stream sends B's hand, in
order, on SQLite and on PostgreSQL. The database is the only thing the two servers share.
"""
import http.client
import json
import queue
import socket
import threading

import pytest

from tests.system.evening import PLAYERS, create_table
from tests.system.server import ProductionServer

WAIT_S = 30


def follow(server: ProductionServer, table, into: queue.Queue) -> http.client.HTTPConnection:
    """Open ``table``'s event stream on ``server``; a thread puts each (id, event, data) into ``into``."""
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=WAIT_S)
    connection.request("GET", f"/api/sessions/{table.id}/events?token={table.token}")
    response = connection.getresponse()
    assert (response.status, response.getheader("Content-Type")) == (200, "text/event-stream; charset=utf-8")

    def read():
        fields = {}
        try:
            for raw in response:
                line = raw.decode().rstrip("\n")
                if not line:
                    if "id" in fields:
                        into.put((int(fields["id"]), fields["event"], json.loads(fields["data"])))
                    fields = {}
                elif not line.startswith(":") and ": " in line:
                    name, value = line.split(": ", 1)
                    fields[name] = value
        except (OSError, ValueError, AttributeError):  # the test closed the connection under the reader
            pass

    threading.Thread(target=read, daemon=True).start()
    return connection


@pytest.fixture
def servers(database_url, tmp_path):
    # One worker each: the servers' processes are apart all the same, and each further worker only loads the app.
    pair = [ProductionServer(database_url, tmp_path / f"gunicorn-{name}.log", workers=1).start()
            for name in ("a", "b")]
    yield pair
    for server in pair:
        server.kill()


def test_a_hand_recorded_on_one_server_reaches_a_phone_following_on_the_other(servers):
    a, b = servers
    table = create_table(a, "taiwan")
    events: queue.Queue = queue.Queue()
    stream = follow(a, table, events)
    try:
        headers = {"Authorization": f"Bearer {table.token}"}
        hand = {"winners": [{"player": PLAYERS[1], "tai": 3}], "by": "discard", "discarder": PLAYERS[2]}
        assert b.call("POST", f"/api/sessions/{table.id}/hands", hand, headers)[0] == 201
        assert b.call("DELETE", f"/api/sessions/{table.id}/hands/1", None, headers)[0] == 200
        first, second = events.get(timeout=WAIT_S), events.get(timeout=WAIT_S)
    finally:
        # shut down first: a plain close waits for the reader thread, which holds the response until the
        # stream's next heartbeat (15 s of every run, measured)
        stream.sock.shutdown(socket.SHUT_RDWR)
        stream.close()
    assert (first[0], first[1], first[2]["entry"]["number"]) == (2, "hand", 1)
    # The second seat pays nothing, the third pays the second 100 + 20 × 3 = 160.
    assert first[2]["entry"]["payments"][PLAYERS[1]] == 160
    assert (second[0], second[1], second[2]["entry"]["void"]) == (3, "void", True)


@pytest.mark.parametrize("database_kind", ["postgresql"], indirect=True)
def test_on_postgresql_a_hand_reaches_the_other_server_by_notification_not_by_the_poll(database_url, tmp_path):
    """Both servers would poll once an hour (issue 28): B's hand reaches A's phone because the trigger of
    migration 0010 notified A's listening connection as the hand committed."""
    hourly = {"TAIZHANG_EVENTS_POLL_S": "3600", "TAIZHANG_EVENTS_CHECK_S": "3600"}
    a, b = (ProductionServer(database_url, tmp_path / f"gunicorn-{name}.log", workers=1, env=hourly).start()
            for name in ("a", "b"))
    try:
        table = create_table(a, "taiwan")
        events: queue.Queue = queue.Queue()
        stream = follow(a, table, events)
        try:
            hand = {"winners": [{"player": PLAYERS[1], "tai": 3}], "by": "discard", "discarder": PLAYERS[2]}
            assert b.call("POST", f"/api/sessions/{table.id}/hands", hand,
                          {"Authorization": f"Bearer {table.token}"})[0] == 201
            revision, kind, data = events.get(timeout=WAIT_S)
        finally:
            stream.sock.shutdown(socket.SHUT_RDWR)  # as above: a plain close waited 15 s for the next heartbeat
            stream.close()
    finally:
        a.kill()
        b.kill()
    assert (revision, kind, data["entry"]["number"]) == (2, "hand", 1)
    # Cat pays Ben 100 + 20 × 3 = 160.
    assert data["totals"] == {PLAYERS[0]: 0, PLAYERS[1]: 160, PLAYERS[2]: -160, PLAYERS[3]: 0}
