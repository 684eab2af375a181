"""Helpers for the group tests: a group driven through the HTTP API.

`Club(client)` creates a group (Taiwanese, 100 底 / 20 per 台 by default) and
keeps its three tokens; `club.add(name)` adds a member, `club.evening(...)`
starts an evening of the group with the member token. Requests return the
werkzeug response; `*_ok` helpers assert the status and return the JSON.

Worked amounts (quick entry, dealer not involved, dealer bonus on): a
1-台 win on a discard is 100 + 20 × 1 = 120 from the discarder; 2 台 is 140.
"""
from tests.api.sessions.tables import discard

STAKES = {"base": 100, "per_tai": 20}


class Club:
    """One group, created through the API, with its tokens."""

    def __init__(self, client, name="Friday club", defaults=None):
        self.client = client
        body = {"name": name, "defaults": {"ruleset": "taiwan", "stakes": STAKES} if defaults is None else defaults}
        response = client.post("/api/groups", json=body)
        assert response.status_code == 201, response.get_json()
        self.created = response.get_json()
        self.id = self.created["id"]
        self.path = f"/api/groups/{self.id}"
        self.tokens = {level: self.created[f"{level}_token"] for level in ("admin", "member", "read")}

    @classmethod
    def with_members(cls, client, names) -> "Club":
        """A group whose roster is ``names``, added in that order."""
        club = cls(client)
        for name in names:
            club.add(name)
        return club

    def headers(self, level="member"):
        return {"Authorization": f"Bearer {self.tokens[level]}"}

    def get(self, suffix="", level="read", headers=None, **kwargs):
        """GET with the token of `level`, and any other `headers` (e.g. Accept-Language)."""
        return self.client.get(self.path + suffix, headers={**self.headers(level), **(headers or {})}, **kwargs)

    def get_ok(self, suffix="", level="read", **kwargs):
        response = self.get(suffix, level, **kwargs)
        assert response.status_code == 200, response.get_json()
        return response.get_json()

    def post(self, suffix, body=None, level="member"):
        return self.client.post(self.path + suffix, json=body, headers=self.headers(level))

    def post_ok(self, suffix, body=None, level="member", status=201):
        response = self.post(suffix, body, level)
        assert response.status_code == status, response.get_json()
        return response.get_json()

    def add(self, name, **extra):
        """Add a member; its id."""
        return self.post_ok("/members", {"name": name, **extra})["id"]

    def evening(self, players, name="Friday", level="member", **body):
        """Start an evening of the group; an `Evening`."""
        response = self.client.post("/api/sessions", json={"name": name, "players": players, "group": self.id, **body},
                                    headers=self.headers(level))
        assert response.status_code == 201, response.get_json()
        return Evening(self, response.get_json())

    def pay(self, frm, to, amount, **extra):
        return self.post("/payments", {"from": frm, "to": to, "amount": amount, **extra})

    def balances(self, **query):
        return self.get_ok("/balances", query_string=query)

    def standings(self, **query):
        return self.get_ok("/standings", query_string=query)


class Evening:
    """An evening of a group; requests on it with a group token (member by default)."""

    def __init__(self, club, created):
        self.club = club
        self.created = created
        self.id = created["id"]
        self.path = f"/api/sessions/{self.id}"

    def hand(self, body, level="member"):
        return self.club.client.post(f"{self.path}/hands", json=body, headers=self.club.headers(level))

    def win(self, winner, discarder, tai=1):
        response = self.hand(discard(winner, discarder, tai))
        assert response.status_code == 201, response.get_json()
        return response.get_json()
