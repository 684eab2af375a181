"""A competition live (API.md: Competitions): ``GET /api/competitions/<id>/events``, Server-Sent Events.

What the wall and spectators follow: ``event: round`` (the competition as ``GET …/<id>`` shows it to the
read-only token: entrants, rounds, clocks, tables), sent first and whenever the competition itself
changes (entrants, a draw, a clock: its ``revision``); ``event: table`` (one table's progress: ``round`` and the table as in
``round.drawn[].tables[]``) whenever a table's evening moves (a hand, a void, a correction, its closing);
``event: standings`` (as ``GET …/standings``), first and after any of these. ``id:`` is
``<competition revision>.<sum of its tables' revisions>``; a stream that reconnects starts again with the
whole ``round`` and ``standings`` (there is nothing to resume: each event is the state, not a step).
The token may come as ``?token=`` (``EventSource`` sends no headers); either of the competition's tokens.

**Sharing.** The standings of 800 entrants take about 0.1 s (``benchmarks/competition.py``): computed per
stream after every hand, 200 spectators would need 20 s of CPU a second. A process instead reads the
competition at most once per ``COMPETITION_POLL_S`` (1 s: a hand reaches the wall within about that) and
only when its revisions moved builds the views once (``Board``), and writes their events once, which every
stream of the process then sends. Streams are bounded as an evening's are (``api.sessions.events``): per process, per address,
and ``EVENTS_PER_COMPETITION`` per competition.
"""
from __future__ import annotations

import functools
import itertools
import json
import threading
import time

from flask import Response, current_app, request
from flask.views import MethodView
from flask_smorest import abort
from sqlmodel import Session

from api.competitions.access import READ, CompetitionBlueprint, competition_level
from api.competitions.service import Snapshot
from api.competitions.views import competition_view, standings_view, table_view
from api.http.auth import bearer_token
from api.http.db import get_engine
from api.http.language import say
from api.sessions.live import StreamBounds, Streams, streams
from ledger import competition_store

POLL_S = 1.0  # COMPETITION_POLL_S
# As an evening's stream (api.sessions.events, a module of routes, which no other module imports):
HEARTBEAT_S = 15  # EVENTS_HEARTBEAT_S
RETRY_MS = 1000
STREAM_RETRY_AFTER_S = 30
STREAM_S = 30 * 60  # EVENTS_STREAM_S
BOARD_KEY = "taizhang.competition_board"
DEFAULTS = {"COMPETITION_POLL_S": POLL_S, "EVENTS_PER_COMPETITION": 1000}
BUILDS = itertools.count()  # each build of the views in this process, whichever Board: what a delta follows

blp = CompetitionBlueprint("competition_events", __name__, url_prefix="/api/competitions",
                           description="A competition live: rounds, tables and standings as Server-Sent Events")


class Board:
    """A process's latest view of each followed competition, read at most once per poll and built once per
    change, for all its streams."""

    def __init__(self, engine, poll_s: float):
        self.engine, self.poll_s = engine, poll_s
        self._lock = threading.Lock()
        self._latest: dict[str, tuple[float, tuple, Built | None]] = {}

    def view(self, competition_id: str) -> Built | None:
        """The competition's views as of at most one poll ago (``Built``); None if gone."""
        with self._lock:
            checked, key, payload = self._latest.get(competition_id, (0.0, None, None))
            if time.monotonic() - checked < self.poll_s and key is not None:
                return payload
            with Session(self.engine) as db:
                row = competition_store.find_competition(db, competition_id)
                if row is None:
                    self._latest.pop(competition_id, None)
                    return None
                revisions = competition_store.table_revisions(db, competition_id)
                fresh = (row.revision, row.organizer_token_hash, row.read_token_hash, tuple(sorted(revisions.items())))
                if fresh != key:
                    payload = self._build(db, row, revisions, payload)
            self._latest[competition_id] = (time.monotonic(), fresh, payload)
            return payload

    @staticmethod
    def _build(db, row, revisions: dict[str, int], previous: Built | None) -> Built:
        """The views of the competition now. While the competition itself has not changed (its revision: entrants,
        rounds, clocks), only the evenings that moved are read again (``Snapshot.moved``): reading 800 entrants
        and 200 evenings whole every second was a fifth of the workers' samples, 200 spectators following and a
        hand every second (``benchmarks/competition_round.py``)."""
        if previous is not None and previous.revision == row.revision:
            moved = [session_id for session_id, revision in revisions.items()
                     if previous.revisions.get(session_id) != revision]
            snapshot = previous.snapshot.moved(db, row, moved)
        else:
            snapshot = Snapshot(db, row)
        return Built(snapshot, revisions, previous)


class Built:
    """One build of a competition's views, and the text of its events, each written once for every stream of
    the process: written per stream, the standings of 800 entrants (230 KB of JSON) took 62% of the workers'
    samples with 200 spectators following (``benchmarks/competition_round.py``). ``opening`` is what a new
    stream sends, ``delta`` what one that sent the build before sends; the whole competition (``round``,
    the read-only token's view) is made only when a stream needs it: when it opens, or the competition changed.
    """

    def __init__(self, snapshot: Snapshot, revisions: dict[str, int], previous: Built | None):
        row = snapshot.row
        self.snapshot, self.row, self.revision, self.revisions = snapshot, row, row.revision, revisions
        self.id = f"{row.revision}.{sum(revisions.values())}"
        self.build, self.after = next(BUILDS), None if previous is None else previous.build
        names = {entrant.number: entrant.name for entrant in snapshot.entrants}
        self.tables = {session.id: {"round": table.round, **table_view(table, session, None)}
                       for table, session in snapshot.tables}
        self.standings = standings_view(snapshot.standings(), names)
        self._written: dict[tuple[str, str | None], bytes] = {}
        self.delta = self.opening if previous is None else self.texts(previous)

    @functools.cached_property
    def round(self) -> dict:
        return competition_view(self.snapshot, READ)

    @functools.cached_property
    def opening(self) -> list[bytes]:
        return self.texts(None)

    def texts(self, last: Built | None) -> list[bytes]:
        """The events that bring a stream from ``last`` (None: nothing sent yet) here, each written once."""
        found = []
        for kind, key, data in _changes(last, self):
            text = self._written.get((kind, key))
            if text is None:
                text = self._written[(kind, key)] = event_text(self.id, kind, data()).encode()
            found.append(text)
        return found


@blp.record_once
def _settings(state) -> None:
    for key, value in DEFAULTS.items():
        state.app.config.setdefault(key, value)


def board(app=None) -> Board:
    app = app or current_app
    found = app.extensions.get(BOARD_KEY)
    if found is None or found.engine is not get_engine(app):
        found = app.extensions[BOARD_KEY] = Board(get_engine(app), float(app.config["COMPETITION_POLL_S"]))
    return found


def event_text(event_id: str, kind: str, data) -> str:
    """One Server-Sent Event.

    >>> print(event_text("3.10", "table", {"table": 1}), end="")
    id: 3.10
    event: table
    data: {"table":1}
    <BLANKLINE>
    """
    return f"id: {event_id}\nevent: {kind}\ndata: {json.dumps(data, ensure_ascii=False, separators=(',', ':'))}\n\n"


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
    """The stream's text: the whole competition and standings, then what changes, for ``lasting`` s or until the
    server stops."""
    ends = time.monotonic() + lasting
    last, quiet = None, 0.0
    yield f"retry: {RETRY_MS}\n\n"
    while time.monotonic() < ends and not places.ending:
        payload = board_.view(competition_id)
        if payload is None or competition_level(token, payload.row) is None:
            return
        sent = False
        for text in _texts_since(last, payload):
            yield text
            sent = True
        last = payload
        quiet = 0.0 if sent else quiet + board_.poll_s
        if quiet >= heartbeat:
            yield ": still here\n\n"
            quiet = 0.0
        places.sleep(board_.poll_s)


def _texts_since(last: Built | None, now: Built) -> list[bytes]:
    """What a stream that sent ``last`` sends of ``now``: what the Board wrote once for every stream (a stream
    that missed a build in between, having slept past one, gets its own list of the same texts)."""
    if last is now:
        return []
    if last is None:
        return now.opening
    if last.build == now.after:
        return now.delta
    return now.texts(last)


def _changes(last: Built | None, now: Built):
    """The events that bring a stream from ``last`` (None: nothing sent yet) to ``now``: (kind, which, how to
    make its data)."""
    if last is now:
        return
    if last is None or last.revision != now.revision:
        yield "round", None, lambda: now.round
    if last is not None:
        for session_id, table in now.tables.items():
            if last.tables.get(session_id) != table:
                yield "table", session_id, lambda table=table: table
    if last is None or last.standings != now.standings:
        yield "standings", None, lambda: now.standings
