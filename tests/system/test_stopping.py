"""``taizhang serve`` starting and stopping as a person sees it (issue 40, item 8).

It says it is serving once a worker has loaded the app and answers (the socket alone
listened seconds before); it stops within seconds with phones following their tables,
whose event streams end at once rather than at gunicorn's graceful timeout (30 s: a
phone reconnects on its own); and Ctrl+C prints no traceback.
"""
import os
import signal
import socket
import time

import pytest

from tests.system.announcing import TAIZHANG, AnnouncingServer
from tests.system.test_connections import open_stream
from tests.system.evening import create_table
from tests.system.server import Connection

STREAMS = 20
STOP_S = 3


class Served:
    """What ``create_table`` needs of a server: ``call``."""

    def __init__(self, port: int):
        self.port = port

    def call(self, method, path, body=None, headers=None):
        connection = Connection(self.port)
        try:
            return connection.call(method, path, body, headers)
        finally:
            connection.close()


@pytest.fixture
def serve(tmp_path):
    started = []

    def start() -> AnnouncingServer:
        started.append(AnnouncingServer([TAIZHANG, "serve", "--host", "127.0.0.1", "--port", "0", "--workers", "2",
                                         "--data", str(tmp_path)]))
        return started[-1]

    yield start
    for server in started:
        server.stop()


def follow(port: int, table) -> socket.socket:
    """A phone following ``table``: its connection, once the stream has begun (its answer's first line)."""
    connection, status = open_stream(port, table)
    assert status == b"HTTP/1.1 200 OK", status
    return connection


def read_to_the_end(connection: socket.socket) -> bytes:
    rest = b""
    while chunk := connection.recv(4096):
        rest += chunk
    return rest


@pytest.mark.parametrize("stop", ["SIGTERM to the server", "Ctrl+C in its terminal"])
def test_it_says_it_is_serving_once_loaded_then_stops_within_seconds_with_phones_following_and_no_traceback(
        serve, stop):
    server = serve()
    terminal = server.terminal  # the start checked on the server the test stops: a start of its own is seconds of CPU
    # A worker logs "Froze … objects" once the app is loaded, just before it answers (api.gunicorn_config).
    assert "Froze" in terminal and terminal.index("Froze") < terminal.index("Taizhang is serving.")
    assert terminal.count("Taizhang is serving.") == 1
    table = create_table(Served(server.port), "taiwan")
    phones = [follow(server.port, table) for _ in range(STREAMS)]
    try:
        started = time.monotonic()
        if stop == "SIGTERM to the server":
            server.process.send_signal(signal.SIGTERM)
        else:  # a terminal sends SIGINT to every process of the foreground group
            os.killpg(server.process.pid, signal.SIGINT)
        server.process.wait(timeout=60)
        stopped_s = time.monotonic() - started
        # Each stream was ended by the server, as an answer ends (chunked: the last, empty chunk).
        assert all(read_to_the_end(phone).endswith(b"0\r\n\r\n") for phone in phones)
    finally:
        for phone in phones:
            phone.close()
    time.sleep(0.2)  # the reader thread takes the last lines
    output = server.output()
    assert server.process.returncode == 0, output
    assert stopped_s < STOP_S, output
    assert "Traceback" not in output and "SystemExit" not in output, output
