"""A competition live (API.md: Competitions): ``GET /api/competitions/<id>/events``, Server-Sent Events.

Each event is the state, not a step, so a stream that reconnects starts again whole. Standings
computed per stream after every hand would cost 200 spectators seconds of CPU a second: a process's one
``Board`` builds a competition's views once per change (``Built``) for all its streams, told of a hand
by the process's ``api.http.live.Watcher`` as the phones are; what is told during a build is built
together next. Streams are bounded as an evening's, and per competition.
"""
from __future__ import annotations

import functools
import itertools
import json
import logging
import sqlite3
import threading
import time

from flask import Response, current_app, request
from flask.views import MethodView
from flask_smorest import abort
from sqlalchemy import event
from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.orm import object_session
from sqlmodel import Session

from api.competitions.access import READ, CompetitionBlueprint, competition_level
from api.competitions.service import Snapshot
from api.competitions.views import competition_view, standing_view, table_view
from api.http.auth import bearer_token
from api.http.db import get_engine
from api.http.language import say
from api.http.live import CHECK_S, StreamBounds, Streams, Waker, keep_until_commit, streams, watcher
from ledger import competition_store
from ledger.competition import Standing
from ledger.competition_store import CompetitionRow

POLL_S = 1.0  # COMPETITION_POLL_S: how often a followed competition's row is read (its hands are told)
# As an evening's stream (api.sessions.events, a module of routes, which no other module imports):
HEARTBEAT_S = 15  # EVENTS_HEARTBEAT_S
RETRY_MS = 1000
STREAM_RETRY_AFTER_S = 30
STREAM_S = 30 * 60  # EVENTS_STREAM_S
BOARD_KEY = "taizhang.competition_board"
DEFAULTS = {"COMPETITION_POLL_S": POLL_S, "EVENTS_PER_COMPETITION": 1000}
BUILDS = itertools.count()  # each build of the views in this process, whichever Board: what a delta follows

log = logging.getLogger(__name__)

blp = CompetitionBlueprint("competition_events", __name__, url_prefix="/api/competitions",
                           description="A competition live: rounds, tables and standings as Server-Sent Events")


class Board:
    """A process's latest view of each followed competition (``Built``), built once per change for all its
    streams by the Board's own thread, which wakes them (see above)."""

    def __init__(self, engine, poll_s: float, check_s: float, watcher_=None):
        self.engine, self.poll_s, self.check_s, self.watcher = engine, poll_s, check_s, watcher_
        self._lock = threading.Lock()  # what follows, held briefly (a commit tells the Board holding none else)
        self._building = threading.Lock()  # one read and build at a time
        self._latest: dict[str, Built] = {}
        self._checked: dict[str, tuple[float, float]] = {}  # competition: when its row, its evenings were read
        self._followers: dict[str, set[Waker]] = {}
        self._tables: dict[str, list] = {}  # an evening observed: [its competition, the newest revision known]
        self._moved: dict[str, set[str]] = {}  # a competition: its evenings told moved, not yet read ("" itself)
        self._missed: set[str] = set()  # competitions whose every evening is to be read again
        self._observed: frozenset[str] | None = None  # the evenings the watcher was last asked to tell of
        self._kick = threading.Event()  # (made once a request runs: gevent's under gunicorn)
        self._thread: threading.Thread | None = None

    def follow(self, competition_id: str) -> Waker:
        """A stream's place on the competition: woken when a new build of it is ready."""
        waker = Waker()
        with self._lock:
            self._followers.setdefault(competition_id, set()).add(waker)
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="taizhang-board", daemon=True)
                self._thread.start()
        return waker

    def unfollow(self, competition_id: str, waker: Waker) -> None:
        with self._lock:
            followers = self._followers.get(competition_id)
            if followers is not None:
                followers.discard(waker)
                if not followers:
                    del self._followers[competition_id]
                    self._forget(competition_id)
        self._observe()

    def view(self, competition_id: str) -> Built | None:
        """The competition's latest views (``Built``), read now if the process has none yet; None if gone."""
        with self._lock:
            found = self._latest.get(competition_id)
        if found is None:
            with self._building:
                found = self._latest.get(competition_id) or self._refresh(competition_id, None, full=True)
            self._observe()
        return found

    def told(self, session_id: str | None, revision: int | None) -> None:
        """(The watcher) A change of an evening observed: the Board's thread builds its competition again
        (``None``: a change may have been missed, every evening is read again)."""
        if session_id is None:
            with self._lock:
                self._missed.update(self._followers)
            self._kick.set()
            return
        with self._lock:
            known = self._tables.get(session_id)
            if known is None or revision <= known[1]:
                return  # a change already built (this process's commit, then its notification)
            known[1] = revision
            self._moved.setdefault(known[0], set()).add(session_id)
        self._kick.set()

    def competition_moved(self, competition_id: str) -> None:
        """(This process's commit of a competition's change) Its streams are sent the change now."""
        with self._lock:
            if competition_id not in self._followers:
                return
            self._moved.setdefault(competition_id, set()).add("")
        self._kick.set()

    def _run(self) -> None:
        """The Board's thread (a greenlet under gunicorn's gevent): builds what was told, reads the rows."""
        while True:
            self._kick.wait(self.poll_s)
            self._kick.clear()
            now = time.monotonic()
            with self._lock:
                followed, moved, missed = list(self._followers), self._moved, self._missed
                self._moved, self._missed = {}, set()
            for competition_id in followed:
                told = moved.get(competition_id)
                read, whole = self._checked.get(competition_id, (0.0, 0.0))
                if told is None and competition_id not in missed and now - read < self.poll_s:
                    continue
                hearing = self.watcher is None or self.engine.dialect.name == "sqlite" or self.watcher.hearing
                full = not hearing or competition_id in missed or now - whole >= self.check_s
                before = self._latest.get(competition_id)
                try:
                    with self._building:
                        after = self._refresh(competition_id, told, full=full)
                except (SQLAlchemyError, sqlite3.Error) as error:  # the database is away: read again later
                    log.warning("competition live: cannot read (%s)", type(error).__name__)
                    with self._lock:
                        self._moved.setdefault(competition_id, set()).update(told or ())
                        if full:
                            self._missed.add(competition_id)
                    continue
                except Exception:  # noqa: BLE001 - the thread goes on for the other competitions and the next change
                    log.exception("competition live: cannot build %s", competition_id)
                    continue
                if after is not before:
                    self._observe()
                    with self._lock:
                        followers = list(self._followers.get(competition_id, ()))
                    for waker in followers:
                        waker.wake()

    def _refresh(self, competition_id: str, told: set[str] | None, full: bool) -> Built | None:
        """(Building) Read the competition's row and build it again if it moved: its evenings ``told``, or
        with ``full`` whichever moved. The latest ``Built``, None if gone."""
        now = time.monotonic()
        previous = self._latest.get(competition_id)
        with Session(self.engine) as db:
            row = competition_store.find_competition(db, competition_id)
            if row is None:
                with self._lock:
                    self._forget(competition_id)
                return None
            if previous is None or previous.revision != row.revision:
                built, full = Built(Snapshot(db, row), previous), True
            else:
                if full:
                    revisions = competition_store.table_revisions(db, competition_id)
                    moved = {session_id for session_id, revision in revisions.items()
                             if previous.revisions.get(session_id) != revision}
                else:
                    moved = {session_id for session_id in told or () if session_id}
                built, rekeyed = previous, keys(row) != keys(previous.row)
                if moved or rekeyed:
                    snapshot = previous.snapshot.moved(db, row, sorted(moved))
                    if rekeyed or moved_from(previous, snapshot):
                        built = Built(snapshot, previous)
        with self._lock:
            if competition_id in self._followers:  # (not if its last stream ended meanwhile)
                self._latest[competition_id] = built
                self._checked[competition_id] = (now, now if full else self._checked.get(competition_id, (0, 0))[1])
                for session_id, revision in built.revisions.items():
                    known = self._tables.get(session_id)
                    if known is None:
                        self._tables[session_id], self._observed = [competition_id, revision], None
                    else:
                        known[1] = max(known[1], revision)
        return built

    def _forget(self, competition_id: str) -> None:
        """(Holding the lock.) What the Board kept of a competition nobody here follows any more, or gone."""
        self._latest.pop(competition_id, None)
        self._checked.pop(competition_id, None)
        self._moved.pop(competition_id, None)
        for session_id in [s for s, (c, _) in self._tables.items() if c == competition_id]:
            del self._tables[session_id]
            self._observed = None

    def _observe(self) -> None:
        """Have the watcher tell this Board of the changes of every evening of the competitions followed."""
        with self._lock:
            if self._observed is not None or self.watcher is None:
                return
            observed = self._observed = frozenset(self._tables)
        self.watcher.observe(observed, self.told)


def keys(row: CompetitionRow) -> tuple:
    return row.organizer_token_hash, row.read_token_hash


def moved_from(previous: Built, snapshot: Snapshot) -> bool:
    """Whether an evening of ``snapshot`` is at another revision than in ``previous``."""
    return any(previous.revisions.get(session.id) != session.revision for _, session in snapshot.tables)


class Built:
    """One build of a competition's views, each event's text written once for every stream of the process
    (``benchmarks/competition_round.py``): ``opening`` for a new stream, ``delta`` for one that sent the
    build before; the whole competition only when a stream needs it."""

    def __init__(self, snapshot: Snapshot, previous: Built | None):
        row = snapshot.row
        self.snapshot, self.row, self.revision = snapshot, row, row.revision
        same = previous is not None and previous.revision == row.revision
        # What did not move is kept from the build before: each table's view, each entrant's line but its rank.
        views, sessions = (previous.tables, previous._sessions) if same else ({}, {})
        self.revisions, self._sessions, self.tables = {}, {}, {}
        for table, session in snapshot.tables:
            session_id = session.id
            self.revisions[session_id], self._sessions[session_id] = session.revision, session
            self.tables[session_id] = views[session_id] if sessions.get(session_id) is session \
                else {"round": table.round, **table_view(table, session, None)}
        self.id = f"{row.revision}.{sum(self.revisions.values())}"
        self.build, self.after = next(BUILDS), None if previous is None else previous.build
        names = {entrant.number: entrant.name for entrant in snapshot.entrants}
        self.standings, self._lines = standings_text(snapshot.standings(), names, previous._lines if same else {})
        self._written: dict[tuple[str, str | None], bytes] = {}
        self.delta = self.opening if previous is None else self.texts(previous)

    @functools.cached_property
    def round(self) -> dict:
        return competition_view(self.snapshot, READ)

    @functools.cached_property
    def opening(self) -> bytes:
        return self.texts(None)

    def texts(self, last: Built | None) -> bytes:
        """The events that bring a stream from ``last`` (None: nothing sent yet) here, each written once."""
        found = []
        for kind, key, data in _changes(last, self):
            text = self._written.get((kind, key))
            if text is None:
                text = self._written[(kind, key)] = written_event(self.id, kind, data()).encode()
            found.append(text)
        return b"".join(found)


@blp.record_once
def _settings(state) -> None:
    for key, value in DEFAULTS.items():
        state.app.config.setdefault(key, value)
    if not event.contains(CompetitionRow.revision, "set", _competition_moved):
        event.listen(CompetitionRow.revision, "set", _competition_moved)


def board(app=None) -> Board:
    app = app or current_app
    found = app.extensions.get(BOARD_KEY)
    if found is None or found.engine is not get_engine(app):
        found = app.extensions[BOARD_KEY] = Board(get_engine(app), float(app.config["COMPETITION_POLL_S"]),
                                                  float(app.config.get("EVENTS_CHECK_S", CHECK_S)), watcher(app))
    return found


def _competition_moved(target, value, old, initiator) -> None:
    """(A competition's revision set) Once the transaction commits, this process's Board sends the change."""
    session = object_session(target)
    if session is not None and target.id is not None:
        keep_until_commit(session, functools.partial(_tell_board, target.id))


def _tell_board(competition_id: str) -> None:
    found = current_app.extensions.get(BOARD_KEY)
    if found is not None:
        found.competition_moved(competition_id)


def event_text(event_id: str, kind: str, data) -> str:
    """One Server-Sent Event.

    >>> print(event_text("3.10", "table", {"table": 1}), end="")
    id: 3.10
    event: table
    data: {"table":1}
    <BLANKLINE>
    """
    return written_event(event_id, kind, compact(data))


def written_event(event_id: str, kind: str, text: str) -> str:
    """One Server-Sent Event of data written already (``text``: its JSON)."""
    return f"id: {event_id}\nevent: {kind}\ndata: {text}\n\n"


def compact(data) -> str:
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"))


def standings_text(found: list[Standing], names: dict[int, str], kept: dict) -> tuple[str, dict]:
    """The standings' JSON as ``compact(standings_view(found, names))`` writes it, and the lines written for it.

    After a hand only its table's four entrants' lines change but the ranks of many: each entrant's line is
    written apart from its rank, and the one written for the build before (``kept``) again while its lines
    and points are the very objects they were (``competition.rank_entrants`` keeps an unmoved table's lines; the
    objects are kept alive with the text, so that their ids stay theirs)."""
    lines, parts = {}, []
    for row in found:
        key = (row.entrant, row.net, row.withdrawn, id(row.points), *map(id, row.rounds))
        written = lines[key] = kept.get(key) or (*_written_apart(standing_view(row, names)), row.points, row.rounds)
        parts.append(f"{written[0]}{row.rank}{written[1]}")
    return f"[{','.join(parts)}]", lines


def _written_apart(view: dict) -> tuple[str, str]:
    """An entrant's line as JSON before and after its rank (``standing_view`` puts it third)."""
    view.pop("rank")
    head = {"entrant": view.pop("entrant"), "name": view.pop("name")}
    return f"{compact(head)[:-1]},\"rank\":", f",{compact(view)[1:]}"


@blp.route("/<competition_id:competition_id>/events")
class Events(MethodView):
    @blp.competition_token(in_query=True)
    @blp.doc(responses={"200": {
        "description": "Server-Sent Events: `round` (the competition, as GET shows it), `table` (one table's "
                       "progress: `round` and the table), `standings` (as GET …/standings); `round` and "
                       "`standings` first, then as things change",
        "content": {"text/event-stream": {"schema": {"type": "string"}}}}})
    def get(self, competition_id):
        """Follow the competition live (Server-Sent Events): its rounds, each table's progress, the standings."""
        config = current_app.config
        token = bearer_token(in_query=True)
        address = request.remote_addr or "unknown"
        processes = max(1, int(config.get("RATE_LIMIT_PROCESSES", 1)))
        bounds = StreamBounds(int(config["EVENTS_PER_WORKER"]), max(1, config["EVENTS_PER_ADDRESS"] // processes),
                              max(1, config["EVENTS_PER_COMPETITION"] // processes))
        refused = streams().open(address, competition_id, bounds)
        retry = {"Retry-After": str(STREAM_RETRY_AFTER_S)}
        if refused == "worker":
            abort(503, message=say("streams_full", seconds=STREAM_RETRY_AFTER_S), headers=retry)
        if refused == "address":
            abort(429, message=say("streams_address", maximum=config["EVENTS_PER_ADDRESS"],
                                   seconds=STREAM_RETRY_AFTER_S), headers=retry)
        if refused == "evening":  # (Streams counts a competition's streams where it counts an evening's)
            abort(429, message=say("streams_competition", maximum=config["EVENTS_PER_COMPETITION"],
                                   seconds=STREAM_RETRY_AFTER_S), headers=retry)
        heartbeat = config.get("EVENTS_HEARTBEAT_S", HEARTBEAT_S)
        lasting = config.get("EVENTS_STREAM_S", STREAM_S)
        places = streams()
        response = Response(_stream(board(), places, competition_id, token, heartbeat, lasting),
                            mimetype="text/event-stream",
                            headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"})
        response.call_on_close(lambda: places.close(address, competition_id))
        return response


def _stream(board_: Board, places: Streams, competition_id: str, token: str, heartbeat: float, lasting: float):
    """The stream's text: the whole competition and standings, then what changes (the Board wakes it), for
    ``lasting`` s or until the server stops."""
    waker = board_.follow(competition_id)
    places.wake_on_end(waker)
    ends = time.monotonic() + lasting
    last = None
    try:
        yield f"retry: {RETRY_MS}\n\n"
        while time.monotonic() < ends:
            waker.clear()
            if places.ending:  # (read after the clear: the stop sets it before it wakes)
                return
            payload = board_.view(competition_id)
            if payload is None or competition_level(token, payload.row) is None:
                return
            text = _texts_since(last, payload)
            if text:
                yield text
            last = payload
            if not waker.wait(heartbeat):
                yield ": still here\n\n"
    finally:
        places.forget(waker)
        board_.unfollow(competition_id, waker)


def _texts_since(last: Built | None, now: Built) -> bytes:
    """What a stream that sent ``last`` sends of ``now``: what the Board wrote once for every stream (a stream
    that missed a build in between, having slept past one, gets its own join of the same texts)."""
    if last is now:
        return b""
    if last is None:
        return now.opening
    if last.build == now.after:
        return now.delta
    return now.texts(last)


def _changes(last: Built | None, now: Built):
    """The events that bring a stream from ``last`` (None: nothing sent yet) to ``now``: (kind, which, how to
    write its data)."""
    if last is now:
        return
    if last is None or last.revision != now.revision:
        yield "round", None, lambda: compact(now.round)
    if last is not None:
        for session_id, table in now.tables.items():
            if last.tables.get(session_id) is not table and last.tables.get(session_id) != table:
                yield "table", session_id, lambda table=table: compact(table)
    if last is None or last.standings != now.standings:
        yield "standings", None, lambda: now.standings
