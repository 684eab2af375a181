"""Connections sized from the machine (issue 28, ``api.gunicorn_config``): the server raises its soft limit on open
files to the hard one, each worker takes as many connections as it may then open files for (less what it keeps
open besides), says so in its log, and keeps room for requests that live streams never take.

One worker under a hard limit of 300 open files: 300 − 128 kept = 172 connections, of which streams take
172 − 64 = 108. The 109th stream is refused (503), and a phone still records its hand.
"""
import socket

from tests.system.evening import create_table
from tests.system.server import ProductionServer

STREAMS = 300 - 128 - 64


def open_stream(port: int, table) -> tuple[socket.socket, bytes]:
    """A stream's connection and the status line of its answer."""
    connection = socket.create_connection(("127.0.0.1", port), timeout=30)
    connection.sendall(f"GET /api/sessions/{table.id}/events?token={table.token} HTTP/1.1\r\nHost: t\r\n\r\n"
                       .encode())
    head = b""
    while b"\r\n" not in head:
        head += connection.recv(4096)
    return connection, head.split(b"\r\n", 1)[0]


def test_a_worker_takes_the_connections_its_open_files_allow_and_streams_never_take_them_all(tmp_path):
    server = ProductionServer(f"sqlite:///{tmp_path / 'taizhang.sqlite'}", tmp_path / "gunicorn.log", workers=1,
                              open_files=(100, 300),
                              env={"TAIZHANG_EVENTS_PER_EVENING": "1000", "TAIZHANG_EVENTS_PER_ADDRESS": "1000",
                                   "TAIZHANG_RATELIMIT_ENABLED": "false"}).start()
    held = []
    try:
        table = create_table(server, "taiwan")
        for _ in range(STREAMS):
            connection, status = open_stream(server.port, table)
            held.append(connection)
            assert status == b"HTTP/1.1 200 OK"
        connection, status = open_stream(server.port, table)
        held.append(connection)
        assert status.startswith(b"HTTP/1.1 503")
        hand = {"winners": [{"player": "Ben", "tai": 1}], "by": "self_draw"}
        assert server.call("POST", f"/api/sessions/{table.id}/hands", hand,
                           {"Authorization": f"Bearer {table.token}"})[0] == 201
    finally:
        for connection in held:
            connection.close()
        server.kill()
    assert ("Open files: soft limit 300 (was 100); each worker takes 172 connections, 108 of them for live streams"
            in server.log())


def test_taizhang_serve_sizes_the_connections_as_make_serve_does_unless_told():
    """``taizhang serve`` (``make run``) loads the same settings: without ``--connections`` each worker takes
    what the open-file limit allows (here the test process's hard limit, less 128, at most 10,000)."""
    import resource

    from taizhang.cli import Server

    hard = resource.getrlimit(resource.RLIMIT_NOFILE)[1]
    expected = min(10_000, hard - 128) if hard != resource.RLIM_INFINITY else 10_000
    assert Server("127.0.0.1", 0, 2, None).application.cfg.worker_connections == max(128, expected)
    assert Server("127.0.0.1", 0, 2, 300).application.cfg.worker_connections == 300
