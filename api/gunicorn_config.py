"""gunicorn settings of the production server (``make serve``, ``taizhang serve``), besides its command line.

The gevent worker: a phone following its table holds a connection all evening, and a waiting greenlet
costs a few KB where a thread each would not hold 1,000 phones on two cores; a long computation holds up
its worker, which the limits on hands and imports bound. One worker per core. Connections are sized
from the open-file limit, streams taking at most a share so a phone can always record. ``GeventWorker``
answers gunicorn's own errors as JSON and starts one new connection a loop turn, so a flood of streams
cannot make a hand wait behind a thousand (``benchmarks/abuse.py``). Each worker allows its share of the
rate limits and ``gc.freeze``s what it loaded, which full collections would otherwise walk.
"""
import gc
import json
import logging
import os
import resource

import gevent.socket
from gevent.lock import Semaphore
from gunicorn import util
from gunicorn.workers import ggevent

from api.http.security import HEADERS

FILES_KEPT = 128  # a worker's open files besides its connections: 16 pooled database connections × 4 on SQLite
# (the file, its -wal and -shm, the writer queue's lock), PostgreSQL's listener, logs, the listening socket
MAX_CONNECTIONS = int(os.environ.get("TAIZHANG_MAX_CONNECTIONS", 10_000))  # per worker, whatever the limit
REQUEST_ROOM = 64  # a worker's connections streams never take: requests always have these
log = logging.getLogger("gunicorn.error")


def open_file_limit() -> tuple[int, int]:
    """Raise this process's soft limit on open files to its hard limit; (the soft limit before, after)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft != hard:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
        except (ValueError, OSError):  # an infinite hard limit some systems refuse as a soft one
            return soft, soft
    return soft, hard


def connections_for(files: int) -> int:
    """The connections a worker takes when it may open ``files`` files.

    >>> connections_for(1024), connections_for(20_000), connections_for(1_048_576)
    (896, 10000, 10000)
    """
    return max(2 * REQUEST_ROOM, min(MAX_CONNECTIONS, files - FILES_KEPT))


def stream_share(connections: int) -> int:
    """How many of a worker's ``connections`` streams may take: all but a quarter, at least ``REQUEST_ROOM``.

    >>> stream_share(10_000), stream_share(896), stream_share(128)
    (7500, 672, 64)
    """
    return connections - max(REQUEST_ROOM, connections // 4)


OPEN_FILES = open_file_limit()
worker_class = "api.gunicorn_config.GeventWorker"
worker_connections = connections_for(OPEN_FILES[1])


def on_starting(server) -> None:
    """gunicorn's hook in the master before it starts the workers: say what the machine let us take."""
    before, after = OPEN_FILES
    connections = server.cfg.worker_connections
    server.log.info("Open files: soft limit %s (was %s); each worker takes %d connections, %d of them for live "
                    "streams (%d workers: %d streams in all)", after, before, connections, stream_share(connections),
                    server.cfg.workers, server.cfg.workers * stream_share(connections))


def freeze_loaded_app() -> int:
    """Collect what is garbage now, then exempt every object left from later collections; how many there are."""
    gc.collect()
    gc.freeze()
    return gc.get_freeze_count()


def post_worker_init(worker) -> None:
    """gunicorn's hook, run in each worker once the app is loaded."""
    worker.wsgi.config["RATE_LIMIT_PROCESSES"] = worker.cfg.workers
    # Streams never take every connection of a worker: the rest stay for requests (api.sessions.events). The
    # app's default (api.http.live.STREAM_DEFAULTS) gives way; TAIZHANG_EVENTS_PER_WORKER does not (it used
    # to be a setdefault, so the default of 500 held whatever the connections: tests/system/test_connections.py).
    if "TAIZHANG_EVENTS_PER_WORKER" not in os.environ:
        worker.wsgi.config["EVENTS_PER_WORKER"] = stream_share(worker.cfg.worker_connections)
    worker.log.info("Froze %d objects of the loaded app (gc.freeze)", freeze_loaded_app())


def write_json_error(client, status: int, reason: str, message: str) -> None:
    """gunicorn's ``util.write_error``, with the app's JSON error body instead of an HTML page, and the security
    headers of the app's answers."""
    body = json.dumps({"code": status, "status": reason, "message": message or reason},
                      ensure_ascii=True).encode() + b"\n"
    security = "".join(f"{name}: {value}\r\n" for name, value in HEADERS.items())
    head = (f"HTTP/1.1 {status} {reason}\r\nConnection: close\r\nContent-Type: application/json\r\n"
            f"{security}Content-Length: {len(body)}\r\n\r\n")
    util.write_nonblock(client, head.encode("latin-1") + body)


class GeventWorker(ggevent.GeventWorker):
    """gunicorn's gevent worker whose own error answers are JSON, and which stops at once.

    gunicorn has no hook for the errors: its ``write_error`` is replaced with ``write_json_error`` in the
    worker's process. Stopping ends the event streams first (``stop``)."""

    def handle_exit(self, sig, frame):
        """SIGTERM: gunicorn's graceful stop, which waits for every open connection, once the streams end."""
        super().handle_exit(sig, frame)
        gevent.spawn(self.stop)

    def handle_quit(self, sig, frame):
        """Ctrl+C (and the master's SIGQUIT after it): as SIGTERM. gunicorn's own raises ``SystemExit`` in a
        greenlet, which gevent printed as a traceback, one per worker."""
        self.handle_exit(sig, frame)

    def handle_request(self, listener_name, req, sock, addr):
        """Once the worker is stopping, close a connection whose answer has ended (a stream, ended by ``stop``)
        rather than keep it open ``keepalive`` seconds for a next request that is not coming."""
        served = super().handle_request(listener_name, req, sock, addr)
        if not self.alive:
            raise StopIteration()
        return served

    def stop(self) -> None:
        """End this worker's event streams, which would otherwise hold the graceful stop for its whole timeout;
        requests under way finish."""
        app = getattr(self, "wsgi", None)  # none yet while the worker loads it; gunicorn's error app if that failed
        if hasattr(app, "extensions"):
            from api.http.live import end_streams

            end_streams(app)

    def init_process(self):
        util.write_error = write_json_error
        self.new_connections = NewConnections()
        super().init_process()

    def handle(self, listener, client, addr):
        """Serve a new connection once its first request is there, and in its turn (see the module's docstring)."""
        if not self.new_connections.turn(client, self.cfg.keepalive):
            client.close()  # nothing arrived in keepalive seconds: as gunicorn closes an idle keep-alive connection
            return
        super().handle(listener, client, addr)


class NewConnections:
    """A worker's turns for new connections: one a turn of its gevent loop, in the order their requests came."""

    def __init__(self):
        self.taken = Semaphore(1)  # FIFO: gevent wakes its waiters in order
        self.hand_on = None  # the timer that gives the turn back

    def turn(self, client, timeout: float) -> bool:
        """Wait until ``client`` has sent something, then for the loop's next turn; False if nothing came.

        The turn is given back on the next loop turn, not when the request is done, so a waiting request holds
        no other connection up."""
        try:
            gevent.socket.wait_read(client.fileno(), timeout=timeout)
        except gevent.socket.timeout:
            return False
        self.taken.acquire()
        self.hand_on = gevent.get_hub().loop.timer(0)
        self.hand_on.start(self.taken.release)
        return True
