"""Live updates (issue 16): ``GET /api/sessions/<id>/events``, one Server-Sent Event per revision, in order.

The stream is read through Flask's test client without buffering: each chunk the app yields is one
event (or the first ``retry:`` line, or a heartbeat comment).
"""
import threading

import pytest

from api.http.live import end_streams
from tests.api.competitions.test_competitions import NAMES, entered
from tests.api.sessions.tables import DRAW, Table, discard, self_draw
from tests.api.streams import WAIT_S, EventStream

HEARTBEAT_S = 0.1  # so that a stream the test is done with ends at once


class Stream(EventStream):
    """An evening's open event stream (``tests/api/streams.py``), its ids the evening's revisions."""

    def __init__(self, client, table, query="", **headers):
        client.application.config["EVENTS_HEARTBEAT_S"] = HEARTBEAT_S
        super().__init__(client, f"{table.path}/events{query}", headers)


@pytest.fixture
def streams():
    opened = []
    yield lambda *args, **kwargs: opened.append(Stream(*args, **kwargs)) or opened[-1]
    for stream in opened:
        stream.close()


def read_token(table):
    return {"Authorization": f"Bearer {table.created['read_token']}"}


def test_the_stream_starts_now_and_sends_each_change_in_order_with_the_entry_state_and_totals(client, streams):
    table = Table(client)
    stream = streams(client, table, **read_token(table))  # the read-only link may follow the evening
    assert stream.response.status_code == 200
    assert stream.response.mimetype == "text/event-stream"
    table.hands_ok(discard("Ben", "Cat", 3))
    table.seat(3, "Eve")
    assert client.delete(f"{table.path}/hands/1", headers=table.headers()).status_code == 200
    assert client.put(f"{table.path}/hands/1", json=DRAW, headers=table.headers()).status_code == 200
    assert client.post(f"{table.path}/close", headers=table.headers()).status_code == 200
    assert client.post(f"{table.path}/reopen", headers=table.headers()).status_code == 200
    events = stream.take(6)
    assert [(revision, kind) for revision, kind, _ in events] == [
        (2, "hand"), (3, "seat"), (4, "void"), (5, "correct"), (6, "close"), (7, "reopen")]
    hand = events[0][2]
    assert (hand["revision"], hand["kind"], hand["entry"]["number"]) == (2, "hand", 1)
    # Cat pays Ben 100 + 20 × 3 = 160; Ben deals next.
    assert hand["totals"] == {"Amy": 0, "Ben": 160, "Cat": -160, "Dan": 0}
    assert (hand["state"]["dealer"], hand["state"]["closed"]) == ("Ben", False)
    assert events[1][2]["entry"]["player"] == "Eve"
    assert events[2][2]["entry"]["void"] is True and events[2][2]["totals"]["Ben"] == 0
    assert events[4][2]["entry"] is None and events[4][2]["state"]["closed"] is True
    assert stream.first_line == "retry: 1000\n\n"


def test_after_and_last_event_id_resume_with_every_change_since(client, streams):
    table = Table(client)
    table.hands_ok(DRAW, DRAW, self_draw("Amy", 1))  # revisions 2, 3, 4
    assert [event[0] for event in streams(client, table, "?after=1", **table.headers()).take(3)] == [2, 3, 4]
    resumed = streams(client, table, **table.headers(**{"Last-Event-ID": "3"}))
    revision, kind, data = resumed.take(1)[0]
    assert (revision, kind, data["entry"]["number"]) == (4, "hand", 3)
    table.hands_ok(DRAW)
    assert resumed.take(1)[0][:2] == (5, "hand")  # and then on, live


def test_the_token_may_come_in_the_query_and_a_wrong_one_is_refused(client, streams):
    table = Table(client)
    stream = streams(client, table, f"?token={table.created['read_token']}&after=1")
    assert stream.response.status_code == 200
    assert client.get(f"{table.path}/events?token=nope").status_code == 403
    assert client.get(f"{table.path}/events").status_code == 401
    assert client.get(f"{table.path}/events?after=x", headers=table.headers()).status_code == 422


def test_no_event_is_lost_or_repeated_when_eight_phones_record_at_once(app, streams):
    client = app.test_client()
    table = Table(client)
    stream = streams(client, table, **table.headers())
    per_phone = 5

    def phone(index):
        own = app.test_client()
        for number in range(per_phone):
            response = own.post(f"{table.path}/hands", json=DRAW,
                                headers=table.headers(**{"Idempotency-Key": f"phone{index}-{number}"}))
            assert response.status_code == 201

    threads = [threading.Thread(target=phone, args=(index,)) for index in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(WAIT_S)
    events = stream.take(8 * per_phone)
    assert [revision for revision, _, _ in events] == list(range(2, 2 + 8 * per_phone))
    assert sorted(data["entry"]["number"] for _, _, data in events) == list(range(1, 1 + 8 * per_phone))
    assert stream.events.empty()


def test_a_stream_ends_after_its_time_and_says_when_to_reconnect(client):
    table = Table(client)
    client.application.config.update(EVENTS_STREAM_S=0.3, EVENTS_HEARTBEAT_S=0.1)
    table.hands_ok(DRAW)
    body = client.get(f"{table.path}/events?after=1", headers=table.headers()).get_data(as_text=True)
    assert body.startswith("retry: 1000\n\nid: 2\nevent: hand\n")  # then heartbeats until it ends


def test_a_stream_opened_with_a_link_since_replaced_ends_and_sends_nothing_more(client, streams):
    table = Table(client)
    stream = streams(client, table, f"?token={table.created['read_token']}")
    new = client.post(f"{table.path}/tokens", headers=table.headers()).get_json()["token"]
    assert client.post(f"{table.path}/hands", json=DRAW,
                       headers={"Authorization": f"Bearer {new}"}).status_code == 201
    stream.thread.join(WAIT_S)  # the generator returned at its next wake-up: the reader's loop ended
    assert not stream.thread.is_alive()
    assert stream.events.empty()


def test_a_change_made_in_this_process_reaches_its_streams_at_once_rendered_once_per_script(make_app, monkeypatch):
    """The poll would take an hour: the hand arrives because its commit woke the streams (issue 28), and three
    streams in two scripts cost two renderings of its event, not three."""
    from api.sessions import events

    rendered = []
    original = events.change_event
    monkeypatch.setattr(events, "change_event", lambda change, names=None: rendered.append(names is not None)
                        or original(change, names))
    app = make_app(EVENTS_POLL_S=3600)
    client = app.test_client()
    table = Table(client)
    opened = [Stream(client, table, query, **table.headers()) for query in ("?lang=zh-Hans", "?lang=en", "?lang=zh-Hant")]
    try:
        table.hands_ok(discard("Ben", "Cat", 3))
        taken = [stream.take(1)[0] for stream in opened]
    finally:
        for stream in opened:
            stream.close()
    assert [(revision, kind, data["totals"]["Ben"]) for revision, kind, data in taken] == [(2, "hand", 160)] * 3
    assert sorted(rendered) == [False, True]  # the stored names once (en and zh-Hant share them), 简体 once


def test_heartbeats_read_nothing_from_the_database(make_app):
    """A stream's heartbeat asks the database nothing (issue 28: every wake did, four queries a stream)."""
    from sqlalchemy import event

    from api.http.db import get_engine

    app = make_app(EVENTS_POLL_S=3600, EVENTS_HEARTBEAT_S=0.01)
    client = app.test_client()
    table = Table(client)
    response = client.get(f"{table.path}/events", headers=table.headers(), buffered=False)
    chunks = iter(response.response)
    try:
        assert next(chunks).startswith(b"retry:")
        assert next(chunks) == b": still here\n\n"  # the first wake read the tokens that open the evening
        streaming = threading.current_thread()  # the stream's generator runs here; the watcher's threads may read
        statements = []
        event.listen(get_engine(app), "before_cursor_execute",
                     lambda *args: threading.current_thread() is streaming and statements.append(args[2]))
        assert [next(chunks) for _ in range(5)] == [b": still here\n\n"] * 5
    finally:
        response.close()
    assert statements == []


def test_a_stopping_server_ends_every_stream_at_once_an_evenings_and_a_competitions(make_app):
    """SIGTERM or Ctrl+C (api.gunicorn_config): the streams end now, not at their heartbeat (15 s) nor at the
    end of their half hour; a new one ends after its first line (tests/system/test_stopping.py: a server)."""
    app = make_app()  # its own: the shared app's streams must go on
    client = app.test_client()
    table = Table(client)
    cup = entered(client, NAMES[:4])
    evening = EventStream(client, f"{table.path}/events?token={table.token}")
    competition = EventStream(client, f"{cup.path}/events?token={cup.tokens['read']}", ids=str)
    try:
        assert [kind for _, kind, _ in competition.take(2)] == ["round", "standings"]
        end_streams(app)
        for stream in (evening, competition):
            stream.thread.join(WAIT_S)
            assert not stream.thread.is_alive()
        late = client.get(f"{table.path}/events?token={table.token}")
        assert late.status_code == 200 and late.get_data(as_text=True) == "retry: 1000\n\n"
    finally:
        evening.close()
        competition.close()
