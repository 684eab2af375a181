"""Helpers for the session tests: a table driven through the HTTP API, and a fresh replay to compare with.

`Table(client, ...)` creates a session and remembers its id and token; its
methods return the werkzeug response. `fresh_replay(app, id)` replays the
stored entries from scratch, for "stored totals equal a replay" checks.
"""
from api.http.db import get_db
from api.http.limits import limits
from api.sessions.service import replay_entries
from ledger import store

PLAYERS = ["Amy", "Ben", "Cat", "Dan"]
TAIWAN_STAKES = {"base": 100, "per_tai": 20}
SHANGHAI_STAKES = {"base": 10}


def session_body(ruleset="taiwan", players=None, stakes=None, options=None, name="Friday at Amy's",
                 house_rules=None):
    """A valid POST /api/sessions body (Taiwanese 100/20 or shanghai 10 by default), with house rules if given."""
    default_stakes = SHANGHAI_STAKES if ruleset == "shanghai" else TAIWAN_STAKES
    body = {"name": name, "ruleset": ruleset, "players": list(players or PLAYERS),
            "stakes": dict(stakes or default_stakes), "options": dict(options or {})}
    if house_rules is not None:
        body["house_rules"] = house_rules
    return body


def discard(winner, discarder, tai=1):
    """A quick-entry Taiwanese win on a discard."""
    return {"winners": [{"player": winner, "tai": tai}], "by": "discard", "discarder": discarder}


def self_draw(winner, tai=1):
    """A quick-entry Taiwanese self-draw."""
    return {"winners": [{"player": winner, "tai": tai}], "by": "self_draw"}


DRAW = {"draw": True, "reason": "exhausted"}
OPEN = {"closed": False, "closed_at": None}  # what a session's state adds to the table's while it is open


class Table:
    """One session, created through the API, and requests on it with its token."""

    def __init__(self, client, **session):
        self.client = client
        response = client.post("/api/sessions", json=session_body(**session))
        assert response.status_code == 201, response.get_json()
        self.created = response.get_json()
        self.id = self.created["id"]
        self.token = self.created["token"]
        self.path = f"/api/sessions/{self.id}"

    def headers(self, **extra):
        return {"Authorization": f"Bearer {self.token}", **extra}

    def hand(self, body, **headers):
        return self.client.post(f"{self.path}/hands", json=body, headers=self.headers(**headers))

    def hands_ok(self, *bodies):
        """Post hands that must be accepted; their JSON responses."""
        results = []
        for body in bodies:
            response = self.hand(body)
            assert response.status_code == 201, response.get_json()
            results.append(response.get_json())
        return results

    def seat(self, seat, player, **headers):
        return self.client.post(f"{self.path}/seats", json={"seat": seat, "player": player},
                                headers=self.headers(**headers))

    def void(self, number, **headers):
        return self.client.delete(f"{self.path}/hands/{number}", headers=self.headers(**headers))

    def correct(self, number, body, **headers):
        return self.client.put(f"{self.path}/hands/{number}", json=body, headers=self.headers(**headers))

    def get(self, suffix=""):
        response = self.client.get(self.path + suffix, headers=self.headers())
        assert response.status_code == 200, response.get_json()
        return response.get_json()

    def session(self):
        return self.get()

    def totals(self):
        return self.get()["totals"]

    def hands(self):
        return self.get("/hands")

    def audit(self):
        return self.get("/audit")

    def snapshot(self):
        """Everything a rejected request must leave unchanged."""
        return self.session(), self.hands()


def fresh_replay(app, session_id):
    """Replay the stored entries from the start: (state, totals, each entry's result), plus the stored results."""
    with app.app_context():
        record = store.load_session(get_db(), session_id)
        recorder, results = replay_entries(record.session, record.entries, limits())
        return recorder.state.to_dict(), recorder.totals, results, [entry.result for entry in record.entries]


def assert_matches_replay(app, table):
    """The cached state and totals, and every stored result, equal a replay from scratch."""
    state, totals, results, stored = fresh_replay(app, table.id)
    session = table.session()
    assert session["state"] == {**state, "closed": session["state"]["closed"],
                                "closed_at": session["state"]["closed_at"]}
    assert session["totals"] == totals
    assert stored == results


def assert_rejected(response, field, *phrases):
    """A 422 whose `field` is `field` and whose message holds each phrase."""
    assert response.status_code == 422, response.get_json()
    body = response.get_json()
    assert body["field"] == field, body
    for phrase in phrases:
        assert phrase in body["message"], body
