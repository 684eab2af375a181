"""Limits (issue 15, item 1): names, participants, hands and imports have sizes no evening reaches.

Every limit is a setting of ``api.http.limits`` with a documented default; each is
tested at its default (the value in the message is written out here) and,
where it matters, set lower through the app's config.
"""
import json

import pytest
from sqlmodel import func, select

from api.http.db import get_db
from ledger.store import SessionRow
from tests.api.sessions.tables import DRAW, PLAYERS, Table, assert_rejected, discard, session_body
from tests.api.sessions.test_backup import draws_document

FORTY = "阿" * 40  # 40 characters: the longest name (120 bytes in UTF-8, still 40 characters)


def sessions_count(app) -> int:
    """How many sessions the database holds."""
    with app.app_context():
        return get_db().exec(select(func.count()).select_from(SessionRow)).one()


# -- names ------------------------------------------------------------------------------------


def test_a_name_of_forty_characters_is_kept_and_of_forty_one_refused(client):
    table = Table(client, players=[FORTY, "Ben", "Cat", "Dan"])
    assert table.session()["players"][0] == FORTY
    response = client.post("/api/sessions", json=session_body(players=[FORTY + "阿", "Ben", "Cat", "Dan"]))
    assert_rejected(response, "players[0]", "At most 40 characters")


def test_a_long_name_is_refused_in_seats_and_hands_changing_nothing(client):
    table = Table(client)
    before = table.snapshot()
    assert_rejected(table.seat(0, "E" * 41), "player", "At most 40 characters")
    assert_rejected(table.hand(discard("B" * 41, "Cat")), "winners[0].player", "At most 40 characters")
    assert_rejected(table.hand(discard("Ben", "C" * 41)), "discarder", "At most 40 characters")
    assert table.snapshot() == before


def test_the_name_limit_is_a_setting(make_app):
    client = make_app(MAX_NAME_LENGTH=5).test_client()
    assert Table(client, players=["Amy", "Ben", "Cat", "Dan"]).session()["players"] == PLAYERS
    response = client.post("/api/sessions", json=session_body(players=["Amelia", "Ben", "Cat", "Dan"]))
    assert_rejected(response, "players[0]", "At most 5 characters")
    spec = client.get("/api/openapi.json").get_json()
    assert spec["components"]["schemas"]["SeatChange"]["properties"]["player"]["maxLength"] == 5


def test_the_spec_states_the_name_limit(client):
    spec = client.get("/api/openapi.json").get_json()
    player = spec["components"]["schemas"]["SeatChange"]["properties"]["player"]
    assert (player["minLength"], player["maxLength"]) == (1, 40)


# -- participants -----------------------------------------------------------------------------


def seat_newcomers(table, count, first=1):
    """Seat ``count`` people who never played, one after another, in seat 3."""
    for index in range(first, first + count):
        response = table.seat(3, f"Guest {index}")
        assert response.status_code == 201, response.get_json()


def test_the_seventeenth_participant_is_refused_and_returners_still_sit(client):
    table = Table(client)
    seat_newcomers(table, 12)  # Amy, Ben, Cat, Dan and 12 guests: 16 people have sat
    assert len(table.totals()) == 16
    before = table.snapshot()
    assert_rejected(table.seat(3, "Guest 13"), "player", "at most 16 participants", "Guest 13")
    assert table.snapshot() == before
    assert table.seat(3, "Dan").status_code == 201  # who played before may come back
    assert table.get("/settlement")["transfers"] == []


def test_an_import_with_seventeen_participants_is_refused(app, client):
    stamp = "2026-11-29T20:05:00+00:00"
    document = draws_document(0)
    document["entries"] = [{"kind": "seat", "number": None, "body": {"seat": 3, "player": f"Guest {index}"},
                            "void": False, "client": "test", "created_at": stamp, "updated_at": stamp}
                           for index in range(1, 14)]
    count = sessions_count(app)
    response = client.post("/api/sessions/import", json=document)
    assert response.status_code == 422
    assert "at most 16 participants" in response.get_json()["message"]
    assert sessions_count(app) == count


# -- hands and imports ------------------------------------------------------------------------


def test_an_import_over_the_hands_limit_is_refused_before_its_replay(make_app):
    client = make_app(MAX_HANDS=3).test_client()
    assert client.post("/api/sessions/import", json=draws_document(3)).status_code == 201
    response = client.post("/api/sessions/import", json=draws_document(4))
    assert_rejected(response, "entries", "at most 3 hands", "has 4")


def test_the_hand_past_the_hands_limit_is_refused_and_a_seat_change_still_goes_in(make_app):
    table = Table(make_app(MAX_HANDS=3).test_client())
    table.hands_ok(DRAW, DRAW, DRAW)
    before = table.snapshot()
    assert_rejected(table.hand(DRAW), "hands", "at most 3 hands", "start a new evening")
    assert table.snapshot() == before
    assert table.seat(3, "Eve").status_code == 201  # not a hand: the evening can still change seats


def test_a_configured_participant_limit_holds_for_seat_changes(make_app):
    table = Table(make_app(MAX_PARTICIPANTS=5).test_client())
    assert table.seat(3, "Eve").status_code == 201  # the fifth
    assert_rejected(table.seat(2, "Fay"), "player", "at most 5 participants")
    assert table.seat(3, "Dan").status_code == 201  # who already sat may come back


def test_the_hands_limit_defaults_to_five_thousand(client):
    assert client.application.config["MAX_HANDS"] == 5000


@pytest.mark.parametrize("database_kind", ["sqlite"], indirect=True)
def test_an_import_over_two_megabytes_is_413(client):
    body = json.dumps(draws_document(13_000))
    assert len(body) > 2 * 1024 * 1024
    response = client.post("/api/sessions/import", data=body, content_type="application/json")
    assert response.status_code == 413
    assert response.get_json()["message"] == ("This document is too large to import at once: at most 2 MB "
                                              "(2097152 bytes) here.")


def test_an_import_with_a_long_name_is_refused(client):
    document = {**draws_document(1), "players": ["B" * 41, "Ben", "Cat", "Dan"]}
    response = client.post("/api/sessions/import", json=document)
    assert_rejected(response, "players[0]", "At most 40 characters")

