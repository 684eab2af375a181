"""The floor of ``club_night.py --live``: the least a server must do for live tables, under the same gunicorn.

Not Taizhang and no model of it: a measure. What a hand costs Taizhang is
only meaningful beside what it costs anything that stores it durably and
tells the table's other phones, on the same machine in the same minutes
(``club_night.py`` runs the two interleaved, A, B, A, B, A, B). This app
serves the same URL shapes as the product, so the same client drives it:

- ``POST /api/sessions``: a session (an id, a write and a read token, their SHA-256 kept);
- ``POST …/hands``, ``DELETE …/hands/<n>``, ``PUT …/hands/<n>``: one transaction each, the least a durable
  store must do: on SQLite (WAL, ``synchronous=FULL``) ``BEGIN IMMEDIATE``, an ``UPDATE`` of the session's
  revision (its token and ``If-Match`` checked in its ``WHERE``), an ``INSERT`` of the change with the
  hand's body as its data, ``COMMIT``; on PostgreSQL the same after ``SELECT … FOR UPDATE``. ``201``/``200``
  with ``ETag``; 412 for a stale ``If-Match``;
- ``GET /api/sessions/<id>``: the session's row as JSON, its token checked;
- ``GET …/events?token=&after=``: Server-Sent Events with the same one-watcher-per-process design: the
  token checked once as the stream opens; a commit in the process wakes its streams; on PostgreSQL a
  trigger notifies the other processes (``LISTEN``), on SQLite one thread per process polls the followed
  sessions' revisions every 0.25 s; a woken stream reads its new changes (one ``SELECT``) and sends
  them; a heartbeat every 15 s reads nothing.

No ORM, no schema validation, no scoring, no per-language rendering: those are what Taizhang adds.
Run by ``club_night.py --live`` as ``gunicorn -c python:api.gunicorn_config 'benchmarks.floor:create_app()'``.
"""
from __future__ import annotations

import hashlib
import json
import os
import queue
import secrets
import sqlite3
import threading
import time

from flask import Flask, Response, request

POLL_S = 0.25
HEARTBEAT_S = 15
CHANNEL = "floor_live"
POOL = 16

SQLITE_SCHEMA = [
    "CREATE TABLE IF NOT EXISTS sessions (id TEXT PRIMARY KEY, token_hash TEXT NOT NULL, read_hash TEXT NOT NULL,"
    " revision INTEGER NOT NULL, hands INTEGER NOT NULL)",
    "CREATE TABLE IF NOT EXISTS changes (id INTEGER PRIMARY KEY, session_id TEXT NOT NULL REFERENCES sessions(id),"
    " revision INTEGER NOT NULL, kind TEXT NOT NULL, data TEXT NOT NULL, UNIQUE (session_id, revision))",
]
POSTGRESQL_SCHEMA = [
    "CREATE TABLE IF NOT EXISTS sessions (id TEXT PRIMARY KEY, token_hash TEXT NOT NULL, read_hash TEXT NOT NULL,"
    " revision INTEGER NOT NULL, hands INTEGER NOT NULL)",
    "CREATE TABLE IF NOT EXISTS changes (id BIGSERIAL PRIMARY KEY, session_id TEXT NOT NULL REFERENCES sessions(id),"
    " revision INTEGER NOT NULL, kind TEXT NOT NULL, data TEXT NOT NULL, UNIQUE (session_id, revision))",
    f"CREATE OR REPLACE FUNCTION floor_notify() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN "
    f"PERFORM pg_notify('{CHANNEL}', NEW.session_id || ' ' || NEW.revision); RETURN NULL; END $$",
    "DROP TRIGGER IF EXISTS floor_notify ON changes",
    "CREATE TRIGGER floor_notify AFTER INSERT ON changes FOR EACH ROW EXECUTE FUNCTION floor_notify()",
]


def hashed(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


class Store:
    """A pool of plain DB-API connections (sqlite3 or psycopg) and the few statements the floor runs."""

    def __init__(self, url: str):
        self.url = url
        self.postgresql = url.startswith("postgresql")
        self.mark = "%s" if self.postgresql else "?"
        self.pool: queue.LifoQueue | None = None
        with self.connection() as db:
            if self.postgresql:  # the workers start at once: one makes the schema, the others find it made
                self.run(db, "SELECT pg_advisory_xact_lock(2028)")
            else:
                self.run(db, "BEGIN IMMEDIATE")
            for statement in POSTGRESQL_SCHEMA if self.postgresql else SQLITE_SCHEMA:
                self.run(db, statement)
            self.end(db, commit=True)

    def connect(self):
        if self.postgresql:
            import psycopg

            return psycopg.connect(self.url.replace("postgresql+psycopg://", "postgresql://"))
        db = sqlite3.connect(self.url.removeprefix("sqlite:///"), isolation_level=None, check_same_thread=False,
                             timeout=5)
        db.execute("PRAGMA journal_mode=WAL")
        db.execute("PRAGMA synchronous=FULL")
        return db

    def connection(self):
        store = self

        class Lease:
            def __enter__(self):
                if store.pool is None:
                    store.pool = queue.LifoQueue()  # made in the worker, after gevent patched queue
                    for _ in range(POOL):
                        store.pool.put(None)
                held = store.pool.get()
                self.db = held if held is not None else store.connect()
                return self.db

            def __exit__(self, kind, error, trace):
                if kind is not None:
                    try:
                        self.db.rollback() if store.postgresql else self.db.execute("ROLLBACK")
                    except Exception:  # noqa: BLE001 - nothing was open
                        pass
                store.pool.put(self.db)

        return Lease()

    def run(self, db, statement: str, *parameters):
        return db.execute(statement.replace("?", self.mark), parameters)

    def change(self, session_id: str, token: str, expected: int | None, kind: str, data: dict,
               number: int | None) -> tuple[int, int, int]:
        """(status, revision, hand number): one durable transaction."""
        with self.connection() as db:
            if self.postgresql:
                row = self.run(db, "SELECT revision, token_hash FROM sessions WHERE id = ? FOR UPDATE",
                               session_id).fetchone()
            else:
                self.run(db, "BEGIN IMMEDIATE")
                row = self.run(db, "SELECT revision, token_hash FROM sessions WHERE id = ?", session_id).fetchone()
            if row is None or row[1] != hashed(token) or (expected is not None and expected != row[0]):
                self.end(db, commit=False)
                return (404 if row is None else 403 if row[1] != hashed(token) else 412), 0, 0
            revision, hands = self.run(db, "UPDATE sessions SET revision = revision + 1, hands = hands + ? "
                                           "WHERE id = ? RETURNING revision, hands",
                                       1 if number is None else 0, session_id).fetchone()
            data = {"revision": revision, "kind": kind, "entry": {**data, "number": number or hands}}
            self.run(db, "INSERT INTO changes (session_id, revision, kind, data) VALUES (?, ?, ?, ?)",
                     session_id, revision, kind, json.dumps(data))
            self.end(db, commit=True)
            return (201 if number is None else 200), revision, number or hands

    def end(self, db, commit: bool) -> None:
        if self.postgresql:
            db.commit() if commit else db.rollback()
        else:
            self.run(db, "COMMIT" if commit else "ROLLBACK")


class Watcher:
    """One per process: wakes the streams of sessions that moved (in-process commit, NOTIFY, or the poll)."""

    def __init__(self, store: Store):
        self.store = store
        self.lock = threading.Lock()
        self.followers: dict[str, set] = {}
        self.known: dict[str, int] = {}  # the poll's last revision of each session (a new follower's, at first)
        self.started = False

    def follow(self, session_id: str, event, revision: int) -> None:
        with self.lock:
            self.followers.setdefault(session_id, set()).add(event)
            self.known[session_id] = min(self.known.get(session_id, revision), revision)
            if not self.started:
                self.started = True
                threading.Thread(target=self.listen if self.store.postgresql else self.poll, daemon=True).start()

    def unfollow(self, session_id: str, event) -> None:
        with self.lock:
            events = self.followers.get(session_id, set())
            events.discard(event)
            if not events:
                self.followers.pop(session_id, None)

    def wake(self, session_id: str) -> None:
        with self.lock:
            for event in self.followers.get(session_id, ()):
                event.set()

    def poll(self) -> None:
        known = self.known
        while True:
            time.sleep(POLL_S)
            with self.lock:
                followed = list(self.followers)
            if not followed:
                continue
            with self.store.connection() as db:
                rows = self.store.run(db, f"SELECT id, revision FROM sessions WHERE id IN "
                                          f"({', '.join('?' * len(followed))})", *followed).fetchall()
            for session_id, revision in rows:
                with self.lock:
                    moved = known.get(session_id, revision) < revision
                    known[session_id] = revision
                if moved:
                    self.wake(session_id)

    def listen(self) -> None:
        db = self.store.connect()
        db.autocommit = True
        db.execute(f"LISTEN {CHANNEL}")
        for notify in db.notifies():
            self.wake(notify.payload.split(" ", 1)[0])


def create_app() -> Flask:
    app = Flask(__name__)
    store = Store(os.environ["DATABASE_URL"])
    watcher = Watcher(store)

    def answer(status: int, body: dict, revision: int | None = None) -> Response:
        response = Response(json.dumps(body), status=status, mimetype="application/json")
        if revision is not None:
            response.headers["ETag"] = f'"{revision}"'
        return response

    def token() -> str:
        return request.headers.get("Authorization", "").partition(" ")[2]

    def expected() -> int | None:
        match = request.headers.get("If-Match")
        return None if match is None else int(match.strip('"'))

    @app.get("/api/health")
    def health():
        return answer(200, {"status": "ok"})

    @app.post("/api/sessions")
    def start():
        session_id, write, read = secrets.token_hex(8), secrets.token_urlsafe(24), secrets.token_urlsafe(24)
        with store.connection() as db:
            if not store.postgresql:
                store.run(db, "BEGIN IMMEDIATE")
            store.run(db, "INSERT INTO sessions VALUES (?, ?, ?, 0, 0)", session_id, hashed(write), hashed(read))
            store.end(db, commit=True)
        return answer(201, {"id": session_id, "token": write, "read_token": read, "revision": 0}, 0)

    def changed(session_id: str, kind: str, number: int | None) -> Response:
        status, revision, number = store.change(session_id, token(), expected(), kind,
                                                request.get_json(silent=True) or {}, number)
        if status >= 400:
            return answer(status, {"code": status})
        watcher.wake(session_id)  # this process's streams: at once, after the commit
        return answer(status, {"number": number, "revision": revision}, revision)

    @app.post("/api/sessions/<session_id>/hands")
    def record(session_id):
        return changed(session_id, "hand", None)

    @app.delete("/api/sessions/<session_id>/hands/<int:number>")
    def void(session_id, number):
        return changed(session_id, "void", number)

    @app.put("/api/sessions/<session_id>/hands/<int:number>")
    def correct(session_id, number):
        return changed(session_id, "correct", number)

    def session_row(session_id: str, given: str):
        with store.connection() as db:
            row = store.run(db, "SELECT id, revision, hands, token_hash, read_hash FROM sessions WHERE id = ?",
                            session_id).fetchone()
            if store.postgresql:
                db.rollback()
        return row if row is not None and hashed(given) in (row[3], row[4]) else None

    @app.get("/api/sessions/<session_id>")
    def state(session_id):
        row = session_row(session_id, token())
        if row is None:
            return answer(404, {"code": 404})
        return answer(200, {"id": row[0], "revision": row[1], "hands": row[2]}, row[1])

    @app.get("/api/sessions/<session_id>/events")
    def events(session_id):
        row = session_row(session_id, request.args.get("token", ""))
        if row is None:
            return answer(404, {"code": 404})
        after = int(request.args.get("after", row[1]))
        return Response(stream(session_id, after), mimetype="text/event-stream")

    def stream(session_id: str, after: int):
        woken = threading.Event()
        watcher.follow(session_id, woken, after)
        try:
            yield "retry: 1000\n\n"
            moved = True
            while True:
                woken.clear()
                if moved:  # a heartbeat reads nothing
                    with store.connection() as db:
                        rows = store.run(db, "SELECT revision, kind, data FROM changes WHERE session_id = ? AND "
                                             "revision > ? ORDER BY revision", session_id, after).fetchall()
                        if store.postgresql:
                            db.rollback()
                    for revision, kind, data in rows:
                        yield f"id: {revision}\nevent: {kind}\ndata: {data}\n\n"
                        after = revision
                moved = woken.wait(HEARTBEAT_S)
                if not moved:
                    yield ": still here\n\n"
        finally:
            watcher.unfollow(session_id, woken)

    return app
