"""Inputs that were guessed at (issue 39, item 5) are refused, naming the field, and change nothing.

``check_in`` and ``substitute`` take JSON ``true`` or ``false`` only: ``"yes"`` and ``1`` were taken as true.
``cut`` is at most ``MAX_ENTRANTS`` (1,000): 2^63 − 1 was accepted. A JSON body declared in a charset other
than UTF-8 is 415, and one whose bytes are not UTF-8 (UTF-16, which Python's parser would guess) is 400.
"""
import json

import pytest

from tests.api.competitions.test_competitions import BODY, NAMES, ZH_HANT, Cup, entered
from tests.api.sessions.tables import DRAW, Table

NOT_BOOLEANS = ["yes", 1, 0, "true", None]


@pytest.mark.parametrize("value", NOT_BOOLEANS)
def test_check_in_takes_a_boolean_only(client, value):
    response = client.post("/api/competitions", json={**BODY, "check_in": value})
    assert response.status_code == 422, response.get_json()
    assert response.get_json()["field"] == "check_in"


@pytest.mark.parametrize("value", NOT_BOOLEANS)
def test_substitute_takes_a_boolean_only_and_enters_nobody(client, value):
    cup = Cup(client)
    response = cup.post("/entrants", {"names": ["Sam"], "substitute": value})
    assert response.status_code == 422, response.get_json()
    assert response.get_json()["field"] == "substitute"
    assert cup.ok(cup.get())["entrants"] == []


def test_true_and_false_are_still_taken(client):
    assert Cup(client, check_in=True).created["check_in"] is True
    cup = Cup(client, check_in=False)
    cup.ok(cup.post("/entrants", {"names": ["Sam"], "substitute": True}), 201)
    assert [entrant["substitute"] for entrant in cup.ok(cup.get())["entrants"]] == [True]


@pytest.mark.parametrize("cut", [2**63 - 1, 1001, 4.0, "8"])
def test_a_cut_past_the_most_entrants_or_not_an_integer_is_refused(client, cut):
    cup = entered(client, NAMES[:8])
    response = cup.post("/rounds", {"cut": cut}, extra=ZH_HANT)
    assert response.status_code == 422, response.get_json()
    assert response.get_json()["field"] == "cut"
    assert response.get_json()["message"].startswith("請求無效")
    assert cup.ok(cup.get())["drawn"] == []


def test_a_cut_of_the_most_entrants_is_taken(client):
    cup = entered(client, NAMES[:8])
    drawn = cup.ok(cup.post("/rounds", {"cut": 1000, "seed": 3}), 201)
    assert drawn["cut"] == [] and len(drawn["tables"]) == 2  # all eight play: 1,000 leaves nobody out


@pytest.mark.parametrize("charset", ["latin-1", "ISO-8859-1", "utf-16", "ascii"])
def test_a_json_body_declared_in_another_charset_is_415(client, charset):
    table = Table(client)
    for path in [f"{table.path}/hands", f"{table.path}/house_rules", "/api/competitions"]:
        response = client.post(path, data=json.dumps(DRAW), headers={**table.headers(), **ZH_HANT},
                               content_type=f"application/json; charset={charset}")
        assert response.status_code == 415, (path, response.get_json())
        assert response.get_json()["message"] == f"請求內容須為 UTF-8 的 JSON，不可為 {charset}。"
    assert table.hands() == []


def test_a_json_body_in_utf_16_is_refused_however_it_is_declared(client):
    table = Table(client)
    for path in [f"{table.path}/hands", f"{table.path}/house_rules"]:
        response = client.post(path, data=json.dumps(DRAW).encode("utf-16"), headers=table.headers(),
                               content_type="application/json")
        assert response.status_code == 400, (path, response.get_json())
        assert "UTF-8" in response.get_json()["message"]
    assert table.hands() == []


@pytest.mark.parametrize("charset", ["utf-8", "UTF-8", "utf8"])
def test_a_json_body_in_utf_8_may_say_so(client, charset):
    table = Table(client)
    response = client.post(f"{table.path}/hands", data=json.dumps(DRAW).encode(), headers=table.headers(),
                           content_type=f"application/json; charset={charset}")
    assert response.status_code == 201, response.get_json()
