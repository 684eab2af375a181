"""Rate limits of the anonymous endpoints (issue 15, item 2): per client address, 429 with Retry-After and JSON.

The defaults (``api.http.ratelimits``): 30 session creations, 6 imports and 120
scorings a minute per address, over a moving window. Every request of a
test is sent within a few seconds, so all fall in one window.
"""
import pytest
from sqlmodel import func, select

from api.http.db import get_db
from ledger.store import SessionRow
from tests.api.sessions.tables import session_body

AMY_PHONE = {"REMOTE_ADDR": "192.0.2.10"}
BEN_PHONE = {"REMOTE_ADDR": "192.0.2.11"}


@pytest.fixture
def limited_app(make_app):
    return make_app(RATELIMIT_ENABLED=True)


def create(client, address, **headers):
    return client.post("/api/sessions", json=session_body(), environ_base=address, headers=headers)


def sessions_stored(app) -> int:
    with app.app_context():
        return get_db().exec(select(func.count()).select_from(SessionRow)).one()


def assert_too_many(response, what, limit):
    assert response.status_code == 429
    retry_after = int(response.headers["Retry-After"])
    assert 1 <= retry_after <= 60  # the window is one minute and opened moments ago
    assert response.get_json() == {
        "code": 429, "status": "Too Many Requests",
        "message": f"Too many requests from your address for {what} (at most {limit} from one address); "
                   f"try again in {retry_after} s."}


def test_the_31st_session_of_a_minute_from_one_address_is_429_and_creates_nothing(limited_app):
    client = limited_app.test_client()
    assert [create(client, AMY_PHONE).status_code for _ in range(30)] == [201] * 30
    assert_too_many(create(client, AMY_PHONE), "creating sessions", "30 per minute")
    assert sessions_stored(limited_app) == 30


def test_another_address_is_not_limited_by_the_first(limited_app):
    client = limited_app.test_client()
    for _ in range(30):
        create(client, AMY_PHONE)
    assert create(client, AMY_PHONE).status_code == 429
    assert create(client, BEN_PHONE).status_code == 201


def test_x_forwarded_for_is_not_trusted_by_default(limited_app):
    client = limited_app.test_client()
    for _ in range(30):
        create(client, AMY_PHONE)
    assert create(client, AMY_PHONE, **{"X-Forwarded-For": "198.51.100.7"}).status_code == 429


def test_behind_a_declared_proxy_the_forwarded_address_is_the_client(make_app):
    app = make_app(RATELIMIT_ENABLED=True, TRUSTED_PROXIES=1, RATE_LIMIT_CREATE_SESSION="2 per minute")
    client = app.test_client()
    proxy = {"REMOTE_ADDR": "10.0.0.1"}
    assert [create(client, proxy, **{"X-Forwarded-For": "198.51.100.7"}).status_code for _ in range(3)] \
        == [201, 201, 429]
    assert create(client, proxy, **{"X-Forwarded-For": "198.51.100.8"}).status_code == 201


def test_imports_are_limited_to_six_a_minute(limited_app):
    client = limited_app.test_client()
    created = create(client, BEN_PHONE).get_json()
    document = client.get(f"/api/sessions/{created['id']}/export",
                          headers={"Authorization": f"Bearer {created['token']}"}).get_json()
    statuses = [client.post("/api/sessions/import", json=document, environ_base=AMY_PHONE).status_code
                for _ in range(6)]
    assert statuses == [201] * 6
    assert_too_many(client.post("/api/sessions/import", json=document, environ_base=AMY_PHONE),
                    "importing sessions", "6 per minute")
    assert sessions_stored(limited_app) == 7


def test_scoring_is_limited_and_configurable(make_app):
    app = make_app(RATELIMIT_ENABLED=True, RATE_LIMIT_SCORE="3 per minute")
    client = app.test_client()
    body = {"ruleset": "taiwan", "hand": {"concealed": "123m456m789p234s56s55p", "winning_tile": "7s"}}
    assert [client.post("/api/score", json=body, environ_base=AMY_PHONE).status_code for _ in range(3)] \
        == [200] * 3
    assert_too_many(client.post("/api/score", json=body, environ_base=AMY_PHONE), "scoring hands",
                    "3 per minute")


def test_each_of_four_workers_allows_a_quarter_so_that_together_they_allow_the_limit(make_app):
    app = make_app(RATELIMIT_ENABLED=True, RATE_LIMIT_PROCESSES=4)
    client = app.test_client()
    # 30 a minute over 4 workers: 7 each (28 in all, never more than 30).
    assert [create(client, AMY_PHONE).status_code for _ in range(8)] == [201] * 7 + [429]


def test_limits_are_off_under_testing_unless_switched_on(app):
    client = app.test_client()
    assert {create(client, AMY_PHONE).status_code for _ in range(31)} == {201}


def test_reads_with_a_token_are_not_held_to_the_creation_limit_of_their_address(make_app):
    app = make_app(RATELIMIT_ENABLED=True, RATE_LIMIT_CREATE_SESSION="1 per minute")
    client = app.test_client()
    created = create(client, AMY_PHONE).get_json()
    headers = {"Authorization": f"Bearer {created['token']}"}
    reads = {client.get(f"/api/sessions/{created['id']}", headers=headers, environ_base=AMY_PHONE).status_code
             for _ in range(5)}
    assert reads == {200}


def test_group_imports_are_limited_as_session_imports_are(limited_app):
    client = limited_app.test_client()
    refused = [client.post("/api/groups/import", json={}, environ_base=AMY_PHONE).status_code for _ in range(6)]
    assert refused == [422] * 6  # counted, though refused
    assert_too_many(client.post("/api/groups/import", json={}, environ_base=AMY_PHONE), "importing groups",
                    "6 per minute")
