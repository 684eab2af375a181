"""Event streams are bounded per address, per evening and per worker (issue 27, item 1).

Streams are opened and kept open (``buffered=False``) as a phone keeps its
EventSource; closing the answer gives the place back, as a phone going away does.
"""
import threading
import time

import pytest

from api.http import auth
from api.sessions import events, stream_gate
from tests.api.sessions.tables import DRAW, Table

HOME = {"REMOTE_ADDR": "192.0.2.30"}
ELSEWHERE = {"REMOTE_ADDR": "192.0.2.31"}


def stream(client, table, address=HOME, **headers):
    return client.get(f"{table.path}/events", query_string={"token": table.created["read_token"]},
                      environ_base=address, headers=headers, buffered=False)


@pytest.fixture
def bounded(make_app):
    def build(**settings):
        app = make_app(**settings)
        app.config.update(EVENTS_STREAM_S=0.2, EVENTS_HEARTBEAT_S=0.1)
        return app.test_client()
    return build


def test_an_evening_holds_its_bound_of_streams_and_a_closed_one_gives_its_place_back(bounded):
    client = bounded(EVENTS_PER_EVENING=2)
    table = Table(client)
    held = [stream(client, table), stream(client, table, ELSEWHERE)]
    assert [answer.status_code for answer in held] == [200, 200]
    refused = stream(client, table, **{"Accept-Language": "zh-TW"})
    assert refused.status_code == 429
    assert refused.headers["Retry-After"] == "30"
    assert refused.get_json()["message"] == "這個牌局的即時連線太多（每個牌局最多 2）：請 30 秒後再試。"
    assert stream(client, Table(client)).status_code == 200  # another evening has its own bound
    held[0].close()
    assert stream(client, table).status_code == 200


def test_an_address_holds_its_bound_of_streams_across_evenings(bounded):
    client = bounded(EVENTS_PER_ADDRESS=2)
    tables = [Table(client) for _ in range(3)]
    assert [stream(client, table).status_code for table in tables[:2]] == [200, 200]
    refused = stream(client, tables[2])
    assert refused.status_code == 429
    assert refused.get_json()["message"] == ("Too many live streams from your address (at most 2 from one "
                                             "address): try again in 30 s.")
    assert stream(client, tables[2], ELSEWHERE).status_code == 200


def test_a_full_worker_is_503_with_retry_after(bounded):
    client = bounded(EVENTS_PER_WORKER=1)
    first, second = Table(client), Table(client)
    assert stream(client, first).status_code == 200
    refused = stream(client, second, ELSEWHERE)
    assert refused.status_code == 503
    assert refused.headers["Retry-After"] == "30"


def test_each_of_several_workers_holds_its_share_of_the_server_wide_bounds(bounded):
    client = bounded(EVENTS_PER_EVENING=5, RATE_LIMIT_PROCESSES=2)  # 5 // 2 = 2 in this process
    table = Table(client)
    assert [stream(client, table).status_code for _ in range(3)] == [200, 200, 429]


def test_a_stream_read_to_its_end_gives_its_place_back(bounded):
    client = bounded(EVENTS_PER_EVENING=1)
    table = Table(client)
    ended = stream(client, table)
    assert ended.get_data(as_text=True).startswith("retry: 1000")  # ends after EVENTS_STREAM_S
    ended.close()  # what a WSGI server does with every answer once it is sent
    assert stream(client, table).status_code == 200


def test_a_refused_token_takes_no_place(bounded):
    client = bounded(EVENTS_PER_EVENING=1)
    table = Table(client)
    wrong = client.get(f"{table.path}/events", query_string={"token": "nope"}, environ_base=HOME, buffered=False)
    assert wrong.status_code == 403
    assert stream(client, table).status_code == 200


def test_openings_past_the_rate_are_429_in_the_readers_language_before_the_token_is_read(bounded, monkeypatch):
    client = bounded(RATELIMIT_ENABLED=True, RATE_LIMIT_STREAMS="2 per minute")
    table = Table(client)
    assert stream(client, table).status_code == 200
    wrong = client.get(f"{table.path}/events", query_string={"token": "nope"}, environ_base=HOME, buffered=False)
    assert wrong.status_code == 403  # the second opening of the minute: its token is read, and refused
    # The third is refused at the door (api.sessions.stream_gate): no token is looked up, right or wrong.
    monkeypatch.setattr(auth, "token_matches", lambda *_: pytest.fail("a token was read"))
    refused = stream(client, table, **{"Accept-Language": "zh-CN"})
    assert refused.status_code == 429
    assert 1 <= int(refused.headers["Retry-After"]) <= 60
    assert refused.get_json() == {"code": 429, "status": "Too Many Requests", "message":
                                  "您的地址开启实时连接的请求太多（同一地址最多 2 per minute）；请 "
                                  f"{refused.headers['Retry-After']} 秒后再试。"}
    assert refused.headers["X-Content-Type-Options"] == "nosniff" and refused.headers["X-Frame-Options"] == "DENY"
    monkeypatch.undo()
    assert stream(client, table, ELSEWHERE).status_code == 200  # another address counts its own


def test_streams_start_a_few_at_a_time_and_other_requests_do_not_wait_for_them(bounded, monkeypatch):
    # STREAM_STARTS streams of a worker check their token at once (api.sessions.stream_gate): on PostgreSQL 120
    # let in together took every pooled connection, and the honest table's hand queued for one.
    monkeypatch.setattr(stream_gate, "STREAM_STARTS", 1)
    client = bounded()
    table = Table(client)
    entered, go_on = [], threading.Event()
    view_reads_the_evening = events.current_session

    def held_in_the_view():
        entered.append(threading.current_thread().name)
        if len(entered) == 1:
            assert go_on.wait(10)
        return view_reads_the_evening()

    monkeypatch.setattr(events, "current_session", held_in_the_view)
    answers = {}

    def open_stream(name):
        answers[name] = stream(client, table)
        answers[name].close()

    first = threading.Thread(target=open_stream, args=("first",), name="first")
    first.start()
    while not entered and first.is_alive():
        time.sleep(0.01)
    second = threading.Thread(target=open_stream, args=("second",), name="second")
    second.start()
    second.join(0.5)
    assert entered == ["first"]  # the second waits at the gate for the first's start-up to end
    assert table.hand(DRAW).status_code == 201  # a hand is no stream: it waits for none
    go_on.set()
    first.join(10)
    second.join(10)
    assert entered == ["first", "second"]
    assert answers["first"].status_code == answers["second"].status_code == 200
