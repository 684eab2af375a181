"""A hand or seat change of the wrong shape is refused by its request's schema, wherever it comes from: posted
to its route, or held by a backup or a group document. Each is a 422 naming the field, worded alike in the
reader's language, and changes nothing; the ledger never sees it (its checks are what only a table knows).

The base evening (taiwan 100/20 or shanghai 10): a draw, then Eve sits in seat 3 (Dan's).
"""
import marshmallow as ma
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlmodel import func, select

from api.http.db import get_db
from api.http.errors import field_errors
from api.sessions.schemas import HandBodySchema, SeatChangeSchema
from ledger.errors import LedgerError
from ledger.group_store import GroupRow
from ledger.recorder import Recorder
from ledger.store import EntryRow, SessionRow
from tests.api.http.test_any_json import ANY_JSON, like, one_place_changed
from tests.api.sessions.tables import DRAW, PLAYERS, SHANGHAI_STAKES, TAIWAN_STAKES, Table, discard
from tests.fuzzing import examples

sqlite_only = pytest.mark.parametrize("database_kind", ["sqlite"], indirect=True)

ZH_HANT = {"Accept-Language": "zh-Hant"}
INVALID = "請求無效："  # words/zh-Hant.json api.invalid, before its problems
SEAT_CHANGE = {"seat": 3, "player": "Eve"}
# An exposed 南 pung, 123m 456m 789p 234s, waiting on 5s for the pair (as in test_hands.py).
SOUTH_PUNG = {"concealed": "123m456m789p234s5s", "melds": [{"kind": "pung", "tiles": "222z"}], "winning_tile": "5s"}

# (rule set, kind, body, the field the answer names): each once refused by ledger/entries.py or recorder.py too.
SHAPES = [
    ("taiwan", "hand", {"winner": "Amy", "by": "self_draw"}, "winner"),
    ("taiwan", "hand", {"winners": {"player": "Amy", "tai": 1}, "by": "self_draw"}, "winners"),
    ("taiwan", "hand", {"winners": ["Amy"], "by": "self_draw"}, "winners[0]"),
    ("taiwan", "hand", {"winners": [{"tai": 1}], "by": "self_draw"}, "winners[0].player"),
    ("taiwan", "hand", {"winners": [{"player": "Amy", "tai": 2.5}], "by": "self_draw"}, "winners[0].tai"),
    ("taiwan", "hand", {"winners": [{"player": "Amy", "tai": True}], "by": "self_draw"}, "winners[0].tai"),
    ("taiwan", "hand", {"winners": [{"player": "Amy", "tai": 1, "colour": "red"}], "by": "self_draw"},
     "winners[0].colour"),
    ("taiwan", "hand", {"winners": [{"player": "Amy", "hand": SOUTH_PUNG, "win": "self_draw"}], "by": "self_draw"},
     "winners[0].win"),
    ("taiwan", "hand", {"winners": [{"player": "Ben", "hand": SOUTH_PUNG}], "by": "discard", "discarder": "Dan",
                        "colour": "red"}, "colour"),
    ("taiwan", "hand", {"draw": "yes"}, "draw"),
    ("shanghai", "hand", {"draw": True, "dice": [3]}, "dice"),
    ("shanghai", "hand", {"draw": True, "dice": 7}, "dice"),
    ("shanghai", "hand", {"draw": True, "dice": [1.0, 3]}, "dice[0]"),
    ("shanghai", "hand", {"winners": [{"player": "Ben", "points": 2}], "by": "self_draw",
                          "three_mouth": ["Ben-Cat"]}, "three_mouth[0]"),
    ("shanghai", "hand", {"winners": [{"player": "Ben", "points": 2}], "by": "self_draw",
                          "three_mouth": "Ben-Cat"}, "three_mouth"),
    ("shanghai", "hand", {"winners": [{"player": "Ben", "points": 2}], "by": "self_draw",
                          "three_mouth": [["Ben"]]}, "three_mouth[0]"),
    ("shanghai", "hand", {"winners": [{"player": "Ben", "points": 2}], "by": "discard", "discarder": "Cat",
                          "discarder_ready": "yes"}, "discarder_ready"),
    ("taiwan", "seat", {"seat": 2}, "player"),
    ("taiwan", "seat", {"player": "Eve"}, "seat"),
    ("taiwan", "seat", {"seat": 2, "player": "Eve", "when": "now"}, "when"),
    ("taiwan", "seat", {"seat": True, "player": "Eve"}, "seat"),
    ("taiwan", "seat", {"seat": "1", "player": "Eve"}, "seat"),
    ("taiwan", "seat", {"seat": 1, "player": "   "}, "player"),
    ("taiwan", "seat", {"seat": 1, "player": None}, "player"),
]
ENTRY = {"hand": 0, "seat": 1}  # the base evening's entry of each kind
PATHS = {"hand": "/hands", "seat": "/seats"}


def dotted(field: str) -> str:
    """A field as a message spells it (``winners.0.tai``), not as ``field`` does (``winners[0].tai``)."""
    return field.replace("[", ".").replace("]", "")


def rows(app) -> tuple:
    with app.app_context():
        db = get_db()
        return tuple(db.exec(select(func.count()).select_from(model)).one() for model in (SessionRow, EntryRow, GroupRow))


def base_evening(client, ruleset):
    table = Table(client, ruleset=ruleset)
    table.hands_ok(DRAW)
    assert table.seat(SEAT_CHANGE["seat"], SEAT_CHANGE["player"]).status_code == 201
    return table


def exported(table):
    response = table.client.get(f"{table.path}/export", headers=table.headers())
    assert response.status_code == 200
    return response.get_json()


def holding(document, index, **changes):
    """The evening's document with entry ``index`` changed."""
    entries = [dict(entry) for entry in document["entries"]]
    entries[index].update(changes)
    return {**document, "entries": entries}


def group_document(evening):
    """A group of the evening's five players holding only that evening."""
    names = ["Amy", "Ben", "Cat", "Dan", "Eve"]
    return {"format": "taizhang-group", "version": 1, "name": "Fridays",
            "members": [{"id": f"m{i}", "name": name, "aliases": []} for i, name in enumerate(names)],
            "evenings": [{"id": "e1", "players": {name: f"m{i}" for i, name in enumerate(names)}, "export": evening}],
            "payments": [], "seasons": []}


def refused(response, field: str) -> str:
    """A 422 naming ``field``, worded in the reader's language; its message."""
    assert response.status_code == 422, response.get_json()
    answer = response.get_json()
    assert answer["field"] == field, answer
    assert answer["message"].startswith(f"{INVALID}{dotted(field)}: "), answer
    return answer["message"]


@sqlite_only
@pytest.mark.parametrize("ruleset, kind, body, field", SHAPES)
def test_the_schema_refuses_it_naming_the_field(app, ruleset, kind, body, field):
    schema = HandBodySchema() if kind == "hand" else SeatChangeSchema()
    with app.test_request_context(), pytest.raises(ma.ValidationError) as caught:
        schema.load(body)
    assert [".".join(path) for path, _ in field_errors(caught.value.messages)] == [dotted(field)]


@sqlite_only
@pytest.mark.parametrize("ruleset, kind, body, field", SHAPES)
def test_its_route_a_backup_and_a_group_document_refuse_it_alike_changing_nothing(app, client, ruleset, kind,
                                                                                  body, field):
    table = base_evening(client, ruleset)
    document = exported(table)
    before, evening = rows(app), table.snapshot()
    said = refused(client.post(f"{table.path}{PATHS[kind]}", json=body, headers=table.headers(**ZH_HANT)), field)
    assert table.snapshot() == evening
    problem = said.removeprefix(INVALID)
    bad = holding(document, ENTRY[kind], body=body)
    entry = f"entries[{ENTRY[kind]}].body"
    backup = refused(client.post("/api/sessions/import", json=bad, headers=ZH_HANT), f"{entry}.{field}")
    assert backup == f"{INVALID}{dotted(entry)}.{problem}"
    group = refused(client.post("/api/groups/import", json=group_document(bad), headers=ZH_HANT),
                    f"evenings[0].export.{entry}.{field}")
    assert group == f"{INVALID}evenings.0.export.{dotted(entry)}.{problem}"
    assert rows(app) == before


@sqlite_only
@pytest.mark.parametrize("ruleset", ["taiwan", "shanghai"])
def test_the_base_evening_imports_as_a_backup_and_in_a_group(app, client, ruleset):
    """What the refusals above change is the body alone."""
    document = exported(base_evening(client, ruleset))
    assert client.post("/api/sessions/import", json=document).status_code == 201
    assert client.post("/api/groups/import", json=group_document(document)).status_code == 201


@sqlite_only
def test_a_backups_names_are_normalised_as_a_routes(client):
    table = Table(client)
    table.hands_ok(discard("Ben", "Cat", 3))
    document = holding(exported(table), 0, body={"winners": [{"player": "Ben\u3000", "tai": 3}], "by": "discard",
                                                 "discarder": " Cat"})
    response = client.post("/api/sessions/import", json=document)
    assert response.status_code == 201, response.get_json()
    created = response.get_json()
    hand = client.get(f"/api/sessions/{created['id']}/hands/1",
                      headers={"Authorization": f"Bearer {created['token']}"}).get_json()
    # Amy deals; Ben's 3 台 on Cat's discard: Cat pays 100 + 3 × 20 = 160.
    assert (hand["body"], created["totals"]) == (discard("Ben", "Cat", 3), {"Amy": 0, "Ben": 160, "Cat": -160,
                                                                            "Dan": 0})


@sqlite_only
def test_an_audits_hand_bodies_are_loaded_as_the_hand_routes(app, client):
    table = Table(client)
    table.hands_ok(discard("Ben", "Cat", 3))
    assert table.correct(1, discard("Ben", "Cat", 5)).status_code == 200
    document = exported(table)
    before = rows(app)
    for side in ("before", "after"):
        bent = {**document, "audit": [{**document["audit"][0], side: {"winners": [{"player": "Ben", "tai": "5"}],
                                                                      "by": "discard", "discarder": "Cat"}}]}
        refused(client.post("/api/sessions/import", json=bent, headers=ZH_HANT), f"audit[0].{side}.winners[0].tai")
    lost = {**document, "audit": [{**document["audit"][0], "before": None}]}  # only a new hand's line has none
    refused(client.post("/api/sessions/import", json=lost, headers=ZH_HANT), "audit[0].before")
    assert rows(app) == before


# Bodies that reach every field the ledger reads: shanghai's extras, a taiwan_zz event, a full entry.
VALID = {
    "shanghai": {"winners": [{"player": "Ben", "points": 2}], "by": "discard", "discarder": "Cat", "dice": [1, 4],
                 "three_mouth": [["Ben", "Cat"]], "discarder_ready": True},
    "taiwan_zz": {"winners": [{"player": "Ben", "tai": 8, "event": "seven_flowers_rob"}], "by": "discard",
                  "discarder": "Dan"},
    "taiwan": {"winners": [{"player": "Ben", "hand": SOUTH_PUNG, "win": {"by": "discard"}}], "by": "discard",
               "discarder": "Dan"},
}


@sqlite_only
@pytest.mark.parametrize("ruleset", list(VALID))
@settings(max_examples=examples(bounded=40, deep=400), deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(data=st.data())
def test_what_the_schema_loads_the_ledger_records_or_refuses_naming_a_field(app, ruleset, data):
    """The ledger trusts the shape: whatever the schema lets through is recorded or a `LedgerError`, never
    another exception (a 5xx)."""
    body = data.draw(one_place_changed(VALID[ruleset]) | like(VALID[ruleset]) | ANY_JSON, label="body")
    with app.test_request_context():
        try:
            loaded = HandBodySchema().load(body)
        except ma.ValidationError:
            return
    if ruleset == "shanghai":
        recorder = Recorder.start(ruleset, PLAYERS, SHANGHAI_STAKES, None)
    else:
        recorder = Recorder.start(ruleset, PLAYERS, TAIWAN_STAKES, {"multiple_winners": True})
    try:
        recorder.record("hand", loaded)
    except LedgerError:
        assert recorder.state.hands_played == 0
