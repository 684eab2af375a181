"""How a change reaches the streams that follow its evening, whatever process or machine wrote it.

Each process has one ``Watcher`` that keeps, per evening its streams follow, the changes sent lately
(each rendered once per script), their revision and the hashes of the tokens that open it now: what is
done once per change is done once per process, not per stream (``benchmarks/club_night.py --live
--floor``). It learns of a change from its own commit (``after_commit``), from PostgreSQL's
notification carrying the change (migrations 0010, 0013), from SQLite's ``changes`` read every
``SQLITE_POLL_S`` (ids follow commit order), and every ``CHECK_S`` from one query of all revisions and
tokens. A stream ends when its token no longer opens the evening: the hashes are read again on new
links, a ``k``/``g`` notification, or that check.
"""
import json
import logging
import re
import sqlite3
import threading
import time
from typing import NamedTuple

from flask import current_app, has_app_context
from sqlalchemy import event
from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.orm import Session as OrmSession
from sqlalchemy.orm import object_session
from sqlalchemy.orm.base import NEVER_SET, NO_VALUE

from api.http.db import get_engine
from ledger import group_store, store

POLL_S = 0.25  # how often a process asks which followed sessions moved, where nothing tells it: a hand shows
# within ≈ this
SQLITE_POLL_S = 0.05  # how often a process reads SQLite's new changes (benchmarks/club_night.py --live --floor)
CHECK_S = 15.0  # how often every followed evening's revision and tokens (its group's too) are read again, and,
# while PostgreSQL's notifications are heard, how often the revisions are polled at all
LISTEN_RETRY_S = 1.0  # after the listening connection failed: poll every POLL_S meanwhile
KEEP = 64  # changes kept per evening for streams that are behind (a stream further behind reads its own)
CHANNEL = "taizhang_live"  # migration 0010's triggers notify it
NOTIFY_BYTES = 8000  # PostgreSQL refuses a payload this long: a change that large is named, not carried (0013)
WATCHER_KEY = "taizhang.watcher"
STREAMS_KEY = "taizhang.streams"
PENDING_KEY = "taizhang.live.pending"

log = logging.getLogger(__name__)


class Change:
    """One change as streams send it; ``texts`` its event rendered for each script, once."""

    __slots__ = ("session_id", "revision", "kind", "data", "texts")

    def __init__(self, session_id: str, revision: int, kind: str, data: dict):
        self.session_id, self.revision, self.kind, self.data = session_id, revision, kind, data
        self.texts: dict[str, str] = {}


class FollowedEvening:
    """What a process knows of one evening its streams follow.

    ``changes`` are the last changes, contiguous, the newest at ``revision``;
    ``keys`` the hashes of the tokens that open it (None: to be read again).
    """

    __slots__ = ("followers", "revision", "changes", "keys", "own_keys", "group_id")

    def __init__(self, revision: int):
        self.followers: set[Follower] = set()
        self.revision = revision
        self.changes: list[Change] = []
        self.keys: frozenset[str] | None = None
        self.own_keys: tuple | None = None  # the evening's own two hashes, as last read
        self.group_id: str | None = None

    def add(self, change: Change) -> bool:
        """Keep ``change`` if it is the next one; whether it was."""
        if change.revision != self.revision + 1:
            return False
        self.changes.append(change)
        if len(self.changes) > KEEP:
            del self.changes[:len(self.changes) - KEEP]
        self.revision = change.revision
        return True

    def wake(self) -> None:
        for follower in self.followers:
            follower.wake()


class Watcher:
    """A process's one watch over the evenings its streams follow: ``follow`` gives a stream a ``Follower``.

    Its greenlets start with the first stream, after gunicorn forks, and read nothing while none follows."""

    def __init__(self, engine, poll_s: float | None = None, check_s: float = CHECK_S):
        """``poll_s``: how often to poll where nothing tells (None: ``SQLITE_POLL_S`` on SQLite, else ``POLL_S``)."""
        self.engine, self.poll_s, self.check_s = engine, poll_s, check_s
        self._lock = threading.Lock()
        self._evenings: dict[str, FollowedEvening] = {}
        self._thread: threading.Thread | None = None
        self._kick: threading.Event | None = None
        self.hearing = False  # PostgreSQL's notifications reach this process now
        self._moved_database = False
        self._own = None  # SQLite: (engine, the watcher's own sqlite3 connection)
        self._observed: frozenset[str] = frozenset()  # evenings whose changes ``_observer`` is told of
        self._observer = None

    # -- streams ------------------------------------------------------------------

    def follow(self, session_id: str, revision: int, after: int, key: str, script: str, render) -> "Follower":
        """Follow ``session_id``, whose revision the stream's request read as ``revision``, from ``after``;
        ``key`` the hash of the stream's token, ``render(change)`` its event text for ``script``."""
        follower = Follower(session_id, after, key, script, render)
        with self._lock:
            evening = self._evenings.get(session_id)
            new = evening is None
            if new:
                evening = self._evenings[session_id] = FollowedEvening(revision)
            evening.followers.add(follower)
            behind = revision > evening.revision
            if self._thread is None:
                self._start()
        if new or behind:
            # A change committed between the request's read and now was told to nobody (new), or the request
            # saw one the process has not heard of yet (behind): read the revisions now, not at the next check.
            self._kick.set()
        return follower

    def unfollow(self, follower: "Follower") -> None:
        with self._lock:
            evening = self._evenings.get(follower.session_id)
            if evening is not None:
                evening.followers.discard(follower)
                if not evening.followers:
                    del self._evenings[follower.session_id]

    def texts(self, follower: "Follower") -> list[str]:
        """The events ``follower`` has not sent yet, rendered, its revision moved past them; reads the database only
        for a stream further behind than the changes kept."""
        with self._lock:
            evening = self._evenings.get(follower.session_id)
            if evening is None or follower.revision >= evening.revision:
                return []
            first = evening.revision - len(evening.changes) + 1
            kept = evening.changes[follower.revision + 1 - first:] if follower.revision + 1 >= first else None
        if kept is None:
            with self.engine.connect() as connection:
                kept = [Change(follower.session_id, *row)
                        for row in store.change_rows_after(connection, follower.session_id, follower.revision)]
            return [self._text(follower, change) for change in kept if follower.revision < change.revision]
        return [self._text(follower, change) for change in kept]

    @staticmethod
    def _text(follower: "Follower", change: Change) -> str:
        text = change.texts.get(follower.script)
        if text is None:
            text = change.texts[follower.script] = follower.render(change)
        follower.revision = change.revision
        return text

    def opens(self, follower: "Follower") -> bool:
        """Whether the follower's token opens its evening now (the hashes read again only when they may have
        changed: see above)."""
        with self._lock:
            evening = self._evenings.get(follower.session_id)
            keys = None if evening is None else evening.keys
        if keys is None:
            keys = self._read_keys([follower.session_id]).get(follower.session_id, frozenset())
        return follower.key in keys

    def _read_keys(self, session_ids: list[str]) -> dict[str, frozenset]:
        """The hashes of the tokens that open each evening (its own two, its group's three), read and kept."""
        with self.engine.connect() as connection:
            found = group_store.evening_keys(connection, session_ids)
        keys = {}
        with self._lock:
            for session_id in session_ids:
                row = found.get(session_id)
                keys[session_id] = frozenset() if row is None else frozenset(
                    hashed for hashed in (row.token_hash, row.read_token_hash, *row.group_hashes) if hashed)
                evening = self._evenings.get(session_id)
                if evening is not None:
                    changed = evening.keys is not None and evening.keys != keys[session_id]
                    evening.keys = keys[session_id]
                    if row is not None:
                        evening.own_keys, evening.group_id = (row.token_hash, row.read_token_hash), row.group_id
                    if changed:
                        evening.wake()
        return keys

    def observe(self, session_ids, told) -> None:
        """Tell ``told(session_id, revision)`` of every change of ``session_ids``, though no stream follows them here
        (a competition's board). ``told`` holds no lock and must not wait; ``told(None, None)``: read them all."""
        with self._lock:
            self._observed, self._observer = frozenset(session_ids), told
            if self._observed and self._thread is None:
                self._start()

    def _tell(self, moved) -> None:
        """Tell the observer of the changes ``moved`` ((session, revision) pairs) of the evenings it observes."""
        observed, told = self._observed, self._observer
        for session_id, revision in moved:
            if session_id in observed or (session_id is None and observed):
                told(session_id, revision)

    # -- what tells the watcher ------------------------------------------------------

    def changed(self, change: Change) -> None:
        """A change this process has just committed: its streams send it now, read from nowhere."""
        self._tell([(change.session_id, change.revision)])
        with self._lock:
            evening = self._evenings.get(change.session_id)
            if evening is None or change.revision <= evening.revision:
                return
            if evening.add(change):
                evening.wake()
                return
        self._kick.set()  # a change of another process came in between: read them in order

    def wake_all(self) -> None:
        """Wake every stream of the process (they find ``Streams.ending`` set and end)."""
        with self._lock:
            followers = [follower for evening in self._evenings.values() for follower in evening.followers]
        for follower in followers:
            follower.wake()

    def wake(self, session_id: str) -> None:
        """The evening's tokens were replaced in this process: its streams check theirs at once."""
        with self._lock:
            evening = self._evenings.get(session_id)
            if evening is not None:
                evening.keys = None
                evening.wake()

    def group_rekeyed(self, group_id: str) -> None:
        """The group's tokens were replaced in this process: the streams of its evenings check theirs now."""
        with self._lock:
            for evening in self._evenings.values():
                if evening.group_id == group_id:
                    evening.keys = None
                    evening.wake()

    def use(self, engine) -> None:
        """Watch the database of ``engine`` from now on (the tests move one app from database to database)."""
        with self._lock:
            self.engine = engine
            self._evenings.clear()
            self._observed = frozenset()
            self._moved_database = True

    # -- the threads ---------------------------------------------------------------------

    def _start(self) -> None:
        """(Holding the lock.) The poller, and on PostgreSQL the listener."""
        self._kick = threading.Event()
        self._thread = threading.Thread(target=self._watch, name="taizhang-watcher", daemon=True)
        self._thread.start()
        if self.engine.dialect.name == "postgresql":
            threading.Thread(target=self._listen, name="taizhang-listener", daemon=True).start()

    def _watch(self) -> None:
        checked = 0.0
        last_change = None  # SQLite: the id of the newest change read
        clock = threading.Event()  # never set: a timer that gevent's patched threading makes a greenlet's
        while True:
            sqlite = self.engine.dialect.name == "sqlite"
            every = self.poll_s if self.poll_s is not None else SQLITE_POLL_S if sqlite else POLL_S
            self._kick.wait(self.check_s if self.hearing else every)
            kicked = self._kick.is_set()
            self._kick.clear()
            with self._lock:
                followed = list(self._evenings)
                if self._moved_database:
                    self._moved_database, last_change = False, None
            if not followed and not self._observed:
                last_change = None  # nobody to tell: start from the newest when somebody follows again
                continue
            now = time.monotonic()
            full = now - checked >= self.check_s
            try:
                if sqlite and last_change is not None and not (full or kicked):
                    last_change = self._read_new_changes(last_change)
                    continue
                if sqlite and last_change is None:
                    last_change = self._read_new_changes(None)
                    self._tell([(None, None)])  # from here on every change is read
                if followed:
                    self._poll(followed)
                if full:
                    checked = now
                    if followed:
                        self._read_keys(followed)
            except (SQLAlchemyError, sqlite3.Error) as error:  # the database is away: the streams wait, we ask again
                log.warning("live updates: cannot read revisions (%s)", type(error).__name__)
                if isinstance(error, sqlite3.Error) and self._own is not None:
                    self._own[1].close()
                    self._own = None
                clock.wait(POLL_S)

    def _read_new_changes(self, last_change: int | None) -> int | None:
        """(SQLite) Keep the changes written since ``last_change`` of the evenings followed; the newest id.
        With None only where to start from (the caller then polls the revisions)."""
        rows = store.changes_since(self._sqlite(), last_change)
        if last_change is None:
            return rows[0][0] if rows else 0
        self._tell([(session_id, revision) for _, session_id, revision, _, _ in rows])
        moved = []
        with self._lock:
            for _, session_id, revision, kind, data in rows:
                evening = self._evenings.get(session_id)
                if evening is None or revision <= evening.revision:
                    continue
                if evening.add(Change(session_id, revision, kind, data)):
                    evening.wake()
                else:  # one came in between that this process has not seen: read them in order
                    moved.append((session_id, evening.revision))
        if moved:
            with self.engine.connect() as connection:
                self._catch_up(connection, moved)
        return rows[-1][0] if rows else last_change

    def _sqlite(self):
        """(SQLite) The watcher's own ``sqlite3`` connection to the database it watches, kept out of the pool."""
        if self._own is None or self._own[0] is not self.engine:
            if self._own is not None:
                self._own[1].close()
            raw = self.engine.raw_connection()
            connection = raw.driver_connection  # (None once detached)
            raw.detach()
            self._own = (self.engine, connection)
        return self._own[1]

    def _poll(self, followed: list[str]) -> None:
        """Read the followed evenings' revisions and own tokens (one query); catch up those that moved."""
        with self.engine.connect() as connection:
            found = store.watched(connection, followed)
            moved, rekeyed = [], []
            with self._lock:
                for session_id, (revision, token_hash, read_token_hash) in found.items():
                    evening = self._evenings.get(session_id)
                    if evening is None:
                        continue
                    if revision > evening.revision:
                        moved.append((session_id, evening.revision))
                    if evening.own_keys is not None and evening.own_keys != (token_hash, read_token_hash):
                        evening.keys = None
                        rekeyed.append(evening)
                for session_id in set(followed) - set(found):  # gone: its streams end
                    evening = self._evenings.get(session_id)
                    if evening is not None and evening.keys:
                        evening.keys = None
                        rekeyed.append(evening)
                for evening in rekeyed:
                    evening.wake()
            self._catch_up(connection, moved)

    def _catch_up(self, connection, moved: list[tuple[str, int]]) -> None:
        """Read the changes of evenings that moved past the revision they were at, keep them, wake their streams."""
        for session_id, revision in moved:
            rows = store.change_rows_after(connection, session_id, revision)
            with self._lock:
                evening = self._evenings.get(session_id)
                if evening is None:
                    continue
                if any([evening.add(Change(session_id, *row)) for row in rows]):
                    evening.wake()

    def _listen(self) -> None:
        """PostgreSQL: hold a connection that listens to ``CHANNEL`` and act on each notification at once.

        ``d`` carries a change whole; ``c`` names one too large to carry (``NOTIFY_BYTES``), read; ``k`` / ``g``
        new links of an evening or a group. While it is down the poller asks every ``POLL_S``."""
        told = False  # said once per outage, not once a second
        while True:
            engine = self.engine
            if engine.dialect.name != "postgresql":  # the tests moved the app to SQLite: nothing to hear
                self.hearing = False
                threading.Event().wait(LISTEN_RETRY_S)
                continue
            try:
                raw = engine.raw_connection()
                connection = raw.driver_connection  # (None once detached)
                raw.detach()  # ours for as long as it listens, outside the pool
                try:
                    connection.rollback()
                    connection.autocommit = True
                    connection.execute("LISTEN taizhang_live")  # CHANNEL, written out
                    self.hearing, told = True, False
                    self._kick.set()  # read once now: what committed before we listened
                    self._tell([(None, None)])
                    while self.engine is engine:
                        for notify in connection.notifies(timeout=CHECK_S):
                            self._heard(notify.payload)
                finally:
                    self.hearing = False
                    connection.close()
            except Exception as error:  # noqa: BLE001 - the database went away: poll meanwhile, listen again
                self.hearing = False
                if not told:
                    log.warning("live updates: not listening to PostgreSQL, polling meanwhile (%s)",
                                type(error).__name__)
                    told = True
                self._kick.set()
                threading.Event().wait(LISTEN_RETRY_S)

    def _heard(self, payload: str) -> None:
        kind, _, rest = payload.partition(" ")
        if kind == "d":
            self._carried(rest)
            return
        if kind == "c":
            session_id, _, revision = rest.rpartition(" ")
            self._tell([(session_id, int(revision))])
            with self._lock:
                evening = self._evenings.get(session_id)
                at = None if evening is None or int(revision) <= evening.revision else evening.revision
            if at is not None:
                with self.engine.connect() as connection:
                    self._catch_up(connection, [(session_id, at)])
            return
        if kind == "g":
            self.group_rekeyed(rest)
        elif kind == "k":
            self.wake(rest)

    def _carried(self, rest: str) -> None:
        """A notification carrying its change: kept and sent without a read when it is the evening's next; after a
        gap the changes since are read in order; one the process has already is dropped before parsing."""
        session_id, revision, kind, data = rest.split(" ", 3)
        revision = int(revision)
        self._tell([(session_id, revision)])
        with self._lock:
            evening = self._evenings.get(session_id)
            if evening is None or revision <= evening.revision:
                return
            if evening.add(Change(session_id, revision, kind, json.loads(data))):
                evening.wake()
                return
            at = evening.revision
        with self.engine.connect() as connection:
            self._catch_up(connection, [(session_id, at)])


class Streams:
    """The event streams a process holds now, counted by client address and by evening.

    ``open`` takes a place unless a bound would pass (then it says which); ``close`` gives it back however
    the stream ended; ``ending``: the server is stopping."""

    def __init__(self):
        self._lock = threading.Lock()
        self.total = 0
        self.by_address: dict[str, int] = {}
        self.by_evening: dict[str, int] = {}
        self.ending = False
        self._wakers: set = set()  # competitions' streams, woken when the server stops

    def wake_on_end(self, waker: "Waker") -> None:
        """Wake ``waker`` when the server stops (a competition's stream, which its Board wakes otherwise)."""
        with self._lock:
            self._wakers.add(waker)
        if self.ending:
            waker.wake()

    def forget(self, waker: "Waker") -> None:
        with self._lock:
            self._wakers.discard(waker)

    def end(self) -> None:
        with self._lock:
            self.ending = True
            wakers = list(self._wakers)
        for waker in wakers:
            waker.wake()

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


class Waker:
    """A stream's wait to be woken. It holds a ``threading.Event`` made when the stream starts, not a subclass:
    this module is imported before gevent patches ``threading``, and a class derived then would block its
    whole worker."""

    __slots__ = ("_woken",)

    def __init__(self):
        self._woken = threading.Event()

    def wake(self) -> None:
        self._woken.set()

    def clear(self) -> None:
        self._woken.clear()

    def wait(self, timeout: float) -> bool:
        return self._woken.wait(timeout)


class Follower(Waker):
    """One stream's place on its evening: the revision it has sent, its token's hash, its script."""

    __slots__ = ("session_id", "revision", "key", "script", "render")

    def __init__(self, session_id: str, revision: int, key: str, script: str, render):
        super().__init__()
        self.session_id, self.revision, self.key, self.script, self.render = session_id, revision, key, script, render


def end_streams(app) -> None:
    """The server is stopping: every stream of this process ends now, not at gunicorn's graceful timeout, which a
    stream open all evening would hold; the browser reconnects on its own (``retry:``)."""
    app.extensions[STREAMS_KEY].end()
    app.extensions[WATCHER_KEY].wake_all()


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
    "EVENTS_PER_WORKER": 500,  # each process; gunicorn sets a share of its worker_connections (api.gunicorn_config)
    "EVENTS_POLL_S": None,  # the watcher's poll where nothing tells it of a change (None: SQLITE_POLL_S, POLL_S;
    # tests set it long to show that something else did)
    "EVENTS_CHECK_S": CHECK_S,  # the watcher's check of every evening's revision and tokens
}


GROUP_KEYS = ("admin_token_hash", "member_token_hash", "read_token_hash")


def keep_for_streams(db: OrmSession, change: Change) -> None:
    """Keep ``change``, just written in ``db``'s transaction (``store.add_change``), until the transaction ends:
    committed, it goes to this process's streams (``_publish``); rolled back, nowhere (``_forget``)."""
    db.info.setdefault(PENDING_KEY, []).append(change)


def keep_until_commit(db: OrmSession, told) -> None:
    """Call ``told()`` once ``db``'s transaction commits, in the app's context; never if it rolls back (a
    competition's board is told of the competition's own changes so: ``api.competitions.events``)."""
    db.info.setdefault(PENDING_KEY, []).append(told)


def _group_rekeyed(target, value, old, initiator) -> None:
    """(a group's token hash set) Keep the group's id until its transaction ends: its evenings' streams check
    their tokens once it commits. Setting the hashes of a new group changes no stream."""
    session = object_session(target)
    if session is not None and target.id is not None and old not in (NO_VALUE, NEVER_SET, None) and value != old:
        session.info.setdefault(PENDING_KEY, []).append(target.id)


def _publish(session) -> None:
    """(``after_commit``) Hand the committed changes to this process's watcher: their streams send them now."""
    pending = session.info.pop(PENDING_KEY, None)
    if pending and has_app_context():
        watcher_ = current_app.extensions.get(WATCHER_KEY)
        if watcher_ is not None:
            for change in pending:
                if isinstance(change, Change):
                    watcher_.changed(change)
                elif callable(change):
                    change()
                else:
                    watcher_.group_rekeyed(change)


def _forget(session) -> None:
    """(``after_rollback``) Nothing was written."""
    session.info.pop(PENDING_KEY, None)


def listen_to_commits() -> None:
    """Every ORM session of the process tells the watcher of the changes it commits (once per process)."""
    if not event.contains(OrmSession, "after_commit", _publish):
        for name in GROUP_KEYS:
            event.listen(getattr(group_store.GroupRow, name), "set", _group_rekeyed, active_history=True)
        event.listen(OrmSession, "after_commit", _publish)
        event.listen(OrmSession, "after_rollback", _forget)


def init_app(app) -> None:
    listen_to_commits()
    for key, value in STREAM_DEFAULTS.items():
        app.config.setdefault(key, value)
    poll_s = app.config["EVENTS_POLL_S"]
    app.extensions[WATCHER_KEY] = Watcher(get_engine(app), poll_s and float(poll_s),
                                        float(app.config["EVENTS_CHECK_S"]))
    app.extensions[STREAMS_KEY] = Streams()
    logging.getLogger("werkzeug").addFilter(HIDE_TOKENS)
