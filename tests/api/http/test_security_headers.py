"""Every kind of answer carries nosniff and refuses framing; the page's HTML, wherever served, its policy
(issue 27, item 8: no ``X-Content-Type-Options`` anywhere, no ``frame-ancestors``, the policy on ``/`` only).
"""
import base64
import hashlib
import re

import pytest
from sqlalchemy import text

from api import MAX_BODY_BYTES
from api.http import db
from api.page.routes import CONTENT_SECURITY_POLICY
from tests.api.sessions.tables import DRAW, Table, discard


def answers(app) -> dict:
    """One answer of every kind the service gives, by a name saying which, with the type it must declare."""
    client = app.test_client()
    table = Table(client)
    table.hands_ok(discard("Ben", "Cat", 2), DRAW)
    auth = table.headers()
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
        "413": (client.post("/api/score", data="x" * (MAX_BODY_BYTES + 1), content_type="application/json"),
                "application/json"),
        "422": (client.post(f"{table.path}/hands", json={"draw": "maybe"}, headers=auth), "application/json"),
    }
    found["stream"][0].get_data()  # read to its end (EVENTS_STREAM_S) while the database is whole
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
    assert [every_answer[kind][0].status_code for kind in ("304", "404", "413", "500")] == [304, 404, 413, 500]


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
