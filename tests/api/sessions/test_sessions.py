"""POST/GET /api/sessions: creating a session, its token, and every rejected session body.

A new taiwan table: Amy deals first (東), round 東, 東局, nobody has played,
everyone at 0; options get the rule set's defaults (dealer_bonus on,
multiple_winners off, no max_tai — RULES.md §6).
"""
import hashlib
import re

import pytest
from openapi_spec_validator import validate
from sqlmodel import select

from api.http.db import get_db
from ledger.store import AuditRow, EntryRow, SessionRow
from tests.api.sessions.tables import OPEN, PLAYERS, Table, assert_rejected, discard, session_body

sqlite_only = pytest.mark.parametrize("database_kind", ["sqlite"], indirect=True)

FRESH_STATE = {"dealer": "Amy", "streak": 0, "round_wind": "E", "hand_wind": "E", "hands_played": 0,
               "wasteland": 0, "seats": PLAYERS, "jiang": 1}
SESSION_ENDPOINTS = [
    ("get", ""), ("get", "/hands"), ("post", "/hands"), ("get", "/hands/1"), ("put", "/hands/1"),
    ("delete", "/hands/1"), ("post", "/seats"), ("get", "/audit"),
]


def count_rows(app, model):
    with app.app_context():
        return len(get_db().exec(select(model)).all())


def test_create_returns_id_token_and_the_new_session(client):
    response = client.post("/api/sessions", json=session_body())
    assert response.status_code == 201
    body = response.get_json()
    assert len(body["id"]) >= 40 and len(body["token"]) >= 40
    # hex: an id starting with "-" would read as an option to `flask report ID`
    assert re.fullmatch(r"[0-9a-f]{40}", body["id"])
    assert body["id"] != body["token"]
    assert {key: body[key] for key in ("name", "ruleset", "players", "stakes", "options", "state", "totals",
                                       "seat_changes")} == {
        "name": "Friday at Amy's", "ruleset": "taiwan", "players": PLAYERS,
        "stakes": {"base": 100, "per_tai": 20},
        "options": {"dealer_bonus": True, "multiple_winners": False, "max_tai": None},
        "state": {**FRESH_STATE, **OPEN}, "totals": {"Amy": 0, "Ben": 0, "Cat": 0, "Dan": 0}, "seat_changes": [],
    }
    assert body["created_at"].endswith("+00:00")
    assert (body["revision"], body["access"]) == (1, "write")
    assert len(body["read_token"]) >= 40 and body["read_token"] != body["token"]


def test_get_with_the_token_returns_the_session_without_the_token(client):
    table = Table(client, options={"max_tai": 8})
    session = table.session()
    assert "token" not in session and "read_token" not in session
    # GET also says which competition's round the evening is a table of: none here.
    assert session == {**{key: value for key, value in table.created.items() if key not in ("token", "read_token")},
                       "competition": None}
    assert session["options"] == {"dealer_bonus": True, "multiple_winners": False, "max_tai": 8}


def test_shanghai_session_takes_a_base_only(client):
    table = Table(client, ruleset="shanghai")
    assert table.session()["stakes"] == {"base": 10}
    assert table.session()["options"] == {}


def test_ids_and_tokens_differ_between_sessions(client):
    first, second = Table(client), Table(client)
    assert len({first.id, second.id, first.token, second.token}) == 4


def test_only_the_token_hash_is_stored(app, client):
    table = Table(client)
    with app.app_context():
        row = get_db().get(SessionRow, table.id)
        assert row.token_hash == hashlib.sha256(table.token.encode()).hexdigest()
        assert table.token not in str(row.model_dump())


@pytest.mark.parametrize("method, suffix", SESSION_ENDPOINTS)
def test_every_session_request_without_a_token_is_401_with_a_challenge(client, method, suffix):
    table = Table(client)
    response = getattr(client, method)(table.path + suffix, json={"seat": 9})  # the body is never looked at
    assert response.status_code == 401
    assert response.headers["WWW-Authenticate"].startswith("Bearer")
    assert set(response.get_json()) == {"code", "status", "message"}


@pytest.mark.parametrize("method, suffix", SESSION_ENDPOINTS)
def test_every_session_request_with_another_sessions_token_is_403_without_data(client, method, suffix):
    table, other = Table(client), Table(client)
    table.hands_ok({"winners": [{"player": "Ben", "tai": 3}], "by": "discard", "discarder": "Cat"})
    response = getattr(client, method)(table.path + suffix, json={"seat": 9}, headers=other.headers())
    assert response.status_code == 403
    assert set(response.get_json()) == {"code", "status", "message"}
    assert table.hands()[0]["void"] is False  # the DELETE did nothing


@pytest.mark.parametrize("authorization", ["Basic QW15OnNlY3JldA==", "Bearer", "Bearer   ", "token"])
def test_an_authorization_header_without_a_bearer_token_is_401(client, authorization):
    table = Table(client)
    response = client.get(table.path, headers={"Authorization": authorization})
    assert response.status_code == 401


def test_a_wrong_token_is_403(client):
    table = Table(client)
    response = client.get(table.path, headers={"Authorization": f"Bearer {table.token}x"})
    assert response.status_code == 403
    assert "totals" not in response.get_json()


def test_an_unknown_session_is_404_json(client):
    table = Table(client)
    unknown = "0" * 40  # well-formed; an id that cannot be one matches no route (tests/api/http/test_text.py)
    response = client.get(f"/api/sessions/{unknown}", headers=table.headers())
    assert response.status_code == 404
    assert unknown in response.get_json()["message"]


@pytest.mark.parametrize("change, field, phrase", [
    ({"stakes": {"base": 0, "per_tai": 20}}, "stakes.base", "from 1 to"),
    ({"stakes": {"base": -100, "per_tai": 20}}, "stakes.base", "from 1 to"),
    ({"stakes": {"base": 100, "per_tai": 0}}, "stakes.per_tai", "from 1 to"),
    ({"stakes": {"base": 100}}, "stakes.per_tai", "from 1 to"),
    ({"ruleset": "shanghai", "stakes": {"base": 10, "per_tai": 5}}, "stakes.per_tai", "base"),
    ({"players": ["Amy", "Ben", "Amy", "Dan"]}, "players[2]", "Amy is listed twice"),
    ({"players": ["Amy", "Ben", "Cat"]}, "players", "exactly four"),
    ({"players": ["Amy", "Ben", "Cat", "Dan", "Eve"]}, "players", "exactly four"),
    ({"players": ["Amy", "Ben", "  ", "Dan"]}, "players[2]", "non-empty"),
    ({"options": {"dealer_bonus": "yes"}}, "options.dealer_bonus", "true or false"),
    ({"options": {"max_tai": 0}}, "options.max_tai", "positive"),
    ({"options": {"no_such_option": True}}, "options.no_such_option", "unknown option"),
])
def test_invalid_session_is_422_naming_the_field_and_creates_nothing(app, client, change, field, phrase):
    response = client.post("/api/sessions", json={**session_body(), **change})
    assert_rejected(response, field, phrase)
    assert count_rows(app, SessionRow) == 0


@pytest.mark.parametrize("change, named", [
    ({"stakes": {"base": 1.5, "per_tai": 20}}, "stakes.base"),
    ({"stakes": {"base": True, "per_tai": 20}}, "stakes.base"),
    ({"stakes": {"base": "100", "per_tai": 20}}, "stakes.base"),
    ({"ruleset": "mahjong"}, "ruleset"),
    ({"name": ""}, "name"),
    ({"players": "Amy Ben Cat Dan"}, "players"),
    ({"colour": "red"}, "colour"),
])
def test_a_session_body_of_the_wrong_shape_is_422_naming_the_field(app, client, change, named):
    response = client.post("/api/sessions", json={**session_body(), **change})
    assert response.status_code == 422
    assert f"{named}:" in response.get_json()["message"]
    assert count_rows(app, SessionRow) == 0


def test_missing_fields_are_named(client):
    response = client.post("/api/sessions", json={"name": "x"})
    assert response.status_code == 422
    message = response.get_json()["message"]
    for field in ("ruleset", "players", "stakes"):
        assert f"{field}: Missing data for required field." in message


def test_malformed_json_is_400_and_creates_nothing(app, client):
    response = client.post("/api/sessions", data='{"name": "x",', content_type="application/json")
    assert response.status_code == 400
    assert count_rows(app, SessionRow) == 0


def test_a_body_too_large_is_413(client):
    response = client.post("/api/sessions", json={**session_body(), "name": "x" * 300_000})
    assert response.status_code == 413


def test_every_table_starts_empty(app, client):
    Table(client)
    assert count_rows(app, EntryRow) == 0
    assert count_rows(app, AuditRow) == 0


@sqlite_only
def test_openapi_documents_every_session_endpoint_with_its_token(client):
    spec = client.get("/api/openapi.json").get_json()
    validate(spec)
    assert spec["components"]["securitySchemes"]["bearerAuth"] == {
        "type": "http", "scheme": "bearer", "description": "The token returned once by `POST /api/sessions`"}
    operations = {
        "/api/sessions": ["post"],
        "/api/sessions/{session_id}": ["get"],
        "/api/sessions/{session_id}/hands": ["get", "post"],
        "/api/sessions/{session_id}/hands/{number}": ["get", "put", "delete"],
        "/api/sessions/{session_id}/seats": ["post"],
        "/api/sessions/{session_id}/audit": ["get"],
    }
    for path, methods in operations.items():
        for method in methods:
            operation = spec["paths"][path][method]
            assert operation["summary"] or operation["description"], (path, method)
            if path != "/api/sessions":
                assert operation["security"] == [{"bearerAuth": []}]
                assert {"401", "403", "404"} <= set(operation["responses"]), (path, method)
    post_hand = spec["paths"]["/api/sessions/{session_id}/hands"]["post"]
    assert "Idempotency-Key" in {p["name"] for p in post_hand["parameters"]}
    assert {"201", "422"} <= set(post_hand["responses"])


def test_the_session_gives_the_number_of_the_next_hand_a_void_included(client):
    table = Table(client)
    assert table.session()["next_hand"] == 1
    table.hands_ok(discard("Ben", "Cat", 3), discard("Cat", "Dan", 1))
    assert table.void(1).status_code == 200
    # Two hands were numbered (one voided keeps its number): the next is hand 3, not 2.
    assert table.session()["next_hand"] == 3
