"""Text as wide as its VARCHAR column is kept, one character more is a 422, on both databases.

PostgreSQL refuses a string longer than its column (a 500 if the app let it through), SQLite keeps it: these
are the explicit checks of what the fuzzing (tests/api/http/test_fuzz.py, SQLite in ``make test``) would find
there. The characters are CJK, three bytes each, so that a width counted in bytes would fail too.
"""
import pytest

from ledger.group_store import NAME_LENGTH
from ledger.store import CLIENT_KEPT
from tests.api.competitions.test_competitions import BODY
from tests.api.groups.groups import Club
from tests.api.sessions.tables import Table, assert_rejected, discard

WIDEST = "阿" * NAME_LENGTH  # 200 characters, 600 bytes in UTF-8


def test_group_member_and_alias_names_fill_their_columns_and_no_more(client):
    club = Club(client, name=WIDEST)
    assert club.get_ok()["name"] == WIDEST
    assert_rejected(client.post("/api/groups", json={"name": WIDEST + "阿"}), "name", "200")
    member = club.post_ok("/members", {"name": WIDEST, "aliases": ["梅" * NAME_LENGTH]})
    assert (member["name"], member["aliases"]) == (WIDEST, ["梅" * NAME_LENGTH])
    assert_rejected(club.post("/members", {"name": "蘭" * (NAME_LENGTH + 1)}), "name", "200")
    assert_rejected(club.post("/members", {"name": "Eve", "aliases": ["竹" * (NAME_LENGTH + 1)]}), "aliases[0]", "200")


def test_a_payment_note_fills_its_column_and_no_more(client):
    club = Club.with_members(client, ["Amy", "Ben"])
    assert club.pay("Ben", "Amy", 120, note=WIDEST).get_json()["note"] == WIDEST
    assert_rejected(club.pay("Ben", "Amy", 120, note=WIDEST + "阿"), "note", "200")
    assert [payment["amount"] for payment in club.get_ok("/payments")["payments"]] == [120]


def test_an_evening_and_a_competition_name_fill_their_columns_and_no_more(client):
    table = Table(client, name=WIDEST)
    assert table.session()["name"] == WIDEST
    assert_rejected(client.post("/api/competitions", json={**BODY, "name": WIDEST + "阿"}), "name", "200")
    created = client.post("/api/competitions", json={**BODY, "name": WIDEST})
    assert created.status_code == 201, created.get_json()
    assert created.get_json()["name"] == WIDEST


@pytest.mark.parametrize("width", [CLIENT_KEPT, 100, 101, 1000])
def test_a_long_x_client_label_is_kept_at_its_first_characters(client, width):
    table = Table(client)
    label = "阿" * width  # UTF-8 in the header, read again as such (api.http.auth.client_label)
    sent = label.encode("utf-8").decode("latin-1")
    assert table.hand(discard("Ben", "Cat"), **{"X-Client": sent}).status_code == 201
    assert table.get("/hands")[0]["client"] == "阿" * CLIENT_KEPT
