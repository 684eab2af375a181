"""One new connection a turn of the worker's loop (``api.gunicorn_config.NewConnections``, issue 27 item 1).

2,000 streams opened at once had one turn of a worker's loop answer ~1,000 requests while a phone's hand
waited in it (``benchmarks/abuse.py`` "streams", honest p99 2.1–4.4 s). A new connection is now served
once its request is there and in its turn, one a turn; a connection already open is served in between.
"""
import socket

import gevent
import gevent.socket

from api.gunicorn_config import NewConnections
from tests.system.server import ProductionServer


def _pair_with_a_request():
    """(the server's end, the client's end) of a connection whose client has sent its request."""
    server_end, client_end = gevent.socket.socketpair()
    client_end.sendall(b"GET / HTTP/1.1\r\n\r\n")
    return server_end, client_end


def _served_per_loop_turn(serve) -> list[int]:
    """How many of three new connections, whose requests are all there at once, ``serve`` lets in per loop turn."""
    loop = gevent.get_hub().loop
    order, timers = [], []

    def tick():  # a timer of 0 s fires once every turn of the loop, after its poll
        order.append("tick")
        timers.append(loop.timer(0))
        timers[-1].start(tick)

    def new(pair):
        serve(pair[0])
        order.append("new")

    pairs = [_pair_with_a_request() for _ in range(3)]
    tick()
    gevent.joinall([gevent.spawn(new, pair) for pair in pairs], timeout=5, raise_error=True)
    timers[-1].stop()
    turns = " ".join(order).split("tick")
    return [turn.count("new") for turn in turns if "new" in turn]


def test_new_connections_whose_requests_arrived_together_are_let_in_one_a_loop_turn():
    turns = NewConnections()
    assert _served_per_loop_turn(lambda client: turns.turn(client, timeout=5)) == [1, 1, 1]
    # What the turn changes: waiting for the request alone, the three went on in one turn
    assert _served_per_loop_turn(lambda client: gevent.socket.wait_read(client.fileno(), timeout=5)) == [3]


def test_a_connection_that_sends_nothing_gets_no_turn_and_holds_none():
    turns = NewConnections()
    silent, _client = gevent.socket.socketpair()
    talking = _pair_with_a_request()
    assert turns.turn(silent, timeout=0.05) is False
    assert turns.turn(talking[0], timeout=5) is True


def test_connections_opened_together_are_each_answered_and_one_that_sends_nothing_is_closed(tmp_path):
    # One worker: its loop meets all 200 at once (a second worker only loaded the app again and took half).
    server = ProductionServer(f"sqlite:///{tmp_path}/new.sqlite", tmp_path / "gunicorn.log", workers=1).start()
    try:
        silent = socket.create_connection(("127.0.0.1", server.port))
        together = [socket.create_connection(("127.0.0.1", server.port)) for _ in range(200)]
        for connection in together:
            connection.sendall(b"GET /api/health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        status_lines = []
        for connection in together:
            connection.settimeout(30)
            status_lines.append(connection.makefile("rb").readline())
            connection.close()
        assert status_lines == [b"HTTP/1.1 200 OK\r\n"] * 200
        silent.settimeout(30)
        assert silent.recv(100) == b""  # closed by the server after keepalive seconds, unanswered
        silent.close()
    finally:
        server.stop()
