"""A whole group exported and imported back; an evening's export imported into a group."""
import pytest
from sqlalchemy import func, select
from sqlmodel import SQLModel

from api.groups import service
from api.http import db
from api.http.db import get_engine
from api.sessions import documents as evening_documents
from tests.api.groups.groups import Club
from tests.api.sessions.tables import assert_rejected, discard


def played_club(client):
    """Four members and a guest, two evenings (a substitute, a void), a payment and a voided one, a season."""
    club = Club(client)
    for name in ("Amy", "Ben", "Cat", "Dan"):
        club.add(name, aliases=[name.lower()])
    club.add("Eve")
    first = club.evening(["Amy", "Ben", "Cat", "Dan"])
    first.win("Ben", "Cat")
    assert client.post(f"{first.path}/seats", json={"seat": 2, "player": "Eve"}, headers=club.headers()).status_code == 201
    first.win("Eve", "Amy", tai=2)
    first.win("Dan", "Eve")
    client.delete(f"{first.path}/hands/3", headers=club.headers())
    second = club.evening(["Dan", "Cat", "Ben", "Amy"], name="Saturday")
    second.win("Cat", "Ben")
    assert club.pay("Cat", "Ben", 60, session=first.id).status_code == 201
    voided = club.pay("Amy", "Eve", 10).get_json()
    client.delete(f"{club.path}/payments/{voided['id']}", headers=club.headers())
    club.post_ok("/seasons", {"name": "Winter", "from": "2026-01-01", "to": "2026-12-31"}, level="admin")
    return club


def comparable(document):
    """The document with ids replaced by what they name (members by name, evenings by position)."""
    names = {member["id"]: member["name"] for member in document["members"]}
    evenings = {evening["id"]: index for index, evening in enumerate(document["evenings"])}
    return {
        **{key: document[key] for key in ("format", "version", "name", "defaults", "seasons")},
        "members": [{**member, "id": None} for member in document["members"]],
        "evenings": [{"players": {player: names[member] for player, member in evening["players"].items()},
                      "export": {**evening["export"], "exported_at": None}} for evening in document["evenings"]],
        "payments": [{**payment, "from": names[payment["from"]], "to": names[payment["to"]],
                      "session": evenings.get(payment["session"])} for payment in document["payments"]],
    }


def test_a_group_exported_and_imported_exports_the_same(client, monkeypatch):
    # Written three rows a transaction (PIECE_ROWS), as a large group is in pieces of 250, and each piece
    # flushed two rows at a time (api.http.db.FLUSH_ROWS, 25): the pieces and their flushes add up.
    monkeypatch.setattr(evening_documents, "PIECE_ROWS", 3)
    monkeypatch.setattr(db, "FLUSH_ROWS", 2)
    club = played_club(client)
    exported = club.get_ok("/export")
    assert len(exported["evenings"]) == 2 and len(exported["payments"]) == 2
    response = client.post("/api/groups/import", json=exported)
    assert response.status_code == 201, response.get_json()
    created = response.get_json()
    assert created["id"] != club.id and created["admin_token"] not in club.tokens.values()
    again = client.get(f"/api/groups/{created['id']}/export",
                       headers={"Authorization": f"Bearer {created['read_token']}"}).get_json()
    assert comparable(again) == comparable(exported)
    balances = client.get(f"/api/groups/{created['id']}/balances",
                          headers={"Authorization": f"Bearer {created['read_token']}"}).get_json()
    assert balances["balances"] == club.balances()["balances"]


def test_a_group_document_that_does_not_hold_together_creates_nothing(client):
    club = played_club(client)
    exported = club.get_ok("/export")
    stranger = {**exported, "payments": [{**exported["payments"][0], "to": "nobody"}]}
    assert_rejected(client.post("/api/groups/import", json=stranger), "payments[0].to", "nobody")
    self_paid = {**exported, "payments": [{**exported["payments"][0], "to": exported["payments"][0]["from"]}]}
    assert_rejected(client.post("/api/groups/import", json=self_paid), "payments[0].to", "oneself")
    evening = exported["evenings"][0]
    unmapped = {**exported, "evenings": [{**evening, "players": {"Amy": evening["players"]["Amy"]}}]}
    assert_rejected(client.post("/api/groups/import", json=unmapped), "evenings[0].players", "Ben")
    # Defaults an evening could never start from are refused now, not at the group's next evening.
    bad_defaults = {**exported, "defaults": {"ruleset": "taiwan", "stakes": {"base": 100, "per_tai": 20},
                                             "house_rules": {"false_win": [None, None]}}}
    assert_rejected(client.post("/api/groups/import", json=bad_defaults), "house_rules.false_win", "")


def row_counts(app) -> dict[str, int]:
    """How many rows each table of the database holds."""
    with get_engine(app).connect() as connection:
        return {table.name: connection.execute(select(func.count()).select_from(table)).scalar()
                for table in SQLModel.metadata.sorted_tables}


def test_an_import_that_fails_halfway_leaves_nothing_behind(app, client, monkeypatch):
    club = played_club(client)
    exported = club.get_ok("/export")
    before = row_counts(app)
    monkeypatch.setattr(evening_documents, "PIECE_ROWS", 2)
    joined = []
    join_evening = service.join_evening

    def fails_at_the_second_evening(*args, **kwargs):
        # The group, its roster and the first evening have been committed in pieces by now.
        joined.append(args[2].id)
        if len(joined) == 2:
            raise RuntimeError("the database went away")
        join_evening(*args, **kwargs)

    monkeypatch.setattr(service, "join_evening", fails_at_the_second_evening)
    with pytest.raises(RuntimeError, match="went away"):
        client.post("/api/groups/import", json=exported)
    assert len(joined) == 2
    assert row_counts(app) == before


@pytest.mark.parametrize("database_kind", ["sqlite"], indirect=True)
def test_a_group_document_past_its_limit_is_413_saying_so_in_the_readers_language(app, client, monkeypatch):
    monkeypatch.setitem(app.config, "MAX_GROUP_IMPORT_BYTES", 2**20)
    before = row_counts(app)
    body = b'{"name": "' + b"x" * 2**20 + b'"}'
    answer = client.post("/api/groups/import", data=body, content_type="application/json",
                         headers={"Accept-Language": "zh-TW"})
    assert answer.status_code == 413
    assert answer.get_json()["message"] == "這份文件太大，無法一次匯入：這裡最多 1 MB（1048576 位元組）。"
    answer = client.post("/api/groups/import", data=body, content_type="application/json")
    assert answer.get_json()["message"] == ("This document is too large to import at once: at most 1 MB "
                                            "(1048576 bytes) here.")
    assert row_counts(app) == before


def test_an_evenings_export_joins_a_group_with_its_names_mapped(client):
    club = Club(client)
    ids = {name: club.add(name) for name in ("Amy", "Ben", "Cat", "Dan")}
    club.add("Benjamin")
    created = client.post("/api/sessions", json={"name": "At home", "ruleset": "taiwan", "players": ["A", "Ben", "C", "D"],
                                                 "stakes": {"base": 100, "per_tai": 20}}).get_json()
    own = {"Authorization": f"Bearer {created['token']}"}
    client.post(f"/api/sessions/{created['id']}/hands", json=discard("Ben", "C"), headers=own)
    export = client.get(f"/api/sessions/{created['id']}/export", headers=own).get_json()
    mapping = {"A": "Amy", "C": ids["Cat"], "D": "Dan"}  # Ben is the member of that name
    assert_rejected(club.post("/sessions/import", {"export": export, "players": {"A": "Amy", "C": "Cat"}}),
                    "players.D", "D")
    assert club.post("/sessions/import", {"export": export, "players": mapping}, level="read").status_code == 403
    imported = club.post_ok("/sessions/import", {"export": export, "players": mapping})
    assert imported["group"] == club.id and imported["totals"] == {"A": 0, "Ben": 120, "C": -120, "D": 0}
    listed = club.get_ok()["evenings"]
    assert [evening["players"] for evening in listed] == [
        {"A": ids["Amy"], "Ben": ids["Ben"], "C": ids["Cat"], "D": ids["Dan"]}]
    assert club.balances()["balances"] == {"Amy": 0, "Ben": 120, "Benjamin": 0, "Cat": -120, "Dan": 0}
