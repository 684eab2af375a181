"""An evening's answer kept per revision in each process (``api.sessions.kept``) is never stale in another.

Two production servers on one database, whose processes share only the database: each has read the
evening, and kept its answer, before a change made through the other. The next poll on the
first shows the change, a replaced link is refused there at once, and a closing is seen there at once.
"""
from tests.system.evening import create_table
from tests.system.test_live_updates import servers  # noqa: F401 (a fixture: two servers on one database)

DISCARD = {"winners": [{"player": "Amy", "tai": 3}], "by": "discard", "discarder": "Ben"}


def read(server, table, token=None):
    return server.call("GET", table.path, headers={"Authorization": f"Bearer {token or table.token}"})


def test_what_one_process_kept_follows_changes_made_in_another(servers):  # noqa: F811
    a, b = servers
    table = create_table(a, "taiwan")
    kept_on_a, kept_on_b = read(a, table), read(b, table)
    assert kept_on_a == kept_on_b == (200, kept_on_a[1]) and kept_on_a[1]["revision"] == 1
    assert read(a, table) == kept_on_a  # answered from what a kept

    status, hand = b.call("POST", f"{table.path}/hands", DISCARD, headers=table.headers())
    assert status == 201 and hand["revision"] == 2
    status, after = read(a, table)
    assert status == 200 and after["revision"] == 2 and after["next_hand"] == 2
    assert after["totals"] == hand["totals"] != kept_on_a[1]["totals"]
    assert read(b, table) == (200, after)

    status, links = b.call("POST", f"{table.path}/tokens", headers=table.headers())
    assert status == 201
    assert read(a, table)[0] == 401  # the old link, refused on a at once
    assert read(a, table, links["read_token"]) == (200, {**after, "access": "read"})
    assert read(a, table, links["token"]) == (200, after)  # new links are no change: the same revision

    assert b.call("POST", f"{table.path}/close", headers={"Authorization": f"Bearer {links['token']}"})[0] == 200
    status, closed = read(a, table, links["token"])
    assert status == 200 and closed["revision"] == 3 and closed["state"]["closed"] is True
