"""Every change is rate limited and every list of a body bounded (issue 27, item 2).

A group member token, which anyone gets by creating a group, lifted every
limit: 1,000 payments in one request, 1,200 aliases on one member, imports
without end. Changes now count per link (``RATE_LIMIT_WRITE``), groups per
address per day (``RATE_LIMIT_CREATE_GROUP``), and lists, members and evenings
are bounded by settings (``api.http.limits``); each refusal is in the reader's
language.
"""

from tests.api.competitions.test_competitions import Cup
from tests.api.groups.groups import Club
from tests.api.sessions.tables import DRAW, Table

PLAYERS = ["Amy", "Ben", "Cat", "Dan"]
ADDRESS = {"REMOTE_ADDR": "192.0.2.20"}


def test_changes_past_the_write_limit_of_a_link_are_429_and_other_links_go_on(make_app):
    app = make_app(RATELIMIT_ENABLED=True, RATE_LIMIT_WRITE="5 per minute")
    client = app.test_client()
    table, other = Table(client), Table(client)
    assert [table.hand(DRAW).status_code for _ in range(5)] == [201] * 5
    refused = table.hand(DRAW, **{"Accept-Language": "zh-TW"})
    assert refused.status_code == 429
    seconds = int(refused.headers["Retry-After"])
    assert 1 <= seconds <= 60
    assert refused.get_json()["message"] == f"這個連結的更改太多（每個連結最多 5 per minute）；請 {seconds} 秒後再試。"
    assert client.get(table.path, headers=table.headers()).get_json()["state"]["hands_played"] == 5
    assert other.hand(DRAW).status_code == 201  # another table's link: its own counter
    assert client.get(table.path, headers=table.headers()).status_code == 200  # reads are not counted


def test_tokens_that_name_no_link_count_as_their_address_and_links_keep_their_own(make_app):
    """Issue 39: 8,097 writes with random tokens got no 429, each token a counter of its own."""
    app = make_app(RATELIMIT_ENABLED=True, RATE_LIMIT_WRITE="5 per minute")
    client = app.test_client()
    table = Table(client)
    club = Club(client)
    other_address = {"REMOTE_ADDR": "192.0.2.21"}

    def junk(n, path=f"{table.path}/hands", environ=ADDRESS, in_query=False):
        headers = {} if in_query else {"Authorization": f"Bearer junk-{n}"}
        return client.post(path + (f"?token=junk-{n}" if in_query else ""), json=DRAW, headers=headers,
                           environ_base=environ).status_code

    # five from the address, whichever endpoint and however the token is sent: the address's five
    assert [junk(0), junk(1, in_query=True), junk(2, f"{club.path}/members"), junk(3), junk(4)] == \
        [403, 401, 401, 403, 403]  # (a hand takes no ?token=: 401; a group answers 401 a token not its own)
    assert [junk(5), junk(6, f"{club.path}/payments"), junk(7, in_query=True)] == [429] * 3
    assert junk(8, environ=other_address) == 403  # another address: a counter of its own
    honest = client.post(f"{table.path}/hands", json=DRAW, headers=table.headers(), environ_base=ADDRESS)
    assert honest.status_code == 201  # the table's link, behind the same address, counts on its own
    club.add("Amy")  # the group's link too
    cup = Cup(client)
    entered = client.post(f"{cup.path}/entrants", json={"names": ["Amy"]}, headers=cup.headers(), environ_base=ADDRESS)
    assert entered.status_code == 201  # and a competition's
    assert client.get(table.path, headers=table.headers()).get_json()["state"]["hands_played"] == 1


def test_a_group_member_token_is_held_to_the_write_limit(make_app):
    app = make_app(RATELIMIT_ENABLED=True, RATE_LIMIT_WRITE="6 per minute")
    club = Club(app.test_client())
    for name in PLAYERS:  # four changes
        club.add(name)
    assert [club.pay("Amy", "Ben", 10).status_code for _ in range(3)] == [201, 201, 429]
    assert club.pay("Amy", "Ben", 10).headers["Retry-After"]


def test_a_change_counts_one_more_for_each_payment_or_alias_it_lists(make_app):
    app = make_app(RATELIMIT_ENABLED=True, RATE_LIMIT_WRITE="20 per minute")
    club = Club(app.test_client())
    club.add("Amy")  # 1
    assert club.post("/members", {"name": "Ben", "aliases": ["B1", "B2", "B3"]}).status_code == 201  # 1 + 3: 5
    batch = {"payments": [{"from": "Amy", "to": "Ben", "amount": 10}] * 10}
    assert club.post("/payments", batch).status_code == 201  # 1 + 10: 16 of 20 counted
    assert club.post("/payments", batch).status_code == 429  # 11 more would pass 20, and it counts nothing
    assert [club.pay("Amy", "Ben", 10).status_code for _ in range(5)] == [201] * 4 + [429]  # 17, …, 20
    assert len(club.get_ok("/payments")["payments"]) == 14


def test_the_21st_group_of_a_day_from_one_address_is_429(make_app):
    client = make_app(RATELIMIT_ENABLED=True).test_client()
    statuses = [client.post("/api/groups", json={"name": f"Club {n}"}, environ_base=ADDRESS).status_code
                for n in range(21)]
    assert statuses == [201] * 20 + [429]
    refused = client.post("/api/groups", json={"name": "Club"}, environ_base=ADDRESS)
    assert refused.get_json()["message"].startswith(
        "Too many requests from your address for creating groups (at most 20 per day from one address)")


def test_more_payments_in_one_request_than_the_bound_are_refused_and_none_kept(client):
    club = Club.with_members(client, PLAYERS)
    payment = {"from": "Amy", "to": "Ben", "amount": 1}
    refused = client.post(f"{club.path}/payments", json={"payments": [payment] * 201},
                          headers={**club.headers(), "Accept-Language": "zh-TW"})
    assert refused.status_code == 422
    assert refused.get_json()["field"] == "payments"
    assert "共 201 項：最多接受 200 項。" in refused.get_json()["message"]
    assert club.post("/payments", {"payments": [payment] * 200}).status_code == 201
    assert len(club.get_ok("/payments")["payments"]) == 200


def test_more_aliases_than_the_bound_are_refused_on_adding_editing_and_merging(make_app):
    client = make_app(MAX_ALIASES=2).test_client()
    club = Club.with_members(client, PLAYERS)
    refused = club.post("/members", {"name": "Eve", "aliases": ["E1", "E2", "E3"]})
    assert refused.status_code == 422
    assert "3 items: at most 2 are accepted." in refused.get_json()["message"]
    assert club.post("/members", {"name": "Eve", "aliases": ["E1", "E2"]}).status_code == 201
    renamed = client.patch(f"{club.path}/members/Eve", json={"name": "Eva"}, headers=club.headers("admin"))
    assert renamed.status_code == 422  # the old name would be a third alias
    assert renamed.get_json()["message"] == "A member has at most 2 aliases."
    merged = club.post("/members/Dan/merge", {"into": "Eve"}, level="admin")  # E1, E2 and Dan
    assert merged.status_code == 422
    assert merged.get_json()["field"] == "into"


def test_a_member_past_the_groups_bound_is_refused(make_app):
    client = make_app(MAX_MEMBERS=4).test_client()
    club = Club.with_members(client, PLAYERS)
    refused = client.post(f"{club.path}/members", json={"name": "Eve"},
                          headers={**club.headers(), "Accept-Language": "zh-CN"})
    assert refused.status_code == 422
    assert refused.get_json()["message"] == "一个牌友会最多 4 位成员。"
    assert len(club.get_ok()["members"]) == 4


def test_an_evening_past_the_groups_bound_is_refused_however_it_comes(make_app):
    client = make_app(MAX_GROUP_EVENINGS=1).test_client()
    club = Club.with_members(client, PLAYERS)
    club.evening(PLAYERS)
    refused = client.post("/api/sessions", json={"name": "Again", "players": PLAYERS, "group": club.id},
                          headers=club.headers())
    assert refused.status_code == 422
    assert refused.get_json()["message"] == ("A group has at most 1 evenings: start a new group, or delete evenings "
                                             "started by mistake.")
    table = Table(client)
    attached = club.post("/sessions", {"session": table.id, "token": table.token})
    assert attached.status_code == 422
    assert len(club.get_ok()["evenings"]) == 1
