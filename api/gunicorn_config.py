"""gunicorn settings of the production server (``make serve``), besides those on its command line.

``gunicorn -c python:api.gunicorn_config …`` loads them.

**The gevent worker.** Each worker serves its connections as greenlets
(gevent; ``worker_connections`` at once) rather than from a few threads.
With threads (gthread, 4 workers × 4 threads), sixteen clients that sent
their headers and then a body byte every few seconds took every thread, and
``/api/health`` waited a minute; a greenlet waiting for a slow body costs a
few KB and stalls nobody, and ``api.http.deadline`` answers 408 to a body that
has not arrived within ``REQUEST_BODY_TIMEOUT``. It is also what live
updates need (issue 16): a phone following its table holds a connection
open all evening, and one server is to hold about 1,000 of them on two
cores; 1,000 threads would each cost a stack and a share of the GIL's
switching, whereas idle greenlets cost nothing. The price: a worker runs one
greenlet at a time, so a long computation (a PDF of a long evening, an
import) holds up the rest of that worker's connections until it is done;
the limits on hands and imports bound those, and the other workers go on.
The libraries cooperate once gevent has patched the standard library, which
the worker does before it loads the app: psycopg 3 then waits for
PostgreSQL through the patched ``select`` (``psycopg.waiting`` checks
``gevent.monkey`` when it is first imported, which is in the worker: the
app imports psycopg only when it makes its engine), and SQLAlchemy's pool and
``api.db.WriterQueue`` through the patched ``threading``. SQLite calls
block their worker while they run (they are short), and so does waiting for
the SQLite writer queue's ``flock``, which only one greenlet of a worker
waits for at a time, while another process writes one change.

**One worker per core** (``make serve``'s ``WORKERS`` is ``nproc``). A
gevent worker already serves many requests at once; more processes than
cores only take turns on them. On two cores, ``benchmarks/club_night.py
--tables 400 --seconds 60`` served the same night with 0.60–1.07 cores of
server CPU with two workers on SQLite and 1.02–1.22 with four (0.80–0.97
and 1.05 on PostgreSQL). The latencies varied more from run to run than
between the two (``benchmarks/README.md``); what the fewer workers cost is
that an SQLite call, which blocks its worker, holds up half the server
instead of a quarter while it lasts.

**Connections sized from the machine** (issue 28). A phone following its
table holds a connection, hence an open file, all evening; with a constant
1,000 connections a worker, 500 tables' 2,000 streams took every
connection of both workers and no phone could record, and at 1,000 tables
the open-file limit (1,024 by default) refused the streams before that.
So, as the configuration loads (in the master; the workers inherit it),
``open_file_limit`` raises the soft ``RLIMIT_NOFILE`` to the hard one, and
each worker takes as many connections as it may then open files, less
``FILES_KEPT`` for what it keeps open besides (the database pool's files,
PostgreSQL's listening connection, logs, the listening socket), at most
``MAX_CONNECTIONS``; the master logs what was set. Of a worker's
connections, streams take at most ``EVENTS_PER_WORKER`` (``stream_share``):
the rest, at least ``REQUEST_ROOM``, always serve requests, so a phone can
record however many streams are open. ``make serve``, ``make run`` and
``taizhang serve`` all load this module; ``--worker-connections`` (or
``taizhang serve --connections``) still sets a number by hand. Beyond
``MAX_CONNECTIONS`` × workers: raise the hard limit (systemd: ``LimitNOFILE``,
``deploy/taizhang.service``; a shell: ``ulimit -Hn``), ``TAIZHANG_MAX_CONNECTIONS``
and, the measure of what one machine holds, ``benchmarks/club_night.py --live``.

**JSON errors from gunicorn itself.** A request gunicorn refuses before the
app sees it (a request line or URI too long: 414, bad headers: 400, too
many headers: 431) used to get an HTML page; ``GeventWorker`` writes them as
the app writes its errors: ``{"code", "status", "message"}``, with the headers
every answer of the app carries (``api.http.security.HEADERS``: ``nosniff``,
no framing), which they lacked (issue 27, item 8).

**One new connection a loop turn.** A worker starts serving a new
connection only once its first request has arrived, and at most one new
connection per turn of gevent's loop (``GeventWorker.handle``); a connection
already open (a phone's keep-alive connection) is served as before. 2,000
event streams opened at once from one address (``benchmarks/abuse.py``
"streams") had each worker accept its ~1,000 connections one by one, while
their requests were still on their way; then the requests arrived together
and one turn of the loop parsed and answered all of them (a turn of 1.2 s,
~1,000 greenlets run in it, measured by a ticker greenlet in the worker), and
a phone's hand that arrived in that turn waited for all of it: honest record
p99 4.4 s on SQLite, and still 2.1 s with the stream rate limit at 2 a minute
(1,998 refused by ``api.sessions.stream_gate`` before Flask), so it was
neither the streams let in nor their database reads but the one turn. With the
turn the honest hand waits behind one new connection's request (the flood's
p99 53–420 ms on SQLite in three runs, ``benchmarks/README.md``), not a thousand; what
the flood costs is spread over the following turns (a phone opening a new
connection then waits its turn among the flood's, in order).

**Rate limits.** Each worker counts requests in its own memory
(``api.http.ratelimits``); ``post_worker_init`` tells the app how many workers
there are, so that each allows its share.

**gc.freeze.** Each worker, once it has loaded the app, moves every object
then alive (the app, its routes and schemas, the imported modules, the
scoring tables: about 120,000 objects) out of reach of the garbage
collector (``gc.freeze``). They live as long as the worker does, yet a full
collection looked at every one of them: ≈ 55 ms, spent in whichever request
happened to trigger it, every few thousand requests, and in ≈ 1 of 3 cold
replays of 1,000 full entries. Objects made later, by requests, are
collected as before.
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

    gunicorn has no hook for the errors: ``Worker.handle_error`` works out the
    status and message, then calls ``gunicorn.util.write_error``, which this
    worker's process replaces with ``write_json_error`` before it serves.
    Stopping (SIGTERM, Ctrl+C) ends the event streams first (``stop``).
    """

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

        The turn is given back on the loop's next turn (a timer of 0 s fires
        after the loop has polled its sockets), not when the request is done,
        so a request that waits (on PostgreSQL, for a slow body) holds no
        other connection up, and a turn starts one new connection at most.
        """
        try:
            gevent.socket.wait_read(client.fileno(), timeout=timeout)
        except gevent.socket.timeout:
            return False
        self.taken.acquire()
        self.hand_on = gevent.get_hub().loop.timer(0)
        self.hand_on.start(self.taken.release)
        return True
