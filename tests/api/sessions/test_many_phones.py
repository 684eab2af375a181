"""Many phones at one table (issue 16): revisions and If-Match, 304, read-only links, closing, new tokens.

Every change to a session moves its revision on by one (the ETag, ``"n"``); a change sent with
``If-Match`` of an older revision is a 412 that says what changed since, and writes nothing.
"""
import pytest

from tests.api.sessions.tables import DRAW, OPEN, Table, assert_matches_replay, discard, self_draw

BEN_FROM_CAT = discard("Ben", "Cat", 3)  # Amy deals: Cat pays Ben 100 + 20 × 3 = 160; Ben deals next


def etag(response) -> str:
    return response.headers["ETag"]


def revision_of(table) -> int:
    return table.session()["revision"]


# -- ETag and If-None-Match ------------------------------------------------------------------------


def test_the_session_carries_its_revision_as_etag_and_each_change_moves_it_on_by_one(client):
    table = Table(client)
    assert table.created["revision"] == 1
    got = client.get(table.path, headers=table.headers())
    assert (etag(got), got.get_json()["revision"]) == ('"1"', 1)
    answers = [table.hand(BEN_FROM_CAT), table.seat(3, "Eve"), client.delete(f"{table.path}/hands/1",
               headers=table.headers()), client.put(f"{table.path}/hands/1", json=DRAW, headers=table.headers()),
               client.post(f"{table.path}/close", headers=table.headers()),
               client.post(f"{table.path}/reopen", headers=table.headers())]
    assert [etag(answer) for answer in answers] == ['"2"', '"3"', '"4"', '"5"', '"6"', '"7"']
    assert revision_of(table) == 7


def test_if_none_match_of_the_current_revision_is_304_and_of_an_older_one_the_session(client):
    table = Table(client)
    same = client.get(table.path, headers=table.headers(**{"If-None-Match": '"1"'}))
    assert (same.status_code, same.get_data(), etag(same)) == (304, b"", '"1"')
    table.hands_ok(DRAW)
    moved = client.get(table.path, headers=table.headers(**{"If-None-Match": '"1"'}))
    assert (moved.status_code, etag(moved), moved.get_json()["state"]["hands_played"]) == (200, '"2"', 1)


# -- If-Match: 412 with what changed since, nothing written ------------------------------------------


def assert_stale(response, revision, since_numbers):
    assert response.status_code == 412, response.get_json()
    body = response.get_json()
    assert (body["revision"], [entry.get("number") for entry in body["since"]]) == (revision, since_numbers)
    assert "changed on another phone" in body["message"]
    assert etag(response) == f'"{revision}"'
    return body


def test_a_hand_recorded_against_an_old_revision_is_412_with_the_hands_since_and_nothing_is_written(client):
    table = Table(client)
    first = table.hand(BEN_FROM_CAT, **{"If-Match": '"1"'})
    assert (first.status_code, etag(first)) == (201, '"2"')
    before = table.snapshot()
    # The other phone recorded the same hand against revision 1 too: refused, and shown hand 1.
    body = assert_stale(table.hand(BEN_FROM_CAT, **{"If-Match": '"1"'}), 2, [1])
    assert body["since"][0]["payments"] == {"Amy": 0, "Ben": 160, "Cat": -160, "Dan": 0}
    assert body["since"][0]["body"] == BEN_FROM_CAT
    assert table.snapshot() == before
    # Recorded as a further hand (against revision 2): hand 2, Ben dealing at streak 0.
    again = table.hand(BEN_FROM_CAT, **{"If-Match": '"2"'})
    assert (again.status_code, again.get_json()["number"], again.get_json()["dealer"]) == (201, 2, "Ben")


def test_a_stale_void_correction_and_seat_change_are_412_and_change_nothing(client):
    table = Table(client)
    table.hands_ok(BEN_FROM_CAT, DRAW)  # revision 3
    before = table.snapshot()
    stale = {"If-Match": '"2"'}
    assert_stale(client.delete(f"{table.path}/hands/1", headers=table.headers(**stale)), 3, [2])
    assert_stale(client.put(f"{table.path}/hands/1", json=DRAW, headers=table.headers(**stale)), 3, [2])
    assert_stale(table.seat(3, "Eve", **stale), 3, [2])
    assert_stale(client.post(f"{table.path}/close", headers=table.headers(**stale)), 3, [2])
    assert table.snapshot() == before
    assert client.get(f"{table.path}/audit", headers=table.headers()).get_json() == []


def test_since_lists_each_changed_entry_once_as_it_is_now_in_the_order_first_changed(client):
    table = Table(client)
    table.hands_ok(BEN_FROM_CAT)  # revision 2
    table.seat(3, "Eve")  # 3
    table.hands_ok(self_draw("Ben", 1))  # 4
    assert client.delete(f"{table.path}/hands/1", headers=table.headers()).status_code == 200  # 5
    body = assert_stale(table.hand(DRAW, **{"If-Match": '"1"'}), 5, [1, None, 2])
    assert body["since"][0]["void"] is True  # hand 1 as it is now: voided
    assert body["since"][1]["player"] == "Eve"  # the seat change, as POST …/seats answered it


def test_an_idempotent_retry_answers_its_first_answer_even_with_a_stale_if_match(client):
    table = Table(client)
    key = {"Idempotency-Key": "phone-a-1", "If-Match": '"1"'}
    first = table.hand(BEN_FROM_CAT, **key)
    table.hands_ok(DRAW)
    retry = table.hand(BEN_FROM_CAT, **key)  # If-Match "1" is stale now, but the key is looked at first
    assert (retry.status_code, retry.get_json()) == (201, first.get_json())
    assert [hand["number"] for hand in table.hands()] == [1, 2]


def test_an_if_match_past_the_session_s_revision_is_412_with_nothing_since(client):
    table = Table(client)
    assert_stale_body = table.hand(DRAW, **{"If-Match": '"3000000000"'})  # past any 32-bit revision column
    assert (assert_stale_body.status_code, assert_stale_body.get_json()["since"]) == (412, [])
    assert table.hands() == []


@pytest.mark.parametrize("value", ['"x"', '"1", "2"', '"12345678901"', 'W/"1"'])
def test_an_if_match_that_names_no_one_revision_is_422(client, value):
    table = Table(client)
    response = table.hand(DRAW, **{"If-Match": value})
    assert (response.status_code, response.get_json()["field"]) == (422, "If-Match")
    assert table.hands() == []


def test_without_if_match_or_with_star_a_change_goes_in_as_before(client):
    table = Table(client)
    table.hands_ok(DRAW)
    assert table.hand(DRAW, **{"If-Match": "*"}).status_code == 201
    assert [hand["number"] for hand in table.hands()] == [1, 2]


# -- read-only links -------------------------------------------------------------------------------


def read_only(table) -> dict:
    return {"Authorization": f"Bearer {table.created['read_token']}"}


def test_the_read_only_token_reads_everything(client):
    table = Table(client)
    table.hands_ok(BEN_FROM_CAT)
    for path in ("", "/hands", "/hands/1", "/settlement", "/audit", "/hands.csv", "/report.pdf", "/export"):
        assert client.get(f"{table.path}{path}", headers=read_only(table)).status_code == 200, path
    assert client.get(table.path, headers=read_only(table)).get_json()["access"] == "read"
    assert table.session()["access"] == "write"


@pytest.mark.parametrize("method, path, body", [
    ("post", "/hands", DRAW), ("put", "/hands/1", DRAW), ("delete", "/hands/1", None),
    ("post", "/seats", {"seat": 3, "player": "Eve"}), ("post", "/close", None), ("post", "/reopen", None),
    ("post", "/tokens", None)])
def test_the_read_only_token_changes_nothing_403_with_a_message(client, method, path, body):
    table = Table(client)
    table.hands_ok(BEN_FROM_CAT)
    before = table.snapshot()
    response = getattr(client, method)(f"{table.path}{path}", json=body, headers=read_only(table))
    assert response.status_code == 403
    assert "read-only link" in response.get_json()["message"]
    assert table.snapshot() == before


# -- closing the evening -----------------------------------------------------------------------------


def test_a_closed_evening_refuses_every_change_with_409_until_reopened_and_both_are_audited(client):
    table = Table(client)
    table.hands_ok(BEN_FROM_CAT)
    closed = client.post(f"{table.path}/close", headers=table.headers(**{"X-Client": "Amy's phone"}))
    assert closed.status_code == 200
    state = closed.get_json()["state"]
    assert state["closed"] is True and state["closed_at"].endswith("+00:00")
    before = table.snapshot()
    for response in (table.hand(DRAW), table.seat(3, "Eve"), client.delete(f"{table.path}/hands/1",
                     headers=table.headers()), client.put(f"{table.path}/hands/1", json=DRAW,
                     headers=table.headers())):
        assert response.status_code == 409
        assert response.get_json()["message"] == "This evening is closed: reopen it to change it."
    assert table.snapshot() == before
    again = client.post(f"{table.path}/close", headers=table.headers())  # closing twice changes nothing
    assert (again.status_code, etag(again)) == (200, etag(closed))
    reopened = client.post(f"{table.path}/reopen", headers=table.headers(**{"X-Client": "Ben's phone"}))
    assert reopened.get_json()["state"] == {**before[0]["state"], **OPEN}
    assert table.hand(DRAW).status_code == 201
    audit = client.get(f"{table.path}/audit", headers=table.headers()).get_json()
    assert [(line["action"], line["who"], line["number"]) for line in audit] == [
        ("close", "Amy's phone", None), ("reopen", "Ben's phone", None)]
    assert_matches_replay(client.application, table)


# -- new tokens --------------------------------------------------------------------------------------


def test_new_tokens_replace_both_old_ones_which_answer_401_asking_for_the_new_link(client):
    table = Table(client)
    table.hands_ok(BEN_FROM_CAT)
    old_write, old_read = table.headers(), read_only(table)
    response = client.post(f"{table.path}/tokens", headers=old_write)
    assert response.status_code == 201
    tokens = response.get_json()
    assert {tokens["token"], tokens["read_token"]}.isdisjoint({table.token, table.created["read_token"]})
    for headers in (old_write, old_read):
        refused = client.get(table.path, headers=headers)
        assert refused.status_code == 401
        assert "ask the table for the new link" in refused.get_json()["message"]
    assert client.post(f"{table.path}/hands", json=DRAW, headers=old_write).status_code == 401
    assert client.get(table.path, headers={"Authorization": f"Bearer {tokens['token']}"}).status_code == 200
    assert client.get(table.path, headers={"Authorization": f"Bearer {tokens['read_token']}"}).get_json()[
        "access"] == "read"
    assert revision_of_with(client, table, tokens["token"]) == 2  # not a change to the evening
    assert client.get(table.path, headers={"Authorization": "Bearer never-issued"}).status_code == 403


def revision_of_with(client, table, token) -> int:
    return client.get(table.path, headers={"Authorization": f"Bearer {token}"}).get_json()["revision"]
