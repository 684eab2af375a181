"""How a change reaches the streams that follow its evening, whatever process or machine wrote it.

Each process has one ``Watcher``, a thread that every ``POLL_S`` reads the
revisions of the sessions its streams follow from the database (one query
for all of them) and wakes the streams of those that moved. A stream
(``api.sessions.events``) then reads its new changes. The database is the
only thing the processes share, on SQLite and on PostgreSQL alike, so
nothing else has to run.
"""
import logging
import re
import threading
from typing import NamedTuple

from flask import current_app
from sqlalchemy.exc import SQLAlchemyError

from api.http.db import get_engine
from ledger import store

POLL_S = 0.25  # how often a process asks which followed sessions moved: a hand shows within ≈ this
WATCHER_KEY = "taizhang.watcher"
STREAMS_KEY = "taizhang.streams"

log = logging.getLogger(__name__)


class Watcher:
    """A process's one thread that tells its streams when their sessions move on.

    ``follow(session_id, revision)`` gives a stream an ``Update``, set when
    the session is past the revision last seen. The thread starts with the
    first stream (after gunicorn forks its workers) and reads nothing while
    no stream follows anything.
    """

    def __init__(self, engine):
        self.engine = engine
        self._lock = threading.Lock()
        self._followers: dict[str, set["Update"]] = {}
        self._thread: threading.Thread | None = None

    def follow(self, session_id: str, revision: int) -> "Update":
        update = Update(revision)
        with self._lock:
            self._followers.setdefault(session_id, set()).add(update)
            if self._thread is None:
                self._thread = threading.Thread(target=self._watch, name="taizhang-watcher", daemon=True)
                self._thread.start()
        return update

    def use(self, engine) -> None:
        """Watch the database of ``engine`` from now on (the tests move one app from database to database)."""
        with self._lock:
            self.engine = engine
            self._followers.clear()

    def wake(self, session_id: str) -> None:
        """Wake this process's streams of ``session_id`` now, its revision unchanged: its tokens were
        replaced, and each stream checks its own at waking (issue 29 item 3: an old phone is told at once,
        not at the next heartbeat; a stream in another worker process learns it at its heartbeat)."""
        with self._lock:
            for update in self._followers.get(session_id, ()):
                update.wake()

    def unfollow(self, session_id: str, update: "Update") -> None:
        with self._lock:
            followers = self._followers.get(session_id)
            if followers is not None:
                followers.discard(update)
                if not followers:
                    del self._followers[session_id]

    def _watch(self) -> None:
        stop = threading.Event()  # never set: the thread lives as long as its process (a daemon)
        while not stop.wait(POLL_S):
            with self._lock:
                followed = list(self._followers)
            if not followed:
                continue
            try:
                revisions = self._revisions(followed)
            except SQLAlchemyError as error:  # the database is away: the streams wait, and we ask again
                log.warning("live updates: cannot read revisions (%s)", type(error).__name__)
                continue
            with self._lock:
                for session_id, revision in revisions.items():
                    for update in self._followers.get(session_id, ()):
                        update.moved_to(revision)

    def _revisions(self, session_ids: list[str]) -> dict[str, int]:
        with self.engine.connect() as connection:
            return store.revisions(connection, session_ids)


class Streams:
    """The event streams a process holds now, counted by client address and by evening (``api.sessions.events``).

    ``open`` takes a place for one more stream unless that would pass a bound (then it says which: ``"address"``,
    ``"evening"`` or ``"worker"``); ``close`` gives it back when the stream's answer is closed, however it ended.
    """

    def __init__(self):
        self._lock = threading.Lock()
        self.total = 0
        self.by_address: dict[str, int] = {}
        self.by_evening: dict[str, int] = {}

    def refusal(self, address: str, session_id: str, bounds: "StreamBounds") -> str | None:
        """The bound one more stream would pass (``"worker"``, ``"address"``, ``"evening"``), else None; takes
        nothing (``api.sessions.stream_gate`` asks before a stream's token is checked)."""
        if self.total >= bounds.per_worker:
            return "worker"
        if self.by_address.get(address, 0) >= bounds.per_address:
            return "address"
        if self.by_evening.get(session_id, 0) >= bounds.per_evening:
            return "evening"
        return None

    def open(self, address: str, session_id: str, bounds: "StreamBounds") -> str | None:
        with self._lock:
            refused = self.refusal(address, session_id, bounds)
            if refused is not None:
                return refused
            self.total += 1
            self.by_address[address] = self.by_address.get(address, 0) + 1
            self.by_evening[session_id] = self.by_evening.get(session_id, 0) + 1
            return None

    def close(self, address: str, session_id: str) -> None:
        with self._lock:
            self.total -= 1
            for counts, key in ((self.by_address, address), (self.by_evening, session_id)):
                counts[key] -= 1
                if not counts[key]:
                    del counts[key]


class StreamBounds(NamedTuple):
    """How many streams one process holds at most: in all, from one address, of one evening."""

    per_worker: int
    per_address: int
    per_evening: int


class Update:
    """Set when a followed session is past ``revision``, the last revision its stream has sent.

    It holds a ``threading.Event`` made when the stream starts, not a subclass
    of one: under gunicorn's gevent worker this module is imported before
    gevent patches ``threading``, and a class derived then would wait on a
    real lock, blocking every request of its worker (measured: a stream's
    wait held its worker for the whole heartbeat).
    """

    def __init__(self, revision: int):
        self.revision = revision
        self._moved = threading.Event()

    def moved_to(self, revision: int) -> None:
        if revision > self.revision:
            self._moved.set()

    def wake(self) -> None:
        self._moved.set()

    def clear(self) -> None:
        self._moved.clear()

    def wait(self, timeout: float) -> bool:
        return self._moved.wait(timeout)


def watcher(app=None) -> Watcher:
    """The ``Watcher`` of ``app`` (default: the current app; one per process)."""
    return (app or current_app).extensions[WATCHER_KEY]


def streams() -> Streams:
    """The current app's ``Streams`` (one per process)."""
    return current_app.extensions[STREAMS_KEY]


class HideTokens(logging.Filter):
    """Keep the stream's ``?token=`` out of request logs (Flask's own server logs every request line).

    >>> record = logging.LogRecord("werkzeug", logging.INFO, "", 0, "%s", ("GET /events?token=abc&after=2",), None)
    >>> HideTokens().filter(record) and record.args
    ('GET /events?token=…&after=2',)
    """

    TOKEN = re.compile(r"([?&]token=)[^&\s\"]*")

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.args, tuple):
            record.args = tuple(self.TOKEN.sub(r"\1…", arg) if isinstance(arg, str) else arg for arg in record.args)
        if isinstance(record.msg, str):
            record.msg = self.TOKEN.sub(r"\1…", record.msg)
        return True


HIDE_TOKENS = HideTokens()


STREAM_DEFAULTS = {
    "EVENTS_PER_ADDRESS": 1000,  # server-wide: a club of 250 tables behind one Wi-Fi address, 4 phones each
    "EVENTS_PER_EVENING": 64,  # server-wide: a table's phones and its watchers, many times over
    "EVENTS_PER_WORKER": 500,  # each process; gunicorn sets half its worker_connections (api.gunicorn_config)
}


def init_app(app) -> None:
    for key, value in STREAM_DEFAULTS.items():
        app.config.setdefault(key, value)
    app.extensions[WATCHER_KEY] = Watcher(get_engine(app))
    app.extensions[STREAMS_KEY] = Streams()
    logging.getLogger("werkzeug").addFilter(HIDE_TOKENS)
