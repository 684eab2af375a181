"""Backups: GET /export, POST /import and `flask --app api backup DIR`.

The evening used throughout (taiwan, 底 100, 台 20, dealer extra 1 + 2n;
RULES.md §6), worked by hand:

1. Ben 3 台 on Cat's discard, Amy deals (streak 0): Cat pays 100 + 3×20 = 160.
   Ben deals next.
2. Ben self-draws 2 台, Ben deals (streak 0, extra 1): each of Amy, Cat, Dan
   pays 100 + (2+1)×20 = 160. Ben keeps the deal (streak 1).
3. Draw: Ben keeps the deal (streak 2).
   Seat change: Eve sits in seat 3 in place of Dan.
4. Eve 1 台 on Ben's discard, Ben deals (streak 2, extra 5): 100 + 6×20 = 220.
   Cat deals next.
5. Cat 4 台 on Amy's discard, Cat deals (streak 0, extra 1): 100 + 5×20 = 200.
   Cat keeps the deal (streak 1).

Then hand 3 is voided (so Ben's streak at hand 4 is 1, extra 3: Ben pays
100 + 4×20 = 180) and hand 1 is corrected to 5 台 (Cat pays 100 + 5×20 = 200):

    Amy  -160 (2) -200 (5)             = -360
    Ben  +200 (1) +480 (2) -180 (4)    = +500
    Cat  -200 (1) -160 (2) +200 (5)    = -160
    Dan  -160 (2)                      = -160
    Eve  +180 (4)                      = +180

and Cat deals (seat 2, 西局) with streak 1 after 4 hands that count.
"""
import json

import pytest
from sqlmodel import func, select

from api.sessions.schemas import FORMAT
from api.http.db import get_db
from ledger.store import AuditRow, EntryRow, SessionRow
from tests.api.sessions.tables import DRAW, OPEN, PLAYERS, Table, assert_rejected, discard, self_draw

sqlite_only = pytest.mark.parametrize("database_kind", ["sqlite"], indirect=True)

EVENING_TOTALS = {"Amy": -360, "Ben": 500, "Cat": -160, "Dan": -160, "Eve": 180}
EVENING_STATE = {"dealer": "Cat", "streak": 1, "round_wind": "E", "hand_wind": "W", "hands_played": 4,
                 "wasteland": 0, "seats": ["Amy", "Ben", "Cat", "Eve"], "jiang": 1}
HANDS = [discard("Ben", "Cat", 3), self_draw("Ben", 2), DRAW, discard("Eve", "Ben", 1), discard("Cat", "Amy", 4)]
CORRECTED_FIRST = discard("Ben", "Cat", 5)
# seed 004's 四暗刻 example (fixtures/worked_hands_taiwan.json): 22 台 self-drawn, no wind pattern.
FOUR_CONCEALED_PUNGS = {
    "player": "Ben",
    "hand": {"concealed": "111p111s666z777z5z", "melds": [{"kind": "pung", "tiles": "111m"}],
             "winning_tile": "5z"},
    "win": {"by": "self_draw"},
}


def record_evening(client):
    """The evening of the module docstring, entered as the phones would."""
    table = Table(client)
    table.hands_ok(*HANDS[:3])
    assert table.seat(3, "Eve", **{"X-Client": "Amy's phone"}).status_code == 201
    table.hands_ok(*HANDS[3:])
    assert table.void(3, **{"X-Client": "Ben's phone"}).status_code == 200
    assert table.correct(1, CORRECTED_FIRST, **{"X-Client": "Cat's phone"}).status_code == 200
    return table


def export(table):
    response = table.client.get(f"{table.path}/export", headers=table.headers())
    assert response.status_code == 200, response.get_json()
    return response.get_json()


def import_document(client, document):
    response = client.post("/api/sessions/import", json=document)
    assert response.status_code == 201, response.get_json()
    return response.get_json()


def opened(client, created):
    """A `Table` for a session created by an import."""
    table = Table.__new__(Table)
    table.client, table.created, table.id, table.token = client, created, created["id"], created["token"]
    table.path = f"/api/sessions/{table.id}"
    return table


def without_export_time(document):
    return {key: value for key, value in document.items() if key != "exported_at"}


def row_counts(app):
    with app.app_context():
        db = get_db()
        return tuple(db.exec(select(func.count()).select_from(model)).one()
                     for model in (SessionRow, EntryRow, AuditRow))


def test_the_evening_adds_up_as_worked_by_hand(client):
    table = record_evening(client)
    assert table.totals() == EVENING_TOTALS
    assert table.session()["state"] == {**EVENING_STATE, **OPEN}


def test_export_holds_players_stakes_options_and_every_entry_as_entered(client):
    table = record_evening(client)
    document = export(table)
    assert document["format"] == FORMAT and document["version"] == 1
    assert (document["name"], document["ruleset"], document["players"]) == ("Friday at Amy's", "taiwan", PLAYERS)
    assert document["stakes"] == {"base": 100, "per_tai": 20}
    assert document["options"] == {"dealer_bonus": True, "multiple_winners": False, "max_tai": None}
    entries = document["entries"]
    assert [(e["kind"], e["number"], e["void"]) for e in entries] == [
        ("hand", 1, False), ("hand", 2, False), ("hand", 3, True), ("seat", None, False),
        ("hand", 4, False), ("hand", 5, False)]
    assert [e["body"] for e in entries] == [CORRECTED_FIRST, HANDS[1], DRAW, {"seat": 3, "player": "Eve"},
                                            HANDS[3], HANDS[4]]
    assert entries[3]["client"] == "Amy's phone"
    assert document["totals"] == EVENING_TOTALS
    assert document["state"] == EVENING_STATE


def test_export_keeps_the_audit_trail_of_voids_and_corrections(client):
    document = export(record_evening(client))
    assert [(a["number"], a["action"], a["who"], a["before"], a["after"]) for a in document["audit"]] == [
        (3, "void", "Ben's phone", DRAW, None),
        (1, "correct", "Cat's phone", HANDS[0], CORRECTED_FIRST),
    ]
    for audit in document["audit"]:
        assert audit["at"].endswith("+00:00")


def test_import_recreates_the_session_with_a_new_id_and_token(client):
    original = record_evening(client)
    created = import_document(client, export(original))
    assert created["id"] != original.id and created["token"] != original.token
    copy = opened(client, created)
    assert copy.totals() == EVENING_TOTALS
    assert copy.session()["state"] == {**EVENING_STATE, **OPEN}
    assert copy.session()["created_at"] == original.session()["created_at"]
    assert [seat["player"] for seat in copy.session()["seat_changes"]] == ["Eve"]


def test_import_gives_identical_hands_audit_and_export(client):
    original = record_evening(client)
    copy = opened(client, import_document(client, export(original)))
    assert copy.hands() == original.hands()
    assert copy.audit() == original.audit()
    assert without_export_time(export(copy)) == without_export_time(export(original))


def test_an_imported_session_goes_on_where_the_original_stopped(client):
    original = record_evening(client)
    copy = opened(client, import_document(client, export(original)))
    # hand 6: Cat deals with streak 1 (extra 3) and self-draws 1 台: Amy, Ben, Eve each pay 100 + 4×20 = 180.
    [hand] = copy.hands_ok(self_draw("Cat", 1))
    assert hand["number"] == 6
    assert hand["payments"] == {"Amy": -180, "Ben": -180, "Cat": 540, "Eve": -180}
    assert copy.totals() == {"Amy": -540, "Ben": 320, "Cat": 380, "Dan": -160, "Eve": 0}
    assert original.totals() == EVENING_TOTALS


def test_tokens_of_original_and_copy_do_not_open_each_other(client):
    original = record_evening(client)
    copy = opened(client, import_document(client, export(original)))
    assert client.get(copy.path, headers=original.headers()).status_code == 403
    assert client.get(original.path, headers=copy.headers()).status_code == 403


def test_a_full_entry_round_trips_and_is_scored_again_on_import(client):
    # Amy deals (streak 0): Amy pays 100 + (22+1)×20 = 560, Cat and Dan 100 + 22×20 = 540 each.
    table = Table(client)
    [hand] = table.hands_ok({"winners": [FOUR_CONCEALED_PUNGS], "by": "self_draw"})
    assert hand["payments"] == {"Amy": -560, "Ben": 1640, "Cat": -540, "Dan": -540}
    document = export(table)
    assert document["entries"][0]["body"] == {"winners": [FOUR_CONCEALED_PUNGS], "by": "self_draw"}
    copy = opened(client, import_document(client, document))
    [copied] = copy.hands()
    assert copied["scores"][0]["tai"] == 22
    assert copied["scores"][0]["score"]["total"] == 22
    assert copy.totals() == {"Amy": -560, "Ben": 1640, "Cat": -540, "Dan": -540}


def test_a_shanghai_evening_round_trips_with_dice_and_three_mouth(client):
    # 底分 10. Hand 1: dice (1,1) make H = 2, a 荒番 hand; Ben wins 10 points on Cat's discard, Ben and Cat
    # are related (三口): the discarder pays two shares of 10 × 10 × 2 = 200 each: 400. H becomes 1.
    # Hand 2: dice (2,3) add nothing, H = 1 still: Ben deals and self-draws 4 points: each of the three
    # pays 4 × 10 × 2 = 80. H becomes 0.
    table = Table(client, ruleset="shanghai")
    table.hands_ok({"winners": [{"player": "Ben", "points": 10}], "by": "discard", "discarder": "Cat",
                    "dice": [1, 1], "three_mouth": [["Ben", "Cat"]]},
                   {"winners": [{"player": "Ben", "points": 4}], "by": "self_draw", "dice": [2, 3]})
    totals = {"Amy": -80, "Ben": 640, "Cat": -480, "Dan": -80}
    assert table.totals() == totals
    copy = opened(client, import_document(client, export(table)))
    assert copy.totals() == totals
    assert copy.session()["state"]["wasteland"] == 0
    assert copy.hands() == table.hands()


# -- refused documents -----------------------------------------------------------------


def tampered(document, **changes):
    return {**document, **changes}


def with_entry(document, index, **changes):
    entries = [dict(entry) for entry in document["entries"]]
    entries[index].update(changes)
    return {**document, "entries": entries}


def refused(app, client, document, field, *phrases):
    before = row_counts(app)
    response = client.post("/api/sessions/import", json=document)
    assert_rejected(response, field, *phrases)
    assert row_counts(app) == before


@pytest.mark.parametrize(("change", "field"), [
    ({"format": "something-else"}, "format"),
    ({"version": 2}, "version"),
    ({"entries": None}, "entries"),
    ({"surprise": 1}, "surprise"),
    ({"created_at": "2026-11-29T20:05:00"}, "created_at"),
    ({"ruleset": "riichi"}, "ruleset"),
])
def test_malformed_documents_are_422_naming_the_field(app, client, change, field):
    document = export(record_evening(client))
    before = row_counts(app)
    response = client.post("/api/sessions/import", json=tampered(document, **change))
    assert response.status_code == 422
    assert field in response.get_json()["message"]
    assert row_counts(app) == before


def test_totals_that_are_not_what_the_entries_give_are_refused(app, client):
    document = export(record_evening(client))
    bent = {**EVENING_TOTALS, "Amy": -260, "Ben": 400}
    refused(app, client, tampered(document, totals=bent), "totals", "replay to the totals")


def test_a_state_that_is_not_what_the_entries_give_is_refused(app, client):
    document = export(record_evening(client))
    refused(app, client, tampered(document, state={**EVENING_STATE, "streak": 3}), "state", "replay to the state")


def test_a_hand_the_ledger_refuses_is_refused_naming_it(app, client):
    document = export(record_evening(client))
    bad = with_entry(document, 1, body=self_draw("Zoe", 2))
    refused(app, client, bad, "winners[0].player", "hand 2", "Zoe")


def test_a_hand_body_of_the_wrong_shape_is_refused(app, client):
    document = export(record_evening(client))
    bad = with_entry(document, 0, body={"winners": [{"player": "Ben", "tai": "three"}], "by": "discard",
                                        "discarder": "Cat"})
    refused(app, client, bad, "entries[0].body.winners[0].tai", "entries.0.body.winners.0.tai: Not a valid integer")


def test_hand_numbers_out_of_order_are_refused(app, client):
    document = export(record_evening(client))
    refused(app, client, with_entry(document, 4, number=5), "entries[4].number", "must be 4")
    refused(app, client, with_entry(document, 3, number=4), "entries[3].number", "must be null")


def test_a_void_seat_change_is_refused(app, client):
    document = export(record_evening(client))
    refused(app, client, with_entry(document, 3, void=True), "entries[3].void", "only a hand")


def test_an_audit_of_a_hand_the_document_lacks_is_refused(app, client):
    document = export(record_evening(client))
    audit = [dict(document["audit"][0], number=9)]
    refused(app, client, tampered(document, audit=audit), "audit[0].number", "hand 9")


def test_stakes_the_ledger_refuses_are_refused(app, client):
    document = export(record_evening(client))
    refused(app, client, tampered(document, stakes={"base": 0, "per_tai": 20}), "stakes.base")


def test_a_body_that_is_not_json_is_400(client):
    response = client.post("/api/sessions/import", data="{", content_type="application/json")
    assert response.status_code == 400


# -- size limits -----------------------------------------------------------------------


def draws_document(hands):
    """A taiwan evening of nothing but draws: Amy keeps the deal, streak = hands, all totals 0."""
    stamp = "2026-11-29T20:05:00+00:00"
    entries = [{"kind": "hand", "number": n, "body": DRAW, "void": False, "client": "test",
                "created_at": stamp, "updated_at": stamp} for n in range(1, hands + 1)]
    return {"format": FORMAT, "version": 1, "name": "Long night", "ruleset": "taiwan", "players": PLAYERS,
            "stakes": {"base": 100, "per_tai": 20}, "options": {}, "created_at": stamp, "entries": entries,
            "audit": [], "totals": dict.fromkeys(PLAYERS, 0),
            "state": {"dealer": "Amy", "streak": hands, "round_wind": "E", "hand_wind": "E",
                      "hands_played": hands, "wasteland": 0, "seats": PLAYERS, "jiang": 1}}


@sqlite_only
def test_a_document_larger_than_other_requests_may_be_imported(app, client):
    document = draws_document(2000)
    assert len(json.dumps(document)) > app.config["MAX_CONTENT_LENGTH"]
    copy = opened(client, import_document(client, document))
    assert copy.session()["state"]["streak"] == 2000
    assert len(copy.hands()) == 2000


@sqlite_only
def test_a_document_over_the_import_limit_is_413(make_app):
    client = make_app(MAX_IMPORT_BYTES=10_000).test_client()
    response = client.post("/api/sessions/import", json=draws_document(200))
    assert response.status_code == 413
    assert response.get_json()["message"] == ("This document is too large to import at once: at most 0.00954 MB "
                                              "(10000 bytes) here.")


@sqlite_only
def test_the_import_limit_does_not_raise_other_limits(make_app):
    client = make_app(MAX_IMPORT_BYTES=10**8).test_client()
    table = Table(client)
    response = client.post(f"{table.path}/hands", data="x" * (300 * 1024), content_type="application/json",
                           headers=table.headers())
    assert response.status_code == 413


# -- the backup command ------------------------------------------------------------------


def test_backup_writes_every_session_as_its_export(app, client, runner, tmp_path):
    tables = [record_evening(client), Table(client, ruleset="shanghai"), Table(client, name="Empty")]
    result = runner.invoke(args=["backup", str(tmp_path / "backups")])
    assert result.exit_code == 0, result.output
    assert result.output.strip() == f"Wrote 3 sessions to {tmp_path / 'backups'}"
    files = sorted(path.name for path in (tmp_path / "backups").iterdir())
    assert files == sorted(f"{table.id}.json" for table in tables)
    for table in tables:
        written = json.loads((tmp_path / "backups" / f"{table.id}.json").read_text(encoding="utf-8"))
        assert without_export_time(written) == without_export_time(export(table))


def test_a_backup_file_imports_to_the_same_totals(client, runner, tmp_path):
    table = record_evening(client)
    assert runner.invoke(args=["backup", str(tmp_path)]).exit_code == 0
    document = json.loads((tmp_path / f"{table.id}.json").read_text(encoding="utf-8"))
    assert opened(client, import_document(client, document)).totals() == EVENING_TOTALS


@sqlite_only
def test_backup_of_an_empty_database_writes_nothing(runner, tmp_path):
    result = runner.invoke(args=["backup", str(tmp_path / "none")])
    assert result.exit_code == 0
    assert result.output.strip() == f"Wrote 0 sessions to {tmp_path / 'none'}"
    assert list((tmp_path / "none").iterdir()) == []


# -- backup --keep N and the import command (issue 26: the nightly timer and restoring) -----------------------


@sqlite_only
def test_backup_keep_writes_a_dated_folder_and_deletes_all_but_the_newest(client, runner, tmp_path):
    table = record_evening(client)
    # Three folders of earlier nights and a file of the person's own, which is never touched.
    for night in ("2026-11-28T03-00-00Z", "2026-11-29T03-00-00Z", "2026-11-30T03-00-00Z"):
        (tmp_path / night).mkdir()
        (tmp_path / night / "old.json").write_text("{}", encoding="utf-8")
    (tmp_path / "notes.txt").write_text("mine", encoding="utf-8")
    result = runner.invoke(args=["backup", str(tmp_path), "--keep", "2"])
    assert result.exit_code == 0, result.output
    folders = sorted(path.name for path in tmp_path.iterdir() if path.is_dir())
    # The two newest: the night of 2026-11-30 and the one just written (named after now, later than 2026-11-30).
    assert len(folders) == 2 and folders[0] == "2026-11-30T03-00-00Z" and folders[1] > "2026-11-30"
    assert [path.name for path in (tmp_path / folders[1]).iterdir()] == [f"{table.id}.json"]
    assert (tmp_path / "notes.txt").read_text(encoding="utf-8") == "mine"
    assert "Deleted the older backup" in result.output and "2026-11-28T03-00-00Z" in result.output


@sqlite_only
def test_backup_keep_must_keep_at_least_one(runner, tmp_path):
    result = runner.invoke(args=["backup", str(tmp_path), "--keep", "0"])
    assert result.exit_code == 2 and "--keep" in result.output


def restored(client, output: str, name: str):
    """The `Table` of the session the import command says it made of file `name`."""
    line = next(line for line in output.splitlines() if line.startswith(name))
    session_id = line.rsplit(" ", 1)[1]
    tokens = output.splitlines()[output.splitlines().index(line) + 1].split()
    return opened(client, {"id": session_id, "token": tokens[1]}), tokens[4]


@sqlite_only
def test_import_command_restores_a_backup_with_new_ids_and_prints_the_tokens(client, runner, tmp_path):
    table = record_evening(client)
    assert runner.invoke(args=["backup", str(tmp_path)]).exit_code == 0
    result = runner.invoke(args=["import", str(tmp_path)])
    assert result.exit_code == 0, result.output
    copy, read_token = restored(client, result.output, str(tmp_path / f"{table.id}.json"))
    assert copy.id != table.id
    assert copy.totals() == EVENING_TOTALS
    assert client.get(f"{copy.path}/settlement", headers={"Authorization": f"Bearer {read_token}"}).status_code == 200
    assert result.output.splitlines()[-1] == "Imported 1 of 1 file"


@sqlite_only
def test_import_command_prints_links_on_the_public_address(make_app, tmp_path):
    app = make_app(PUBLIC_URL="https://taizhang.example.org/")
    client, runner = app.test_client(), app.test_cli_runner()
    table = record_evening(client)
    (tmp_path / "evening.json").write_text(json.dumps(export(table)), encoding="utf-8")
    result = runner.invoke(args=["import", str(tmp_path / "evening.json")])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    session_id = lines[0].rsplit(" ", 1)[1]
    assert lines[1].startswith(f"  keep score: https://taizhang.example.org/#s={session_id}&t=")
    assert lines[2].startswith(f"  watch:      https://taizhang.example.org/#s={session_id}&t=")


@sqlite_only
def test_import_command_names_a_refused_file_and_imports_the_others(client, runner, tmp_path):
    table = record_evening(client)
    document = export(table)
    (tmp_path / "a-good.json").write_text(json.dumps(document), encoding="utf-8")
    (tmp_path / "b-totals.json").write_text(json.dumps({**document, "totals": {**document["totals"], "Amy": 0}}),
                                            encoding="utf-8")
    (tmp_path / "c-not-json.json").write_text("{", encoding="utf-8")
    before = row_counts(client.application)
    result = runner.invoke(args=["import", str(tmp_path)])
    assert result.exit_code == 1
    assert "Imported 1 of 3 files" in result.output
    assert "b-totals.json: not imported" in result.output and "c-not-json.json: not imported" in result.output
    assert "2 could not be imported" in result.output
    assert row_counts(client.application)[0] == before[0] + 1
