"""Bounded work, backups that carry on, imported trust and headers (issue 15, items 6, 7, 10, 11)."""
import pytest

from api.sessions import backup
from tests.api.sessions.tables import DRAW, Table, assert_rejected, discard, self_draw
from tests.api.sessions.test_backup import draws_document, export, import_document, opened, record_evening

# -- round_to (item 6) ------------------------------------------------------------------------


@pytest.mark.parametrize("suffix", ["/settlement", "/report.pdf"])
@pytest.mark.parametrize("round_to", ["0", "1000001", "9223372036854775808", "1" * 5000])
def test_round_to_outside_one_to_a_million_is_422(client, suffix, round_to):
    table = Table(client)
    response = client.get(f"{table.path}{suffix}?round_to={round_to}", headers=table.headers())
    assert response.status_code == 422
    assert response.get_json()["field"] == "query.round_to"


def test_round_to_a_million_is_the_largest_accepted(client):
    table = Table(client)
    table.hands_ok(discard("Ben", "Cat", 3))  # Cat pays Ben 100 + 3 × 20 = 160
    settlement = table.get("/settlement?round_to=1000000")
    assert settlement["rounding"]["round_to"] == 1_000_000
    assert settlement["totals"] == {"Amy": 0, "Ben": 0, "Cat": 0, "Dan": 0}


def test_the_round_to_limit_is_a_setting(make_app):
    table = Table(make_app(MAX_ROUND_TO=100).test_client())
    assert table.get("/settlement?round_to=100")["rounding"]["round_to"] == 100
    response = table.client.get(f"{table.path}/settlement?round_to=101", headers=table.headers())
    assert response.status_code == 422
    assert "from 1 to 100" in response.get_json()["message"]
    spec = table.client.get("/api/openapi.json").get_json()
    parameters = spec["paths"]["/api/sessions/{session_id}/settlement"]["get"]["parameters"]
    assert [parameter["schema"]["maximum"] for parameter in parameters if parameter["name"] == "round_to"] == [100]


# -- GET …/hands in pages (item 6) ------------------------------------------------------------


def numbers(hands):
    return [hand["number"] for hand in hands]


def test_hands_come_in_pages_after_a_number(client):
    table = Table(client)
    table.hands_ok(*[DRAW] * 5)
    assert numbers(table.get("/hands")) == [1, 2, 3, 4, 5]
    assert numbers(table.get("/hands?limit=2")) == [1, 2]
    assert numbers(table.get("/hands?after=2&limit=2")) == [3, 4]
    assert numbers(table.get("/hands?after=4&limit=2")) == [5]
    assert numbers(table.get("/hands?after=3")) == [4, 5]
    assert table.get("/hands?after=5&limit=2") == []


def test_a_page_keeps_voided_hands_and_the_same_views(client):
    table = Table(client)
    table.hands_ok(discard("Ben", "Cat", 3), self_draw("Ben", 2), DRAW)
    table.void(2)
    everything = table.get("/hands")
    assert table.get("/hands?after=1&limit=1") == [everything[1]]
    assert everything[1]["void"] is True


@pytest.mark.parametrize("query", ["limit=0", "limit=1001", "after=-1", "limit=x"])
def test_a_page_outside_the_limits_is_422(client, query):
    table = Table(client)
    response = client.get(f"{table.path}/hands?{query}", headers=table.headers())
    assert response.status_code == 422
    assert response.get_json()["field"].startswith("query.")


def test_the_page_limit_is_a_setting(make_app):
    table = Table(make_app(HANDS_PAGE_LIMIT=2).test_client())
    table.hands_ok(DRAW, DRAW, DRAW)
    assert numbers(table.get("/hands?limit=2")) == [1, 2]
    response = table.client.get(f"{table.path}/hands?limit=3", headers=table.headers())
    assert response.status_code == 422
    assert "from 1 to 2" in response.get_json()["message"]


# -- backups (item 7) -------------------------------------------------------------------------


def test_a_session_that_cannot_be_written_does_not_stop_the_others(client, runner, tmp_path, monkeypatch):
    tables = [Table(client, name=name) for name in ("First", "Broken", "Last")]
    broken = tables[1].id
    export_document = backup.export_document

    def failing(record):
        if record.session.id == broken:
            raise UnicodeEncodeError("utf-8", "\ud800", 0, 1, "surrogates not allowed")
        return export_document(record)

    monkeypatch.setattr(backup, "export_document", failing)
    result = runner.invoke(args=["backup", str(tmp_path / "backups")])
    assert result.exit_code == 1
    assert f"Session {broken}: not written: UnicodeEncodeError" in result.output
    assert "Wrote 2 sessions" in result.output
    assert f"1 session could not be written: {broken}" in result.output
    assert sorted(path.name for path in (tmp_path / "backups").iterdir()) == sorted(
        f"{table.id}.json" for table in (tables[0], tables[2]))


def test_a_file_that_cannot_be_written_leaves_no_partial_file_and_the_old_one(client, runner, tmp_path, monkeypatch):
    table = Table(client)
    assert runner.invoke(args=["backup", str(tmp_path / "backups")]).exit_code == 0
    old = (tmp_path / "backups" / f"{table.id}.json").read_text(encoding="utf-8")
    table.hands_ok(DRAW)

    def full_disk(source, destination):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(backup.os, "replace", full_disk)
    result = runner.invoke(args=["backup", str(tmp_path / "backups")])
    assert result.exit_code == 1
    assert "No space left on device" in result.output
    assert [path.name for path in (tmp_path / "backups").iterdir()] == [f"{table.id}.json"]
    assert (tmp_path / "backups" / f"{table.id}.json").read_text(encoding="utf-8") == old


# -- imported trust (item 10) -----------------------------------------------------------------


def tampered_export(client, change):
    document = export(record_evening(client))
    change(document)
    return client.post("/api/sessions/import", json=document)


@pytest.mark.parametrize("field,change,phrase", [
    ("audit[0].at", lambda d: d["audit"][0].update(at="2999-01-01T00:00:00+00:00"), "up to now"),
    ("entries[0].created_at", lambda d: d["entries"][0].update(created_at="2999-01-01T00:00:00+00:00"),
     "up to now"),
    ("created_at", lambda d: d.update(created_at="1999-12-31T23:59:59+00:00"), "from 2000-01-01"),
    ("entries[1].created_at", lambda d: d["entries"][1].update(created_at="2020-01-01T00:00:00+00:00"),
     "before the session began"),
    ("audit[0].at", lambda d: d["audit"][0].update(at=d["created_at"]), "before it was entered"),
    ("entries[0].updated_at", lambda d: d["entries"][0].update(updated_at=d["created_at"]),
     "updated before it was created"),
    ("audit[1].before.winners", lambda d: d["audit"][1].update(before={"winners": "everyone"}),
     "audit.1.before.winners: Not a valid list"),
])
def test_an_import_of_what_cannot_have_happened_is_refused(client, field, change, phrase):
    assert_rejected(tampered_export(client, change), field, phrase)


def test_a_moment_after_the_export_is_refused(client):
    def exported_early(document):
        document["exported_at"] = document["created_at"]
    response = tampered_export(client, exported_early)
    assert response.status_code == 422
    assert "after the document was exported" in response.get_json()["message"]


def test_an_honest_export_still_imports(client):
    table = record_evening(client)
    copy = opened(client, import_document(client, export(table)))
    assert copy.audit() == table.audit()


# -- headers (item 11) ------------------------------------------------------------------------


def test_every_answer_with_session_data_says_no_store(client):
    created = client.post("/api/sessions", json={"name": "x", "ruleset": "taiwan", "players": ["A", "B", "C", "D"],
                                                 "stakes": {"base": 1, "per_tai": 1}})
    assert created.headers["Cache-Control"] == "no-store"
    table = record_evening(client)
    for suffix in ["", "/hands", "/hands/1", "/settlement", "/audit", "/hands.csv", "/report.pdf", "/export"]:
        response = client.get(table.path + suffix, headers=table.headers())
        assert response.status_code == 200, suffix
        assert response.headers["Cache-Control"] == "no-store", suffix
    for response in [table.hand(DRAW), table.seat(3, "Dan"), table.void(1), table.correct(1, DRAW),
                     client.post("/api/sessions/import", json=draws_document(1))]:
        assert response.headers["Cache-Control"] == "no-store"


def test_the_spec_says_what_the_server_enforces(client):
    schemas = client.get("/api/openapi.json").get_json()["components"]["schemas"]
    create = schemas["SessionCreate"]["properties"]
    assert (create["players"]["minItems"], create["players"]["maxItems"]) == (4, 4)
    assert (create["players"]["items"]["minLength"], create["players"]["items"]["maxLength"]) == (1, 40)
    assert create["ruleset"]["enum"] == ["taiwan", "taiwan_zz", "shanghai"]
    assert schemas["Stakes"]["properties"]["base"]["minimum"] == 1
    assert schemas["HandBody"]["properties"]["reason"]["enum"] == ["exhausted", "four_winds", "four_kongs"]
    assert "only with draw: true" in schemas["HandBody"]["properties"]["reason"]["description"]
    assert (schemas["SeatChange"]["properties"]["seat"]["minimum"],
            schemas["SeatChange"]["properties"]["seat"]["maximum"]) == (0, 3)
