"""Parameters outside what a column holds: a 4xx naming the parameter, never a 500 (issue 27, item 6).

Each of these was a 500 on PostgreSQL (some on SQLite too): ids, revisions
and hand numbers live in 32-bit INTEGER columns (2,147,483,647 at most),
PostgreSQL refuses a NUL in any text it is sent, and an empty ``If-Match``
tag reached code that expected digits.
"""
import pytest

from api.sessions.schemas import MAX_NUMBER
from tests.api.groups.groups import Club
from tests.api.sessions.tables import Table, discard, self_draw

PLAYERS = ["Amy", "Ben", "Cat", "Dan"]
PAST_INT32 = "2147483648"  # 2**31: the first number a 32-bit INTEGER cannot hold
PAST_INT64 = "9223372036854775808"  # 2**63


@pytest.fixture
def club(client):
    return Club.with_members(client, PLAYERS)


@pytest.mark.parametrize("path", ["/close", "/hands", "/seats", "/tokens"])
def test_an_empty_if_match_tag_is_refused_naming_if_match(client, club, path):
    evening = club.evening(PLAYERS)
    before = client.get(evening.path, headers=club.headers("read")).get_json()["revision"]
    body = {"draw": True, "reason": "exhausted"} if path == "/hands" else {"seat": 0, "player": "Amy"}
    response = client.post(evening.path + path, json=body, headers={**club.headers("admin"), "If-Match": '""'})
    assert response.status_code == 422, response.get_json()
    assert response.get_json()["field"] == "If-Match"
    assert "If-Match" in response.get_json()["message"]
    assert client.get(evening.path, headers=club.headers("read")).get_json()["revision"] == before


def test_an_empty_if_match_tag_on_a_group_evening_hand_is_refused_in_chinese(client, club):
    evening = club.evening(PLAYERS)
    response = client.post(evening.path + "/hands", json={"draw": True, "reason": "exhausted"},
                           headers={**club.headers(), "If-Match": '"", "2"', "Accept-Language": "zh-TW"})
    assert response.status_code == 422
    assert response.get_json()["message"].startswith("If-Match 必須指明一個版本")


@pytest.mark.parametrize("suffix", ["/standings", "/standings.csv", "/standings.png", "/report.pdf"])
@pytest.mark.parametrize("season", ["99999999999999999999", PAST_INT32, "0"])
def test_a_season_no_column_holds_is_refused_naming_season(club, suffix, season):
    response = club.get(suffix, query_string={"season": season})
    assert response.status_code == 422, response.data[:200]
    body = response.get_json()
    assert body["field"] == "query.season" or "season" in body["message"]


def test_the_largest_season_id_a_column_holds_is_merely_unknown(club):
    response = club.get("/standings", query_string={"season": "2147483647"})
    assert response.status_code == 422
    assert response.get_json() == {**response.get_json(), "field": "season",
                                   "message": "season: no season 2147483647 in this group"}


@pytest.mark.parametrize("payment_id", [PAST_INT64, PAST_INT32, "99999999999999999999999"])
def test_voiding_a_payment_number_no_column_holds_is_no_payment(club, payment_id):
    club.pay("Amy", "Ben", 300)
    response = club.client.delete(f"{club.path}/payments/{payment_id}", headers=club.headers())
    assert response.status_code == 404
    assert response.get_json()["message"] == f"No payment {payment_id} in this group."
    assert [payment["void"] for payment in club.get_ok("/payments")["payments"]] == [False]


@pytest.mark.parametrize("member", ["%00", "Amy%00", "%07"])
def test_a_member_path_with_a_character_no_name_holds_is_no_member(client, club, member):
    admin = club.headers("admin")
    answers = [client.get(f"{club.path}/members/{member}", headers=admin),
               client.patch(f"{club.path}/members/{member}", json={"name": "Zed"}, headers=admin),
               client.post(f"{club.path}/members/{member}/merge", json={"into": "Amy"}, headers=admin)]
    assert [answer.status_code for answer in answers] == [404, 404, 404]
    assert all(answer.get_json()["message"].startswith("No member ") for answer in answers)
    assert sorted(member["name"] for member in club.get_ok()["members"]) == PLAYERS


@pytest.mark.parametrize("after", ["9999999999", PAST_INT32, "²", "-1", "1.5"])
def test_resuming_after_a_revision_no_column_holds_is_refused_naming_after(client, club, after):
    evening = club.evening(PLAYERS)
    response = client.get(f"{evening.path}/events", query_string={"after": after, "token": club.tokens["read"]})
    assert response.status_code == 422
    assert response.get_json()["field"] == "after"
    assert response.get_json()["message"] == ("Last-Event-ID and after must be a revision: a whole number "
                                              "from 0 to 2147483647.")
    by_header = client.get(f"{evening.path}/events", query_string={"token": club.tokens["read"]},
                           headers={"Last-Event-ID": after})
    assert by_header.status_code == 422


@pytest.mark.parametrize("method", ["GET", "PUT", "DELETE"])
@pytest.mark.parametrize("number", [MAX_NUMBER + 1, 2**63, 0])
def test_a_hand_number_no_column_can_hold_is_404(client, method, number):
    # schemathesis found GET /hands/9223372036854775808 crashing the database driver (500) on both engines.
    evening = Table(client)
    evening.hands_ok(discard("Ben", "Cat", 3), self_draw("Ben", 2))
    response = client.open(f"{evening.path}/hands/{number}", method=method, headers=evening.headers(),
                           json=discard("Ben", "Cat", 1))
    assert response.status_code == 404
    assert response.is_json
