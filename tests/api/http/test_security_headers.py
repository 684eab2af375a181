"""Every kind of answer carries nosniff and refuses framing; the page's HTML, wherever served, its policy
(issue 27, item 8: no ``X-Content-Type-Options`` anywhere, no ``frame-ancestors``, the policy on ``/`` only).
"""
import base64
import contextlib
import hashlib
import re
import sqlite3

import psycopg
import pytest
from sqlalchemy import event, text

from api import MAX_BODY_BYTES
from api.http import db
from api.page.routes import CONTENT_SECURITY_POLICY
from tests.api.sessions.tables import DRAW, Table, discard

ELSEWHERE = {"REMOTE_ADDR": "192.0.2.40"}  # an address of its own for each limit reached, so that no other kind is
AT_THE_GATE = {"REMOTE_ADDR": "192.0.2.41"}  # counted against it
# The driver's own errors for a database that does not answer (503) and a full disk (507), as api.http.unavailable
# tells them apart.
DRIVER_ERRORS = {
    "sqlite": {503: sqlite3.OperationalError("database is locked"),
               507: sqlite3.OperationalError("database or disk is full")},
    "postgresql": {503: psycopg.OperationalError("server closed the connection unexpectedly"),
                   507: psycopg.errors.DiskFull('could not extend file "base/5/16384": No space left on device')},
}


@contextlib.contextmanager
def failing_database(app, status: int):
    """Every statement of ``app``'s database fails, within the block, with the driver's error answered ``status``."""
    engine = db.get_engine(app)
    error = DRIVER_ERRORS[engine.dialect.name][status]

    def fail(*_):
        raise error

    event.listen(engine, "before_cursor_execute", fail)
    try:
        yield
    finally:
        event.remove(engine, "before_cursor_execute", fail)


def answers(app) -> dict:
    """One answer of every kind the service gives, by a name saying which, with the type it must declare."""
    client = app.test_client()
    table = Table(client)
    table.hands_ok(discard("Ben", "Cat", 2), DRAW)
    auth = table.headers()
    closed = Table(client)
    assert client.post(f"{closed.path}/close", headers=closed.headers()).status_code == 200
    etag = client.get(table.path, headers=auth).headers["ETag"]
    app.config.update(EVENTS_STREAM_S=0.2, EVENTS_HEARTBEAT_S=0.1)
    found = {
        "json": (client.get(table.path, headers=auth), "application/json"),
        "page": (client.get("/"), "text/html"),
        "page copy": (client.get("/app/index.html"), "text/html"),
        "docs": (client.get("/api/docs"), "text/html"),
        "script": (client.get("/app/js/main.js"), "text/javascript"),
        "csv": (client.get(f"{table.path}/hands.csv", headers=auth), "text/csv"),
        "pdf": (client.get(f"{table.path}/report.pdf", headers=auth), "application/pdf"),
        "png": (client.get(f"{table.path}/card.png", headers=auth), "image/png"),
        "stream": (client.get(f"{table.path}/events", query_string={"token": table.token, "after": 0}),
                   "text/event-stream"),
        "304": (client.get(table.path, headers={**auth, "If-None-Match": etag}), None),
        "400": (client.post("/api/score", data="{", content_type="application/json"), "application/json"),
        "401": (client.get(table.path), "application/json"),
        "404": (client.get("/api/nowhere"), "application/json"),
        "405": (client.patch("/api/score"), "application/json"),
        "409": (closed.hand(DRAW), "application/json"),
        "412": (table.hand(DRAW, **{"If-Match": '"1"'}), "application/json"),
        "413": (client.post("/api/score", data="x" * (MAX_BODY_BYTES + 1), content_type="application/json"),
                "application/json"),
        "415": (client.post(f"{table.path}/hands", data="draw", content_type="text/plain", headers=auth),
                "application/json"),
        "422": (client.post(f"{table.path}/hands", json={"draw": "maybe"}, headers=auth), "application/json"),
    }
    found["stream"][0].get_data()  # read to its end (EVENTS_STREAM_S) while the database is whole
    # flask-limiter's: the second import of the minute from one address.
    app.config["RATE_LIMIT_IMPORT"] = "1 per minute"
    assert client.post("/api/sessions/import", json={}, environ_base=ELSEWHERE).status_code == 422  # counted
    found["429"] = (client.post("/api/sessions/import", json={}, environ_base=ELSEWHERE), "application/json")
    # Streams refused by api.sessions.stream_gate, before Flask: the worker full, then the address's openings.
    app.config.update(EVENTS_PER_WORKER=0, RATE_LIMIT_STREAMS="1 per minute")
    for kind in ("stream 503", "stream 429"):
        found[kind] = (client.get(f"{table.path}/events", query_string={"token": table.created["read_token"]},
                                  environ_base=AT_THE_GATE), "application/json")
    with failing_database(app, 503):
        found["503"] = (client.get(table.path, headers=auth), "application/json")
        found["health 503"] = (client.get("/api/health"), "application/json")
    with failing_database(app, 507):
        found["507"] = (table.hand(DRAW), "application/json")
    with db.get_engine(app).begin() as connection:
        connection.execute(text("DROP TABLE audits"))
        connection.execute(text("DROP TABLE changes"))
        connection.execute(text("DROP TABLE entries"))
    found["500"] = (client.post(f"{table.path}/hands", json=DRAW, headers=auth), "application/json")
    return found


@pytest.fixture
def every_answer(make_app, own_database_url):
    return answers(make_app(TESTING=False, DATABASE_URL=own_database_url))  # the 500 drops its tables


def test_every_kind_of_answer_is_nosniff_and_never_framed(every_answer):
    for kind, (response, mimetype) in every_answer.items():
        assert response.headers.get("X-Content-Type-Options") == "nosniff", kind
        assert response.headers.get("X-Frame-Options") == "DENY", kind
        assert "frame-ancestors 'none'" in response.headers.get("Content-Security-Policy", ""), kind
        if mimetype is not None:
            assert response.mimetype == mimetype, kind
    assert every_answer["stream"][0].get_data(as_text=True).startswith("retry: 1000")
    assert {kind: response.status_code for kind, (response, _) in every_answer.items() if kind[-3:].isdigit()} == {
        "304": 304, "400": 400, "401": 401, "404": 404, "405": 405, "409": 409, "412": 412, "413": 413, "415": 415,
        "422": 422, "429": 429, "stream 503": 503, "stream 429": 429, "503": 503, "health 503": 503, "507": 507,
        "500": 500}
    # Each refusal is the one meant: its Retry-After and its words say who answered (a rate's Retry-After is
    # when the minute's first request leaves the window: 60 s, a second less on a slow machine).
    assert {kind: every_answer[kind][0].headers.get("Retry-After")
            for kind in ("stream 503", "503", "health 503", "507")} == {
        "stream 503": "30", "503": "5", "health 503": "5", "507": "60"}
    for kind, what in (("429", "importing sessions"), ("stream 429", "opening live streams")):
        seconds = every_answer[kind][0].headers["Retry-After"]
        assert 58 <= int(seconds) <= 60, kind
        assert every_answer[kind][0].get_json()["message"] == (
            f"Too many requests from your address for {what} (at most 1 per minute from one address); "
            f"try again in {seconds} s."), kind
    assert every_answer["stream 503"][0].get_json()["status"] == "Service Unavailable"
    assert every_answer["507"][0].get_json()["status"] == "Insufficient Storage"


def digest(text: str) -> str:
    return f"'sha256-{base64.b64encode(hashlib.sha256(text.encode()).digest()).decode()}'"


def test_the_page_has_its_policy_wherever_its_html_is_served(every_answer):
    for kind in ("page", "page copy"):
        response = every_answer[kind][0]
        html = response.get_data(as_text=True)
        # Every inline script (the import map, the share link's first read, the page's modules) and style, by hash.
        scripts = re.findall(r'<script(?: type="importmap"| type="module" blocking="render")?>(.*?)</script>', html, re.S)
        styles = re.findall(r"<style>(.*?)</style>", html, re.S)
        assert len(scripts) == 3 and len(styles) == 1, kind
        assert response.headers["Content-Security-Policy"] == CONTENT_SECURITY_POLICY.format(
            scripts=" ".join(["'self'", *map(digest, scripts)]), styles=" ".join(["'self'", *map(digest, styles)])), kind
        assert response.headers["Referrer-Policy"] == "no-referrer", kind
    assert every_answer["page"][0].get_data() == every_answer["page copy"][0].get_data()


def test_other_answers_are_restricted_only_in_their_framing(every_answer):
    # The Swagger UI runs an inline script: a default-src would stop it. Framing is all that is refused.
    assert every_answer["docs"][0].headers["Content-Security-Policy"] == "frame-ancestors 'none'"
    assert every_answer["json"][0].headers["Content-Security-Policy"] == "frame-ancestors 'none'"
