"""A body that is not JSON is 415 on every JSON endpoint, with a JSON message (issue 15, item 8).

Creating a session used to answer 422 "Missing data for required field" for
every field, and importing one or scoring a hand likewise, while the hand
endpoints answered 415: webargs read a body of another type as no body.
"""
import json

import pytest

from tests.api.sessions.tables import DRAW, Table, session_body

NOT_JSON = "The request body must be JSON, sent with Content-Type: application/json (not {})."


def endpoints(table: Table) -> list[tuple[str, str, dict]]:
    """Every endpoint that takes a JSON body: method, path and a valid body."""
    return [("POST", "/api/sessions", session_body()),
            ("POST", "/api/sessions/import", {}),
            ("POST", "/api/score", {"ruleset": "taiwan"}),
            ("POST", f"{table.path}/hands", DRAW),
            ("PUT", f"{table.path}/hands/1", DRAW),
            ("POST", f"{table.path}/seats", {"seat": 3, "player": "Eve"})]


@pytest.mark.parametrize("content_type", ["text/plain", "application/x-www-form-urlencoded", "application/xml"])
def test_a_body_of_another_type_is_415_everywhere_and_changes_nothing(client, content_type):
    table = Table(client)
    table.hands_ok(DRAW)
    before = table.session()
    for method, path, body in endpoints(table):
        response = client.open(path, method=method, data=json.dumps(body), content_type=content_type,
                                headers=table.headers())
        assert response.status_code == 415, (path, response.get_json())
        assert response.get_json() == {"code": 415, "status": "Unsupported Media Type",
                                       "message": NOT_JSON.format(content_type)}, path
    assert table.session() == before
    assert len(table.hands()) == 1


def test_a_body_without_a_content_type_is_415(client):
    table = Table(client)
    response = client.post(f"{table.path}/hands", data=json.dumps(DRAW), headers=table.headers())
    assert response.status_code == 415
    assert response.get_json()["message"] == NOT_JSON.format("none")


def test_json_with_a_charset_or_a_json_suffix_is_json(client):
    for content_type in ["application/json; charset=utf-8", "application/merge-patch+json"]:
        response = client.post("/api/sessions", data=json.dumps(session_body()), content_type=content_type)
        assert response.status_code == 201, response.get_json()
