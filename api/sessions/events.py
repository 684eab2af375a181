"""Live updates (API.md: Revisions, conflicts and live updates): ``GET /api/sessions/<id>/events``.

Server-Sent Events, one per revision, as written in the change's own transaction; ``Last-Event-ID`` or
``?after=n`` resumes; ``EventSource`` sends no headers, so token and language come in the query. Streams
are bounded per worker (the rest of its connections serve requests), per address and per evening, and
refused before they start; a place is given back on ``call_on_close`` (a stream never begun has run no
``finally``). How a change reaches a stream from any process: ``api.http.live``.
"""
import json
import random
import time

from flask import Response, current_app, request
from flask.views import MethodView
from flask_smorest import abort

from api.http.auth import SecuredBlueprint, bearer_token, current_session, token_hash
from api.http.fields import ROW_ID_MAX
from api.http.language import reader_language, reader_names, renamed, request_language, say
from api.http.live import Streams, Watcher, streams, watcher
from api.sessions.stream_gate import RETRY_AFTER_S, refusal_words, stream_bounds
from ledger import store  # noqa: F401 (the doctests use it)
from words import ACCEPTED, ENGLISH

HEARTBEAT_S = 15  # EVENTS_HEARTBEAT_S: a comment line this often keeps proxies from closing an idle stream
# and finds phones that have gone (their next write fails and ends the stream)
RETRY_MS = 1000  # how soon a browser reconnects after the stream drops
STREAM_S = 30 * 60  # EVENTS_STREAM_S: a stream ends after this long, and the browser reconnects where it was
# (Last-Event-ID); so a tab left open for days holds nothing for ever, and a client that reads a stream
# to its end (a script, schemathesis) gets one

blp = SecuredBlueprint("events", __name__, url_prefix="/api/sessions",
                       description="Live updates: a session's changes as Server-Sent Events")


def change_event(change, names: dict[str, str] | None = None) -> str:
    """One Server-Sent Event of ``change``; patterns named from `names` if given.

    >>> print(change_event(store.ChangeRow(session_id="s", revision=3, kind="void", data={"revision": 3})), end="")
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
                                          "hand, void, correct, seat, close, reopen, house_rules or round "
                                          "(a competition's round started: read the evening again for its "
                                          "clock), `data:` JSON with "
                                          "`revision`, `kind`, `entry` (its view, or null), `state`, `totals`",
                           "content": {"text/event-stream": {"schema": {"type": "string"}}}}})
    def get(self, session_id):
        """Follow the session's changes live (Server-Sent Events), resumable with Last-Event-ID or ``?after=``."""
        session = current_session()
        after = _resume_after(session.revision)
        heartbeat = current_app.config.get("EVENTS_HEARTBEAT_S", HEARTBEAT_S)
        lasting = current_app.config.get("EVENTS_STREAM_S", STREAM_S)
        token = bearer_token(in_query=True)
        language = _stream_language()
        names = reader_names(session.ruleset, language)
        address = request.remote_addr or "unknown"
        _take_place(address, session_id)
        places = streams()  # (closed after the request, outside its app context)
        response = Response(_stream(watcher(), places, session_id, session.revision, token, after, heartbeat,
                                    lasting, "names" if names else "stored", names),
                            mimetype="text/event-stream",
                            headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"})
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


def _stream(watcher_: Watcher, places: Streams, session_id: str, revision: int, token: str, after: int,
            heartbeat: float, lasting: float, script: str, names: dict[str, str] | None = None):
    """The stream's text: the changes after ``after``, then each as the session moves on, for ``lasting`` s.

    Reads nothing itself: the process's ``Watcher`` hands it each change rendered once per script, and says
    at each wake whether its token still opens the session (a leaked link's stream stops on new links)."""
    follower = watcher_.follow(session_id, revision, after, token_hash(token), script,
                               lambda change: change_event(change, names))
    ends = time.monotonic() + lasting
    # The first heartbeat comes after a random part of the interval: streams opened together (a club's phones
    # as the evening starts, every phone after a restart) would otherwise all beat at once every interval, and
    # a burst of heartbeats held a worker's requests (benchmarks/club_night.py --live).
    wait = heartbeat * random.uniform(0.5, 1.0)
    try:
        yield f"retry: {RETRY_MS}\n\n"
        while time.monotonic() < ends:
            follower.clear()
            if places.ending or not watcher_.opens(follower):
                return
            yield from watcher_.texts(follower)
            if not follower.wait(wait):
                yield ": still here\n\n"
            wait = heartbeat
    finally:
        watcher_.unfollow(follower)
