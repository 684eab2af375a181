"""What a request no longer does twice: parse its JSON body (webargs' parse is kept,
``api.extensions.BodyParser``), or call its view through layers that only document it
(``api.extensions.Blueprint``). Bodies are still parsed, and refused, as before.
"""
import json

import pytest

from api import create_app
from api.http.extensions import Blueprint
from tests.api.sessions.tables import Table, discard

# Full entry (taiwan), as tests/api/sessions/test_hands.py: an exposed 南 pung, 123m 456m 789p 234s, waiting on 5s.
SOUTH_PUNG = {"concealed": "123m456m789p234s5s", "melds": [{"kind": "pung", "tiles": "222z"}],
              "winning_tile": "5s"}


@pytest.fixture
def app(tmp_path):
    return create_app({"TESTING": True, "DATABASE_URL": f"sqlite:///{tmp_path / 'taizhang.sqlite'}"})


def test_a_full_entry_is_kept_as_sent_not_as_its_schema_loads_it(app):
    table = Table(app.test_client())
    table.hands_ok(discard("Ben", "Cat", 3))
    sent = {"winners": [{"player": "Cat", "hand": SOUTH_PUNG}], "by": "discard", "discarder": "Dan"}
    hand = table.hands_ok(sent)[0]
    # The schema would have added "flowers": "" to the hand and a whole "win"; the body is as sent.
    assert hand["body"] == sent
    # Cat sits 南 in the 南局 Ben deals: 門風 + 風牌, 2 台; Dan pays 100 + 2 × 20 = 140.
    assert hand["payments"] == {"Amy": 0, "Ben": 0, "Cat": 140, "Dan": -140}


@pytest.mark.parametrize("body", [b'{"winners": [', '\ufeff{"draw": true, "reason": "exhausted"}'.encode("utf-8")])
def test_a_hand_whose_body_is_not_json_is_400_and_records_nothing(app, body):
    client = app.test_client()
    table = Table(client)
    response = client.post(f"{table.path}/hands", data=body, content_type="application/json",
                           headers=table.headers())
    assert response.status_code == 400
    assert response.get_json()["message"] == "Malformed request: Invalid JSON body."
    assert json.loads(client.get(f"{table.path}/hands", headers=table.headers()).get_data()) == []


@pytest.mark.parametrize(("body", "content_type", "status"), [
    ({"draw": "true"}, None, 415),  # not JSON: webargs finds no body, the view asks Flask, which refuses it
    (b"", "application/json", 400),  # JSON, but empty: the same
])
def test_a_hand_without_a_json_body_is_refused_as_before(app, body, content_type, status):
    client = app.test_client()
    table = Table(client)
    response = client.post(f"{table.path}/hands", data=body, content_type=content_type, headers=table.headers())
    assert response.status_code == status
    assert response.get_json()["code"] == status
    assert client.get(f"{table.path}/hands", headers=table.headers()).get_json() == []


def test_documentation_decorators_return_the_view_itself_with_its_documentation():
    blp = Blueprint("probe", __name__)

    def view():
        return "view"

    documented = blp.alt_response(404, description="Not there")(blp.doc(summary="A probe")(view))
    assert documented is view
    assert view._apidoc["manual_doc"] == {"summary": "A probe"}
    assert view._apidoc["response"]["responses"][404][0]["description"] == "Not there"
