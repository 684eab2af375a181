"""Response bodies written by ``api.extensions.ResponseJSON``: the same JSON as Flask's encoder.

orjson writes the usual bodies; what it would write differently or refuses
goes to Flask's ``json.dumps``. Expected bodies are written out by hand.
"""
import datetime
import json

import pytest

from api import create_app
from tests.api.sessions.tables import Table


@pytest.fixture(scope="module")
def app(tmp_path_factory):
    """One app for the module: its tests write bodies and one evening of their own (building and migrating an
    app for each test was nearly all of their time)."""
    database = tmp_path_factory.mktemp("response_json") / "taizhang.sqlite"
    return create_app({"TESTING": True, "DATABASE_URL": f"sqlite:///{database}"})


def body_of(app, value):
    with app.app_context():
        response = app.json.response(value)
    assert response.mimetype == "application/json"
    return response.get_data()


def test_keys_are_sorted_without_spaces_and_the_body_ends_with_a_newline(app):
    value = {"b": [1, None, True, False], "a": {"d": -7, "c": "x"}}
    assert body_of(app, value) == b'{"a":{"c":"x","d":-7},"b":[1,null,true,false]}\n'


def test_names_in_chinese_are_sent_as_utf8_and_read_back_the_same(app):
    body = body_of(app, {"players": ["張三", "李四"]})
    assert body == '{"players":["張三","李四"]}\n'.encode("utf-8")
    assert json.loads(body) == {"players": ["張三", "李四"]}


def test_an_integer_past_64_bits_is_written_whole(app):
    assert body_of(app, {"total": 2**70}) == b'{"total":1180591620717411303424}\n'
    assert body_of(app, {"total": -(2**63)}) == b'{"total":-9223372036854775808}\n'


def test_a_lone_surrogate_is_escaped_as_flask_does(app):
    assert body_of(app, {"name": "a\ud800"}) == b'{"name":"a\\ud800"}\n'


def test_dates_are_http_dates_as_flask_writes_them(app):
    moment = datetime.datetime(2026, 12, 1, 9, 30, tzinfo=datetime.timezone.utc)
    assert body_of(app, {"at": moment}) == b'{"at":"Tue, 01 Dec 2026 09:30:00 GMT"}\n'


def test_integer_keys_are_written_as_strings_as_flask_does(app):
    assert body_of(app, {0: "first", 1: "second"}) == b'{"0":"first","1":"second"}\n'


def test_debug_mode_indents_as_flask_does(app, monkeypatch):
    monkeypatch.setattr(app, "debug", True)
    assert body_of(app, {"b": 1, "a": 2}) == b'{\n  "a": 2,\n  "b": 1\n}\n'


def test_the_openapi_document_keeps_its_order_and_indentation(app):
    body = app.test_client().get("/api/openapi.json").get_data(as_text=True)
    # flask-smorest's order (paths first, not sorted), indented by two spaces; the 503 of /api/health
    # is documented before its 200, as it was declared.
    assert body.startswith('{\n  "paths": {\n    "/api/health": {\n      "get": {\n        "responses": {\n'
                           '          "503": {')
    assert list(json.loads(body)) == ["paths", "info", "tags", "openapi", "components"]


def test_a_hand_at_a_table_of_chinese_names_reads_back_with_its_payments(app):
    table = Table(app.test_client(), players=["甲", "乙", "丙", "丁"])
    response = table.hand({"winners": [{"player": "乙", "tai": 2}], "by": "discard", "discarder": "丙"})
    assert response.status_code == 201
    assert response.mimetype == "application/json"
    hand = json.loads(response.get_data())
    # 甲 deals; 乙 wins 2 台 on 丙's discard: 丙 pays 100 + 2 × 20 = 140, the dealer takes no part.
    assert hand["payments"] == {"甲": 0, "乙": 140, "丙": -140, "丁": 0}
    assert hand["body"]["winners"] == [{"player": "乙", "tai": 2}]
    assert hand["state"]["seats"] == ["甲", "乙", "丙", "丁"]
