"""A group's replaced link on one of its evenings says "replaced, ask for the new link" (401), as the evening's own
replaced link does, not "does not open" (403) (issue 27, item 8)."""
import pytest

from tests.api.groups.groups import Club

PLAYERS = ["Amy", "Ben", "Cat", "Dan"]


@pytest.mark.parametrize("level", ["admin", "member", "read"])
def test_a_replaced_group_token_on_a_group_evening_is_401_replaced(client, level):
    club = Club(client)
    for name in PLAYERS:
        club.add(name)
    evening = club.evening(PLAYERS)
    old = club.headers(level)
    assert club.post("/tokens", level="admin", body={}).status_code == 201
    response = client.get(evening.path, headers={**old, "Accept-Language": "en"})
    assert response.status_code == 401
    assert response.headers["WWW-Authenticate"] == 'Bearer realm="taizhang"'
    assert response.get_json()["message"] == ("This link has been replaced by a new one: ask the table for the "
                                              "new link.")
    stranger = client.get(evening.path, headers={"Authorization": "Bearer never-issued"})
    assert stranger.status_code == 403  # a token that never opened it is still "does not open"


def test_a_groups_new_links_end_the_live_streams_of_its_evenings_at_once(make_app):
    """The watcher would poll and check once an hour (issue 28): the stream opened with the group's read link
    ends because the commit of the group's new links told this process's watcher."""
    app = make_app(EVENTS_POLL_S=3600, EVENTS_CHECK_S=3600, EVENTS_HEARTBEAT_S=2, EVENTS_STREAM_S=5)
    client = app.test_client()
    club = Club(client)
    for name in PLAYERS:
        club.add(name)
    evening = club.evening(PLAYERS)
    response = client.get(f"{evening.path}/events?token={club.tokens['read']}", buffered=False)
    chunks = iter(response.response)
    try:
        assert next(chunks).startswith(b"retry:")
        evening.win("Ben", "Cat")
        assert next(chunks).startswith(b"id: 2\nevent: hand\n")  # the stream has checked its token
        assert club.post("/tokens", level="admin", body={}).status_code == 201
        assert list(chunks) == []  # it ended at once: no heartbeat (2 s), not at the end of its 5 s
    finally:
        response.close()
