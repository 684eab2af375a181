"""Live updates (API.md: Revisions, conflicts and live updates): ``GET /api/sessions/<id>/events``.

A Server-Sent Events stream of a session's changes, in order, one event per
revision: ``id:`` the revision, ``event:`` its kind (``hand``, ``void``,
``correct``, ``seat``, ``close``, ``reopen``), ``data:`` the change's JSON as
it was written in the change's own transaction (``store.ChangeRow``: the
entry's view, the new state and totals). ``Last-Event-ID`` (which browsers
send when they reconnect) or ``?after=n`` resumes after revision n; without
either the stream starts at the revision the session is at now. The token may
come as ``?token=`` (``EventSource`` sends no headers); the read-only token
is enough. For the same reason the page's language comes as ``?lang=``
(zh-Hant, zh-Hans or en, as for the card and the PDF): pattern names in the
events are in its script; without it, in ``Accept-Language``'s (the browser's own).

How a change reaches a stream whatever process or machine wrote it: each
process has one ``Watcher``, a thread that every ``POLL_S`` reads the
revisions of the sessions its streams follow from the database (one query
for all of them) and wakes the streams of those that moved. A stream then
reads its new changes. The database is the only thing the processes share,
on SQLite and on PostgreSQL alike, so nothing else has to run.
"""
import json
import logging
import re
import threading
import time

from flask import Response, current_app, request
from flask.views import MethodView
from flask_smorest import abort
from sqlalchemy import select
from sqlalchemy.exc import SQLAlchemyError
from sqlmodel import Session

from api.auth import SecuredBlueprint, bearer_token, current_session, opens
from api.db import get_engine
from api.pattern_language import reader_names, renamed
from api.reports import reader_language
from ledger import store
from ledger.store import SessionRow
from reports.words import ACCEPTED

POLL_S = 0.25  # how often a process asks which followed sessions moved: a hand shows within ≈ this
HEARTBEAT_S = 15  # EVENTS_HEARTBEAT_S: a comment line this often keeps proxies from closing an idle stream
# and finds phones that have gone (their next write fails and ends the stream)
RETRY_MS = 1000  # how soon a browser reconnects after the stream drops
STREAM_S = 30 * 60  # EVENTS_STREAM_S: a stream ends after this long, and the browser reconnects where it was
# (Last-Event-ID); so a tab left open for days holds nothing for ever, and a client that reads a stream
# to its end (a script, schemathesis) gets one
WATCHER_KEY = "taizhang.watcher"

log = logging.getLogger(__name__)

blp = SecuredBlueprint("events", __name__, url_prefix="/api/sessions",
                       description="Live updates: a session's changes as Server-Sent Events")


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
            rows = connection.execute(select(SessionRow.id, SessionRow.revision)
                                      .where(SessionRow.id.in_(session_ids)))
            return dict(rows.all())


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

    def clear(self) -> None:
        self._moved.clear()

    def wait(self, timeout: float) -> bool:
        return self._moved.wait(timeout)


def watcher() -> Watcher:
    """The current app's ``Watcher`` (one per process)."""
    return current_app.extensions[WATCHER_KEY]


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


def init_app(app) -> None:
    app.extensions[WATCHER_KEY] = Watcher(get_engine(app))
    logging.getLogger("werkzeug").addFilter(HIDE_TOKENS)


def event_text(change: store.ChangeRow, names: dict[str, str] | None = None) -> str:
    """One Server-Sent Event; pattern named from `names` (``api.pattern_language.reader_names``) if given.

    >>> print(event_text(store.ChangeRow(session_id="s", revision=3, kind="void", data={"revision": 3})), end="")
    id: 3
    event: void
    data: {"revision":3}
    <BLANKLINE>
    """
    data = json.dumps(change.data if names is None else renamed(change.data, names), ensure_ascii=False,
                      separators=(",", ":"))
    return f"id: {change.revision}\nevent: {change.kind}\ndata: {data}\n\n"


@blp.route("/<session_id:session_id>/events")
class Events(MethodView):
    @blp.secured(in_query=True)
    @blp.doc(parameters=[
        {"in": "query", "name": "after", "required": False, "schema": {"type": "integer", "minimum": 0},
         "description": "Resume after this revision (as the Last-Event-ID header does)"},
        {"in": "header", "name": "Last-Event-ID", "required": False, "schema": {"type": "string"},
         "description": "The last revision received; the stream resumes after it"},
        {"in": "query", "name": "lang", "required": False, "schema": {"type": "string", "enum": list(ACCEPTED)},
         "description": "The script of pattern names in the events (EventSource cannot send Accept-Language): "
                        "zh-Hant, zh-Hans or en; by default the reader's Accept-Language, else zh-Hant"}],
        responses={"200": {"description": "Server-Sent Events, one per change: `id:` the revision, `event:` "
                                          "hand, void, correct, seat, close or reopen, `data:` JSON with "
                                          "`revision`, `kind`, `entry` (its view, or null), `state`, `totals`",
                           "content": {"text/event-stream": {"schema": {"type": "string"}}}}})
    def get(self, session_id):
        """Follow the session's changes live (Server-Sent Events), resumable with Last-Event-ID or ``?after=``."""
        session = current_session()
        after = _resume_after(session.revision)
        heartbeat = current_app.config.get("EVENTS_HEARTBEAT_S", HEARTBEAT_S)
        lasting = current_app.config.get("EVENTS_STREAM_S", STREAM_S)
        token = bearer_token(in_query=True)
        names = reader_names(session.ruleset, _stream_language())
        return Response(_stream(get_engine(), watcher(), session_id, token, after, heartbeat, lasting, names),
                        mimetype="text/event-stream", headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"})


def _stream_language() -> str:
    """``?lang=`` when given (refused unless Taizhang speaks it), else the reader's ``Accept-Language``."""
    if request.args.get("lang", ACCEPTED[0]) not in ACCEPTED:
        abort(422, message="lang must be zh-Hant, zh-Hans or en.")
    return reader_language(request.args)


def _resume_after(current: int) -> int:
    """The revision to resume after: ``Last-Event-ID``, else ``?after=``, else the session's revision now."""
    text = request.headers.get("Last-Event-ID") or request.args.get("after")
    if text is None:
        return current
    if not text.strip().isdigit() or len(text.strip()) > 10:
        abort(422, message="Last-Event-ID and after must be a revision: a whole number from 0.")
    return int(text)


def _stream(engine, watcher_: Watcher, session_id: str, token: str, after: int, heartbeat: float,
            lasting: float, names: dict[str, str] | None = None):
    """The stream's text: the changes after ``after``, then each change as the session moves on, for ``lasting`` s.

    Runs after the request's own database session is closed; each read takes
    a connection only while it reads. Each time it wakes (a change, or a
    heartbeat) it ends if ``token`` no longer opens the session: a leaked
    link's stream stops when the table asks for new links.
    """
    update = watcher_.follow(session_id, after)
    ends = time.monotonic() + lasting
    try:
        yield f"retry: {RETRY_MS}\n\n"
        while time.monotonic() < ends:
            update.clear()
            with Session(engine) as db:
                session = db.get(SessionRow, session_id)
                if session is None or not opens(db, token, session):
                    return
                changes = store.changes_after(db, session_id, update.revision)
            for change in changes:
                yield event_text(change, names)
                update.revision = change.revision
            if not update.wait(heartbeat):
                yield ": still here\n\n"
    finally:
        watcher_.unfollow(session_id, update)
