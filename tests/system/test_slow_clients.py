"""Slow clients (issue 15, item 3) against the production server (the gevent worker of ``api.gunicorn_config``).

100 connections send their headers and then one body byte every second:
meanwhile ``/api/health`` answers and a hand is recorded, and each slow
connection ends with a 408 once ``REQUEST_BODY_TIMEOUT`` (6 s here, longer than the honest client waits) is past,
or is closed. On gthread (4 workers × 4 threads) 16 such connections took
every thread and health waited a minute.

And a request waiting for PostgreSQL (a table locked by another client)
does not hold up its worker's other connections: psycopg 3 waits through
gevent's ``select``.
"""
import json
import socket
import threading
import time

import pytest
from sqlalchemy import text

from api.http.db import make_engine
from tests.api.sessions.tables import discard
from tests.system.evening import create_table
from tests.system.server import ProductionServer

SLOW = 100
BODY_TIMEOUT_S = 6  # longer than the honest client waits: a slow body that held the write lock would show
CLIENT_TIMEOUT_S = 5  # generous (the honest calls take milliseconds): only that they answer at all


@pytest.fixture
def server(database_url, tmp_path):
    # One worker holds all 100 and must still answer: with two, the honest calls could find the other.
    running = ProductionServer(database_url, tmp_path / "gunicorn.log", workers=1,
                               env={"TAIZHANG_REQUEST_BODY_TIMEOUT": str(BODY_TIMEOUT_S)}).start()
    yield running
    running.stop()


class SlowBody:
    """A connection that sends a hand's headers, then its body one byte a second."""

    def __init__(self, server, path: str, headers: dict):
        self.socket = socket.create_connection(("127.0.0.1", server.port), timeout=1)
        head = f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n"
        head += "".join(f"{name}: {value}\r\n" for name, value in headers.items())
        self.socket.sendall(head.encode() + b"\r\n{")
        self.answer = b""
        self.closed = False

    def trickle(self) -> None:
        """Send one more byte and read what came back, if anything."""
        if self.closed:
            return
        try:
            self.socket.sendall(b" ")
            received = self.socket.recv(4096)
            self.answer += received
            self.closed = not received
        except TimeoutError:
            pass
        except OSError:  # reset, or a write to a closed connection
            self.closed = True

    def close(self) -> None:
        self.socket.close()


def trickle_until(slow: list[SlowBody], stop: threading.Event) -> None:
    while not stop.is_set() and not all(connection.closed for connection in slow):
        started = time.monotonic()
        for connection in slow:
            connection.socket.settimeout(0.01)
            connection.trickle()
        stop.wait(max(0.0, 1 - (time.monotonic() - started)))


def test_a_hundred_slow_bodies_stall_nobody_and_end_in_408_or_closed(server):
    table = create_table(server, "taiwan")
    slow = [SlowBody(server, f"{table.path}/hands", table.headers()) for _ in range(SLOW)]
    stop = threading.Event()
    trickler = threading.Thread(target=trickle_until, args=(slow, stop))
    trickler.start()
    try:
        honest = server.connect()
        honest.http.timeout = CLIENT_TIMEOUT_S
        assert honest.call("GET", "/api/health") == (200, {"status": "ok"})
        status, hand = honest.call("POST", f"{table.path}/hands", discard("Ben", "Cat", 1), table.headers())
        assert status == 201, hand
        assert hand["number"] == 1
        trickler.join(timeout=BODY_TIMEOUT_S + 60)
        assert not trickler.is_alive()
    finally:
        stop.set()
        trickler.join()
        for connection in slow:
            connection.close()
    for connection in slow:
        assert connection.closed
        if connection.answer:
            head, _, body = connection.answer.partition(b"\r\n\r\n")
            assert head.startswith(b"HTTP/1.1 408 "), connection.answer
            if body:  # the body may come after the connection was found closed
                assert json.loads(body)["message"] == "The request body did not arrive in time."
    assert sum(connection.answer.startswith(b"HTTP/1.1 408 ") for connection in slow) > 0
    assert server.call("GET", f"{table.path}/hands", headers=table.headers())[0] == 200
    assert len(server.call("GET", f"{table.path}/hands", headers=table.headers())[1]) == 1


@pytest.mark.parametrize("database_kind", ["postgresql"], indirect=True)
def test_a_request_waiting_for_postgresql_does_not_hold_up_its_worker(database_url, tmp_path):
    server = ProductionServer(database_url, tmp_path / "gunicorn.log", workers=1).start()
    engine = make_engine(database_url)
    try:
        table = create_table(server, "taiwan")
        answers = []
        with engine.connect() as locker:
            locker.execute(text("LOCK TABLE sessions IN ACCESS EXCLUSIVE MODE"))
            waiting = threading.Thread(target=lambda: answers.append(
                server.call("GET", table.path, headers=table.headers())[0]))
            waiting.start()
            time.sleep(0.5)  # the read is now waiting for the lock, in the one worker
            assert server.call("GET", "/api/health") == (200, {"status": "ok"})
            assert answers == []
            locker.rollback()
        waiting.join(timeout=CLIENT_TIMEOUT_S)
        assert answers == [200]
    finally:
        engine.dispose()
        server.stop()
