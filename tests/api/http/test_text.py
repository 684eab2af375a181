"""Text that breaks later (issue 15, item 4) and the inputs that crashed (item 5).

Names are kept in NFC, trimmed; control, format and surrogate characters are
refused (422) wherever text enters: session, players, seats, hands, import,
the X-Client header and the session id of a path. JSON that Python's parser
gives up on, nesting deeper than 32 levels, integers past 64 bits and dates
that cannot be moved to UTC are 4xx with a JSON message, never 500.
"""
import json

import pytest

from tests.api.sessions.tables import Table, assert_rejected, discard, session_body
from tests.api.sessions.test_backup import draws_document, export, record_evening
from tests.api.http.test_limits import sessions_count

# Each would make a second "Amy", or break the CSV, the backup or PostgreSQL later.
REFUSED = {
    "zero-width space": ("Amy\u200b", "a format character (U+200B)"),
    "BOM": ("\ufeffAmy", "a format character (U+FEFF)"),
    "RTL override": ("\u202eAmy", "a format character (U+202E)"),
    "NUL": ("Amy\x00", "a control character (U+0000)"),
    "bell": ("Amy\x07", "a control character (U+0007)"),
    "lone surrogate": ("Amy\ud800", "a surrogate character (U+D800)"),
}


def post_json(client, path, body, **headers):
    """POST ``body`` as ASCII JSON text, so that lone surrogates travel as ``\\ud800`` escapes."""
    return client.post(path, data=json.dumps(body), content_type="application/json", headers=headers)


# -- names are normalised ---------------------------------------------------------------------


def test_names_are_trimmed_and_in_nfc_everywhere(client):
    decomposed, composed = "Ame\u0301lie", "Amélie"
    table = Table(client, players=[" Amy ", decomposed, "Cat", "Dan"])
    assert table.session()["players"] == ["Amy", composed, "Cat", "Dan"]
    recorded = table.hands_ok(discard(composed + " ", " Amy", 2))[0]
    assert recorded["body"]["winners"][0]["player"] == composed
    assert recorded["body"]["discarder"] == "Amy"
    # Amy deals and discards: 100 + (2 台 + 1 for the dealer) × 20 = 160.
    assert recorded["payments"] == {"Amy": -160, composed: 160, "Cat": 0, "Dan": 0}
    assert table.seat(3, "  Eve ").get_json()["player"] == "Eve"
    assert table.totals() == {"Amy": -160, composed: 160, "Cat": 0, "Dan": 0, "Eve": 0}


def test_a_three_mouth_pair_is_normalised_too(client):
    table = Table(client, ruleset="shanghai")
    hand = {"winners": [{"player": "Ben", "points": 1}], "by": "self_draw", "three_mouth": [[" Ben", "Cat "]]}
    assert table.hands_ok(hand)[0]["body"]["three_mouth"] == [["Ben", "Cat"]]


# -- refused characters -----------------------------------------------------------------------


@pytest.mark.parametrize("name,described", REFUSED.values(), ids=REFUSED.keys())
def test_a_refused_character_in_a_new_session_is_422_and_creates_nothing(app, client, name, described):
    count = sessions_count(app)
    for body, field in [(session_body(players=["Ben", name, "Cat", "Dan"]), "players[1]"),
                        (session_body(name=f"Friday {name}"), "name")]:
        response = post_json(client, "/api/sessions", body)
        assert_rejected(response, field, described)
    assert sessions_count(app) == count


@pytest.mark.parametrize("name,described", REFUSED.values(), ids=REFUSED.keys())
def test_a_refused_character_in_a_seat_or_hand_is_422_and_changes_nothing(client, name, described):
    table = Table(client)
    before = table.snapshot()
    cases = [("seats", {"seat": 0, "player": name}, "player"),
             ("hands", discard(name, "Cat"), "winners[0].player"),
             ("hands", discard("Ben", name), "discarder"),
             ("hands", {**discard("Ben", "Cat"), name: 1}, name)]
    for path, body, field in cases:
        response = post_json(client, f"{table.path}/{path}", body, **table.headers())
        assert response.status_code == 422, response.get_json()
        assert described in response.get_json()["message"]
        if path == "seats" or field != name:
            assert response.get_json()["field"] == field
    correction = client.put(f"{table.path}/hands/1", data=json.dumps(discard(name, "Cat")),
                            content_type="application/json", headers=table.headers())
    assert correction.status_code in (404, 422)
    assert table.snapshot() == before


@pytest.mark.parametrize("name,described", REFUSED.values(), ids=REFUSED.keys())
def test_a_refused_character_anywhere_in_an_import_is_422(app, client, name, described):
    table = record_evening(client)
    document = export(table)
    count = sessions_count(app)
    changes = [("players", lambda d: d["players"].__setitem__(0, name)),
               ("entries[0].client", lambda d: d["entries"][0].__setitem__("client", name)),
               ("audit[0].who", lambda d: d["audit"][0].__setitem__("who", name)),
               ("audit[0].before", lambda d: d["audit"][0]["before"].__setitem__("note", name)),
               ("options", lambda d: d["options"].__setitem__(name, True))]
    for where, change in changes:
        tampered = json.loads(json.dumps(document))
        change(tampered)
        response = post_json(client, "/api/sessions/import", tampered)
        assert response.status_code == 422, (where, response.get_json())
        assert described in response.get_json()["message"], where
    assert sessions_count(app) == count


def test_x_client_is_read_as_utf8(client):
    table = Table(client)
    sent = "阿明".encode().decode("latin-1")  # what a WSGI server hands over for the UTF-8 bytes
    recorded = table.hand(discard("Ben", "Cat"), **{"X-Client": sent})
    assert recorded.get_json()["client"] == "阿明"
    assert table.void(1, **{"X-Client": sent}).status_code == 200
    assert table.audit()[0]["who"] == "阿明"


@pytest.mark.parametrize("label,described", [
    ("\xff", "X-Client must be text in UTF-8"),
    ("Amy\u200b".encode().decode("latin-1"), "a format character (U+200B)"),
    ("Amy\x7f", "a control character (U+007F)"),
])
def test_an_x_client_that_is_not_clean_utf8_is_422_and_changes_nothing(client, label, described):
    table = Table(client)
    before = table.snapshot()
    assert_rejected(table.hand(discard("Ben", "Cat"), **{"X-Client": label}), "X-Client", described)
    assert_rejected(table.seat(3, "Eve", **{"X-Client": label}), "X-Client", described)
    assert table.snapshot() == before


@pytest.mark.parametrize("suffix", ["", "/hands", "/settlement", "/hands.csv", "/export"])
@pytest.mark.parametrize("session_id", ["0" * 39 + "%00", "%00", "0" * 41, "x.y", "%E9%98%BF", "-" * 40])
def test_an_impossible_session_id_is_404_before_anything(client, session_id, suffix):
    response = client.get(f"/api/sessions/{session_id}{suffix}")  # not even a token: 404 comes first
    assert response.status_code == 404
    assert response.get_json()["message"].startswith("The requested URL was not found on the server.")


def test_a_nul_in_the_hand_path_is_404(client):
    table = Table(client)
    response = client.post(f"/api/sessions/{table.id}%00/hands", json=discard("Ben", "Cat"), headers=table.headers())
    assert response.status_code == 404
    assert response.is_json


# -- the inputs that crashed (item 5) ---------------------------------------------------------


def json_endpoints(table):
    """The six operations that take a JSON body: (method, path)."""
    return [("POST", "/api/score"), ("POST", "/api/sessions"), ("POST", f"{table.path}/hands"),
            ("PUT", f"{table.path}/hands/1"), ("POST", f"{table.path}/seats"), ("POST", "/api/sessions/import")]


@pytest.mark.parametrize("body,message", [
    ("[" * 1000 + "]" * 1000, "Malformed request: JSON may nest at most 32 levels deep"),
    ('{"a": ' * 1000 + "1" + "}" * 1000, "Malformed request: JSON may nest at most 32 levels deep"),
    ('{"seat": ' + "1" * 4301 + "}", "Malformed request: a number in the JSON body has too many digits"),
])
def test_json_the_parser_gives_up_on_is_400_on_every_json_endpoint(client, body, message):
    table = Table(client)
    table.hands_ok(discard("Ben", "Cat"))
    before = table.snapshot()
    for method, path in json_endpoints(table):
        response = client.open(path, method=method, data=body, content_type="application/json",
                               headers=table.headers())
        assert response.status_code == 400, (path, response.get_data())
        assert response.get_json()["message"] == message
    assert table.snapshot() == before


def test_json_nested_33_deep_is_422_naming_the_limit(client):
    nested = [[]]
    for _ in range(32):
        nested = [nested]
    response = client.post("/api/score", json={"ruleset": "taiwan", "options": {"x": nested}})
    assert response.status_code == 422
    assert "JSON may nest at most 32 levels deep" in response.get_json()["message"]


@pytest.mark.parametrize("number", [2**63, -(2**63) - 1, 10**4000], ids=["2**63", "-2**63-1", "10**4000"])
def test_an_integer_past_64_bits_is_422_naming_where(client, number):
    table = Table(client)
    response = table.seat(number, "Eve")
    assert_rejected(response, "seat", "integers must fit in 64 bits")


def test_an_import_with_a_date_that_cannot_be_moved_to_utc_is_422(client):
    document = {**draws_document(1), "created_at": "0001-01-01T00:00:00+01:00"}
    response = client.post("/api/sessions/import", json=document)
    assert_rejected(response, "created_at", "from 2000-01-01 up to now")


def test_an_import_with_integers_past_64_bits_in_the_audit_is_422(client):
    document = export(record_evening(client))
    document["audit"][0]["number"] = 2**64
    response = client.post("/api/sessions/import", json=document)
    assert_rejected(response, "audit[0].number", "integers must fit in 64 bits")
