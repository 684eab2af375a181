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

**JSON errors from gunicorn itself.** A request gunicorn refuses before the
app sees it (a request line or URI too long: 414, bad headers: 400, too
many headers: 431) used to get an HTML page; ``GeventWorker`` writes them as
the app writes its errors: ``{"code", "status", "message"}``.

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

from gunicorn import util
from gunicorn.workers import ggevent

worker_class = "api.gunicorn_config.GeventWorker"
worker_connections = 1000


def freeze_loaded_app() -> int:
    """Collect what is garbage now, then exempt every object left from later collections; how many there are."""
    gc.collect()
    gc.freeze()
    return gc.get_freeze_count()


def post_worker_init(worker) -> None:
    """gunicorn's hook, run in each worker once the app is loaded."""
    worker.wsgi.config["RATE_LIMIT_PROCESSES"] = worker.cfg.workers
    # Streams take at most half of a worker's connections: the rest stay for requests (api.sessions.events).
    worker.wsgi.config.setdefault("EVENTS_PER_WORKER", worker.cfg.worker_connections // 2)
    worker.log.info("Froze %d objects of the loaded app (gc.freeze)", freeze_loaded_app())


def write_json_error(client, status: int, reason: str, message: str) -> None:
    """gunicorn's ``util.write_error``, with the app's JSON error body instead of an HTML page."""
    body = json.dumps({"code": status, "status": reason, "message": message or reason},
                      ensure_ascii=True).encode() + b"\n"
    head = (f"HTTP/1.1 {status} {reason}\r\nConnection: close\r\nContent-Type: application/json\r\n"
            f"Content-Length: {len(body)}\r\n\r\n")
    util.write_nonblock(client, head.encode("latin-1") + body)


class GeventWorker(ggevent.GeventWorker):
    """gunicorn's gevent worker whose own error answers are JSON.

    gunicorn has no hook for them: ``Worker.handle_error`` works out the
    status and message, then calls ``gunicorn.util.write_error``, which this
    worker's process replaces with ``write_json_error`` before it serves.
    """

    def init_process(self):
        util.write_error = write_json_error
        super().init_process()
