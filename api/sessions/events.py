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

How a change reaches a stream whatever process or machine wrote it: ``api.sessions.live``.

**Bounds** (issue 27: 2,000 streams from one address, some on an evening the
attacker created anonymously, took every connection of both workers; an
honest table recorded 5 hands in 50 s). A process holds at most
``EVENTS_PER_WORKER`` streams (gunicorn: half its ``worker_connections``, so
the other half always serves requests), and its share (the setting divided
by the workers, as for rate limits) of ``EVENTS_PER_ADDRESS`` from one client
address and of ``EVENTS_PER_EVENING`` of one evening. One more is refused
before it starts, after its token is checked: 429 (address, evening) or 503
(the worker is full) with ``Retry-After``, in the reader's language; the
browser's ``EventSource`` gives up on such an answer and the page says the
live view has stopped (the page still works by its own requests). Most
refusals are answered before all that, by ``api.sessions.stream_gate``. A stream's
place is given back when its answer is closed, however it ended
(``call_on_close``: a stream never begun has run no ``finally``).
``benchmarks/abuse.py`` measures the honest table under such a flood.
"""
import json
import time

from flask import Response, current_app, request
from flask.views import MethodView
from flask_smorest import abort
from sqlmodel import Session

from api.http.auth import SecuredBlueprint, bearer_token, current_session, opens
from api.http.db import get_engine
from api.http.fields import ROW_ID_MAX
from api.http.language import reader_language, reader_names, renamed, request_language, say
from api.sessions.live import Watcher, streams, watcher
from api.sessions.stream_gate import RETRY_AFTER_S, refusal_words, stream_bounds
from ledger import store
from words import ACCEPTED, ENGLISH

HEARTBEAT_S = 15  # EVENTS_HEARTBEAT_S: a comment line this often keeps proxies from closing an idle stream
# and finds phones that have gone (their next write fails and ends the stream)
RETRY_MS = 1000  # how soon a browser reconnects after the stream drops
STREAM_S = 30 * 60  # EVENTS_STREAM_S: a stream ends after this long, and the browser reconnects where it was
# (Last-Event-ID); so a tab left open for days holds nothing for ever, and a client that reads a stream
# to its end (a script, schemathesis) gets one

blp = SecuredBlueprint("events", __name__, url_prefix="/api/sessions",
                       description="Live updates: a session's changes as Server-Sent Events")


def event_text(change: store.ChangeRow, names: dict[str, str] | None = None) -> str:
    """One Server-Sent Event; pattern named from `names` (``api.http.language.reader_names``) if given.

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
        address = request.remote_addr or "unknown"
        _take_place(address, session_id)
        response = Response(_stream(get_engine(), watcher(), session_id, token, after, heartbeat, lasting, names),
                            mimetype="text/event-stream",
                            headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"})
        places = streams()  # (closed after the request, outside its app context)
        response.call_on_close(lambda: places.close(address, session_id))
        return response


def _take_place(address: str, session_id: str) -> None:
    """A place for one more stream of ``session_id`` from ``address`` in this process, or 429/503 (see above;
    most refusals are answered before the token by ``api.sessions.stream_gate``)."""
    config = current_app.config
    refused = streams().open(address, session_id, stream_bounds(config))
    if refused is not None:
        status, _, message = refusal_words(refused, config, request_language(ENGLISH))
        abort(status, message=message, headers={"Retry-After": str(RETRY_AFTER_S)})


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
    text = text.strip()
    # ASCII digits only ("²".isdigit() is true); revisions live in a 32-bit column (a larger one was a 500 on
    # PostgreSQL once the stream had begun: tests/api/http/test_parameters.py)
    if not (text.isascii() and text.isdigit()) or len(text) > 10 or int(text) > ROW_ID_MAX:
        abort(422, message=say("resume_after", maximum=ROW_ID_MAX), field="after")
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
                session = store.find_session(db, session_id)
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
